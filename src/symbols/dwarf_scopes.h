/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scopes at an address, instead of libdw's dwarf_getscopes(), which
 * walks the unit's entries at each call and does not enter namespaces
 * (where rustc writes its functions).  Per unit, an index of the address
 * ranges of the functions at the unit's level and in namespaces, made the
 * first time an address of that unit needs it, and one of every function
 * under any entry, made the first time an address misses the first; then
 * the inlined subroutines and blocks inside the function holding the
 * address.
 */
#ifndef MYCL_DWARF_SCOPES_H
#define MYCL_DWARF_SCOPES_H

#include <stdint.h>
#include <elfutils/libdw.h>

struct unit_scopes;

/*
 * Address ranges of DIEs (functions, units), sorted by start, the longer of
 * two with one start first; looked up by the last start at or below an
 * address, looking back over a few for ranges that enclose it.
 */
struct die_range {
	uint64_t lo, hi;
	Dwarf_Off die;
};

struct die_ranges {
	struct die_range *v;
	size_t nr, cap;
};

/* Every range of DIE (DW_AT_low_pc/high_pc or DW_AT_ranges) into R; -ENOMEM. */
int die_ranges_add(struct die_ranges *r, Dwarf_Die *die);
void die_ranges_sort(struct die_ranges *r);
/*
 * The innermost range holding VADDR among the LOOKBACK ranges starting at or
 * below it, nearest first; NULL.
 */
const struct die_range *die_ranges_find(const struct die_ranges *r, uint64_t vaddr,
					size_t lookback);

/*
 * The scopes at VADDR in the unit CU of DW, as dwarf_getscopes() gives them: the
 * innermost first, ending with the function (DW_TAG_subprogram).  Their
 * count, *SCOPES malloc'd (the caller frees); 0 when no function holds
 * VADDR; -ENOMEM.  *SET keeps the units' indexes (NULL at first).
 */
int unit_scopes_at(struct unit_scopes **set, Dwarf *dw, Dwarf_Die *cu, uint64_t vaddr,
		   Dwarf_Die **scopes);
/*
 * The last of those scopes alone: the innermost function of CU holding
 * VADDR into *FN.  1, 0 when none holds it, or -ENOMEM.
 */
int unit_function_at(struct unit_scopes **set, Dwarf *dw, Dwarf_Die *cu, uint64_t vaddr,
		     Dwarf_Die *fn);
/*
 * An empty set of the units' indexes, for several threads to share (each
 * passing its own Dwarf handle of the same file); NULL.
 */
struct unit_scopes *unit_scopes_new(void);
void unit_scopes_free(struct unit_scopes *set);

#endif
