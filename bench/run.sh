#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Speed and memory of mycl-hot against perf report on the same large recording
# of one process (>= 200 MB, >= 1 M samples with call chains), then on
# system-wide recordings of MariaDB (bench/system_wide.py).  Prints wall time and peak RSS
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

measure() { # label, command...: one warm-up run, then the median wall time of 5 and the peak RSS
	label=$1; shift
	"$@" > /dev/null 2>&1 || true
	walls=""
	for _ in 1 2 3 4 5; do
		t0=$(date +%s%N)
		"$@" > /dev/null 2>&1 || true
		t1=$(date +%s%N)
		walls="$walls $(( (t1 - t0) / 1000 ))"
	done
	wall=$(echo $walls | tr ' ' '\n' | sort -n | sed -n 3p | awk '{ printf "%.3f", $1 / 1e6 }')
	/usr/bin/time -f "%M" -o "$build/bench.time" "$@" > /dev/null 2>&1 || true
	rss=$(tail -1 "$build/bench.time")
	echo "$label: ${wall} s (median of 5), $((rss / 1024)) MB peak RSS"
	eval "${label}_wall=$wall ${label}_rss=$rss"
}
ratio() { # title, perf label, mycl label
	eval "pw=\$${2}_wall pr=\$${2}_rss mw=\$${3}_wall mr=\$${3}_rss"
	awk -v t="$1" -v pw="$pw" -v mw="$mw" -v pr="$pr" -v mr="$mr" 'BEGIN {
		printf "%s: %.1fx faster, %.2fx the memory\n", t,
			(mw > 0 ? pw / mw : 0), (pr > 0 ? mr / pr : 0) }'
}
echo "== flat profile"
measure perf perf report -i "$data" --stdio --no-children -g none --sort comm,dso,sym
measure mycl "$hot" -q "$data"
ratio "mycl-hot vs perf report" perf mycl
echo "== call graphs"
measure perfg perf report -i "$data" --stdio --no-children --sort comm,dso,sym
measure myclg "$hot" -q -g "$data"
ratio "mycl-hot -g vs perf report -g" perfg myclg
echo "== folded stacks"
measure perfs perf script -i "$data"
measure myclf "$hot" -q --folded "$data"
ratio "mycl-hot --folded vs perf script" perfs myclf
echo "== annotation of the 10 hottest functions (on top of the flat profile)"
measure myclflat "$hot" -q "$data"
measure myclann "$hot" -q --annotate=10 "$data"
awk -v a="$myclann_wall" -v f="$myclflat_wall" 'BEGIN { printf "annotating 10 functions adds %.2f s\n", a - f }'
sym=$("$hot" -q --format json --max-rows 1 "$data" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"][0]["rows"][0]["symbol"])')
measure perfann perf annotate -i "$data" --stdio -s "$sym"
echo "(perf annotate of one function, $sym: ${perfann_wall} s)"
echo "== mycl-share on Debian's mariadbd (when installed; the goal is under 1.5 s and 300 MB)"
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
if [ -x "$mariadbd" ]; then
	measure share "$build/tools/mycl-share" --debug-dir "" "$mariadbd"
	measure readelf readelf -sW "$mariadbd"
	ratio "readelf -sW (symbols only) vs mycl-share (disassembly of every function)" share readelf
else
	echo "skip: mariadbd is not installed"
fi
echo "== system-wide recordings of MariaDB under sysbench (small, large, DWARF stacks), with hotspot"
if [ -x /usr/sbin/mariadbd ] && command -v sysbench > /dev/null; then
	python3 "$top/bench/system_wide.py" "$hot" "$build/system-wide"
else
	echo "skip: mariadb-server and sysbench are needed"
fi
echo "== mycl-share's ranking against what MariaDB and Redis really run (two recordings each)"
if [ -x /usr/sbin/mariadbd ] && command -v sysbench > /dev/null; then
	python3 "$top/bench/share_precision.py" "$build" "$build/share-precision"
else
	echo "skip: mariadb-server and sysbench are needed"
fi
echo "== what false sharing costs here (two threads on two CPUs, one line vs 256 bytes apart)"
"$build/bench/falseshare"
