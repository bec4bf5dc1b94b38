#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Many mappings.  A recording may hold hundreds of thousands of MMAP records
(a process that maps a file per connection, a JIT, or a crafted file); each
costs a look-up of its binary by path and an insert into its process's maps.
This writes recordings of SHAPES of maps (address order up and down, random
places that overlap earlier maps and trim or split them, the same few paths
mapped again and again, a fork half way, or forty, each child with a copy of
its parent's maps that both then change), with
samples between the records, works out in Python which map each sample's
address is in at its time (the later mmap wins), and checks that mycl-hot
counts the same samples per binary.  The sizes keep the test quick; with the
maps' old array (every insert copied the process's maps) a shape of 30,000
descending maps already took seconds.  bench/maps.sh times 200,000.

usage: maps_synth.py MYCL_HOT WORKDIR [N]
"""
import bisect
import json
import os
import random
import struct
import subprocess
import sys

from lbr_synth import pad8, rec, trailer, write_file

S_IP, S_TID, S_TIME, S_PERIOD = 1, 2, 4, 256
PAGE = 0x1000
BASE = 0x10000000
PID, CHILD = 4242, 4343


def mmap(pid, start, length, pgoff, name, time):
    return rec(1, 2, struct.pack("<IIQQQ", pid, pid, start, length, pgoff) +
               pad8(name.encode() + b"\0") + trailer(pid, time))


def sample(pid, ip, time):
    return rec(9, 2, struct.pack("<QIIQQ", ip, pid, pid, time, 1000))


def fork(pid, ppid, time):
    return rec(7, 0, struct.pack("<IIIIQ", pid, ppid, pid, ppid, time) + trailer(pid, time))


def shape_maps(shape, n, rnd):
    """(start, pages, name) in the order of their records."""
    if shape == "up":
        return [(BASE + i * 2 * PAGE, 1, "/opt/up/m%06d.so" % i) for i in range(n)]
    if shape == "down":
        return [(BASE + i * 2 * PAGE, 1, "/opt/down/m%06d.so" % i) for i in reversed(range(n))]
    span = n * 2
    names = ["/usr/lib/x86_64-linux-gnu/lib%d.so" % k for k in range(7)] if shape == "same" else None
    return [(BASE + rnd.randrange(span) * PAGE, rnd.choice((1, 1, 2, 3, 8, 40)),
             names[i % 7] if names else "/opt/%s/m%06d.so" % (shape, i)) for i in range(n)]


class Space:
    """Which map (by name) each sampled address is in: the later map wins."""

    def __init__(self, ips):
        self.ips = ips
        self.owner = {}

    def paint(self, start, end, name):
        lo = bisect.bisect_left(self.ips, start)
        hi = bisect.bisect_left(self.ips, end)
        for ip in self.ips[lo:hi]:
            self.owner[ip] = name

    def copy(self):
        c = Space(self.ips)
        c.owner = dict(self.owner)
        return c


def build(shape, n, seed):
    rnd = random.Random(seed)
    maps = shape_maps(shape, n, rnd)
    top = max(s + p * PAGE for s, p, _ in maps)
    ips = sorted({BASE - PAGE + rnd.randrange(top - BASE + 2 * PAGE) & ~0xf for _ in range(3000)})
    spaces = {PID: Space(ips)}
    out = [rec(3, 0, struct.pack("<II", PID, PID) + pad8(b"many\0") + trailer(PID, 1))]
    expect = {}
    t = 2
    every = max(1, n // 500)
    for i, (start, pages, name) in enumerate(maps):
        pid = PID
        if shape in ("fork", "forks") and i >= n // 2:
            # one child at half way, or forty, each forked from the parent as it is then
            if i == n // 2 or (shape == "forks" and (i - n // 2) % (n // 80 or 1) == 0):
                child = CHILD + len(spaces) - 1
                out.append(fork(child, PID, t))
                spaces[child] = spaces[PID].copy()
                t += 1
            pid = CHILD + len(spaces) - 2 if i % 2 else PID
        out.append(mmap(pid, start, pages * PAGE, (i % 5) * PAGE, name, t))
        spaces[pid].paint(start, start + pages * PAGE, name)
        t += 1
        if i % every == every - 1:
            for p in spaces:
                ip = rnd.choice(ips)
                out.append(sample(p, ip, t))
                t += 1
                key = os.path.basename(spaces[p].owner.get(ip, "[unknown]"))
                expect[key] = expect.get(key, 0) + 1
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000,
                       S_IP | S_TID | S_TIME | S_PERIOD, 0, 1 << 18,
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return attr, b"".join(out), expect


def counted(hot, path):
    r = subprocess.run([hot, "-s", "dso", "--format", "json", "--percent-limit", "0", path],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("mycl-hot failed on %s (%d): %s" % (path, r.returncode, r.stderr))
    got = {}
    for row in json.loads(r.stdout)["events"][0]["rows"]:
        got[row["dso"]] = got.get(row["dso"], 0) + row["samples"]
    return got


def main():
    hot, work = sys.argv[1:3]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 30000
    os.makedirs(work, exist_ok=True)
    failed = 0
    for k, shape in enumerate(("up", "down", "random", "same", "fork", "forks")):
        attr, data, expect = build(shape, n, 51 + k)
        path = os.path.join(work, "maps-%s.data" % shape)
        write_file(path, attr, data)
        got = counted(hot, path)
        if got != expect:
            failed += 1
            diff = sorted(set(got) ^ set(expect) |
                          {d for d in got if d in expect and got[d] != expect[d]})[:8]
            print("FAIL %s: %d maps; per binary (mycl, expected): %s" %
                  (shape, n, ", ".join("%s %s %s" % (d, got.get(d), expect.get(d)) for d in diff)))
        else:
            print("ok   %s: %d maps, %d samples in %d binaries" %
                  (shape, n, sum(expect.values()), len(expect)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
