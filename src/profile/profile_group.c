/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The group view of a recording whose samples read a group of counters
 * (leader sampling, '{cycles,instructions}:S'): the members' rows side by
 * side, matched on the sort keys, as perf report shows a group by default.
 * Built from the finished profile's rows only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/profile.h"
#include "internal.h"

struct tagged {
	const struct mycl_hot_row *row;
	size_t member;
};

static int str_cmp(const char *a, const char *b)
{
	if (a == b)
		return 0;
	return strcmp(a ? a : "", b ? b : "");
}

/* The order of the sort keys: rows of two members that compare equal are one entry. */
static int key_cmp(const struct mycl_hot_row *x, const struct mycl_hot_row *y)
{
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if ((c = str_cmp(x->comm, y->comm)))
		return c;
	if ((c = str_cmp(x->dso, y->dso)))
		return c;
	if ((c = str_cmp(x->dso_path, y->dso_path)))
		return c;
	return str_cmp(x->sym, y->sym);
}

static int tagged_cmp(const void *a, const void *b)
{
	const struct tagged *x = a, *y = b;
	int c = key_cmp(x->row, y->row);

	if (c)
		return c;
	return x->member < y->member ? -1 : x->member > y->member;
}

static uint64_t member_period(const struct mycl_group_row *r, size_t m)
{
	return r->members[m] ? r->members[m]->total_period : 0;
}

/* perf's group sort: the leader's period, then each member's in turn, then the keys. */
static int grow_cmp(const void *a, const void *b, void *ctx)
{
	const struct mycl_group_row *x = a, *y = b;
	size_t nr = *(const size_t *)ctx;

	for (size_t m = 0; m < nr; m++) {
		uint64_t px = member_period(x, m), py = member_period(y, m);

		if (px != py)
			return px > py ? -1 : 1;
	}
	return key_cmp(x->key, y->key);
}

static bool is_hw(const struct mycl_event *e, uint64_t config)
{
	return e->type == 0 && (e->config & 0xffffffffULL) == config;
}

MYCL_API int mycl_profile__group_view(const struct mycl_profile *p, size_t leader,
				      struct mycl_group_view **out)
{
	size_t nev = mycl_profile__nr_events(p), total = 0, n = 0;
	const struct mycl_profile_event *lp = mycl_profile__event(p, leader);
	struct mycl_group_view *g;
	struct tagged *all;
	size_t *members;

	*out = NULL;
	if (!lp || !lp->event || lp->event->group_leader != lp->event->idx ||
	    lp->event->nr_group_members < 2)
		return -ENOENT;
	g = calloc(1, sizeof(*g));
	members = calloc(nev, sizeof(*members));
	if (!g || !members) {
		free(g);
		free(members);
		return -ENOMEM;
	}
	g->leader = leader;
	g->members = members;
	g->cycles = g->instructions = -1;
	members[g->nr_members++] = leader;
	for (size_t e = 0; e < nev; e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(p, e);

		if (e != leader && pe && pe->event && pe->event->group_leader == lp->event->idx)
			members[g->nr_members++] = e;
	}
	for (size_t m = 0; m < g->nr_members; m++) {
		const struct mycl_event *ev = mycl_profile__event(p, members[m])->event;

		total += mycl_profile__event(p, members[m])->nr_rows;
		if (is_hw(ev, 0) && g->cycles < 0)
			g->cycles = (int)m;
		if (is_hw(ev, 1) && g->instructions < 0)
			g->instructions = (int)m;
	}
	all = malloc((total ? total : 1) * sizeof(*all));
	g->rows = calloc(total ? total : 1, sizeof(*g->rows));
	g->slots = calloc((total ? total : 1) * g->nr_members, sizeof(*g->slots));
	if (!all || !g->rows || !g->slots) {
		free(all);
		mycl_group_view__free(g);
		return -ENOMEM;
	}
	for (size_t m = 0; m < g->nr_members; m++) {
		const struct mycl_profile_event *pe = mycl_profile__event(p, members[m]);

		for (size_t i = 0; i < pe->nr_rows; i++)
			all[n++] = (struct tagged){ &pe->rows[i], m };
	}
	sort_array(all, n, sizeof(*all), tagged_cmp);
	for (size_t i = 0; i < n; i++) {
		struct mycl_group_row *r;

		if (i && !key_cmp(all[i - 1].row, all[i].row) && all[i - 1].member < all[i].member) {
			r = &g->rows[g->nr_rows - 1];
		} else {
			r = &g->rows[g->nr_rows];
			r->members = &g->slots[g->nr_rows * g->nr_members];
			r->key = all[i].row;
			g->nr_rows++;
		}
		r->members[all[i].member] = all[i].row;
	}
	free(all);
	if (g->nr_rows)
		qsort_r(g->rows, g->nr_rows, sizeof(*g->rows), grow_cmp, &g->nr_members);
	*out = g;
	return 0;
}

MYCL_API void mycl_group_view__free(struct mycl_group_view *g)
{
	if (!g)
		return;
	free((void *)g->members);
	free(g->slots);
	free(g->rows);
	free(g);
}
