# SPDX-License-Identifier: LGPL-2.1-or-later
"""
How often mycl-hot puts back a frame a call instruction shows missing from a
frame-pointer chain ("NAME [from call site]"), and how often that frame is
right: a recording of the same program with --call-graph dwarf (exact
stacks, apart from tail calls) must show the put-back function between the
same caller and callee.
"""
import subprocess

MARK = " [from call site]"


def folded(hot, data, extra=()):
    """{stack tuple (outermost first): samples} from mycl-hot --folded."""
    out = subprocess.run([hot, "-q", "--folded", *extra, data], capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"mycl-hot --folded {data}: {out.stderr}")
    stacks = {}
    for line in out.stdout.splitlines():
        path, _, n = line.rpartition(" ")
        # --folded writes blanks in names as '_'.
        frames = tuple(f.replace("_[from_call_site]", MARK) for f in path.split(";"))
        stacks[frames] = stacks.get(frames, 0) + int(n)
    return stacks


def _plain(f):
    return f.replace(MARK, "").replace("_(inlined)", "")


def measure(hot, fp_data, dwarf_data, extra=()):
    """(samples, samples with a put-back frame, put-back frames, of them confirmed by DWARF)."""
    fp = folded(hot, fp_data, extra)
    dw = folded(hot, dwarf_data, ["--no-inline", *extra])	# functions, as fp chains show them
    # What DWARF shows: each function's callers, and the functions under it.
    callers, below = {}, {}
    for st, n in dw.items():
        st = [_plain(f) for f in st if not f.endswith("_[k]")]
        for i in range(1, len(st)):
            callers.setdefault(st[i], set()).add(st[i - 1])
            below.setdefault(st[i - 1], set()).update(st[i:])
    total = sum(fp.values())
    repaired = frames = right = 0
    for st, n in fp.items():
        marks = [i for i, f in enumerate(st) if f.endswith(MARK)]
        if not marks:
            continue
        repaired += n
        for i in marks:
            f = _plain(st[i])
            up = _plain(st[i - 1]) if i else None
            down = next((_plain(g) for g in st[i + 1:] if not g.endswith("_[k]")), None)
            frames += n
            ok = (up is None or up in callers.get(f, set())) and \
                 (down is None or down in below.get(f, set()))
            right += n if ok else 0
    return total, repaired, frames, right
