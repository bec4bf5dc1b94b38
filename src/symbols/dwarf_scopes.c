/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The scopes at an address, through an index of each unit's functions (dwarf_scopes.h). */
#include <dwarf.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf_scopes.h"
#include "internal.h"
#include "itable.h"

#define MAX_NEST	64	/* namespaces and types around a function, blocks inside one */

enum { NOT_READ, READING, READ };

struct unit_index {
	Dwarf_Off cu;
	struct die_ranges fns;		/* where compilers put functions: the unit, namespaces */
	struct die_ranges all;		/* every function anywhere (after a miss in FNS) */
	uint8_t fns_state, all_state;	/* NOT_READ, READING (by one thread), READ */
};

/*
 * The units' indexes, shared by the threads that read one file (each with
 * its own Dwarf handle: an index holds entries' offsets): an index is read
 * by the first thread that needs it, the others wait for it.
 */
struct unit_scopes {
	pthread_mutex_t lock;
	pthread_cond_t read;		/* an index left READING */
	struct unit_index **units;	/* by the unit's offset through INDEX */
	size_t nr, cap;
	struct itable index;
};

/*
 * Where compilers write a function's definition (the entry with its code):
 * the unit, namespaces and modules (rustc's, Fortran's), functions (nested
 * ones, a local class's methods).  A method's definition is written at
 * the unit's level and points at its declaration in the class, so a type's
 * members are not read here: in a C++ unit they are most of the entries
 * (every header's classes).  A definition anywhere else is found by
 * index_all, after an address of the unit missed this index.
 */
static bool container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_subprogram;
}

static int index_children(struct die_ranges *r, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;

	if (depth > MAX_NEST || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);

		/* (a declaration holds no code: a function's, its parameters) */
		if (!container(tag) || dwarf_hasattr(&child, DW_AT_declaration))
			continue;
		if (tag == DW_TAG_subprogram && die_ranges_add(r, &child))
			return -ENOMEM;
		if (index_children(r, &child, depth + 1))
			return -ENOMEM;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/*
 * What may hold a function's definition somewhere inside: scopes,
 * functions, and the types declared inside a function (a type declared
 * outside one holds its methods' declarations, their definitions written
 * at the unit's level).
 */
static bool may_hold(int tag, bool in_fn)
{
	switch (tag) {
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_subprogram:
	case DW_TAG_entry_point:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_with_stmt:
		return true;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_interface_type:
		return in_fn;
	default:
		return false;
	}
}

/*
 * Every function of the unit with code, under any scope or local type (a
 * lambda's operator() inside its closure's type, inside a block of the
 * function that makes it): what dwarf_getscopes() would find (it enters
 * blocks and imported units; a function inside an inlined copy is written
 * in the inlined function's own entry), read once per unit instead of at
 * each miss.
 */
static int index_all(struct die_ranges *r, Dwarf_Die *parent, int depth, bool in_fn)
{
	Dwarf_Die child, unit;
	Dwarf_Attribute at;

	if (depth > MAX_NEST || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_subprogram || tag == DW_TAG_entry_point) &&
		    die_ranges_add(r, &child))
			return -ENOMEM;
		if (tag == DW_TAG_imported_unit) {
			if (dwarf_attr(&child, DW_AT_import, &at) && dwarf_formref_die(&at, &unit) &&
			    index_all(r, &unit, depth + 1, false))
				return -ENOMEM;
		} else if (may_hold(tag, in_fn) && !dwarf_hasattr(&child, DW_AT_declaration) &&
			   dwarf_haschildren(&child) &&
			   index_all(r, &child, depth + 1, in_fn || tag == DW_TAG_subprogram)) {
			return -ENOMEM;
		}
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

static bool unit_hash(const void *ctx, size_t i, uint64_t *h)
{
	const struct unit_scopes *set = ctx;

	*h = u64_hash(set->units[i]->cu);
	return true;
}

/* The index of the unit at offset OFF, made empty if none is: under SET's lock. */
static struct unit_index *unit_of(struct unit_scopes *set, Dwarf_Off off)
{
	uint64_t h = u64_hash(off);
	struct unit_index *u;
	size_t s;

	if (set->index.cap)
		itable_each(&set->index, h, s)
			if (set->units[set->index.slot[s]]->cu == off)
				return set->units[set->index.slot[s]];
	if (ARRAY_GROW(set->units, set->cap, set->nr + 1))
		return NULL;
	if (itable_full(&set->index, set->nr) &&
	    itable_grow(&set->index, set->nr, 64, unit_hash, set))
		return NULL;
	if (!(u = calloc(1, sizeof(*u))))
		return NULL;
	u->cu = off;
	itable_each(&set->index, h, s)
		;
	itable_put(&set->index, s, set->nr);
	set->units[set->nr++] = u;
	return u;
}

/*
 * *STATE's index R of unit CU read (by this thread, or by the one reading
 * it: waited for), with ALL's walk or with the functions' one: 0, -ENOMEM.
 */
static int read_once(struct unit_scopes *set, uint8_t *state, struct die_ranges *r,
		     Dwarf_Die *cu, bool all)
{
	int err;

	while (*state == READING)
		pthread_cond_wait(&set->read, &set->lock);
	if (*state == READ)
		return 0;
	*state = READING;
	pthread_mutex_unlock(&set->lock);
	err = all ? index_all(r, cu, 0, false) : index_children(r, cu, 0);
	if (!err)
		die_ranges_sort(r);
	pthread_mutex_lock(&set->lock);
	if (err) {
		free(r->v);
		memset(r, 0, sizeof(*r));
	}
	*state = err ? NOT_READ : READ;
	pthread_cond_broadcast(&set->read);
	return err;
}

struct unit_scopes *unit_scopes_new(void)
{
	struct unit_scopes *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	pthread_mutex_init(&set->lock, NULL);
	pthread_cond_init(&set->read, NULL);
	return set;
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
	int err;

	if (!set && !(set = *setp = unit_scopes_new()))
		return -ENOMEM;
	pthread_mutex_lock(&set->lock);
	u = unit_of(set, dwarf_dieoffset(cu));
	err = u ? read_once(set, &u->fns_state, &u->fns, cu, false) : -ENOMEM;
	pthread_mutex_unlock(&set->lock);
	if (err)
		return err;
	/* the innermost function holding it (nested functions, overlapping clones) */
	best = die_ranges_find(&u->fns, vaddr, 16);
	if (!best) {
		pthread_mutex_lock(&set->lock);
		err = read_once(set, &u->all_state, &u->all, cu, true);
		pthread_mutex_unlock(&set->lock);
		if (err)
			return err;
		best = die_ranges_find(&u->all, vaddr, 16);
	}
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
	for (size_t i = 0; i < set->nr; i++) {
		free(set->units[i]->fns.v);
		free(set->units[i]->all.v);
		free(set->units[i]);
	}
	free(set->units);
	itable_free(&set->index);
	pthread_mutex_destroy(&set->lock);
	pthread_cond_destroy(&set->read);
	free(set);
}
