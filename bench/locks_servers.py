#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
The lock report on real servers from Debian, each started here on a private
socket and data directory and stopped at the end:
  - MariaDB (mariadbd) under sysbench oltp_read_only and oltp_update_index,
    16 threads;
  - PostgreSQL 15 under pgbench -c 16, select-only and tpcb-like.
Each load is recorded system-wide with --call-graph dwarf (Debian's builds
keep no frame pointers) and cpu-clock plus sched:sched_switch; mycl-hot
--locks prints the lock sites, their lock objects, and the waits.  What the
sites are is for a reader to check against the servers' sources; the script
prints, it asserts nothing (timing and load decide what a recording holds).

usage: locks_servers.py MYCL_HOT [WORKDIR] [SECONDS] [mariadb|postgres ...]
"""
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=isinstance(cmd, str), capture_output=True, text=True, **kw)


def install(pkgs):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = subprocess.run("apt-get install -y -qq " + " ".join(pkgs) + " > /dev/null 2>&1", shell=True,
                       env=env)
    return r.returncode == 0


DWARF_CLOCK = ["--call-graph", "dwarf,8192", "-z", "-e", "cpu-clock", "-F", "199"]


def record(out, seconds, load, how=DWARF_CLOCK):
    """perf record -a HOW (its options) while LOAD (a Popen factory) runs SECONDS."""
    rec = subprocess.Popen(["perf", "record", "-q", "-a", *how, "-o", out, "--", "sleep",
                            str(seconds)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    p = load()
    rec.wait()
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()


def report(hot, data, title):
    print(f"\n==== {title}: {data} ({os.path.getsize(data) >> 20} MB)")
    r = sh([hot, "-q", "--locks", "--percent-limit", "1", data])
    lines = [ln for ln in r.stdout.splitlines() if ln.strip() and not ln.strip().startswith("|")]
    print("\n".join(lines[:80]))
    if r.returncode:
        print(r.stderr[-500:])


def wait_for(path, seconds):
    """Until PATH exists (a server's socket), at most SECONDS."""
    for _ in range(int(seconds * 2)):
        if os.path.exists(path):
            return True
        time.sleep(0.5)
    return False


@contextlib.contextmanager
def mariadb_server(work, prepare="oltp_read_only", extra=()):
    """mariadbd on a private datadir and socket with sysbench's tables prepared, stopped
    at the end: yields (the server's Popen, sysbench's command line) or None when it cannot.
    EXTRA: more of mariadbd's options (the binary log: --log-bin)."""
    for tool, pkg in (("mariadb-install-db", "mariadb-server"), ("sysbench", "sysbench")):
        if not shutil.which(tool) and not install([pkg]):
            print(f"skip MariaDB: cannot install {pkg}")
            yield None
            return
    data, sock = os.path.join(work, "mdata"), os.path.join(work, "mysql.sock")
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    r = sh(["mariadb-install-db", "--no-defaults", f"--datadir={data}", "--user=root",
            "--skip-test-db", "--auth-root-authentication-method=normal"])
    if r.returncode:
        print("skip MariaDB:", r.stderr[-300:])
        yield None
        return
    srv = subprocess.Popen(["/usr/sbin/mariadbd", "--no-defaults", f"--datadir={data}",
                            f"--socket={sock}", "--skip-networking", "--user=root",
                            "--innodb-buffer-pool-size=256M", "--max-connections=200",
                            f"--log-error={work}/mariadbd.err", f"--pid-file={work}/m.pid",
                            *extra],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(sock, 60)
        sh(["mariadb", f"--socket={sock}", "-uroot", "-e", "create database sbtest"])
        sb = ["sysbench", "--db-driver=mysql", f"--mysql-socket={sock}", "--mysql-user=root",
              "--tables=4", "--table-size=20000", "--threads=16"]
        sh(sb + [prepare, "prepare"], timeout=600)
        yield srv, sb
    finally:
        srv.terminate()
        srv.wait(timeout=120)


def mariadb(hot, work, seconds):
    with mariadb_server(work) as started:
        if not started:
            return
        _, sb = started
        for test in ("oltp_read_only", "oltp_update_index"):
            out = os.path.join(work, f"mariadb-{test}.data")
            record(out, seconds, lambda t=test: subprocess.Popen(
                sb + [f"--time={seconds + 30}", t, "run"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL))
            report(hot, out, f"MariaDB {test}, 16 threads")


@contextlib.contextmanager
def postgres_server(work):
    """Debian's PostgreSQL 15 on a private datadir and socket (in WORK) with pgbench's tables
    at scale 10, stopped at the end: yields pgbench's command line (without the database)
    or None when it cannot."""
    bindir = "/usr/lib/postgresql/15/bin"
    if not os.path.exists(bindir) and not install(["postgresql-15"]):
        print("skip PostgreSQL: not installed")
        yield None
        return
    data = os.path.join(work, "pgdata")
    shutil.rmtree(data, ignore_errors=True)
    user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    os.makedirs(data)
    if user:
        shutil.chown(work, "postgres")
        shutil.chown(data, "postgres")
    r = sh(user + [f"{bindir}/initdb", "-D", data, "-A", "trust"])
    if r.returncode:
        print("skip PostgreSQL:", r.stderr[-300:])
        yield None
        return
    opts = f"-k {work} -c listen_addresses='' -c max_connections=100 -c shared_buffers=128MB"
    r = sh(user + [f"{bindir}/pg_ctl", "-D", data, "-o", opts, "-l", f"{work}/pg.log", "-w", "start"])
    if r.returncode:
        print("skip PostgreSQL:", r.stderr[-300:])
        yield None
        return
    try:
        pg = user + ["pgbench", "-h", work, "-U", "postgres"]
        sh(pg + ["-i", "-s", "10", "postgres"], timeout=600)
        yield pg
    finally:
        sh(user + [f"{bindir}/pg_ctl", "-D", data, "-m", "fast", "stop"])


def postgres(hot, work, seconds):
    with postgres_server(work) as pg:
        if not pg:
            return
        for name, extra in (("select-only", ["-S"]), ("tpcb-like", [])):
            out = os.path.join(work, f"postgres-{name}.data")
            record(out, seconds, lambda e=extra: subprocess.Popen(
                pg + ["-c", "16", "-j", "4", "-T", str(seconds + 30), *e, "postgres"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            report(hot, out, f"PostgreSQL pgbench {name}, 16 clients")


def main():
    hot = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/mycl-locks-servers"
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    which = sys.argv[4:] or ["mariadb", "postgres"]
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    if "mariadb" in which:
        mariadb(hot, work, seconds)
    if "postgres" in which:
        postgres(hot, work, seconds)


if __name__ == "__main__":
    main()
