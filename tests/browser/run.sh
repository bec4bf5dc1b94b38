#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The flame graph and the HTML page in headless Chromium (flame.mjs), on two
# fixtures: a frame-pointer profile and a lock-heavy one.  Screenshots are kept
# in OUTDIR.  Needs Debian's chromium and the npm packages of package.json
# (.ci/test-setup installs both).
# The page's heat map (heatmap.mjs): a drag over its cells against mycl-hot --time.
# Then mycl-diff's differential flame graph of tests/data/diff the same way.
# usage: run.sh MYCL_HOT MYCL_DIFF DATA_DIR OUTDIR
set -u
hot=$1; diff=$2; data=$3; out=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ ! -x /usr/bin/chromium ] || [ ! -d "$here/node_modules/playwright-core" ]; then
	echo "needs /usr/bin/chromium and $here/node_modules (run .ci/test-setup)"
	exit 1
fi
rc=0
for spec in "hotloop.g.data mix_hash" "locks/ttas.fp.data relax_for"; do
	set -- $spec
	name=$(basename "$1" .data)
	"$hot" --symfs "$data/symfs" "$data/$1" --folded > "$out/$name.folded" || rc=1
	"$hot" --symfs "$data/symfs" "$data/$1" --flamegraph "$out/$name.svg" \
		--html "$out/$name.html" > /dev/null || rc=1
	mkdir -p "$out/$name"
	echo "# $1"
	(cd "$here" && node flame.mjs "$out/$name.svg" "$out/$name.folded" "$2" "$out/$name" \
		"$out/$name.html") || rc=1
done
echo "# the heat map of hotloop.g.data's page"
"$hot" --symfs "$data/symfs" "$data/hotloop.g.data" --html "$out/heat.html" > /dev/null || rc=1
(cd "$here" && node heatmap.mjs "$hot" "$data/hotloop.g.data" "$out/heat.html" "$out" "$data/symfs") || rc=1
echo "# diff/base.data -> diff/new.data"
"$hot" --symfs "$data/symfs" "$data/diff/new.data" --folded > "$out/diff-new.folded" || rc=1
"$diff" --symfs "$data/symfs" "$data/diff/base.data" "$data/diff/new.data" \
	--flamegraph "$out/diff.svg" > /dev/null || rc=1
mkdir -p "$out/diff"
(cd "$here" && node flame.mjs "$out/diff.svg" "$out/diff-new.folded" checksum_block "$out/diff") || rc=1
exit $rc
