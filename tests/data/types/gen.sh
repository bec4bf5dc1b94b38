#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates the data-type fixtures (run as root on an x86_64 Debian 12
# machine with gcc, clang and gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu):
# inventory.c and depot.cc built by gcc and clang at -O0 and -O2 and for
# aarch64, each with full debug info (the tests read their code and DWARF, no
# recording needed), two of them with DWARF 4; and inventory.data, a recording of the gcc -O2 build at
# /mycl-fixtures/inventory (copied under ../symfs so the tests find it
# wherever the checkout is); faults.data, the page faults of faults.c (gcc
# -O2) with their data addresses (perf record -d), the same way.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
fp="-g -fno-omit-frame-pointer -pthread"
gcc -O2 $fp -o inventory.gcc-O2 inventory.c
gcc -O0 $fp -o inventory.gcc-O0 inventory.c
clang -O2 $fp -o inventory.clang-O2 inventory.c
aarch64-linux-gnu-gcc -O2 $fp -o inventory.aarch64-O2 inventory.c
g++ -O2 $fp -o depot.g++-O2 depot.cc
clang++ -O0 $fp -o depot.clang++-O0 depot.cc
aarch64-linux-gnu-g++ -O2 $fp -o depot.aarch64-O2 depot.cc
# DWARF 4 (.debug_loc, not .debug_loclists), for the location lists' reader
gcc -O2 -gdwarf-4 $fp -o inventory.gcc-O2-dwarf4 inventory.c
clang++ -O2 -gdwarf-4 $fp -o depot.clang++-O2-dwarf4 depot.cc
mkdir -p /mycl-fixtures ../symfs/mycl-fixtures
cp inventory.gcc-O2 /mycl-fixtures/inventory
cp inventory.gcc-O2 ../symfs/mycl-fixtures/inventory
perf record -q -e cpu-clock:u -F 2000 -o inventory.data -- /mycl-fixtures/inventory > /dev/null
gcc -O2 $fp -o faults.gcc-O2 faults.c
cp faults.gcc-O2 /mycl-fixtures/faults
cp faults.gcc-O2 ../symfs/mycl-fixtures/faults
perf record -q -d -e page-faults:u -c 1 -o faults.data -- /mycl-fixtures/faults
