/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rows aggregated by key: a hash table of sums. */
#ifndef MYCL_HIST_H
#define MYCL_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "itable.h"

struct dso;

struct hent {
	int ev;
	const char *comm;		/* interned */
	int32_t pid, tid;
	uint32_t cpu;
	struct dso *dso;
	/*
	 * The symbol by name and start, not by pointer: tables that grow while
	 * reading (KSYMBOL) move their entries; the names stay put.
	 */
	const char *sym;
	uint64_t addr;			/* symbol start, or the address when unresolved */
	char level;
	/* Sums, not part of the key: */
	uint64_t period, samples;
};

struct hist {
	struct hent *ents;
	size_t nr, cap;
	struct itable index;		/* finds ents */
	size_t last;			/* entry of the previous add: runs hit one row */
};

/* The hash of a row's key. */
static inline uint64_t hent_hash(const struct hent *h)
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

/* Adds PERIOD and SAMPLES to K's row, made on first use; *IDX gets its index. */
int hist_add_slow(struct hist *h, const struct hent *k, uint64_t period, uint64_t samples,
		  uint32_t *idx);
/* Same key (the sums aside). */
static inline bool hent_key_eq(const struct hent *a, const struct hent *b)
{
	return a->ev == b->ev && a->comm == b->comm && a->pid == b->pid && a->tid == b->tid &&
	       a->cpu == b->cpu && a->dso == b->dso && a->sym == b->sym && a->addr == b->addr &&
	       a->level == b->level;
}

static inline int hist_add(struct hist *h, const struct hent *k, uint64_t period, uint64_t samples,
			   uint32_t *idx)
{
	/* Runs of samples in one hot loop hit the same row. */
	if (h->last < h->nr && hent_key_eq(&h->ents[h->last], k)) {
		h->ents[h->last].period += period;
		h->ents[h->last].samples += samples;
		if (idx)
			*idx = (uint32_t)h->last;
		return 0;
	}
	return hist_add_slow(h, k, period, samples, idx);
}
/* K's row, or NULL. */
const struct hent *hist_find(const struct hist *h, const struct hent *k);
void hist_free(struct hist *h);

#endif
