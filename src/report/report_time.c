/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A recording's samples over time in a few lines of text: a strip of the
 * sample rate in up to 64 columns (so spikes and idle gaps show), the
 * busiest stretch with the --time argument that selects it, and the gaps.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/profile.h"
#include "json.h"
#include "report_priv.h"

#define MAX_COLS 64

struct strip {
	uint64_t start, colw;		/* ns */
	size_t nr;
	uint64_t count[MAX_COLS];
	uint64_t len[MAX_COLS];		/* ns each column covers (the last may be short) */
};

/* Event EV's timeline in columns; false when it has too little time to show. */
static bool make_strip(const struct mycl_profile *p, size_t ev, struct strip *s)
{
	struct mycl_timeline tl;
	size_t k;

	if (mycl_profile__timeline(p, ev, &tl) || tl.nr < 4)
		return false;
	k = (tl.nr + MAX_COLS - 1) / MAX_COLS;
	memset(s, 0, sizeof(*s));
	s->start = tl.start;
	s->colw = k * tl.width;
	s->nr = (tl.nr + k - 1) / k;
	for (size_t i = 0; i < tl.nr; i++) {
		s->count[i / k] += tl.samples[i];
		s->len[i / k] += tl.width;
	}
	return true;
}

static double rate(const struct strip *s, size_t i)
{
	return s->len[i] ? (double)s->count[i] / ((double)s->len[i] / 1e9) : 0;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void secs(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns / 1000 % 1000000);
}

int report_over_time(FILE *f, const struct mycl_profile *p, size_t ev)
{
	static const char *const glyph[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	struct strip s;
	double rates[MAX_COLS], sorted[MAX_COLS], top = 0, median;
	size_t nz = 0, peak = 0, lo, hi, gaps = 0;

	if (!make_strip(p, ev, &s))
		return 0;
	for (size_t i = 0; i < s.nr; i++) {
		rates[i] = rate(&s, i);
		if (rates[i] > top) {
			top = rates[i];
			peak = i;
		}
		if (s.count[i])
			sorted[nz++] = rates[i];
	}
	qsort(sorted, nz, sizeof(*sorted), dbl_cmp);
	median = nz ? sorted[nz / 2] : 0;
	fprintf(f, "Samples of '%s' a second, in columns of %.3g s from ",
		mycl_profile__event(p, ev)->event->name, (double)s.colw / 1e9);
	secs(f, s.start);
	fprintf(f, " s; the tallest %.0f a second, the median %.0f:\n|", top, median);
	for (size_t i = 0; i < s.nr; i++) {
		size_t g = top > 0 ? (size_t)(rates[i] / top * 7.999) : 0;

		fputs(s.count[i] ? glyph[g > 7 ? 7 : g] : " ", f);
	}
	fputs("|\n", f);
	/* the busiest stretch: the peak and its neighbours at 1.5x the median or more */
	if (nz >= 4 && top >= 2 * median && s.count[peak] >= 10) {
		for (lo = peak; lo > 0 && rates[lo - 1] >= 1.5 * median; lo--)
			;
		for (hi = peak; hi + 1 < s.nr && rates[hi + 1] >= 1.5 * median; hi++)
			;
		fprintf(f, "Busiest: +%.3g to +%.3g s, %.1fx the median rate: --time ",
			(double)(lo * s.colw) / 1e9, (double)((hi + 1) * s.colw) / 1e9, top / median);
		secs(f, s.start + lo * s.colw);
		fputc(',', f);
		secs(f, s.start + hi * s.colw + s.len[hi]);
		fputs(" selects it\n", f);
	}
	for (size_t i = 0; i < s.nr && gaps < 3; i++) {
		size_t j = i;

		if (s.count[i] || !i)
			continue;
		while (j + 1 < s.nr && !s.count[j + 1])
			j++;
		if (j + 1 < s.nr) {
			fprintf(f, "%s+%.3g to +%.3g s", gaps ? ", " : "Idle (no samples): ",
				(double)(i * s.colw) / 1e9, (double)((j + 1) * s.colw) / 1e9);
			gaps++;
		}
		i = j;
	}
	if (gaps)
		fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

void report_over_time_json(struct json *j, const struct mycl_profile *p, size_t ev)
{
	struct strip s;

	if (!make_strip(p, ev, &s)) {
		json_str(j, NULL, NULL);
		return;
	}
	json_begin_obj(j, NULL);
	json_u64(j, "start_ns", s.start);
	json_u64(j, "column_ns", s.colw);
	json_begin_arr(j, "samples");
	for (size_t i = 0; i < s.nr; i++)
		json_u64(j, NULL, s.count[i]);
	json_end_arr(j);
	json_end_obj(j);
}
