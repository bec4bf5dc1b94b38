#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Bounded memory on a huge recording: records the whole machine with call
# graphs (perf record -a -g -F 20000, kernel samples) while a busy
# multi-process workload runs (archivers, compressors, sorts, Python and shell
# loops, a fork-and-exec churn of short processes), until the file reaches
# SIZE (default 2G), then runs mycl-hot in every view and prints the time and
# peak RSS of each (goal: under 300 MB in every view).  The recording is kept
# in WORKDIR and reused when it is there.
# usage: bigfile.sh MYCL_HOT [WORKDIR [SIZE]]
set -u
hot=$1; work=${2:-/tmp/mycl-bigfile}; size=${3:-2G}
mkdir -p "$work"
data="$work/big.data"
if [ ! -s "$data" ]; then
	pids=""
	for i in 1 2; do
		sh -c 'while :; do tar cf - /usr/lib/x86_64-linux-gnu 2>/dev/null | gzip -1 | wc -c; done' > /dev/null 2>&1 &
		pids="$pids $!"
	done
	sh -c 'while :; do head -c 20000000 /dev/urandom | od -An -tx8 | sort | uniq -c | tail -1; done' > /dev/null 2>&1 &
	pids="$pids $!"
	python3 -c '
import hashlib, json
d = {}
while True:
    for i in range(200000):
        d[i % 5000] = hashlib.sha1(str(i).encode()).hexdigest()
    json.dumps(d)' > /dev/null 2>&1 &
	pids="$pids $!"
	sh -c 'while :; do for f in /usr/bin/*; do basename "$f" | md5sum; done; done' > /dev/null 2>&1 &
	pids="$pids $!"
	sleep 2
	perf record -q -a -g -F 20000 --max-size="$size" -o "$data" -- sleep 3600 2> "$work/record.err"
	for p in $pids; do pkill -P "$p" 2>/dev/null; kill "$p" 2>/dev/null; done
	wait 2>/dev/null
fi
ls -la "$data"
perf report -i "$data" --stats 2>/dev/null | grep -E "TOTAL|SAMPLE " | head -3
printf '%-22s %9s %12s\n' view seconds "peak RSS MB"
for view in "" "-g" "--children" "--children -g" "--folded" "--locks" "--annotate=3" "--format json" "-g --format json"; do
	/usr/bin/time -f "%e %M" -o "$work/time" "$hot" $view "$data" > /dev/null 2> "$work/err" || { echo "${view:-flat}: failed: $(tail -2 "$work/err")"; continue; }
	set -- $(cat "$work/time")
	printf '%-22s %9s %12d\n' "${view:-flat}" "$1" $(($2 / 1024))
done
