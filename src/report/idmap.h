/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ids for byte strings: the first key seen gets 1, the next new one 2...
 * The writers' interning (names, pprof's functions and locations, flame
 * graph frames by parent and name).
 */
#ifndef MYCL_IDMAP_H
#define MYCL_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "itable.h"

struct idmap {
	struct itable index;		/* finds entries by key */
	size_t *off;			/* entry -> its key's offset in keys */
	uint32_t *klen;
	size_t nr, cap, klen_cap;
	uint8_t *keys;
	size_t keys_len, keys_cap;
};

/* The id (from 1) of KEY (N bytes); *FRESH when it was added now.  0 on -ENOMEM. */
uint64_t idmap_get(struct idmap *m, const void *key, size_t n, bool *fresh);
/*
 * The stored key of ID.  Empty keys take no storage, which may be NULL while
 * every key so far is empty: theirs is "".
 */
static inline const void *idmap_key(const struct idmap *m, uint64_t id)
{
	return m->klen[id - 1] ? (const void *)(m->keys + m->off[id - 1]) : "";
}
void idmap_free(struct idmap *m);

#endif
