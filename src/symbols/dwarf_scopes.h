/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scopes at an address where libdw's dwarf_getscopes() finds none:
 * rustc (and other compilers of languages with modules) writes its functions
 * inside DW_TAG_namespace entries, which dwarf_getscopes() does not enter.
 * Per unit, an index of every function's address ranges, made the first
 * time an address of that unit needs it; then the inlined subroutines and
 * blocks inside the function holding the address.
 */
#ifndef MYCL_DWARF_SCOPES_H
#define MYCL_DWARF_SCOPES_H

#include <stdint.h>
#include <elfutils/libdw.h>

struct unit_scopes;

/*
 * The scopes at VADDR in the unit CU of DW, as dwarf_getscopes() gives them: the
 * innermost first, ending with the function (DW_TAG_subprogram).  Their
 * count, *SCOPES malloc'd (the caller frees); 0 when no function holds
 * VADDR; -ENOMEM.  *SET keeps the units' indexes (NULL at first).
 */
int unit_scopes_at(struct unit_scopes **set, Dwarf *dw, Dwarf_Die *cu, uint64_t vaddr,
		   Dwarf_Die **scopes);
void unit_scopes_free(struct unit_scopes *set);

#endif
