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
#include "perfdata_priv.h"

static bool qent_before(const struct qent *x, const struct qent *y)
{
	return x->time < y->time;
}

/*
 * Sorts by time, stably: among equal times the queue's order is the order
 * records were queued in (the leftovers of a flush stay in front of what is
 * queued after it, and they were queued before).  A round holds one
 * time-sorted run per ring buffer (CPU) plus the sorted leftovers of the
 * round before, so a natural merge sort does O(n log runs) work where qsort
 * would do O(n log n).
 */
static int sort_queue(struct order_queue *q)
{
	struct qent *src = q->ents, *dst;
	size_t n = q->nr, *bounds, nb;

	if (n < 2)
		return 0;
	if (ARRAY_GROW(q->tmp, q->tmp_cap, n))
		return -ENOMEM;
	bounds = malloc((n + 1) * sizeof(*bounds));
	if (!bounds)
		return -ENOMEM;
	nb = 0;
	bounds[nb++] = 0;
	for (size_t i = 1; i < n; i++)
		if (qent_before(&src[i], &src[i - 1]))
			bounds[nb++] = i;
	bounds[nb] = n;
	dst = q->tmp;
	while (nb > 1) {
		size_t out = 0;

		for (size_t r = 0; r < nb; r += 2) {
			size_t i = bounds[r], mid = bounds[r + 1];
			size_t j = mid, end = r + 2 <= nb ? bounds[r + 2] : mid, k = i;

			while (i < mid && j < end)
				dst[k++] = qent_before(&src[j], &src[i]) ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < end)
				dst[k++] = src[j++];
			bounds[out++] = bounds[r];
		}
		bounds[out] = n;
		nb = out;
		{
			struct qent *t = src;

			src = dst;
			dst = t;
		}
	}
	if (src != q->ents) {
		/* The sorted entries are in tmp: swap the arrays. */
		size_t c = q->cap;

		q->tmp = q->ents;
		q->ents = src;
		q->cap = q->tmp_cap;
		q->tmp_cap = c;
	}
	free(bounds);
	return 0;
}

/* Room for LEN more bytes in the arena. */
static int arena_reserve(struct order_queue *q, size_t len)
{
	size_t ncap = q->acap ? q->acap : 64u << 10;
	uint8_t *n;

	if (q->used + len <= q->acap)
		return 0;
	while (ncap < q->used + len)
		ncap *= 2;
	n = realloc(q->arena, ncap);
	if (!n)
		return -ENOMEM;
	q->arena = n;
	q->acap = ncap;
	return 0;
}

int order_queue_push(struct mycl_perf_data *pd, uint64_t time, const uint8_t *rec, size_t len,
		     struct event_priv *ev)
{
	struct order_queue *q = &pd->q;
	int err;

	/* Time 0: a record perf made itself (LOST_SAMPLES at the end), no real time. */
	if (time < q->last_flushed && time)
		pd->stats.nr_unordered++;
	q->last_pushed = time;
	q->nr_pushed++;
	/* Bytes held: the arena, and the stream buffer from the oldest kept record. */
	if (q->nr && (q->used + len > pd->max_queue ||
		      (pd->st.keep_from != UINT64_MAX &&
		       pd->st.off + pd->st.tail - pd->st.keep_from > pd->max_queue))) {
		/* Deliver the older half now. */
		err = sort_queue(q);
		if (!err)
			err = order_queue_flush(pd, q->ents[q->nr / 2].time);
		if (err)
			return err;
	}
	if (ARRAY_GROW(q->ents, q->cap, q->nr + 1))
		return -ENOMEM;
	if (pd->st.buf && rec >= pd->st.buf && rec < pd->st.buf + pd->st.tail) {
		/* In the stream buffer: keep it there, no copy. */
		uint64_t off = pd->st.off + (uint64_t)(rec - pd->st.buf);

		q->ents[q->nr++] = (struct qent){ .time = time, .off = off,
						  .len = (uint32_t)len, .in_stream = true, .ev = ev };
		if (pd->st.keep_from == UINT64_MAX)
			pd->st.keep_from = off;
		if (time > q->max_time)
			q->max_time = time;
		return 0;
	}
	if (arena_reserve(q, len))
		return -ENOMEM;
	memcpy(q->arena + q->used, rec, len);
	q->ents[q->nr++] = (struct qent){ .time = time, .off = q->used,
					  .len = (uint32_t)len, .ev = ev };
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
	err = sort_queue(q);
	if (err)
		return err;
	for (i = 0; i < q->nr && q->ents[i].time <= upto; i++) {
		const struct qent *e = &q->ents[i];
		const uint8_t *rec = e->in_stream ? pd->st.buf + (e->off - pd->st.off)
						  : q->arena + e->off;

		err = pd_deliver(pd, rec, e->len, e->ev);
		q->last_flushed = q->ents[i].time;
		if (err) {
			i++;
			break;
		}
	}
	/*
	 * Move what is left to the front of the spare arena and swap: memory
	 * stays bounded by about two rounds and nothing is allocated per flush.
	 */
	pd->st.keep_from = UINT64_MAX;
	for (size_t k = i; k < q->nr; k++) {
		if (!q->ents[k].in_stream)
			kept_bytes += q->ents[k].len;
		else if (q->ents[k].off < pd->st.keep_from)
			pd->st.keep_from = q->ents[k].off;
	}
	if (kept_bytes > q->spare_cap) {
		uint8_t *n = realloc(q->spare, q->acap);

		if (!n)
			return -ENOMEM;
		q->spare = n;
		q->spare_cap = q->acap;
	}
	for (size_t k = i, off = 0; k < q->nr; k++) {
		q->ents[keep] = q->ents[k];
		if (q->ents[k].in_stream) {
			keep++;
			continue;
		}
		memcpy(q->spare + off, q->arena + q->ents[k].off, q->ents[k].len);
		q->ents[keep++].off = off;
		off += q->ents[k].len;
	}
	narena = q->arena;
	q->arena = q->spare;
	q->spare = narena;
	{
		size_t c = q->acap;

		q->acap = q->spare_cap;
		q->spare_cap = c;
	}
	q->nr = keep;
	q->used = kept_bytes;
	return err;
}

int order_queue_detach_stream(struct mycl_perf_data *pd)
{
	struct order_queue *q = &pd->q;

	for (size_t i = 0; i < q->nr; i++) {
		struct qent *e = &q->ents[i];

		if (!e->in_stream)
			continue;
		if (arena_reserve(q, e->len))
			return -ENOMEM;
		memcpy(q->arena + q->used, pd->st.buf + (e->off - pd->st.off), e->len);
		e->off = q->used;
		e->in_stream = false;
		q->used += e->len;
	}
	pd->st.keep_from = UINT64_MAX;
	return 0;
}

void order_queue_free(struct order_queue *q)
{
	free(q->ents);
	free(q->tmp);
	free(q->arena);
	free(q->spare);
	memset(q, 0, sizeof(*q));
}
