#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Path safety, from crafted recordings, checked with strace: with --symfs,
mycl-hot opens no path from the recording outside that directory: not "../"
in an mmap's file name, not a symbolic link in --symfs that points out of it,
not a binary's debuglink with a directory in it; and it never executes
anything nor writes anywhere but its -o file.
usage: safety_checks.py MYCL_HOT DATA_DIR WORKDIR"""
import os
import shutil
import subprocess
import sys

from checks import check, summary

hot, data, work = sys.argv[1:4]
if not shutil.which("strace"):
    print("SKIP: strace is not installed")
    sys.exit(77)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
src = open(os.path.join(data, "hotloop.data"), "rb").read()
name = b"/mycl-fixtures/hotloop"


def craft(path, new):
    """hotloop.data with the binary's recorded name replaced (same length)."""
    assert len(new) == len(name)
    open(path, "wb").write(src.replace(name, new))


def traced(args, tag):
    """Runs mycl-hot under strace; its output, exit code and the file calls."""
    log = os.path.join(work, tag + ".strace")
    out = os.path.join(work, tag + ".out")
    # LeakSanitizer cannot work under ptrace: off for these runs of a sanitizer build.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    p = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e",
                        "trace=open,openat,openat2,execve,execveat,creat,rename,renameat,unlink,"
                        "unlinkat,mkdir,mkdirat,symlink,link,chmod,truncate",
                        hot, "--buildid-dir", "", "--debug-dir", "", "-o", out] + args,
                       capture_output=True, text=True, errors="replace", env=env)
    calls = open(log).read().splitlines()
    return p, open(out, errors="replace").read() if os.path.exists(out) else "", calls


def opened(calls):
    """The paths opened, each with whether the call succeeded."""
    res = []
    for c in calls:
        if "open" not in c or '"' not in c:
            continue
        path = c.split('"')[1]
        res.append((path, "= -1" not in c))
    return res


# The symfs: a copy of the fixtures' binaries, and one more file outside it.
symfs = os.path.join(work, "symfs")
shutil.copytree(os.path.join(data, "symfs"), symfs, symlinks=True)
outside = os.path.join(work, "outside")
os.makedirs(outside)
shutil.copy(os.path.join(symfs, "mycl-fixtures", "hotloop"), os.path.join(outside, "hotloop"))

# 1. "../" in the recorded name: symfs + "/../../../../etc/hosts"
bad = os.path.join(work, "dotdot.data")
craft(bad, b"/../../../../etc/hosts")
p, out, calls = traced(["--symfs", symfs, bad], "dotdot")
paths = opened(calls)
check("'../' in an mmap name: exit 0", p.returncode == 0, p.stderr[-300:])
check("'../' in an mmap name: nothing opened outside --symfs",
      not [x for x, _ in paths if "etc/hosts" in x and os.path.realpath(x).startswith("/etc")],
      [x for x, _ in paths if "hosts" in x])

# 2. a symbolic link in --symfs that points out of it
link_symfs = os.path.join(work, "symfs-link")
shutil.copytree(symfs, link_symfs, symlinks=True)
os.remove(os.path.join(link_symfs, "mycl-fixtures", "hotloop"))
os.symlink(os.path.join(outside, "hotloop"), os.path.join(link_symfs, "mycl-fixtures", "hotloop"))
p, out, calls = traced(["--symfs", link_symfs, os.path.join(data, "hotloop.data")], "symlink")
paths = opened(calls)
check("symlink out of --symfs: exit 0", p.returncode == 0, p.stderr[-300:])
check("symlink out of --symfs: the file it points to is not opened",
      not [x for x, ok in paths if ok and os.path.realpath(x).startswith(outside)],
      [x for x, ok in paths if os.path.realpath(x).startswith(outside)])
check("symlink out of --symfs: the binary is reported missing, its samples unresolved",
      "mix_hash" not in out and "hotloop" in out, out[:400])

# 3. a stripped binary whose debuglink names a path with directories in it
dl_symfs = os.path.join(work, "symfs-debuglink")
shutil.copytree(symfs, dl_symfs, symlinks=True)
binpath = os.path.join(dl_symfs, "mycl-fixtures", "hotloop")
dummy = os.path.join(work, "x" * len("../../../../etc/hosts"))
open(dummy, "wb").write(b"")
subprocess.run(["objcopy", "--strip-debug", "--strip-unneeded", "--remove-section=.gnu_debuglink",
                binpath], check=True)
subprocess.run(["objcopy", "--add-gnu-debuglink=" + dummy, binpath], check=True, cwd=work)
elf = open(binpath, "rb").read()
base = os.path.basename(dummy).encode()
check("crafted debuglink: planted", elf.count(base) == 1)
open(binpath, "wb").write(elf.replace(base, b"../../../../etc/hosts"))
p, out, calls = traced(["--symfs", dl_symfs, os.path.join(data, "hotloop.data")], "debuglink")
paths = opened(calls)
check("debuglink with directories: exit 0", p.returncode == 0, p.stderr[-300:])
check("debuglink with directories: not followed",
      not [x for x, _ in paths if "etc/hosts" in x], [x for x, _ in paths if "hosts" in x])

# 4. every view: nothing executed, nothing written but -o's file
for view in [[], ["-g"], ["--children"], ["--folded"], ["--locks"], ["--annotate=1"],
             ["--format", "json"]]:
    p, out, calls = traced(["--symfs", symfs] + view + [os.path.join(data, "hotloop.g.data")],
                           "view")
    execs = [c for c in calls if "execve" in c][1:]       # the first is strace starting mycl-hot
    writes = [c for c in calls if ("O_WRONLY" in c or "O_RDWR" in c or "O_CREAT" in c)
              and "= -1" not in c and "view.out" not in c]
    # (the -o file is written beside itself, .view.out.XXXXXX, and renamed onto it once whole)
    other = [c for c in calls if any(k in c for k in ("rename", "unlink", "mkdir", "symlink(",
                                                       "link(", "chmod", "truncate"))
             and not ("rename" in c and "/.view.out." in c and c.count("view.out") == 2)]
    v = " ".join(view) or "flat"
    check(f"{v}: exit 0", p.returncode == 0, p.stderr[-300:])
    check(f"{v}: executes nothing", not execs, execs[:3])
    check(f"{v}: writes nothing but the -o file", not writes and not other, (writes + other)[:3])
    check(f"{v}: opens nothing from the recording outside --symfs",
          not [x for x, ok in opened(calls) if ok and x.startswith("/mycl-fixtures")],
          [x for x, ok in opened(calls) if x.startswith("/mycl-fixtures")][:3])
sys.exit(summary())
