#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""mycl-hot --format pprof decoded by three decoders that are not mycl's:
protoc --decode against profile.proto from Debian's golang-github-google-pprof-dev,
Go's pprof itself (built from that package by .ci/test-setup: its -top totals and
top function) and the npm package pprof-format (tests/browser/pprof.mjs).  On fixtures of
frame-pointer and DWARF stacks, one and several threads: the totals of both
sample types, the samples per pid label, and the mappings' build-ids must be
mycl's own (mycl-hot --format json); DWARF stacks with inlined functions must
give Locations with several Lines.
usage: pprof_checks.py MYCL_HOT DATA_DIR WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

hot, data, work = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = '/usr/share/gocode/src/github.com/google/pprof/proto'
GO_PPROF = shutil.which('pprof')
os.makedirs(work, exist_ok=True)
passed = failed = 0


def check(ok, what):
    global passed, failed
    print(('ok - ' if ok else 'not ok - ') + what)
    if ok:
        passed += 1
    else:
        failed += 1


def protoc_decode(path):
    """Sums of each value column, samples per pid, locations with >1 line, build-ids."""
    raw = subprocess.run(['gzip', '-dc', path], check=True, capture_output=True).stdout
    text = subprocess.run(['protoc', '--decode', 'perftools.profiles.Profile', '-I', PROTO_DIR,
                           os.path.join(PROTO_DIR, 'profile.proto')], input=raw, check=True,
                          capture_output=True).stdout.decode()
    strings = re.findall(r'^string_table: "(.*)"$', text, re.M)
    strings = [bytes(s, 'utf-8').decode('unicode_escape') for s in strings]
    totals, by_pid, multi, build_ids = [0, 0], {}, 0, set()
    for block in re.findall(r'^sample \{\n(.*?)^\}', text, re.M | re.S):
        vals = [int(v) for v in re.findall(r'^  value: (-?\d+)$', block, re.M)]
        for i, v in enumerate(vals):
            totals[i] += v
        for key, num in re.findall(r'label \{\n\s+key: (\d+)\n\s+num: (\d+)', block):
            if strings[int(key)] == 'pid':
                by_pid[int(num)] = by_pid.get(int(num), 0) + vals[0]
    for block in re.findall(r'^location \{\n(.*?)^\}', text, re.M | re.S):
        if block.count('line {') > 1:
            multi += 1
    for block in re.findall(r'^mapping \{\n(.*?)^\}', text, re.M | re.S):
        m = re.search(r'build_id: (\d+)', block)
        if m and strings[int(m.group(1))]:
            build_ids.add(strings[int(m.group(1))])
    return totals, by_pid, multi, build_ids


def mycl_json(path, *extra):
    out = subprocess.run([hot, '--symfs', os.path.join(data, 'symfs'), path, '--format', 'json',
                          *extra], check=True, capture_output=True).stdout
    return json.loads(out)


CASES = ['hotloop.g.data',           # frame pointers, two threads
         'stackcopy.data',           # DWARF stacks
         'ttas.g.data',
         'locks/members.dwarf.data',  # C++, inlined frames
         'locks/tas.dwarf.data',
         'waits.data']               # several events: the first with samples

for case in CASES:
    path = os.path.join(data, case)
    out = os.path.join(work, os.path.basename(case) + '.pb.gz')
    r = subprocess.run([hot, '--symfs', os.path.join(data, 'symfs'), path, '--format', 'pprof',
                        '-o', out], capture_output=True, text=True)
    check(r.returncode == 0, f'{case}: pprof written ({r.stderr.strip()})')
    if r.returncode:
        continue
    j = mycl_json(path, '-s', 'pid')
    ev = next(e for e in j['events'] if e['samples'])
    want = [ev['samples'], ev['event_count']]
    pids = {}
    for row in ev['rows']:
        pids[row['pid']] = pids.get(row['pid'], 0) + row['samples']
    bids = {d['build_id'] for d in j['symbolization'] if d['build_id'] and d['samples']}
    totals, by_pid, multi, build_ids = protoc_decode(out)
    raw = subprocess.run(['gzip', '-dc', out], check=True, capture_output=True).stdout
    check(subprocess.run(['gzip', '-t', out]).returncode == 0 and
          os.path.getsize(out) < len(raw) * 0.8,
          f'{case}: gzip -t passes and the file is compressed ({os.path.getsize(out)} bytes '
          f'of {len(raw)})')
    check(totals == want, f'{case}: protoc totals {totals} = mycl {want}')
    check(by_pid == pids, f'{case}: protoc samples per pid label = mycl -s pid ({len(pids)} pids)')
    check(bids <= build_ids, f'{case}: every sampled binary\'s build-id in a mapping')
    # Go's pprof: the samples in all, and the function with the most (mycl's top row's)
    if GO_PPROF:
        top = subprocess.run([GO_PPROF, '-sample_index=0', '-top', '-nodefraction=0',
                              '-nodecount=1000000', out], capture_output=True, text=True)
        m = re.search(r'of (\d+) total', top.stdout)
        first = re.search(r'^\s+\d+\s+[\d.]+%\s+[\d.]+%\s+\d+\s+[\d.]+%\s+(.*)$', top.stdout, re.M)
        flat = mycl_json(path)
        row = next(e for e in flat['events'] if e['samples'])['rows'][0]
        # (an address no symbol covers: its binary's name and the address, as mycl's text)
        name = row['symbol'] or row['dso'] + '+0x'
        check(top.returncode == 0 and m and int(m.group(1)) == want[0] and first and
              first.group(1).startswith(name) and (row['symbol'] or '+0x' in first.group(1)),
              f'{case}: Go\'s pprof -top: {m.group(1) if m else "?"} samples, '
              f'{first.group(1) if first else "?"} first = mycl {want[0]}, {name}')
    else:
        check(False, 'Go\'s pprof is not installed (.ci/test-setup builds it)')
    node = json.loads(subprocess.run(['node', os.path.join(here, 'browser', 'pprof.mjs'), out],
                                     check=True, capture_output=True).stdout)
    check(node['totals'] == want, f'{case}: pprof-format totals {node["totals"]} = mycl {want}')
    check({int(k): v for k, v in node['byPid'].items()} == pids,
          f'{case}: pprof-format samples per pid = mycl')
    check(node['types'][0] == ['samples', 'count'] and node['types'][1][0] == ev['name'],
          f'{case}: sample types {node["types"]}')
    if 'dwarf' in case:
        check(multi > 0 and len(node['inlined']) == multi,
              f'{case}: {multi} locations hold inlined functions as further lines '
              f'(e.g. {node["inlined"][:1]})')
        check(all(not n.endswith(' (inlined)') for l in node['inlined'] for n in l),
              f'{case}: inlined functions under their own names')

# Refusals: binary to a terminal is refused elsewhere; views that do not go with it here.
for extra, what in ((['--locks'], '--locks'), (['-g'], '-g'), (['--sort', 'dso'], '--sort'),
                    (['--html', os.path.join(work, 'x.html')], '--html')):
    r = subprocess.run([hot, os.path.join(data, 'hotloop.g.data'), '--format', 'pprof', '-o',
                        os.path.join(work, 'x.pb.gz'), *extra], capture_output=True, text=True)
    check(r.returncode == 1 and what in r.stderr and not os.path.exists(os.path.join(work, 'x.pb.gz')),
          f'--format pprof with {what} refused, nothing written: {r.stderr.strip()}')
# With a flame graph: both written, the flame graph as without pprof.
svg1, svg2 = os.path.join(work, 'a.svg'), os.path.join(work, 'b.svg')
r1 = subprocess.run([hot, '--symfs', os.path.join(data, 'symfs'), os.path.join(data, 'hotloop.g.data'),
                     '--flamegraph', svg1, '--format', 'pprof', '-o', os.path.join(work, 'y.pb.gz')])
r2 = subprocess.run([hot, '--symfs', os.path.join(data, 'symfs'), os.path.join(data, 'hotloop.g.data'),
                     '--flamegraph', svg2], capture_output=True)
check(r1.returncode == 0 and os.path.exists(os.path.join(work, 'y.pb.gz')) and
      open(svg1, 'rb').read() == open(svg2, 'rb').read(), '--flamegraph beside --format pprof: both written')

print(f'{passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
