#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Recordings of the shapes perf record --threads and -z write, made here with
answers known, read by mycl-hot and, where it reads them, by perf report:

- a directory: a 'data' file (header, attrs, DIR_FORMAT feature, the thread's
  first name) and data.0 / data.1 of bare records, their times interleaved;
  data.1 renames the thread half-way (COMM at time MID), so every sample
  before MID is named 'before' and every one after 'after' only when the
  files are merged by time.  Both are zstd streams cut into COMPRESSED
  records inside records, so each file must keep its own decompression
  state.  Enough samples for several of the merge's rounds.
- the 'data' file alone (a warning naming the directory), a directory with no
  'data' file, a data.N that is a FIFO, a data.N cut inside a record.

usage: threads_synth.py MYCL_HOT WORKDIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys

from checks import check, summary

S_IP, S_TID, S_TIME, S_PERIOD = 1, 2, 4, 256
ST = S_IP | S_TID | S_TIME | S_PERIOD
SAMPLE_ID_ALL = 1 << 18
FEAT_DIR_FORMAT, FEAT_COMPRESSED = 24, 27
PID = 4242


def rec(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def trailer(t):
    return struct.pack("<IIQ", PID, PID, t)


def comm(name, t, exec_=False):
    n = name.encode() + b"\0"
    n += b"\0" * (-len(n) % 8)
    return rec(3, 0x2000 if exec_ else 0, struct.pack("<II", PID, PID) + n + trailer(t))


def sample(t):
    # user mode (misc 2), an address nothing maps: one row per comm
    return rec(9, 2, struct.pack("<QIIQQ", 0x1000, PID, PID, t, 1000))


def attr():
    a = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000, ST, 0, SAMPLE_ID_ALL,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert len(a) == 128
    return a


def header_file(data, features):
    """A file-mode perf.data: one event (no ids), DATA, FEATURES {bit: bytes}."""
    attrs_off, entry = 104, 128 + 16
    table = attr() + struct.pack("<QQ", 0, 0)
    data_off = attrs_off + entry
    bits = 0
    for f in features:
        bits |= 1 << f
    feat_off = data_off + len(data)
    secs, blob = b"", b""
    base = feat_off + 16 * len(features)
    for f in sorted(features):
        secs += struct.pack("<QQ", base + len(blob), len(features[f]))
        blob += features[f]
    header = struct.pack("<8sQQQQQQQQQQQQ", b"PERFILE2", 104, entry, attrs_off, len(table),
                         data_off, len(data), 0, 0, bits, 0, 0, 0)
    assert len(header) == 104
    return header + table + data + secs + blob


def zstd(raw):
    return subprocess.run(["zstd", "-q", "-c", "-3", "--no-check"], input=raw, capture_output=True,
                          check=True).stdout


def compressed(chunk):
    # COMPRESSED (81): header, then zstd bytes; its size need not be 8-aligned
    return struct.pack("<IHH", 81, 0, 8 + len(chunk)) + chunk


def mycl(hot, path, *args):
    r = subprocess.run([hot, "--format", "json", *args, path], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def comm_counts(hot, path):
    rc, out, err = mycl(hot, path, "--sort", "comm")
    if rc:
        return {"exit": rc, "stderr": err.strip()[:300]}
    got = {}
    for e in json.loads(out)["events"]:
        for row in e["rows"]:
            got[row["comm"]] = got.get(row["comm"], 0) + row["samples"]
    return got


def perf_comm_counts(path):
    r = subprocess.run(["perf", "report", "-i", path, "--stdio", "--sort", "comm", "-n",
                        "--percent-limit", "0"], capture_output=True, text=True)
    if r.returncode:
        return None
    got = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].endswith("%"):
            got[parts[2]] = int(parts[1])
    return got or None


def main():
    hot, work = sys.argv[1:3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    have_perf = shutil.which("perf") is not None

    # The directory: samples every 100 ns of time, even steps in data.0, odd in data.1.
    n = 60_000
    times = [1_000_000 + 100 * i for i in range(n)]
    t0 = [t for i, t in enumerate(times) if i % 2 == 0]
    t1 = [t for i, t in enumerate(times) if i % 2 == 1]
    mid = times[n // 2] + 50
    before = sum(1 for t in times if t < mid)
    d = os.path.join(work, "threads")
    os.makedirs(d)
    head = comm("before", 0)
    with open(os.path.join(d, "data"), "wb") as f:
        # COMPRESSED: zstd, level 3, the ring a record inflates into (2 MiB)
        f.write(header_file(head, {FEAT_DIR_FORMAT: struct.pack("<Q", 1),
                                   FEAT_COMPRESSED: struct.pack("<IIIII", 0, 1, 3, 0, 2 << 20)}))
    z = zstd(b"".join(sample(t) for t in t0))
    cuts = [0, len(z) // 3 + 5, 2 * len(z) // 3 + 1, len(z)]
    with open(os.path.join(d, "data.0"), "wb") as f:
        f.write(b"".join(compressed(z[a:b]) for a, b in zip(cuts, cuts[1:])))
    raw1 = b""
    for t in t1:
        if t > mid and b"after\0" not in raw1:
            raw1 += comm("after", mid, exec_=True)
        raw1 += sample(t)
    z = zstd(raw1)
    cut = len(z) // 2 + 3		# inside the stream, and inside a record
    with open(os.path.join(d, "data.1"), "wb") as f:
        f.write(compressed(z[:cut]) + compressed(z[cut:]))
    want = {"before": before, "after": n - before}
    got = comm_counts(hot, d)
    check("directory: data.0 and data.1 merged by time (the rename at MID splits them)",
          got == want, f"{got}, want {want}")
    rc, out, err = mycl(hot, d)
    doc = json.loads(out) if rc == 0 else {}
    kinds = [w["kind"] for w in doc.get("warnings", [])]
    check("directory: no record out of order, nothing skipped, its 2 files counted", rc == 0 and
          "unordered" not in kinds and doc["header"].get("sample_records") == n and
          doc["header"].get("data_files") == 2,
          f"{rc} {kinds} {err[:300]}")
    if have_perf:
        perf = perf_comm_counts(d)
        if perf is not None:
            check("directory: perf report --sort comm agrees", perf == want, perf)

    # The 'data' file alone: what is there, and a warning pointing at the directory.
    rc, out, err = mycl(hot, os.path.join(d, "data"))
    check("the 'data' file alone: a warning naming the data.N files",
          "give the directory" in err, f"{rc} {err[:300]}")

    # A directory that is not perf's.
    e = os.path.join(work, "empty-dir")
    os.makedirs(e)
    rc, out, err = mycl(hot, e)
    check("a directory without 'data': exit 3, says so", rc == 3 and
          "is a directory" in err and "no file named 'data'" in err, f"{rc} {err[:300]}")

    # A data.N that is a FIFO: refused by name, never opened for a blocking read.
    fdir = os.path.join(work, "fifo-dir")
    shutil.copytree(d, fdir)
    os.unlink(os.path.join(fdir, "data.1"))
    os.mkfifo(os.path.join(fdir, "data.1"))
    try:
        r = subprocess.run([hot, fdir], capture_output=True, text=True, timeout=60)
        check("a FIFO as data.1: exit 3 naming it", r.returncode == 3 and
              "data.1 is a FIFO" in r.stderr, f"{r.returncode} {r.stderr[:300]}")
    except subprocess.TimeoutExpired:
        check("a FIFO as data.1: no hang", False, "mycl-hot waited on the FIFO")

    # data.0 cut inside a record: what is whole is read, and a warning names the file.
    tdir = os.path.join(work, "truncated-dir")
    shutil.copytree(d, tdir)
    with open(os.path.join(tdir, "data.0"), "wb") as f:
        f.write(b"".join(sample(t) for t in t0)[:-13])	# plain records this time
    rc, out, err = mycl(hot, tdir)
    hdr = json.loads(out)["header"] if rc == 0 else {}
    check("data.0 cut short: the rest read, the file named",
          rc == 0 and "data.0: record at offset" in err and "truncated" in err and
          hdr.get("sample_records") == n - 1, f"{rc} {hdr.get('sample_records')} {err[:300]}")

    return summary()


if __name__ == "__main__":
    sys.exit(main())
