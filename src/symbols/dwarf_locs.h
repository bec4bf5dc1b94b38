/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A variable's location list read from the section's bytes: what
 * dwarf_getlocations gives, entry by entry, without the cache libdw keeps
 * of every expression it parses (a search tree per unit, grown and freed
 * with the handle), for a walk that reads each list once.  Only the
 * expressions a data-flow reads are decoded: one register, one register
 * plus an offset, the frame base plus an offset.  The forms and entry kinds
 * of DWARF 2 to 5 (.debug_loc, .debug_loclists, their indexed addresses);
 * anything else (split units, a section not there) is left to libdw: the
 * caller asks dwarf_getlocations then.  doc/data-types.md has the
 * measurement that asked for it.
 */
#ifndef MYCL_DWARF_LOCS_H
#define MYCL_DWARF_LOCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct loc_entry {
	uint64_t lo, hi;	/* [lo, hi); 0 and UINT64_MAX: wherever the variable's scope is */
	bool one;		/* the expression is exactly OP, one of the kinds decoded */
	Dwarf_Op op;		/* DW_OP_reg0-31, regx, breg0-31, bregx or fbreg */
};

/* What the reader keeps of one handle's sections; zeroed before the first use. */
struct loc_reader {
	Dwarf *dw;
	bool read;
	const uint8_t *loc, *loclists, *addr, *info;
	size_t loc_len, loclists_len, addr_len, info_len;
	struct loc_entry *v;	/* the last list read */
	size_t n, cap;
};

/*
 * The entries of AT, VAR's DW_AT_location, into R->v[0..R->n): 0; -ENOMEM;
 * -ENOTSUP where libdw should read it (a form, unit or entry kind not read
 * here, or bytes that do not parse).
 */
int loc_read(struct loc_reader *r, Dwarf_Die *var, Dwarf_Attribute *at);
void loc_reader_free(struct loc_reader *r);

#endif
