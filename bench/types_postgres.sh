#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Data types on a real server: PostgreSQL built with full debug info
# (build_postgres.sh) under pgbench, recorded system-wide with cpu-clock; then
# mycl-hot --sort type and typeoff on the postgres processes, the annotation
# of the hottest function with its members, and the time each view takes
# beside the flat profile.  The server runs on a private socket and data
# directory and is stopped at the end.  Prints; asserts nothing (load decides
# what a recording holds).  Never run by CI.  RECORD replaces the recording's
# event options: RECORD="-d -e page-faults -c 1" with pgbench -C (a backend
# per transaction, each faulting on its globals and the shared memory) gives
# samples with data addresses, which --sort typeoff checks the code against.
# usage: [RECORD=...] types_postgres.sh MYCL_HOT [PREFIX] [WORKDIR] [SECONDS] [pgbench args...]
set -eu
hot=$1
prefix=${2:-/tmp/mycl-pg}
work=${3:-/tmp/mycl-pg-types}
secs=${4:-15}
shift $(( $# < 4 ? $# : 4 ))
load=${*:--S -c 8 -j 2}
rm -rf "$work"
mkdir -p "$work"
chown -R nobody "$work" 2>/dev/null || true
as() { su -s /bin/sh nobody -c "$*"; }
as "'$prefix/bin/initdb' -D '$work/db' -A trust -U postgres" > "$work/initdb.log"
as "'$prefix/bin/pg_ctl' -D '$work/db' -o \"-k '$work' -p 54329 -c listen_addresses='' -c shared_buffers=128MB\" -l '$work/pg.log' -w start" > /dev/null
trap 'as "\"$prefix/bin/pg_ctl\" -D \"$work/db\" -m fast stop" > /dev/null 2>&1 || true' EXIT
pgbench -h "$work" -p 54329 -U postgres -i -s 10 postgres > "$work/init.log" 2>&1
perf record -q -a ${RECORD:--g -e cpu-clock -F 999} -o "$work/pg.data" -- sleep "$secs" &
rec=$!
pgbench -h "$work" -p 54329 -U postgres -T "$secs" $load postgres > "$work/pgbench.log" 2>&1 || true
wait $rec
tail -3 "$work/pgbench.log"
for view in "" "--sort type" "--sort typeoff"; do
	start=$(date +%s.%N)
	"$hot" -q --comm postgres $view --percent-limit 0.5 "$work/pg.data" > "$work/view.txt"
	end=$(date +%s.%N)
	echo "== mycl-hot --comm postgres $view: $(echo "$end - $start" | bc) s"
	head -40 "$work/view.txt"
done
"$hot" -q --comm postgres --annotate=2 --annotate-context 3 "$work/pg.data" | sed -n '/^# Annotation/,$p' | head -120
