#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Speed and memory of mycl-hot on recordings like users make: Debian's MariaDB
(private datadir and socket, started and stopped here) under sysbench, recorded
system-wide with kernel samples, the client and every other process of the
machine in the file.  Three recordings:
  small  perf record -a -g (frame pointers), about 1 MB
  large  perf record -a -g -F 20000, about 150 MB
  dwarf  perf record -a --call-graph dwarf, about 25 MB
Each view runs with perf (the oracle), mycl-hot and, where it has one,
hotspot's hotspot-perfparser (Debian package hotspot), all on the same file:
wall time as the median of 3 after one warm-up run (the file in the page
cache; 7 for runs under a second), peak RSS, and the ratios.  And:
  sizes  recorded as large is, for 4, 8 and 15 s (and large, 30 s): the cost per
         sample of mycl-hot and perf by file size (linear: it stays put)
  threads  perf record -a -g --threads (a directory: one file per writer thread), 8 s
         (not in the default set)
Not a test: numbers depend on the machine.

usage: system_wide.py MYCL_HOT [WORKDIR] [small|large|dwarf|sizes ...]
Recordings already in WORKDIR are reused (delete them to record anew).
"""
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from locks_servers import install, mariadb_server  # noqa: E402

PARSER = "/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser"

RECORDINGS = {
    # name: perf record options, seconds
    "small": (["-g", "-F", "250"], 9),
    "large": (["-g", "-F", "20000"], 30),
    "dwarf": (["--call-graph", "dwarf,8192", "-F", "300"], 6),
    # shorter cuts of "large" for the cost by size ("sizes")
    "large4": (["-g", "-F", "20000"], 4),
    "large8": (["-g", "-F", "20000"], 8),
    "large15": (["-g", "-F", "20000"], 15),
    # the directory perf record --threads writes (one file of records per CPU)
    "threads": (["-g", "-F", "4000", "--threads"], 8),
}
SIZES = ["large4", "large8", "large15", "large"]


def record(out, opts, seconds, sb):
    load = subprocess.Popen(sb + [f"--time={seconds + 60}", "oltp_read_write", "run"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)
    subprocess.run(["perf", "record", "-q", "-a", "-e", "cpu-clock", *opts, "-o", out, "--",
                    "sleep", str(seconds)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    load.send_signal(signal.SIGINT)
    try:
        load.wait(timeout=60)
    except subprocess.TimeoutExpired:
        load.kill()


CPU = {}     # command (as a tuple) -> median CPU seconds (user + system, every thread)


def run_timed(cmd, cpu=None):
    """wall seconds and peak RSS in KB of one run (output discarded); its CPU seconds
    appended to CPU when given.  The command is this script's own child, waited for
    with wait4() for its resource use: run under /usr/bin/time (a grandchild), the
    DWARF views of mycl-hot took 15-40 ms longer here for the same CPU time, which
    neither perf stat nor the shell's time showed."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if cpu is not None:
        cpu.append(ru.ru_utime + ru.ru_stime)
    return wall, ru.ru_maxrss, p.returncode


def measure(cmd, runs=3):
    """median wall of RUNS runs after a warm-up (7 when a run is under a second: the
    small recordings' tens of milliseconds vary by a quarter from run to run)."""
    first, _, _ = run_timed(cmd)
    if first < 1.0:
        runs = 7
    walls, cpus, rss, rc = [], [], 0, 0
    for _ in range(runs):
        w, m, rc = run_timed(cmd, cpus)
        walls.append(w)
        rss = max(rss, m)
    if cpus:
        CPU[tuple(cmd)] = statistics.median(cpus)
    return statistics.median(walls), rss, rc


def views(hot, data):
    """(title, perf command, mycl command, hotspot command or None)."""
    rep = ["perf", "report", "-i", data, "--stdio"]
    out = [
        ("flat", rep + ["--no-children", "-g", "none", "--sort", "comm,dso,sym"],
         [hot, "-q", data], None),
        ("-g", rep + ["--no-children", "--sort", "comm,dso,sym"], [hot, "-q", "-g", data],
         [PARSER, "--input", data, "--output", os.devnull]),
        ("--children", rep + ["--children", "-g", "none", "--sort", "comm,dso,sym"],
         [hot, "-q", "--children", data], None),
        ("--children -g", rep + ["--sort", "comm,dso,sym"],
         [hot, "-q", "--children", "-g", data], None),
        ("--folded", ["perf", "script", "-i", data], [hot, "-q", "--folded", data], None),
    ]
    return out


# The goals: the ratio to perf by recording and view, the ratio to
# hotspot-perfparser on DWARF, and peak RSS at most a quarter of perf's.  Flat on
# the DWARF file and the --threads directory have no goal of their own.
GOALS = {
    "small": {"flat": 5, "-g": 20, "--children": 40, "--children -g": 20, "--folded": 50},
    "large": {"flat": 10, "-g": 20, "--children": 40, "--children -g": 20, "--folded": 50},
    "dwarf": {"-g": 30, "--children": 30, "--children -g": 30, "--folded": 30},
}
HOTSPOT_GOAL = {"dwarf": 3}
MEM_GOAL = 0.25
missed = []
met = []


def judge(what, value, goal, higher=True):
    """' ok' or ' MISS' after a ratio, and the goal kept for the summary."""
    ok = value >= goal if higher else value <= goal
    (met if ok else missed).append(f"{what} {value:.2f}x (goal {'>=' if higher else '<='}"
                                   f" {goal:g}x)")
    return " ok" if ok else " MISS"


def samples(data):
    r = subprocess.run(["perf", "report", "-i", data, "--stats"], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if "SAMPLE events:" in line:
            return int(line.split()[2])
    return 0


def size_of(path):
    """Bytes of a recording: a file, or a --threads directory's files."""
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))
    return os.path.getsize(path)


def floors(hot, data, budgets):
    """For each missed speed goal: the time it allows, mycl-hot's CPU time (every thread)
    and that spread over every CPU of the machine with nothing lost (no split of today's
    work can go under it), then two floors under any view: reading and decoding the file
    alone (bench/floor, no work per sample) and starting mycl-hot (--version)."""
    if not budgets:
        return
    ncpu = os.cpu_count() or 1
    print(f"  floors of the missed speed goals ({ncpu} CPUs):")
    for title, mcmd, budget in budgets:
        cpu = CPU.get(tuple(mcmd), 0.0)
        print(f"    {title:15} allows {budget:.3f} s; mycl-hot's CPU {cpu:.3f} s, over {ncpu}"
              f" CPUs {cpu / ncpu:.3f} s" + ("  (above: not reachable by splitting it)"
                                              if cpu / ncpu > budget else ""))
    fl = os.path.join(os.path.dirname(hot), "..", "bench", "floor")
    if os.access(fl, os.X_OK) and not os.path.isdir(data):
        r = subprocess.run([fl, data, "7"], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            print(f"    {line}")
    w, _, _ = measure([hot, "--version"])
    print(f"    start-up, timed as the views are (mycl-hot --version) {w:.4f} s")


def bench(hot, data, name):
    size = size_of(data) / 1e6
    print(f"\n== {name}: {data}, {size:.1f} MB, {samples(data)} samples")
    print(f"{'view':15} {'perf s':>8} {'mycl s':>8} {'ratio':>7} {'perf MB':>8} {'mycl MB':>8}"
          f" {'mem':>6} {'hotspot s':>10} {'ratio':>6}   (goal: ok or MISS after each ratio)")
    have_parser = os.access(PARSER, os.X_OK)
    budgets = []
    for title, pcmd, mcmd, hcmd in views(hot, data):
        pw, pr, _ = measure(pcmd)
        mw, mr, rc = measure(mcmd)
        goal = GOALS.get(name, {}).get(title)
        mem = mr / max(pr, 1)
        line = (f"{title:15} {pw:8.3f} {mw:8.3f} {pw / mw:6.1f}x {pr / 1024:8.0f} {mr / 1024:8.0f}"
                f" {mem:5.2f}x")
        tail = ""
        if goal:
            tail += " speed" + judge(f"{name} {title} speed", pw / mw, goal)
            if pw / mw < goal:
                budgets.append((title, mcmd, pw / goal))
        if name in GOALS:
            tail += " mem" + judge(f"{name} {title} memory", mem, MEM_GOAL, higher=False)
        if hcmd and have_parser and not os.path.isdir(data):	# (it reads no directory)
            hw, _, _ = measure(hcmd)
            line += f" {hw:10.3f} {hw / mw:5.1f}x"
            if name in HOTSPOT_GOAL:
                tail += " hotspot" + judge(f"{name} {title} against hotspot", hw / mw,
                                           HOTSPOT_GOAL[name])
                if hw / mw < HOTSPOT_GOAL[name]:
                    budgets.append((f"{title} (hotspot)", mcmd, hw / HOTSPOT_GOAL[name]))
        line += tail
        if rc:
            line += f"  (mycl-hot exit {rc})"
        print(line, flush=True)
    floors(hot, data, budgets)


def rows(hot, data):
    """-g with 10, 100 and 1000 rows: the cost of the call-graph views per row."""
    print(f"\n-g by rows shown ({os.path.basename(data)}):", end="")
    for n in (10, 100, 1000):
        w, _, _ = measure([hot, "-q", "-g", "--max-rows", str(n), data])
        print(f"  {n} rows {w:.3f} s", end="", flush=True)
    print()


def sizes(hot, work):
    """Flat and -g of mycl-hot and perf on four sizes of the same recording: the cost per
    sample should stay put as the file grows (linear in the samples)."""
    print("\ncost by size (perf record -a -g -F 20000 for 4, 8, 15 and 30 s):")
    print(f"{'file':9} {'MB':>6} {'samples':>9} {'mycl flat':>10} {'us/smp':>7} {'mycl -g':>8}"
          f" {'us/smp':>7} {'perf flat':>10} {'us/smp':>7} {'perf -g':>8} {'us/smp':>7}")
    rep = ["perf", "report", "--stdio", "--sort", "comm,dso,sym", "--no-children"]
    for n in SIZES:
        data = os.path.join(work, n + ".data")
        nr = samples(data)
        cols = []
        for cmd in ([hot, "-q", data], [hot, "-q", "-g", data],
                    rep + ["-g", "none", "-i", data], rep + ["-i", data]):
            w, _, _ = measure(cmd)
            cols.append(f"{w:10.3f} {w / max(nr, 1) * 1e6:7.2f}")
        print(f"{n:9} {size_of(data) / 1e6:6.1f} {nr:9} " + " ".join(cols), flush=True)


def main():
    hot = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/mycl-system-wide"
    which = sys.argv[3:] or ["small", "large", "dwarf", "sizes"]
    want_sizes = "sizes" in which
    which = [n for n in which if n != "sizes"]
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    if not os.access(PARSER, os.X_OK):
        install(["hotspot"])
    need = [n for n in which + (SIZES if want_sizes else [])
            if not os.path.exists(os.path.join(work, n + ".data"))]
    need = list(dict.fromkeys(need))
    if need:
        with mariadb_server(work, prepare="oltp_read_write") as started:
            if not started:
                print("no recording: MariaDB could not be started")
                return 1
            _, sb = started
            for n in need:
                opts, secs = RECORDINGS[n]
                print(f"recording {n}: perf record -a {' '.join(opts)} for {secs} s ...",
                      flush=True)
                record(os.path.join(work, n + ".data"), opts, secs, sb)
    for n in which:
        bench(hot, os.path.join(work, n + ".data"), n)
    if "large" in which:
        rows(hot, os.path.join(work, "large.data"))
    if want_sizes:
        sizes(hot, work)
    if met or missed:
        print(f"\nthe goals: {len(met)} met, {len(missed)} missed"
              " (bench/RESULTS.md: the floor of each missed one)")
        for m in missed:
            print(f"  missed: {m}")
    return 0


if __name__ == "__main__":
    shutil.which("perf") or sys.exit("perf is not installed")
    sys.exit(main())
