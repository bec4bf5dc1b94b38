#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A long fuzzing campaign: each target of common.sh runs for SECONDS in JOBS
# libFuzzer processes side by side, sharing one corpus kept in OUTDIR across
# runs (start again with the same OUTDIR to go on); crashes, leaks and
# timeouts are kept as OUTDIR/work-TARGET/crash-* (timeout-*, leak-*), and a
# process that stopped on one starts again until SECONDS are over.  The
# executions of every run are added up in OUTDIR/counts: target, runs,
# executions, crash files.  A crash found is to be minimised into
# tests/fuzz/regress/ (see its README) and fixed.
# Plain processes, not -fork: a -fork child executes its share of the corpus
# before it mutates, again for every child, and ran 5-8 times fewer new
# inputs a second on these targets (fuzz_share 40-70 against 380).
# usage: campaign.sh OUTDIR SECONDS [JOBS [TARGET...]]
set -u
out=$1; secs=$2; jobs=${3:-1}
[ $# -gt 3 ] && shift 3 || set --
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "$out" && cd "$out" && pwd)
. "$top/tests/fuzz/common.sh"
fuzz_env
[ $# -gt 0 ] && fuzz_targets="$*"
: > "$out/build.log"
fuzz_build || exit 77
touch "$out/counts"

# One process of TARGET in W until END (seconds since the epoch), started
# again after a crash; prints the executions it made.
fuzz_job() {
	target=$1; w=$2; end=$3; n=$4; total=0
	while left=$((end - $(date +%s))); [ "$left" -gt 5 ]; do
		log="$w/run-$(date +%Y%m%d-%H%M%S)-$n.log"
		(cd "$w" && "$out/$target" -max_total_time=$left \
			-max_len=$(fuzz_maxlen $target) -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$w/" -print_final_stats=1 ${dict:+"-dict=$dict"} corpus \
			> "$log" 2>&1)
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		[ -n "$runs" ] || runs=$(grep -o "^#[0-9]*" "$log" | tail -1 | tr -d '#')
		total=$((total + ${runs:-0}))
	done
	echo "$total"
}

for target in $fuzz_targets; do
	w="$out/work-$target"
	mkdir -p "$w/corpus"
	[ -n "$(ls "$w/corpus")" ] || fuzz_seeds $target "$w/corpus"
	dict=$(fuzz_dict $target)
	end=$(($(date +%s) + secs))
	for n in $(seq 1 "$jobs"); do
		fuzz_job $target "$w" $end $n > "$w/job-$n.count" &
	done
	wait
	execs=$(cat "$w"/job-*.count | awk '{s += $1} END {print s + 0}')
	rm -f "$w"/job-*.count
	crashes=$(ls "$w" | grep -c '^crash-\|^leak-\|^timeout-\|^oom-')
	echo "$target 1 $execs $crashes" >> "$out/counts"
	echo "$target: $execs executions in $secs s, $jobs processes, $crashes crash files in $w"
done
echo "totals over every run (target runs executions crash-files):"
awk '{r[$1] += $2; e[$1] += $3; c[$1] = $4} END {for (t in r) print t, r[t], e[t], c[t]}' \
	"$out/counts" | sort
