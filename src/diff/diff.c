/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Two profiles compared symbol by symbol.  Each side's amount for a symbol
 * is estimated from its samples: with n samples of average weight w (the
 * run's period over its samples) it is n*w, give or take w*sqrt(n) (Poisson).
 * A difference counts as a change when it is NOISE standard errors or more.
 * By share, the same with each share's binomial error.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/annotate.h"
#include "mycl/mycl.h"
#include "internal.h"
#include "diff_state.h"
#include "mycl/share.h"

struct side {
	const char *dso, *sym;
	uint64_t samples, period;
	uint64_t addr;			/* sym NULL: the address in the binary (0: all merged) */
};

static int key_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

static int side_cmp(const void *x, const void *y)
{
	const struct side *a = x, *b = y;
	int c = key_cmp(a->dso, b->dso);

	if (c || (c = key_cmp(a->sym, b->sym)))
		return c;
	return a->sym ? 0 : a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* V (N entries) sorted by (dso, name), equal keys merged; the count left. */
static size_t merge_sides(struct side *v, size_t n)
{
	size_t k = 0;

	sort_array(v, n, sizeof(*v), side_cmp);
	for (size_t i = 0; i < n; i++) {
		if (k && !side_cmp(&v[k - 1], &v[i])) {
			v[k - 1].samples += v[i].samples;
			v[k - 1].period += v[i].period;
			continue;
		}
		v[k++] = v[i];
	}
	return k;
}

/*
 * One row per (dso, symbol); the samples without a symbol per address in
 * their binary, as the flat profile has them (the same binary on both sides
 * has them at the same addresses).
 */
static int collect(const struct mycl_profile_event *ev, struct side **out, size_t *n)
{
	struct side *v = calloc(ev->nr_rows ? ev->nr_rows : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < ev->nr_rows; i++)
		v[i] = (struct side){ ev->rows[i].dso ? ev->rows[i].dso : "[unknown]", ev->rows[i].sym,
				      ev->rows[i].samples, ev->rows[i].period,
				      ev->rows[i].sym ? 0 : ev->rows[i].addr };
	*out = v;
	*n = merge_sides(v, ev->nr_rows);
	return 0;
}

/* One row per lock site (its function and binary), from the lock report. */
static int collect_sites(const void *rep, struct side **out, size_t *n)
{
	const struct mycl_lock_report *r = rep;
	struct side *v = calloc(r->nr_sites ? r->nr_sites : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_sites; i++)
		v[i] = (struct side){ r->sites[i].dso ? r->sites[i].dso : "[unknown]", r->sites[i].sym,
				      r->sites[i].samples, r->sites[i].period, 0 };
	*out = v;
	*n = merge_sides(v, r->nr_sites);
	return 0;
}

/* One row per struct member (data types), and one per reason the rest is not named. */
static int collect_types(const void *rep, struct side **out, size_t *n)
{
	const struct mycl_data_types *t = rep;
	struct side *v = calloc(t->nr_rows ? t->nr_rows : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct mycl_data_type_row *r = &t->rows[i];

		v[i] = (struct side){ r->type ? r->type : "(not named)",
				      r->type ? (r->member ? r->member : "(the whole object)") :
				      r->unknown, r->samples, r->period, 0 };
	}
	*out = v;
	*n = merge_sides(v, t->nr_rows);
	return 0;
}

static bool sorted_by_dso_sym(const struct mycl_profile *p)
{
	size_t n;
	const enum mycl_sort_key *k = mycl_profile__sort_keys(p, &n);

	return n == 2 && k[0] == MYCL_SORT_DSO && k[1] == MYCL_SORT_SYM;
}

static int row_cmp(const void *x, const void *y)
{
	const struct mycl_diff_row *a = x, *b = y;
	double da = fabs(a->delta), db = fabs(b->delta);

	if (da != db)
		return da < db ? 1 : -1;
	if (a->changed != b->changed)
		return a->changed ? -1 : 1;
	return side_cmp(&(struct side){ a->dso, a->sym, 0, 0, a->addr },
			&(struct side){ b->dso, b->sym, 0, 0, b->addr });
}

static void weigh(struct mycl_diff *d, struct mycl_diff_row *r)
{
	double w1 = d->base_samples ? (double)d->base_period / (double)d->base_samples : 0;
	double w2 = d->new_samples ? (double)d->new_period / (double)d->new_samples : 0;
	double se;

	r->base_share = d->base_period ? 100.0 * (double)r->base_period / (double)d->base_period : 0;
	r->new_share = d->new_period ? 100.0 * (double)r->new_period / (double)d->new_period : 0;
	if (d->by_share) {
		double p1 = r->base_share / 100, p2 = r->new_share / 100;
		double n1 = (double)d->base_samples, n2 = (double)d->new_samples;
		double p = n1 + n2 > 0 ? ((double)r->base_samples + (double)r->new_samples) / (n1 + n2) : 0;

		r->delta = r->new_share - r->base_share;
		/* The pooled share's binomial error: also when one side has none of it. */
		se = n1 > 0 && n2 > 0 ? sqrt(p * (1 - p) * (1 / n1 + 1 / n2)) : 0;
		r->z = se > 0 ? (p2 - p1) / se : 0;
	} else {
		r->delta = (double)r->new_period - (double)r->base_period;
		se = sqrt((double)r->base_samples * w1 * w1 + (double)r->new_samples * w2 * w2);
		r->z = se > 0 ? r->delta / se : 0;
	}
	r->changed = fabs(r->z) >= d->noise;
}

static const char *keep(struct mycl_diff *d, size_t *off, const char *s)
{
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	memcpy(d->strs + *off, s, n);
	*off += n;
	return d->strs + *off - n;
}

/* The rows of D from both sides' entries (A, B; freed here), names copied. */
static int diff_rows(struct mycl_diff *d, const char *base_event, const char *new_event,
		     struct side *a, size_t na, struct side *b, size_t nb)
{
	size_t i = 0, j = 0, bytes = 0, off = 0;

	d->rows = calloc(na + nb + 1, sizeof(*d->rows));
	for (size_t k = 0; k < na + nb; k++) {
		const struct side *s = k < na ? &a[k] : &b[k - na];

		bytes += strlen(s->dso) + 1 + (s->sym ? strlen(s->sym) + 1 : 0);
	}
	if (d->rows)
		d->strs = malloc(bytes + strlen(base_event) + strlen(new_event) + 2);
	if (!d->rows || !d->strs) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	d->base_event = keep(d, &off, base_event);
	d->new_event = keep(d, &off, new_event);
	/* Both sorted by (dso, symbol): one pass, rows on one side only included. */
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : side_cmp(&a[i], &b[j]);
		struct mycl_diff_row *r = &d->rows[d->nr_rows++];
		const struct side *s = c <= 0 ? &a[i] : &b[j];

		*r = (struct mycl_diff_row){ .dso = keep(d, &off, s->dso), .sym = keep(d, &off, s->sym),
					     .addr = s->sym ? 0 : s->addr };
		if (c <= 0) {
			r->base_samples = a[i].samples;
			r->base_period = a[i++].period;
		}
		if (c >= 0) {
			r->new_samples = b[j].samples;
			r->new_period = b[j++].period;
		}
		weigh(d, r);
		d->nr_changed += r->changed;
	}
	free(a);
	free(b);
	sort_array(d->rows, d->nr_rows, sizeof(*d->rows), row_cmp);
	return 0;
}

static struct mycl_diff *diff_new(const struct mycl_profile_event *eb,
				  const struct mycl_profile_event *en, const struct mycl_diff_opts *o)
{
	struct mycl_diff *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->by_share = OPTS_GET(o, by_share, false);
	d->noise = OPTS_GET(o, noise, 0) > 0 ? OPTS_GET(o, noise, 0) : 4.0;
	d->base_samples = eb->nr_samples;
	d->new_samples = en->nr_samples;
	d->base_period = eb->total_period;
	d->new_period = en->total_period;
	d->time = strstr(eb->event->name, "clock") && strstr(en->event->name, "clock");
	d->what = "symbol";
	return d;
}

MYCL_API int mycl_diff__build(const struct mycl_profile *base, size_t base_ev,
			      const struct mycl_profile *new_p, size_t new_ev,
			      const struct mycl_diff_opts *o, struct mycl_diff **out)
{
	const struct mycl_profile_event *eb, *en;
	struct side *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	struct mycl_diff *d;
	int err;

	if (!OPTS_VALID(o, mycl_diff_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	if (base_ev >= mycl_profile__nr_events(base) || new_ev >= mycl_profile__nr_events(new_p) ||
	    !sorted_by_dso_sym(base) || !sorted_by_dso_sym(new_p))
		return -EINVAL;
	eb = mycl_profile__event(base, base_ev);
	en = mycl_profile__event(new_p, new_ev);
	d = diff_new(eb, en, o);
	if (!d)
		return -ENOMEM;
	err = collect(eb, &a, &na);
	if (!err)
		err = collect(en, &b, &nb);
	if (!err)
		err = diff_rows(d, eb->event->name, en->event->name, a, na, b, nb);
	else {
		free(a);
		free(b);
	}
	if (err) {
		mycl_diff__free(d);
		return err;
	}
	*out = d;
	return 0;
}

/* What a comparison reads of each profile: an analysis, its rows, how it is freed. */
struct rows_of {
	const char *what;
	int (*read)(const struct mycl_profile *p, size_t ev, void **rep);
	int (*collect)(const void *rep, struct side **out, size_t *n);
	void (*free)(void *rep);
};

/* Both profiles' rows of one analysis, compared. */
static int build_rows(const struct mycl_profile *base, size_t base_ev,
		      const struct mycl_profile *new_p, size_t new_ev, const struct mycl_diff_opts *o,
		      const struct rows_of *by, struct mycl_diff **out)
{
	const struct mycl_profile_event *eb, *en;
	void *ra = NULL, *rb = NULL;
	struct side *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	struct mycl_diff *d;
	int err;

	*out = NULL;
	if (base_ev >= mycl_profile__nr_events(base) || new_ev >= mycl_profile__nr_events(new_p))
		return -EINVAL;
	eb = mycl_profile__event(base, base_ev);
	en = mycl_profile__event(new_p, new_ev);
	err = by->read(base, base_ev, &ra);
	if (!err)
		err = by->read(new_p, new_ev, &rb);
	d = err ? NULL : diff_new(eb, en, o);
	if (!err && !d)
		err = -ENOMEM;
	if (!err)
		err = by->collect(ra, &a, &na);
	if (!err)
		err = by->collect(rb, &b, &nb);
	if (!err) {
		d->what = by->what;
		err = diff_rows(d, eb->event->name, en->event->name, a, na, b, nb);
	} else {
		free(a);
		free(b);
	}
	if (ra)
		by->free(ra);
	if (rb)
		by->free(rb);
	if (err) {
		mycl_diff__free(d);
		return err;
	}
	*out = d;
	return 0;
}

static int read_locks(const struct mycl_profile *p, size_t ev, void **rep)
{
	return mycl_profile__locks(p, ev, (struct mycl_lock_report **)rep);
}

static void free_locks(void *rep)
{
	mycl_lock_report__free(rep);
}

static int read_types(const struct mycl_profile *p, size_t ev, void **rep)
{
	return mycl_profile__data_types(p, ev, true, (struct mycl_data_types **)rep);
}

static void free_types(void *rep)
{
	mycl_data_types__free(rep);
}

MYCL_API int mycl_diff__build_locks(const struct mycl_profile *base, size_t base_ev,
				    const struct mycl_profile *new_p, size_t new_ev,
				    const struct mycl_diff_opts *o, struct mycl_diff **out)
{
	static const struct rows_of by = { "lock site", read_locks, collect_sites, free_locks };

	if (!OPTS_VALID(o, mycl_diff_opts))
		return MYCL_ERR_OPTS;
	return build_rows(base, base_ev, new_p, new_ev, o, &by, out);
}

MYCL_API int mycl_diff__build_types(const struct mycl_profile *base, size_t base_ev,
				    const struct mycl_profile *new_p, size_t new_ev,
				    const struct mycl_diff_opts *o, struct mycl_diff **out)
{
	static const struct rows_of by = { "struct member", read_types, collect_types,
					   free_types };

	if (!OPTS_VALID(o, mycl_diff_opts))
		return MYCL_ERR_OPTS;
	return build_rows(base, base_ev, new_p, new_ev, o, &by, out);
}

/*
 * One row per cache line with samples: named by its variables (in address
 * order), so the same layout in two builds matches and a layout that changed
 * shows the old line gone and the new ones come.  NAMES holds the keys.
 */
static int collect_lines(const struct mycl_share *sh, const char *bin, struct side **out,
			 size_t *n, char **names)
{
	size_t nl = mycl_share__nr_lines(sh), k = 0, len = 0, cap = 0;
	struct side *v = calloc(nl ? nl : 1, sizeof(*v));
	size_t *offs = calloc(nl ? nl : 1, sizeof(*offs));
	char *buf = NULL;

	if (!v || !offs)
		goto nomem;
	for (size_t i = 0; i < nl; i++) {
		const struct mycl_share_line *l = mycl_share__line(sh, i);

		if (!l->samples)
			continue;
		offs[k] = len;
		for (size_t m = 0; m < l->nr_members && m < 8; m++) {
			const char *nm = mycl_share__var(sh, l->members[m])->name;
			size_t need = len + strlen(nm) + 8;

			if (ARRAY_GROW(buf, cap, need))
				goto nomem;
			len += (size_t)sprintf(buf + len, "%s%s", m ? ", " : "line of ", nm);
		}
		if (l->nr_members > 8) {
			if (ARRAY_GROW(buf, cap, len + 16))
				goto nomem;
			len += (size_t)sprintf(buf + len, ", ...");
		}
		if (ARRAY_GROW(buf, cap, len + 1))
			goto nomem;
		buf[len++] = 0;
		v[k++] = (struct side){ bin, NULL, l->samples, l->samples, 0 };
	}
	for (size_t i = 0; i < k; i++)
		v[i].sym = buf + offs[i];
	free(offs);
	*out = v;
	*n = merge_sides(v, k);
	*names = buf;
	return 0;
nomem:
	free(v);
	free(offs);
	free(buf);
	return -ENOMEM;
}

MYCL_API int mycl_diff__build_share(const struct mycl_share *base, const struct mycl_share *new_s,
				    const char *binary, const struct mycl_diff_opts *o,
				    struct mycl_diff **out)
{
	struct side *a = NULL, *b = NULL;
	char *na_names = NULL, *nb_names = NULL;
	size_t na = 0, nb = 0;
	struct mycl_diff *d = calloc(1, sizeof(*d));
	int err;

	if (!OPTS_VALID(o, mycl_diff_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->by_share = OPTS_GET(o, by_share, false);
	d->noise = OPTS_GET(o, noise, 0) > 0 ? OPTS_GET(o, noise, 0) : 4.0;
	/* Each run's samples in the binary: lines' samples are counts of them. */
	d->base_samples = d->base_period = mycl_share__binary_samples(base);
	d->new_samples = d->new_period = mycl_share__binary_samples(new_s);
	d->what = "cache line";
	err = collect_lines(base, binary, &a, &na, &na_names);
	if (!err)
		err = collect_lines(new_s, binary, &b, &nb, &nb_names);
	if (!err)
		err = diff_rows(d, "samples in the binary", "samples in the binary", a, na, b, nb);
	else {
		free(a);
		free(b);
	}
	free(na_names);
	free(nb_names);
	if (err) {
		mycl_diff__free(d);
		return err;
	}
	*out = d;
	return 0;
}

MYCL_API void mycl_diff__free(struct mycl_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->strs);
	free(d);
}

MYCL_API const struct mycl_diff_row *mycl_diff__rows(const struct mycl_diff *d, size_t *n)
{
	*n = d->nr_rows;
	return d->rows;
}

MYCL_API size_t mycl_diff__nr_changed(const struct mycl_diff *d)
{
	return d->nr_changed;
}
