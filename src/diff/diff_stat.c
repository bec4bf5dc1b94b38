/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Two perf stat recordings compared.  A count of a whole run is one number
 * per side: without repeated measurements its noise is unknown and said so.
 * With -I, each interval's count per second is a measurement of the rate:
 * the difference of the mean rates over its standard error (Welch) tells a
 * change from the run-to-run wobble.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/diff.h"
#include "mycl/stat.h"
#include "internal.h"

struct mycl_stat_diff {
	struct mycl_stat_diff_row *rows;
	size_t nr;
	const struct mycl_stat *base, *new_s;
};

static const char *state(const struct mycl_stat_row *r)
{
	return !r ? "absent" : !r->supported ? "<not supported>" : !r->counted ? "<not counted>"
								 : NULL;
}

static bool same(const struct mycl_stat_row *a, const struct mycl_stat_row *b)
{
	return a->cpu == b->cpu && a->pid == b->pid && !strcmp(a->event, b->event);
}

static const struct mycl_stat_row *find(const struct mycl_stat_interval *iv,
					const struct mycl_stat_row *r)
{
	for (size_t i = 0; i < iv->nr_rows; i++)
		if (same(&iv->rows[i], r))
			return &iv->rows[i];
	return NULL;
}

/* The mean and the variance of the mean of R's count per second over ST's intervals. */
static bool rate(const struct mycl_stat *st, const struct mycl_stat_row *r, double *mean,
		 double *var)
{
	size_t n = 0;
	double sum = 0, sq = 0;

	for (size_t i = 0; i < mycl_stat__nr_intervals(st); i++) {
		const struct mycl_stat_interval *iv = mycl_stat__interval(st, i);
		const struct mycl_stat_row *x = find(iv, r);

		/* a short last interval (the run ended in it) weighs as much: left out */
		if (!x || !x->counted || !iv->length ||
		    (i + 1 == mycl_stat__nr_intervals(st) && i && iv->length * 2 <
		     mycl_stat__interval(st, 0)->length))
			continue;
		double v = x->count / ((double)iv->length / 1e9);

		sum += v;
		sq += v * v;
		n++;
	}
	if (n < 2)
		return false;
	*mean = sum / (double)n;
	*var = (sq - sum * sum / (double)n) / (double)(n - 1) / (double)n;
	if (*var < 0)
		*var = 0;
	return true;
}

MYCL_API int mycl_diff__build_stat(const struct mycl_stat *base, const struct mycl_stat *new_s,
				   const struct mycl_diff_opts *opts, struct mycl_stat_diff **out)
{
	const struct mycl_stat_interval *a = mycl_stat__total(base), *b = mycl_stat__total(new_s);
	double noise = OPTS_GET(opts, noise, 0.0) > 0 ? OPTS_GET(opts, noise, 0.0) : 4.0;
	struct mycl_stat_diff *d = calloc(1, sizeof(*d));

	if (!OPTS_VALID(opts, mycl_diff_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->rows = calloc(a->nr_rows + b->nr_rows + 1, sizeof(*d->rows));
	if (!d->rows) {
		free(d);
		return -ENOMEM;
	}
	d->base = base;
	d->new_s = new_s;
	/* base's rows in its order, then those only NEW has */
	for (int side = 0; side < 2; side++) {
		const struct mycl_stat_interval *iv = side ? b : a;

		for (size_t i = 0; i < iv->nr_rows; i++) {
			const struct mycl_stat_row *r = &iv->rows[i];
			const struct mycl_stat_row *x = side ? NULL : find(b, r);
			struct mycl_stat_diff_row *o;
			double mb, vb, mn, vn;

			if (side && find(a, r))
				continue;
			o = &d->rows[d->nr++];
			*o = (struct mycl_stat_diff_row){ .event = r->event, .cpu = r->cpu,
							  .pid = r->pid, .comm = r->comm,
							  .unit = r->unit };
			o->base_state = state(side ? NULL : r);
			o->new_state = state(side ? r : x);
			if (side) {
				o->new_counted = r->counted;
				o->new_count = r->count;
				o->metric_unit = r->metric_unit;
				o->new_metric = r->metric;
				continue;
			}
			o->base_counted = r->counted;
			o->base = r->count;
			o->metric_unit = r->metric_unit;
			o->base_metric = r->metric;
			if (!x)
				continue;
			o->new_counted = x->counted;
			o->new_count = x->count;
			o->new_metric = x->metric;
			if (!o->metric_unit)
				o->metric_unit = x->metric_unit;
			if (o->base_counted && o->new_counted && o->base)
				o->change = 100.0 * (o->new_count - o->base) / o->base;
			if (rate(base, r, &mb, &vb) && rate(new_s, r, &mn, &vn)) {
				o->noise_known = true;
				o->base_rate = mb;
				o->new_rate = mn;
				o->z = vb + vn > 0 ? (mn - mb) / sqrt(vb + vn) : (mn != mb ? INFINITY : 0);
				o->changed = fabs(o->z) >= noise;
			}
		}
	}
	*out = d;
	return 0;
}

MYCL_API void mycl_diff__stat_free(struct mycl_stat_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d);
}

MYCL_API const struct mycl_stat_diff_row *mycl_diff__stat_rows(const struct mycl_stat_diff *d,
							      size_t *n)
{
	*n = d->nr;
	return d->rows;
}
