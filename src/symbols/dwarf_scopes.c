/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The scopes at an address, through an index of each unit's functions (dwarf_scopes.h). */
#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf_scopes.h"
#include "internal.h"

#define MAX_NEST	64	/* namespaces and types around a function, blocks inside one */

struct unit_index {
	Dwarf_Off cu;
	struct die_ranges fns;
};

struct unit_scopes {
	struct unit_index *units;
	size_t nr, cap;
};

/*
 * What may hold a function's definition: namespaces, modules, types
 * (methods; not in C, whose types hold no functions), functions.
 */
static bool container(int tag, bool c)
{
	switch (tag) {
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_subprogram:
		return true;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_interface_type:
		return !c;
	default:
		return false;
	}
}

/* Whether unit CU is C's. */
static bool c_unit(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
	case 0x2c:	/* DW_LANG_C17 */
		return true;
	default:
		return false;
	}
}

static int index_children(struct unit_index *u, Dwarf_Die *parent, int depth, bool c)
{
	Dwarf_Die child;

	if (depth > MAX_NEST || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);

		/* (a declaration, of a function or a type, holds no code: a method's, its parameters) */
		if (!container(tag, c) || dwarf_hasattr(&child, DW_AT_declaration))
			continue;
		if (tag == DW_TAG_subprogram && die_ranges_add(&u->fns, &child))
			return -ENOMEM;
		if (index_children(u, &child, depth + 1, c))
			return -ENOMEM;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int die_ranges_add(struct die_ranges *r, Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t p = 0;

	while ((p = dwarf_ranges(die, p, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (ARRAY_GROW(r->v, r->cap, r->nr + 1))
			return -ENOMEM;
		r->v[r->nr++] = (struct die_range){ lo, hi, dwarf_dieoffset(die) };
	}
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct die_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* the same start: the shorter (nested) one last, found first from above */
	return x->hi > y->hi ? -1 : x->hi < y->hi;
}

void die_ranges_sort(struct die_ranges *r)
{
	sort_array(r->v, r->nr, sizeof(*r->v), range_cmp);
}

const struct die_range *die_ranges_find(const struct die_ranges *r, uint64_t vaddr,
					size_t lookback)
{
	size_t lo = 0, hi = r->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->v[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && lo - i <= lookback;)
		if (vaddr < r->v[i].hi)
			return &r->v[i];
	return NULL;
}

static struct unit_index *unit_of(struct unit_scopes *set, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct unit_index *u;

	for (size_t i = 0; i < set->nr; i++)
		if (set->units[i].cu == off)
			return &set->units[i];
	if (ARRAY_GROW(set->units, set->cap, set->nr + 1))
		return NULL;
	u = &set->units[set->nr++];
	memset(u, 0, sizeof(*u));
	u->cu = off;
	if (index_children(u, cu, 0, c_unit(cu))) {
		free(u->fns.v);
		set->nr--;
		return NULL;
	}
	die_ranges_sort(&u->fns);
	return u;
}

/* Inside FN, the blocks and inlined subroutines holding VADDR, outermost first, into OUT. */
static int nested(Dwarf_Die *fn, uint64_t vaddr, Dwarf_Die *out, int max)
{
	Dwarf_Die cur = *fn, child;
	int n = 0;

	for (int depth = 0; depth < MAX_NEST && n < max; depth++) {
		bool found = false;

		if (dwarf_child(&cur, &child) != 0)
			break;
		do {
			int tag = dwarf_tag(&child);

			if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block) &&
			    dwarf_haspc(&child, vaddr) == 1) {
				out[n++] = child;
				cur = child;
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
	}
	return n;
}

int unit_function_at(struct unit_scopes **setp, Dwarf *dw, Dwarf_Die *cu, uint64_t vaddr,
		     Dwarf_Die *fn)
{
	struct unit_scopes *set = *setp;
	struct unit_index *u;
	const struct die_range *best;

	if (!set && !(set = *setp = calloc(1, sizeof(*set))))
		return -ENOMEM;
	if (!(u = unit_of(set, cu)))
		return -ENOMEM;
	/* the innermost function holding it (nested functions, overlapping clones) */
	best = die_ranges_find(&u->fns, vaddr, 16);
	return best && dwarf_offdie(dw, best->die, fn) ? 1 : 0;
}

int unit_scopes_at(struct unit_scopes **setp, Dwarf *dw, Dwarf_Die *cu, uint64_t vaddr,
		   Dwarf_Die **scopes)
{
	Dwarf_Die fn, inner[MAX_NEST], *out;
	int n;

	*scopes = NULL;
	n = unit_function_at(setp, dw, cu, vaddr, &fn);
	if (n <= 0)
		return n;
	n = nested(&fn, vaddr, inner, MAX_NEST);
	out = malloc((size_t)(n + 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		out[i] = inner[n - 1 - i];
	out[n] = fn;
	*scopes = out;
	return n + 1;
}

void unit_scopes_free(struct unit_scopes *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->nr; i++)
		free(set->units[i].fns.v);
	free(set->units);
	free(set);
}
