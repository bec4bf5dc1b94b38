/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An address space's maps in blocks.  glibc's tsearch tree would give the
 * logarithmic insert but neither the nearest map below an address (the
 * kernel's map reaches up to the next one) nor an in-order walk that can
 * stop; the blocks give all three with arrays the look-up searches as before
 * (doc/input.md, "Many mappings", has the measurement).  A forked process's
 * copy shares the blocks, each copied when one side first changes it: a
 * thousand forks of a process of 100,000 maps copy pointers, not maps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "maps.h"

#define MAPS_BLOCK 128

/* Shared by the processes forked from one another until one changes it. */
struct maps_block {
	int refcnt;
	size_t n;
	struct map v[MAPS_BLOCK];
};

static uint64_t new_stamp(void)
{
	static uint64_t stamps;

	return __atomic_add_fetch(&stamps, 1, __ATOMIC_RELAXED);
}

struct maps *maps_new(void)
{
	struct maps *ms = calloc(1, sizeof(*ms));

	if (ms) {
		ms->refcnt = 1;
		ms->stamp = new_stamp();
	}
	return ms;
}

void maps_clear(struct maps *ms)
{
	for (size_t k = 0; k < ms->nb; k++)
		if (--ms->b[k]->refcnt == 0)
			free(ms->b[k]);
	free(ms->b);
	ms->b = NULL;
	ms->nb = ms->bcap = ms->nr = 0;
	ms->last = NULL;
}

void maps_put(struct maps *ms)
{
	if (ms && --ms->refcnt == 0) {
		maps_clear(ms);
		free(ms);
	}
}

struct maps *maps_clone(const struct maps *src)
{
	struct maps *ms = maps_new();

	if (!ms || !src->nb)
		return ms;
	ms->b = malloc(src->nb * sizeof(*ms->b));
	if (!ms->b) {
		free(ms);
		return NULL;
	}
	ms->bcap = ms->nb = src->nb;
	for (size_t k = 0; k < src->nb; k++) {
		ms->b[k] = src->b[k];
		ms->b[k]->refcnt++;
	}
	ms->nr = src->nr;
	return ms;
}

/* The number of blocks whose first map starts at or below ADDR (below it when STRICT). */
static size_t blocks_upto(const struct maps *ms, uint64_t addr, bool strict)
{
	size_t lo = 0, hi = ms->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t s = ms->b[mid]->v[0].start;

		if (s < addr || (!strict && s == addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The number of BL's maps starting at or below ADDR (below it when STRICT). */
static size_t maps_upto(const struct maps_block *bl, uint64_t addr, bool strict)
{
	size_t lo = 0, hi = bl->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t s = bl->v[mid].start;

		if (s < addr || (!strict && s == addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Where the map starting last at or below ADDR is; false when none does. */
static bool locate_below(const struct maps *ms, uint64_t addr, size_t *bi, size_t *i)
{
	size_t k = blocks_upto(ms, addr, false);

	if (!k)
		return false;
	*bi = k - 1;
	*i = maps_upto(ms->b[k - 1], addr, false) - 1;
	return true;
}

const struct map *maps_below(const struct maps *ms, uint64_t ip)
{
	size_t bi, i;

	return locate_below(ms, ip, &bi, &i) ? &ms->b[bi]->v[i] : NULL;
}

const struct map *maps_find(struct maps *ms, uint64_t ip)
{
	const struct map *map = ms->last;

	if (map && ip >= map->start && ip < map->end)
		return map;
	map = maps_below(ms, ip);
	if (map && ip < map->end) {
		ms->last = map;
		return map;
	}
	return NULL;
}

const struct map *maps_next(const struct maps *ms, struct maps_iter *it)
{
	while (it->b < ms->nb && it->i >= ms->b[it->b]->n) {
		it->b++;
		it->i = 0;
	}
	return it->b < ms->nb ? &ms->b[it->b]->v[it->i++] : NULL;
}

/* Block BI made MS's alone, copied when another process shares it. */
static int own(struct maps *ms, size_t bi)
{
	struct maps_block *bl = ms->b[bi], *copy;

	if (bl->refcnt == 1)
		return 0;
	copy = malloc(sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	copy->refcnt = 1;
	copy->n = bl->n;
	memcpy(copy->v, bl->v, bl->n * sizeof(*bl->v));
	bl->refcnt--;
	ms->b[bi] = copy;
	return 0;
}

static int remove_at(struct maps *ms, size_t bi, size_t i)
{
	struct maps_block *bl;

	if (own(ms, bi))
		return -ENOMEM;
	bl = ms->b[bi];

	memmove(bl->v + i, bl->v + i + 1, (bl->n - i - 1) * sizeof(*bl->v));
	ms->nr--;
	if (--bl->n)
		return 0;
	free(bl);
	memmove(ms->b + bi, ms->b + bi + 1, (ms->nb - bi - 1) * sizeof(*ms->b));
	ms->nb--;
	return 0;
}

/* Puts X, which overlaps no map, in its place; a full block splits in two. */
static int put(struct maps *ms, const struct map *x)
{
	struct maps_block *bl;
	size_t bi = blocks_upto(ms, x->start, true), i;

	if (ARRAY_GROW(ms->b, ms->bcap, ms->nb + 1))
		return -ENOMEM;
	if (!ms->nb) {
		bl = malloc(sizeof(*bl));
		if (!bl)
			return -ENOMEM;
		bl->refcnt = 1;
		bl->n = 0;
		ms->b[ms->nb++] = bl;
	}
	bi = bi ? bi - 1 : 0;
	if (own(ms, bi))
		return -ENOMEM;
	bl = ms->b[bi];
	if (bl->n == MAPS_BLOCK) {
		struct maps_block *up = malloc(sizeof(*up));

		if (!up)
			return -ENOMEM;
		up->refcnt = 1;
		up->n = MAPS_BLOCK / 2;
		memcpy(up->v, bl->v + MAPS_BLOCK / 2, up->n * sizeof(*up->v));
		bl->n = MAPS_BLOCK / 2;
		memmove(ms->b + bi + 2, ms->b + bi + 1, (ms->nb - bi - 1) * sizeof(*ms->b));
		ms->b[bi + 1] = up;
		ms->nb++;
		if (x->start > up->v[0].start)
			bl = up;
	}
	i = maps_upto(bl, x->start, true);
	memmove(bl->v + i + 1, bl->v + i, (bl->n - i) * sizeof(*bl->v));
	bl->v[i] = *x;
	bl->n++;
	ms->nr++;
	return 0;
}

int maps_insert(struct maps *ms, const struct map *nm)
{
	size_t bi, i;
	int err;

	if (nm->end <= nm->start)
		return 0;
	ms->stamp = new_stamp();
	ms->last = NULL;
	/* The maps it overlaps, from the highest down: the first may keep its top, the last its bottom. */
	while (locate_below(ms, nm->end - 1, &bi, &i)) {
		struct map o = ms->b[bi]->v[i], piece = o;

		if (o.end <= nm->start)
			break;
		err = remove_at(ms, bi, i);
		if (err)
			return err;
		if (o.end > nm->end) {
			piece.pgoff += nm->end - o.start;
			piece.start = nm->end;
			err = put(ms, &piece);
			if (err)
				return err;
		}
		if (o.start < nm->start) {
			o.end = nm->start;
			err = put(ms, &o);
			if (err)
				return err;
			break;
		}
	}
	return put(ms, nm);
}
