#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
--time: slices of a recording in perf's syntax.

1. The fixtures under tests/data, each cut by percentage slices, ranges and
   absolute times taken from its own header: mycl-hot's flat profile (sample
   and event counts per event, every row of 0.5% or more within 0.05 points)
   and --children against perf report --time on the same file and slice; the
   folded stacks and the call graph count the same samples as the flat view.
2. Synthetic recordings with samples at known nanoseconds: the samples kept
   by each slice against a model of perf's arithmetic written here (a slice
   a%/n of the span [first, last] starts at first + round(a(n-1) * span) and
   ends one nanosecond before the next slice's start, unless it ends at the
   last sample; both ends inclusive), with the span from the header's
   SAMPLE_TIME feature when it is there and from the samples when it is not.
3. What the user is told: malformed and empty slices, samples without a time,
   percentages of a pipe; mycl-report, mycl-diff (BASE:NEW) and mycl-share
   --perf read the same slices.

usage: time_checks.py MYCL_HOT DATA_DIR WORKDIR   (mycl-report, -diff, -share beside it)
"""
import json
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "scripts"))
import checks  # noqa: E402
from perfreport import perf_rows, mycl_rows  # noqa: E402
from lbr_synth import pad8, rec, trailer  # noqa: E402
from compare_perf import compare_children as children_as_perf  # noqa: E402

MIN_PCT, TOL = 0.5, 0.05
S_IP, S_TID, S_TIME, S_PERIOD = 1, 2, 4, 256
FEAT_SAMPLE_TIME = 21


def check(ok, what):
    checks.check(what, ok)
    return ok


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def header_span(path):
    """The header's first and last sample times, in ns, as perf report prints them (us)."""
    out = run(["perf", "report", "-i", path, "--header-only"]).stdout
    first = re.search(r"time of first sample : ([0-9.]+)", out)
    last = re.search(r"time of last sample : ([0-9.]+)", out)
    if not first or not last or (float(first.group(1)) == 0 and float(last.group(1)) == 0):
        return None	# perf record --no-buildid writes zeros
    return (round(float(first.group(1)) * 1e6) * 1000, round(float(last.group(1)) * 1e6) * 1000)


def secs(ns):
    return f"{ns // 1000000000}.{ns % 1000000000:09d}"


def slices_of(path):
    # (the synthetic recordings check every form's arithmetic; here each form once)
    s = ["10%/2", "0%-10%,30%-40%", "33%/3"]
    span = header_span(path)
    if span and span[1] > span[0]:
        a, b = span
        third = (b - a) // 3
        s += [f",{secs(a + third)}", f"{secs(a)},{secs(a + third)} {secs(b - third)},"]
    return s


def perf_slice(hot, path, tslice):
    """The slice as perf reads it: percentages of a file whose header holds no sample
    times (perf refuses them) as the absolute ranges mycl worked out from its samples."""
    if "%" not in tslice or header_span(path):
        return tslice
    out = run([hot, "-q", "--format", "json", "--time", tslice, path])
    ranges = json.loads(out.stdout)["header"]["time_slice"]["ranges"]
    return " ".join(f"{secs(r['start_ns'])},{secs(r['end_ns'])}" for r in ranges)


def compare_flat(hot, path, tslice, name, extra=(), rows=True):
    theirs = perf_slice(hot, path, tslice)
    perf, out = perf_rows(path, ["--time", theirs, *extra])
    mine, _ = mycl_rows(hot, path, ["--time", tslice, *extra])
    bad = []
    if set(perf) != set(mine):
        bad.append(f"events: perf {sorted(perf)} mycl {sorted(mine)}")
    for ev in set(perf) & set(mine):
        p, m = perf[ev], mine[ev]
        if p.get("event_count") != m["event_count"]:
            bad.append(f"{ev}: event count perf {p.get('event_count')} mycl {m['event_count']}")
        if p["samples"] < 1000 and p["samples"] != m["samples"]:
            bad.append(f"{ev}: samples perf {p['samples']} mycl {m['samples']}")
        for key in (set(p["rows"]) | set(m["rows"])) if rows else ():
            pv, mv = p["rows"].get(key, 0.0), m["rows"].get(key, 0.0)
            if max(pv, mv) >= MIN_PCT and abs(pv - mv) > TOL:
                bad.append(f"{ev}: {key}: perf {pv:.2f}% mycl {mv:.2f}%")
    if theirs != tslice:
        name += f" (perf: --time '{theirs}')"
    check(not bad, f"{name} --time '{tslice}': flat profile as perf report's "
          f"({sum(m['samples'] for m in mine.values())} samples)")
    for b in bad[:5]:
        print("    ", b)
    return mine


def compare_children(hot, path, tslice, name):
    ok = children_as_perf(f"{name} --time '{tslice}'", path, hot, extra=["--time", tslice])
    check(ok, f"{name} --time '{tslice}': --children as perf report's")


def total_samples(doc):
    return sum(e["samples"] for e in doc["events"])


def same_in_views(hot, path, tslice, name, flat_samples):
    """The folded stacks count the samples the flat view keeps."""
    out = run([hot, "-q", "--folded", "--time", tslice, path])
    folded = sum(int(l.rsplit(" ", 1)[1]) for l in out.stdout.splitlines() if l.strip())
    check(out.returncode == 0 and folded == flat_samples,
          f"{name} --time '{tslice}': --folded counts {folded}, the flat view {flat_samples}")


# --- synthetic recordings with samples at known times ------------------------

def write_synth(path, times, span=None, sample_time=True):
    """One process's samples at TIMES (ns); SPAN: the header's SAMPLE_TIME feature."""
    st = S_IP | S_TID | S_PERIOD | (S_TIME if sample_time else 0)
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, 128, 0, 1000, st, 0, 1 << 18,
                       0, 0, 0, 0, (1 << 0) | (1 << 11), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    data = rec(3, 0, struct.pack("<II", 77, 77) + pad8(b"slicer\0") + trailer(77, 1))
    data += rec(1, 2, struct.pack("<IIQQQ", 77, 77, 0x400000, 0x1000, 0) +
                pad8(b"/opt/slicer\0") + trailer(77, 2))
    for t in times:
        body = struct.pack("<QII", 0x400100, 77, 77)
        if sample_time:
            body += struct.pack("<Q", t)
        data += rec(9, 2, body + struct.pack("<Q", 1000))
    data += rec(68, 0, b"")
    attrs_off, data_off = 104, 104 + 144
    feat_off = data_off + len(data)
    flags = (1 << FEAT_SAMPLE_TIME) if span else 0
    header = struct.pack("<8sQQQQQQQQ", b"PERFILE2", 104, 144, attrs_off, 144, data_off,
                         len(data), 0, 0) + struct.pack("<QQQQ", flags, 0, 0, 0)
    tail = b""
    if span:
        tail = struct.pack("<QQ", feat_off + 16, 16) + struct.pack("<QQ", *span)
    with open(path, "wb") as f:
        f.write(header + attr + struct.pack("<QQ", 0, 0) + data + tail)


def c_round(x):
    """C's round(): halves away from zero."""
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def model(times, tslice, first, last):
    """Samples kept by TSLICE, from perf's documented arithmetic."""
    ranges = []
    if "%" in tslice:
        total = last - first
        for item in tslice.split(","):
            if "/" in item:
                pct, n = item.split("/")
                a = float(pct.rstrip("%")) / 100
                lo, hi = a * (int(n) - 1), a * int(n)
            elif "-" in item:
                lo, hi = (float(x.rstrip("%")) / 100 for x in item.split("-"))
            else:
                lo, hi = 0.0, float(item.rstrip("%")) / 100
            s, e = first + c_round(lo * total), first + c_round(hi * total)
            if e > s and e != last:
                e -= 1
            ranges.append((s, e))
    else:
        for item in tslice.split():
            a, b = item.split(",")
            ranges.append((int(round(float(a) * 1e9)) if a else 0,
                           int(round(float(b) * 1e9)) if b else 1 << 64))
    return sum(1 for t in times if any(s <= t <= e for s, e in ranges))


def kept(hot, path, tslice):
    out = run([hot, "-q", "--format", "json", "--time", tslice, path])
    if out.returncode != 0:
        return None, out
    return total_samples(json.loads(out.stdout)), out


def synthetic(hot, work):
    times = [1000 + 10 * k for k in range(101)] + [1003, 1497, 1500, 1999]
    times.sort()
    plain = os.path.join(work, "synth-nohdr.data")
    withhdr = os.path.join(work, "synth-hdr.data")
    write_synth(plain, times)
    write_synth(withhdr, times, span=(500, 2500))
    pct = ["10%/1", "10%/2", "10%/10", "0%-10%,30%-40%", "25%", "50%-100%", "33.3%/2",
           "12.5%/3,12.5%/8", "100%", "0%-0%", "49.9%-50.1%"]
    for path, (first, last), how in ((plain, (1000, 2000), "the samples (no SAMPLE_TIME)"),
                                     (withhdr, (500, 2500), "the header's SAMPLE_TIME")):
        bad = []
        for s in pct:
            got, out = kept(hot, path, s)
            want = model(times, s, first, last)
            if (got or 0) != want or (got is None and out.returncode != 4):
                bad.append(f"{s}: mycl {got} model {want} {out.stderr.strip()}")
        check(not bad, f"percentages of the span from {how}: {len(pct)} slices as the model")
        for b in bad:
            print("    ", b)
    # absolute ranges, both ends inclusive, open sides, several
    absl = ["0.00000101,0.00000103", "0.000001,0.000001", ",0.0000015", "0.0000015,",
            "0.000001003,0.000001003", "0.0000010,0.0000011 0.0000019,0.000002",
            "0.000001005,0.000001009"]
    bad = []
    for s in absl:
        got, out = kept(hot, plain, s)
        want = model(times, s, 0, 0)
        if (got or 0) != want and not (want == 0 and out.returncode == 4):
            bad.append(f"{s}: mycl {got} model {want} {out.stderr.strip()}")
    check(not bad, f"absolute ranges: {len(absl)} as the model (both ends inclusive)")
    for b in bad:
        print("    ", b)
    # the slice's header line and JSON
    out = run([hot, "--time", "10%/2", plain])
    check("# time slice: 0.000001100 to" not in out.stdout and
          re.search(r"^# time slice: 0\.000001 to 0\.000001 \(10 of 105 samples\)$", out.stdout, re.M),
          "the header says the slice and its share of the samples")
    out = run([hot, "--time", "10%/2", "--format", "json", plain])
    ts = json.loads(out.stdout)["header"].get("time_slice", {})
    check(ts.get("ranges") == [{"start_ns": 1100, "end_ns": 1199}] and
          ts.get("samples_kept") == 10 and ts.get("samples_outside") == 95,
          f"JSON header.time_slice: {ts}")
    # samples that carry no time
    notime = os.path.join(work, "synth-notime.data")
    write_synth(notime, times, sample_time=False)
    out = run([hot, "--time", "0,1", notime])
    check(out.returncode == 1 and "carry no time" in out.stderr,
          f"samples without a time: exit 1 and said ({out.returncode}: {out.stderr.strip()})")
    return plain


def strip(tools, work):
    """mycl-report's Over time section on samples at known times: 100 a second for 1 s,
    none for 0.2 s, 500 a second for 0.2 s, 100 a second for 0.6 s."""
    ns = 1_000_000_000
    times = [ns + k * ns // 100 for k in range(100)]
    times += [ns + 12 * ns // 10 + k * ns // 500 for k in range(100)]
    times += [ns + 14 * ns // 10 + k * ns // 100 for k in range(60)]
    path = os.path.join(work, "spike.data")
    write_synth(path, times)
    out = run([os.path.join(tools, "mycl-report"), "--no-share", "--width", "100", path])
    text = out.stdout
    m = re.search(r"Busiest: .*--time (\d+\.\d+),(\d+\.\d+) selects it", text)
    check(out.returncode == 0 and "== Over time ==" in text and re.search(r"^\|.*\|$", text, re.M),
          "mycl-report: an Over time section with a strip of the rate")
    ok = False
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        ok = 2.15 <= lo <= 2.21 and 2.39 <= hi <= 2.45
        got, _ = kept(os.path.join(tools, "mycl-hot"), path, f"{m.group(1)},{m.group(2)}")
        ok = ok and got is not None and got >= 95
    check(ok, f"the busiest stretch is the spike (2.2 to 2.4 s) and its --time selects it "
          f"({m.group(0) if m else text[-300:]})")
    g = re.search(r"Idle \(no samples\): \+([\d.]+) to \+([\d.]+) s", text)
    check(g and 0.95 <= float(g.group(1)) <= 1.05 and 1.15 <= float(g.group(2)) <= 1.25,
          f"the idle gap (+1.0 to +1.2 s) is said ({g.group(0) if g else ''})")
    out = run([os.path.join(tools, "mycl-report"), "--no-share", "--format", "json", path])
    ot = json.loads(out.stdout).get("over_time") or {}
    check(sum(ot.get("samples", [])) == len(times), "JSON over_time: every sample in a column")


def messages(hot, path, pipe):
    bad = {"10%/0": "no such slice", "10%/11": "numbered 1 to 10", "0%-110%": "0% to 100%",
           "20%-10%": "ends before", "abc": "START,STOP", "1,2,3": "START,STOP",
           "2,1": "ends before", "1,2 1.5,3": "does not start after", ",": None,
           "1.0000000001,2": "9 decimals", "-1,2": "seconds", "0%": "above 0%",
           "10%/2x": "slice number", "nan%": None, "1e3,": None}
    for s, want in bad.items():
        out = run([hot, "--time", s, path])
        ok = out.returncode == 1 and "time slice" in out.stderr and (not want or want in out.stderr)
        if s == ",":	# both sides open: every sample, as perf
            ok = out.returncode == 0
        check(ok, f"--time '{s}': {out.returncode}: {out.stderr.strip()[:110]}")
    out = run([hot, "--time", "10%/2", "--time", "10%/3", path])
    check(out.returncode == 1 and "given twice" in out.stderr, "--time given twice is refused")
    out = run([hot, "--time", "1,2", path])
    check(out.returncode == 4 and "none of its" in out.stderr and "1.000000" not in out.stderr,
          f"an empty slice: exit 4, said with the samples' span ({out.stderr.strip()[:100]})")
    if pipe:
        out = run([hot, "--time", "10%/2", pipe])
        check(out.returncode == 1 and "pipe" in out.stderr,
              f"percentages of a pipe: refused ({out.stderr.strip()[:90]})")
        out = subprocess.run(f"cat '{pipe}' | '{hot}' -q --format json --time 10%/2 -",
                             shell=True, capture_output=True, text=True)
        check(out.returncode == 1 and "pipe" in out.stderr, "percentages from stdin: refused")


def other_tools(tools, data, work):
    hot = os.path.join(tools, "mycl-hot")
    g = os.path.join(data, "hotloop.g.data")
    n10 = total_samples(json.loads(run([hot, "-q", "--format", "json", "--time", "10%/2",
                                        g]).stdout))
    n90 = total_samples(json.loads(run([hot, "-q", "--format", "json", "--time", "10%-100%",
                                        g]).stdout))
    out = run([os.path.join(tools, "mycl-report"), "--format", "json", "--no-share",
               "--time", "10%/2", g])
    doc = json.loads(out.stdout) if out.returncode == 0 else {}
    prof = doc.get("profile", {})
    check(prof and total_samples(prof) == n10 and prof["header"].get("time_slice"),
          f"mycl-report --time: the slice's {n10} samples, header.time_slice")
    out = run([os.path.join(tools, "mycl-report"), "--no-share", "--time", "10%/2", g])
    check(re.search(r"^time slice: .* \(%d of \d+ samples\)$" % n10, out.stdout, re.M),
          "mycl-report's Recording section says the slice")
    out = run([os.path.join(tools, "mycl-diff"), "--format", "json", "--time", "10%/2:10%-100%",
               g, g])
    doc = json.loads(out.stdout) if out.returncode == 0 else {}
    txt = json.dumps(doc)
    sides = re.findall(r'"samples": (\d+)', txt)
    check(out.returncode == 0 and "--time 10%/2" in txt and "--time 10%-100%" in txt,
          f"mycl-diff --time BASE:NEW names each side's slice ({out.returncode})")
    out = run([os.path.join(tools, "mycl-diff"), "--time", "10%/2:10%-100%", g, g])
    check(f"{n10} samples" in out.stdout and f"{n90} samples" in out.stdout,
          f"mycl-diff --time BASE:NEW: {n10} and {n90} samples, as mycl-hot's slices")
    out = run([os.path.join(tools, "mycl-diff"), "--time", "10%/12", g, g])
    check(out.returncode == 1 and "no such slice" in out.stderr, "mycl-diff: a bad slice, exit 1")
    share = os.path.join(tools, "mycl-share")
    out = run([share, "--time", "10%/2", os.path.join(data, "symfs", "mycl-fixtures", "hotloop")])
    check(out.returncode == 1 and "--perf" in out.stderr, "mycl-share --time without --perf: exit 1")
    out = run([share, "--perf", g, "--time", "10%/11",
               os.path.join(data, "symfs", "mycl-fixtures", "hotloop")])
    check(out.returncode == 1 and "no such slice" in out.stderr,
          f"mycl-share --perf --time: a bad slice, exit 1 ({out.returncode})")


def main():
    hot, data, work = sys.argv[1:4]
    tools = os.path.dirname(os.path.abspath(hot))
    os.makedirs(work, exist_ok=True)
    synthetic(hot, work)
    strip(tools, work)
    messages(hot, os.path.join(data, "hotloop.g.data"), os.path.join(data, "hotloop.pipe.data"))
    other_tools(tools, data, work)
    if subprocess.run(["perf", "version"], capture_output=True).returncode != 0:
        print("perf is not installed: the comparison with perf report is skipped")
    else:
        for name in ("hotloop.g.data", "hotloop.data", "hotloop.z.data", "idle.g.data",
                     "two-events.data", "group.data", "waits.data", "ttas.g.data",
                     "lost.g.data", "artefact.data", "hotloop.threads"):
            # (read-inherit.data is left out: perf 6.1 reports wrapped-around periods for
            # counts read per thread; see perf_deliver.c)
            path = os.path.join(data, name)
            if not os.path.exists(path):
                continue
            for s in slices_of(path):
                # waits.data's kernel is not this machine's: perf names its addresses from
                # this machine's kallsyms, mycl leaves them unnamed; the counts compare
                mine = compare_flat(hot, path, s, name,
                                    ["--no-group"] if name == "group.data" else [],
                                    rows=name != "waits.data")
                n = sum(m["samples"] for m in mine.values())
                if name.endswith(".g.data"):
                    compare_children(hot, path, s, name)
                    same_in_views(hot, path, s, name, n)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
