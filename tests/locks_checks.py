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

usage: locks_checks.py MYCL_HOT TTAS_MUTEX WORKDIR
"""
import json
import os
import subprocess
import sys

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + str(detail) if detail and not ok else ''}")
    passed += bool(ok)
    failed += not ok


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
    flat = run_json(hot, "-q", "--format", "json", data)["events"][0]["rows"]
    check("the lock site is the hottest function", flat[0]["symbol"] == top.get("site"),
          flat[0]["symbol"])
    ann = run_json(hot, "-q", "--format", "json", f"--annotate={top.get('site')}", data)
    insns = sorted(ann[0]["instructions"], key=lambda i: -i["percent"])[:6] if ann else []
    named = [i for i in insns if "ut_rnd_ulint_counter" in
             (i.get("global", ""), i.get("after", ""), i.get("line_shared_with", ""))]
    check("the hottest annotated instructions name the seed", bool(named),
          [(i["insn"], i.get("global"), i.get("after")) for i in insns])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
