#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Rust programs, as perf reads them.  tests/data/rust/hashing.rs built with
rustc in both symbol schemes (legacy and v0), recorded with frame pointers
(-g) and with --call-graph dwarf (no frame pointers): rustc's layout puts the
text 0x1000 above its file offset, its functions sit inside DWARF namespaces,
its inlined iterator chains nest past eight deep.  Checks that every row of
0.5% or more, flat and --children, is in perf's report within 0.1 points
(perf cuts long inlined names short: such a row is matched by its start), or
within one sample where that is more (a sample perf's unwinder ends in a
garbage frame, as at exit in libgcc_s's destructors, mycl unwinds to _start;
the program runs about 1,000 samples' time so one sample is 0.1 point), and
that at least 90% of the samples in the program's two hot functions unwind
to main.  Exits 77 where rustc or perf cannot run.

usage: rust_checks.py MYCL_HOT DATA_DIR WORKDIR
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "scripts"))
from perfreport import perf_rows, mycl_rows, perf_children_rows, mycl_children_rows, \
    children_match  # noqa: E402

MIN = 0.5
ROUNDS = 1600  # about 1,000 cpu-clock samples at 999 Hz


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def same_key(pk, mine):
    """perf's key, or the one mycl row whose name perf cut short."""
    if pk in mine:
        return pk
    if "(inlin" in pk[2] and not pk[2].endswith("(inlined)"):
        longer = [k for k in mine if k[:2] == pk[:2] and k[2].startswith(pk[2])]
        if len(longer) == 1:
            return longer[0]
    return None


def compare(name, path, hot, extra=()):
    ok, n = True, 0
    p, _ = perf_rows(path, extra)
    m, _ = mycl_rows(hot, path, extra)
    # one sample's share, per event: the tolerance where it is more than 0.1 point
    tol = {ev: max(0.1, 100.0 / p[ev]["samples"] + 0.005) if p[ev]["samples"] else 0.1 for ev in p}
    for ev in p:
        mine = m.get(ev, {"rows": {}})["rows"]
        for k, v in p[ev]["rows"].items():
            if v < MIN:
                continue
            n += 1
            mk = same_key(k, mine)
            if mk is None or abs(mine[mk] - v) > tol[ev]:
                ok = False
                print(f"FAIL: {name} flat {k}: perf {v:.2f}, mycl {mine.get(mk) if mk else None}")
    pc = perf_children_rows(path, extra)
    mc = mycl_children_rows(hot, path, extra)
    for ev in pc:
        mine = mc.get(ev, {})
        for k, (c, s) in pc[ev].items():
            if c < MIN or k[2][4:].startswith("0x"):
                continue
            n += 1
            mk = same_key(k, mine)
            t = tol.get(ev, 0.1)
            if mk is None or not children_match(c, mine[mk][0], t) or abs(mine[mk][1] - s) > t:
                ok = False
                print(f"FAIL: {name} children {k}: perf {c:.2f}/{s:.2f}, "
                      f"mycl {mine.get(mk) if mk else None}")
    print(f"{'ok' if ok else 'FAIL'}: {name}: {n} rows compared with perf")
    return ok


def unwound(name, path, hot):
    """Share of the samples in the hot functions whose stack reaches main."""
    folded = run([hot, "--folded", path]).stdout
    total = full = 0
    for line in folded.splitlines():
        stack, cnt = line.rsplit(" ", 1)
        frames = stack.split(";")
        if any(f.endswith("_[k]") for f in frames):
            continue
        if any(f in ("m::churn", "hashing::churn") or f.endswith("Shape>::area") for f in frames):
            total += int(cnt)
            if "main" in frames:
                full += int(cnt)
    share = full / total if total else 0
    print(f"{'ok' if share >= 0.9 else 'FAIL'}: {name}: {full} of {total} samples in the hot "
          f"functions unwind to main ({share:.0%})")
    return share >= 0.9


def main():
    hot, data, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    src = os.path.join(data, "rust", "hashing.rs")
    if not shutil.which("rustc"):
        print("skip: no rustc")
        return 77
    ok = True
    ran = 0
    for scheme in ("legacy", "v0"):
        for frames in ("fp", "dwarf"):
            exe = os.path.join(work, f"hashing-{scheme}-{frames}")
            # legacy is rustc's default (naming it needs -Z unstable-options)
            cmd = ["rustc", "-O", "-g", "-o", exe, src]
            if scheme == "v0":
                cmd[3:3] = ["-C", "symbol-mangling-version=v0"]
            if frames == "fp":
                cmd[3:3] = ["-C", "force-frame-pointers=yes"]
            r = run(cmd)
            if r.returncode:
                print(f"skip: {' '.join(cmd)}: {r.stderr.strip()[:200]}")
                continue
            path = exe + ".data"
            rec = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-o", path]
            rec += ["-g"] if frames == "fp" else ["--call-graph", "dwarf,16384"]
            r = run(rec + ["--", exe, str(ROUNDS)], timeout=300)
            if r.returncode:
                print(f"skip: perf record: {r.stderr.strip()[:200]}")
                return 77
            ran += 1
            name = f"{scheme} {frames}"
            ok = compare(name, path, hot) and ok
            ok = unwound(name, path, hot) and ok
    if not ran:
        return 77
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
