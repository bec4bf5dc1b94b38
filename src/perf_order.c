/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Time ordering of records, the way perf orders them: records are held back
 * and, at each FINISHED_ROUND, those not later than the largest timestamp of
 * the round before are delivered sorted by time (file order among equals).
 * All ring buffers have been drained up to that point, so nothing earlier can
 * still arrive.  Memory is bounded: past max_queue bytes the older half is
 * delivered early, as perf does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perf_data_priv.h"

static int qent_cmp(const void *a, const void *b)
{
	const struct qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int order_queue_push(struct mycl_perf_data *pd, uint64_t time, const uint8_t *rec, size_t len)
{
	struct order_queue *q = &pd->q;
	int err;

	if (time < q->last_flushed)
		pd->stats.nr_unordered++;
	if (q->used + len > pd->max_queue && q->nr) {
		/* Deliver the older half now. */
		qsort(q->ents, q->nr, sizeof(*q->ents), qent_cmp);
		err = order_queue_flush(pd, q->ents[q->nr / 2].time);
		if (err)
			return err;
	}
	if (ARRAY_GROW(q->ents, q->cap, q->nr + 1))
		return -ENOMEM;
	if (q->used + len > q->acap) {
		size_t ncap = q->acap ? q->acap : 1u << 20;
		uint8_t *n;

		while (ncap < q->used + len)
			ncap *= 2;
		n = realloc(q->arena, ncap);
		if (!n)
			return -ENOMEM;
		q->arena = n;
		q->acap = ncap;
	}
	memcpy(q->arena + q->used, rec, len);
	q->ents[q->nr++] = (struct qent){ .time = time, .seq = q->seq++, .off = q->used,
					  .len = (uint32_t)len };
	q->used += len;
	if (time > q->max_time)
		q->max_time = time;
	return 0;
}

/* Delivers every queued record with time <= UPTO, in time order. */
int order_queue_flush(struct mycl_perf_data *pd, uint64_t upto)
{
	struct order_queue *q = &pd->q;
	size_t i, keep = 0, kept_bytes = 0;
	uint8_t *narena = NULL;
	int err = 0;

	if (!q->nr)
		return 0;
	qsort(q->ents, q->nr, sizeof(*q->ents), qent_cmp);
	for (i = 0; i < q->nr && q->ents[i].time <= upto; i++) {
		err = pd_deliver(pd, q->arena + q->ents[i].off, q->ents[i].len);
		q->last_flushed = q->ents[i].time;
		if (err) {
			i++;
			break;
		}
	}
	/* Compact what is left into a fresh arena so memory stays bounded. */
	for (size_t k = i; k < q->nr; k++)
		kept_bytes += q->ents[k].len;
	if (kept_bytes) {
		narena = malloc(kept_bytes > q->acap / 2 ? q->acap : q->acap / 2 + kept_bytes);
		if (!narena)
			return -ENOMEM;
		for (size_t k = i, off = 0; k < q->nr; k++) {
			memcpy(narena + off, q->arena + q->ents[k].off, q->ents[k].len);
			q->ents[keep] = q->ents[k];
			q->ents[keep++].off = off;
			off += q->ents[k].len;
		}
		q->acap = kept_bytes > q->acap / 2 ? q->acap : q->acap / 2 + kept_bytes;
		free(q->arena);
		q->arena = narena;
	}
	q->nr = keep;
	q->used = kept_bytes;
	return err;
}

void order_queue_free(struct order_queue *q)
{
	free(q->ents);
	free(q->arena);
	memset(q, 0, sizeof(*q));
}
