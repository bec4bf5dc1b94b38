#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The flame graph and the HTML page in headless Chromium (flame.mjs), on two
# fixtures: a frame-pointer profile and a lock-heavy one.  Screenshots are kept
# in OUTDIR.  Needs Debian's chromium and the npm packages of package.json
# (.ci/setup installs both).
# usage: run.sh MYCL_HOT DATA_DIR OUTDIR
set -u
hot=$1; data=$2; out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ ! -x /usr/bin/chromium ] || [ ! -d "$here/node_modules/playwright-core" ]; then
	echo "needs /usr/bin/chromium and $here/node_modules (run .ci/setup)"
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
exit $rc
