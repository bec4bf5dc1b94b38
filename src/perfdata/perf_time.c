/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Time slices of a recording, in perf's --time syntax (perf report, perf
 * script, perf diff), read the way perf reads them so that the samples kept
 * are the ones perf keeps:
 *   START,STOP      seconds[.nanoseconds] of the recording's clock, inclusive,
 *                   either side empty for open; several separated by spaces
 *   a%/n            the nth slice of a% of [first sample, last sample]
 *   a%-b%           from a% to b% of it
 *   a%              the first a%
 * Percent items are separated by commas and may be mixed.  A percent slice
 * starts at first + round(a * total) and ends one nanosecond before the
 * next slice starts, unless it ends at the last sample (perf's rounding).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata_priv.h"

#define NSEC_PER_SEC 1000000000ULL

/* [P, E) as seconds[.up to 9 digits] into *NS; digits only, no sign.  0 or -1. */
static int parse_seconds(const char *p, const char *e, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0, fdigits = 0;

	for (; p < e && *p >= '0' && *p <= '9'; p++, digits++) {
		if (sec > (UINT64_MAX / NSEC_PER_SEC - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (p < e && *p == '.') {
		for (p++; p < e && *p >= '0' && *p <= '9'; p++, fdigits++) {
			if (fdigits == 9)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
	}
	if (p != e || (!digits && !fdigits))
		return -1;
	for (; fdigits < 9; fdigits++)
		frac *= 10;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

/* [P, E) as a percentage "12.5%" into *FRACTION (0.125).  0 or -1. */
static int parse_percent(const char *p, const char *e, double *fraction)
{
	char buf[64], *end;

	if (e - p < 2 || e[-1] != '%' || (size_t)(e - p) >= sizeof(buf) ||
	    !((*p >= '0' && *p <= '9') || *p == '.'))
		return -1;
	memcpy(buf, p, (size_t)(e - p - 1));
	buf[e - p - 1] = '\0';
	*fraction = strtod(buf, &end);
	if (*end || !isfinite(*fraction))
		return -1;
	*fraction /= 100.0;
	return 0;
}

static int add_range(struct mycl_perf_data *pd, uint64_t start, uint64_t end)
{
	struct mycl_time_range *r;

	r = realloc(pd->times, (pd->nr_times + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	pd->times = r;
	r[pd->nr_times++] = (struct mycl_time_range){ .start = start, .end = end };
	return 0;
}

static int bad(struct mycl_perf_data *pd, const char *p, const char *e, const char *why)
{
	if ((size_t)(e - p) == strlen(pd->time_spec))
		return pd_error(pd, -EINVAL, "time slice '%s': %s", pd->time_spec, why);
	return pd_error(pd, -EINVAL, "time slice '%.*s' of '%s': %s", (int)(e - p), p,
			pd->time_spec, why);
}

/* One percent item [P, E) of the recording's [FIRST, LAST]. */
static int percent_item(struct mycl_perf_data *pd, const char *p, const char *e,
			uint64_t first, uint64_t last)
{
	const char *slash = memchr(p, '/', (size_t)(e - p));
	const char *dash = memchr(p, '-', (size_t)(e - p));
	uint64_t total = last - first, start, end;
	double a, b;

	if (slash) {
		char *ne;
		long n;

		if (parse_percent(p, slash, &a) || slash[1] < '0' || slash[1] > '9')
			return bad(pd, p, e, "a%/n takes a percentage and a slice number (10%/2: "
				   "the second tenth)");
		errno = 0;
		n = strtol(slash + 1, &ne, 10);
		if (ne != e || errno)
			return bad(pd, p, e, "a%/n takes a percentage and a slice number (10%/2: "
				   "the second tenth)");
		if (a <= 0.0 || a > 1.0)
			return bad(pd, p, e, "the slice size is not above 0% and at most 100%");
		if (n < 1 || a * (double)(n - 1) >= 1.0 || a * (double)n > 1.0 + 1e-12) {
			char why[96];

			snprintf(why, sizeof(why), "no such slice: slices of %.*s are numbered 1 to %ld",
				 (int)(slash - p), p, (long)floor(1.0 / a + 1e-9));
			return bad(pd, p, e, why);
		}
		b = a * (double)n;
		a = a * (double)(n - 1);
		if (b > 1.0)
			b = 1.0;
	} else if (dash) {
		if (parse_percent(p, dash, &a) || parse_percent(dash + 1, e, &b))
			return bad(pd, p, e, "a%-b% takes two percentages (0%-10%)");
		if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
			return bad(pd, p, e, "percentages run from 0% to 100%");
		if (b < a)
			return bad(pd, p, e, "it ends before it starts");
	} else {
		if (parse_percent(p, e, &b))
			return bad(pd, p, e, "not a percentage, a%/n, a%-b% or START,STOP in seconds");
		if (b <= 0.0 || b > 1.0)
			return bad(pd, p, e, "the slice size is not above 0% and at most 100%");
		a = 0.0;
	}
	start = first + (uint64_t)llround(a * (double)total);
	end = first + (uint64_t)llround(b * (double)total);
	if (end > start && end != last)
		end--;
	return add_range(pd, start, end);
}

/* One absolute range [P, E): "START,STOP", either side empty. */
static int absolute_item(struct mycl_perf_data *pd, const char *p, const char *e)
{
	const char *comma = memchr(p, ',', (size_t)(e - p));
	uint64_t start = 0, end = UINT64_MAX;

	if (!comma || memchr(comma + 1, ',', (size_t)(e - comma - 1)))
		return bad(pd, p, e, "give START,STOP in seconds (either side may be empty: "
			   "'12.5,' or ',13'; several ranges separated by spaces) or percentages "
			   "(10%/2, 0%-10%, 25%; several separated by commas)");
	if ((comma > p && parse_seconds(p, comma, &start)) ||
	    (comma + 1 < e && parse_seconds(comma + 1, e, &end)))
		return bad(pd, p, e, "times are seconds with at most 9 decimals (1128.089430)");
	if (end < start)
		return bad(pd, p, e, "it ends before it starts");
	if (pd->nr_times && start <= pd->times[pd->nr_times - 1].end)
		return bad(pd, p, e, "it does not start after the range before it ends");
	return add_range(pd, start, end);
}

int pd_time_parse(struct mycl_perf_data *pd, const char *spec, uint64_t first, uint64_t last)
{
	const char *p, *e;
	int err = 0;

	if (strchr(spec, '%')) {
		if (last < first)
			err = pd_error(pd, MYCL_ERR_CORRUPT, "time slice '%s': the header's last "
				       "sample time is before its first", spec);
		for (p = spec; !err; p = e + 1) {
			e = p + strcspn(p, ",");
			err = percent_item(pd, p, e, first, last);
			if (!*e)
				break;
		}
	} else {
		for (p = spec + strspn(spec, " "); !err && *p; p = e + strspn(e, " ")) {
			e = p + strcspn(p, " ");
			err = absolute_item(pd, p, e);
		}
	}
	if (!err && !pd->nr_times)
		err = pd_error(pd, -EINVAL, "time slice '%s': empty; give START,STOP in seconds or "
			       "percentages (10%%/2, 0%%-10%%)", spec);
	return err;
}

bool pd_time_skip(const struct mycl_perf_data *pd, uint64_t t)
{
	/* A sample without a time is kept, as perf keeps it (read() refuses those events). */
	if (!t)
		return false;
	for (size_t i = 0; i < pd->nr_times; i++)
		if (t >= pd->times[i].start && t <= pd->times[i].end)
			return false;
	return true;
}

MYCL_API size_t mycl_perf_data__time_ranges(const struct mycl_perf_data *pd,
					    const struct mycl_time_range **ranges)
{
	*ranges = pd->times;
	return pd->nr_times;
}

MYCL_API const char *mycl_perf_data__time(const struct mycl_perf_data *pd)
{
	return pd->time_spec;
}
