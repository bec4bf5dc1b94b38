#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates mycl-share's ground-truth programs from truth.c: gcc and clang,
# -O0 and -O2, PIE, non-PIE and static (Debian 12's gcc 12 and clang 14).
set -eu
cd "$(dirname "$0")"
for cc in gcc clang; do
	for o in -O0 -O2; do
		"$cc" "$o" -g -pthread -o "truth.$cc$o" truth.c
	done
done
gcc -O2 -g -pthread -fno-pie -no-pie -o truth.nopie truth.c
gcc -O2 -g -pthread -static -o truth.static truth.c
strip -g truth.static	# under 1 MB: its symbols stay, its debug info goes
ls -l truth.*
