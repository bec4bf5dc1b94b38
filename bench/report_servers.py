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
OLD_MYCL_REPORT, the same lines from an older build beside them.  Then, on the
same recordings: mycl-hot --locks's lock waits with and without --comm (a
wait is as long either way), and mycl-diff of the recording's first half
against its second (kernel rows, code without a symbol by address).  With
--pg-prefix DIR (a PostgreSQL built with debug info, bench/build_postgres.sh),
a pgbench tpcb-like run on it recorded with futex tracepoints, and the lock
objects mycl-hot --locks names (MainLWLockArray's elements by PostgreSQL's
own names).  Not a test: what a recording holds depends on the machine and
the load.

usage: report_servers.py MYCL_REPORT MYCL_HOT [WORKDIR] [SECONDS] [--base OLD] [--pg-prefix DIR]
                         [mariadb|postgres|pgdebug]
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from locks_servers import mariadb_server, postgres_server, record, sh  # noqa: E402
from ticket_formats import text_sections as sections  # noqa: E402


# frame-pointer chains, the timer and the scheduler's switches
FP_SWITCH = ["-g", "-e", "cpu-clock", "-e", "sched:sched_switch"]


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


def waits_and_diff(hot, data, comm):
    """Lock waits with and without --comm; the first half against the second."""
    for extra in ([], ["--comm", comm]):
        r = sh([hot, "-q", "--locks", *extra, data])
        rows = [x for x in r.stdout.splitlines() if " waits  " in x][:4]
        print(f"  [waits{' ' + ' '.join(extra) if extra else ''}]")
        for x in rows:
            print(f"    {x.strip()}")
    diff = os.path.join(os.path.dirname(HERE), "build", "tools", "mycl-diff")
    diff = diff if os.path.exists(diff) else os.path.join(os.path.dirname(hot), "mycl-diff")
    r = sh([diff, "--by-share", "--time", "0%-50%:50%-100%", data, data])
    print("  [mycl-diff --by-share --time 0%-50%:50%-100%]")
    for x in r.stdout.splitlines()[5:16]:
        print(f"    {x}")


def pgdebug(hot, prefix, work, seconds):
    """pgbench tpcb-like on a PostgreSQL with debug info: the lock objects named."""
    db = os.path.join(work, "pgdebug")
    subprocess.run(["rm", "-rf", db])
    os.makedirs(db)
    subprocess.run(["chown", "-R", "nobody", work])
    as_ = ["su", "-s", "/bin/sh", "nobody", "-c"]
    if sh(as_ + [f"'{prefix}/bin/initdb' -D '{db}/d' -A trust -U postgres"]).returncode:
        print("skip: initdb failed")
        return
    opts = f"-k '{db}' -p 54332 -c listen_addresses='' -c shared_buffers=128MB"
    if sh(as_ + [f"'{prefix}/bin/pg_ctl' -D '{db}/d' -o \"{opts}\" -l '{db}/pg.log' -w start"]
          ).returncode:
        print("skip: the server did not start")
        return
    try:
        pg = ["pgbench", "-h", db, "-p", "54332", "-U", "postgres"]
        sh(pg + ["-i", "-s", "4", "postgres"], timeout=600)
        out = os.path.join(work, "pgdebug.data")
        rec = subprocess.Popen(["perf", "record", "-q", "-a", "-g", "-e", "cpu-clock", "-e",
                                "sched:sched_switch", "-e", "syscalls:sys_enter_futex", "-e",
                                "syscalls:sys_exit_futex", "-o", out, "--", "sleep", str(seconds)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        sh(pg + ["-T", str(seconds), "-c", "16", "-j", "2", "postgres"], timeout=seconds + 120)
        rec.wait()
        print(f"\n==== PostgreSQL with debug info, pgbench tpcb-like, 16 clients: {out}")
        r = sh([hot, "-q", "--locks", "--comm", "postgres", out])
        objs = {}
        for x in r.stdout.splitlines():
            if "lock: " in x:
                objs[x.strip()] = objs.get(x.strip(), 0) + 1
        for k, n in sorted(objs.items(), key=lambda kv: -kv[1])[:8]:
            print(f"  {n:3d} site(s)  {k}")
    finally:
        sh(as_ + [f"'{prefix}/bin/pg_ctl' -D '{db}/d' -m fast stop"])


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
        import json
        import ticket_formats
        j = json.loads(sh([hot, "-q", "--format", "json", data]).stdout)
        rows = next(e for e in j["events"] if e["samples"])["rows"]
        for fmt in ("markdown", "jira"):
            m = sh([tool, "-q", "--format", fmt, data])
            ticket_formats.check_doc(title.split(",")[0], fmt, m.stdout, r.stdout, rows)
    except (ImportError, OSError, ValueError, subprocess.CalledProcessError) as e:
        print("  (markup not read back:", e, ")")
    waits_and_diff(hot, data, "mariadbd" if title.startswith("MariaDB") else "postgres")


def main():
    args = sys.argv[1:]
    base = prefix = None
    if "--base" in args:
        i = args.index("--base")
        base = args[i + 1]
        del args[i:i + 2]
    if "--pg-prefix" in args:
        i = args.index("--pg-prefix")
        prefix = args[i + 1]
        del args[i:i + 2]
    tool, hot = args[0], args[1]
    work = args[2] if len(args) > 2 else "/tmp/mycl-report-servers"
    seconds = int(args[3]) if len(args) > 3 else 8
    which = args[4:] or ["mariadb", "postgres"] + (["pgdebug"] if prefix else [])
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    if "mariadb" in which:
        with mariadb_server(work) as started:
            if started:
                _, sb = started
                out = os.path.join(work, "mariadb.data")
                record(out, seconds, lambda: subprocess.Popen(
                    sb + ["--threads=8", f"--time={seconds + 30}", "oltp_read_only", "run"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), FP_SWITCH)
                report(tool, hot, base, out, "MariaDB, sysbench oltp_read_only, 8 threads")
    if "postgres" in which:
        with postgres_server(work) as pg:
            if pg:
                out = os.path.join(work, "postgres.data")
                record(out, seconds, lambda: subprocess.Popen(
                    pg + ["-c", "8", "-j", "2", "-T", str(seconds + 30), "-S", "postgres"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), FP_SWITCH)
                report(tool, hot, base, out, "PostgreSQL, pgbench -S, 8 clients")

    if "pgdebug" in which and prefix:
        pgdebug(hot, prefix, work, seconds)


if __name__ == "__main__":
    main()
