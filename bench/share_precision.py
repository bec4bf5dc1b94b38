#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
How many of mycl-share's top lines hold a variable written on a path the
workload really runs: MariaDB (Debian's mariadbd, private datadir and socket)
under sysbench oltp_read_write, and Redis (Debian's redis-server, private
socket, no persistence) under redis-benchmark, recorded with DWARF call chains; a function
"runs" when it is on the call chains of at least MIN_SHARE of the server's
samples (mycl-hot --folded).  A flagged line counts as a hit when one of the
functions mycl-share lists as a hot writer of one of its members runs.
Prints precision at 10 and 20 of the code-only ranking and of the ranking
with a recording (--perf), judged by a second recording of the same load.  Not a test: the answer depends on the workload.

usage: share_precision.py MYCL_BUILD [WORKDIR] [SECONDS] [MIN_SHARE] [mariadb,mariadb-binlog,redis]
"""
import bisect
import json
import os
import subprocess
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from locks_servers import mariadb_server, sh, wait_for  # noqa: E402


def fde_starts(binary):
    """The starts of the functions .eh_frame describes, sorted (names for unnamed code)."""
    r = sh(f"readelf --debug-dump=frames {binary} | grep -o 'pc=[0-9a-f]*' | cut -c4-")
    return sorted({int(x, 16) for x in r.stdout.split()})


def run_funcs(hot, rec, binary):
    """Samples on whose call chain each function of BINARY is (inclusive), and the total.
    Unnamed frames (mariadbd+0x85baa4) are named as mycl-share names them, by their
    function's start (0x85b9d0)."""
    r = sh([hot, "--folded", "--no-summary", "--dso", os.path.basename(binary), rec])
    starts = fde_starts(binary)
    base = os.path.basename(binary) + "+0x"
    incl, total = Counter(), 0
    for line in r.stdout.splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        total += int(n)
        frames = set()
        for f in stack.split(";"):
            if f.startswith(base):
                k = bisect.bisect_right(starts, int(f[len(base):], 16)) - 1
                f = hex(starts[k]) if k >= 0 else f
            frames.add(f)
        for f in frames:
            incl[f] += int(n)
    return incl, total


def writer_funcs(ln):
    """The functions mycl-share says write the line's members on hot paths."""
    return {w["function"] for m in ln["members"] for w in m.get("writers", []) if w["heat"] == "hot"}


def precision(doc, runs, title, n=20):
    flagged = [ln for ln in doc["lines"] if ln["verdict"] != "ok"]
    print(f"\n==== {title}: {len(flagged)} flagged")
    hits = []
    for i, ln in enumerate(flagged[:n]):
        ws = writer_funcs(ln)
        ran = sorted(w for w in ws if w in runs)
        hit = bool(ran)
        hits.append(hit)
        names = ", ".join(m["name"] for m in ln["members"] if m["hot_writes"])[:40]
        print(f"{i + 1:2}. {'HIT ' if hit else '    '}{ln['start']} {ln['verdict']:18} {names:40} "
              f"{'run: ' + ', '.join(ran) if ran else 'by ' + ', '.join(sorted(ws))}"[:100])
    for k in (10, 20):
        if len(hits) >= k:
            print(f"precision at {k}: {sum(hits[:k])}/{k}")
    every = [i + 1 for i, ln in enumerate(flagged) if writer_funcs(ln) & runs]
    print(f"lines whose hot writers run, of all {len(flagged)} flagged: {len(every)}, at ranks "
          f"{every[:30]}")
    return hits


def record_two(pid, rec, truth, seconds):
    """Two recordings of the running load, one after the other."""
    for out in (rec, truth):
        sh(["perf", "record", "-q", "-e", "cpu-clock", "-F", "199", "--call-graph", "dwarf,8192",
            "-p", str(pid), "-o", out, "--", "sleep", str(seconds)])


def mariadb(work, seconds, rec, truth, extra=()):
    with mariadb_server(work, "oltp_read_write", extra) as started:
        if not started:
            return False
        srv, sb = started
        load = subprocess.Popen(sb + [f"--time={2 * seconds + 10}", "oltp_read_write", "run"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(3)
        record_two(srv.pid, rec, truth, seconds)
        load.wait(timeout=2 * seconds + 120)
    return True


def redis(work, seconds, rec, truth):
    """redis-server on a private socket, no persistence, under redis-benchmark."""
    sock = os.path.join(work, "redis.sock")
    srv = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", sock, "--save", "",
                            "--appendonly", "no", "--dir", work],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(sock, 30)
        load = subprocess.Popen(["redis-benchmark", "-s", sock, "-c", "32", "-n", "100000000",
                                 "-r", "100000", "-t", "set,get,incr,lpush,rpop,hset", "-q", "-l"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(3)
        record_two(srv.pid, rec, truth, seconds)
        load.terminate()
        load.wait(timeout=30)
    finally:
        srv.terminate()
        srv.wait(timeout=60)
    return True


def mariadb_binlog(work, seconds, rec, truth):
    """The same with the binary log on, as replicated servers run (MYSQL_BIN_LOG's writers)."""
    return mariadb(work, seconds, rec, truth,
                   ("--log-bin=" + os.path.join(work, "binlog"), "--server-id=1"))


SERVERS = {"mariadb": ("/usr/sbin/mariadbd", mariadb),
           "mariadb-binlog": ("/usr/sbin/mariadbd", mariadb_binlog),
           "redis": ("/usr/bin/redis-server", redis)}


def main():
    build = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/mycl-share-precision"
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    min_share = float(sys.argv[4]) if len(sys.argv) > 4 else 0.001
    servers = sys.argv[5].split(",") if len(sys.argv) > 5 else ["mariadb", "redis"]
    hot, share = os.path.join(build, "tools/mycl-hot"), os.path.join(build, "tools/mycl-share")
    os.makedirs(work, exist_ok=True)
    for name in servers:
        binary, run = SERVERS[name]
        binary = os.path.realpath(binary)
        if not os.path.exists(binary):
            print(f"skip {name}: {binary} not installed")
            continue
        # Two recordings of the same load: one weighs the ranking, the other judges it.
        rec, truth = os.path.join(work, f"{name}.data"), os.path.join(work, f"{name}-truth.data")
        if (not os.path.exists(rec) or not os.path.exists(truth)) and not run(work, seconds, rec,
                                                                                 truth):
            continue
        incl, total = run_funcs(hot, truth, binary)
        runs = {f for f, c in incl.items() if c >= max(1, min_share * total)}
        print(f"\n######## {name}: judged by {truth}: {total} samples in "
              f"{os.path.basename(binary)}, {len(runs)} functions on chains of >= {min_share:.1%}")
        for title, args in (("code only", []), ("with --perf", ["--perf", rec])):
            r = sh([share, "--format", "json", *args, binary])
            if r.returncode:
                print(r.stderr[-400:])
                break
            precision(json.loads(r.stdout), runs, f"mycl-share {' '.join(args)} {binary} ({title})")


if __name__ == "__main__":
    main()
