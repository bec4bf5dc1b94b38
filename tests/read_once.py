#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Each recording is read once.

read_once.py MYCL-REPORT MYCL-SHARE DATA_DIR

mycl-report builds one profile and weighs the false-sharing section of every
binary by it (mycl_share_opts.profile); mycl-share --perf builds one profile
that carries the data addresses too.  strace counts the opens of the
recording: one each, with two binaries given (before: 1 + 2 per binary).
Skips (77) without strace.
"""
import os, re, shutil, subprocess, sys, tempfile

report, share, data = sys.argv[1:4]
if not shutil.which('strace'):
    print('strace is not installed: skipped')
    sys.exit(77)
rec = os.path.join(data, 'hotloop.g.data')
symfs = os.path.join(data, 'symfs')
bins = [os.path.join(symfs, 'mycl-fixtures', b) for b in ('hotloop', 'ttas_mutex')]
failed = 0


def opens(cmd):
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, 'trace')
        # (LeakSanitizer stops a program run under ptrace: a sanitized build's leak check off here)
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get('ASAN_OPTIONS', '') + ':detect_leaks=0')
        r = subprocess.run(['strace', '-f', '-qq', '-e', 'trace=open,openat,openat2', '-o', log] + cmd,
                           capture_output=True, text=True, env=env)
        with open(log) as f:
            lines = [l for l in f if 'hotloop.g.data"' in l]
        if r.returncode:
            print(r.stderr[-1500:])
        return r.returncode, r.stdout, lines


for what, cmd in (('mycl-report with two binaries', [report, '--symfs', symfs, rec] + bins),
                  ('mycl-share --perf', [share, '--perf', rec, bins[0]])):
    rc, out, lines = opens(cmd)
    if rc or len(lines) != 1:
        failed += 1
        print('FAIL: %s: exit %d, %d opens of the recording:\n%s' % (what, rc, len(lines),
                                                                  ''.join(lines)))
    else:
        print('ok: %s opens the recording once' % what)
# the weighing is there: the section counts hotloop's samples
rc, out, _ = opens([report, '--symfs', symfs, rec] + bins)
if not re.search(r'recording: [1-9][0-9,]* samples in this binary', out):
    failed += 1
    print('FAIL: the false-sharing section is not weighed by the recording')
else:
    print('ok: the false-sharing section is weighed by the recording')
sys.exit(1 if failed else 0)
