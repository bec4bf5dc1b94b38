/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How a binary was built: build choices move a database's speed by 10-30%
 * and decide which perf record options work (frame pointers for -g).
 */
#ifndef MYCL_BUILD_H
#define MYCL_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_build_facts {
	uint16_t machine;		/* e_machine */
	char producer[512];		/* the most common DW_AT_producer; "" without DWARF */
	size_t nr_cus;			/* compile units that gave a producer */
	char comment[160];		/* first string of .comment ("GCC: (Debian 12.2.0-14) 12.2.0") */
	char compiler[160];		/* "GCC 12.2.0 (C17)", "clang 14.0.6", else the .comment */
	char flags[256];		/* -f, -m, -O, -g flags of the producer */
	char march[64];			/* -march=, "" when not given */
	int pie;			/* 1, 0, -1 unknown (a shared library) */
	int static_linked;		/* 1, 0, -1 unknown */
	int lto;			/* 1, 0, -1 unknown */
	bool debug_info;		/* DWARF in the binary or the debug file */
	int frame_pointers;		/* 1, 0, -1 unknown */
	bool fp_from_code;		/* decided from function entries, not from flags */
	double fp_share;		/* with fp_from_code: entries that set up a frame pointer */
	size_t fp_functions;		/* ... of this many functions (at most 2,000) */
};

/*
 * The facts of BINARY (its code, headers, .comment) and DEBUG_FILE (its
 * DWARF; may be NULL or the binary itself).  0, or -ENOENT when neither
 * opens as ELF.
 */
int mycl_build_facts(const char *binary, const char *debug_file, struct mycl_build_facts *out);

#ifdef __cplusplus
}
#endif
#endif
