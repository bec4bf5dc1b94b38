#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Rust symbol names and how perf's demangler shows them (libiberty, not
# verbose: what `c++filt -i` prints): every name of two programs built in both
# of rustc's schemes (legacy and v0, with and without optimisation: their
# standard library's names too), and crafted.txt (constants, function
# pointers, dyn traits with bindings, closures, shims, escapes, punycode).
# Needs rustc and binutils' c++filt.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rustc -O -g "$here/hashing.rs" -o "$tmp/h"
rustc -O -g -C symbol-mangling-version=v0 "$here/hashing.rs" -o "$tmp/h0"
rustc -C opt-level=0 -g -C symbol-mangling-version=v0 "$here/shapes.rs" -o "$tmp/s0"
rustc -C opt-level=0 "$here/shapes.rs" -o "$tmp/s"
for b in h h0 s0 s; do nm "$tmp/$b"; done | awk '{print $NF}' | grep -E '^(_R|_ZN)' | sort -u > "$tmp/names"
cat "$here/crafted.txt" >> "$tmp/names"
c++filt -i < "$tmp/names" > "$tmp/shown"
# names perf leaves as they are (C++ ones, or not valid in either scheme) are not kept
paste "$tmp/names" "$tmp/shown" | awk -F'\t' '$1 != $2' > "$here/names.tsv"
wc -l "$here/names.tsv"
