/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One address space's maps: disjoint address ranges, each to a binary at an
 * offset, kept in address order in blocks of at most MAPS_BLOCK maps.  A new
 * map trims or splits the maps it overlaps (the later mmap wins).  Insert,
 * look-up and the nearest map below an address cost a binary search over the
 * blocks and one inside a block, plus moving at most one block's maps, so a
 * process with hundreds of thousands of maps (from any order of records)
 * costs what it holds, not its square.
 */
#ifndef MYCL_MAPS_H
#define MYCL_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct dso;

struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;
};

struct maps_block;

struct maps {
	struct maps_block **b;		/* in address order; none empty */
	size_t nb, bcap;
	size_t nr;			/* maps in all blocks */
	const struct map *last;		/* the last map found: a look-up cache */
	int refcnt;
	uint64_t stamp;			/* new at every change, unique among all maps */
};

/* Where an iteration stands: for (it = {0}; (mp = maps_next(ms, &it));) */
struct maps_iter {
	size_t b, i;
};

struct maps *maps_new(void);
/* A copy of SRC (a forked process's), with a new stamp; NULL when out of memory. */
struct maps *maps_clone(const struct maps *src);
/* Drops a reference; the last one frees the maps. */
void maps_put(struct maps *ms);
/* Frees what MS holds (an embedded struct, not from maps_new) and empties it. */
void maps_clear(struct maps *ms);
/* Inserts NEW, trimming or splitting the maps it overlaps; an empty map maps nothing. */
int maps_insert(struct maps *ms, const struct map *nm);
/* The map holding IP, or NULL. */
const struct map *maps_find(struct maps *ms, uint64_t ip);
/* The map starting last at or below IP, whether or not it reaches IP. */
const struct map *maps_below(const struct maps *ms, uint64_t ip);
const struct map *maps_next(const struct maps *ms, struct maps_iter *it);

#endif
