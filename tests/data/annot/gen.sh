#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates annot.data (run as root on x86_64 Debian 12): annot.c built by
# clang -O2 (DWARF without .debug_aranges), its binary under ../symfs, its
# samples in user space only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=/mycl-fixtures/annot
mkdir -p "$dir" "$here/../symfs$dir"
clang -O2 -g -o "$dir/annot" "$here/annot.c"
cp "$dir/annot" "$here/../symfs$dir/"
cd "$here"
perf record -q -e cpu-clock:u -F 997 -o annot.data -- "$dir/annot" > /dev/null
chmod 644 annot.data
