/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tables [N K]: the library's hash table (src/util/itable.h, as hist.c uses
 * it) against libiberty's htab (hashtab.h, maintained with binutils and GCC,
 * linked into libmycl for the Rust demangler) on what mycl does most: N
 * additions to rows keyed like a profile's (event, comm, pid/tid, binary,
 * symbol, address) drawn from K distinct keys, skewed as samples are (a few
 * hot rows, a long tail).  Best of three, ns per addition, and the ratio.
 * Where the numbers went: doc/library.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libiberty/hashtab.h>
#include "hist.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* hist.h's hash of a row's key, for libiberty's table. */
static hashval_t row_hash(const void *p)
{
	return (hashval_t)hent_hash(p);
}

static int row_eq(const void *a, const void *b)
{
	return hent_key_eq(a, b);
}

/* libiberty's way: the rows in a dense array (reports walk them in order), the table on pointers to them. */
struct iberty_hist {
	struct hent *ents;
	size_t nr, cap;
	htab_t tab;
};

static int iberty_add(struct iberty_hist *h, const struct hent *k, uint64_t period)
{
	void **slot = htab_find_slot(h->tab, k, INSERT);
	struct hent *e;

	if (!slot)
		return -1;
	if (*slot) {
		e = *slot;
	} else {
		if (h->nr == h->cap) {
			/* (rows move when the array grows: the table holds indices as pointers' stand-ins) */
			return -2;
		}
		e = &h->ents[h->nr++];
		*e = *k;
		e->period = e->samples = 0;
		*slot = e;
	}
	e->period += period;
	e->samples++;
	return 0;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 5000000;
	size_t k = argc > 2 ? strtoul(argv[2], NULL, 10) : 200000;
	struct hent *keys = calloc(k, sizeof(*keys));
	uint32_t *pick = malloc(n * sizeof(*pick));
	static char names[64][16];
	double best[2] = { 1e9, 1e9 };
	uint64_t seed = 88172645463325252ULL;

	if (!keys || !pick)
		return 1;
	for (size_t i = 0; i < 64; i++)
		snprintf(names[i], sizeof(names[i]), "fn%zu", i);
	for (size_t i = 0; i < k; i++)
		keys[i] = (struct hent){ .ev = (int)(i % 3), .comm = names[i % 7], .pid = (int)(i % 97),
					 .tid = (int)(i % 1013), .dso = (void *)(uintptr_t)(0x1000 * (i % 11 + 1)),
					 .sym = names[i % 64], .addr = 0x400000 + i * 16 };
	for (size_t i = 0; i < n; i++) {
		/* xorshift; a square skews toward the first keys: hot rows, long tail */
		double u;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		u = (double)(seed >> 11) / 9007199254740992.0;
		pick[i] = (uint32_t)(u * u * u * (double)k);
	}
	for (int r = 0; r < 3; r++) {
		struct hist h = { 0 };
		struct iberty_hist ih = { .ents = malloc(k * sizeof(struct hent)), .cap = k };
		double t = now();

		for (size_t i = 0; i < n; i++)
			if (hist_add(&h, &keys[pick[i]], 1, 1, NULL))
				return 1;
		t = now() - t;
		if (t < best[0])
			best[0] = t;
		ih.tab = htab_create_alloc(1024, row_hash, row_eq, NULL, calloc, free);
		t = now();
		for (size_t i = 0; i < n; i++)
			if (iberty_add(&ih, &keys[pick[i]], 1))
				return 1;
		t = now() - t;
		if (t < best[1])
			best[1] = t;
		if (h.nr != ih.nr) {
			fprintf(stderr, "tables: %zu rows against %zu\n", h.nr, ih.nr);
			return 1;
		}
		hist_free(&h);
		htab_delete(ih.tab);
		free(ih.ents);
	}
	printf("%zu additions over %zu keys: itable (hist) %.1f ns, libiberty htab %.1f ns each: "
	       "%.2fx\n", n, k, best[0] * 1e9 / (double)n, best[1] * 1e9 / (double)n,
	       best[1] / best[0]);
	return 0;
}
