/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The globals a spin loop draws its back-off from: the lock analysis's
 * spin-delay seed (code/lockcode.c: written in the acquire's loop, by a
 * generator the loop calls or by a delay's, however deep) of each function
 * holding an atomic instruction, or calling an atomic helper (aarch64's
 * outline atomics): an acquire loop has one.  Only those are analysed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "callgraph.h"
#include "lockcode.h"
#include "share_state.h"

struct spin_ctx {
	struct mycl_share *s;
	uint64_t *atomic_fns;			/* function starts, sorted */
	size_t nr_atomic;
	uint64_t *more;				/* callers of atomic helpers */
	size_t nr_more, more_cap;
};

static bool has(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	lo = PARTITION_POINT(lo, hi, mid, v[mid] < x);
	return lo < n && v[lo] == x;
}

/* Sorts V and drops repeats; the count left. */
static size_t uniq(uint64_t *v, size_t n)
{
	size_t k = 0;

	sort_array(v, n, sizeof(*v), u64_cmp);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* Marks the variable named by FN's seed, when FN (a function start) is a spin loop with one. */
static void mark_seed_of(struct mycl_share *s, uint64_t fn)
{
	const struct sym *f = symtab_find(&s->dso->syms, fn);
	const struct lock_code *c;

	if (!f || f->start != fn || !(c = lock_code_of(s->dso, f, NULL, NULL)) || !c->seed)
		return;
	/* (a lock-free retry loop, LK_UPDATE, spins for no lock: its stores are its work) */
	if (c->kind != LK_ACQUIRE && c->kind != LK_ENTER && c->kind != LK_DELAY)
		return;
	for (size_t i = 0; i < s->nr_vars; i++)
		if (s->vars[i].name == c->seed || !strcmp(s->vars[i].name, c->seed))
			s->vars[i].spin_seed = true;
}

/* A caller of an atomic helper (aarch64's outline atomics, __aarch64_swp4_acq) holds one too. */
static int helper_call(uint64_t at, uint64_t caller, uint64_t callee, void *arg)
{
	struct spin_ctx *x = arg;

	(void)at;
	if (has(x->atomic_fns, x->nr_atomic, callee) && !has(x->atomic_fns, x->nr_atomic, caller)) {
		if (ARRAY_GROW(x->more, x->more_cap, x->nr_more + 1))
			return -ENOMEM;
		x->more[x->nr_more++] = caller;
	}
	return 0;
}

int share_spin_seeds(struct mycl_share *s, struct callgraph *cg, uint64_t *atomic_fns, size_t n)
{
	struct spin_ctx x = { .s = s, .atomic_fns = atomic_fns };
	int err;

	x.nr_atomic = uniq(atomic_fns, n);
	if (!x.nr_atomic)
		return 0;
	err = callgraph_for_each_call(cg, helper_call, &x);
	if (!err && x.nr_more) {
		uint64_t *v = realloc(x.more, (x.nr_more + x.nr_atomic) * sizeof(*v));

		if (!v) {
			err = -ENOMEM;
			goto out;
		}
		x.more = v;
		memcpy(v + x.nr_more, atomic_fns, x.nr_atomic * sizeof(*v));
		x.atomic_fns = v;
		x.nr_atomic = uniq(v, x.nr_more + x.nr_atomic);
	}
	/* each: its seed (written in its loop, by a delay or a generator it calls, however deep) */
	for (size_t i = 0; !err && i < x.nr_atomic; i++)
		mark_seed_of(s, x.atomic_fns[i]);
out:
	free(x.more);
	return err;
}
