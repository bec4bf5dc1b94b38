/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The layout of a struct, class or union from its DWARF: its members
 * unfolded into leaves (nested structs and base classes by their paths,
 * unions as their widest real member, bit fields by the bytes they lie in),
 * its alignment, whether a system header declares it.  For share_types.c,
 * on any thread with its own libdw handle.
 */
#ifndef MYCL_SHARE_TYPELAYOUT_H
#define MYCL_SHARE_TYPELAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct unit_files;

#define MAX_LEAVES 4096		/* members of one type unfolded: past it, the rest as one */
#define MAX_TYPE_SIZE (1u << 30)	/* a type larger is no object to lay out (corrupt DWARF) */

struct leaf {
	char *name;
	char *type;
	uint64_t off, size;
	bool sync;
};

struct flat {
	struct leaf *v;
	size_t n, cap;
	size_t visits;			/* members looked at: bounded, whatever the DWARF says */
	bool truncated;
	struct unit_files *files;	/* the thread's names of declaration files */
};

/* One type to lay out (SDIE, SIZE bytes; CAND: the caller's), and what its layout found. */
struct tlay {
	uint64_t sdie, size;
	size_t cand;
	struct flat f;
	uint64_t padded_by, align;
	bool align_declared, library, found;
	int err;
};

/* T's size in bytes (a pointer's 8), typedefs and qualifiers taken off; 0 when unknown. */
uint64_t share_die_size(Dwarf_Die *t);
/* The name of the struct, class or union behind entry DIE, and that type: false when none. */
bool share_type_name_of(Dwarf *dw, uint64_t die, Dwarf_Die *st, char *buf, size_t len);
/*
 * L laid out from DW (each thread its own handle, FILES its reader of that
 * handle's file names): found, err, f and the rest set.
 */
void share_lay_out(Dwarf *dw, struct unit_files *files, struct tlay *l);
void share_flat_free(struct flat *f);

#endif
