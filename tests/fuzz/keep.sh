#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Keeps what a campaign grew: merges OUTDIR/work-TARGET/corpus into the
# committed tests/fuzz/corpus/TARGET.tar.zst with libFuzzer's -merge=1 (only
# inputs that add coverage are kept; zstd makes a few MB of perf.data inputs
# a few hundred KB; --long=27 finds the repeats between inputs far apart), using
# the targets campaign.sh built in OUTDIR.  The next
# campaign and run.sh start from it (common.sh's fuzz_seeds).
# usage: keep.sh OUTDIR [TARGET...]
set -u
out=$(cd "$1" && pwd); shift
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/fuzz/common.sh"
fuzz_env
[ $# -gt 0 ] && fuzz_targets="$*"
for target in $fuzz_targets; do
	[ -x "$out/$target" ] && [ -d "$out/work-$target/corpus" ] || continue
	keep="$top/tests/fuzz/corpus/$target.tar.zst"
	dir="$out/keep/$target"
	rm -rf "$dir" && mkdir -p "$dir"
	[ -f "$keep" ] && zstd -q -d -c "$keep" | tar xf - -C "$dir"
	before=$(ls "$dir" | wc -l)
	(cd "$out" && "./$target" -merge=1 -max_len=$(fuzz_maxlen $target) \
		-timeout=10 -rss_limit_mb=2048 "$dir" "work-$target/corpus" > "$out/keep-$target.log" 2>&1)
	mkdir -p "$(dirname "$keep")"
	(cd "$dir" && ls | LC_ALL=C sort | tar cf - --owner=0 --group=0 --mtime=@0 -T -) |
		zstd -q -19 --long=27 -c > "$keep"
	echo "$target: $before -> $(ls "$dir" | wc -l) inputs, $(wc -c < "$keep") bytes in $keep"
done
