/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loops as the code spans them (a backward branch's target to the branch),
 * and which of them are spin-waits: what mycl-share marks as written while
 * spinning (a spin delay's seed) and the places a recording's chains pass.
 */
#include <errno.h>
#include <stdlib.h>
#include "callgraph_priv.h"
#include "internal.h"

/* The spans [lo, hi) of one function inside a spin-wait spin too (its wait for the word, with its delay). */
static void spin_nested(struct callgraph *cg, size_t lo, size_t hi)
{
	for (size_t k = lo; k < hi; k++)
		for (size_t j = lo; j < hi && !cg->back[k].spins; j++)
			if (cg->back[j].spins && j != k && cg->back[j].from <= cg->back[k].from &&
			    cg->back[k].to <= cg->back[j].to)
				cg->back[k].spins = true;
}

/* The innermost of one function's spans [lo, hi) around ADDR, or NULL. */
static struct cg_back *innermost(struct callgraph *cg, size_t lo, size_t hi, uint64_t addr)
{
	struct cg_back *in = NULL;

	for (size_t k = lo; k < hi; k++)
		if (cg->back[k].from <= addr && addr <= cg->back[k].to &&
		    (!in || cg->back[k].to - cg->back[k].from < in->to - in->from))
			in = &cg->back[k];
	return in;
}

#define SPIN_INSNS 48			/* a spin-wait's own loop is no longer */

/*
 * Whether the way from AT leaves span B: it starts outside, or returns or
 * jumps out within a few instructions without a branch (-O0 places the
 * success's return inside the loop's span).
 */
static bool leaves(const struct cfg_node *v, size_t n, uint64_t at, const struct cg_back *b)
{
	size_t i = cfg_node_at(v, n, at);

	for (int k = 0; k < 6 && i < n; k++, i++) {
		if (v[i].addr < b->from || v[i].addr > b->to)
			return true;
		if (v[i].ret)
			return true;
		if (v[i].jump && v[i].target)
			return v[i].target < b->from || v[i].target > b->to;
		if (v[i].branch || v[i].call || v[i].jump)
			return false;
	}
	return false;
}

/*
 * The function's backward branches on a cycle (the N instructions in buf,
 * IN: on one), each the span of code it goes round.  Spin-waits among them:
 * the spans an atomic exchange is retried in (its success, the way of the
 * test after it taken when the old value is zero, leaves them), the
 * innermost span around a pause or yield, and the spans inside such one (the
 * wait for the word to clear before the next exchange, with its delay).  A
 * worker's loop around an inlined lock is no spin-wait: its exchange's
 * success stays in it.
 */
int cg_back_edges(struct callgraph *cg, size_t n, const bool *in)
{
	size_t first = cg->nr_back;
	bool any = false, spinny = false;	/* a span spins; an exchange or pause seen */

	for (size_t i = 0; i < n; i++) {
		const struct cfg_node *v = &cg->buf[i];

		spinny |= in[i] && (v->takes || v->spin);
		if (!in[i] || !v->target || v->call || v->target > v->addr ||
		    v->target < cg->buf[0].addr)
			continue;
		if (ARRAY_GROW(cg->back, cg->back_cap, cg->nr_back + 1))
			return -ENOMEM;
		cg->back[cg->nr_back++] = (struct cg_back){ cg->buf_func, v->target, v->addr, false };
	}
	for (size_t i = 0; i < n && cg->nr_back > first && spinny; i++) {
		const struct cfg_node *v = &cg->buf[i];
		struct cg_back *inner;
		uint64_t won = 0;		/* where the exchange's success goes */

		if (!in[i] || !(v->takes || v->spin))
			continue;
		/* the test of the old value after the exchange: zero, the word was free */
		for (size_t j = i + 1; v->takes && j < n && j <= i + 4 && !won; j++)
			if (cg->buf[j].branch && !cg->buf[j].jump && cg->buf[j].target &&
			    cg->buf[j].on_zero)
				won = cg->buf[j].on_zero == 1 ? cg->buf[j].target :
				      j + 1 < n ? cg->buf[j + 1].addr : UINT64_MAX;
		for (size_t k = first; k < cg->nr_back; k++) {
			struct cg_back *b = &cg->back[k];

			if (b->from > v->addr || v->addr > b->to)
				continue;
			/*
			 * The loops the success leaves: the exchange's retries, a lock's own
			 * loop, a few instructions (not a server's main loop that takes a
			 * spinlock inline and finds its critical section placed before it).
			 */
			if (won && leaves(cg->buf, n, won, b) &&
			    cfg_node_at(cg->buf, n, b->to) - cfg_node_at(cg->buf, n, b->from) <= SPIN_INSNS)
				b->spins = true;
		}
		/* a pause's loop */
		if (v->spin && (inner = innermost(cg, first, cg->nr_back, v->addr)))
			inner->spins = true;
	}
	for (size_t k = first; k < cg->nr_back && !any; k++)
		any = cg->back[k].spins;
	cg->f[cg->buf_func].spins = any;
	if (any)
		spin_nested(cg, first, cg->nr_back);
	return 0;
}

static int back_cmp(const void *a, const void *b)
{
	const struct cg_back *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* Each loop span of function F (cg->back sorted).  0 or CB's. */
int cg_for_each_loop(const struct callgraph *cg, uint32_t f,
		     int (*cb)(uint64_t from, uint64_t to, void *arg), void *arg)
{
	size_t lo = PARTITION_POINT(0, cg->nr_back, mid, cg->back[mid].func < f);
	int err = 0;

	for (size_t i = lo; i < cg->nr_back && cg->back[i].func == f && !err; i++)
		err = cb(cg->back[i].from, cg->back[i].to, arg);
	return err;
}

/* F pauses and makes no atomic access, itself or in what it calls (aarch64's outline atomics). */
static bool delay_fn(const struct callgraph *cg, uint32_t f)
{
	size_t lo;

	if (!cg->f[f].pauses || cg->f[f].atomics)
		return false;
	lo = PARTITION_POINT(0, cg->nr_e, mid, cg->e[mid].caller < f);
	for (size_t k = lo; k < cg->nr_e && cg->e[k].caller == f; k++)
		if (cg->f[cg->e[k].callee].atomics)
			return false;
	return true;
}

/*
 * Loops that call a function that pauses and makes no atomic access (a spin
 * delay: ut_delay, perform_spin_delay; not a lock's acquire that pauses)
 * wait by spinning too, whatever word they test: the innermost loop around
 * each such call, and the loops inside it.  After every function is read
 * (the callee's pause may come later).
 */
static void delay_calls(struct callgraph *cg)
{
	for (size_t k = 0; k < cg->nr_e; k++) {
		const struct cg_edge *e = &cg->e[k];
		struct cg_back *inner;
		size_t lo, hi;

		/* (a delay pauses and takes nothing; a lock's acquire that pauses is no delay) */
		if (e->callee == e->caller || !delay_fn(cg, e->callee))
			continue;
		lo = PARTITION_POINT(0, cg->nr_back, mid, cg->back[mid].func < e->caller);
		hi = PARTITION_POINT(lo, cg->nr_back, mid, cg->back[mid].func <= e->caller);
		inner = innermost(cg, lo, hi, e->at);
		if (!inner || inner->spins)
			continue;
		inner->spins = true;
		cg->f[e->caller].spins = true;
		spin_nested(cg, lo, hi);
	}
}

/* ADDR is in a spin-wait of F's (cg_back_edges()). */
bool cg_in_spin(const struct callgraph *cg, uint32_t f, uint64_t addr)
{
	size_t lo;

	if (!cg->f[f].spins)
		return false;
	lo = PARTITION_POINT(0, cg->nr_back, mid, cg->back[mid].func < f);

	for (size_t k = lo; k < cg->nr_back && cg->back[k].func == f && cg->back[k].from <= addr; k++)
		if (cg->back[k].spins && addr <= cg->back[k].to)
			return true;
	return false;
}

/*
 * After every function is read and the edges know their loops: the spans
 * sorted, the loops that call a delay, which calls run in a spin-wait, and
 * the functions only spin-waits call.
 */
void cg_index_spins(struct callgraph *cg)
{
	sort_array(cg->back, cg->nr_back, sizeof(*cg->back), back_cmp);
	delay_calls(cg);
	for (size_t k = 0; k < cg->nr_e; k++) {
		cg->e[k].in_spin = cg->e[k].in_loop && cg_in_spin(cg, cg->e[k].caller, cg->e[k].at);
		if (cg->e[k].in_spin && cg->e[k].callee != cg->e[k].caller)
			cg->f[cg->e[k].callee].spun = 1;
	}
	/* a function only spin-waits call (a delay, a back-off generator), not one they share */
	for (size_t k = 0; k < cg->nr_e; k++)
		if (!cg->e[k].in_spin && cg->e[k].callee != cg->e[k].caller)
			cg->f[cg->e[k].callee].spun = 0;
	/* ... and what only those call (a generator not inlined into the draw of the delay: -O0) */
	for (size_t k = 0; k < cg->nr_e; k++)
		if (cg->f[cg->e[k].caller].spun == 1 && !cg->f[cg->e[k].callee].spun)
			cg->f[cg->e[k].callee].spun = 2;
	for (size_t k = 0; k < cg->nr_e; k++)
		if (cg->f[cg->e[k].callee].spun == 2 && !cg->e[k].in_spin &&
		    !cg->f[cg->e[k].caller].spun && cg->e[k].callee != cg->e[k].caller)
			cg->f[cg->e[k].callee].spun = 0;
}
