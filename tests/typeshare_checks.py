#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
False sharing inside types: mycl-share --types on tests/data/typeshare.
  - kiosk.c (a shared till whose sales counter sits on the line of the settings
    every sale reads, per-cashier lanes 16 bytes apart, padded lanes, a
    turnstile whose two atomics the cashiers and the auditor write) and relay.cc
    (two std::atomic counters of a class written by different threads, a
    template mailbox's head and tail, sessions of a derived class indexed by
    worker), cache.cc (members in a base's tail padding, a lookup whose -O2
    clone returns through a tail call), workers.c (each thread's element handed
    to a function that writes it through its parameter), router.c (per-CPU and per-worker elements written through a local
    pointer, which -O0 keeps in the frame) and scorer.cc (a counter whose only
    writer is a lambda described inside a block of the function that makes
    it), built by gcc and clang at -O0 and -O2 and for aarch64 (its
    out-of-line atomics): each finding on every build, the padded type not
    flagged at 64-byte lines and flagged at 128 (--what-if, aarch64);
  - solo.c, one thread and no atomics: nothing flagged;
  - ledger.c, a 3.5 KB global struct with a counter in its middle: that line
    is judged and flagged, not the lines at the object's ends;
  - --type NAME lays a type out as pahole does (holes, padding, line
    boundaries, roles); unknown names and conflicting options are refused;
  - kiosk.data weighs the types: the sampled type ranks first;
  - the same binary without debug info says so and flags nothing;
  - the walk on threads of its own (MYCL_TYPE_THREADS=on) gives the report it gives on the
    calling thread alone, here and on mycl-share's own binary.

  - mycl-report --share-types carries the flagged types in its false-sharing section.

usage: typeshare_checks.py MYCL_SHARE DATA_DIR WORKDIR [MYCL_REPORT]
"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, over_width, summary, unfold


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300)


def types_json(share, binary, *extra):
    r = run(share, "--types", "--format", "json", *extra, binary)
    if r.returncode:
        return r, {}
    return r, {t["name"]: t for t in json.loads(r.stdout)["types"]}


def members(t):
    return {m["name"]: m for m in t.get("members", [])}


def main():
    share, data, work = sys.argv[1:4]
    d = os.path.join(data, "typeshare")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    # The same findings on every build of kiosk.c.
    for build in ["gcc-O2", "gcc-O0", "clang-O2", "clang-O0", "aarch64-O2"]:
        b = os.path.join(d, "kiosk." + build)
        r, ts = types_json(share, b)
        check(f"kiosk {build}: --types runs", r.returncode == 0, r.stderr[-300:])
        t = ts.get("struct turnstile", {})
        check(f"kiosk {build}: the turnstile's two atomics written by different threads",
              t.get("verdict") == "writers" and "entered" in (t.get("why") or "") and
              "left" in (t.get("why") or "") and t.get("shared") == "accessed atomically",
              t.get("why"))
        t = ts.get("struct till", {})
        m = members(t)
        check(f"kiosk {build}: the till's sales counter beside the settings it reads",
              t.get("verdict") == "writer_with_readers" and "sales" in (t.get("why") or "") and
              m.get("sales", {}).get("role") == "written_hot" and
              m.get("sales", {}).get("counters", 0) > 0 and
              m.get("set.open", {}).get("role") == "read_mostly", t)
        t = ts.get("struct lane", {})
        check(f"kiosk {build}: lanes written by index 16 bytes apart",
              t.get("verdict") == "slots" and "16 bytes" in (t.get("why") or "") and
              members(t).get("scanned", {}).get("element_writes", 0) > 0, t.get("why"))
        q = ts.get("struct quiet_lane", {})
        if build.startswith("aarch64"):
            check(f"kiosk {build}: 64-byte padded lanes share 128-byte lines",
                  q.get("verdict") == "slots" and not q.get("padded"), q.get("why"))
        else:
            r2 = run(share, "--types", b)
            check(f"kiosk {build}: the padded lanes are said padded, not flagged",
                  "quiet_lane" not in ts and "padded:" in r2.stdout and
                  "struct quiet_lane (64)" in unfold(r2.stdout), r2.stdout[-400:])

    # relay.cc: classes, a base class, a template, std::atomic members.
    for build in ["g++-O2", "clang++-O2", "aarch64-O2"]:
        b = os.path.join(d, "relay." + build)
        r, ts = types_json(share, b)
        check(f"relay {build}: --types runs", r.returncode == 0, r.stderr[-300:])
        e = ts.get("class Endpoint", {})
        check(f"relay {build}: two std::atomic counters of one class, written apart",
              e.get("verdict") == "writers" and "tally.sent" in (e.get("why") or "") and
              "tally.dropped" in (e.get("why") or ""), e.get("why"))
        mb = [t for n, t in ts.items() if n.startswith("struct Mailbox<")]
        check(f"relay {build}: the mailbox's head and tail, moved by producer and consumer",
              len(mb) == 1 and mb[0]["verdict"] == "writers" and "head" in mb[0]["why"] and
              "tail" in mb[0]["why"], mb)
        s = ts.get("class Session", {})
        check(f"relay {build}: sessions indexed by worker, a base class's member named",
              s.get("verdict") == "slots" and "word" in members(s) and
              members(s).get("bytes", {}).get("element_writes", 0) > 0, s)

    # router.c: per-CPU and per-worker elements reached through a local pointer (-O0: in the frame).
    for build in ["gcc-O0", "clang-O0", "gcc-O2"]:
        r, ts = types_json(share, os.path.join(d, "router." + build))
        st, cn, sv = (ts.get(n, {}) for n in ("struct cpu_stats", "struct conn", "struct server"))
        check(f"router {build}: per-CPU and per-worker elements through a local pointer: slots",
              r.returncode == 0 and st.get("verdict") == "slots" and cn.get("verdict") == "slots" and
              members(st).get("requests", {}).get("element_writes", 0) > 0,
              (st.get("verdict"), cn.get("verdict")))
        check(f"router {build}: the accepted count beside the limits",
              sv.get("verdict") == "writer_with_readers" and "accepted" in (sv.get("why") or ""),
              sv.get("why"))

    # cache.cc: members in a base's tail padding; a lookup clone ending in a tail call.
    for build in ["g++-O2", "clang++-O2", "g++-O0"]:
        b = os.path.join(d, "cache." + build)
        r, ts = types_json(share, b)
        c = ts.get("struct Cache", {})
        cm = members(c)
        check(f"cache {build}: the lookup count beside the limits, written on hot paths",
              r.returncode == 0 and c.get("verdict") == "writer_with_readers" and
              cm.get("lookups", {}).get("role") == "written_hot", c.get("why"))
        check(f"cache {build}: a member in the base's tail padding named as itself",
              cm.get("capacity", {}).get("role") == "read_mostly" and
              cm.get("kind", {}).get("hot_reads", 0) == 0,
              (cm.get("capacity"), cm.get("kind")))
        if build != "g++-O0":	# (-O0: the element comes back from vector::operator[]'s call)
            bk = [t for n, t in ts.items() if n.startswith("struct Bucket<")]
            check(f"cache {build}: per-thread buckets in a std::vector: slots",
                  len(bk) == 1 and bk[0]["verdict"] == "slots", [t["verdict"] for t in bk])

    # workers.c: each thread's element handed to a function writing it through its parameter.
    for build in ["gcc-O2", "gcc-O0", "clang-O0"]:
        r, ts = types_json(share, os.path.join(d, "workers." + build))
        ws = ts.get("struct worker_stat", {})
        check(f"workers {build}: elements handed to a writer through its parameter: slots",
              r.returncode == 0 and ws.get("verdict") == "slots" and
              members(ws).get("jobs", {}).get("element_writes", 0) > 0, ws.get("why"))

    # scorer.cc: the counter's only writer a lambda described inside a block of its maker.
    for build in ["g++-O2", "g++-O0", "clang++-O2", "aarch64-O2"]:
        r, ts = types_json(share, os.path.join(d, "scorer." + build))
        bm = members(ts.get("struct Board", {}))
        check(f"scorer {build}: the lambda inside a block found as the counter's writer",
              r.returncode == 0 and ts.get("struct Board", {}).get("verdict") == "writer_with_readers"
              and bm.get("rounds", {}).get("role") == "written_hot" and
              "operator()" in (bm.get("rounds", {}).get("writer") or "") and
              bm.get("width", {}).get("role") == "read_mostly", ts.get("struct Board"))

    # A large global struct: the counter's line in its middle judged, not its every line.
    for build, ls in (("gcc-O2", 64), ("aarch64-O2", 128)):
        b = os.path.join(d, "ledger." + build)
        r = run(share, "--format", "json", "--all", b)
        doc = json.loads(r.stdout) if r.returncode == 0 else {"lines": []}
        books = [m for ln in doc["lines"] for m in ln["members"] if m["name"] == "books"]
        flagged = [ln for ln in doc["lines"] if ln["verdict"] != "ok"]
        if books:
            a, n = int(books[0]["address"], 16), books[0]["size"]
            counter = (a + 520) & ~(ls - 1)
            check(f"ledger {build}: only the line of books.entries flagged, a counter",
                  [int(ln["start"], 16) for ln in flagged] == [counter] and
                  flagged[0]["verdict"] == "hot_counter" and
                  all(int(ln["start"], 16) in (a & ~(ls - 1), (a + n - 1) & ~(ls - 1), counter)
                      for ln in doc["lines"] if any(m["name"] == "books" for m in ln["members"])),
                  [(ln["start"], ln["verdict"]) for ln in doc["lines"]])
        else:
            check(f"ledger {build}: books listed", False, r.stderr[-300:])

    # One thread, no atomics: nothing to flag.
    r, ts = types_json(share, os.path.join(d, "solo.gcc-O2"))
    check("solo: one thread, no atomic: no type flagged",
          r.returncode == 0 and not any(t["verdict"] != "ok" for t in ts.values()), ts)
    r = run(share, "--types", "--type", "meter", os.path.join(d, "solo.gcc-O2"))
    check("solo: --type says why nothing is flagged", r.returncode == 0 and
          "no sign that threads or processes share its objects" in unfold(r.stdout), r.stdout)

    # --type: the layout.
    kiosk = os.path.join(d, "kiosk.gcc-O2")
    r = run(share, "--type", "till", kiosk)
    out = r.stdout
    check("--type till: the pahole-like layout", r.returncode == 0 and
          out.startswith("struct till {") and "double set.tax;" in out and
          "char note[40];" in out and "size: 72" in out, out)
    check("--type till: the 64-byte boundary inside note", "falls inside the member above" in out, out)
    check("--type till: roles and writers", "W ctr" in out and "by sell" in out and
          "R read by sell" in out, out)
    r = run(share, "--type", "struct lane", kiosk)
    check("--type 'struct lane': its tail padding", r.returncode == 0 and
          "XXX 4 bytes padding" in r.stdout, r.stdout)
    r = run(share, "--type", "no_such_type", kiosk)
    check("--type of an unknown type: exit 4, named", r.returncode == 4 and
          "no_such_type" in r.stderr and r.stdout == "", (r.returncode, r.stderr))
    for extra in (["--format", "json"], ["--symbol", "shop"], ["--all"]):
        r = run(share, "--type", "till", *extra, kiosk)
        check(f"--type with {extra[0]}: refused", r.returncode == 1 and "--type" in r.stderr,
              (r.returncode, r.stderr))
    r = run(share, "--types", "--disassemble", "sell", kiosk)
    check("--types with --disassemble: refused", r.returncode == 1, r.stderr)

    # --what-if: the types judged again at each line size.
    r = run(share, "--types", "--what-if", kiosk)
    parts = {}
    size = None
    for line in unfold(r.stdout).splitlines():
        if line.startswith("#   mycl-share: ") and "-byte lines)" in line:
            size = int(line.split("-byte lines)")[0].rsplit(" ", 1)[1])
            parts[size] = ""
        elif size:
            parts[size] += line + "\n"
    check("--what-if --types: three reports", r.returncode == 0 and sorted(parts) == [64, 128, 256],
          sorted(parts))
    flagged = {k: [ln for ln in v.splitlines() if re.match(r"T\d+\. ", ln)] for k, v in parts.items()}
    check("--what-if --types: the padded lanes flagged at 128 and 256 bytes, not 64",
          not any("quiet_lane" in ln for ln in flagged.get(64, [])) and
          all(any("struct quiet_lane (64 bytes" in ln for ln in flagged.get(k, []))
              for k in (128, 256)), flagged)

    # The text report: 100 columns.
    for b in [kiosk, os.path.join(d, "relay.g++-O2")]:
        r = run(share, "--types", b)
        check(f"--types text of {os.path.basename(b)} within 100 columns",
              not over_width(r.stdout), over_width(r.stdout))
        finds = [ln for ln in r.stdout.splitlines() if re.match(r"#? *T\d+\. ", ln)]
        check(f"--types text of {os.path.basename(b)}: the flagged types are no comment lines",
              finds and not any(ln.startswith("#") for ln in finds), finds[:2])
        r = run(share, "--type", "till" if "kiosk" in b else "Endpoint", b)
        check(f"--type text of {os.path.basename(b)} within 100 columns",
              not over_width(r.stdout), over_width(r.stdout))

    # A recording weighs the types: the sampled one first.
    r = run(share, "--types", "--format", "json", "--perf", os.path.join(d, "kiosk.data"), kiosk)
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    ts = j.get("types", [])
    check("--perf: the recording's samples on the types", r.returncode == 0 and
          sum(t["samples"] for t in ts) > 0, r.stderr[-300:])
    if ts:
        top = max(ts, key=lambda t: t["samples"])
        check("--perf: the most sampled flagged type ranks first", ts[0]["name"] == top["name"],
              [(t["name"], t["samples"]) for t in ts])

    # The debug info in a file the binary's debuglink names, beside it: found.
    linked = os.path.join(work, "kiosk.linked")
    shutil.copy(kiosk, linked)
    subprocess.run(["objcopy", "--only-keep-debug", linked, linked + ".debug"], check=True)
    subprocess.run(["objcopy", "--strip-debug", "--add-gnu-debuglink=" + linked + ".debug", linked],
                   check=True, cwd=work)
    r, ts = types_json(share, linked)
    check("debug info through the binary's debuglink: the same findings",
          r.returncode == 0 and ts.get("struct till", {}).get("verdict") == "writer_with_readers",
          sorted(ts))
    # Split DWARF (its .dwo not there): said, nothing made up.
    r = run(share, "--types", os.path.join(d, "kiosk.split-O2"))
    check("split DWARF: said, no type", r.returncode == 0 and
          "the debug info is split (-gsplit-dwarf)" in unfold(r.stdout) and "\nT1. " not in r.stdout,
          r.stdout[-400:])

    # mycl-report's false-sharing section with the types.
    if len(sys.argv) > 4:
        report = sys.argv[4]
        r = run(report, "--share-types", os.path.join(d, "kiosk.data"), kiosk)
        out = unfold(r.stdout)
        check("mycl-report --share-types: the types in its false-sharing section",
              r.returncode == 0 and "False sharing among globals and inside types" in out and
              "struct turnstile" in out and "struct till" in out and not over_width(r.stdout),
              r.stderr[-300:] + str(over_width(r.stdout)))
        r = run(report, "--share-types", "--no-share", os.path.join(d, "kiosk.data"))
        check("mycl-report --share-types with --no-share: refused", r.returncode == 1, r.stderr)

    # The walk on threads (each with its own DWARF handle) and on the calling thread alone:
    # the same report, on every build here and on a larger binary (this tool's own code).
    for b in sorted(os.listdir(d)) + sorted(os.listdir(os.path.join(data, "types"))) + [share]:
        path = b if os.path.isabs(b) else os.path.join(d if os.path.exists(os.path.join(d, b))
                                                       else os.path.join(data, "types"), b)
        if not re.search(r"\.(gcc|clang|g\+\+|clang\+\+|aarch64|split)-?O?[02]?$", b) and b != share:
            continue
        out = {}
        for mode in ("on", "off", ""):
            r = subprocess.run([share, "--types", "--all", "--format", "json", path],
                               capture_output=True, text=True, timeout=600,
                               env=dict(os.environ, MYCL_TYPE_THREADS=mode))
            out[mode] = (r.returncode, r.stdout)
        name = "mycl-share itself" if b == share else b
        check(f"{name}: --types the same with the walk on threads and without",
              out["on"] == out["off"] == out[""] and out["on"][0] == 0 and
              '"types_walked_functions"' in out["on"][1],
              (out["on"][0], out["off"][0], len(out["on"][1]), len(out["off"][1])))
    if shutil.which("strace"):
        # (the threads did start: a clone more with them than without)
        clones = {}
        for mode in ("on", "off"):
            r = subprocess.run(["strace", "-f", "-qq", "-e", "trace=clone,clone3", share, "--types",
                                "-q", kiosk], capture_output=True, text=True, timeout=600,
                               env=dict(os.environ, MYCL_TYPE_THREADS=mode,
                                        ASAN_OPTIONS="detect_leaks=0"))
            clones[mode] = len(re.findall(r"\bclone3?\(", r.stderr))
        check("MYCL_TYPE_THREADS=on starts the walk's threads, off none",
              clones["on"] > clones["off"], clones)

    # Without debug info: said, nothing flagged.
    bare = os.path.join(work, "kiosk.bare")
    subprocess.run(["objcopy", "--strip-debug", kiosk, bare], check=True)
    r = run(share, "--types", bare)
    check("without debug info: said, no type", r.returncode == 0 and
          "none walked" in r.stdout and "\nT1. " not in r.stdout, r.stdout[-300:])
    return summary()


if __name__ == "__main__":
    sys.exit(main())
