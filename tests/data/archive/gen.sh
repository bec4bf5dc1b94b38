#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates the perf archive fixture (root, x86_64 Debian 12, perf record -e
# cpu-clock working): ledger.c built static with gcc -O2 -g, its debug info
# split off (objcopy --only-keep-debug) and the binary stripped, as a distro
# ships it; recorded (user samples only, frame pointers) from a directory that
# is removed afterwards, so the recorded path exists nowhere; then `perf
# archive` with a private build-id cache.  ledger.tar.bz2 holds
# PATH/BUILD-ID/elf (stripped) and PATH/BUILD-ID/debug: what the recording's
# symbols and source lines can come from.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/mycl-archive-XXXXXX)
cache="$work/cache"
trap 'rm -rf "$work"; rm -f "$dbg"' EXIT
dbg=
gcc -O2 -g -fno-omit-frame-pointer -static -o "$work/ledger" "$here/ledger.c"
bid=$(readelf -n "$work/ledger" | awk '/Build ID/ {print $3}')
dbg=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
mkdir -p "$(dirname "$dbg")"
objcopy --only-keep-debug "$work/ledger" "$dbg"
strip --strip-all "$work/ledger"
cd "$here"
rm -f ledger.data ledger.tar.bz2
perf --buildid-dir "$cache" record -q -g -e cpu-clock:u -F 999 -o ledger.data -- "$work/ledger" 1500 >/dev/null
perf --buildid-dir "$cache" archive ledger.data >/dev/null
mv ledger.data.tar.bz2 ledger.tar.bz2
chmod 644 ledger.data ledger.tar.bz2
tar tvjf ledger.tar.bz2
ls -l ledger.data ledger.tar.bz2
