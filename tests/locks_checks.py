#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
On committed recordings (tests/data/gen.sh), so the numbers are fixed:
  - samples/ttas_mutex (InnoDB 5.7's TTAS mutex with a shared spin-delay
    seed) recorded with perf record -g (ttas.g.data): the lock report ranks
    the spin as the top hot spot, credits it to the functions that take the
    lock (trx_assign_read_view, lock_rec_lock) and names the lock words and
    the seed; the annotation of the hottest lock site names the seed among its
    hottest instructions (directly, skid-aware, or as the written neighbour);
  - samples/mutex_wait recorded with sched_switch and futex tracepoints
    (waits.data): the off-CPU waits per lock site and the futex waits on its
    mutex account for the waits the program measured itself in that run
    (waits.expected).
  - tests/data/locks (gen.sh there): lock patterns none of the rules name,
    from C (gcc -O2, clang -O0) and C++ (std::mutex, std::shared_mutex in
    members), with frame pointers and with DWARF stacks: the lock site holds
    at least 80% of the lock time (or, where frame-pointer chains lost the
    caller, the rest is at sites that say so), the lock object is named where
    the code names it, lock-free code (a CAS counter, an atomic add) is no
    lock, and off-CPU waits split into lock waits (a mutex, the kernel's
    mmap_lock) and other waits (a condition-variable queue, sleeps).
On a live recording of samples/ttas_mutex, only what holds on any machine:
mycl reads it, its lock report is well formed, and its flat profile agrees
with perf report's on the same file.  The live part is skipped where perf
cannot record.

usage: locks_checks.py MYCL_HOT DATA_DIR TTAS_MUTEX WORKDIR
"""
import json
import os
import re
import subprocess
import sys

from checks import check, summary


def run_json(*args):
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit(f"{args}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def fixture_args(data_dir):
    """Binaries from the fixtures' symfs only: the same answer on every machine."""
    return ["--symfs", os.path.join(data_dir, "symfs"), "--buildid-dir", "", "--debug-dir", ""]


def main():
    hot, data_dir, ttas, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    fx = fixture_args(data_dir)
    spin(hot, fx, os.path.join(data_dir, "ttas.g.data"))
    waits(hot, fx, os.path.join(data_dir, "waits.data"), os.path.join(data_dir, "waits.expected"))
    patterns(hot, fx, os.path.join(data_dir, "locks"))
    by_object(hot, fx, os.path.join(data_dir, "locks"))
    live(hot, ttas, work)
    return summary()


def by_object(hot, fx, ldir):
    """pmutex.futex.data: the futex words beside the clock give the lock of stacks that lost
    their site (glibc without frame pointers); its time goes to the sites that take it (the
    site DWARF's chains show: pmutex.dwarf.data)."""
    rec = os.path.join(ldir, "pmutex.futex.data")
    fx = fx + ["--kallsyms", os.path.join(ldir, "kallsyms.futex")]
    for ev in ([], ["--event", "cpu-clock"]):
        doc = run_json(hot, *fx, "--locks", *ev, "--format", "json", rec)
        rep = [x for x in doc if x.get("event") == "cpu-clock"][0] if isinstance(doc, list) else doc
        sites = {x["site"]: x for x in rep["sites"]}
        post = sites.get("post_ledger_entry", {})
        how = " (--event cpu-clock: the futex events filtered out, their words still read)" if ev else ""
        check("by object: the ledger's site gets the time of stacks that lost it, through the "
              "futex word of its lock" + how,
              post.get("by_object", 0) > 0 and post.get("lock_word") == "ledger_mutex", post)
        check("by object: every lock sample counted once" + how,
              sum(x["samples"] for x in rep["sites"]) == rep["samples"],
              (sum(x["samples"] for x in rep["sites"]), rep["samples"]))
        lost = sites.get("start_thread", {})
        check("by object: what no futex word names keeps its site and its message" + how,
              not lost or (lost.get("lost_frames", 0) > 0 and not lost.get("by_object")), lost)
    dw = run_json(hot, *fixture_args(os.path.dirname(ldir)), "--kallsyms",
                  os.path.join(ldir, "kallsyms"), "--locks", "--format", "json",
                  os.path.join(ldir, "pmutex.dwarf.data"))
    dw = dw[0] if isinstance(dw, list) else dw
    check("by object: DWARF's chains put the futex wake at the same site",
          dw["sites"] and dw["sites"][0]["site"] == "post_ledger_entry" and
          any(v["primitive"] == "__lll_lock_wake" for v in dw["sites"][0]["via"]), dw["sites"][:1])


def live(hot, ttas, work):
    """A fresh recording: read, well formed, and the same flat profile as perf's."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts"))
    from perfreport import perf_rows, mycl_rows
    data = os.path.join(work, "ttas.data")
    r = subprocess.run(["perf", "record", "-q", "-g", "-e", "cpu-clock", "-F", "2000", "-o", data,
                        ttas, "1", "4"], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        print(f"skip live recording: perf record failed: {r.stderr[-200:]}")
        return
    rep = run_json(hot, "-q", "--locks", "--format", "json", data)
    check("live: the lock report reads the recording", bool(rep) and "sites" in rep[0], rep[:1])
    perf, _ = perf_rows(data)
    mine, _ = mycl_rows(hot, data)
    bad = []
    for ev in perf:
        for key in set(perf[ev]["rows"]) | set(mine.get(ev, {}).get("rows", {})):
            pv = perf[ev]["rows"].get(key, 0.0)
            mv = mine.get(ev, {}).get("rows", {}).get(key, 0.0)
            if max(pv, mv) >= 0.5 and abs(pv - mv) > 0.05:
                bad.append((key, pv, mv))
    check("live: every row of 0.5% or more as perf report has it", not bad and perf, bad[:5])


def spin(hot, fx, data):
    rep = run_json(hot, "-q", "--locks", "--format", "json", *fx, data)[0]
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
          prims and prims[0]["kind"] in ("spin", "spin acquire", "delay"), [p["name"] for p in prims[:3]])
    ann = run_json(hot, "-q", "--format", "json", *fx, f"--annotate={top.get('site')}", data)
    insns = sorted(ann[0]["instructions"], key=lambda i: -i["percent"])[:6] if ann else []
    named = [i for i in insns if "ut_rnd_ulint_counter" in
             (i.get("global", ""), i.get("after", ""), i.get("line_shared_with", ""))]
    check("the hottest annotated instructions name the seed", bool(named),
          [(i["insn"], i.get("global"), i.get("after")) for i in insns])


# Per recording: the lock sites (all sharing >= 80% of the lock time), the
# object per site, the seed; "fp_gaps": frame-pointer chains through glibc,
# where the rest must sit at sites that say they lost frames.
PATTERNS = [
    ("tas.fp", ["pin_buffer_slot"], {"pin_buffer_slot": "buffer_slots.latch"}, None, False),
    ("tas.dwarf", ["pin_buffer_slot"], {"pin_buffer_slot": "buffer_slots.latch"}, None, False),
    ("tas.O0.fp", ["pin_buffer_slot"], {"pin_buffer_slot": "buffer_slots.latch"}, None, False),
    ("ttas.fp", ["reserve_seat"], {"reserve_seat": "hall_gate.held"}, "jitter_state", False),
    ("ttas.dwarf", ["reserve_seat"], {"reserve_seat": "hall_gate.held"}, "jitter_state", False),
    ("ttas.O0.fp", ["reserve_seat"], {"reserve_seat": "hall_gate.held"}, "jitter_state", False),
    ("pmutex.dwarf", ["post_ledger_entry"], {"post_ledger_entry": "ledger_mutex"}, None, False),
    ("pmutex.O0.fp", ["post_ledger_entry"], {"post_ledger_entry": "ledger_mutex"}, None, False),
    ("pmutex.fp", ["post_ledger_entry"], {"post_ledger_entry": "ledger_mutex"}, None, True),
    ("rwlock.dwarf", ["rotate_catalog", "lookup_catalog"],
     {"rotate_catalog": "catalog_lock", "lookup_catalog": "catalog_lock"}, None, False),
    ("rwlock.fp", ["rotate_catalog", "lookup_catalog"], {}, None, True),
    ("members.dwarf", ["Registry::publish", "Journal::append", "Registry::find"],
     {"Registry::publish": "registry.names_mutex", "Journal::append": "journal.append_mutex"},
     None, False),
    ("members.fp", ["Registry::publish", "Journal::append", "Registry::find"], {}, None, True),
    ("pool.dwarf", ["fetch_page"], {"fetch_page": "shared_pool->guard"}, None, False),
    ("pool.fp", ["fetch_page"], {"fetch_page": "shared_pool->guard"}, None, True),
    # queue.c: locks taking turns, their wait loops with no exchange in them.
    ("queue-ticket.fp", ["deposit"], {}, None, True),
    ("queue-tkcall.fp", ["post_entry"], {"post_entry": "ledger"}, None, True),
    ("queue-turn.fp", ["serve_one"], {"serve_one": "serve_next"}, None, True),
    ("queue-mcs.fp", ["append_journal"], {"append_journal": "journal_lock"}, None, True),
    ("queue-mcs.dwarf", ["append_journal"], {"append_journal": "journal_lock"}, None, False),
    ("queue-door.fp", ["door_round"], {"door_round": "door"}, None, True),
]


def base(site):
    """A site's function: without the put-back mark and a compiler's clone suffix."""
    return re.sub(r"\.(constprop|isra|part)\.[0-9]+", "",
                  (site or "").replace(" [from call site]", ""))


def patterns(hot, fx, ldir):
    fx = fx + ["--kallsyms", os.path.join(ldir, "kallsyms")]
    for name, want, objects, seed, fp_gaps in PATTERNS:
        rep = run_json(hot, "-q", "--locks", "--format", "json", *fx,
                       os.path.join(ldir, name + ".data"))[0]
        sites = rep["sites"]
        total = sum(s["overhead"] for s in sites)
        at = sum(s["overhead"] for s in sites if base(s["site"]) in want)
        said = sum(s["overhead"] for s in sites if base(s["site"]) not in want and
                   (s["stack_cut"] or s["lost_frames"] >= 50))
        check(f"{name}: lock time found ({rep['overhead']:.1f}%)", rep["overhead"] > 10,
              rep["overhead"])
        if fp_gaps:
            check(f"{name}: the sites hold the lock time, or the rest says what it lost",
                  total and (at + said) >= 0.8 * total and at > 0,
                  [(s["site"], s["overhead"], s["lost_frames"], s["stack_cut"]) for s in sites])
        else:
            check(f"{name}: {'/'.join(want)} hold >= 80% of the lock time ({at:.1f} of {total:.1f})",
                  total and at >= 0.8 * total, [(s["site"], s["overhead"]) for s in sites[:5]])
        for site, obj in objects.items():
            got = [s.get("lock_word") for s in sites if base(s["site"]) == site]
            check(f"{name}: {site} locks {obj}", got and got[0] == obj, got)
        if seed:
            got = [s.get("seed") for s in sites if base(s["site"]) in want]
            check(f"{name}: the spin seed is {seed}", got and got[0] == seed, got)
        prims = {p["name"] for p in rep["primitives"]}
        check(f"{name}: no site is a primitive or a thread's start",
              not {base(s["site"]) for s in sites if s["overhead"] >= 1 and not s["stack_cut"] and
                   s["lost_frames"] < 50} & (prims | {"start_thread", "worker"}),
              [s["site"] for s in sites])
    # Frames put back from call instructions, against DWARF stacks of the same programs.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts"))
    from fprepair import measure
    sums = [0, 0, 0, 0]
    for name in ("tas", "ttas", "pmutex", "rwlock", "members", "mmap", "pool"):
        r = measure(hot, os.path.join(ldir, f"{name}.fp.data"), os.path.join(ldir, f"{name}.dwarf.data"),
                    fx)
        sums = [a + b for a, b in zip(sums, r)]
    check(f"put-back frames: {sums[2]} of {sums[0]} samples, {sums[3]} confirmed by DWARF (>= 95%)",
          sums[2] > 0 and sums[3] >= 0.95 * sums[2], sums)
    # The default report's short section: primitives among the flat rows, by their code too.
    def summary_rows(name):
        out = subprocess.run([hot, "-q", *fx, os.path.join(ldir, name + ".data")],
                             capture_output=True, text=True, timeout=600).stdout
        sec = out.split("# Lock and spin primitives", 1)
        return [ln.split()[2:] for ln in sec[1].splitlines()[1:] if ln.startswith("#  ")] \
            if len(sec) > 1 else []
    rows = summary_rows("tas.fp")
    check("default report: the delay and the acquire of a TAS lock no rule names",
          ["wait_a_little", "code", "delay"] in rows and
          ["slot_latch_acquire", "code", "spin", "acquire"] in rows, rows)
    rows = summary_rows("cas.fp")
    check("default report: no lock section for a lock-free counter", rows == [], rows)
    # Lock-free code is no lock.
    for name in ("cas.fp", "cas.dwarf", "cas.O0.fp", "xadd.fp", "xadd.dwarf", "queue-maxcas.fp"):
        rep = run_json(hot, "-q", "--locks", "--format", "json", *fx,
                       os.path.join(ldir, name + ".data"))[0]
        check(f"{name}: a lock-free counter is no lock ({rep['overhead']:.2f}%)",
              rep["overhead"] < 1 and not [s for s in rep["sites"] if base(s["site"]) in
                                             ("bump_visits", "count_hit", "raise_high_water")],
              [(s["site"], s["overhead"]) for s in rep["sites"]])
    # Kernel contention from user space: mmap_lock taken by mmap and munmap.
    rep = run_json(hot, "-q", "--locks", "--format", "json", *fx,
                   os.path.join(ldir, "mmap.fp.data"))[0]
    names = {s["site"] for s in rep["sites"]}
    check("mmap.fp: the kernel functions taking mmap_lock are the sites",
          {"__vm_munmap", "vm_mmap_pgoff"} & names and not {"down_write_killable"} & names, names)
    # Off-CPU waits: lock waits apart from other waits.
    for name, lock_sites, other_sites in (
            ("mmap.waits", {"__vm_munmap", "vm_mmap_pgoff", "lock_mm_and_find_vma"}, set()),
            ("pmutex.waits", {"post_ledger_entry"}, set()),
            ("condq.waits", set(), {"take_job", "condq_producer"})):
        w = [x for x in run_json(hot, "-q", "--locks", "--format", "json", *fx,
                                 os.path.join(ldir, name + ".data"))
             if x.get("schema") == "mycl-waits/1"][0]
        lock_ns = sum(s["wait_ns"] for s in w["sites"] if s["lock"])
        at = sum(s["wait_ns"] for s in w["sites"] if s["lock"] and base(s["site"]) in lock_sites)
        others = {base(s["site"]) for s in w["sites"] if not s["lock"] and
                  s["wait_ns"] >= 0.05 * w["total_wait_ns"]}
        if lock_sites:
            check(f"{name}: lock waits at {'/'.join(sorted(lock_sites))} (>= 80%)",
                  lock_ns and at >= 0.8 * lock_ns, [(s["site"], s["lock"]) for s in w["sites"]])
        else:
            check(f"{name}: no lock wait (a condition-variable queue and sleeps)",
                  lock_ns < 0.02 * w["total_wait_ns"], [(s["site"], s["lock"]) for s in w["sites"]])
        check(f"{name}: other waits at {sorted(other_sites)}", other_sites <= others, others)
        check(f"{name}: lock_wait_ns sums the lock sites", w["lock_wait_ns"] == lock_ns,
              (w["lock_wait_ns"], lock_ns))


def waits(hot, fx, data, expected):
    """Off-CPU waits per lock site and futex waits per word, against the program's own count."""
    with open(expected) as f:
        known = {line.split()[0]: float(line.split()[1]) for line in f if line.strip()}
    rep = [x for x in run_json(hot, "-q", "--locks", "--format", "json", *fx, data)
           if x.get("schema") == "mycl-waits/1"]
    check("waits: a report from the tracepoints", bool(rep))
    if not rep:
        return
    sites = {}
    for s in rep[0]["sites"]:
        if s["lock"]:
            sites[s["site"]] = sites.get(s["site"], 0.0) + s["wait_ns"] / 1e9
    for site, secs in known.items():
        got = sites.get(site, 0.0)
        check(f"waits: {site} off-CPU {got:.2f} s against {secs:.2f} s measured by the program",
              secs > 0.2 and abs(got - secs) <= 0.25 * secs, sites)
    fut = rep[0]["futexes"][0] if rep[0]["futexes"] else {}
    total = sum(known.values())
    check("waits: the futex word is table_lock, with the program's waits",
          (fut.get("symbol") or "").startswith("table_lock") and
          abs(fut.get("wait_ns", 0) / 1e9 - total) <= 0.25 * total, fut)

    # A wait is as long whatever the filters keep: its thread sleeps on one CPU and is switched
    # in on another, by a sample the filter drops.  The waits that start on each CPU add up to
    # all of them, count and time; a filter on the command changes nothing.
    def by_site(*args):
        r = [x for x in run_json(hot, "-q", "--locks", "--format", "json", *fx, *args, data)
             if x.get("schema") == "mycl-waits/1"]
        return {(s["site"], s["via"]): (s["waits"], s["wait_ns"]) for s in r[0]["sites"]} \
            if r else {}
    whole = by_site()
    parts = [by_site("--cpu", c) for c in ("0", "1")]
    summed = {k: tuple(sum(p.get(k, (0, 0))[i] for p in parts) for i in (0, 1)) for k in whole}
    check(f"waits: per CPU they add up to the whole ({len(whole)} sites, count and ns)",
          whole and summed == whole, [(k, whole[k], summed[k]) for k in whole
                                      if summed[k] != whole[k]][:3])
    check("waits: --comm mutex_wait gives the same waits", by_site("--comm", "mutex_wait") == whole,
          "")


if __name__ == "__main__":
    sys.exit(main())
