#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Each tool's options as its man page lists them.

options_checks.py SRCDIR TOOL...

--help is made from the tool's option table (tools/opts.h); the options it
lists, long and short, must be the ones the man page's OPTIONS section gives a
tagged paragraph (.TP), no more, no fewer; --help stays within 100 columns.
"""
import os, re, subprocess, sys

src, tools = sys.argv[1], sys.argv[2:]
failed = 0


def from_help(tool):
    out = subprocess.run([tool, '--help'], capture_output=True, text=True, check=True).stdout
    longs, shorts, wide = set(), set(), []
    for line in out.splitlines():
        if len(line) > 100:
            wide.append(line)
        m = re.match(r'^  (?:-(\w), |    )--([\w-]+)', line)
        if m:
            longs.add(m.group(2))
            if m.group(1):
                shorts.add(m.group(1))
    return longs, shorts, wide


def from_man(page):
    with open(page) as f:
        text = f.read()
    m = re.search(r'^\.SH OPTIONS\n(.*?)^\.SH ', text, flags=re.M | re.S)
    if not m:
        return None, None
    longs, shorts = set(), set()
    lines = m.group(1).splitlines()
    for i, line in enumerate(lines[:-1]):
        if line != '.TP':
            continue
        tag = lines[i + 1].replace('\\-', '-')
        longs |= set(re.findall(r'(?<![\w-])--([a-z0-9][\w-]*)', tag))
        shorts |= set(re.findall(r'(?<![\w-])-([a-zA-Z])(?![\w-])', tag))
    return longs, shorts


for tool in tools:
    name = os.path.basename(tool)
    hl, hs, wide = from_help(tool)
    ml, ms = from_man(os.path.join(src, 'man', name + '.1'))
    if ml is None:
        print('FAIL: man/%s.1 has no OPTIONS section' % name)
        failed += 1
        continue
    problems = []
    if hl - ml:
        problems.append('in --help, not in man/%s.1: %s' % (name, ' '.join('--' + o for o in sorted(hl - ml))))
    if ml - hl:
        problems.append('in man/%s.1, not in --help: %s' % (name, ' '.join('--' + o for o in sorted(ml - hl))))
    if hs != ms:
        problems.append('short options: --help %s, man %s' % (sorted(hs), sorted(ms)))
    if wide:
        problems.append('--help lines over 100 columns: %s' % wide[:3])
    if problems:
        failed += 1
        print('FAIL: %s\n  %s' % (name, '\n  '.join(problems)))
    else:
        print('ok: %s: %d options, man page and --help agree' % (name, len(hl)))
sys.exit(1 if failed else 0)
