#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Data types on a second threaded server: Redis 7 from Debian 12's source
# package, built with -O2 -g (frame pointers kept) and run with two I/O
# threads on a private socket, under its own redis-benchmark; recorded
# system-wide with cpu-clock, then mycl-hot --sort typeoff and the annotation
# of the I/O thread's loop.  The server is stopped at the end.  Prints;
# asserts nothing.  Never run by CI.
# usage: types_redis.sh MYCL_HOT [WORKDIR] [SECONDS]
set -eu
hot=$1
work=${2:-/tmp/mycl-redis}
secs=${3:-12}
mkdir -p "$work"
cd "$work"
if [ ! -x redis/src/redis-server ]; then
	[ -n "$(ls -d redis-7*/ 2>/dev/null)" ] || apt-get source -qq redis > /dev/null 2>&1 ||
		{ tar xzf redis_*.orig.tar.gz; }
	rm -rf redis && mv "$(ls -d redis-7*/ | head -1)" redis
	make -C redis -j"$(nproc)" MALLOC=libc OPTIMIZATION=-O2 \
		CFLAGS="-g -fno-omit-frame-pointer" BUILD_TLS=no USE_SYSTEMD=no > build.log 2>&1
fi
r=$work/redis/src
rm -rf run && mkdir run
"$r/redis-server" --port 0 --unixsocket "$work/run/r.sock" --dir "$work/run" --save "" \
	--appendonly no --io-threads 2 --io-threads-do-reads yes --daemonize yes \
	--pidfile "$work/run/r.pid" --logfile "$work/run/log"
trap 'kill "$(cat "$work/run/r.pid")" 2> /dev/null || true' EXIT
sleep 1
perf record -q -a -g -e cpu-clock -F 999 -o "$work/run/rd.data" -- sleep "$secs" &
rec=$!
"$r/redis-benchmark" -s "$work/run/r.sock" -c 40 -n 300000 -t set,get,incr,lpush -P 4 -q \
	2>&1 | tr '\r' '\n' | grep "requests per second" || true
wait $rec
"$hot" -q --comm redis-server,io_thd_1,io_thd_2 --sort typeoff --percent-limit 0.5 \
	"$work/run/rd.data"
"$hot" -q --comm io_thd_1 --annotate=IOThreadMain --annotate-context 3 "$work/run/rd.data" |
	sed -n '/^# Annotation/,$p' | head -40
