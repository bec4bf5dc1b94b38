#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
The wall-clock (latency) view against perf's definition, on a program with
a serial phase and a parallel one (tests/data/latency/phases.c) recorded
with context switches: perf report --latency (perf 6.15+) weighs each sample
by 1/(threads running), one more on a switch in and one less on a switch out
or an exit, kept within 1 and the CPUs (mycl counts each thread from its first
record or sample where perf starts at 1: the same here, see model()).  perf 6.1 has no
--latency, so the model is computed here from perf script's own order of
the same file's switches, exits and samples, and mycl-hot's latency per
function must equal it (within two samples' worth); --sort parallelism's levels
must hold every sample.  How busy the machine is changes how many threads
ran together, never whether the two agree.  The serial phase's share of
the wall-clock time is at least its share of the CPU time.

usage: latency_checks.py MYCL_HOT SOURCE_DIR WORKDIR
"""
import json
import os
import re
import subprocess
import sys

import checks



def check(ok, what):
    checks.check(what, ok)
    return ok


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def model(path):
    """The latency per symbol from perf script's records in perf's order, counting the
    threads running as perf does (one more on a switch in, one less on a switch out or an
    exit, within 1 and the CPUs), each thread from its first record or sample (perf starts
    at 1 instead: the same for a command perf launched, whose first thread's first sample
    comes before its first switch; one too many for a server recorded with -p)."""
    hdr = run(["perf", "report", "-i", path, "--header-only"]).stdout
    m = re.search(r"nrcpus avail : (\d+)", hdr)
    ncpus = int(m.group(1)) if m else 1
    out = run(["perf", "script", "-i", path, "--show-switch-events", "--show-task-events", "-G",
               "-F", "tid,event,period,ip,sym"]).stdout
    on, lat, cpu, levels = {}, {}, {}, {}

    def set_on(tid, state):
        on[tid] = state

    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+PERF_RECORD_(SWITCH|EXIT)", line)
        if m:
            set_on(int(m.group(1)), m.group(2) == "SWITCH" and " OUT" not in line)
            continue
        if "PERF_RECORD_EXIT" in line:
            m = re.search(r"\((\d+):(\d+)\)", line)
            if m:
                set_on(int(m.group(2)), False)
            continue
        m = re.match(r"\s*(\d+)\s+(\d+)\s+cpu-clock[^:]*:\s+[0-9a-f]+\s+(\S+)", line)
        if not m:
            continue
        on[int(m.group(1))] = True
        n = max(1, min(sum(on.values()), ncpus))
        period = int(m.group(2))
        sym = m.group(3) if not m.group(3).startswith("[unknown]") else "[unknown]"
        lat[sym] = lat.get(sym, 0) + period * 1000 // n
        cpu[sym] = cpu.get(sym, 0) + period
        levels[n] = levels.get(n, 0) + period * 1000 // n
    total = sum(lat.values()) or 1
    ctot = sum(cpu.values()) or 1
    return ({k: 100.0 * v / total for k, v in lat.items()},
            {k: 100.0 * v / ctot for k, v in cpu.items()},
            {k: 100.0 * v / total for k, v in levels.items()})


def main():
    hot, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    prog = os.path.join(work, "phases")
    if run(["cc", "-O2", "-g", "-pthread", "-o", prog,
            os.path.join(src, "tests", "data", "latency", "phases.c")]).returncode != 0:
        print("no C compiler: skipped")
        return 77
    data = os.path.join(work, "phases.data")
    r = run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "997", "--switch-events", "-o",
             data, "--", prog, "0.5", "0.4", "2"])
    if r.returncode != 0:
        print("perf record -e cpu-clock --switch-events does not work here:", r.stderr[:200])
        return 77
    want, cpu, want_levels = model(data)
    out = run([hot, "--latency", "--format", "json", "-q", "--sort", "sym", data])
    check(out.returncode == 0, f"mycl-hot --latency exits 0 ({out.stderr.strip()[:100]})")
    ev = json.loads(out.stdout)["events"][0] if out.returncode == 0 else {"rows": []}
    check(ev.get("latency_method") == "switches", "the threads are counted from the switches")
    mine = {}
    for row in ev["rows"]:
        sym = row.get("symbol") or "[unknown]"
        mine[sym] = mine.get(sym, 0.0) + row["latency"]
    # two records of one nanosecond on two CPUs (a switch and a sample) may come in either
    # order: perf script's and mycl's may then count one sample at another level; two
    # samples' worth of slack (the latency and CPU shares differ by tens of points)
    tol = max(0.02, 200.0 / max(1, ev.get("samples", 1)))
    # (the two phases' functions: perf names some PLT samples _init, mycl func@plt)
    bad = [f"{s}: perf's definition {want.get(s, 0):.2f}% mycl {mine.get(s, 0):.2f}%"
           for s in ("serial_phase", "parallel_phase") if abs(want.get(s, 0) - mine.get(s, 0)) > tol]
    check(not bad and "serial_phase" in mine,
          f"latency per function as perf's definition on the same records "
          f"(serial_phase {mine.get('serial_phase', 0):.2f}%, parallel_phase "
          f"{mine.get('parallel_phase', 0):.2f}%)")
    for b in bad[:5]:
        print("    ", b)
    check(mine.get("serial_phase", 0) + 0.02 >= cpu.get("serial_phase", 0),
          f"the serial phase's wall-clock share ({mine.get('serial_phase', 0):.1f}%) is at least "
          f"its CPU share ({cpu.get('serial_phase', 0):.1f}%)")
    out = run([hot, "--sort", "parallelism", "--format", "json", data])
    doc = json.loads(out.stdout) if out.returncode == 0 else {"events": []}
    levels = doc["events"][0]["levels"] if doc["events"] else []
    got_levels = {lv["parallelism"]: lv["latency"] for lv in levels}
    check(all(abs(got_levels.get(k, 0) - want_levels.get(k, 0)) <= tol
              for k in set(got_levels) | set(want_levels)),
          f"--sort parallelism: each level's latency as the definition's ({want_levels})")
    check(sum(lv["samples"] for lv in levels) == ev.get("samples") and
          abs(sum(lv["latency"] for lv in levels) - 100) < 0.01,
          f"--sort parallelism: every sample at a level ({[(lv['parallelism'], round(lv['latency'], 1)) for lv in levels]})")
    page = os.path.join(work, "latency.html")
    out = run([hot, "-q", "--latency", "--html", page, data])
    text = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
    check(out.returncode == 0 and "<th>Latency</th>" in text and "from the context switches" in text,
          "the HTML page's flat profile has the Latency column")
    out = run([hot, "--latency", "-g", data])
    check(out.returncode == 1 and "--latency" in out.stderr, "--latency with -g is refused")
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
