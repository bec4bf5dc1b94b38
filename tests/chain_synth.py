#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
The chain cache changes nothing: mycl-hot caches where a call chain, and the
outer part of one (a suffix), ends in the call tree, so a new chain resolves
and walks only the frames inside the longest suffix seen before.  Whether a
suffix's frames depend on what is inside it (the mode it starts in, a caller
put back from the user frame below, a leaf's inlined names, the tree's memory
bound) decides what may be cached; a mistake there shows as a different tree.

Writes perf.data files of frame-pointer chains against the fixture binary
tests/data/symfs/mycl-fixtures/hotloop and a small kallsyms, shaped to share
suffixes under different insides: user chains, kernel then user, user before
kernel (a damaged or foreign recording), no chain at all, no context marker,
return addresses just after direct calls (callers put back), unresolved
addresses, two processes, a binary mapped again halfway; and one file of
300,000 distinct paths that passes the call tree's node budget (262,144), after
which unresolved frames are merged.  Every view that shows call paths must be
byte-identical with MYCL_CHAIN_CACHE=off (every chain resolved and walked from
the root).

usage: chain_synth.py MYCL_HOT DATA_DIR WORKDIR
"""
import os
import random
import struct
import subprocess
import sys

from lbr_synth import pad8, rec, trailer, write_file

BASE = 0x555555554000
BASE2 = 0x565555554000
KBASE = 0xffffffff81000000
CTX_KERNEL = (1 << 64) - 128
CTX_USER = (1 << 64) - 512
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD = 1, 2, 4, 32, 256
MISC_KERNEL, MISC_USER = 1, 2

# hotloop: functions, and return addresses just after its direct calls
FUNCS = [(0x10b0, 0x1140), (0x1230, 0x1260), (0x1260, 0x1280), (0x1280, 0x12c0),
         (0x12c0, 0x148c)]
CALL_RETS = [0x110f, 0x1395, 0x13d1, 0x13fd, 0x111a, 0x12eb, 0x1351, 0x141f, 0x145d]


def comm(pid, name, t):
    return rec(3, 0, struct.pack("<II", pid, pid) + pad8(name + b"\0") + trailer(pid, t))


def mmap(pid, base, t):
    return rec(1, MISC_USER, struct.pack("<IIQQQ", pid, pid, base + 0x1000, 0x1000, 0x1000) +
               pad8(b"/mycl-fixtures/hotloop\0") + trailer(pid, t))


def kernel_mmap():
    return rec(1, MISC_KERNEL, struct.pack("<IIQQQ", 0xffffffff, 0, KBASE, 0x2000000, KBASE) +
               pad8(b"[kernel.kallsyms]_text\0") + trailer(0xffffffff, 0))


def sample(pid, misc, ip, time, chain):
    body = struct.pack("<QIIQQ", ip, pid, pid, time, 1000)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", c) for c in chain)
    return rec(9, misc, body)


def write(path, records):
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000,
                       S_IP | S_TID | S_TIME | S_CALLCHAIN | S_PERIOD, 0, 1 << 18,
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert len(attr) == 128
    write_file(path, attr, b"".join(records))


def kernel_addrs(kallsyms):
    out = []
    with open(kallsyms) as f:
        for line in f:
            a, t, _ = line.split()[:3]
            if t in "tT":
                out.append(int(a, 16))
    return out


class Shapes:
    """Chains drawn from small pools, so that insides vary under shared suffixes."""

    def __init__(self, rnd, kaddrs):
        self.r = rnd
        self.k = kaddrs
        self.outer = [self.user_part(rnd.randint(1, 5)) for _ in range(40)]
        self.kouter = [[rnd.choice(kaddrs) + rnd.randint(1, 40) for _ in range(rnd.randint(1, 4))]
                       for _ in range(15)]

    def leaf(self):
        r = self.r
        if r.random() < 0.1:
            return 0x7f0000000000 + r.randint(0, 1 << 20)	# unresolved
        lo, hi = r.choice(FUNCS)
        return r.randint(lo, hi - 1)

    def ret(self):
        r = self.r
        x = r.random()
        if x < 0.5:
            return r.choice(CALL_RETS)
        if x < 0.9:
            lo, hi = r.choice(FUNCS)
            return r.randint(lo, hi - 1)
        return 0x7f0000000000 + r.randint(0, 4096)

    def user_part(self, n):
        return [self.ret() for _ in range(n)]

    def rebase(self, v, base):
        return v if v >= 0x7f0000000000 else base + v

    def chain(self, base):
        """(misc, ip, chain) of one sample."""
        r = self.r
        shape = r.random()
        inner = [self.ret() for _ in range(r.randint(0, 3))]
        outer = r.choice(self.outer)
        user = [self.rebase(v, base) for v in [self.leaf()] + inner + outer]
        if shape < 0.45:
            return MISC_USER, user[0], [CTX_USER] + user
        kern = [r.choice(self.k) + r.randint(1, 40) for _ in range(r.randint(1, 3))] + \
            r.choice(self.kouter)
        if shape < 0.75:
            return MISC_KERNEL, kern[0], [CTX_KERNEL] + kern + [CTX_USER] + user[1:]
        if shape < 0.82:
            return MISC_KERNEL, kern[0], [CTX_KERNEL] + kern
        if shape < 0.90:
            # user frames, then kernel ones, then user again: not how perf writes them
            return MISC_USER, user[0], [CTX_USER] + user[:2] + [CTX_KERNEL] + kern + \
                [CTX_USER] + user[2:]
        if shape < 0.95:
            # no context marker: the sample's own mode decides, user or (wrongly) kernel
            return r.choice([MISC_USER, MISC_KERNEL]), user[0], user
        return MISC_USER, user[0], []		# no chain: the sampled function alone


def small_file(path, kaddrs):
    rnd = random.Random(1234)
    sh = Shapes(rnd, kaddrs)
    recs = [kernel_mmap(), comm(100, b"one", 1), mmap(100, BASE, 2), comm(200, b"two", 3),
            mmap(200, BASE2, 4)]
    t = 10
    seen = []
    for i in range(30000):
        if i == 15000:
            recs.append(mmap(100, BASE, t))	# mapped again: a new address-space version
            t += 1
        pid, base = (100, BASE) if rnd.random() < 0.6 else (200, BASE2)
        if seen and rnd.random() < 0.3:
            misc, ip, ch = rnd.choice(seen)	# the same chain again
        else:
            misc, ip, ch = sh.chain(base)
            seen.append((misc, ip, ch))
        recs.append(sample(pid, misc, ip, t, ch))
        t += 1
    write(path, recs)


def budget_file(path):
    """Distinct unresolved leaves under resolved callers: past 262,144 nodes, merged."""
    rnd = random.Random(99)
    recs = [comm(100, b"big", 1), mmap(100, BASE, 2)]
    outer = [[BASE + rnd.choice(CALL_RETS) for _ in range(rnd.randint(1, 3))] for _ in range(30)]
    chains = []
    t = 10
    for i in range(300000):
        if chains and i % 7 == 0:
            ch = rnd.choice(chains)				# again: before and past the budget
        else:
            leaf = 0x7f0000000000 + i * 16			# a new unresolved address
            mid = [BASE + rnd.choice(CALL_RETS)] if i % 3 else \
                [0x7f1000000000 + rnd.randint(0, 1 << 24)]	# or an unresolved caller
            ch = [CTX_USER, leaf] + mid + rnd.choice(outer)
            if i % 11 == 0:
                chains.append(ch)
        recs.append(sample(100, MISC_USER, ch[1], t, ch))
        t += 1
    write(path, recs)


def run(hot, args, path, off):
    env = dict(os.environ)
    if off:
        env["MYCL_CHAIN_CACHE"] = "off"
    else:
        env.pop("MYCL_CHAIN_CACHE", None)
    r = subprocess.run([hot, *args, path], capture_output=True, env=env)
    return r.returncode, r.stdout, r.stderr


def main():
    hot, data_dir, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    kallsyms = os.path.join(data_dir, "locks", "kallsyms")
    common = ["--symfs", os.path.join(data_dir, "symfs"), "--kallsyms", kallsyms,
              "--buildid-dir", "", "--debug-dir", ""]
    small = os.path.join(work, "chains.data")
    big = os.path.join(work, "budget.data")
    small_file(small, kernel_addrs(kallsyms))
    budget_file(big)
    views = [["-g"], ["--children", "-g"], ["--folded"], ["-g", "--format", "json"],
             ["-g", "--call-order", "caller"], ["-g", "-s", "pid,dso,sym"],
             ["-g", "--max-stack", "3"], ["-g", "--no-call-site-frames"],
             ["--callers", "mix_hash"], ["--graph-limit", "0", "-g", "--max-rows", "0"]]
    cases = [(small, v) for v in views] + \
        [(big, v) for v in (["-g", "--max-rows", "0", "--graph-limit", "0"], ["--folded"])]
    passed = failed = 0
    for path, v in cases:
        args = common + v
        on, off = run(hot, args, path, False), run(hot, args, path, True)
        name = f"{os.path.basename(path)} {' '.join(v)}"
        ok = on == off and on[0] == 0 and len(on[1]) > 0
        if path == big and "--folded" not in v:
            ok = ok and b"merged per binary" in on[1]	# the budget was passed
        if path == small and v == ["-g"]:
            # the shapes reach the tree: put-back callers, kernel and user frames
            ok = ok and b"[from call site]" in on[1] and b"[k] " in on[1]
        print(f"{'ok  ' if ok else 'FAIL'} chain cache changes nothing: {name}")
        if not ok:
            print(f"     exit {on[0]} / {off[0]} (cache on / off); stderr: {on[2][:300]!r}")
            lo, lf = on[1].splitlines(), off[1].splitlines()
            for i, (a, b) in enumerate(zip(lo, lf)):
                if a != b:
                    print(f"     line {i + 1}:\n       on:  {a[:150]!r}\n       off: {b[:150]!r}")
                    break
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
