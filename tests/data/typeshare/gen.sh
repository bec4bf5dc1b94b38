#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates the fixtures of mycl-share --types (run as root on an x86_64
# Debian 12 machine with gcc, clang, gcc-aarch64-linux-gnu and
# g++-aarch64-linux-gnu): kiosk.c, solo.c, ledger.c, relay.cc, router.c, cache.cc,
# workers.c and scorer.cc built by gcc and clang at -O0 and -O2 and for aarch64, each with full
# debug info (and kiosk with split DWARF, its .dwo left out: only the skeleton is read); and kiosk.data, a
# recording of the gcc -O2 build at /mycl-fixtures/kiosk (copied under
# ../symfs so the tests find it wherever the checkout is).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
fp="-g -fno-omit-frame-pointer -pthread"
gcc -O2 $fp -o kiosk.gcc-O2 kiosk.c
gcc -O0 $fp -o kiosk.gcc-O0 kiosk.c
clang -O2 $fp -o kiosk.clang-O2 kiosk.c
clang -O0 $fp -o kiosk.clang-O0 kiosk.c
aarch64-linux-gnu-gcc -O2 $fp -o kiosk.aarch64-O2 kiosk.c
gcc -O2 $fp -gsplit-dwarf -o kiosk.split-O2 kiosk.c && rm -f kiosk.split-O2-kiosk.dwo ./*.dwo
gcc -O2 $fp -o solo.gcc-O2 solo.c
gcc -O2 $fp -o ledger.gcc-O2 ledger.c
aarch64-linux-gnu-gcc -O2 $fp -o ledger.aarch64-O2 ledger.c
g++ -O2 $fp -o relay.g++-O2 relay.cc
clang++ -O2 $fp -o relay.clang++-O2 relay.cc
aarch64-linux-gnu-g++ -O2 $fp -o relay.aarch64-O2 relay.cc
g++ -O2 $fp -o cache.g++-O2 cache.cc
clang++ -O2 $fp -o cache.clang++-O2 cache.cc
g++ -O0 $fp -o cache.g++-O0 cache.cc
gcc -O0 $fp -o router.gcc-O0 router.c
clang -O0 $fp -o router.clang-O0 router.c
gcc -O2 $fp -o router.gcc-O2 router.c
gcc -O2 $fp -o workers.gcc-O2 workers.c
gcc -O0 $fp -o workers.gcc-O0 workers.c
clang -O0 $fp -o workers.clang-O0 workers.c
g++ -O2 $fp -o scorer.g++-O2 scorer.cc
g++ -O0 $fp -o scorer.g++-O0 scorer.cc
clang++ -O2 $fp -o scorer.clang++-O2 scorer.cc
aarch64-linux-gnu-g++ -O2 $fp -o scorer.aarch64-O2 scorer.cc
mkdir -p /mycl-fixtures ../symfs/mycl-fixtures
cp kiosk.gcc-O2 /mycl-fixtures/kiosk
cp kiosk.gcc-O2 ../symfs/mycl-fixtures/kiosk
perf record -q -e cpu-clock:u -F 1000 -o kiosk.data -- /mycl-fixtures/kiosk 2 > /dev/null
