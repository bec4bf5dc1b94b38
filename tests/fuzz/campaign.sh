#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A long fuzzing campaign: each target of common.sh runs for SECONDS with
# libFuzzer's -fork mode over JOBS processes, its corpus kept in OUTDIR
# across runs (start again with the same OUTDIR to go on), crashes kept as
# OUTDIR/work-TARGET/crash-*.  The executions of every run are added up in
# OUTDIR/counts: target, runs, executions, crashes.  A crash found is to be
# minimised into tests/fuzz/regress/ (see its README) and fixed.
# usage: campaign.sh OUTDIR SECONDS [JOBS [TARGET...]]
set -u
out=$1; secs=$2; jobs=${3:-1}
[ $# -gt 3 ] && shift 3 || set --
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "$out" && cd "$out" && pwd)
. "$top/tests/fuzz/common.sh"
[ $# -gt 0 ] && fuzz_targets="$*"
: > "$out/build.log"
fuzz_build || exit 77
touch "$out/counts"
for target in $fuzz_targets; do
	w="$out/work-$target"
	mkdir -p "$w/corpus"
	[ -n "$(ls "$w/corpus")" ] || fuzz_seeds $target "$w/corpus"
	dict=$(fuzz_dict $target)
	log="$w/run-$(date +%Y%m%d-%H%M%S).log"
	(cd "$w" && env $(fuzz_env) "$out/$target" -fork=$jobs -ignore_crashes=1 \
		-max_total_time=$secs -max_len=$(fuzz_maxlen $target) -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 ${dict:+-dict=$dict} corpus > "$log" 2>&1)
	# -fork prints "#N: cov: ... exec/s: ... " lines with the running total of executions
	execs=$(grep -o "^#[0-9]*" "$log" | tail -1 | tr -d '#')
	crashes=$(ls "$w" | grep -c '^crash-\|^leak-\|^timeout-\|^oom-')
	echo "$target 1 ${execs:-0} $crashes" >> "$out/counts"
	echo "$target: ${execs:-0} executions in $secs s, $crashes crash files in $w"
done
echo "totals over every run (target runs executions crash-files):"
awk '{r[$1] += $2; e[$1] += $3; c[$1] = $4} END {for (t in r) print t, r[t], e[t], c[t]}' \
	"$out/counts" | sort
