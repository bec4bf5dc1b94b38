#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# static.sh LD OBJCOPY AR INTERNAL.a OUT.a WORKDIR: OUT.a holds INTERNAL.a's
# objects merged into one relocatable object whose hidden (internal) symbols
# are local: only the API (MYCL_API, default visibility) stays global.
set -eu
ld=$1 objcopy=$2 ar=$3 in=$4 out=$5 work=$6
mkdir -p "$work"
"$ld" -r --whole-archive "$in" -o "$work/mycl.o"
"$objcopy" --localize-hidden "$work/mycl.o"
rm -f "$out"
"$ar" rcD "$out" "$work/mycl.o"
