#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
samples/ttas_mutex (InnoDB 5.7's TTAS mutex with a shared spin-delay seed)
recorded with perf record -g:
  - the lock report ranks the spin as the top hot spot, credits it to the
    functions that take the lock (trx_assign_read_view, lock_rec_lock) and
    names the lock words and the seed;
  - the annotation of the hottest lock site names the seed among its hottest
    instructions (directly, skid-aware, or as the written neighbour on the line).
Exits 77 where perf cannot record.

  - samples/mutex_wait recorded with sched_switch and futex tracepoints: the
    off-CPU waits per lock site and the futex waits on its mutex account for
    the waits the program measured itself.

usage: locks_checks.py MYCL_HOT TTAS_MUTEX WORKDIR   (mutex_wait beside TTAS_MUTEX)
"""
import json
import os
import subprocess
import sys

from checks import check, summary


def run_json(*args):
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit(f"{args}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def main():
    hot, ttas, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, "ttas.data")
    r = subprocess.run(["perf", "record", "-q", "-g", "-e", "cpu-clock", "-F", "2000", "-o", data,
                        ttas, "2", "4"], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        print(f"SKIP: perf record failed: {r.stderr[-200:]}")
        return 77
    rep = run_json(hot, "-q", "--locks", "--format", "json", data)[0]
    sites = rep["sites"]
    check("lock and spin time is the largest share of the profile (> 25%)", rep["overhead"] > 25,
          rep["overhead"])
    check("the top lock site takes the lock in its own code",
          sites and sites[0]["site"] in ("trx_assign_read_view", "lock_rec_lock"),
          [s["site"] for s in sites[:3]])
    names = {s["site"] for s in sites if s["overhead"] >= 1}
    check("both lock sites named", {"trx_assign_read_view", "lock_rec_lock"} <= names, names)
    top = sites[0] if sites else {}
    check("the spin seed is named", top.get("seed") == "ut_rnd_ulint_counter", top.get("seed"))
    check("the lock word is named", top.get("lock_word") in ("trx_sys_mutex", "lock_sys_mutex"),
          top.get("lock_word"))
    via = top.get("via", [])
    shares = [v["share"] for v in via]
    check("the top site's primitives are listed largest first and account for its samples",
          via and via[0]["primitive"] in ("(inlined spin loop)", "ut_delay")
          and shares == sorted(shares, reverse=True)
          and 0.95 <= sum(shares) <= 1.0001, via)
    prims = rep["primitives"]
    check("the spin ranks first among the primitives",
          prims and prims[0]["kind"] == "spin", [p["name"] for p in prims[:3]])
    ann = run_json(hot, "-q", "--format", "json", f"--annotate={top.get('site')}", data)
    insns = sorted(ann[0]["instructions"], key=lambda i: -i["percent"])[:6] if ann else []
    named = [i for i in insns if "ut_rnd_ulint_counter" in
             (i.get("global", ""), i.get("after", ""), i.get("line_shared_with", ""))]
    check("the hottest annotated instructions name the seed", bool(named),
          [(i["insn"], i.get("global"), i.get("after")) for i in insns])
    waits(hot, os.path.join(os.path.dirname(ttas), "mutex_wait"), work)
    return summary()


def waits(hot, prog, work):
    """Off-CPU waits per lock site and futex waits per word, against the program's own count."""
    data = os.path.join(work, "waits.data")
    r = subprocess.run(["perf", "record", "-q", "--call-graph", "dwarf,8192",
                        "-e", "sched:sched_switch", "-e", "syscalls:sys_enter_futex",
                        "-e", "syscalls:sys_exit_futex", "-o", data, prog, "2", "4"],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        print(f"skip waits: tracepoints cannot be recorded here: {r.stderr[-200:]}")
        return
    known = {line.split()[0]: float(line.split()[1]) for line in r.stdout.splitlines()}
    rep = [x for x in run_json(hot, "-q", "--locks", "--format", "json", data)
           if x.get("schema") == "mycl-waits/1"]
    check("waits: a report from the tracepoints", bool(rep))
    if not rep:
        return
    sites = {s["site"]: s["wait_ns"] / 1e9 for s in rep[0]["sites"]}
    for site, secs in known.items():
        got = sites.get(site, 0.0)
        check(f"waits: {site} off-CPU {got:.2f} s against {secs:.2f} s measured by the program",
              secs > 0.2 and abs(got - secs) <= 0.25 * secs, sites)
    fut = rep[0]["futexes"][0] if rep[0]["futexes"] else {}
    total = sum(known.values())
    check("waits: the futex word is table_lock, with the program's waits",
          (fut.get("symbol") or "").startswith("table_lock") and
          abs(fut.get("wait_ns", 0) / 1e9 - total) <= 0.25 * total, fut)


if __name__ == "__main__":
    sys.exit(main())
