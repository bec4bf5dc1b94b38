#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds the libFuzzer targets with clang (the reader; the analyses after it;
# mycl-share on ELF binaries) and runs each for SECONDS / 3, seeded with the
# committed recordings and ground-truth programs.  Exit 77
# when clang cannot build fuzzers here; 1 when a fuzzer found a crash (kept in
# OUTDIR).
# usage: run.sh OUTDIR SECONDS   (FUZZ_SEED=N: libFuzzer's seed, default 1 so that
# CI runs are repeatable; FUZZ_SEED=0 lets libFuzzer pick one)
set -u
out=$1; secs=$2; seed=${FUZZ_SEED:-1}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/corpus"
python3 "$top/src/embed.py" "$top/data/lock-rules.txt" "$out/lock_rules.c" mycl_default_lock_rules
status=0
targets="fuzz_perf_data fuzz_profile fuzz_share"
for target in $targets; do
	if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -std=gnu11 -I"$top/include" $(for d in "$top"/src/*/; do printf ' -I%s' "$d"; done) \
		"$top/tests/fuzz/$target.c" "$top"/src/*/*.c "$out/lock_rules.c" \
		-lelf -ldw -lzstd -lstdc++ -lcapstone -ltraceevent -lm -o "$out/$target" 2> "$out/build.log"; then
		echo "fuzz: SKIP, clang cannot build the fuzzer:"; tail -3 "$out/build.log"
		exit 77
	fi
	mkdir -p "$out/corpus-$target"
	if [ $target = fuzz_share ]; then
		# the ground truth of every architecture, the statically linked one left out (856 KB)
		for f in "$top"/tests/data/share/truth.* "$top"/tests/data/share/server.* \
			 "$top"/tests/data/cross/globals.*; do
			case $f in *.c|*.cc|*.static) ;; *) cp "$f" "$out/corpus-$target/" ;; esac
		done
		maxlen=131072
	else
		cp "$top"/tests/data/*.data "$out/corpus-$target/"
		cp "$top"/tests/data/locks/*.fp.data "$top"/tests/data/locks/*.waits.data "$out/corpus-$target/"
		cp "$top"/tests/fuzz/regress/*.bin "$out/corpus-$target/"
		maxlen=65536
	fi
	(cd "$out" && MYCL_FUZZ_SYMFS="$top/tests/data/symfs" ./$target -seed=$seed -max_total_time=$((secs / 3)) -max_len=$maxlen -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "corpus-$target" > "$target.log" 2>&1)
	rc=$?
	tail -2 "$out/$target.log"
	if [ $rc != 0 ]; then
		echo "fuzz: $target FAIL (exit $rc), see $out/$target.log"
		grep -E -A25 "ERROR|runtime error" "$out/$target.log" | head -40
		status=1
	fi
done
[ $status = 0 ] && echo "fuzz: ok, no crash in $secs s"
exit $status
