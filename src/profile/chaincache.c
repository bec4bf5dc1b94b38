/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "chaincache.h"
#include "internal.h"

uint32_t chaincache_get(const struct chaincache *c, const struct chain_key *k)
{
	if (!c->cap)
		return UINT32_MAX;
	for (size_t i = k->h1 & (c->cap - 1); c->ents[i].h1; i = (i + 1) & (c->cap - 1)) {
		const struct chain_ent *e = &c->ents[i];

		if (e->h1 == k->h1 && e->h2 == k->h2)
			return e->node;
	}
	return UINT32_MAX;
}

static void place(struct chain_ent *tab, size_t cap, const struct chain_ent *e)
{
	size_t i = e->h1 & (cap - 1);

	while (tab[i].h1)
		i = (i + 1) & (cap - 1);
	tab[i] = *e;
}

void chaincache_clear(struct chaincache *c)
{
	if (c->cap)
		memset(c->ents, 0, c->cap * sizeof(*c->ents));
	c->nr = 0;
}

int chaincache_put(struct chaincache *c, const struct chain_key *k, uint32_t node)
{
	struct chain_ent e = { .h1 = k->h1, .h2 = k->h2, .node = node };

	if ((c->nr + 1) * 2 > c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 4096;
		struct chain_ent *t;

		if (ncap * sizeof(*t) > CHAINCACHE_MAX_BYTES) {
			/*
			 * Full: empty it, keeping the table.  On recordings with
			 * millions of distinct chains (system-wide, processes coming
			 * and going) it would otherwise grow with the samples.
			 */
			chaincache_clear(c);
			c->nr_resets++;
		} else {
			t = calloc(ncap, sizeof(*t));
			if (!t)
				return -ENOMEM;
			mem_hint_large(t, ncap * sizeof(*t));
			for (size_t i = 0; i < c->cap; i++)
				if (c->ents[i].h1)
					place(t, ncap, &c->ents[i]);
			free(c->ents);
			c->ents = t;
			c->cap = ncap;
		}
	}
	/* (a key already there, which a walk from a suffix further out can meet: kept once) */
	for (size_t i = e.h1 & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
		if (!c->ents[i].h1) {
			c->ents[i] = e;
			c->nr++;
			return 0;
		}
		if (c->ents[i].h1 == e.h1 && c->ents[i].h2 == e.h2) {
			c->ents[i].node = node;
			return 0;
		}
	}
}

void chaincache_free(struct chaincache *c)
{
	free(c->ents);
	memset(c, 0, sizeof(*c));
}
