#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Frames put back from call instructions in frame-pointer chains: how often
it applies and how often it is right, against --call-graph dwarf recordings
of the same programs.  The committed lock-pattern fixtures (tests/data/locks:
C built with gcc -O2 and clang -O0, C++, glibc without frame pointers) are
measured as they are; with --record, this machine also records the sample
programs and the zoo with both call-graph modes.

usage: fp_repair.py MYCL_HOT DATA_DIR [--record BUILD_DIR]
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "scripts"))
from fprepair import measure  # noqa: E402


def row(name, r):
    total, repaired, frames, right = r
    print(f"{name:<28} {total:>8} {100.0 * repaired / total if total else 0:>9.1f}% "
          f"{frames:>8} {100.0 * right / frames if frames else 0:>9.1f}%")


def main():
    hot, data = sys.argv[1], sys.argv[2]
    ldir = os.path.join(data, "locks")
    fx = ["--symfs", os.path.join(data, "symfs"), "--buildid-dir", "", "--debug-dir", "",
          "--kallsyms", os.path.join(ldir, "kallsyms")]
    print(f"{'recording':<28} {'samples':>8} {'repaired':>10} {'frames':>8} {'right':>10}")
    sums = [0, 0, 0, 0]
    for name in ("tas", "ttas", "pmutex", "rwlock", "cas", "xadd", "mmap", "pool", "members"):
        r = measure(hot, os.path.join(ldir, f"{name}.fp.data"),
                    os.path.join(ldir, f"{name}.dwarf.data"), fx)
        row(name, r)
        sums = [a + b for a, b in zip(sums, r)]
    if "--record" in sys.argv:
        build = sys.argv[sys.argv.index("--record") + 1]
        progs = {
            "hotloop": [os.path.join(build, "samples", "hotloop"), "1"],
            "ttas_mutex": [os.path.join(build, "samples", "ttas_mutex"), "1", "4"],
            "deepstack": [os.path.join(build, "bench", "deepstack"), "1"],
        }
        with tempfile.TemporaryDirectory() as tmp:
            for name, cmd in progs.items():
                if not os.path.exists(cmd[0]):
                    continue
                fp, dw = os.path.join(tmp, name + ".fp"), os.path.join(tmp, name + ".dw")
                subprocess.run(["perf", "record", "-q", "-g", "-F", "999", "-o", fp, "--", *cmd],
                               capture_output=True)
                subprocess.run(["perf", "record", "-q", "--call-graph", "dwarf", "-F", "499",
                                "-o", dw, "--", *cmd], capture_output=True)
                r = measure(hot, fp, dw)
                row(name + " (recorded here)", r)
                sums = [a + b for a, b in zip(sums, r)]
    row("all", sums)


if __name__ == "__main__":
    main()
