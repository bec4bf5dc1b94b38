#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# MariaDB's server (mariadbd) from Debian 12's source package, built with full
# debug info (-O2 -g, frame pointers kept) in WORKDIR, for the analyses that
# need DWARF types (data types, false sharing inside structs).  Debian's own
# mariadbd carries no DWARF, and the debug archive (bookworm-debug) is not
# reachable from every machine.  Only the server is built, with the engines
# Debian builds into it; the plugins built as modules are left out.  About an
# hour on two CPUs, 6 GB of disk.  Never run by CI.
# usage: build_mariadb.sh [WORKDIR]
set -eu
work=${1:-/tmp/mycl-maria-src}
if [ ! -f /etc/apt/sources.list.d/mycl-src.sources ] && ! apt-get source --print-uris -qq mariadb > /dev/null 2>&1; then
	printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		> /etc/apt/sources.list.d/mycl-src.sources
	apt-get update -qq
fi
for p in bison cmake ninja-build libfmt-dev libpcre2-dev libssl-dev libncurses-dev zlib1g-dev; do
	dpkg -s "$p" > /dev/null 2>&1 || missing="${missing:-} $p"
done
[ -z "${missing:-}" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing > /dev/null
mkdir -p "$work"
cd "$work"
[ -n "$(ls -d mariadb-10*/ 2>/dev/null)" ] || apt-get source -qq mariadb > /dev/null 2>&1
cd mariadb-10*/
mkdir -p build
cd build
if [ ! -f build.ninja ]; then
	rm -f CMakeCache.txt
	cmake .. -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_C_FLAGS="-fno-omit-frame-pointer" -DCMAKE_CXX_FLAGS="-fno-omit-frame-pointer" \
		-DWITH_SSL=system -DWITH_PCRE=system -DWITH_ZLIB=system -DWITH_LIBFMT=system -DWITH_UNIT_TESTS=OFF \
		-DPLUGIN_ROCKSDB=NO -DPLUGIN_MROONGA=NO -DPLUGIN_SPIDER=NO -DPLUGIN_CONNECT=NO \
		-DPLUGIN_OQGRAPH=NO -DPLUGIN_SPHINX=NO -DPLUGIN_COLUMNSTORE=NO -DPLUGIN_S3=NO \
		-DPLUGIN_TOKUDB=NO > cmake.log 2>&1
fi
ninja -j"$(nproc)" mariadbd > ninja.log 2>&1
echo "built: $PWD/sql/mariadbd"
