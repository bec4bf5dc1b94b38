#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Time on a real server: PostgreSQL (build_postgres.sh) under pgbench in three
# phases, 8 clients, then 1, then 8 again, recorded system-wide with
# cpu-clock and call graphs and, beside it, perf stat record -I 1000.  Then
# mycl-hot --time (against perf report --time's counts), the latency view
# and --sort parallelism, mycl-report --stat with its Over time strip, the
# HTML page's heat map, mycl-diff of the first and last phase (--time
# BASE:NEW) and of the stat recording's intervals.  The server runs on a
# private socket and data directory and is stopped at the end.  Prints;
# asserts nothing (load decides what a recording holds).  Never run by CI.
# usage: time_postgres.sh TOOLS_DIR [PREFIX] [WORKDIR] [SECONDS_PER_PHASE]
set -eu
tools=$1
prefix=${2:-/tmp/mycl-pg}
work=${3:-/tmp/mycl-pg-time}
secs=${4:-4}
rm -rf "$work"
mkdir -p "$work"
chown -R nobody "$work" 2>/dev/null || true
as() { su -s /bin/sh nobody -c "$*"; }
as "'$prefix/bin/initdb' -D '$work/db' -A trust -U postgres" > "$work/initdb.log"
as "'$prefix/bin/pg_ctl' -D '$work/db' -o \"-k '$work' -p 54330 -c listen_addresses='' -c shared_buffers=128MB\" -l '$work/pg.log' -w start" > /dev/null
trap 'as "\"$prefix/bin/pg_ctl\" -D \"$work/db\" -m fast stop" > /dev/null 2>&1 || true' EXIT
pgbench -h "$work" -p 54330 -U postgres -i -s 10 postgres > "$work/init.log" 2>&1
all=$((3 * secs + 1))
perf record -q -a -g -e cpu-clock -F 999 -o "$work/pg.data" -- sleep "$all" &
rec=$!
perf stat record -a -I 1000 -o "$work/stat.data" -- sleep "$all" > /dev/null 2>&1 &
st=$!
for c in 8 1 8; do
	pgbench -h "$work" -p 54330 -U postgres -T "$secs" -S -c $c -j $(( c > 1 ? 2 : 1 )) postgres \
		> "$work/pgbench-$c.log" 2>&1 || true
	grep tps "$work/pgbench-$c.log" | tail -1
done
wait $rec $st || true
d=$work/pg.data
echo "== --time against perf report --time (samples of cpu-clock)"
for t in 10%/1 33%/2 0%-30%,70%-100% 50%-100%; do
	m=$("$tools/mycl-hot" -q --format json --time "$t" "$d" | python3 -c \
		'import json,sys; print(sum(e["samples"] for e in json.load(sys.stdin)["events"]))')
	p=$(perf script -i "$d" --time "$t" -F time 2>/dev/null | wc -l)
	echo "--time $t: mycl $m, perf $p"
done
echo "== mycl-hot --latency --comm postgres (top 12)"
"$tools/mycl-hot" -q --latency --comm postgres --percent-limit 1 "$d" | sed -n '/Latency/,$p' | head -16
echo "== mycl-hot --sort parallelism"
"$tools/mycl-hot" -q --sort parallelism "$d"
echo "== mycl-report --stat: Over time and Counters"
"$tools/mycl-report" --no-share --stat "$work/stat.data" "$d" > "$work/report.txt"
sed -n '/== Over time ==/,/== Where the time goes ==/p' "$work/report.txt"
echo "== mycl-hot stat.data (the whole run)"
"$tools/mycl-hot" "$work/stat.data" | sed -n '/The whole run/,$p'
echo "== mycl-diff: the first phase against the last (--time 0%-30%:70%-100%)"
"$tools/mycl-diff" --time 0%-30%:70%-100% "$d" "$d" | head -12
"$tools/mycl-hot" -q --html "$work/page.html" "$d" > /dev/null && ls -la "$work/page.html"
