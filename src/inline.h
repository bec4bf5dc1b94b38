/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Inlined functions at an address, from DWARF (DW_TAG_inlined_subroutine
 * scopes), innermost first, cached per (binary, address).
 */
#ifndef MYCL_INLINE_H
#define MYCL_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso;
struct machine;

/*
 * Fills NAMES with the functions inlined at VADDR of D ("ut_rnd_gen_ulint
 * (inlined)"), innermost first, at most MAX; names are interned in M.
 * BASE is the symbol VADDR resolves to.  *REPLACES: the last name is the
 * source name of BASE itself (a clone such as foo.constprop.0 is "foo").
 */
int inline_frames(struct machine *m, struct dso *d, uint64_t vaddr, const char *base,
		  const char **names, size_t max, size_t *n, bool *replaces);
/* The source file and line of VADDR in D (file NULL when unknown); strings live with D. */
int inline_srcline(struct dso *d, uint64_t vaddr, const char **file, int *line);
void inline_cache_free(struct dso *d);

#endif
