#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""
Source files named by a binary's debug info are read only where that is safe.
A line table names any path (`#line 2 "/home/you/.ssh/id_rsa"`), and a
recording from another machine picks the binary (under --symfs, in a perf
archive, in the build-id cache): a report pasted into a ticket must not carry
lines of the analysing machine's files.

Built here: a program whose hot loop the line table puts in a "secret" file of
the work directory, another whose name for it goes through "..".  Recorded
with cpu-clock.  Checks, with the secret's text and with strace's list of
opened files: the program at its recorded place shows the source (this
machine's own build); the same binary under --symfs, in the build-id cache
while the recorded file is gone shows no line of it, opens no such file, and
says why and how to show it (--source-dir); a name through ".." is taken by
its words (read for the local build, by no name under --symfs); a --source-dir
whose entry is a symbolic link out of it shows nothing; a real file there is
shown; a local build whose line table names a file outside its build
directory shows no line of it unless --source-dir names it.  mycl-hot's text,
JSON and HTML, and mycl-report.
Exits 77 where perf cannot record or no compiler is there.

usage: source_checks.py MYCL_HOT WORKDIR
"""
import os
import shutil
import subprocess
import sys

from checks import check, summary

hot, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
tools = os.path.dirname(hot)
report = os.path.join(tools, "mycl-report")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
SECRET = "NOT-FOR-TICKETS-%d"
secret = os.path.join(work, "secret.txt")
with open(secret, "w") as f:
    f.write("".join(SECRET % i + "\n" for i in range(1, 6)))

SRC = r"""
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) static void churn(unsigned long n)
{
#line 2 "%s"
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}
int main(int argc, char **argv)
{
	churn(argc > 1 ? strtoul(argv[1], 0, 10) : 1);
	return 0;
}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build(name, line_file):
    src = os.path.join(work, name + ".c")
    with open(src, "w") as f:
        f.write(SRC.replace("%s", line_file))
    exe = os.path.join(work, "bin", name)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    # (built in WORK: the debug info's build directory)
    return exe if run(["cc", "-O1", "-g", "-o", exe, src], cwd=work).returncode == 0 else None


def record(exe, data):
    p = run(["perf", "record", "-q", "--no-buildid-cache", "-e", "cpu-clock", "-o", data, exe,
             "200000000"])
    return p.returncode == 0 and os.path.getsize(data) > 0


def opened(args, tag):
    """Runs ARGS; its stdout, and the files it opened when strace is there (else None)."""
    if not shutil.which("strace"):
        p = run(args)
        return p.stdout + p.stderr, None
    log = os.path.join(work, tag + ".strace")
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    p = run(["strace", "-f", "-qq", "-o", log, "-e", "trace=open,openat,openat2"] + args, env=env)
    names = [line.split('"')[1] for line in open(log) if '"' in line]
    return p.stdout + p.stderr, names


def shown(out):
    return any(SECRET % i in out for i in range(1, 6))


exe = build("churn", secret)
dotted = build("dotted", os.path.join(work, "bin", "..", "secret.txt"))
outside_dir = work + "-outside"
shutil.rmtree(outside_dir, ignore_errors=True)
os.makedirs(outside_dir)
outside = os.path.join(outside_dir, "secret.txt")
shutil.copy(secret, outside)
leaky = build("leaky", outside)
if not exe or not dotted or not leaky:
    print("SKIP: no C compiler")
    sys.exit(77)
data = os.path.join(work, "churn.data")
ddata = os.path.join(work, "dotted.data")
ldata = os.path.join(work, "leaky.data")
if not record(exe, data) or not record(dotted, ddata) or not record(leaky, ldata):
    print("SKIP: perf cannot record here")
    sys.exit(77)
common = ["-q", "--annotate=churn", "--debug-dir", ""]

# 1. this machine's build at its recorded place: its source is shown
out, files = opened([hot] + common + ["--buildid-dir", "", data], "local")
check("the local build's source is shown", shown(out), out[-600:])

# 2. the same binary under --symfs: not read, said why
symfs = os.path.join(work, "symfs")
os.makedirs(symfs + os.path.dirname(exe))
shutil.copy(exe, symfs + exe)
args = common + ["--buildid-dir", "", "--symfs", symfs, data]
for fmt, extra in (("text", []), ("json", ["--format", "json"])):
    out, files = opened([hot] + args + extra, "symfs-" + fmt)
    check(f"--symfs ({fmt}): no line of the named file", not shown(out), out[-600:])
    check(f"--symfs ({fmt}): the file is not opened",
          files is None or not any(f.endswith("secret.txt") for f in files),
          [f for f in files or [] if "secret" in f])
    check(f"--symfs ({fmt}): says why and how to show it",
          "--symfs" in out and "--source-dir" in out and
          ("Source: not shown" in out or '"source_withheld"' in out), out[-600:])
html = os.path.join(work, "symfs.html")
out, files = opened([hot] + args + ["--html", html], "symfs-html")
page = open(html, encoding="utf-8", errors="replace").read() if os.path.exists(html) else ""
check("--symfs (html): no line of the named file", page and not shown(page), len(page))
out, files = opened([report, "--buildid-dir", "", "--debug-dir", "", "--symfs", symfs, data],
                    "symfs-report")
check("--symfs (mycl-report): no line of the named file", not shown(out), out[-600:])
check("--symfs (mycl-report): the file is not opened",
      files is None or not any(f.endswith("secret.txt") for f in files))

# 3. a --source-dir whose entry is a symbolic link out of it: not followed; a real file is
srcdir = os.path.join(work, "sources")
os.makedirs(srcdir)
os.symlink(secret, os.path.join(srcdir, "secret.txt"))
out, files = opened([hot] + args + ["--source-dir", srcdir], "symlink")
check("a --source-dir link out of it is not followed", not shown(out), out[-600:])
os.unlink(os.path.join(srcdir, "secret.txt"))
shutil.copy(secret, srcdir)
out, _ = opened([hot] + args + ["--source-dir", srcdir], "copy")
check("a file in --source-dir is shown", shown(out), out[-600:])
out, _ = opened([report, "--buildid-dir", "", "--debug-dir", "", "--symfs", symfs, "--source-dir",
                 srcdir, data], "copy-report")
check("a file in --source-dir is shown (mycl-report)", shown(out), out[-600:])

# 4. the build-id cache's copy while the recorded file is gone: not read
bid = run(["readelf", "-n", exe]).stdout.split("Build ID:")[-1].split()[0]
cache = os.path.join(work, "cache")
os.makedirs(os.path.join(cache, ".build-id", bid[:2], bid[2:]))
shutil.copy(exe, os.path.join(cache, ".build-id", bid[:2], bid[2:], "elf"))
out, _ = opened([hot] + common + ["--buildid-dir", cache, data], "cache-same")
check("the build-id cache's copy of the local file: shown", shown(out), out[-600:])
os.rename(exe, exe + ".gone")
out, files = opened([hot] + common + ["--buildid-dir", cache, data], "cache")
os.rename(exe + ".gone", exe)
check("the build-id cache's copy alone: no line of the named file", not shown(out), out[-600:])
check("the build-id cache's copy alone: says so", "build-id cache" in " ".join(out.replace("#", " ").split()), out[-600:])

# 5. a name through "..": taken by its words (bin/../secret.txt is secret.txt): the local build's
# is read there; the same binary under --symfs opens it by no name, raw or normalised
out, files = opened([hot] + common + ["--buildid-dir", "", ddata], "dotdot")
check("a name through '..', the local build: read at the path it means", shown(out), out[-600:])
dsymfs = os.path.join(work, "dsymfs")
os.makedirs(dsymfs + os.path.dirname(dotted))
shutil.copy(dotted, dsymfs + dotted)
out, files = opened([hot] + common + ["--buildid-dir", "", "--symfs", dsymfs, ddata], "dotdot-symfs")
check("a name through '..' under --symfs: not read", not shown(out), out[-600:])
check("a name through '..' under --symfs: the file is not opened",
      files is None or not any("secret.txt" in f for f in files),
      [f for f in files or [] if "secret" in f])

# 6. this machine's build at its recorded place whose line table names a file outside its build
# directory (DW_AT_comp_dir, WORK here): not read, said why
lcommon = ["-q", "--annotate=churn", "--debug-dir", "", "--buildid-dir", ""]
for fmt, extra in (("text", []), ("json", ["--format", "json"])):
    out, files = opened([hot] + lcommon + extra + [ldata], "outside-" + fmt)
    check(f"outside the build directory ({fmt}): no line of the named file", not shown(out),
          out[-600:])
    check(f"outside the build directory ({fmt}): the file is not opened",
          files is None or not any(f.endswith("secret.txt") for f in files),
          [f for f in files or [] if "secret" in f])
check("outside the build directory: says why",
      "outside its build directory" in " ".join(out.replace("#", " ").split()), out[-600:])
out, _ = opened([report, "--buildid-dir", "", "--debug-dir", "", ldata], "outside-report")
check("outside the build directory (mycl-report): no line of the named file", not shown(out),
      out[-600:])
out, _ = opened([hot] + lcommon + ["--source-dir", outside_dir, ldata], "outside-srcdir")
check("outside the build directory, its directory given: shown", shown(out), out[-600:])
shutil.rmtree(outside_dir, ignore_errors=True)
sys.exit(summary())
