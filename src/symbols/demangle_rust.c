/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Rust symbol names, shown as perf shows them (its demangler without the
 * verbose option): libiberty's rust_demangle, the one binutils and GCC
 * maintain, for both of rustc's schemes (legacy "_ZN...17h<hash>E", hash left
 * out; v0 "_R...", RFC 2603).  It refuses nesting past its recursion limit;
 * a name longer than 64 KiB (back-references can double one each time) is
 * refused here.
 */
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "symtab.h"

#define MAX_OUT (64 * 1024)

char *demangle_rust(const char *mangled)
{
	char *d;

	/* a legacy name ends its path with the hash "17h<16 hex digits>E": C++ names go by */
	if (strncmp(mangled, "_R", 2) && (strncmp(mangled, "_ZN", 3) || !strstr(mangled, "17h")))
		return NULL;
	d = rust_demangle(mangled, DMGL_NO_OPTS);
	if (d && strlen(d) > MAX_OUT) {
		free(d);
		return NULL;
	}
	return d;
}
