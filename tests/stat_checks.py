#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
perf stat record files: mycl-hot's counts and derived figures against
perf stat report's on the same file.

1. Live recordings (skipped where perf stat record cannot run): the default
   events, -I 100 (each interval), -a -A (per CPU), -a --per-thread, cpu-clock.
2. Synthetic files with hardware counters this machine has none of: cycles,
   instructions, branches, branch and cache misses, multiplexed counters
   (run < enabled), a counter that never ran, per CPU with two CPUs, and a
   thread map; perf stat report reads the same bytes.
3. Bad input: no counter values, no STAT_ROUND, a file cut short, options of
   sample views refused.

usage: stat_checks.py MYCL_HOT WORKDIR DATA_DIR
"""
import json
import os
import re
import struct
import subprocess
import sys

import checks



def check(ok, what):
    checks.check(what, ok)
    return ok


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def perf_stat_rows(path):
    """perf stat report's lines: {(time, who, event): (count or None, metric or None, running)}."""
    out = run(["perf", "stat", "report", "-i", path])
    rows = {}
    for line in (out.stdout + out.stderr).splitlines():
        if not line.strip() or "Performance counter stats" in line or "time elapsed" in line \
                or line.startswith("#") or "seconds " in line:
            continue
        running = None
        m = re.search(r"\(\s*([\d.]+)%\)\s*$", line)
        if m:
            running = float(m.group(1))
            line = line[:m.start()]
        metric = None
        if "#" in line:
            line, rest = line.split("#", 1)
            mm = re.match(r"\s*(-?[\d.]+)", rest)
            metric = float(mm.group(1)) if mm else None
        toks = line.split()
        if len(toks) < 2:
            continue
        event = toks.pop()
        if toks and toks[-1] == "msec":
            toks.pop()
        if len(toks) >= 2 and toks[-2] in ("<not", "<not") and toks[-1] in ("counted>", "supported>"):
            count = None
            toks = toks[:-2]
        elif toks and re.fullmatch(r"[\d,.]+", toks[-1]):
            count = float(toks.pop().replace(",", ""))
        else:
            continue
        time = None
        if toks and re.fullmatch(r"\d+\.\d{9}", toks[0]):
            time = toks.pop(0)
        who = " ".join(toks)
        rows[(time, who, event)] = (count, metric, running)
    return rows, out


def mycl_stat_rows(hot, path):
    out = run([hot, "--format", "json", "-q", path])
    if out.returncode != 0:
        return None, out
    doc = json.loads(out.stdout)
    rows = {}

    def add(time, iv):
        for r in iv["rows"]:
            who = f"CPU{r['cpu']}" if "cpu" in r else f"{r['comm']}-{r['pid']}" if "pid" in r else ""
            count = r["count"] if r["counted"] and r["supported"] else None
            rows[(time, who, r["event"])] = (count, r.get("metric"), r["running_percent"],
                                             r["unit"])
    if doc["intervals"]:
        for iv in doc["intervals"]:
            add(f"{iv['time_ns'] // 10**9}.{iv['time_ns'] % 10**9:09d}", iv)
    else:
        add(None, doc["total"])
    return rows, out


def compare(hot, path, name):
    perf, pout = perf_stat_rows(path)
    mine, mout = mycl_stat_rows(hot, path)
    if "failed to process" in pout.stderr + pout.stdout:
        # perf 6.1's stat record -a --per-thread now and then writes a record of size 0
        return check(mine is None and mout.returncode == 3 and "size 0" in mout.stderr,
                     f"{name}: perf wrote a broken file (perf stat report: "
                     f"{(pout.stderr + pout.stdout).strip()[:60]}); mycl-hot says where")
    first = min((k[0] for k in perf if k[0]), default=None)
    if mine is None:
        return check(False, f"{name}: mycl-hot failed: {mout.stderr.strip()[:200]}")
    bad = []
    for key, (pc, pm, pr) in perf.items():
        if key not in mine:
            bad.append(f"{key}: only in perf")
            continue
        mc, mm, mr, unit = mine[key]
        if (pc is None) != (mc is None):
            bad.append(f"{key}: perf {pc} mycl {mc}")
        elif pc is not None and abs(round(mc, 2 if unit else 0) - pc) > 0.0051:
            bad.append(f"{key}: count perf {pc} mycl {mc}")
        # perf prints 3 decimals (2 for insn per cycle and percentages).  With -I, perf 6.1's
        # stat report derives an interval's rates from the mean of the clock over the
        # intervals so far (1 switch in an interval of 101.48 ms shown as 9.980 /sec: the
        # mean of 98.92 and 101.48 ms), and the last one's from the whole run's counts read
        # after it; mycl from the interval's own clock, as perf stat prints them live: the
        # figures are compared in the first interval, where the two agree
        if pm is not None and key[0] in (None, first) and (mm is None or abs(mm - pm) > 0.0051 * max(1.0, abs(pm) / 1000)):
            bad.append(f"{key}: metric perf {pm} mycl {mm}")
        if pr is not None and pc is not None and abs(mr - pr) > 0.0051:
            bad.append(f"{key}: running perf {pr}% mycl {mr}%")
    extra = [k for k in mine if k not in perf]
    if extra:
        bad.append(f"only in mycl: {extra[:3]}")
    check(perf and not bad, f"{name}: {len(perf)} counts as perf stat report's")
    for b in bad[:6]:
        print("    ", b)
    if not perf:
        print("    perf stat report:", pout.stdout[:300], pout.stderr[:300])


# --- synthetic files -----------------------------------------------------------

def rec(t, body):
    return struct.pack("<IHH", t, 0, 8 + len(body)) + body


def write_stat(path, events, values, elapsed, aggr=1, cpus=(-1,), threads=((-1, b""),),
               rounds=True, stat_config=True):
    """A perf stat record file: EVENTS (type, config), VALUES (event, cpu, thread, val,
    ena, run), one final round at ELAPSED ns."""
    n = len(events)
    attrs_off = 104
    ids_off = attrs_off + n * 144
    data_off = ids_off + 8 * n
    attrs = ids = b""
    for i, (t, c) in enumerate(events):
        a = struct.pack("<IIQQQQQ", t, 128, c, 0, 1 << 16, 3, (1 << 0) | (1 << 1) | (1 << 12))
        attrs += a + b"\0" * (128 - len(a)) + struct.pack("<QQ", ids_off + 8 * i, 8)
        ids += struct.pack("<Q", 1000 + i)
    data = b""
    if stat_config:
        data += rec(75, struct.pack("<Q", 3) + struct.pack("<QQQQQQ", 0, aggr, 1, 0, 2, 1))
    data += rec(73, struct.pack("<Q", len(threads)) +
                b"".join(struct.pack("<q", p) + c.ljust(16, b"\0") for p, c in threads))
    cm = struct.pack("<HH", 0, len(cpus)) + b"".join(struct.pack("<H", c & 0xffff) for c in cpus)
    data += rec(74, cm + b"\0" * (-len(cm) % 8))
    for e, cpu, th, val, ena, run_ in values:
        data += rec(76, struct.pack("<QIIQQQ", 1000 + e, cpu & 0xffffffff, th, val, ena, run_))
    if rounds:
        data += rec(77, struct.pack("<QQ", 1, elapsed))
    feat_off = data_off + len(data)
    hdr = struct.pack("<8sQQQQQQQQ", b"PERFILE2", 104, 144, attrs_off, n * 144, data_off,
                      len(data), 0, 0) + struct.pack("<QQQQ", 1 << 19, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(hdr + attrs + ids + data + struct.pack("<QQ", feat_off + 16, 0))


HW = [(1, 1), (0, 0), (0, 1), (0, 4), (0, 5), (0, 2), (0, 3), (1, 3), (0, 7)]


def synthetic(hot, work):
    g = os.path.join(work, "hw.data")
    ms = 500_000_000
    write_stat(g, HW, [(0, -1, 0, ms, ms, ms), (1, -1, 0, 1_200_000_000, ms, ms // 2),
                       (2, -1, 0, 2_000_000_000, ms, ms // 2), (3, -1, 0, 300_000_000, ms, ms // 3),
                       (4, -1, 0, 3_000_000, ms, ms // 3), (5, -1, 0, 70_000_000, ms, ms // 4),
                       (6, -1, 0, 1_234_567, ms, ms // 4), (7, -1, 0, 12, ms, 0),
                       (8, -1, 0, 400_000_000, ms, ms // 2)], 600_000_000)
    compare(hot, g, "synthetic hardware counters, multiplexed, one never ran")
    out = run([hot, g])
    check("4.800 GHz" in out.stdout and "1.667 insn per cycle" in out.stdout and
          "1.00% of all branches" in out.stdout and "<not counted>" in out.stdout and
          "(50.00%)" in out.stdout, "text: GHz, insn per cycle, miss ratio, <not counted>, (50.00%)")
    c = os.path.join(work, "percpu.data")
    vals = []
    for cpu in (0, 1):
        k = cpu + 1
        vals += [(0, cpu, 0, ms, ms, ms), (1, cpu, 0, k * 1_000_000_000, ms, ms),
                 (2, cpu, 0, k * 700_000_000, ms, ms), (3, cpu, 0, k * 100_000_000, ms, ms),
                 (4, cpu, 0, k * 1_000_000, ms, ms)]
    write_stat(c, HW[:5], vals, 510_000_000, aggr=0, cpus=(0, 1))
    compare(hot, c, "synthetic per-CPU (-A) hardware counters")
    t = os.path.join(work, "threads.data")
    vals = [(0, -1, i, v, v, v) for i, v in enumerate((3_000_000, 90_000_000, 0, 45_000_000))]
    vals += [(1, -1, i, v, v, v) for i, v in enumerate((30, 9, 0, 400))]
    write_stat(t, [(1, 1), (1, 3)], vals, 100_000_000, aggr=5,
               threads=((11, b"db-writer"), (12, b"db-reader"), (13, b"idle one"), (14, b"x")))
    compare(hot, t, "synthetic per-thread counts (a thread with a space in its name)")
    # bad input
    e = os.path.join(work, "empty.data")
    write_stat(e, [(1, 1)], [], 1000)
    out = run([hot, e])
    check(out.returncode == 4 and "without counter values" in out.stderr,
          f"no counter values: exit 4, said ({out.stderr.strip()[:100]})")
    nr = os.path.join(work, "noround.data")
    write_stat(nr, [(1, 1), (1, 3)], [(0, -1, 0, ms, ms, ms), (1, -1, 0, 5, ms, ms)], 0,
               rounds=False)
    out = run([hot, nr])
    check(out.returncode == 0 and "no STAT_ROUND" in out.stderr and "500.00 msec" in out.stdout,
          "no STAT_ROUND: the counts, with a warning that the elapsed time is missing")
    raw = open(g, "rb").read()
    cut = os.path.join(work, "cut.data")
    with open(cut, "wb") as f:
        f.write(raw[:len(raw) - 60])
    out = run([hot, cut])
    check(out.returncode in (0, 3, 4) and "Traceback" not in out.stderr and out.stderr.strip(),
          f"a file cut short: said ({out.returncode}: {out.stderr.strip()[:120]})")
    for opt in (["-g"], ["--sort", "dso"], ["--time", "10%/2"], ["--format", "pprof"],
                ["--annotate"], ["--locks"]):
        out = run([hot, *opt, g])
        check(out.returncode == 1 and ("counts, not samples" in out.stderr or
                                       "holds no samples" in out.stderr),
              f"{' '.join(opt)} on a perf stat recording: refused ({out.returncode})")


def other_tools(hot, work, data):
    tools = os.path.dirname(os.path.abspath(hot))
    hw = os.path.join(work, "hw.data")
    hw2 = os.path.join(work, "hw2.data")
    ms = 500_000_000
    write_stat(hw2, HW, [(0, -1, 0, ms, ms, ms), (1, -1, 0, 1_800_000_000, ms, ms // 2),
                         (2, -1, 0, 2_000_000_000, ms, ms // 2), (3, -1, 0, 300_000_000, ms, ms // 3),
                         (4, -1, 0, 3_000_000, ms, ms // 3), (5, -1, 0, 70_000_000, ms, ms // 4),
                         (6, -1, 0, 1_234_567, ms, ms // 4), (7, -1, 0, 12, ms, 0),
                         (8, -1, 0, 400_000_000, ms, ms // 2)], 600_000_000)
    out = run([os.path.join(tools, "mycl-diff"), "--format", "json", hw, hw2])
    doc = json.loads(out.stdout) if out.returncode == 0 else {"rows": []}
    rows = {r["event"]: r for r in doc["rows"]}
    cyc = rows.get("cycles:HG", {})
    check(doc.get("schema") == "mycl-stat-diff/1" and abs(cyc.get("change_percent", 0) - 50) < 1e-6
          and abs(cyc.get("new_metric", 0) - 7.2) < 1e-6 and not cyc.get("noise_known"),
          f"mycl-diff of two stat recordings: cycles +50%, GHz 4.8 -> 7.2, noise unknown ({out.stderr.strip()[:80]})")
    out = run([os.path.join(tools, "mycl-diff"), hw, os.path.join(data, "hotloop.data")])
    check(out.returncode == 1 and "do not compare" in out.stderr,
          "mycl-diff of a stat and a sample recording: refused")
    out = run([os.path.join(tools, "mycl-report"), "--no-share", "--stat", hw,
               os.path.join(data, "hotloop.g.data")])
    check(out.returncode == 0 and "== Counters ==" in out.stdout and "4.800 GHz" in out.stdout,
          "mycl-report --stat: a Counters section with the derived figures")
    out = run([os.path.join(tools, "mycl-report"), "--no-share", "--format", "json", "--stat", hw,
               os.path.join(data, "hotloop.g.data")])
    check(out.returncode == 0 and json.loads(out.stdout)["stat"]["schema"] == "mycl-stat/1",
          "mycl-report --stat as JSON: stat is mycl-stat/1")
    page = os.path.join(work, "stat.html")
    out = run([hot, "--html", page, hw])
    text = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
    check(out.returncode == 0 and "4.800 GHz" in text and "<script" not in text,
          "mycl-hot --html of a stat recording: a page of its counts (no script)")
    out = run([os.path.join(tools, "mycl-report"), "--stat", os.path.join(data, "hotloop.data"),
               os.path.join(data, "hotloop.g.data")])
    check(out.returncode == 1 and "not a perf stat record file" in out.stderr,
          "mycl-report --stat of a sample recording: refused")


def live(hot, work):
    if run(["perf", "stat", "record", "-o", os.path.join(work, "probe.data"), "-e",
            "task-clock", "--", "true"]).returncode != 0:
        print("perf stat record does not work here: live recordings skipped")
        return
    loop = ["sh", "-c", "i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done"]
    cases = [("default events", [], loop),
             ("-I 100", ["-I", "100", "-e", "task-clock,page-faults,context-switches"],
              ["sh", "-c", "i=0; while [ $i -lt 500000 ]; do i=$((i+1)); done"]),
             ("-a -A", ["-a", "-A", "-e", "task-clock,context-switches,cpu-migrations"],
              ["sleep", "0.2"]),
             # (one event: perf 6.1 writes a record of size 0 with two events per thread)
             ("-a --per-thread", ["-a", "--per-thread", "-e", "task-clock"], ["sleep", "0.1"]),
             ("cpu-clock", ["-e", "cpu-clock,page-faults,minor-faults"], loop)]
    for name, args, cmd in cases:
        path = os.path.join(work, re.sub(r"\W+", "_", name) + ".data")
        for attempt in range(3):
            r = run(["perf", "stat", "record", "-o", path, *args, "--", *cmd])
            if r.returncode == 0 or "per-thread" not in name:
                break
        if r.returncode != 0 and "per-thread" in name:
            print(f"skip perf stat record {name}: perf exited {r.returncode} without a "
                  f"message, as perf 6.1 does now and then with -a --per-thread (the "
                  f"per-thread view is checked on the synthetic file)")
            continue
        if r.returncode != 0:
            check(False, f"perf stat record {name}: {r.stderr.strip()[:200]}")
            continue
        compare(hot, path, f"perf stat record {name}")
        if name == "-I 100":
            out = run([os.path.join(os.path.dirname(os.path.abspath(hot)), "mycl-diff"),
                       "--format", "json", path, path])
            rows = json.loads(out.stdout)["rows"] if out.returncode == 0 else []
            # noise needs two whole intervals (a short last one is left out): a busy machine
            # may run the loop in fewer
            ivs = json.loads(run([hot, "--format", "json", path]).stdout)["intervals"]
            # (as mycl-diff: a last interval shorter than half the first is left out)
            usable = [iv for i, iv in enumerate(ivs)
                      if not (i and i == len(ivs) - 1 and iv["length_ns"] * 2 < ivs[0]["length_ns"])]
            known = len(usable) >= 2
            check(rows and all(not r["changed"] and r["noise_known"] == known
                               for r in rows if r["base_counted"]),
                  f"mycl-diff of an -I recording with itself: nothing changed, noise "
                  f"{'known' if known else 'unknown'} ({len(ivs)} intervals)")


def main():
    hot, work, data = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    if run(["perf", "version"]).returncode != 0:
        print("perf is not installed")
        return 77
    synthetic(hot, work)
    other_tools(hot, work, data)
    live(hot, work)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
