/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rows aggregated by key: a hash table of sums. */
#ifndef MYCL_HIST_H
#define MYCL_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	uint32_t *index;		/* open addressing into ents, UINT32_MAX empty */
	size_t index_cap;
	size_t last;			/* entry of the previous add: runs hit one row */
};

/* Adds PERIOD and SAMPLES to K's row, made on first use; *IDX gets its index. */
int hist_add(struct hist *h, const struct hent *k, uint64_t period, uint64_t samples, uint32_t *idx);
/* K's row, or NULL. */
const struct hent *hist_find(const struct hist *h, const struct hent *k);
void hist_free(struct hist *h);
/* Same key (the sums aside). */
bool hent_key_eq(const struct hent *a, const struct hent *b);

#endif
