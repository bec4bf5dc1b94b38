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

void timeline_free(struct mycl_profile *p)
{
	for (size_t i = 0; i < p->nr_timelines; i++) {
		free(p->timelines[i].samples);
		free(p->timelines[i].period);
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
