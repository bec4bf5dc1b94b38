#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates the recordings in tests/data/ (run as root on an x86_64 Debian 12
# machine where perf record -e cpu-clock works).  The sample program is built to
# /mycl-fixtures/hotloop, the path the recordings name, and copied under
# symfs/ so the tests resolve it with --symfs wherever the checkout is.
# expected.txt holds what perf report says of each file: the oracle.
# The lock fixtures: samples/ttas_mutex recorded with -g (ttas.g.data), and
# samples/mutex_wait, linked statically so its glibc unwinds from the copy
# here, with scheduler and futex tracepoints (waits.data; waits.expected is
# what the program measured of its own waits in that run).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=/mycl-fixtures/hotloop
mkdir -p /mycl-fixtures "$here/symfs/mycl-fixtures"
gcc -O2 -g -fno-omit-frame-pointer -pthread -o "$bin" "$top/samples/hotloop.c"
cp "$bin" "$here/symfs/mycl-fixtures/hotloop"
fp="-O2 -g -fno-omit-frame-pointer -fno-shrink-wrap -pthread"
gcc $fp -fno-toplevel-reorder -o /mycl-fixtures/ttas_mutex "$top/samples/ttas_mutex.c"
gcc $fp -static -o /mycl-fixtures/mutex_wait "$top/samples/mutex_wait.c"
cp /mycl-fixtures/ttas_mutex /mycl-fixtures/mutex_wait "$here/symfs/mycl-fixtures/"
gcc -O2 -g -fno-omit-frame-pointer -pthread -o /mycl-fixtures/deepstack "$top/bench/deepstack.c"
gcc -O2 -o /mycl-fixtures/yielder "$here/yielder.c"
cp /mycl-fixtures/deepstack /mycl-fixtures/yielder "$here/symfs/mycl-fixtures/"
cd "$here"
rec() { out=$1; shift; perf record -q "$@" -o "$out" -- "$bin" 0.25 >/dev/null; }
rec hotloop.data -e cpu-clock:u -F 1000
rec hotloop.g.data -e cpu-clock:u -F 1000 -g
rec hotloop.z.data -e cpu-clock:u -F 1000 -z
# A directory: 'data', and data.N of records from each writer thread (one per CPU).
rm -rf hotloop.threads
rec hotloop.threads --threads -e cpu-clock:u -F 1000 -g
chmod 755 hotloop.threads && chmod 644 hotloop.threads/*
rec two-events.data -e cpu-clock:u -e page-faults:u -F 1000
# Leader sampling: each cpu-clock sample reads the group's counts.
rec group.data -e '{cpu-clock:u,page-faults:u,context-switches}:S' -F 1000
# One event reading its own count, inherited by hotloop's threads.
rec read-inherit.data -e '{cpu-clock:u}:S' -F 1000
perf record -q -e cpu-clock:u -F 1000 -o - -- "$bin" 0.25 > hotloop.pipe.data
perf record -q -g -e cpu-clock -F 1000 -o ttas.g.data -- /mycl-fixtures/ttas_mutex 1.5 4 >/dev/null
perf record -q -z --call-graph dwarf,4096 -e sched:sched_switch -e syscalls:sys_enter_futex \
	-e syscalls:sys_exit_futex -o waits.data -- /mycl-fixtures/mutex_wait 0.5 4 > waits.expected
# Recordings made to trigger the header's warnings: samples lost (tiny
# buffers, high rate), DWARF stack copies too small for deep stacks, a
# timer event piling up at the kernel's interrupt-enable point (in a VM),
# an idle machine.  artefact.kallsyms keeps the kernel symbols those
# samples hit, so they resolve on any kernel.
rec lost.g.data -m 1 -F 30000 -e cpu-clock:u -g
perf record -q -e cpu-clock:u -F 500 --call-graph dwarf,256 -o stackcopy.data -- /mycl-fixtures/deepstack 0.4 >/dev/null
perf record -q -e cpu-clock -F 1000 -o artefact.data -- /mycl-fixtures/yielder
perf record -q -a -e cpu-clock -F 200 -o idle.data -- sleep 0.5
perf script -i artefact.data -F ip | python3 "$here/kallsyms_subset.py" > artefact.kallsyms
# The idle machine's call chains: the boot CPU's idle stack returns into init
# text (start_kernel), above the kernel's MMAP record (_text to _etext).
perf record -q -a -g -e cpu-clock -F 200 -o idle.g.data -- sleep 0.5
perf script -i idle.g.data -F ip | python3 "$here/kallsyms_subset.py" > idle.g.kallsyms
chmod 644 ./*.data
: > expected.txt
for f in hotloop.data hotloop.g.data hotloop.z.data two-events.data hotloop.pipe.data group.data \
	hotloop.threads; do
	perf report -i "$f" --stats 2>/dev/null | awk -v f="$f" '
		/ stats:$/ && !/Aggregated/ { ev = $1; sub(/:$/, "", ev) }
		/SAMPLE events:/ && ev != "" { print f, ev, $3 }' >> expected.txt
done
ls -l "$here"/*.data
