#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates deep.data: a frame-pointer chain 300 calls deep, recorded with
# the kernel's perf_event_max_stack raised to 400 for the recording (root;
# set back after), for --max-stack (perf report cuts at 127 frames).  The
# program is built to /mycl-fixtures/deeprec, the path the recording names,
# and copied under ../symfs/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p /mycl-fixtures "$here/../symfs/mycl-fixtures"
gcc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o /mycl-fixtures/deeprec \
	"$here/deeprec.c"
cp /mycl-fixtures/deeprec "$here/../symfs/mycl-fixtures/"
old=$(cat /proc/sys/kernel/perf_event_max_stack)
echo 400 > /proc/sys/kernel/perf_event_max_stack
perf record -q -e cpu-clock:u -F 300 -g -o "$here/deep.data" -- /mycl-fixtures/deeprec 300 0.3 || true
echo "$old" > /proc/sys/kernel/perf_event_max_stack
chmod 644 "$here/deep.data"
ls -l "$here/deep.data"
