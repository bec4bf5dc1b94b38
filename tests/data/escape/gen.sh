#!/bin/sh
# Regenerates esc.data: esc.c run from a file whose name holds an escape
# sequence (deleted afterwards, so the report names it missing), recorded with
# frame pointers.  The binary is kept as symfs/esc-binary for the symbols.
set -eu
cd "$(dirname "$0")"
clang -O1 -g -fno-omit-frame-pointer -o esc-binary esc.c
name=$(printf '/tmp/mycl-esc-\033[1mbin')
cp esc-binary "$name"
rm -f esc.data esc.data.old
perf record -q -F 2000 -g -o esc.data -- "$name" 0.3 > /dev/null
rm -f "$name"
# The binary where mycl-hot looks by build-id (--buildid-dir), since its
# recorded name cannot be a file of the tree.
id=$(readelf -n esc-binary | awk '/Build ID/ {print $3}')
rm -rf buildid && mkdir -p "buildid/.build-id/$(echo "$id" | cut -c1-2)"
mkdir -p "buildid/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)"
mv esc-binary "buildid/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)/elf"

# md.data: md.c, whose thread name is markdown and HTML, run from a binary whose
# name is too ('/tmp/mycl-md-<b>[x](y)'); its symbols are not needed.
cc -O1 -o md-binary md.c
name='/tmp/mycl-md-<b>[x](y)'
cp md-binary "$name"
rm -f md.data md.data.old
perf record -q -F 2000 -o md.data -- "$name" 100000000 > /dev/null
rm -f "$name" md-binary
