#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
mycl-report on real servers, as a new user meets it: Debian's MariaDB under
sysbench oltp_read_only and PostgreSQL 15 under pgbench -S, each started here
on a private socket and data directory and stopped at the end, recorded
system-wide with frame-pointer chains (-g), cpu-clock and sched:sched_switch.
For each recording it prints what the report says where a reader looks first:
the Recording section's warnings (the timer artefact of a VM without a PMU),
its sections, the off-CPU waits, which functions the hottest code annotates
and what it leaves out, the symbolization line; and it reads the markdown and
Jira forms back with pandoc (tests/ticket_formats.py's checks).  With --base
OLD_MYCL_REPORT, the same lines from an older build beside them.  Not a test:
what a recording holds depends on the machine and the load.

usage: report_servers.py MYCL_REPORT MYCL_HOT [WORKDIR] [SECONDS] [--base OLD] [mariadb|postgres]
"""
import os
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from locks_servers import mariadb_server, postgres_server, sh  # noqa: E402


def record(out, seconds, load):
    """perf record -a -g of cpu-clock and sched_switch while LOAD (a Popen factory) runs."""
    rec = subprocess.Popen(["perf", "record", "-q", "-a", "-g", "-e", "cpu-clock", "-e",
                            "sched:sched_switch", "-o", out, "--", "sleep", str(seconds)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    p = load()
    rec.wait()
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()


def sections(text):
    secs, cur = {}, None
    for line in text.splitlines():
        if line.startswith("== ") and line.endswith(" =="):
            cur = line[3:-3]
            secs[cur] = []
        elif cur is not None:
            secs[cur].append(line)
    return secs


def glance(label, text):
    """The lines a reader looks at first."""
    secs = sections(text)
    print(f"  [{label}] {len(text.splitlines())} lines; sections: {', '.join(secs)}")
    warn = []
    rec = secs.get("Recording", [])
    on = False
    for x in rec:
        if x.startswith("WARNING"):
            on = True
        elif not x.startswith(" "):
            on = False
        if on:
            warn.append(x)
    for x in warn:
        print(f"  [{label}]   {x}")
    for x in secs.get("Off-CPU waits", [])[3:14]:
        if x.strip() and not x.strip().startswith("|"):
            print(f"  [{label}]   {x}")
    for x in secs.get("Hottest code", []):
        if x.startswith("Annotation of") or "leaves out" in x or x.startswith("    --libraries"):
            print(f"  [{label}]   {x}")
    for x in secs.get("Symbols", [])[:2]:
        if x.startswith("Symbolization"):
            print(f"  [{label}]   {x}")


def report(tool, hot, base, data, title):
    print(f"\n==== {title}: {data} ({os.path.getsize(data) >> 20} MB)")
    r = sh([tool, "-q", data])
    if r.returncode:
        print("  mycl-report failed:", r.stderr[-400:])
        return
    glance("now", r.stdout)
    if base:
        b = sh([base, "-q", data])
        glance("before", b.stdout)
    try:
        import ticket_formats
        import json
        j = json.loads(sh([hot, "-q", "--format", "json", data]).stdout)
        rows = next(e for e in j["events"] if e["samples"])["rows"]
        for fmt in ("markdown", "jira"):
            m = sh([tool, "-q", "--format", fmt, data])
            ticket_formats.check_doc(title.split(",")[0], fmt, m.stdout, r.stdout, rows)
    except (ImportError, OSError, ValueError, subprocess.CalledProcessError) as e:
        print("  (markup not read back:", e, ")")


def main():
    args = sys.argv[1:]
    base = None
    if "--base" in args:
        i = args.index("--base")
        base = args[i + 1]
        del args[i:i + 2]
    tool, hot = args[0], args[1]
    work = args[2] if len(args) > 2 else "/tmp/mycl-report-servers"
    seconds = int(args[3]) if len(args) > 3 else 8
    which = args[4:] or ["mariadb", "postgres"]
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    if "mariadb" in which:
        with mariadb_server(work) as started:
            if started:
                _, sb = started
                out = os.path.join(work, "mariadb.data")
                record(out, seconds, lambda: subprocess.Popen(
                    sb + ["--threads=8", f"--time={seconds + 30}", "oltp_read_only", "run"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                report(tool, hot, base, out, "MariaDB, sysbench oltp_read_only, 8 threads")
    if "postgres" in which:
        with postgres_server(work) as pg:
            if pg:
                out = os.path.join(work, "postgres.data")
                record(out, seconds, lambda: subprocess.Popen(
                    pg + ["-c", "8", "-j", "2", "-T", str(seconds + 30), "-S", "postgres"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                report(tool, hot, base, out, "PostgreSQL, pgbench -S, 8 clients")


if __name__ == "__main__":
    main()
