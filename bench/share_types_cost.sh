#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What mycl-share --types adds to the globals' analysis on each BINARY (built
# with debug info: build_postgres.sh, types_redis.sh's redis-server,
# build_mariadb.sh's mariadbd): wall
# time and peak RSS, best of RUNS, on every CPU the process may use, with the
# types' walk on the calling thread alone (MYCL_TYPE_THREADS=off) and pinned
# to one CPU; prints a row per binary and setting.  Asserts nothing (the
# machine decides the times).  Never run by CI.
# usage: share_types_cost.sh MYCL_SHARE [RUNS] BINARY...
set -eu
share=$1
runs=$2
case "$runs" in ''|*[!0-9]*) runs=5 ;; *) shift ;; esac
shift
best() {
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f "%e %M" "$@" 2>&1 > /dev/null | tail -1
		i=$((i + 1))
	done | sort -n | head -1
}
printf '%-24s %-10s %16s %16s %10s\n' binary cpus globals "with --types" added
for b in "$@"; do
	for mode in all off one; do
		pin=""
		[ "$mode" = one ] && pin="taskset -c 0"
		g=$(best $pin "$share" -q "$b")
		t=$(MYCL_TYPE_THREADS=$([ "$mode" = off ] && echo off || echo "") best $pin "$share" -q --types "$b")
		echo "$(basename "$b") $mode $g $t" | awk '{printf "%-24s %-10s %7.2f s %5d MB %7.2f s %5d MB %7.2f s\n",
			$1, $2 == "all" ? "all" : $2 == "off" ? "all,off" : "1", $3, $4 / 1024, $5, $6 / 1024, $5 - $3}'
	done
done
