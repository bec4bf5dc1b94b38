/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Samples over time: per event, the kept samples in buckets of equal
 * width from the first sample on.  The width starts at 1 ms and doubles
 * (pairs of buckets merged) whenever a sample falls past the last of
 * TL_BUCKETS, so a timeline stays small for any length of recording and
 * as fine as the recording's length allows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_state.h"

#define TL_BUCKETS 4096
#define TL_WIDTH0 1000000ULL	/* 1 ms */

int timeline_add(struct mycl_profile *p, size_t ev, uint64_t t, uint64_t period)
{
	struct timeline *tl;
	uint64_t i;

	if (!t)
		return 0;
	if (ev >= p->nr_timelines) {
		struct timeline *n = realloc(p->timelines, (ev + 1) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + p->nr_timelines, 0, (ev + 1 - p->nr_timelines) * sizeof(*n));
		p->timelines = n;
		p->nr_timelines = ev + 1;
	}
	tl = &p->timelines[ev];
	if (!tl->samples) {
		tl->samples = calloc(TL_BUCKETS, sizeof(*tl->samples));
		tl->period = calloc(TL_BUCKETS, sizeof(*tl->period));
		if (!tl->samples || !tl->period)
			return -ENOMEM;
		/* the header's first sample time, when it has one, is before every sample */
		tl->start = mycl_perf_data__info(p->pd)->first_sample_time;
		if (!tl->start || tl->start > t)
			tl->start = t;
		tl->width = TL_WIDTH0;
	}
	i = t > tl->start ? (t - tl->start) / tl->width : 0;
	while (i >= TL_BUCKETS) {
		for (size_t k = 0; k < TL_BUCKETS / 2; k++) {
			tl->samples[k] = tl->samples[2 * k] + tl->samples[2 * k + 1];
			tl->period[k] = tl->period[2 * k] + tl->period[2 * k + 1];
		}
		memset(tl->samples + TL_BUCKETS / 2, 0, TL_BUCKETS / 2 * sizeof(*tl->samples));
		memset(tl->period + TL_BUCKETS / 2, 0, TL_BUCKETS / 2 * sizeof(*tl->period));
		tl->width *= 2;
		tl->used = (tl->used + 1) / 2;
		i = (t - tl->start) / tl->width;
	}
	tl->samples[i]++;
	tl->period[i] += period;
	if (i + 1 > tl->used)
		tl->used = (size_t)i + 1;
	return 0;
}

static uint64_t st_hash(uint32_t bucket, uint32_t leaf)
{
	uint64_t h = ((uint64_t)bucket << 32 | leaf) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static bool st_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	const struct mycl_timed_stack *e = &((const struct timeline *)ctx)->stacks[i];

	*h = st_hash(e->bucket, e->stack);
	return true;
}

/* After the width doubled: each stack's buckets merged pairwise. */
static int st_merge(struct timeline *tl)
{
	size_t k = 0, h;

	for (size_t i = 0; i < tl->nr_stacks; i++)
		tl->stacks[i].bucket /= 2;
	/* equal (bucket, stack) pairs now: merged through a fresh index */
	itable_free(&tl->st_index);
	if (itable_reserve(&tl->st_index, tl->nr_stacks, 64))
		return -ENOMEM;
	for (size_t i = 0; i < tl->nr_stacks; i++) {
		struct mycl_timed_stack *e = &tl->stacks[i];

		itable_each(&tl->st_index, st_hash(e->bucket, e->stack), h) {
			struct mycl_timed_stack *o = &tl->stacks[tl->st_index.slot[h]];

			if (o->bucket == e->bucket && o->stack == e->stack)
				break;
		}
		if (tl->st_index.slot[h] != ITABLE_EMPTY) {
			tl->stacks[tl->st_index.slot[h]].samples += e->samples;
			continue;
		}
		tl->stacks[k] = *e;
		itable_put(&tl->st_index, h, k++);
	}
	tl->nr_stacks = k;
	return 0;
}

int timeline_stack(struct mycl_profile *p, size_t ev, uint64_t t, uint32_t leaf)
{
	struct timeline *tl;
	uint32_t bucket;
	size_t h;
	int err;

	if (!t || ev >= p->nr_timelines || !p->timelines[ev].samples)
		return 0;
	tl = &p->timelines[ev];
	if (!tl->st_width)
		tl->st_width = tl->width;
	while (tl->st_width < tl->width) {
		/* the timeline doubled its width since: the stacks follow */
		err = st_merge(tl);
		if (err)
			return err;
		tl->st_width *= 2;
	}
	bucket = (uint32_t)(t > tl->start ? (t - tl->start) / tl->width : 0);
	if (itable_full(&tl->st_index, tl->nr_stacks) &&
	    (err = itable_grow(&tl->st_index, tl->nr_stacks, 256, st_hash_at, tl)))
		return err;
	itable_each(&tl->st_index, st_hash(bucket, leaf), h) {
		struct mycl_timed_stack *e = &tl->stacks[tl->st_index.slot[h]];

		if (e->bucket == bucket && e->stack == leaf) {
			e->samples++;
			return 0;
		}
	}
	if (tl->nr_stacks == tl->cap_stacks) {
		size_t cap = tl->cap_stacks ? tl->cap_stacks * 2 : 256;
		struct mycl_timed_stack *n = realloc(tl->stacks, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		tl->stacks = n;
		tl->cap_stacks = cap;
	}
	tl->stacks[tl->nr_stacks] = (struct mycl_timed_stack){ .bucket = bucket, .stack = leaf,
								.samples = 1 };
	itable_put(&tl->st_index, h, tl->nr_stacks++);
	return 0;
}

MYCL_API size_t mycl_profile__timed_stacks(const struct mycl_profile *p, size_t ev,
					   const struct mycl_timed_stack **out)
{
	*out = NULL;
	if (ev >= p->nr_timelines || !p->timelines[ev].stacks)
		return 0;
	*out = p->timelines[ev].stacks;
	return p->timelines[ev].nr_stacks;
}

void timeline_free(struct mycl_profile *p)
{
	for (size_t i = 0; i < p->nr_timelines; i++) {
		free(p->timelines[i].samples);
		free(p->timelines[i].period);
		free(p->timelines[i].stacks);
		itable_free(&p->timelines[i].st_index);
	}
	free(p->timelines);
}

MYCL_API int mycl_profile__timeline(const struct mycl_profile *p, size_t ev,
				    struct mycl_timeline *out)
{
	memset(out, 0, sizeof(*out));
	if (ev >= p->nr_timelines || !p->timelines[ev].samples)
		return -ENOENT;
	out->start = p->timelines[ev].start;
	out->width = p->timelines[ev].width;
	out->nr = p->timelines[ev].used;
	out->samples = p->timelines[ev].samples;
	out->period = p->timelines[ev].period;
	return 0;
}
