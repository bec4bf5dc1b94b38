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

static int rehash(struct idmap *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 1024;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (size_t e = 0; e < m->nr; e++) {
		size_t k = hash_bytes(idmap_key(m, e + 1), m->klen[e]) & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = (uint32_t)e + 1;
	}
	free(m->slots);
	m->slots = s;
	m->nslots = n;
	return 0;
}

uint64_t idmap_get(struct idmap *m, const void *key, size_t n, bool *fresh)
{
	size_t k;

	*fresh = false;
	if ((m->nr + 1) * 2 > m->nslots && rehash(m))
		return 0;
	for (k = hash_bytes(key, n) & (m->nslots - 1); m->slots[k]; k = (k + 1) & (m->nslots - 1)) {
		size_t e = m->slots[k] - 1;

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
	m->slots[k] = (uint32_t)m->nr + 1;
	m->nr++;
	*fresh = true;
	return m->nr;
}

void idmap_free(struct idmap *m)
{
	free(m->slots);
	free(m->off);
	free(m->klen);
	free(m->keys);
}
