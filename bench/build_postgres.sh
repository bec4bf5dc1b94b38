#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# PostgreSQL from Debian 12's source package, built with full debug info
# (-O2 -g, frame pointers kept) into PREFIX, for the analyses that need DWARF
# types (data types, false sharing inside structs).  Debian's own binaries
# carry no DWARF, and the debug archive (bookworm-debug) is not reachable
# from every machine.  Never run by CI.
# usage: build_postgres.sh [WORKDIR] [PREFIX]
set -eu
work=${1:-/tmp/mycl-pg-src}
prefix=${2:-/tmp/mycl-pg}
if [ ! -f /etc/apt/sources.list.d/mycl-src.sources ] && ! apt-get source --print-uris -qq postgresql-15 > /dev/null 2>&1; then
	printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		> /etc/apt/sources.list.d/mycl-src.sources
	apt-get update -qq
fi
mkdir -p "$work"
cd "$work"
[ -n "$(ls -d postgresql-15*/ 2>/dev/null)" ] || apt-get source -qq postgresql-15 > /dev/null 2>&1
cd postgresql-15*/
if [ ! -f config.status ]; then
	./configure --prefix="$prefix" --enable-debug --without-icu --without-readline \
		--without-zlib CFLAGS="-O2 -g -fno-omit-frame-pointer" > configure.log 2>&1
fi
make -j"$(nproc)" -s > make.log 2>&1
make -s install > install.log 2>&1
echo "built: $prefix/bin/postgres"
