# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shared helpers for the tests that use perf itself as the oracle."""
import json
import os
import re
import subprocess


# A command prefix every helper runs perf and mycl-hot under (see no_debug_info()).
WRAP = []


def _run(cmd, **kw):
    return subprocess.run(WRAP + cmd, **kw)


def no_debug_info():
    """A prefix that runs a command in a private mount namespace where
    /usr/lib/debug and ~/.debug are empty: the machine as it is without
    libc6-dbg and without perf's build-id cache.  None where that cannot be done."""
    cache = os.path.join(os.path.expanduser("~"), ".debug")
    os.makedirs(cache, exist_ok=True)
    script = ("mount -t tmpfs none /usr/lib/debug && mount -t tmpfs none \"$MYCL_CACHE\" && "
              'exec "$0" "$@"')
    wrap = ["env", f"MYCL_CACHE={cache}", "unshare", "-m", "sh", "-c", script]
    r = subprocess.run(wrap + ["sh", "-c", "test -z \"$(ls -A /usr/lib/debug)\""],
                       capture_output=True)
    return wrap if r.returncode == 0 else None


def _sym_key(sym):
    """perf prints an unresolved address with C's %#.16llx: no 0x for address 0."""
    m = re.fullmatch(r"\[(.)\] ([0-9a-f]{16})", sym)
    return f"[{m.group(1)}] 0x{m.group(2)}" if m else sym


def perf_rows(path, extra=()):
    """perf report's flat profile: {event: {"samples": n, "rows": {(comm, dso, sym): pct}}}."""
    out = _run(
        ["perf", "report", "-i", path, "--stdio", "--no-children", "--sort", "comm,dso,sym",
         "-t", "|", "-g", "none", *extra],
        capture_output=True, text=True, timeout=600)
    events = {}
    cur = None
    for line in out.stdout.splitlines():
        if line.startswith("# Event count (approx.):") and cur is not None:
            cur["event_count"] = int(line.split(":", 1)[1])
            continue
        if line.startswith("# Samples:"):
            # "# Samples: 142  of event 'cpu-clock'"
            name = re.search(r"of events? '(.*)'", line).group(1)
            count = line.split(":", 1)[1].split(" of event")[0].strip()
            mult = 1
            if count.endswith("K"):
                mult, count = 1000, count[:-1]
            elif count.endswith("M"):
                mult, count = 1000000, count[:-1]
            cur = events.setdefault(name, {"samples": int(float(count) * mult), "rows": {}})
            continue
        if not line or line.startswith("#") or cur is None:
            continue
        parts = line.split("|")
        if len(parts) < 4 or not parts[0].strip().endswith("%"):
            continue
        pct = float(parts[0].strip().rstrip("%"))
        key = (parts[1].strip(), parts[2].strip(), _sym_key("|".join(parts[3:]).strip()))
        cur["rows"][key] = cur["rows"].get(key, 0.0) + pct
    return events, out


def mycl_rows(mycl_hot, path, extra=()):
    """mycl-hot's flat profile in the same shape as perf_rows."""
    out = _run([mycl_hot, "--format", "json", "-q", *extra, path],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"mycl-hot failed ({out.returncode}) on {path}: {out.stderr}")
    doc = json.loads(out.stdout)
    events = {}
    for ev in doc["events"]:
        if not ev["samples"]:
            continue  # perf report does not show events without samples
        rows = {}
        for r in ev["rows"]:
            sym = r.get("symbol")
            lvl = "k" if r.get("level") == "kernel" else "."
            sym = f"[{lvl}] {sym}" if sym else f"[{lvl}] 0x{int(r['address'], 16):016x}"
            key = (r.get("comm", ""), r.get("dso", ""), sym)
            rows[key] = rows.get(key, 0.0) + r["overhead"]
        events[ev["name"]] = {"samples": ev["samples"], "event_count": ev["event_count"],
                              "rows": rows}
    return events, doc


def perf_sample_counts(path):
    """Exact SAMPLE counts per event, from perf report --stats."""
    out = _run(["perf", "report", "-i", path, "--stats"], capture_output=True,
                         text=True, timeout=600)
    counts, cur = {}, None
    for line in out.stdout.splitlines():
        s = line.strip()
        if s.endswith(" stats:") and not s.startswith("Aggregated"):
            cur = s[:-len(" stats:")]
        elif s.startswith("SAMPLE events:") and cur is not None:
            counts[cur] = int(s.split(":")[1].split()[0])
    return counts


def perf_children_rows(path, extra=()):
    """perf report --children: {event: {(comm, dso, sym): (children, self)}}."""
    out = _run(
        ["perf", "report", "-i", path, "--stdio", "--children", "--sort", "comm,dso,sym",
         "-t", "|", "-g", "none", *extra], capture_output=True, text=True, timeout=600)
    events, cur = {}, None
    for line in out.stdout.splitlines():
        if line.startswith("# Samples:"):
            name = re.search(r"of events? '(.*)'", line).group(1)
            cur = events.setdefault(name, {})
            continue
        if not line or line.startswith("#") or cur is None:
            continue
        parts = line.split("|")
        if len(parts) < 5 or not parts[0].strip().endswith("%"):
            continue
        key = (parts[2].strip(), parts[3].strip(), _sym_key("|".join(parts[4:]).strip()))
        # two functions of one name (C++ overloads, static functions of two files, one
        # function inlined at two places) are two rows of one key: summed, as the flat rows
        # and mycl's rows are; but a sample whose chain holds both counts once in mycl's
        # inclusive row and in each of perf's, so the largest of them bounds it from below
        c, o = cur.get(key, (Children(0.0), 0.0))
        v = float(parts[0].strip().rstrip("%"))
        cur[key] = (Children(c + v, max(c.lo, v)), o + float(parts[1].strip().rstrip("%")))
    return events


class Children(float):
    """perf's inclusive share of a key: the sum of its rows, and LO, the largest of them
    (the share when every sample of one row is in the others' too)."""

    def __new__(cls, value, lo=None):
        obj = super().__new__(cls, value)
        obj.lo = value if lo is None else lo
        return obj


def children_match(perf, mine, tol):
    """Whether mycl's inclusive share MINE agrees with perf's (a Children) within TOL."""
    return getattr(perf, "lo", perf) - tol <= mine <= perf + tol


def mycl_children_rows(mycl_hot, path, extra=()):
    """Inclusive rows of the chains as perf shows them (no frame put back from a call)."""
    out = _run([mycl_hot, "--format", "json", "-q", "--children", "--no-call-site-frames", *extra,
                path],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"mycl-hot --children failed ({out.returncode}) on {path}: {out.stderr}")
    events = {}
    for ev in json.loads(out.stdout)["events"]:
        if not ev["samples"]:
            continue
        rows = {}
        for r in ev["rows"]:
            sym = r.get("symbol")
            lvl = "k" if r.get("level") == "kernel" else "."
            sym = f"[{lvl}] {sym}" if sym else f"[{lvl}] 0x{int(r['address'], 16):016x}"
            # perf merges the rows of two binaries with one short name (two builds of a
            # program caught by one system-wide recording: a CI run beside another); mycl
            # keeps them apart: summed here, as perf shows them (as mycl_rows does)
            key = (r.get("comm", ""), r.get("dso", ""), sym)
            c, o = rows.get(key, (0.0, 0.0))
            rows[key] = (c + r["children"], o + r["overhead"])
        events[ev["name"]] = rows
    return events


def perf_group_rows(path):
    """perf report's group view: {(comm, dso, sym): [pct of each member]}."""
    out = _run(["perf", "report", "-i", path, "--stdio", "--no-children", "--group",
                "--sort", "comm,dso,sym", "-t", "|", "-g", "none"],
               capture_output=True, text=True, timeout=600)
    rows = {}
    for line in out.stdout.splitlines():
        if not line or line.startswith("#"):
            continue
        parts = line.split("|")
        if len(parts) < 4 or not parts[0].strip().endswith("%"):
            continue
        pcts = [float(x.rstrip("%")) for x in parts[0].split()]
        key = (parts[1].strip(), parts[2].strip(), _sym_key("|".join(parts[3:]).strip()))
        rows[key] = pcts
    return rows


def mycl_group_rows(mycl_hot, path):
    out = _run([mycl_hot, "--format", "json", "-q", path], capture_output=True, text=True,
               timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"mycl-hot failed ({out.returncode}) on {path}: {out.stderr}")
    rows = {}
    for g in json.loads(out.stdout).get("groups", []):
        for r in g["rows"]:
            sym = r.get("symbol")
            lvl = "k" if r.get("level") == "kernel" else "."
            sym = f"[{lvl}] {sym}" if sym else f"[{lvl}] 0x{int(r['address'], 16):016x}"
            rows[(r.get("comm", ""), r.get("dso", ""), sym)] = r["overhead"]
    return rows


def outcome(results):
    """Exit status of checks run per compiler or build: None each one that could not
    run here (77 when none could), False each that failed."""
    if all(r is None for r in results):
        return 77
    ok = all(r is not False for r in results)
    print("ok" if ok else "FAIL")
    return 0 if ok else 1
