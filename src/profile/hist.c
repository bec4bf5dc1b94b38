/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "internal.h"


static bool hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = hent_hash(&((const struct hist *)ctx)->ents[i]);
	return true;
}

int hist_add_slow(struct hist *p, const struct hent *k, uint64_t period, uint64_t samples,
		  uint32_t *idx)
{
	struct hent *e;
	size_t s;

	if (itable_full(&p->index, p->nr) && itable_grow(&p->index, p->nr, 1024, hash_at, p))
		return -ENOMEM;
	itable_each(&p->index, hent_hash(k), s) {
		e = &p->ents[p->index.slot[s]];
		if (hent_key_eq(e, k)) {
			p->last = p->index.slot[s];
			goto found;
		}
	}
	if (ARRAY_GROW(p->ents, p->cap, p->nr + 1))
		return -ENOMEM;
	e = &p->ents[p->nr];
	*e = *k;
	e->period = e->samples = 0;
	itable_put(&p->index, s, p->nr);
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
	size_t s;

	if (!p->index.cap)
		return NULL;
	itable_each(&p->index, hent_hash(k), s)
		if (hent_key_eq(&p->ents[p->index.slot[s]], k))
			return &p->ents[p->index.slot[s]];
	return NULL;
}

void hist_free(struct hist *p)
{
	free(p->ents);
	itable_free(&p->index);
	memset(p, 0, sizeof(*p));
}
