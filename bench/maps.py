#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Many mappings: the recordings of tests/maps_synth.py (every shape) at N maps
(default 200,000; one in 400 records a sample), mycl-hot -s dso and
perf report -s dso on each, time and peak RSS, and perf's time over mycl's.
Both are asked for the same table; mycl's sample counts are checked against
the Python model as in the test.

usage: maps.py MYCL_HOT [WORKDIR [N]]
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import maps_synth  # noqa: E402
from lbr_synth import write_file  # noqa: E402


def timed(cmd):
    """Seconds and peak RSS in MB (GNU time), and the exit code."""
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    secs, kb = r.stderr.strip().splitlines()[-1].split()[-2:]
    return float(secs), int(kb) / 1024, r.returncode


def main():
    hot = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/mycl-maps"
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
    os.makedirs(work, exist_ok=True)
    print("%-7s %8s %10s %10s %9s %9s %7s" % ("shape", "maps", "mycl s", "perf s", "mycl MB",
                                               "perf MB", "perf/mycl"))
    for k, shape in enumerate(("up", "down", "random", "same", "fork", "forks")):
        attr, data, expect = maps_synth.build(shape, n, 51 + k)
        path = os.path.join(work, "maps-%s.data" % shape)
        write_file(path, attr, data)
        ok = maps_synth.counted(hot, path) == expect
        mt, mrss, _ = timed([hot, "-s", "dso", path])
        pt, prss, prc = timed(["perf", "report", "--stdio", "-s", "dso", "-i", path])
        print("%-7s %8d %10.2f %10s %9s %9s %7s%s" % (
            shape, n, mt, "%.2f" % pt if prc == 0 else "failed",
            "%.0f" % mrss, "%.0f" % prss,
            "%.1f" % (pt / mt) if prc == 0 and mt else "-", "" if ok else "  COUNTS DIFFER"))


if __name__ == "__main__":
    main()
