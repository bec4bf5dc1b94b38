/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "internal.h"

static uint64_t hent_hash(const struct hent *h)
{
	uint64_t x = (uint64_t)h->ev * 0x9E3779B97F4A7C15ULL;

	x ^= (uintptr_t)h->comm * 0xC2B2AE3D27D4EB4FULL;
	x ^= ((uint64_t)(uint32_t)h->pid << 32 | (uint32_t)h->tid) * 0x165667B19E3779F9ULL;
	x ^= (uint64_t)h->cpu * 0x27D4EB2F165667C5ULL;
	x ^= (uintptr_t)h->dso * 0x94D049BB133111EBULL;
	x ^= ((uintptr_t)h->sym ^ h->addr) * 0xBF58476D1CE4E5B9ULL;
	x ^= (uint64_t)(uint8_t)h->level;
	return x ^ (x >> 31);
}

static int rehash(struct hist *p)
{
	size_t ncap = p->index_cap ? p->index_cap * 2 : 1024;
	uint32_t *n = malloc(ncap * sizeof(*n));

	if (!n)
		return -ENOMEM;
	mem_hint_large(n, ncap * sizeof(*n));	/* before the fill below touches it */
	memset(n, 0xff, ncap * sizeof(*n));
	for (size_t i = 0; i < p->nr; i++) {
		size_t h = hent_hash(&p->ents[i]) & (ncap - 1);

		while (n[h] != UINT32_MAX)
			h = (h + 1) & (ncap - 1);
		n[h] = (uint32_t)i;
	}
	free(p->index);
	p->index = n;
	p->index_cap = ncap;
	return 0;
}

int hist_add_slow(struct hist *p, const struct hent *k, uint64_t period, uint64_t samples,
		  uint32_t *idx)
{
	struct hent *e;
	size_t h;

	if ((p->nr + 1) * 2 > p->index_cap && rehash(p))
		return -ENOMEM;
	h = hent_hash(k) & (p->index_cap - 1);
	while (p->index[h] != UINT32_MAX) {
		e = &p->ents[p->index[h]];
		if (hent_key_eq(e, k)) {
			p->last = p->index[h];
			goto found;
		}
		h = (h + 1) & (p->index_cap - 1);
	}
	if (ARRAY_GROW(p->ents, p->cap, p->nr + 1))
		return -ENOMEM;
	e = &p->ents[p->nr];
	*e = *k;
	e->period = e->samples = 0;
	p->index[h] = (uint32_t)p->nr;
	p->last = p->nr++;
found:
	e->period += period;
	e->samples += samples;
	if (idx)
		*idx = (uint32_t)(e - p->ents);
	return 0;
}

const struct hent *hist_find(const struct hist *p, const struct hent *k)
{
	size_t h;

	if (!p->index_cap)
		return NULL;
	h = hent_hash(k) & (p->index_cap - 1);
	while (p->index[h] != UINT32_MAX) {
		if (hent_key_eq(&p->ents[p->index[h]], k))
			return &p->ents[p->index[h]];
		h = (h + 1) & (p->index_cap - 1);
	}
	return NULL;
}

void hist_free(struct hist *p)
{
	free(p->ents);
	free(p->index);
	memset(p, 0, sizeof(*p));
}
