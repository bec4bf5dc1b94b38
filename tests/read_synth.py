#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Samples that read counters (PERF_SAMPLE_READ), in every read_format this
machine's perf cannot be made to write: group reads with and without
TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID and LOST, a value whose id names
no event, a non-group read, and a non-group read with inherit from two
threads.  Each file is written here with counts chosen so the answer is
known: each member gets a sample where its count moved, with the increase as
its period.  Where perf report reads the file, its --no-group event counts
must be the same as mycl's (the inherit case aside: perf 6.1 takes the
increase per id there and wraps around; mycl per id and thread).

usage: read_synth.py MYCL_HOT WORKDIR
"""
import json
import os
import struct
import subprocess
import sys

from checks import check, summary

S_IP, S_TID, S_TIME, S_READ, S_ID, S_PERIOD = 1, 2, 4, 16, 64, 256
RF_ENABLED, RF_RUNNING, RF_ID, RF_GROUP, RF_LOST = 1, 2, 4, 8, 16
SAMPLE_ID_ALL, INHERIT, DISABLED = 1 << 18, 1 << 1, 1 << 0
ST = S_IP | S_TID | S_TIME | S_ID | S_PERIOD | S_READ


def rec(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def attr(config, period, rf, flags):
    a = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, config, period, ST, rf,
                    flags | SAMPLE_ID_ALL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert len(a) == 128
    return a


def read_body(rf, values, ids, time=1000):
    """values/ids: one per member; a group read when RF_GROUP."""
    out = b""
    if rf & RF_GROUP:
        out += struct.pack("<Q", len(values))
        if rf & RF_ENABLED:
            out += struct.pack("<Q", time)
        if rf & RF_RUNNING:
            out += struct.pack("<Q", time)
        for v, i in zip(values, ids):
            out += struct.pack("<Q", v)
            if rf & RF_ID:
                out += struct.pack("<Q", i)
            if rf & RF_LOST:
                out += struct.pack("<Q", 0)
        return out
    out += struct.pack("<Q", values[0])
    if rf & RF_ENABLED:
        out += struct.pack("<Q", time)
    if rf & RF_RUNNING:
        out += struct.pack("<Q", time)
    if rf & RF_ID:
        out += struct.pack("<Q", ids[0])
    if rf & RF_LOST:
        out += struct.pack("<Q", 0)
    return out


def sample(tid, t, sid, rf, values, ids):
    body = struct.pack("<QIIQQQ", 0x401000 + 16 * t, 100, tid, 1000 + t, sid, 1000)
    return rec(9, 2, body + read_body(rf, values, ids))


def write(path, attrs, samples):
    """attrs: [(attr bytes, [ids])]; samples: record bytes."""
    comm = rec(3, 0, struct.pack("<II", 100, 100) + b"synth\0\0\0" +
               struct.pack("<IIQQ", 100, 100, 1, attrs[0][1][0]))
    data = comm + b"".join(samples) + rec(68, 0, b"")
    attrs_off = 104
    entry = 128 + 16
    ids_off = attrs_off + entry * len(attrs)
    ids_blob, table = b"", b""
    for a, ids in attrs:
        table += a + struct.pack("<QQ", ids_off + len(ids_blob), 8 * len(ids))
        ids_blob += b"".join(struct.pack("<Q", i) for i in ids)
    data_off = ids_off + len(ids_blob)
    header = struct.pack("<8sQQQQQQQQ", b"PERFILE2", 104, entry, attrs_off, len(table),
                         data_off, len(data), 0, 0) + b"\0" * 32
    with open(path, "wb") as f:
        f.write(header + table + ids_blob + data)


def mycl_counts(hot, path):
    r = subprocess.run([hot, "-q", "--no-group", "--format", "json", path], capture_output=True,
                       text=True)
    if r.returncode:
        return {"error": r.stderr.strip()}
    # Named as perf names them (cpu-clock:HG: no exclude bits set); compared without modifiers.
    return {e["name"].split(":")[0]: (e["samples"], e["event_count"])
            for e in json.loads(r.stdout)["events"]}


def perf_counts(path):
    r = subprocess.run(["perf", "report", "-i", path, "--stdio", "--no-group", "--sort", "sym"],
                       capture_output=True, text=True)
    out, name = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("# Samples:"):
            name = line.split("'")[1].split(":")[0]
            n = line.split(":")[1].split()[0]
            out[name] = [int(n)]
        elif line.startswith("# Event count (approx.):") and name:
            out[name].append(int(line.split(":")[1]))
    return {k: tuple(v) for k, v in out.items() if len(v) == 2} if r.returncode == 0 else None


def main():
    hot, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    # Leader cpu-clock (ids 11, 12), member page-faults (ids 21, 22).  Its
    # counts move at samples 1, 2 and 4; the member's at 2 and 3.  Id 999 is
    # nobody's.
    leader = [100, 250, 250, 400]
    member = [0, 5, 9, 9]
    for rf in (RF_ID | RF_GROUP, RF_ID | RF_GROUP | RF_ENABLED | RF_RUNNING,
               RF_ID | RF_GROUP | RF_LOST, RF_ID | RF_GROUP | RF_ENABLED | RF_RUNNING | RF_LOST):
        path = os.path.join(work, f"group-{rf}.data")
        attrs = [(attr(0, 1000, rf, DISABLED), [11]), (attr(2, 0, rf, 0), [21])]
        samples = [sample(100, t, 11, rf, [leader[t], member[t], 7], [11, 21, 999])
                   for t in range(4)]
        write(path, attrs, samples)
        got = mycl_counts(hot, path)
        check(f"read_format {rf:#x}: each member's samples and increases",
              got == {"cpu-clock": (3, 400), "page-faults": (2, 9)}, got)
        perf = perf_counts(path)
        if perf is not None:
            check(f"read_format {rf:#x}: perf report --no-group agrees", perf == got, perf)
    # A non-group read of one event.
    rf = RF_ID | RF_ENABLED
    path = os.path.join(work, "single.data")
    write(path, [(attr(0, 1000, rf, 0), [11])],
          [sample(100, t, 11, rf, [v], [11]) for t, v in enumerate((10, 30, 60))])
    got = mycl_counts(hot, path)
    check("a non-group read: increases of the one count", got == {"cpu-clock": (3, 60)}, got)
    perf = perf_counts(path)
    if perf is not None:
        check("a non-group read: perf report agrees", perf == got, perf)
    # Inherited by two threads, each counting from 0 under the same id.
    path = os.path.join(work, "inherit.data")
    write(path, [(attr(0, 1000, rf, INHERIT), [11])],
          [sample(tid, t, 11, rf, [v], [11])
           for t, (tid, v) in enumerate(((100, 10), (101, 5), (100, 20), (101, 15)))])
    got = mycl_counts(hot, path)
    check("inherit: increases per thread (10+10 and 5+10)", got == {"cpu-clock": (4, 35)}, got)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
