#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds the reader's libFuzzer target with clang and runs it for a bounded
# time, seeded with the committed recordings.  Exit 77 when clang cannot
# build fuzzers here; 1 when the fuzzer found a crash (kept in OUTDIR).
# usage: run.sh OUTDIR SECONDS
set -u
out=$1; secs=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/corpus"
python3 "$top/src/embed.py" "$top/data/lock-rules.txt" "$out/lock_rules.c" mycl_default_lock_rules
if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-D_GNU_SOURCE -std=gnu11 -I"$top/include" -I"$top/src" \
	"$top/tests/fuzz/fuzz_perf_data.c" "$top"/src/*.c "$out/lock_rules.c" \
	-lelf -ldw -lzstd -lstdc++ -lcapstone -ltraceevent -o "$out/fuzz_perf_data" 2> "$out/build.log"; then
	echo "fuzz: SKIP, clang cannot build the fuzzer:"; tail -3 "$out/build.log"
	exit 77
fi
cp "$top"/tests/data/*.data "$out/corpus/"
cd "$out" && ./fuzz_perf_data -max_total_time="$secs" -max_len=65536 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 corpus > fuzz.log 2>&1
rc=$?
tail -4 fuzz.log
if [ $rc != 0 ]; then
	echo "fuzz: FAIL (exit $rc), see $out/fuzz.log"; grep -A20 "ERROR" fuzz.log | head -30
	exit 1
fi
echo "fuzz: ok, no crash in $secs s"
