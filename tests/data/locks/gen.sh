#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates the lock-pattern recordings (run as root on x86_64 Debian 12
# where perf record -e cpu-clock works).  zoo.c, queue.c and members.cc are built
# statically, so their glibc and libstdc++ resolve and unwind from the copies
# under ../symfs wherever the checkout is: zoo with gcc -O2 and with clang
# -O0, members (C++) with g++ -O2.  Each pattern is recorded with frame
# pointers (-g) and with DWARF stack copies (zstd-compressed); kallsyms holds
# the kernel symbols their kernel frames hit.  The binaries keep frame
# pointers; glibc inside them has none, as on a user's machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=/mycl-fixtures/locks
symfs="$here/../symfs$dir"
mkdir -p "$dir" "$symfs"
gcc -O2 -g -fno-omit-frame-pointer -static -pthread -o "$dir/zoo" "$here/zoo.c"
clang -O0 -g -fno-omit-frame-pointer -static -pthread -o "$dir/zoo-clang-O0" "$here/zoo.c"
g++ -O2 -g -fno-omit-frame-pointer -static -pthread -Wl,--gc-sections -o "$dir/members" \
	"$here/members.cc"
gcc -O2 -g -fno-omit-frame-pointer -static -pthread -o "$dir/queue" "$here/queue.c"
gcc -O2 -g -fno-omit-frame-pointer -static -pthread -o "$dir/tranche" "$here/tranche.c"
cp "$dir/zoo" "$dir/zoo-clang-O0" "$dir/members" "$dir/queue" "$dir/tranche" "$symfs/"
# queue.c's code for the lock kinds read without a recording (tests/code/test_lockkinds.c):
# clang, and aarch64 with outline atomics (Debian's default) and with LSE instructions.
clang -O2 -g -pthread -o "$here/queue.clang" "$here/queue.c"
aarch64-linux-gnu-gcc -O2 -g -pthread -o "$here/queue.aarch64" "$here/queue.c"
aarch64-linux-gnu-gcc -O2 -g -march=armv8.1-a -pthread -o "$here/queue.aarch64-lse" "$here/queue.c"
# backoff.c's spin-delay seeds from code alone, the same three ways (dynamic: no recording).
gcc -O2 -g -pthread -o "$here/backoff.gcc" "$here/backoff.c"
clang -O2 -g -pthread -o "$here/backoff.clang" "$here/backoff.c"
clang -O0 -g -pthread -o "$here/backoff.clang-O0" "$here/backoff.c"
aarch64-linux-gnu-gcc -O2 -g -pthread -o "$here/backoff.aarch64" "$here/backoff.c"
cd "$here"
rm -f ./*.data
fp() { out=$1; shift; perf record -q -g -e cpu-clock -F 499 -o "$out" -- "$@" >/dev/null; rm -f "$out.old"; }
dw() { out=$1; shift; perf record -q -z --call-graph dwarf,4096 -e cpu-clock -F 149 -o "$out" -- "$@" >/dev/null; rm -f "$out.old"; }
for m in tas ttas pmutex rwlock cas xadd mmap pool; do
	fp "$m.fp.data" "$dir/zoo" $m 1 4
	dw "$m.dwarf.data" "$dir/zoo" $m 1 4
done
for m in tas ttas pmutex cas; do
	fp "$m.O0.fp.data" "$dir/zoo-clang-O0" $m 1 4
done
fp members.fp.data "$dir/members" 1 4
# A lock in an array a global pointer points into, named by a table of strings.
fp tranche.fp.data "$dir/tranche" 1 4
dw members.dwarf.data "$dir/members" 1 4
# Locks that take turns, user space only (their kernel part, sched_yield's, is not asked about).
for m in ticket tkcall turn mcs barrier maxcas door; do
	perf record -q -g -e cpu-clock:u -F 499 -o "queue-$m.fp.data" -- "$dir/queue" $m 1 4 >/dev/null
done
perf record -q -z --call-graph dwarf,4096 -e cpu-clock:u -F 149 -o queue-mcs.dwarf.data -- \
	"$dir/queue" mcs 1 4 >/dev/null
# Waits, every switch recorded: the condition-variable queue (waits that are
# no lock; DWARF, glibc's frames have no frame pointer), the mutex, and the
# kernel's mmap_lock.
perf record -q -z --call-graph dwarf,4096 -e sched:sched_switch -c 1 -o condq.waits.data -- \
	"$dir/zoo" condq 0.5 4 >/dev/null
perf record -q -g -e sched:sched_switch -c 1 -o pmutex.waits.data -- "$dir/zoo" pmutex 0.3 4 >/dev/null
perf record -q -g -e sched:sched_switch -c 1 -o mmap.waits.data -- "$dir/zoo" mmap 0.3 4 >/dev/null
# The mutex with the futex calls' words beside the clock (the lock of time whose
# chains lost their site); its kernel symbols apart, as it may be made on another kernel.
perf record -q -g -e cpu-clock -e syscalls:sys_enter_futex -e syscalls:sys_exit_futex -F 499 \
	-o pmutex.futex.data -- "$dir/zoo" pmutex 1 4 >/dev/null
perf script -i pmutex.futex.data -F ip 2>/dev/null | grep -o "^[[:space:]]*[0-9a-f]\+" |
	python3 "$here/../kallsyms_subset.py" > kallsyms.futex
for f in ./*.data; do perf script -i "$f" -F ip 2>/dev/null; done | grep -o "^[[:space:]]*[0-9a-f]\+" |
	python3 "$here/../kallsyms_subset.py" > kallsyms
chmod 644 ./*.data
ls -l "$here"/*.data
