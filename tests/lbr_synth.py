#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
LBR call stacks (perf record --call-graph lbr), which this machine's CPU cannot
record: writes a perf.data the way perf does for that mode (BRANCH_STACK with
PERF_SAMPLE_BRANCH_CALL_STACK, user call chain excluded) for the fixture
binary tests/data/symfs/mycl-fixtures/hotloop, and checks that mycl-hot merges
the sampled ip with the branch entries' call sites into main -> worker ->
checksum, and that LBR-less samples keep their own chain.

usage: lbr_synth.py MYCL_HOT DATA_DIR WORKDIR
"""
import os
import struct
import subprocess
import sys

BASE = 0x555555554000
CTX_USER = (1 << 64) - 512
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD, S_BRANCH = 1, 2, 4, 32, 256, 2048


def pad8(b):
    return b + b"\0" * (-len(b) % 8)


def rec(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def trailer(pid, time):
    return struct.pack("<IIQ", pid, pid, time)


def write_file(path, attr, data):
    """A perf.data of one event (ATTR, 128 bytes, no ids) with the records DATA, then a round's end."""
    data += rec(68, 0, b"")
    attrs_off = 104
    data_off = attrs_off + 128 + 16
    header = struct.pack("<8sQQQQQQQQ", b"PERFILE2", 104, 128 + 16, attrs_off, 128 + 16,
                         data_off, len(data), 0, 0) + b"\0" * 32
    with open(path, "wb") as f:
        f.write(header + attr + struct.pack("<QQ", 0, 0) + data)


def sample(ip, time, chain, branches):
    body = struct.pack("<QIIQQ", ip, 100, 100, time, 1000000)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", c) for c in chain)
    body += struct.pack("<Q", len(branches))
    body += b"".join(struct.pack("<QQQ", f, t, 0) for f, t in branches)
    return rec(9, 2, body)


def write(path):
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000000,
                       S_IP | S_TID | S_TIME | S_CALLCHAIN | S_PERIOD | S_BRANCH, 0, 1 << 18,
                       0, 0, 0, 0, (1 << 0) | (1 << 11), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert len(attr) == 128
    data = rec(3, 0, struct.pack("<II", 100, 100) + pad8(b"hotloop\0") + trailer(100, 1))
    data += rec(1, 2, struct.pack("<IIQQQ", 100, 100, BASE + 0x1000, 0x1000, 0x1000) +
                pad8(b"/mycl-fixtures/hotloop\0") + trailer(100, 2))
    # In checksum, called from worker (0x1390), called from main (0x110a).
    lbr = [(BASE + 0x1390, BASE + 0x1280), (BASE + 0x110a, BASE + 0x12c0)]
    for t in range(10):
        data += sample(BASE + 0x1290, 10 + t, [CTX_USER], lbr)
    # In mix_hash from worker's second call site (0x13cc), from main.
    lbr2 = [(BASE + 0x13cc, BASE + 0x1230), (BASE + 0x110a, BASE + 0x12c0)]
    for t in range(5):
        data += sample(BASE + 0x1240, 30 + t, [CTX_USER], lbr2)
    write_file(path, attr, data)


def main():
    hot, data_dir, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "lbr.data")
    write(path)
    out = subprocess.run([hot, "--folded", "--symfs", os.path.join(data_dir, "symfs"),
                          "--buildid-dir", "", "--debug-dir", "", path],
                         capture_output=True, text=True)
    lines = dict(l.rsplit(" ", 1) for l in out.stdout.splitlines())
    ok1 = lines.get("hotloop;main;worker;checksum.constprop.0") == "10"
    ok2 = lines.get("hotloop;main;worker;mix_hash") == "5"
    print(f"{'ok  ' if ok1 else 'FAIL'} LBR call stack: main -> worker -> checksum (10 samples)")
    print(f"{'ok  ' if ok2 else 'FAIL'} LBR call stack: main -> worker -> mix_hash (5 samples)")
    if not (ok1 and ok2):
        print(out.stdout, out.stderr)
    print(f"{ok1 + ok2} passed, {2 - ok1 - ok2} failed")
    return 0 if ok1 and ok2 else 1


if __name__ == "__main__":
    sys.exit(main())
