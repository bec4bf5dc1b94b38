/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program for the perf archive fixture: it posts entries to a ledger and
 * folds each into a running digest.  Nothing here is a lock; the point is
 * that its symbols and source lines come back from the archive alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct entry {
	uint64_t account, amount;
};

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

__attribute__((noinline)) uint64_t ledger_digest(const struct entry *e, size_t n)
{
	uint64_t h = 0;

	for (size_t i = 0; i < n; i++)
		h = mix(mix(h, e[i].account), e[i].amount);
	return h;
}

__attribute__((noinline)) void ledger_post(struct entry *e, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		e[i].account = seed >> 40;
		e[i].amount = seed & 0xffff;
	}
}

int main(int argc, char **argv)
{
	size_t n = 1 << 16;
	long rounds = argc > 1 ? atol(argv[1]) : 3000;
	struct entry *e = malloc(n * sizeof(*e));
	uint64_t d = 0;

	if (!e)
		return 1;
	for (long r = 0; r < rounds; r++) {
		ledger_post(e, n, (uint64_t)r);
		d ^= ledger_digest(e, n);
	}
	printf("%016llx\n", (unsigned long long)d);
	free(e);
	return 0;
}
