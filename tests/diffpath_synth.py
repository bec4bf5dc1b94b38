#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
A differential flame graph of work that moved under a new caller: the base
recording runs checksum under worker under main, the new one the same
samples of checksum with mix_hash inserted between worker and checksum (as
MariaDB's dispatch_command moved under the thread pool's tp_callback).  The
table says checksum, worker and main did not change and mix_hash is new; the
flame graph's colours must say the same of the functions (checksum's frame on
the new path is not "grew" because its path is new), and the tooltip gives
the path's own counts.  Recordings written here for the fixture binary
tests/data/symfs/mycl-fixtures/hotloop.

usage: diffpath_synth.py MYCL_DIFF DATA_DIR WORKDIR
"""
import json
import os
import re
import struct
import subprocess
import sys

from lbr_synth import pad8, rec, trailer, write_file

BASE = 0x555555554000
CTX_USER = (1 << 64) - 512
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD = 1, 2, 4, 32, 256
CHECKSUM, MIX_HASH, WORKER_RET, MAIN_RET = 0x1290, 0x1240, 0x1390, 0x110a


def sample(ip, time, chain):
    body = struct.pack("<QIIQQ", ip, 100, 100, time, 1000000)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", c) for c in chain)
    return rec(9, 2, body)


def write(path, moved):
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000000,
                       S_IP | S_TID | S_TIME | S_CALLCHAIN | S_PERIOD, 0, 1 << 18,
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    data = rec(3, 0, struct.pack("<II", 100, 100) + pad8(b"hotloop\0") + trailer(100, 1))
    data += rec(1, 2, struct.pack("<IIQQQ", 100, 100, BASE + 0x1000, 0x1000, 0x1000) +
                pad8(b"/mycl-fixtures/hotloop\0") + trailer(100, 2))
    callers = ([BASE + MIX_HASH] if moved else []) + [BASE + WORKER_RET, BASE + MAIN_RET]
    for t in range(400):
        data += sample(BASE + CHECKSUM, 10 + t, [CTX_USER, BASE + CHECKSUM] + callers)
    write_file(path, attr, data)


def main():
    tool, data, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    base, new = os.path.join(work, "base.data"), os.path.join(work, "moved.data")
    write(base, False)
    write(new, True)
    symfs = os.path.join(data, "symfs")
    svg = os.path.join(work, "moved.svg")
    r = subprocess.run([tool, "--symfs", symfs, "--buildid-dir", "", "--debug-dir", "",
                        "--flamegraph", svg, base, new], capture_output=True, text=True)
    ok = r.returncode == 0
    frames = re.findall(r'<g class="fg-f" data-d="(\d+)" data-n="([^"]*)"><title>([^<]*)</title>'
                        r'<rect [^>]*fill="([^"]*)"', open(svg).read()) if ok else []
    table = json.loads(subprocess.run([tool, "--symfs", symfs, "--buildid-dir", "", "--debug-dir",
                                       "", "--format", "json", base, new],
                                      capture_output=True, text=True).stdout)
    changed = sorted(x["symbol"] for x in table["rows"] if x["changed"])
    colour = {n: fill for d, n, t, fill in frames if int(d) >= 2}
    tips = {n: t for d, n, t, fill in frames if int(d) >= 2}
    print(f"frames {sorted(colour.items())}; the table's changed rows {changed}")
    white = "rgb(255,235,235)"
    chk = [k for k in colour if k.startswith("checksum")]
    if not chk or colour[chk[0]] != white:
        ok = False
        print(f"FAIL: checksum (unchanged in the table, moved under mix_hash) is painted "
              f"{colour.get(chk[0]) if chk else None}, not white")
    if not colour.get("mix_hash", "").startswith("rgb(255,") or colour.get("mix_hash") == white:
        ok = False
        print(f"FAIL: mix_hash (new in the run) is painted {colour.get('mix_hash')}, not red")
    if chk and "This path: base 0, new 400" not in tips[chk[0]]:
        ok = False
        print(f"FAIL: checksum's tooltip lacks its path's own counts: {tips[chk[0]]}")
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
