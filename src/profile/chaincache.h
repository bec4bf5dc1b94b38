/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Samples with the same raw call chain in the same version of their address
 * space end at the same call-tree node: remembering that skips resolving and
 * walking dozens of frames for all but the first such sample.  A cache, and
 * a bounded one: past CHAINCACHE_MAX_BYTES it starts again empty.
 */
#ifndef MYCL_CHAINCACHE_H
#define MYCL_CHAINCACHE_H

#include <stddef.h>
#include <stdint.h>

struct chain_ent {
	uint64_t hash, ver;
	uint32_t root, leaf, n;
	const uint64_t *ids;		/* in one of the blocks */
};

#define CHAINCACHE_MAX_BYTES (16u << 20)

struct chaincache {
	struct chain_ent *ents;
	size_t nr, cap;
	uint64_t **blocks;		/* the chains' ids, in blocks that never move */
	size_t nr_blocks, blocks_cap;
	size_t block_used, block_cap;	/* in the newest block */
	size_t nr_resets;		/* times it was emptied at its bound */
};

/* The leaf for (ROOT, VER, IDS[N]), or UINT32_MAX; *HASH gets the key's hash. */
uint32_t chaincache_get(const struct chaincache *c, uint32_t root, uint64_t ver,
			const uint64_t *ids, size_t n, uint64_t *hash);
int chaincache_put(struct chaincache *c, uint64_t hash, uint32_t root, uint64_t ver,
		   const uint64_t *ids, size_t n, uint32_t leaf);
void chaincache_free(struct chaincache *c);

#endif
