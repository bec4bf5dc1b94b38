#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
mycl-share checks:
  - cross-architecture fixtures (aarch64, ppc64le, s390x): the architecture's
    line size, the seed's writer and the switch's reader found by disassembly,
    and both named in the disassembly of the functions that touch them;
  - samples/ttas_mutex laid out as the article's block: the seed's line is
    flagged at 128 and 256 bytes, not at 64;
  - Debian's mariadbd (when installed): the grouping of .dynsym variables into
    lines equals one computed independently from readelf, at 64, 128 and 256
    bytes;
  - the corpus's perf.data.weight_struct: its data addresses bucketed into lines.

usage: share_checks.py MYCL_SHARE DATA_DIR TTAS_MUTEX CORPUS_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, summary


def share(tool, *args):
    r = subprocess.run([tool, *args], capture_output=True, text=True, timeout=300)
    return r


def share_json(tool, *args):
    r = share(tool, "--format", "json", *args)
    if r.returncode != 0:
        raise RuntimeError(f"mycl-share {args}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def members(doc):
    out = {}
    for line in doc["lines"]:
        for m in line["members"]:
            out[m["name"]] = (m, line)
    return out


def cross(tool, data):
    want = {"aarch64": ("aarch64", 128), "powerpc64le": ("ppc64", 128), "s390x": ("s390x", 256)}
    for suffix, (arch, size) in want.items():
        path = os.path.join(data, "cross", f"globals.{suffix}")
        doc = share_json(tool, "--all", path)
        m = members(doc)
        check(f"{suffix}: arch {arch}, {size}-byte lines",
              doc["arch"] == arch and doc["line_size"] == size, f"{doc['arch']} {doc['line_size']}")
        seed, line = m["seed_counter"]
        sw, _ = m["search_enabled"]
        # The compilers keep the seed in a register through the loop and store it
        # once after: one store and one load of the seed, one load of the switch.
        check(f"{suffix}: the seed's store and load, the switch's load",
              seed["stores"] == 1 and seed["loads"] == 1 and sw["loads"] == 1 and
              sw["stores"] + sw["rmws"] == 0, f"seed {seed} switch {sw}")
        check(f"{suffix}: seed and switch on one flagged line",
              line["verdict"] == "writer_with_readers" and
              "search_enabled" in [x["name"] for x in line["members"]], str(line["verdict"]))
        spin = share(tool, "--disassemble", "spin", path).stdout
        look = share(tool, "--disassemble", "lookup", path).stdout
        check(f"{suffix}: disassembly names the store and the load",
              "seed_counter write" in spin and "search_enabled read" in look, spin + look)


def ttas(tool, binary):
    flagged = {}
    for size in (64, 128, 256):
        doc = share_json(tool, "--line-size", str(size), binary)
        flagged[size] = any(line["verdict"] != "ok" and
                            "ut_rnd_ulint_counter" in [m["name"] for m in line["members"]]
                            for line in doc["lines"])
    check("ttas_mutex: the seed's line flagged at 128 and 256, not at 64",
          flagged == {64: False, 128: True, 256: True}, str(flagged))
    doc = share_json(tool, "--all", binary)
    seed, _ = members(doc)["ut_rnd_ulint_counter"]
    check("ttas_mutex: the seed's writers found, in spin code",
          seed["stores"] + seed["rmws"] >= 1 and seed["writes_in_spin"] >= 1, str(seed))


def readelf_groups(binary, size):
    """Lines -> variable addresses, from readelf alone."""
    secs = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout
    writable = {}
    for line in secs.splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
        if m and "W" in m.group(5) and "T" not in m.group(5) and "X" not in m.group(5):
            writable[int(m.group(1))] = True
    syms = subprocess.run(["readelf", "--dyn-syms", "-W", binary], capture_output=True,
                          text=True).stdout
    groups = {}
    for line in syms.splitlines():
        f = line.split()
        if len(f) < 8 or f[3] != "OBJECT" or not f[6].isdigit() or int(f[6]) not in writable:
            continue
        addr, n = int(f[1], 16), int(f[2], 0) if not f[2].startswith("0x") else int(f[2], 16)
        for start in {addr & ~(size - 1), (addr + max(n, 1) - 1) & ~(size - 1)}:
            groups.setdefault(start, set()).add(addr)
    return groups


def mariadbd(tool):
    binary = shutil.which("mariadbd") or "/usr/sbin/mariadbd"
    if not os.path.exists(binary):
        print("skip mariadbd: not installed")
        return
    for size in (64, 128, 256):
        doc = share_json(tool, "--all", "--line-size", str(size), "--debug-dir", "", binary)
        ours = {}
        for line in doc["lines"]:
            ours[int(line["start"], 16)] = {int(m["address"], 16) for m in line["members"]}
        theirs = readelf_groups(binary, size)
        diff = [k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)]
        check(f"mariadbd: {len(ours)} lines of {size} bytes as readelf groups them", not diff,
              f"{len(diff)} lines differ, e.g. {[hex(k) for k in diff[:3]]}")
    # How long it takes is measured by bench/run.sh, never asserted here.


def weight_struct(tool, corpus, binary):
    path = os.path.join(corpus, "perf_data_converter/src/quipper/testdata/perf.data.weight_struct")
    if not os.path.exists(path):
        print("skip weight_struct: corpus absent")
        return
    doc = share_json(tool, "--perf", path, binary)
    n = sum(b["samples"] for b in doc["data_lines"])
    check("weight_struct: data addresses bucketed into lines",
          doc["data_samples"] == 14 and n == 14 and
          all(int(b["line"], 16) % doc["line_size"] == 0 for b in doc["data_lines"]),
          f"{doc['data_samples']} samples, {n} bucketed")


def main():
    tool, data, ttas_bin, corpus = sys.argv[1:5]
    cross(tool, data)
    ttas(tool, ttas_bin)
    mariadbd(tool)
    weight_struct(tool, corpus, ttas_bin)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
