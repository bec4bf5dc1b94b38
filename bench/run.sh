#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Speed and memory of mycl-hot against perf report on the same large recording
# (>= 200 MB, >= 1 M samples with call chains).  Prints wall time and peak RSS
# of each and their ratios.  Not a test: numbers depend on the machine.
# usage: bench/run.sh [BUILD_DIR] [RECORDING]   (records one when none is given)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
data=${2:-$build/bench.data}
hot=$build/tools/mycl-hot
if [ ! -s "$data" ]; then
	echo "recording $data (-g, deep stacks, 25 s)..."
	perf record -q -g -e cpu-clock -F 25000 -o "$data" -- "$build/bench/deepstack" 25 > /dev/null
fi
size=$(du -m "$data" | cut -f1)
samples=$(perf report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
echo "recording: $data, $size MB, $samples samples"

measure() { # label, command...: runs twice (warm cache), reports the second run
	label=$1; shift
	"$@" > /dev/null 2>&1 || true
	/usr/bin/time -f "%e %M" -o "$build/bench.time" "$@" > /dev/null 2>&1 || true
	read -r wall rss < "$build/bench.time"
	echo "$label: ${wall} s, $((rss / 1024)) MB peak RSS"
	eval "${label}_wall=$wall ${label}_rss=$rss"
}
measure perf perf report -i "$data" --stdio --no-children -g none --sort comm,dso,sym
measure mycl "$hot" -q "$data"
awk -v pw="$perf_wall" -v mw="$mycl_wall" -v pr="$perf_rss" -v mr="$mycl_rss" 'BEGIN {
	printf "mycl-hot vs perf report: %.1fx faster, %.2fx the memory\n",
		(mw > 0 ? pw / mw : 0), (pr > 0 ? mr / pr : 0) }'
