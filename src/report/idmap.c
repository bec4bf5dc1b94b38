/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "idmap.h"

static uint64_t hash_bytes(const void *data, size_t n)
{
	const uint8_t *s = data;
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	return h ^ (h >> 31);
}

static bool hash_at(const void *ctx, size_t e, uint64_t *h)
{
	const struct idmap *m = ctx;

	*h = hash_bytes(idmap_key(m, e + 1), m->klen[e]);
	return true;
}

uint64_t idmap_get(struct idmap *m, const void *key, size_t n, bool *fresh)
{
	size_t k;

	*fresh = false;
	if (itable_full(&m->index, m->nr) && itable_grow(&m->index, m->nr, 1024, hash_at, m))
		return 0;
	itable_each(&m->index, hash_bytes(key, n), k) {
		size_t e = m->index.slot[k];

		if (m->klen[e] == n && !memcmp(idmap_key(m, e + 1), key, n))
			return e + 1;
	}
	if (m->nr >= UINT32_MAX - 1 || n > UINT32_MAX ||
	    ARRAY_GROW(m->off, m->cap, m->nr + 1) || ARRAY_GROW(m->klen, m->klen_cap, m->nr + 1) ||
	    ARRAY_GROW(m->keys, m->keys_cap, m->keys_len + n))
		return 0;
	if (n)		/* an empty key ("" in pprof's string table) on empty storage */
		memcpy(m->keys + m->keys_len, key, n);
	m->off[m->nr] = m->keys_len;
	m->klen[m->nr] = (uint32_t)n;
	m->keys_len += n;
	itable_put(&m->index, k, m->nr);
	m->nr++;
	*fresh = true;
	return m->nr;
}

void idmap_free(struct idmap *m)
{
	itable_free(&m->index);
	free(m->off);
	free(m->klen);
	free(m->keys);
}
