/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where a call chain, or the outer part of one, ends in the call tree.
 *
 * A sample's chain is resolved into frames and walked from the tree's root;
 * samples with the same chain end at the same node, and so do the outer
 * parts of chains that differ only in their innermost frames (on a
 * system-wide recording most new chains differ from one seen before in the
 * sampled address alone).  The cache maps a suffix of a chain (its frames
 * from some index to the outermost, with what decides how they resolve) to
 * the node its walk reaches, so a new chain resolves and walks only the
 * frames inside the longest suffix known.  Keys are 96-bit hashes of the
 * raw ids and of what decides their frames; the caller builds them
 * (profile_chain.c).  Bounded: past CHAINCACHE_MAX_BYTES it starts again empty.
 */
#ifndef MYCL_CHAINCACHE_H
#define MYCL_CHAINCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct chain_key {
	uint64_t h1;			/* never 0: a free slot's */
	uint32_t h2;
};

/* What a key is made from, per index of a chain (profile_chain.c). */
struct chain_lanes {
	uint64_t a, b;			/* hashes of the ids from the outermost in */
	uint32_t tag;			/* 0: no key here */
};

struct chain_ent {
	uint64_t h1;
	uint32_t h2, node;
};

#define CHAINCACHE_MAX_BYTES (32u << 20)

/*
 * Not the library's itable: each sample probes here several times and most
 * probes miss, so a slot holds its key and a miss reads one slot; with the
 * itable's indices a collision reads the entry too (on a -g recording of
 * bench/deepstack, 28% more last-level data misses: doc/library.md).
 */
struct chaincache {
	struct chain_ent *ents;		/* open addressing on h1 */
	size_t nr, cap;
	size_t nr_resets;		/* times it was emptied at its bound */
	bool past_budget;		/* emptied when the call tree passed its budget */
};

/* The node for K, or UINT32_MAX. */
uint32_t chaincache_get(const struct chaincache *c, const struct chain_key *k);
int chaincache_put(struct chaincache *c, const struct chain_key *k, uint32_t node);
/* Forgets every entry. */
void chaincache_clear(struct chaincache *c);
void chaincache_free(struct chaincache *c);

#endif
