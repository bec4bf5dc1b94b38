#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Reads every file of the conformance corpus (../shared/corpus, see its README
and INDEX.tsv) with mycl-hot:
  - files perf 6.1 reads: the same SAMPLE count per event as perf report --stats;
  - files perf 6.1 refuses: the count the file holds (INDEX samples=, or the
    samples inside its compressed records);
  - corrupted, simpleperf-specific and non-perf files: exit 3 with one message
    naming the file; never a crash or a hang.
Exits 77 when the corpus is absent.

usage: corpus.py MYCL_HOT CORPUS_DIR
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "scripts"))
from perfreport import perf_sample_counts  # noqa: E402

SKIP_SUFFIX = (".buildids", ".md", ".txt", ".tsv")


def expected_total(features):
    m = re.search(r"zstd-inner\{[^}]*SAMPLE=(\d+)", features)
    if m:
        return int(m.group(1))
    m = re.search(r"samples=(\d+)(\(outer\))?", features)
    if m and not m.group(2):
        return int(m.group(1))
    return None


def run(mycl_hot, path):
    try:
        r = subprocess.run([mycl_hot, "--format", "json", "-q", path], capture_output=True,
                           text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    return r, None


def main():
    mycl_hot, corpus = sys.argv[1:3]
    index = os.path.join(corpus, "INDEX.tsv")
    if not os.path.exists(index):
        print(f"SKIP: no corpus at {corpus}")
        return 77
    rows = []
    with open(index) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    passed = failed = 0
    for row in rows:
        rel = os.path.join(row["repo"].split("/")[1], row["path"])
        path = os.path.join(corpus, rel)
        if rel.endswith(SKIP_SUFFIX) or not os.path.exists(path):
            continue
        feats, perf61 = row["features"], row["perf_6.1_report"]
        r, err = run(mycl_hot, path)
        problems = []
        if err:
            problems.append(err)
        elif r.returncode < 0:
            problems.append(f"killed by signal {-r.returncode}")
        special = ("simpleperf-records" in feats or "BAD:" in feats or "negative test" in feats
                   or "gzip of" in feats or "v1 PERFFILE" in feats)
        if not problems and r.returncode != 0:
            msg = r.stderr.strip().splitlines()
            if not special:
                problems.append(f"exit {r.returncode}: {r.stderr.strip()[:300]}")
            elif r.returncode != 3 or len(msg) != 1 or path not in msg[0]:
                problems.append(f"bad input should give exit 3 and one message naming the "
                                f"file; got exit {r.returncode}: {msg}")
        elif not problems:
            doc = json.loads(r.stdout)
            mine = {e["name"]: e["samples_unfiltered"] for e in doc["events"]}
            total = sum(mine.values())
            perf = perf_sample_counts(path) if perf61.startswith("OK") else {}
            if sum(perf.values()) == 0 and expected_total(feats):
                perf = {}  # perf 6.1 --stats misses samples inside compressed pipes
            if perf:
                if set(perf) <= set(mine):
                    for ev, n in perf.items():
                        if mine.get(ev) != n:
                            problems.append(f"event {ev}: perf {n} samples, mycl {mine.get(ev)}")
                else:
                    # Names differ where perf 6.1 ignores the names a newer perf wrote
                    # into a pipe (cycles:uH against the file's cycles:u): compare the
                    # counts per event in order.
                    pc = sorted(n for n in perf.values() if n)
                    mc = sorted(n for n in mine.values() if n)
                    if pc != mc:
                        problems.append(f"per-event counts: perf {perf}, mycl {mine}")
                if sum(perf.values()) != total:
                    problems.append(f"total: perf {sum(perf.values())}, mycl {total}")
            else:
                want = expected_total(feats)
                if "S:READ" in feats:
                    total = doc["header"]["sample_records"]  # the INDEX counts records
                if want is not None and want != total:
                    problems.append(f"file holds {want} samples, mycl read {total}")
            if "BAD:" in feats:
                problems.append("corrupt file read without an error")
        if not problems and "S:STACK_USER" in feats and r.returncode == 0:
            # DWARF user stacks: unwinding (without the recorded binaries) must not fail.
            r2 = subprocess.run([mycl_hot, "--folded", "-q", path],
                                capture_output=True, text=True, timeout=120)
            if r2.returncode != 0:
                problems.append(f"--folded with unwinding: exit {r2.returncode}: {r2.stderr[:200]}")
        if problems:
            failed += 1
            print(f"FAIL {rel}")
            for p in problems:
                print("    " + p)
        else:
            passed += 1
            print(f"ok   {rel}")
    print(f"{passed} passed, {failed} failed")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
