#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The library's surface against what the tree says it is.

surface_checks.py SRCDIR LIBMYCL.so LIBMYCL.a WORKDIR [--write]

- the functions include/mycl/ declares are the names src/libmycl.map exports;
- the shared library defines exactly those (version MYCL_0.1) and the static
  library defines no other global symbol (internal ones are local there:
  a program's own `bunzip`, `str_printf` or `x86` links beside it);
- the static library links with what `pkg-config --static --libs mycl` adds;
- the public structs and enums have the layouts of
  tests/data/surface/types.txt (pahole, x86_64), so a change to a public
  struct is a change to that file in the same commit.  --write rewrites it.
"""
import difflib, os, re, subprocess, sys

src, so, ar, work = sys.argv[1:5]
write = '--write' in sys.argv[5:]
os.makedirs(work, exist_ok=True)
failed = []


def fail(msg):
    failed.append(msg)
    print('FAIL:', msg)


def headers():
    d = os.path.join(src, 'include', 'mycl')
    for name in sorted(os.listdir(d)):
        if name.endswith('.h'):
            with open(os.path.join(d, name)) as f:
                text = re.sub(r'/\*.*?\*/', ' ', f.read(), flags=re.S)
            yield re.sub(r'#define[^\n]*(?:\\\n[^\n]*)*', ' ', text)


declared, tags = set(), []
for text in headers():
    declared |= set(re.findall(r'\b(mycl_\w+)\s*\(', text))
    tags += re.findall(r'\b(?:struct|enum|union)\s+(mycl_\w+)\s*\{', text)

with open(os.path.join(src, 'src', 'libmycl.map')) as f:
    mapped = re.sub(r'/\*.*?\*/', ' ', f.read(), flags=re.S)
mapped = set(re.findall(r'^\s*(mycl_\w+)\s*;', mapped, flags=re.M))


def names(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {line.split()[2].split('@')[0] for line in out.splitlines()
            if len(line.split()) == 3}


def compare(what, got, want):
    if got != want:
        fail('%s: %s more, %s missing' % (what, sorted(got - want)[:20], sorted(want - got)[:20]))
    else:
        print('ok: %s (%d names)' % (what, len(got)))


compare('src/libmycl.map against the functions include/mycl/ declares', mapped, declared)
dyn = names(['nm', '-D', '--defined-only', so])
compare('the shared library\'s exports against src/libmycl.map', dyn - {'MYCL_0.1'}, mapped)
compare('the static library\'s global symbols against src/libmycl.map',
        names(['nm', '-g', '--defined-only', ar]), mapped)

# A program defining names the library uses inside links against the static one.
prog = os.path.join(work, 'collide.c')
with open(prog, 'w') as f:
    f.write('#include "mycl/mycl.h"\n#include <stdio.h>\n'
            'int bunzip(void) { return 1; }\nint str_printf(void) { return 2; }\n'
            'int x86 = 3;\n'
            'int main(void)\n{\n'
            '\tvoid *keep[] = { (void *)mycl_share__analyze, (void *)mycl_archive__open,\n'
            '\t\t(void *)mycl_profile__build, (void *)mycl_report__html };\n'
            '\treturn !keep[3] || puts(mycl_strerror(MYCL_ERR_ELF)) < 0 ||\n'
            '\t       bunzip() + str_printf() + x86 != 6;\n}\n')
# the link line the installed mycl.pc gives a static link (its Libs.private, Requires.private)
pcdir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(ar))), 'meson-private')
r = subprocess.run(['pkg-config', '--static', '--libs', 'mycl'], capture_output=True, text=True,
                   env=dict(os.environ, PKG_CONFIG_PATH=pcdir))
if r.returncode:
    fail('pkg-config --static --libs mycl (%s): %s' % (pcdir, r.stderr.strip()))
libs = [w for w in r.stdout.split() if w != '-lmycl' and not w.startswith('-L')]
exe = os.path.join(work, 'collide')
# a sanitized build's archive calls the sanitizers' runtimes: the program links them too
undef = subprocess.run(['nm', '-u', ar], capture_output=True, text=True).stdout
if '__asan_' in undef:
    libs = ['-fsanitize=address'] + libs
if '__ubsan_' in undef:
    libs = ['-fsanitize=undefined'] + libs
r = subprocess.run(['cc', '-I', os.path.join(src, 'include'), prog, ar] + libs + ['-o', exe],
                   capture_output=True, text=True)
if r.returncode:
    fail('a program defining bunzip, str_printf and x86 does not link the static '
         'library:\n' + r.stderr[-2000:])
elif subprocess.run([exe], capture_output=True).returncode:
    fail('the program linked against the static library did not run its own functions')
else:
    print('ok: a program with its own bunzip, str_printf and x86 links libmycl.a')

# Public layouts, as pahole prints them.
pub = os.path.join(work, 'public.c')
obj = os.path.join(work, 'public.o')
with open(pub, 'w') as f:
    f.write('#include "mycl/mycl.h"\n')
subprocess.run(['cc', '-g', '-fno-eliminate-unused-debug-types', '-c', '-I',
                os.path.join(src, 'include'), pub, '-o', obj], check=True)
try:
    r = subprocess.run(['pahole', '-C', ','.join(sorted(set(tags))), obj],
                       capture_output=True, text=True)
except FileNotFoundError:
    r = None
    fail('pahole is not installed (apt-get install dwarves; .ci/test-setup does)')
if r is not None:
    got = r.stdout
    path = os.path.join(src, 'tests', 'data', 'surface', 'types.txt')
    if write:
        with open(path, 'w') as f:
            f.write(got)
        print('wrote', path)
    else:
        with open(path) as f:
            want = f.read()
        printed = set(re.findall(r'^(?:struct|enum|union) (mycl_\w+) \{', got, flags=re.M))
        if printed != set(tags):
            fail('pahole printed no layout for %s' % sorted(set(tags) - printed))
        if got != want:
            fail('public types differ from tests/data/surface/types.txt (on purpose: '
                 'rerun with --write and commit it):\n' +
                 ''.join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                   'types.txt', 'now'))[:80]))
        else:
            print('ok: %d public structs and enums as tests/data/surface/types.txt' % len(printed))

sys.exit(1 if failed else 0)
