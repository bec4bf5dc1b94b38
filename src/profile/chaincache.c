/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "chaincache.h"
#include "internal.h"

uint32_t chaincache_get(const struct chaincache *c, const struct chain_key *k)
{
	size_t s;

	if (!c->index.cap)
		return UINT32_MAX;
	itable_each(&c->index, k->h1, s) {
		const struct chain_ent *e = &c->ents[c->index.slot[s]];

		if (e->h1 == k->h1 && e->h2 == k->h2)
			return e->node;
	}
	return UINT32_MAX;
}

static bool hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = ((const struct chaincache *)ctx)->ents[i].h1;
	return true;
}

void chaincache_clear(struct chaincache *c)
{
	if (c->index.cap)
		memset(c->index.slot, 0xff, c->index.cap * sizeof(*c->index.slot));
	c->nr = 0;
}

int chaincache_put(struct chaincache *c, const struct chain_key *k, uint32_t node)
{
	size_t s;

	if (itable_full(&c->index, c->nr)) {
		if (c->index.cap * 2 * sizeof(struct chain_ent) > CHAINCACHE_MAX_BYTES) {
			/*
			 * Full: empty it, keeping the table.  On recordings with
			 * millions of distinct chains (system-wide, processes coming
			 * and going) it would otherwise grow with the samples.
			 */
			chaincache_clear(c);
			c->nr_resets++;
		} else if (itable_grow(&c->index, c->nr, 4096, hash_at, c)) {
			return -ENOMEM;
		}
	}
	/* (a key already there, which a walk from a suffix further out can meet: kept once) */
	itable_each(&c->index, k->h1, s) {
		struct chain_ent *e = &c->ents[c->index.slot[s]];

		if (e->h1 == k->h1 && e->h2 == k->h2) {
			e->node = node;
			return 0;
		}
	}
	if (ARRAY_GROW(c->ents, c->cap, c->nr + 1))
		return -ENOMEM;
	c->ents[c->nr] = (struct chain_ent){ .h1 = k->h1, .h2 = k->h2, .node = node };
	itable_put(&c->index, s, c->nr++);
	return 0;
}

void chaincache_free(struct chaincache *c)
{
	free(c->ents);
	itable_free(&c->index);
	memset(c, 0, sizeof(*c));
}
