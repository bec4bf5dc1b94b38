#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates the cross-architecture fixtures from globals.c with Debian 12's
# cross compilers (gcc-aarch64-linux-gnu, gcc-powerpc64le-linux-gnu,
# gcc-s390x-linux-gnu).
set -eu
cd "$(dirname "$0")"
for t in aarch64-linux-gnu powerpc64le-linux-gnu s390x-linux-gnu; do
	"$t-gcc" -O2 -g -nostdlib -static -fno-pie -no-pie -fno-toplevel-reorder \
		-o "globals.${t%%-*}" globals.c
done
ls -l globals.*
