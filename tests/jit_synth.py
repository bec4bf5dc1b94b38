#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
JIT code: samples in an anonymous executable map, named from the JIT's
/tmp/perf-PID.map (what node --perf-basic-prof, the JVM's perf-map-agent and
Python 3.12's perf trampoline write).  perf names the binary "[JIT] tid PID"
and the functions from the map; mycl-hot must name rows the same, flat and
--children.  Also read from under --symfs (the map copied with the recording).

Writes a recording of one process (PID chosen so no live process has it) with
an //anon map, samples in three JIT functions and in none, and the map file
at /tmp/perf-PID.map (removed afterwards).

usage: jit_synth.py MYCL_HOT WORKDIR
"""
import os
import struct
import subprocess
import sys

from checks import perf_spelling
from lbr_synth import pad8, rec, trailer, write_file

JIT = 0x7f0000100000
CTX_USER = (1 << 64) - 512
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD = 1, 2, 4, 32, 256
FUNCS = [(0x100, 0x80, "JS:*fib /srv/app.js:1:13"), (0x200, 0x40, "JS:^work /srv/app.js:2:14"),
         (0x300, 0x100, "LazyCompile:~main /srv/app.js:3:1")]


def claim_pid():
    """A PID no process has now, and /tmp/perf-PID.map made for it alone (O_EXCL: two
    runs side by side take two); (pid, fd) or (None, None)."""
    for pid in range(4_100_000, 4_190_000, 7919):
        if os.path.exists(f"/proc/{pid}"):
            continue
        try:
            return pid, os.open(f"/tmp/perf-{pid}.map", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
    return None, None


def write(path, pid):
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000,
                       S_IP | S_TID | S_TIME | S_CALLCHAIN | S_PERIOD, 0, 1 << 18,
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    data = rec(3, 0, struct.pack("<II", pid, pid) + pad8(b"node\0") + trailer(pid, 1))
    # an anonymous executable map (MMAP, prot not recorded: perf takes //anon as code)
    data += rec(1, 2, struct.pack("<IIQQQ", pid, pid, JIT, 0x10000, 0) + pad8(b"//anon\0") +
                trailer(pid, 2))
    t = 10
    for (off, _, _), n in zip(FUNCS, (30, 20, 10)):
        for _ in range(n):
            ip = JIT + off + 0x10
            data += rec(9, 2, struct.pack("<QIIQQ", ip, pid, pid, t, 1000) +
                        struct.pack("<QQQQ", 3, CTX_USER, ip, JIT + 0x310))
            t += 1
    for _ in range(5):      # in the map, in no function the JIT named
        ip = JIT + 0x8000
        data += rec(9, 2, struct.pack("<QIIQQ", ip, pid, pid, t, 1000) +
                    struct.pack("<QQQ", 2, CTX_USER, ip))
        t += 1
    write_file(path, attr, data)


def rows(cmd, counts=False):
    """{(dso, sym): percentages} of a report sorted by dso,sym (mycl's sample counts left out)."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        if line.startswith("#") or "[.]" not in line:
            continue
        left, sym = line.split("[.]", 1)
        f = left.split()
        n = 0
        while n < len(f) and f[n].endswith("%"):
            n += 1
        if counts and n < len(f) and f[n].isdigit():
            n += 1      # the sample count
        dso = " ".join(f[n:])
        got[(dso, perf_spelling(dso, sym.strip()))] = tuple(round(float(x.rstrip("%")), 2)
                                                            for x in f[:n] if x.endswith("%"))
    return got


def main():
    hot, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    pid, fd = claim_pid()
    if pid is None:
        print("skip: no free PID for the map file")
        return 77
    path = os.path.join(work, "jit.data")
    write(path, pid)
    mapfile = f"/tmp/perf-{pid}.map"
    symfs = os.path.join(work, "symfs")
    os.makedirs(os.path.join(symfs, "tmp"), exist_ok=True)
    text = "".join(f"{JIT + off:x} {size:x} {name}\n" for off, size, name in FUNCS)
    with open(os.path.join(symfs, "tmp", f"perf-{pid}.map"), "w") as f:
        f.write(text)
    ok = True
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        for view in ("--no-children", "--children"):
            perf = rows(["perf", "report", "-i", path, "--stdio", "--sort", "dso,sym", view,
                         "-g", "none"])
            # (the recording names no host: the local map is read when asked, --jit-maps)
            mine = rows([hot, "-q", "--sort", "dso,sym", "--jit-maps", view, path], True)
            mine_symfs = rows([hot, "-q", "--sort", "dso,sym", "--symfs", symfs, view, path], True)
            named = {k for k in perf if not k[1].startswith("0x")}
            if perf != mine or mine != mine_symfs or len(named) < 3:
                ok = False
                print(f"FAIL: {view}: perf {sorted(perf.items())}\n      mycl {sorted(mine.items())}"
                      f"\n      mycl --symfs {sorted(mine_symfs.items())}")
            else:
                print(f"ok: {view}: {len(mine)} rows as perf, {len(named)} JIT functions named")
        want = f"[JIT] tid {pid}"
        if not any(k[0] == want for k in mine):
            ok = False
            print(f"FAIL: no row of {want}")
        # Not asked: this machine's /tmp/perf-PID.map is another machine's PID's file; not read,
        # and the summary says why.
        p = subprocess.run([hot, "--sort", "dso,sym", path], capture_output=True, text=True)
        unread = rows([hot, "-q", "--sort", "dso,sym", path], True)
        if any(not k[1].startswith("0x") for k in unread) or \
                "does not say where it was made" not in p.stdout + p.stderr:
            ok = False
            print(f"FAIL: the map read without --jit-maps: {sorted(unread)}\n{p.stdout[-800:]}")
        else:
            print("ok: without --jit-maps the local map is not read, and the summary says why")
    finally:
        os.unlink(mapfile)
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
