#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
mycl-share on MariaDB under load: mariadbd is started here on a private socket
and data directory (as bench/locks_servers.py does), sysbench
oltp_update_index runs with 16 threads, and perf records the server's
instructions (cpu-clock, -p PID); then mycl-share ranks mariadbd's lines with
and without the recording.  It prints the flagged lines of both, whether the
lines with sampled writes or reads come before all others, and the samples
credited back from skid.  Not a test: what a recording holds depends on the
machine and the load.

With per-query (a fourth argument), the load is the issue of one-line queries
over persistent connections (sysbench running "select now()" from a script of
its own), recorded with call chains (-g): then the writes each connection makes
once (thread_created, slow_launch_threads, CONNECT::count) are no hot writers,
whatever the chains pass in do_handle_one_connection's query loop, and the lines
whose only runtime writers are per-connection are not flagged as several hot
writers.

usage: share_servers.py MYCL_SHARE [WORKDIR] [SECONDS] [per-query]
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from locks_servers import mariadb_server, sh  # noqa: E402


def share(tool, *args):
    r = sh([tool, "--format", "json", *args])
    if r.returncode:
        print(r.stderr[-400:])
        return None
    return json.loads(r.stdout)


def show(doc, title, n=10):
    print(f"\n==== {title}")
    flagged = [ln for ln in doc["lines"] if ln["verdict"] != "ok"]
    for i, ln in enumerate(flagged[:n]):
        ws = sorted(ln["members"], key=lambda m: -(m["sampled_writes"] * 100 + m["hot_writes"]))
        top = ws[0]
        print(f"{i + 1:2}. {ln['start']} {ln['verdict']:20} samples {ln.get('samples', 0):5}  "
              f"{top['name']} (sampled writes {top['sampled_writes']}, reads {top['sampled_reads']}, "
              f"skid {top['skid_samples']}, static hot writes {top['hot_writes']})")
    return flagged


def main():
    tool = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/mycl-share-servers"
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    os.makedirs(work, exist_ok=True)
    per_query = len(sys.argv) > 4 and sys.argv[4] == "per-query"
    rec = os.path.join(work, "mariadbd-perquery.data" if per_query else "mariadbd-update.data")
    script = os.path.join(work, "now.lua")
    with open(script, "w") as f:
        f.write("function thread_init() drv = sysbench.sql.driver(); con = drv:connect() end\n"
                "function event() con:query('select now()') end\n")
    with mariadb_server(work, "oltp_update_index") as started:
        if not started:
            return
        srv, sb = started
        run = [script] if per_query else ["oltp_update_index"]
        load = subprocess.Popen(sb + [f"--time={seconds + 10}", *run, "run"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(3)
        sh(["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", *(["-g"] if per_query else []),
            "-p", str(srv.pid), "-o", rec, "--", "sleep", str(seconds)])
        load.wait(timeout=seconds + 120)
    plain = share(tool, "/usr/sbin/mariadbd")
    weighed = share(tool, "--perf", rec, "/usr/sbin/mariadbd")
    if not plain or not weighed:
        return
    show(plain, "mycl-share /usr/sbin/mariadbd (code only)")
    flagged = show(weighed, f"mycl-share --perf {rec} /usr/sbin/mariadbd")
    sampled = [ln.get("samples", 0) > 0 for ln in flagged]
    first_unsampled = sampled.index(False) if False in sampled else len(sampled)
    print(f"\nflagged lines with samples: {sum(sampled)}; all of them before any without: "
          f"{'yes' if all(sampled[:first_unsampled]) and not any(sampled[first_unsampled:]) else 'no'}")
    if per_query:
        unrun = sorted(m["name"] for ln in weighed["lines"] for m in ln["members"]
                       if m.get("chain_unseen"))
        print(f"\nhot by the code, no sample or chain shows the write run ({len(unrun)}): "
              f"{', '.join(unrun[:12])}{' ...' if len(unrun) > 12 else ''}")
        for ln in flagged:
            if ln["verdict"] == "writers" and "do_handle_one_connection" in ln["evidence"]:
                print("  still several hot writers on do_handle_one_connection's chains:",
                      ln["start"], ln["evidence"][:160])
    skid = sum(m["skid_samples"] for ln in weighed["lines"] for m in ln["members"])
    print(f"samples credited back from skid to the access before them: {skid}")
    print(f"recording: {rec}, {os.path.getsize(rec) >> 10} KB")


if __name__ == "__main__":
    main()
