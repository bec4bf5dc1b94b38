/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's hash table: open addressing with linear probing over 32-bit
 * indices into the caller's array of entries.  The entries stay in their
 * array, in the order they came (what the reports walk); the table only
 * finds them.  Type-generic the way the kernel's hashtable.h is
 * (hash_for_each_possible): the caller's hash and equality are written, and
 * inlined, where it probes.
 *
 *	size_t s;
 *
 *	itable_each(&t, hash_of(key), s)
 *		if (same(&ents[t.slot[s]], key))
 *			return &ents[t.slot[s]];
 *	... not there: s is the empty slot where it goes (itable_put)
 *
 * Grow before probing to add (itable_full, itable_grow): the table stays at
 * most half full.  Why a table of our own and not libiberty's htab (linked
 * in already): doc/library.md.
 */
#ifndef MYCL_ITABLE_H
#define MYCL_ITABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ITABLE_EMPTY UINT32_MAX

struct itable {
	uint32_t *slot;			/* entry indices; ITABLE_EMPTY: none */
	size_t cap;			/* a power of two, or 0 before the first itable_grow */
};

/* Slot S and the next ones of the run from hash H, up to the first empty slot. */
#define itable_each(t, h, s)                                                              \
	for ((s) = (size_t)(h) & ((t)->cap - 1); (t)->slot[s] != ITABLE_EMPTY;            \
	     (s) = ((s) + 1) & ((t)->cap - 1))

/* Whether N entries and one more would fill T past half. */
static inline bool itable_full(const struct itable *t, size_t n)
{
	return (n + 1) * 2 > t->cap;
}

/* Entry I in slot S (the empty slot itable_each stopped at). */
static inline void itable_put(struct itable *t, size_t s, size_t i)
{
	t->slot[s] = (uint32_t)i;
}

/*
 * T at twice its size (MIN slots at first, a power of two) holding entries
 * 0..N-1 again: HASH(CTX, i, &h) gives entry i's hash, or false for an entry
 * the table does not hold.  0 or -ENOMEM (T as it was); -EOVERFLOW past
 * UINT32_MAX - 1 entries.
 */
int itable_grow(struct itable *t, size_t n, size_t min,
		bool (*hash)(const void *ctx, size_t i, uint64_t *h), const void *ctx);
/* T empty, sized for N entries (at least MIN slots): no itable_grow until then.  0 or -ENOMEM. */
int itable_reserve(struct itable *t, size_t n, size_t min);
void itable_free(struct itable *t);

#endif
