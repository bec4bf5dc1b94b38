#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Records real workloads with perf and checks that mycl-hot's flat profile
agrees with perf report's on the same file: every row at 0.5% or more in
either report is in both, within 0.05 percentage points, and the sample
counts per event are equal.  Exits 77 (skip) where perf cannot record.

usage: compare_perf.py MYCL_HOT HOTLOOP WORKDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "scripts"))
import perfreport  # noqa: E402
from perfreport import (perf_rows, mycl_rows, perf_sample_counts,  # noqa: E402
                        perf_children_rows, mycl_children_rows, perf_group_rows, children_match,
                        mycl_group_rows)

MIN_PCT = 0.5
TOL = 0.05


def record(args, out, workload, pipe=False):
    cmd = ["perf", "record", "-q", *args]
    if pipe:
        with open(out, "wb") as f:
            r = subprocess.run(cmd + ["-o", "-", "--"] + workload, stdout=f,
                               stderr=subprocess.PIPE, timeout=300)
    else:
        r = subprocess.run(cmd + ["-o", out, "--"] + workload, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=300)
    return r.returncode == 0


def compare(name, path, mycl_hot, extra_mycl=(), extra_perf=()):
    perf, _ = perf_rows(path, extra_perf)
    mine, _ = mycl_rows(mycl_hot, path, extra_mycl)
    counts = perf_sample_counts(path)
    failures = []
    if set(perf) != set(mine):
        failures.append(f"events differ: perf {sorted(perf)} mycl {sorted(mine)}")
    checked = 0
    for ev in sorted(set(perf) & set(mine)):
        p, m = perf[ev], mine[ev]
        if p.get("event_count") != m["event_count"]:
            failures.append(f"{ev}: perf event count {p.get('event_count')}, "
                            f"mycl {m['event_count']}")
        if ev in counts and counts[ev] != m["samples"]:
            failures.append(f"{ev}: perf {counts[ev]} samples, mycl {m['samples']}")
        # A sample the kernel wrote with tid -1 (a task as it exits) is perf's thread ":-1";
        # mycl names it by its process (pid): such shares may go to any row of the same
        # binary and symbol in mycl, on top of the tolerance
        untold = {}
        for key, v in p["rows"].items():
            if key[0].startswith(":-"):
                untold[key[1:]] = untold.get(key[1:], 0.0) + v
        for key in sorted(set(p["rows"]) | set(m["rows"])):
            pv, mv = p["rows"].get(key), m["rows"].get(key)
            slack = untold.get(key[1:], 0.0)
            if key[0].startswith(":-") and mv is None:
                continue
            if max(pv or 0, mv or 0) < MIN_PCT:
                continue
            checked += 1
            if mv is not None and (pv or 0) <= mv <= (pv or 0) + slack + TOL:
                continue
            if pv is None or mv is None:
                failures.append(f"{ev}: row {key} only in {'perf' if mv is None else 'mycl'} "
                                f"({pv if mv is None else mv:.2f}%)")
            elif abs(pv - mv) > TOL:
                failures.append(f"{ev}: row {key}: perf {pv:.2f}% mycl {mv:.2f}%")
    status = "ok" if not failures else "FAIL"
    print(f"{status}: {name}: {checked} rows >= {MIN_PCT}% compared over {len(perf)} event(s)")
    for f in failures:
        print("   ", f)
    return not failures


def empty_stack_copies(path):
    """Samples with user registers but an empty stack copy, and all samples.

    The kernel copies no stack when the copy itself faults (a new thread's
    first touch of its stack, in clone3).  perf then shows no user frame;
    mycl shows the one the registers name.  How often that happens, and the
    share one such sample has, depends on the run: the comparison allows
    each row these samples' share on top of its tolerance."""
    out = subprocess.run(["perf", "report", "-D", "-i", path], capture_output=True, text=True,
                         timeout=600).stdout
    empty = total = 0
    regs = False
    for line in out.splitlines():
        if "PERF_RECORD_SAMPLE" in line:
            total += 1
            regs = False
        elif line.startswith("... user regs: mask ") and line.split()[4] != "0x0":
            regs = True
        elif line.startswith("... ustack: size 0,") and regs:
            empty += 1
    return empty, total


def threadless_samples(path):
    """Samples perf names no thread for (its comm ':-1' or ':TID'), and all samples.

    A thread exiting during a system-wide recording is sampled in do_exit
    after perf has let its thread go: perf shows the sample under ':-1', mycl
    under the command the thread had.  How many depends on what exited while
    recording; the children comparison allows each row their share on top of
    its tolerance, as for empty stack copies."""
    out = subprocess.run(["perf", "script", "-i", path, "-F", "comm"], capture_output=True,
                         text=True, timeout=600).stdout
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    return sum(1 for l in lines if l.startswith(":")), len(lines)


def compare_children(name, path, mycl_hot, top=30, tol=0.1, extra=()):
    """Children and self of perf's top entries, within TOL percentage points."""
    perf = perf_children_rows(path, extra)
    mine = mycl_children_rows(mycl_hot, path, extra)
    failures, checked = [], 0
    empty, total = empty_stack_copies(path)
    if empty and total:
        tol += 100.0 * empty / total
        print(f"note: {name}: {empty} of {total} samples have registers and no stack copy "
              f"(perf shows no user frame, mycl the registers' one): tolerance {tol:.2f}")
    gone, total = threadless_samples(path)
    if gone and total:
        tol += 100.0 * gone / total
        print(f"note: {name}: {gone} of {total} samples perf names no thread for (':-1', a "
              f"thread sampled while exiting; mycl: its command): tolerance {tol:.2f}")
    for ev, prow in perf.items():
        mrow = mine.get(ev, {})
        # Entries below the tolerance are noise; perf also shows some user
        # addresses of kernel samples' chains as unresolved kernel frames.
        # Frames with no symbol are left out: perf 6.1 keys the entries it
        # makes from call-chain nodes by the raw address and the sampled
        # entry by the address in the binary, so one unresolved spot is two
        # rows in perf and one in mycl.
        # Rows of 0.5% or more, as for the flat profile: every recording here
        # has enough samples that such a row is several samples, not one
        # taken while a process starts and the unwinders see different maps.
        ranked = [kv for kv in sorted(prow.items(), key=lambda kv: -kv[1][0])
                  if kv[1][0] >= MIN_PCT and not kv[0][2][4:].startswith("0x")][:top]
        for key, (pc, ps) in ranked:
            checked += 1
            if key not in mrow:
                failures.append(f"{ev}: {key} ({pc:.2f}% children) missing in mycl")
                continue
            mc, ms = mrow[key]
            if not children_match(pc, mc, tol) or abs(ps - ms) > tol:
                failures.append(f"{ev}: {key}: perf {pc:.2f}/{ps:.2f}, mycl {mc:.2f}/{ms:.2f}")
    if not checked:
        print(f"skip: {name} --children: perf report gave no children rows")
        return True
    status = "ok" if not failures else "FAIL"
    print(f"{status}: {name} --children: top {checked} entries compared")
    for f in failures:
        print("   ", f)
    return not failures


def compare_group(name, path, mycl_hot, tol=0.05):
    """The group view of leader sampling: every member's share of each row."""
    perf = perf_group_rows(path)
    mine = mycl_group_rows(mycl_hot, path)
    failures, checked = [], 0
    for key in sorted(set(perf) | set(mine)):
        pv, mv = perf.get(key), mine.get(key)
        if max(max(pv or [0]), max(mv or [0])) < MIN_PCT:
            continue
        checked += 1
        if pv is None or mv is None:
            failures.append(f"group row {key} only in {'perf' if mv is None else 'mycl'}")
        elif len(pv) != len(mv) or any(abs(a - b) > tol for a, b in zip(pv, mv)):
            failures.append(f"group row {key}: perf {pv} mycl {mv}")
    if not checked:
        failures.append("no group rows (perf and mycl)")
    print(f"{'ok' if not failures else 'FAIL'}: {name} --group: {checked} rows compared")
    for f in failures:
        print("   ", f)
    return not failures


def compare_annotate(name, path, mycl_hot, top=3, tol=0.1):
    """Per-instruction shares of the hottest functions against perf annotate."""
    out = subprocess.run([mycl_hot, "-q", "--format", "json", f"--annotate={top}", path],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        print(f"FAIL: {name} --annotate: exit {out.returncode}: {out.stderr[:300]}")
        return False
    failures, checked = [], 0
    for ann in json.loads(out.stdout):
        if ann.get("not_shown") or not ann["samples"]:
            continue
        perf = subprocess.run(["perf", "annotate", "-i", path, "--stdio", "-s", ann["symbol"],
                               "--percent-type", "local-period"],
                              capture_output=True, text=True, timeout=600).stdout
        pct = {}
        for line in perf.splitlines():
            parts = line.split(":")
            if len(parts) >= 3:
                try:
                    pct[int(parts[1].strip(), 16)] = float(parts[0].strip())
                except ValueError:
                    pass
        if not pct:
            continue
        for ins in ann["instructions"]:
            addr = int(ins["address"], 16)
            mine, theirs = ins["percent"], pct.get(addr, 0.0)
            if max(mine, theirs) < 1.0:
                continue
            checked += 1
            if abs(mine - theirs) > tol:
                failures.append(f"{ann['symbol']}+0x{addr:x}: perf {theirs:.2f}% mycl {mine:.2f}%")
    if not checked:
        print(f"skip: {name} --annotate: nothing perf annotate could show")
        return True
    print(f"{'ok' if not failures else 'FAIL'}: {name} --annotate: {checked} instructions compared")
    for f in failures:
        print("   ", f)
    return not failures


def main():
    mycl_hot, hotloop, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    probe = os.path.join(work, "probe.data")
    if not record(["-e", "cpu-clock"], probe, ["true"]):
        print("SKIP: perf record -e cpu-clock does not work here")
        return 77
    load = [hotloop, "0.6"]
    cases = [
        ("plain -F", ["-e", "cpu-clock", "-F", "3000"], False, load),
        ("period -c", ["-e", "cpu-clock", "-c", "250000"], False, load),
        ("call graph -g", ["-e", "cpu-clock", "-F", "2000", "-g"], False, load),
        ("system-wide -a", ["-e", "cpu-clock", "-F", "1000", "-a"], False, load),
        ("compressed -z", ["-e", "cpu-clock", "-F", "2000", "-z"], False, load),
        # A directory: one file of records per writer thread, merged by time.
        ("threads directory -a -g", ["-e", "cpu-clock", "-F", "2000", "-a", "-g", "--threads"],
         False, load),
        ("threads directory -z", ["-e", "cpu-clock", "-F", "2000", "-g", "-z", "--threads"],
         False, load),
        ("pipe mode", ["-e", "cpu-clock", "-F", "2000", "-g"], True, load),
        ("two events", ["-e", "cpu-clock", "-e", "page-faults", "-F", "2000"], False, load),
        ("dwarf stacks", ["-e", "cpu-clock", "-F", "1000", "--call-graph", "dwarf,4096"], False,
         [hotloop, "0.8"]),
        ("shell and libc", ["-e", "cpu-clock", "-F", "4000"], False,
         ["sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"]),
        # Each sample reads the group: every member gets rows of its own.
        ("leader sampling", ["-e", "{cpu-clock,page-faults,context-switches}:S", "-F", "2000"],
         False, load),
        # glibc's aliases (__libc_recv, __GI___recv, recv; two versions of
        # pthread_create), with libc6-dbg and, in a namespace, without it.
        ("libc aliases -g", ["-e", "cpu-clock", "-F", "4000", "-g"], False,
         ["sh", "-c", "i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; " + hotloop + " 0.3"]),
    ]
    ok = True
    passed = failed = 0
    for i, (name, args, pipe, workload) in enumerate(cases):
        path = os.path.join(work, f"case{i}.data")
        if not record(args, path, workload, pipe):
            print(f"skip: {name}: perf record failed")
            continue
        if name == "leader sampling":
            good = compare(name + " --no-group", path, mycl_hot, ["--no-group"], ["--no-group"])
            good = compare_group(name, path, mycl_hot) and good
        else:
            good = compare(name, path, mycl_hot)
        if name == "libc aliases -g":
            wrap = perfreport.no_debug_info()
            if wrap is None:
                print("skip: libc without debug info: no private mount namespace here")
            else:
                perfreport.WRAP = wrap
                try:
                    good = compare(name + " (no debug info)", path, mycl_hot) and good
                    good = compare_children(name + " (no debug info)", path, mycl_hot) and good
                finally:
                    perfreport.WRAP = []
        if "-g" in args:
            good = compare_children(name, path, mycl_hot) and good
        if name in ("plain -F", "call graph -g"):
            good = compare_annotate(name, path, mycl_hot) and good
        if "--call-graph" in args:
            # DWARF unwinding: the same frames as perf's libdw unwinder.  Inline
            # frames are compared apart: perf names them from addr2line's view.
            good = compare_children(name + " (no inline)", path, mycl_hot,
                                    extra=["--no-inline"]) and good
        if pipe:
            # The same recording read from standard input.
            with open(path, "rb") as stdin:
                r = subprocess.run([mycl_hot, "--format", "json", "-q", "-"], stdin=stdin,
                                   stdout=subprocess.DEVNULL)
            good = good and r.returncode == 0
        passed += good
        failed += not good
        ok = ok and good
    print(f"{passed} passed, {failed} failed")
    return 0 if ok and passed else 1


if __name__ == "__main__":
    sys.exit(main())
