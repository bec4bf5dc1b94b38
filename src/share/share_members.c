/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writers inside one variable: members written on hot paths by different
 * threads' code (a ring's head by the producer, its tail by the consumer),
 * from the references share.c counted and the call graph's threads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "inline.h"
#include "insn.h"
#include "share_state.h"

/* A hot write of a member: of variable VAR at OFF, by a function of thread ROOT. */
struct mw {
	uint32_t var, off;
	uint64_t root, fn;
};

static int mw_cmp(const void *a, const void *b)
{
	const struct mw *x = a, *y = b;

	if (x->var != y->var)
		return x->var < y->var ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->root < y->root ? -1 : x->root > y->root;
}

/* Whether the sorted roots of [a, ae) and [b, be) are all known and none in both. */
static bool apart(const struct mw *a, const struct mw *ae, const struct mw *b, const struct mw *be)
{
	if (!a->root || !b->root)
		return false;		/* (sorted: a 0, unknown, comes first) */
	while (a < ae && b < be) {
		if (a->root == b->root)
			return false;
		if (a->root < b->root)
			a++;
		else
			b++;
	}
	return true;
}

static const char *member_name(struct mycl_share *s, const struct mycl_share_var *v, uint32_t off)
{
	char buf[160];

	if (inline_member_path(s->dso, v->name, v->addr, off, buf, sizeof(buf)) || !strchr(buf, '.'))
		snprintf(buf, sizeof(buf), "%s+0x%x", v->name, off);
	return share_keep(s, strdup(buf));
}

/*
 * Members of one variable written on hot paths by different threads' code,
 * each member by its own (a ring's head by the producer, its tail by the
 * consumer): the closest such pair of each variable, within 256 bytes.
 * Only writers whose thread the code shows count (a thread entry's calls,
 * main's after its first thread); a callback may run on any thread.
 */
int share_member_writers(struct mycl_share *s, struct callgraph *cg)
{
	struct mw *w = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < s->nr_refs; i++) {
		const struct share_ref *r = &s->refs[i];

		if ((r->access != ACC_WRITE && r->access != ACC_RMW) || r->indexed ||
		    s->vars[r->var].kind != MYCL_SHARE_VAR_PLAIN || s->vars[r->var].size <= 1 ||
		    r->once || callgraph_heat(cg, r->addr) != HEAT_HOT)
			continue;
		if (ARRAY_GROW(w, cap, n + 1)) {
			free(w);
			return -ENOMEM;
		}
		w[n++] = (struct mw){ r->var, r->off, callgraph_thread_root(cg, r->addr),
				      callgraph_func_start(cg, r->addr) };
	}
	sort_array(w, n, sizeof(*w), mw_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		struct share_split best = { .var = w[i].var };
		uint32_t dist = UINT32_MAX;

		for (j = i; j < n && w[j].var == w[i].var; j++)
			;
		/* runs of one offset within [i, j) */
		for (size_t a = i, ae; a < j; a = ae) {
			for (ae = a; ae < j && w[ae].off == w[a].off; ae++)
				;
			for (size_t b = ae, be; b < j && w[b].off - w[a].off < 256; b = be) {
				for (be = b; be < j && w[be].off == w[b].off; be++)
					;
				if (w[b].off - w[a].off < dist && apart(&w[a], &w[ae], &w[b], &w[be])) {
					dist = w[b].off - w[a].off;
					best.a = w[a].off, best.b = w[b].off;
					callgraph_func_end(cg, w[a].fn, &best.fa);
					callgraph_func_end(cg, w[b].fn, &best.fb);
				}
			}
		}
		if (dist == UINT32_MAX)
			continue;
		if (ARRAY_GROW(s->splits, s->splits_cap, s->nr_splits + 1)) {
			free(w);
			return -ENOMEM;
		}
		best.ma = member_name(s, &s->vars[best.var], best.a);
		best.mb = member_name(s, &s->vars[best.var], best.b);
		/* (an unnamed function's "0x..." lives with the call graph: copied) */
		best.fa = best.fa ? share_keep(s, strdup(best.fa)) : NULL;
		best.fb = best.fb ? share_keep(s, strdup(best.fb)) : NULL;
		s->splits[s->nr_splits++] = best;
	}
	free(w);
	return 0;
}
