/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "chaincache.h"
#include "internal.h"

static uint64_t chain_hash(uint32_t root, uint64_t ver, const uint64_t *ids, size_t n)
{
	uint64_t h = ((uint64_t)root * 0x9E3779B97F4A7C15ULL ^ ver) * 0xc2b2ae3d27d4eb4fULL ^ n;
	uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL, c = 0xa4093822299f31d0ULL;
	size_t i = 0;

	/* Four lanes that do not wait on each other: a chain is 20 to 100 ids, each sample's. */
	for (; i + 4 <= n; i += 4) {
		h = (h ^ ids[i]) * 0xff51afd7ed558ccdULL;
		a = (a ^ ids[i + 1]) * 0xc4ceb9fe1a85ec53ULL;
		b = (b ^ ids[i + 2]) * 0x9E3779B97F4A7C15ULL;
		c = (c ^ ids[i + 3]) * 0xbf58476d1ce4e5b9ULL;
	}
	for (; i < n; i++)
		h = (h ^ ids[i]) * 0xff51afd7ed558ccdULL;
	h ^= (a ^ (b >> 17) ^ (c << 13)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 32);
}

uint32_t chaincache_get(const struct chaincache *c, uint32_t root, uint64_t ver,
			const uint64_t *ids, size_t n, uint64_t *hash)
{
	size_t i;

	/* Never 0: a zero hash marks an empty slot. */
	*hash = chain_hash(root, ver, ids, n) | 1;
	if (!c->cap)
		return UINT32_MAX;
	for (i = *hash & (c->cap - 1); c->ents[i].hash; i = (i + 1) & (c->cap - 1)) {
		const struct chain_ent *e = &c->ents[i];

		if (e->hash == *hash && e->root == root && e->ver == ver && e->n == n &&
		    !memcmp(e->ids, ids, n * sizeof(*ids)))
			return e->leaf;
	}
	return UINT32_MAX;
}

static void place(struct chain_ent *tab, size_t cap, const struct chain_ent *e)
{
	size_t i = e->hash & (cap - 1);

	while (tab[i].hash)
		i = (i + 1) & (cap - 1);
	tab[i] = *e;
}

#define BLOCK_IDS (1u << 20)

/* Room for N ids that stay where they are: copying a growing arena cost a tenth of -g. */
static uint64_t *room(struct chaincache *c, size_t n)
{
	uint64_t *b;

	if (c->nr_blocks && c->block_cap - c->block_used >= n) {
		b = c->blocks[c->nr_blocks - 1] + c->block_used;
		c->block_used += n;
		return b;
	}
	if (ARRAY_GROW(c->blocks, c->blocks_cap, c->nr_blocks + 1))
		return NULL;
	c->block_cap = n > BLOCK_IDS ? n : BLOCK_IDS;
	b = malloc(c->block_cap * sizeof(*b));
	if (!b)
		return NULL;
	mem_hint_large(b, c->block_cap * sizeof(*b));
	c->blocks[c->nr_blocks++] = b;
	c->block_used = n;
	return b;
}

/*
 * Empties C, keeping its table and first block: on recordings with millions
 * of distinct chains (system-wide, processes coming and going) it would
 * otherwise grow with the samples.
 */
static void reset(struct chaincache *c)
{
	memset(c->ents, 0, c->cap * sizeof(*c->ents));
	c->nr = 0;
	for (size_t i = 1; i < c->nr_blocks; i++)
		free(c->blocks[i]);
	c->nr_blocks = c->nr_blocks ? 1 : 0;
	c->block_cap = c->nr_blocks ? BLOCK_IDS : 0;
	c->block_used = 0;
	c->nr_resets++;
}

int chaincache_put(struct chaincache *c, uint64_t hash, uint32_t root, uint64_t ver,
		   const uint64_t *ids, size_t n, uint32_t leaf)
{
	struct chain_ent e = { .hash = hash, .ver = ver, .root = root, .leaf = leaf,
			       .n = (uint32_t)n };
	uint64_t *copy;
	size_t ids_bytes;

	ids_bytes = c->nr_blocks * BLOCK_IDS * sizeof(uint64_t);
	if ((c->nr + 1) * 2 > c->cap && c->cap &&
	    2 * c->cap * sizeof(*c->ents) + ids_bytes > CHAINCACHE_MAX_BYTES)
		reset(c);	/* the table would double past the bound */
	else if (c->nr_blocks && c->block_cap - c->block_used < n &&
		 ids_bytes + BLOCK_IDS * sizeof(uint64_t) > CHAINCACHE_MAX_BYTES / 2)
		reset(c);	/* a new block of ids would pass half of it */
	if ((c->nr + 1) * 2 > c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 4096;
		struct chain_ent *t = calloc(ncap, sizeof(*t));

		if (!t)
			return -ENOMEM;
		mem_hint_large(t, ncap * sizeof(*t));
		for (size_t i = 0; i < c->cap; i++)
			if (c->ents[i].hash)
				place(t, ncap, &c->ents[i]);
		free(c->ents);
		c->ents = t;
		c->cap = ncap;
	}
	copy = room(c, n);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ids, n * sizeof(*ids));
	e.ids = copy;
	place(c->ents, c->cap, &e);
	c->nr++;
	return 0;
}

void chaincache_free(struct chaincache *c)
{
	free(c->ents);
	for (size_t i = 0; i < c->nr_blocks; i++)
		free(c->blocks[i]);
	free(c->blocks);
	memset(c, 0, sizeof(*c));
}
