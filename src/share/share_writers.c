/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Each variable's writers by function, from the writes share.c counted:
 * summed per function, hottest first, with when and why each runs; and the
 * functions among them that write while threads run, which a recording's
 * call chains credit (share_perf.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "share_state.h"

static int wr_cmp(const void *a, const void *b)
{
	const struct share_wr *x = a, *y = b;

	if (x->var != y->var)
		return x->var < y->var ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

/* A variable's writers, hottest first, then by their writes, then by address. */
static int writer_rank_cmp(const void *a, const void *b)
{
	const struct share_wr *x = a, *y = b;

	if (x->var != y->var)
		return x->var < y->var ? -1 : 1;
	/* at exit and at start-up rank alike: both "startup" */
	int hx = x->heat == HEAT_EXIT ? HEAT_STARTUP : x->heat;
	int hy = y->heat == HEAT_EXIT ? HEAT_STARTUP : y->heat;

	if (hx != hy)
		return hx > hy ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

static int wfunc_cmp(const void *a, const void *b)
{
	const struct share_wfunc *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static const char *heat_word(uint8_t h)
{
	switch (h) {
	case HEAT_HOT: return "hot";
	case HEAT_WARM: return "warm";
	case HEAT_STARTUP: case HEAT_EXIT: return "startup";
	default: return "unknown";
	}
}

/* The writes counted, summed per variable and function: COUNT, the hottest HEAT and its AT. */
static size_t sum_writes(struct share_wr *v, size_t n)
{
	size_t out = 0;

	sort_array(v, n, sizeof(*v), wr_cmp);
	for (size_t i = 0; i < n; i++) {
		struct share_wr *o = out ? &v[out - 1] : NULL;

		if (o && o->var == v[i].var && o->func == v[i].func) {
			o->count++;
			if (!o->once)
				o->once = v[i].once;
			if (v[i].heat > o->heat)
				o->heat = v[i].heat, o->at = v[i].at;
			continue;
		}
		v[out++] = v[i];
	}
	return out;
}

static int wsite_cmp(const void *a, const void *b)
{
	const struct share_wsite *x = a, *y = b;

	if (x->var != y->var)
		return x->var < y->var ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* Every write while threads run, by variable, function and address (before they are summed). */
static int write_sites(struct mycl_share *s)
{
	size_t n = 0;

	s->wsites = malloc((s->nr_wrs ? s->nr_wrs : 1) * sizeof(*s->wsites));
	if (!s->wsites)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_wrs; i++)
		if (s->wrs[i].heat >= HEAT_WARM && s->wrs[i].func)
			s->wsites[n++] = (struct share_wsite){ s->wrs[i].var, s->wrs[i].func,
							       s->wrs[i].at };
	sort_array(s->wsites, n, sizeof(*s->wsites), wsite_cmp);
	s->nr_wsites = n;
	return 0;
}

static int add_span(uint64_t from, uint64_t to, void *arg)
{
	struct mycl_share *s = arg;

	if (ARRAY_GROW(s->wspans, s->wspans_cap, s->nr_wspans + 1))
		return -ENOMEM;
	s->wspans[s->nr_wspans].from = from;
	s->wspans[s->nr_wspans++].to = to;
	return 0;
}

/*
 * Each variable's writers by function, hottest first, at most
 * MYCL_SHARE_MAX_WRITERS; and the functions among them that write while
 * threads run, for a recording's call chains (share_perf.c).
 */
int share_make_writers(struct mycl_share *s, struct callgraph *cg)
{
	size_t n, kept = 0, nw = 0;
	struct mycl_share_writer *w;
	int err = write_sites(s);

	if (err)
		return err;
	n = sum_writes(s->wrs, s->nr_wrs);

	sort_array(s->wrs, n, sizeof(*s->wrs), writer_rank_cmp);
	/* Keep the first few of each variable, in place. */
	for (size_t i = 0, run = 0; i < n; i++) {
		run = i && s->wrs[i].var == s->wrs[i - 1].var ? run + 1 : 0;
		if (run < MYCL_SHARE_MAX_WRITERS)
			s->wrs[kept++] = s->wrs[i];
	}
	w = calloc(kept ? kept : 1, sizeof(*w));
	s->wfuncs = calloc(kept ? kept : 1, sizeof(*s->wfuncs));
	if (!w || !s->wfuncs) {
		free(w);
		return -ENOMEM;
	}
	for (size_t i = 0; i < kept && !err; i++) {
		const struct share_wr *r = &s->wrs[i];
		struct mycl_share_var *v = &s->vars[r->var];
		const char *name = NULL;
		char hex[24], why[200];
		uint64_t end = r->func ? callgraph_func_end(cg, r->func, &name) : 0;

		if (!name) {
			snprintf(hex, sizeof(hex), "0x%" PRIx64, r->func);
			name = hex;
		}
		callgraph_why(cg, r->at, why, sizeof(why));
		w[i] = (struct mycl_share_writer){
			share_keep(s, strdup(name)), r->func, heat_word(r->heat), r->count,
			r->once ? savef(s, "%s; %s", why, share_once_why(r->once)) :
				  share_keep(s, strdup(why)) };
		if (!w[i].function || !w[i].why)
			err = -ENOMEM;
		if (!v->nr_writers)
			v->writers = &w[i];
		v->nr_writers++;
		if (r->heat >= HEAT_WARM && end)
			s->wfuncs[nw++] = (struct share_wfunc){ .start = r->func, .end = end };
	}
	s->writers = w;
	/* One entry a function. */
	sort_array(s->wfuncs, nw, sizeof(*s->wfuncs), wfunc_cmp);
	s->nr_wfuncs = 0;
	for (size_t i = 0; i < nw; i++)
		if (!s->nr_wfuncs || s->wfuncs[s->nr_wfuncs - 1].start != s->wfuncs[i].start)
			s->wfuncs[s->nr_wfuncs++] = s->wfuncs[i];
	/* their loops, for a chain's place in them (share_perf.c) */
	for (size_t i = 0; i < s->nr_wfuncs && !err; i++) {
		s->wfuncs[i].first_span = (uint32_t)s->nr_wspans;
		err = callgraph_for_each_loop(cg, s->wfuncs[i].start, add_span, s);
		s->wfuncs[i].nr_spans = (uint32_t)(s->nr_wspans - s->wfuncs[i].first_span);
	}
	free(s->wrs);
	s->wrs = NULL;
	s->nr_wrs = s->wrs_cap = 0;
	return err;
}
