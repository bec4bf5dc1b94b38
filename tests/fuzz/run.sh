#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds the libFuzzer targets with clang (ASan and UBSan; see common.sh for
# what each reads) and runs each for SECONDS divided among them, seeded with
# the committed recordings and binaries and the regression inputs.  Exit 77
# when clang cannot build fuzzers here; 1 when a fuzzer found a crash (kept in
# OUTDIR).  The long campaign is campaign.sh.
# usage: run.sh OUTDIR SECONDS   (FUZZ_SEED=N: libFuzzer's seed, default 1 so that
# CI runs are repeatable; FUZZ_SEED=0 lets libFuzzer pick one; FUZZ_CORPUS_MAX=N: at
# most N inputs of each campaign corpus, default 400, 0 for all; the seed picks which)
set -u
out=$1; secs=$2; seed=${FUZZ_SEED:-1}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/fuzz/common.sh"
fuzz_env
mkdir -p "$out"
out=$(cd "$out" && pwd)	# (the build compiles from inside it: a name from anywhere)
: > "$out/build.log"
fuzz_build || exit 77
status=0
n=$(echo $fuzz_targets | wc -w)
for target in $fuzz_targets; do
	rm -rf "$out/corpus-$target"
	FUZZ_CORPUS_MAX=${FUZZ_CORPUS_MAX:-400} fuzz_seeds $target "$out/corpus-$target"
	dict=$(fuzz_dict $target)
	touch "$out/.start-$target"
	(cd "$out" && ./$target -seed=$seed -max_total_time=$((secs / n)) \
		-max_len=$(fuzz_maxlen $target) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		${dict:+"-dict=$dict"} "corpus-$target" > "$target.log" 2>&1)
	rc=$?
	echo "$target: $(grep -h 'stat::number_of_executed_units' "$out/$target.log" | awk '{print $2}') runs"
	# A timeout (libFuzzer's exit 70) on a machine busy with other work is no hang when its
	# input, run again alone, ends within three times the limit: said, not failed.
	slow=$(find "$out" -maxdepth 1 -name 'timeout-*' -newer "$out/.start-$target" | head -1)
	if [ $rc = 70 ] && [ -n "$slow" ]; then
		t0=$(date +%s)
		if (cd "$out" && timeout 30 ./$target -runs=1 "$slow" > "$target.replay.log" 2>&1); then
			echo "fuzz: $target: a timeout while the machine was busy; its input ($slow) runs again in $(( $(date +%s) - t0 )) s: no hang"
			rc=0
		fi
	fi
	if [ $rc != 0 ]; then
		echo "fuzz: $target FAIL (exit $rc), see $out/$target.log"
		grep -E -A25 "ERROR|runtime error" "$out/$target.log" | head -40
		status=1
	fi
done
[ $status = 0 ] && echo "fuzz: ok, no crash in $secs s"
exit $status
