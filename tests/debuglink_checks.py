#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
A binary stripped of everything, its symbols and call frame information in a
separate debug file beside it (named by its .gnu_debuglink), as distributions
and build systems ship them, recorded with --call-graph dwarf.  perf's
build-id cache then holds the stripped copy; its debuglink still means the
file beside the binary as recorded, not beside the copy.

Built here with cc and clang, objcopy and strip (C, -O2, no .eh_frame for its own
functions: -fno-asynchronous-unwind-tables, so unwinding needs .debug_frame
from the debug file).  Checks, on any machine and load: the functions are
named from the debug file, with and without --symfs; at least 90% of the
program's samples unwind from its innermost function to main and _start,
with the debug file's .debug_frame; perf agrees on the flat profile.
Exits 77 where perf cannot record or no compiler is there.

usage: debuglink_checks.py MYCL_HOT WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "scripts"))
from perfreport import perf_rows, mycl_rows, outcome  # noqa: E402

SRC = r"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static unsigned long knead(unsigned long x)
{ for (int i = 0; i < 2000; i++) x = x * 2654435761u + (unsigned long)i; return x; }
__attribute__((noinline)) static unsigned long fold(unsigned long x)
{ return knead(x) ^ knead(x + 1); }
__attribute__((noinline)) static unsigned long stir(unsigned long x)
{ unsigned long s = 0; for (int i = 0; i < 3; i++) s += fold(x + (unsigned long)i); return s; }
int main(int argc, char **argv)
{ unsigned long s = 0; long n = argc > 1 ? atol(argv[1]) : 1; for (long i = 0; i < n; i++) s += stir((unsigned long)i);
  printf("%lu\n", s); return 0; }
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check(hot, work, compiler):
    """One build by COMPILER: None when it cannot be built or recorded here, else ok."""
    bindir = os.path.join(work, "opt", "kneader", "bin")
    os.makedirs(bindir)
    src = os.path.join(work, "kneader.c")
    with open(src, "w") as f:
        f.write(SRC)
    exe = os.path.join(bindir, "kneader")
    dbg = exe + ".debug"
    for cmd in ([compiler, "-O2", "-g", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables",
                 "-o", exe, src],
                ["objcopy", "--only-keep-debug", exe, dbg],
                ["strip", "--strip-all", exe],
                ["objcopy", "--add-gnu-debuglink=" + dbg, exe]):
        try:
            r = run(cmd)
        except OSError as e:
            print(f"skip: {compiler}: {e}")
            return None
        if r.returncode:
            print(f"skip: {' '.join(cmd)}: {r.stderr.strip()}")
            return None
    cache = os.path.join(work, "cache")
    data = os.path.join(work, "kneader.data")
    r = run(["perf", "--buildid-dir", cache, "record", "-q", "-e", "cpu-clock", "-F", "500",
             "--call-graph", "dwarf,4096", "-o", data, "--", exe, "40000"], timeout=300)
    if r.returncode:
        print(f"skip: perf record: {r.stderr.strip()}")
        return None
    copies = [os.path.join(d, f) for d, _, fs in os.walk(cache) for f in fs if f == "elf"]
    print(f"{compiler}: the build-id cache holds the stripped copy: {bool(copies)}")
    ok = True
    # Without --symfs the cache's stripped copy is found first; with it, the binary under it.
    for name, args in (("cache", ["--buildid-dir", cache]),
                       ("symfs", ["--buildid-dir", "", "--symfs", "/"])):
        out = run([hot, "--comm", "kneader", *args, data]).stdout
        # "symbols from" the debug file, in the summary (its lines wrap at 100 columns)
        summary = re.sub(r"\n#\s+", " ", out[out.find("# Symbolization"):])
        if "symbols from " not in summary or not summary.split("symbols from ")[1].lstrip(
                "/").startswith(dbg.lstrip("/")) or " knead\n" not in out:
            ok = False
            print(f"FAIL: {compiler} {name}: symbols not from {dbg}:")
            print("\n".join(l for l in out.splitlines() if "kneader" in l or "knead" in l))
        folded = run([hot, "--folded", "--comm", "kneader", *args, data]).stdout
        total = full = 0
        for line in folded.splitlines():
            stack, n = line.rsplit(" ", 1)
            frames = stack.split(";")
            if not any(f.endswith("_[k]") for f in frames) and "knead" in frames:
                total += int(n)
                i = frames.index("knead")
                if frames[i - 3:i] == ["main", "stir", "fold"] and "_start" in frames:
                    full += int(n)
        share = full / total if total else 0
        print(f"{'ok' if share >= 0.9 else 'FAIL'}: {compiler} {name}: {full} of {total} "
              f"samples in knead unwind to main and _start ({share:.0%})")
        ok = ok and share >= 0.9
    # perf names the same functions in the flat profile (it reads the debuglink beside the binary).
    p, _ = perf_rows(data)
    m, _ = mycl_rows(hot, data)
    for ev in p:
        rows = {k: v for k, v in p[ev]["rows"].items() if v >= 0.5}
        for k, v in rows.items():
            mv = m.get(ev, {"rows": {}})["rows"].get(k)
            if mv is None or abs(mv - v) > 0.05:
                ok = False
                print(f"FAIL: {compiler} flat {k}: perf {v:.2f}%, mycl {mv}")
        print(f"{compiler}: flat rows >= 0.5% compared with perf: {len(rows)}")
    return ok


def main():
    hot, work = sys.argv[1:3]
    shutil.rmtree(work, ignore_errors=True)
    results = [check(hot, os.path.join(work, c), c) for c in ("cc", "clang")]
    return outcome(results)


if __name__ == "__main__":
    sys.exit(main())
