/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "itable.h"

int itable_grow(struct itable *t, size_t n, size_t min,
		bool (*hash)(const void *ctx, size_t i, uint64_t *h), const void *ctx)
{
	size_t ncap = t->cap ? t->cap * 2 : min, s;
	struct itable nt;

	if (n >= UINT32_MAX - 1)
		return -EOVERFLOW;
	while (ncap < (n + 1) * 2)
		ncap *= 2;
	nt.cap = ncap;
	nt.slot = malloc(ncap * sizeof(*nt.slot));
	if (!nt.slot)
		return -ENOMEM;
	mem_hint_large(nt.slot, ncap * sizeof(*nt.slot));	/* before the fill below touches it */
	memset(nt.slot, 0xff, ncap * sizeof(*nt.slot));
	for (size_t i = 0; i < n; i++) {
		uint64_t h;

		if (!hash(ctx, i, &h))
			continue;
		itable_each(&nt, h, s)
			;
		nt.slot[s] = (uint32_t)i;
	}
	free(t->slot);
	*t = nt;
	return 0;
}

static bool none(const void *ctx, size_t i, uint64_t *h)
{
	return false;
}

int itable_reserve(struct itable *t, size_t n, size_t min)
{
	*t = (struct itable){ 0 };
	return itable_grow(t, n, min, none, NULL);
}

void itable_free(struct itable *t)
{
	free(t->slot);
	t->slot = NULL;
	t->cap = 0;
}
