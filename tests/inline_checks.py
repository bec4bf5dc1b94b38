#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Inlined functions inside inlined functions.  tests/data/inline/deep.cpp
inlines Deep<14>::go into hot() fourteen levels deep and std::sort's and
std::map's templates into sorter().  Built with g++ -O2 -g and recorded with
--call-graph dwarf: every --children row of 0.5% or more as in perf's report
(perf reads gcc's DWARF right; it cuts long inlined names short: such a row
is matched by its start).  The same with the debug sections compressed
(-gz, as Debian's debug files are: mycl hides the sections it does not read
from libdw, which inflates every one it sees), and then --annotate still
gives hot()'s source lines (the line table is hidden only without it).
Built with clang++ and lld (text 0x1000 above its
file offset, DWARF 5): the inlined chain mycl shows at each sampled address
in hot() is the one llvm-symbolizer gives (perf and binutils' addr2line give
only the innermost three there).  Exits 77 where a compiler or perf is missing.

usage: inline_checks.py MYCL_HOT DATA_DIR WORKDIR
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "scripts"))
from perfreport import perf_children_rows, mycl_children_rows, outcome  # noqa: E402


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def record(exe, path):
    r = run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "499", "--call-graph",
             "dwarf,8192", "-o", path, "--", exe], timeout=300)
    return r.returncode == 0


def perf_cut_share(path):
    """The share in % (by period) of samples whose user chain perf ends at an unknown frame."""
    out = run(["perf", "script", "-i", path, "-F", "period,ip,sym"]).stdout
    total = cut = 0
    for block in out.split("\n\n"):
        lines = [x.split() for x in block.strip().splitlines()]
        if not lines or not lines[0] or not lines[0][0].isdigit():
            continue
        period = int(lines[0][0])
        total += period
        frames = [x for x in lines[1:] if x]
        if frames and (frames[-1][0] == "ffffffffffffffff" or frames[-1][-1] == "[unknown]"):
            cut += period
    return 100.0 * cut / total if total else 0.0


def gcc_case(hot, src, work, gz=False):
    name = "deep-gcc-gz" if gz else "deep-gcc"
    label = "g++ -gz" if gz else "g++"
    exe = os.path.join(work, name)
    r = run(["g++", "-O2", "-g", *(["-gz"] if gz else []), "-o", exe, src])
    if r.returncode:
        print(f"skip: {label}: {r.stderr[:200]}")
        return None
    if gz and "C" not in run(["readelf", "-SW", exe]).stdout.split(".debug_info", 1)[-1][:80]:
        print("skip: g++ -gz wrote no compressed .debug_info here")
        return None
    path = exe + ".data"
    if not record(exe, path):
        return None
    pc = perf_children_rows(path)
    mc = mycl_children_rows(hot, path)
    cut = perf_cut_share(path)
    ok, n, deep = True, 0, 0
    for ev in pc:
        mine = mc.get(ev, {})
        for k, (c, s) in pc[ev].items():
            # the program's own rows: libc's inlined frames perf names after the
            # ELF alias (__GI___libc_malloc), mycl after DWARF (README)
            if c < 0.5 or k[2][4:].startswith("0x") or k[1] != name:
                continue
            mk = k if k in mine else None
            if mk is None and "(inlin" in k[2] and not k[2].endswith("(inlined)"):
                longer = [x for x in mine if x[:2] == k[:2] and x[2].startswith(k[2])]
                mk = longer[0] if len(longer) == 1 else None
            n += 1
            deep += "Deep<" in k[2]
            # a sample whose chain perf's unwinding gave up on (ending at an unknown frame, as
            # in libstdc++'s exit handlers) is under its callers in mycl's chains only: mycl's
            # inclusive share may be higher than perf's by those samples' share, never lower
            if (mk is None or not -0.1 <= mine[mk][0] - getattr(c, "lo", c) or
                    mine[mk][0] - c > cut + 0.1
                    or abs(mine[mk][1] - s) > 0.1):
                ok = False
                print(f"FAIL: {label} children {k}: perf {c:.2f}/{s:.2f}, "
                      f"mycl {mine.get(mk) if mk else None}")
    # how deep mycl's chains through hot() go (perf's rows of 0.5% show fewer when few
    # samples land deep: compared above, counted here)
    depth = 0
    for line in run([hot, "--folded", path]).stdout.splitlines():
        frames = line.rsplit(" ", 1)[0].split(";")
        depth = max(depth, sum(f.startswith("Deep<") for f in frames))
    if depth < 10:
        ok = False
        print(f"FAIL: {label}: mycl's chains hold at most {depth} Deep<N>::go frames "
              "(14 inlined)")
    print(f"{'ok' if ok else 'FAIL'}: {label}: {n} children rows as perf, {deep} of them "
          f"Deep<N>::go; chains {depth} deep")
    if gz:
        # source lines with --annotate (and -g: inlined frames and lines from one opening)
        out = run([hot, "-g", "--annotate=hot", path]).stdout
        lines = sum("deep.cpp:" in line for line in out.splitlines())
        if not lines:
            ok = False
            print(f"FAIL: {label}: --annotate=hot shows no deep.cpp source line")
        else:
            print(f"ok: {label}: --annotate=hot shows {lines} deep.cpp source lines")
    return ok


def clang_case(hot, src, work):
    sym = shutil.which("llvm-symbolizer") or shutil.which("llvm-symbolizer-14")
    exe = os.path.join(work, "deep-clang")
    r = run(["clang++", "-O2", "-g", "-fuse-ld=lld", "-o", exe, src])
    if r.returncode or not sym:
        print(f"skip: clang++ with lld, llvm-symbolizer: {r.stderr[:200]}")
        return None
    path = exe + ".data"
    if not record(exe, path):
        return None
    # mycl's chains: hot's frames, the inlined ones above them, per sample
    folded = run([hot, "--folded", "--no-call-site-frames", path]).stdout
    want_total = 0
    chains = {}
    for line in folded.splitlines():
        stack, cnt = line.rsplit(" ", 1)
        frames = stack.split(";")
        if "hot" not in frames:
            continue
        i = frames.index("hot")
        inl = tuple(f[:-len("_(inlined)")] for f in frames[i + 1:] if f.endswith("_(inlined)"))
        chains[inl] = chains.get(inl, 0) + int(cnt)
        want_total += int(cnt)
    # llvm-symbolizer at each sampled address in hot (from perf script: the same samples)
    out = run(["perf", "script", "-i", path, "-F", "ip,sym", "--no-inline"]).stdout
    addrs = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 2 and f[1].startswith("hot"):
            addrs[f[0]] = addrs.get(f[0], 0) + 1
    # perf script's ip of a PIE is the address in the file; lld puts the text above its offset
    base = 0
    for line in run(["readelf", "-lW", exe]).stdout.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[-2:-1] + f[-3:-1]:
            base = int(f[2], 16) - int(f[1], 16)
    theirs = {}
    for a, cnt in addrs.items():
        v = int(a, 16)
        text = run([sym, "--obj", exe, "-i", "-f", "-C", hex(v + base if v < 0x100000 else v)]).stdout
        names = [l for l in text.splitlines()[0::2] if l and not l.startswith("/")]
        inl = tuple(n.split("(")[0] if n.startswith("Deep") else n for n in names[:-1])
        inl = tuple(reversed(inl))
        theirs[inl] = theirs.get(inl, 0) + cnt
    ok = chains == theirs and any(len(k) > 4 for k in chains)
    print(f"{'ok' if ok else 'FAIL'}: clang++/lld: {want_total} samples in hot, "
          f"{len(chains)} inlined chains as llvm-symbolizer gives them "
          f"(deepest {max((len(k) for k in chains), default=0)})")
    if not ok:
        print("    mycl:", sorted(chains.items())[:6])
        print("    llvm-symbolizer:", sorted(theirs.items())[:6])
    return ok


def main():
    hot, data, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    src = os.path.join(data, "inline", "deep.cpp")
    results = [gcc_case(hot, src, work), gcc_case(hot, src, work, gz=True),
               clang_case(hot, src, work)]
    return outcome(results)


if __name__ == "__main__":
    sys.exit(main())
