/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writers inside one variable: members written on hot paths by different
 * threads' code (a ring's head by the producer, its tail by the consumer),
 * and a member written hot beside members only read while threads run (a
 * counter in a config struct), from the references share.c counted and the
 * call graph's threads.
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

const char *share_member_name(struct mycl_share *s, const struct mycl_share_var *v, uint32_t off)
{
	char buf[160];

	if (inline_member_path(s->dso, v->name, v->addr, off, buf, sizeof(buf)) || !strchr(buf, '.'))
		snprintf(buf, sizeof(buf), "%s+0x%x", v->name, off);
	return share_keep(s, strdup(buf));
}

/* An access of one member: of variable VAR at OFF; written hot, while threads run; read hot. */
struct ma {
	uint32_t var, off;
	bool hot_write, rt_write, rt_read;
};

static int ma_cmp(const void *a, const void *b)
{
	const struct ma *x = a, *y = b;

	if (x->var != y->var)
		return x->var < y->var ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Of the accesses [a, e) of one variable, by offset: the member written on
 * hot paths and, within the same line, the closest member read on hot paths
 * and never written while threads run.  False when there is no such pair.
 */
static bool inner_pair(const struct mycl_share *s, const struct ma *a, const struct ma *e,
		       uint32_t *w, uint32_t *r)
{
	uint64_t base = s->vars[a->var].addr, ls = s->line_size, best = UINT64_MAX;

	for (const struct ma *x = a, *xe; x < e; x = xe) {
		bool hot = false;

		for (xe = x; xe < e && xe->off == x->off; xe++)
			hot |= xe->hot_write;
		if (!hot)
			continue;
		for (const struct ma *y = a, *ye; y < e; y = ye) {
			bool read = false, written = false;
			uint64_t d = y->off > x->off ? y->off - x->off : x->off - y->off;

			for (ye = y; ye < e && ye->off == y->off; ye++) {
				read |= ye->rt_read;
				written |= ye->rt_write;
			}
			if (!read || written || d >= best ||
			    (base + x->off) / ls != (base + y->off) / ls)
				continue;
			best = d;
			*w = x->off;
			*r = y->off;
		}
	}
	return best != UINT64_MAX;
}

/* Whether A and B name elements of one array the same way ("v.id[24]", "v.id[25]"). */
static bool same_but_index(const char *a, const char *b)
{
	while (*a && *a == *b) {
		if (*a == '[') {
			while (*a && *a != ']')
				a++;
			while (*b && *b != ']')
				b++;
			if (!*a || !*b)
				return !*a && !*b;
		}
		a++;
		b++;
	}
	return !*a && !*b;
}

/*
 * Two members the debug info names ("v.a", "v.b.c"), neither inside the
 * other, nor elements of one array (a char buffer's bytes are one member).
 */
static bool distinct_members(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	if (strchr(a, '+') || strchr(b, '+') || !strchr(a, '.') || !strchr(b, '.') ||
	    same_but_index(a, b))
		return false;
	return strncmp(a, b, n) || (a[n] != '.' && b[n] != '.' && a[n] != '[' && b[n] != '[' &&
				    la != lb);
}

/*
 * Members written hot beside members only read while threads run, inside
 * one variable: a counter or a seed sharing its line with the switches the
 * same code reads (struct config { bool enabled; ... long hits; }).  Moving
 * the whole variable to a line of its own mends nothing there.
 */
/* Whether VAR has a pair already (INNER by var, as the first pass made it). */
static bool has_inner(const struct mycl_share *s, uint32_t var)
{
	size_t i = PARTITION_POINT(0, s->nr_inner, mid, s->inner[mid].var < var);

	return i < s->nr_inner && s->inner[i].var == var;
}

/* Whether VAR has a place among the N lock words LW (by var). */
static bool locked_var(const struct share_place *lw, size_t n, uint32_t var)
{
	size_t i = PARTITION_POINT(0, n, mid, lw[mid].var < var);

	return i < n && lw[i].var == var;
}

/*
 * (LW, N: only the variables of those lock words with no pair yet, each
 * lock word a member written hot)
 */
static int inner_readers(struct mycl_share *s, struct callgraph *cg, const struct share_place *lw,
			 size_t nlw)
{
	struct ma *m = NULL;
	size_t n = 0, cap = 0;
	int err = 0;

	for (size_t i = 0; i < nlw; i++) {
		const struct mycl_share_var *v = &s->vars[lw[i].var];

		if (v->kind != MYCL_SHARE_VAR_PLAIN || v->size <= 8 || has_inner(s, lw[i].var))
			continue;
		if (ARRAY_GROW(m, cap, n + 1)) {
			free(m);
			return -ENOMEM;
		}
		m[n++] = (struct ma){ lw[i].var, (uint32_t)(lw[i].where - v->addr), true, true, false };
	}
	for (size_t i = 0; i < s->nr_refs; i++) {
		const struct share_ref *r = &s->refs[i];
		const struct mycl_share_var *v = &s->vars[r->var];
		enum cg_heat h;

		if (r->access == ACC_NONE || r->access == ACC_ADDR || r->indexed || r->once ||
		    v->kind != MYCL_SHARE_VAR_PLAIN || v->size <= 8 || !v->hot_writes ||
		    (lw && (!locked_var(lw, nlw, r->var) || has_inner(s, r->var))))
			continue;
		if (ARRAY_GROW(m, cap, n + 1)) {
			free(m);
			return -ENOMEM;
		}
		h = callgraph_heat(cg, r->addr);
		m[n++] = (struct ma){ r->var, r->off,
				      r->access != ACC_READ && h == HEAT_HOT,
				      r->access != ACC_READ && (h == HEAT_HOT || h == HEAT_WARM ||
								h == HEAT_UNKNOWN),
				      r->access != ACC_WRITE && h == HEAT_HOT };
	}
	sort_array(m, n, sizeof(*m), ma_cmp);
	for (size_t i = 0, j; i < n && !err; i = j) {
		struct share_inner in = { .var = m[i].var };

		for (j = i; j < n && m[j].var == m[i].var; j++)
			;
		if (!inner_pair(s, &m[i], &m[j], &in.w, &in.r))
			continue;
		if (ARRAY_GROW(s->inner, s->inner_cap, s->nr_inner + 1)) {
			err = -ENOMEM;
			break;
		}
		in.mw = share_member_name(s, &s->vars[in.var], in.w);
		in.mr = share_member_name(s, &s->vars[in.var], in.r);
		/*
		 * Only members the debug info names, and two of them: without it
		 * "+0x8" may lie inside what "+0x0" is (a lock the C library
		 * writes whole, a 16-byte atomic).  Not two parts of one
		 * object of a library's type (a std::deque's cursors, which its
		 * own code moves, under the program's lock): no layout the
		 * program can change.
		 */
		if (in.mw && in.mr && distinct_members(in.mw, in.mr) &&
		    !share_library_part(s, &s->vars[in.var], in.w, in.r))
			s->inner[s->nr_inner++] = in;
	}
	free(m);
	return err;
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
		    r->once || callgraph_heat(cg, r->addr) != HEAT_HOT || callgraph_once_at(cg, r->addr))
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
		best.ma = share_member_name(s, &s->vars[best.var], best.a);
		best.mb = share_member_name(s, &s->vars[best.var], best.b);
		/* (an unnamed function's "0x..." lives with the call graph: copied) */
		best.fa = best.fa ? share_keep(s, strdup(best.fa)) : NULL;
		best.fb = best.fb ? share_keep(s, strdup(best.fb)) : NULL;
		s->splits[s->nr_splits++] = best;
	}
	free(w);
	return inner_readers(s, cg, NULL, 0);
}

static int inner_cmp(const void *a, const void *b)
{
	const struct share_inner *x = a, *y = b;

	return x->var < y->var ? -1 : x->var > y->var;
}

int share_lock_word_readers(struct mycl_share *s, struct callgraph *cg)
{
	size_t before = s->nr_inner;
	int err;

	if (!s->nr_lockw)
		return 0;
	err = inner_readers(s, cg, s->lockw, s->nr_lockw);
	if (s->nr_inner > before)
		sort_array(s->inner, s->nr_inner, sizeof(*s->inner), inner_cmp);
	return err;
}
