#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates mycl-diff's ground truth: blockcodec.c built twice, the new build
# doing checksum_block's work twice (-DSLOW_CHECKSUM), each recorded doing the
# same work (run as root on an x86_64 Debian 12 machine where perf record -e
# cpu-clock works, with the machine otherwise idle).  The builds go to the
# paths the recordings name and are copied under ../symfs for --symfs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
for v in base new; do
	mkdir -p "/mycl-fixtures/diff-$v" "$here/../symfs/mycl-fixtures/diff-$v"
done
cc="gcc -O2 -g -fno-omit-frame-pointer"
$cc -o /mycl-fixtures/diff-base/blockcodec "$here/blockcodec.c"
$cc -DSLOW_CHECKSUM -o /mycl-fixtures/diff-new/blockcodec "$here/blockcodec.c"
for v in base new; do
	cp "/mycl-fixtures/diff-$v/blockcodec" "$here/../symfs/mycl-fixtures/diff-$v/"
	perf record -q -e cpu-clock:u -F 2000 -o "$here/$v.data" -- \
		"/mycl-fixtures/diff-$v/blockcodec" 16000 > /dev/null
done
chmod 644 "$here"/*.data
ls -l "$here"/*.data
