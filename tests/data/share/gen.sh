#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates mycl-share's ground-truth programs from truth.c: gcc and clang,
# -O0 and -O2, PIE, non-PIE and static (Debian 12's gcc 12 and clang 14), and
# with Debian 12's cross compilers for aarch64, ppc64le, s390x, i386, armhf
# (Thumb-2) and riscv64 (packages gcc-<triplet> and libc6-dev-<arch>-cross:
# apt-get install gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu
# gcc-s390x-linux-gnu gcc-i686-linux-gnu gcc-arm-linux-gnueabihf
# gcc-riscv64-linux-gnu libc6-dev-arm64-cross libc6-dev-i386-cross
# libc6-dev-armhf-cross libc6-dev-riscv64-cross).
set -eu
cd "$(dirname "$0")"
# NAME.gcc-O0, NAME.gcc-O2, NAME.clang-O0, NAME.clang-O2 from NAME.c
four() {
	for cc in gcc clang; do
		for o in -O0 -O2; do
			"$cc" "$o" -g -pthread -o "$1.$cc$o" "$1.c"
		done
	done
}
# NAME.g++-O0, NAME.g++-O2, NAME.clang++-O0, NAME.clang++-O2 from NAME.cc
fourcc() {
	for cc in g++ clang++; do
		for o in -O0 -O2; do
			"$cc" "$o" -g -pthread -o "$1.$cc$o" "$1.cc"
		done
	done
}
for cc in gcc clang; do
	for o in -O0 -O2; do
		"$cc" "$o" -g -pthread -o "truth.$cc$o" truth.c
	done
done
gcc -O2 -g -pthread -fno-pie -no-pie -o truth.nopie truth.c
gcc -O2 -g -pthread -static -o truth.static truth.c
strip -g truth.static	# under 1 MB: its symbols stay, its debug info goes
for t in aarch64-linux-gnu:aarch64 powerpc64le-linux-gnu:ppc64le s390x-linux-gnu:s390x \
	 i686-linux-gnu:i386 arm-linux-gnueabihf:armhf riscv64-linux-gnu:riscv64; do
	"${t%%:*}-gcc" -O2 -g -pthread -o "truth.${t##*:}" truth.c
done
# Other shapes on some: -O0 (frame-slot spills), -Os (loop bodies past the
# epilogue), non-PIE (s390x literal pools in .rodata, i386 absolute addresses).
aarch64-linux-gnu-gcc -O0 -g -pthread -o truth.aarch64-O0 truth.c
arm-linux-gnueabihf-gcc -O0 -g -pthread -o truth.armhf-O0 truth.c
powerpc64le-linux-gnu-gcc -O0 -g -pthread -o truth.ppc64le-O0 truth.c
riscv64-linux-gnu-gcc -Os -g -pthread -o truth.riscv64-Os truth.c
s390x-linux-gnu-gcc -O2 -g -pthread -fno-pie -no-pie -o truth.s390x-nopie truth.c
i686-linux-gnu-gcc -O2 -g -pthread -fno-pie -no-pie -o truth.i386-nopie truth.c
# When a server's code runs (C++: a thread before set-up ends, a poll loop,
# a guarded function-local static).
g++ -O2 -g -pthread -o server.gcc server.cc
clang++ -O2 -g -pthread -o server.clang server.cc
g++ -O0 -g -pthread -o server.gcc-O0 server.cc
# C++ threads by std::thread (its _M_run the entry; -O0's template layers
# between main and the thread's start; clang's DWARF 5 addresses by index),
# and a program linked statically whose C library brings objects of its own.
g++ -O2 -g -pthread -o pool.gcc pool.cc
clang++ -O0 -g -pthread -o pool.clang-O0 pool.cc
gcc -O2 -g -pthread -static -o dispatch.static dispatch.c
# Counters without atomics (a plain ++: load, add, store below -O2 and on
# load/store machines), at -O0 and -O2, on every architecture.
gcc -O2 -g -pthread -o plain.gcc-O2 plain.c
gcc -O0 -g -pthread -o plain.gcc-O0 plain.c
clang -O0 -g -pthread -o plain.clang-O0 plain.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o plain.aarch64 plain.c
aarch64-linux-gnu-gcc -O0 -g -pthread -o plain.aarch64-O0 plain.c
powerpc64le-linux-gnu-gcc -O2 -g -pthread -o plain.ppc64le plain.c
s390x-linux-gnu-gcc -O2 -g -pthread -o plain.s390x plain.c
riscv64-linux-gnu-gcc -O2 -g -pthread -o plain.riscv64 plain.c
arm-linux-gnueabihf-gcc -O2 -g -pthread -o plain.armhf plain.c
i686-linux-gnu-gcc -O0 -g -pthread -o plain.i386-O0 plain.c
# Mutexes written by the C library's lock calls.
gcc -O2 -g -pthread -o lockword.gcc-O2 lockword.c
clang -O0 -g -pthread -o lockword.clang-O0 lockword.c
# Members of one variable written by different threads (a ring's head and tail).
gcc -O2 -g -pthread -o ring.gcc-O2 ring.c
clang -O0 -g -pthread -o ring.clang-O0 ring.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o ring.aarch64 ring.c
# Callbacks reached through memory (a task's function pointer, a std::function),
# a signal handler, pthread_once's initialiser, an exit handler.
gcc -O2 -g -pthread -o tasks.gcc-O2 tasks.c
clang -O0 -g -pthread -o tasks.clang-O0 tasks.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o tasks.aarch64 tasks.c
for t in powerpc64le-linux-gnu:ppc64le s390x-linux-gnu:s390x riscv64-linux-gnu:riscv64 \
	 arm-linux-gnueabihf:armhf; do
	"${t%%:*}-gcc" -O2 -g -pthread -o "tasks.${t##*:}" tasks.c
	"${t%%:*}-gcc" -O2 -g -pthread -o "thrarg.${t##*:}" thrarg.c
done
g++ -O2 -g -pthread -o tasks.g++ tasks.cc
clang++ -O2 -g -pthread -o tasks.clang++ tasks.cc
# Globals written by methods, the address handed down call by call at -O0.
g++ -O0 -g -pthread -o methods.g++-O0 methods.cc
clang++ -O0 -g -pthread -o methods.clang++-O0 methods.cc
g++ -O2 -g -pthread -o methods.g++-O2 methods.cc
# Writes through a pointer variable initialised to a global (relocated or not).
gcc -O2 -g -pthread -o ptrvar.gcc-O2 ptrvar.c
gcc -O2 -g -pthread -fno-pie -no-pie -o ptrvar.nopie ptrvar.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o ptrvar.aarch64 ptrvar.c
powerpc64le-linux-gnu-gcc -O2 -g -pthread -o ptrvar.ppc64le ptrvar.c
s390x-linux-gnu-gcc -O2 -g -pthread -o ptrvar.s390x ptrvar.c
riscv64-linux-gnu-gcc -O2 -g -pthread -o ptrvar.riscv64 ptrvar.c
# Threads started by a module's init handler from a table, not by main's calls.
gcc -O2 -g -pthread -o modinit.gcc-O2 modinit.c
clang -O0 -g -pthread -o modinit.clang-O0 modinit.c
powerpc64le-linux-gnu-gcc -O2 -g -pthread -o modinit.ppc64le modinit.c	# a loop around a retry
# What a thread is handed as its argument: an array's element, or one shared struct
# (gcc -O2 keeps that struct in a register its leaf callee does not write: -fipa-ra).
gcc -O2 -g -pthread -o thrarg.gcc-O2 thrarg.c
clang -O2 -g -pthread -o thrarg.clang-O2 thrarg.c
gcc -O0 -g -pthread -o thrarg.gcc-O0 thrarg.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o thrarg.aarch64 thrarg.c
# Writes through pointers kept in a thread-local and in a global (x86_64, aarch64).
gcc -O2 -g -pthread -o tlsptr.gcc-O2 tlsptr.c
clang -O2 -g -pthread -o tlsptr.clang-O2 tlsptr.c
gcc -O0 -g -pthread -o tlsptr.gcc-O0 tlsptr.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o tlsptr.aarch64 tlsptr.c
# Globals reached through accessors (a returned address handed to a method at -O0).
g++ -O0 -g -pthread -o accessor.g++-O0 accessor.cc
clang++ -O0 -g -pthread -o accessor.clang++-O0 accessor.cc
g++ -O2 -g -pthread -o accessor.g++-O2 accessor.cc
# Variables the C library writes (snprintf, memset, clock_gettime).
gcc -O2 -g -pthread -o libwrite.gcc-O2 libwrite.c
clang -O0 -g -pthread -o libwrite.clang-O0 libwrite.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o libwrite.aarch64 libwrite.c
# Function addresses stored into locals: sigaction's handlers, a task queued from the stack.
gcc -O2 -g -pthread -o sigact.gcc-O2 sigact.c
gcc -O0 -g -pthread -o sigact.gcc-O0 sigact.c
clang -O2 -g -pthread -o sigact.clang-O2 sigact.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o sigact.aarch64 sigact.c
# Virtual calls on a global object (devirtualized from the object's vtable pointer at -O0).
g++ -O0 -g -pthread -o virt.g++-O0 virt.cc
clang++ -O0 -g -pthread -o virt.clang++-O0 virt.cc
g++ -O2 -g -pthread -o virt.g++-O2 virt.cc
aarch64-linux-gnu-g++ -O0 -g -pthread -o virt.aarch64-O0 virt.cc
# OpenMP's threads (libgomp; clang's libomp: apt-get install libomp-14-dev).
gcc -O2 -g -fopenmp -o omp.gcc-O2 omp.c
clang -O2 -g -fopenmp -o omp.clang-O2 omp.c
# Repetition without a loop of its own: a thread started per request by an
# accept loop, recursion (mutual and self) on the request path and at start-up.
gcc -O0 -g -pthread -o perreq.gcc-O0 perreq.c
gcc -O2 -g -pthread -o perreq.gcc-O2 perreq.c
clang -O0 -g -pthread -o perreq.clang-O0 perreq.c
clang -O2 -g -pthread -o perreq.clang-O2 perreq.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o perreq.aarch64 perreq.c
powerpc64le-linux-gnu-gcc -O0 -g -pthread -o perreq.ppc64le-O0 perreq.c
# Hot writes beside read-mostly members of the same variable (a config struct).
gcc -O2 -g -pthread -o inner.gcc-O2 inner.c
gcc -O0 -g -pthread -o inner.gcc-O0 inner.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o inner.aarch64 inner.c
powerpc64le-linux-gnu-gcc -O2 -g -pthread -o inner.ppc64le inner.c
# Counters chosen by address (a conditional move, an if's two arms) and written through it
# (picker.c); returned by a function that picks one of two, and stored in a struct handed
# down (sides.c).
for p in picker sides; do
	four $p
	aarch64-linux-gnu-gcc -O0 -g -pthread -o $p.aarch64-O0 $p.c
	aarch64-linux-gnu-gcc -O2 -g -pthread -o $p.aarch64 $p.c
done
# Sequentially consistent atomics: x86_64, aarch64's outline helpers, aarch64's LSE instructions.
gcc -O2 -g -pthread -o lse.gcc lse.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o lse.aarch64 lse.c
aarch64-linux-gnu-gcc -O2 -g -march=armv8.1-a -pthread -o lse.aarch64-lse lse.c
# Variables larger than a line, judged per line by where their hot writes land.
gcc -O2 -g -pthread -o span.gcc-O2 span.c
clang -O0 -g -pthread -o span.clang-O0 span.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o span.aarch64 span.c
# A global object spanning many lines, written through its methods: judged member by member.
g++ -O2 -g -pthread -o binlog.g++-O2 binlog.cc
clang++ -O0 -g -pthread -o binlog.clang++-O0 binlog.cc
aarch64-linux-gnu-g++ -O2 -g -pthread -o binlog.aarch64 binlog.cc
# The program's own reader-writer latch (a lock word, no counter) beside an id counter.
gcc -O2 -g -pthread -o rwlatch.gcc-O2 rwlatch.c
clang -O2 -g -pthread -o rwlatch.clang-O2 rwlatch.c
gcc -O0 -g -pthread -o rwlatch.gcc-O0 rwlatch.c
# Loops paced by a sleep (a housekeeping thread), beside a worker that backs off.
gcc -O2 -g -pthread -o paced.gcc-O2 paced.c
clang -O0 -g -pthread -o paced.clang-O0 paced.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o paced.aarch64 paced.c
g++ -O0 -g -pthread -o pacedcc.g++-O0 pacedcc.cc
g++ -O2 -g -pthread -o pacedcc.g++-O2 pacedcc.cc
# Loops paced by the program's own sleep functions (wrappers, select and poll on no descriptors).
gcc -O2 -g -pthread -o napper.gcc-O2 napper.c
gcc -O0 -g -pthread -o napper.gcc-O0 napper.c
clang -O2 -g -pthread -o napper.clang-O2 napper.c
clang -O0 -g -pthread -o napper.clang-O0 napper.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o napper.aarch64 napper.c
powerpc64le-linux-gnu-gcc -O2 -g -pthread -o napper.ppc64le napper.c
# Flags set once on the request path ("if (!ready) ready = 1"), beside stores that repeat.
gcc -O2 -g -pthread -o lazy.gcc-O2 lazy.c
gcc -O0 -g -pthread -o lazy.gcc-O0 lazy.c
clang -O2 -g -pthread -o lazy.clang-O2 lazy.c
clang -O0 -g -pthread -o lazy.clang-O0 lazy.c
aarch64-linux-gnu-gcc -O0 -g -pthread -o lazy.aarch64-O0 lazy.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o lazy.aarch64 lazy.c
powerpc64le-linux-gnu-gcc -O2 -g -pthread -o lazy.ppc64le lazy.c
# Work called once from the request path behind a flag set once (a loader, a
# double-checked build and its mutex), beside a flag cleared again and a
# function called both once and on every request.
four oncecall
aarch64-linux-gnu-gcc -O2 -g -pthread -o oncecall.aarch64 oncecall.c
powerpc64le-linux-gnu-gcc -O2 -g -pthread -o oncecall.ppc64le oncecall.c
# A pool started from a struct (pthread_create gets pool->fn), per-thread
# stats by a thread-local id, a spinlock beside its total, a paced reloader.
four spawn
aarch64-linux-gnu-gcc -O2 -g -pthread -o spawn.aarch64 spawn.c
# A table built once by std::call_once on the request path (pthread_once once
# inlined), beside counters every request writes.
g++ -O2 -g -pthread -o callonce.g++-O2 callonce.cc
clang++ -O2 -g -pthread -o callonce.clang++-O2 callonce.cc
g++ -O0 -g -pthread -o callonce.g++-O0 callonce.cc
clang++ -O0 -g -pthread -o callonce.clang++-O0 callonce.cc
# Lines written hot by one thread only (main's event loop, a thread started
# once) beside two threads started once on one line and a pool's counter.
four oneloop
# stores a test of the variable itself lets through (x86_64 only: a test is told from the flags)
four tested
aarch64-linux-gnu-gcc -O2 -g -pthread -o oneloop.aarch64 oneloop.c
# A C++ server: std::thread on a member function, std::lock_guard<std::mutex> per request.
g++ -O0 -g -pthread -o guard.g++-O0 guard.cc
clang++ -O0 -g -pthread -o guard.clang++-O0 guard.cc
g++ -O2 -g -pthread -o guard.g++-O2 guard.cc
clang++ -O2 -g -pthread -o guard.clang++-O2 guard.cc
ls -l truth.* server.* pool.* dispatch.* plain.* lockword.* ring.* tasks.* methods.* ptrvar.* modinit.* thrarg.* tlsptr.* accessor.* libwrite.* sigact.* virt.* omp.* perreq.* inner.* span.* binlog.* rwlatch.* paced.* pacedcc.* napper.* lazy.* guard.* oncecall.* spawn.* callonce.* oneloop.*
# What a recording with call chains settles (chains.c): built with frame
# pointers and recorded running.  The checks read what holds on any such
# recording: the workload never sends "stats", serve_batch and run_get are on
# its chains, warm_up too (before the threads).
gcc -O2 -g -pthread -fno-omit-frame-pointer -o chains.gcc chains.c
perf record -q -e cpu-clock -F 999 -g -o chains.fp.data ./chains.gcc > /dev/null
ls -l chains.*
# The same without call chains: a writer then counts by its own samples only.
perf record -q -e cpu-clock -F 999 -o chains.leaf.data ./chains.gcc > /dev/null
# Writes once per connection beside the per-query loop the chains pass (perconn.c),
# with frame-pointer chains and with DWARF's (the reference).
gcc -O2 -g -pthread -fno-omit-frame-pointer -o perconn.gcc perconn.c
perf record -q -e cpu-clock -F 999 -g -o perconn.fp.data ./perconn.gcc 600000 > /dev/null
perf record -q -e cpu-clock -F 499 --call-graph dwarf,1024 -o perconn.dwarf.data \
	./perconn.gcc 600000 > /dev/null
# Threads handed a struct (heap or stack) holding the address of their slot.
four heaparg
aarch64-linux-gnu-gcc -O2 -g -pthread -o heaparg.aarch64 heaparg.c
# Functions named like std::thread's state functions, cut short or unbalanced.
gcc -O0 -g -pthread -o statenames.gcc-O0 statenames.c
# A loader thread run and joined before the workers start, another while they run.
four loader
aarch64-linux-gnu-gcc -O2 -g -pthread -o loader.aarch64 loader.c
# Callbacks queued with their context (submit(fn, &ctx)) that a pool runs.
four taskctx
aarch64-linux-gnu-gcc -O2 -g -pthread -o taskctx.aarch64 taskctx.c
# std::thread running a member function on a global object (&Worker::run, &workers[i]).
fourcc thrmember
# A std::deque under a std::mutex (its cursors: pointers an add moves), drained
# by std::thread lambdas; an atomic request count; per-worker stats by index.
fourcc workq
# std::thread running lambdas that capture a global element by reference or by
# pointer, and a function object holding one.
fourcc lambda
# Methods starting their object's threads ([this] lambdas, &C::run with this),
# and std::async.
fourcc selfcap
# Threads started by a function handed the object (a tail call to pthread_create).
four startfn
aarch64-linux-gnu-gcc -O2 -g -pthread -o startfn.aarch64 startfn.c
# Calls through tables of functions at a computed index (a command table's
# handlers handed a thread's slot, reporters handed a global's address).
four fntable
gcc -O2 -g -pthread -fno-pie -no-pie -o fntable.nopie fntable.c
aarch64-linux-gnu-gcc -O2 -g -pthread -o fntable.aarch64 fntable.c
aarch64-linux-gnu-gcc -O0 -g -pthread -o fntable.aarch64-O0 fntable.c
g++ -O2 -g -pthread -o spsc.g++-O2 spsc.cc
clang++ -O2 -g -pthread -o spsc.clang++-O2 spsc.cc
g++ -O0 -g -pthread -o spsc.g++-O0 spsc.cc
gcc -O2 -g -o c11ring.gcc-O2 c11ring.c
clang -O0 -g -o c11ring.clang-O0 c11ring.c
aarch64-linux-gnu-gcc -O2 -g -o c11ring.aarch64 c11ring.c
powerpc64le-linux-gnu-gcc -O2 -g -o c11ring.ppc64le c11ring.c
# pooled.c: threads a library of its own starts (pooled_lib.c, not kept)
T=$(mktemp -d)
gcc -O2 -shared -fPIC -o $T/libpool.so pooled_lib.c
gcc -O2 -g -o pooled.gcc-O2 pooled.c -L$T -lpool
gcc -O2 -g -DNO_JOIN -o pooled.nojoin pooled.c -L$T -lpool
clang -O0 -g -o pooled.clang-O0 pooled.c -L$T -lpool
aarch64-linux-gnu-gcc -O2 -shared -fPIC -o $T/libpool.so pooled_lib.c
aarch64-linux-gnu-gcc -O2 -g -o pooled.aarch64 pooled.c -L$T -lpool
rm -rf $T
