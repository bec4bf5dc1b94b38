#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads sample ips (perf script -F ip) on stdin; prints the lines of
/proc/kallsyms for the functions holding the kernel ones, the function after
each (its end), and _text/_stext: a kallsyms small enough to commit."""
import bisect
import sys

ips = {int(x, 16) for x in sys.stdin.read().split()}
syms = []
with open("/proc/kallsyms") as f:
    for line in f:
        a, t, n = line.split()[:3]
        if t in "tTwW":
            syms.append((int(a, 16), a, t, n))
syms.sort()
starts = [s[0] for s in syms]
keep = {i for i, s in enumerate(syms) if s[3] in ("_text", "_stext")}
for ip in ips:
    if ip < 1 << 63:
        continue
    i = bisect.bisect_right(starts, ip) - 1
    if i >= 0:
        keep.update({i, i + 1} if i + 1 < len(syms) else {i})
for i in sorted(keep):
    print(f"{syms[i][1]} {syms[i][2]} {syms[i][3]}")
