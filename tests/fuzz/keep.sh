#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Keeps what a campaign grew: merges OUTDIR/work-TARGET/corpus into
# tests/fuzz/corpus/TARGET with libFuzzer's -merge=1 (only inputs that add
# coverage are copied, so the committed corpus stays small), using the
# targets campaign.sh built in OUTDIR.  The next campaign and run.sh start
# from it (common.sh's fuzz_seeds).
# usage: keep.sh OUTDIR [TARGET...]
set -u
out=$(cd "$1" && pwd); shift
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/fuzz/common.sh"
[ $# -gt 0 ] && fuzz_targets="$*"
for target in $fuzz_targets; do
	[ -x "$out/$target" ] && [ -d "$out/work-$target/corpus" ] || continue
	keep="$top/tests/fuzz/corpus/$target"
	mkdir -p "$keep"
	before=$(ls "$keep" | wc -l)
	(cd "$out" && env $(fuzz_env) "./$target" -merge=1 -max_len=$(fuzz_maxlen $target) \
		-timeout=10 -rss_limit_mb=2048 "$keep" "work-$target/corpus" > "$out/keep-$target.log" 2>&1)
	echo "$target: $before -> $(ls "$keep" | wc -l) inputs, $(du -sh "$keep" | cut -f1)"
done
