/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Questions about the ways through the function just read (the call graph's
 * buffered control flow, callgraph.c): whether every way from its entry to
 * a return waits a time (a sleep wrapper), and which of its stores run only
 * on one side of a test of the variable they store (a flag set once).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph_priv.h"
#include "internal.h"

/*
 * Whether every way through the function just read (N instructions) waits a
 * time: no return is reached from its entry but through a call that sleeps
 * (a sleep wrapper: nanosleep again after a signal, select on no
 * descriptors, a sleep then a note of the time).  A function that never
 * returns does not count; neither does a jump through a register without
 * its table, a tail call that does not sleep, or running off the end.
 */
bool cg_always_sleeps(struct callgraph *cg, size_t n)
{
	const struct cfg_node *v = cg->buf;
	uint8_t *seen;
	size_t *stack, sp = 0;
	bool any = false, out = false, slept = false;

	for (size_t i = 0; i < n && !any; i++)
		any = v[i].sleeps;
	if (!any)
		return false;
	stack = calloc(n, sizeof(*stack) + sizeof(*seen));
	if (!stack)
		return false;
	seen = (uint8_t *)(stack + n);	/* (the stack first: its words aligned) */
	stack[sp++] = 0;
	seen[0] = 1;
#define PUSH(k) do { if (!seen[k]) { seen[k] = 1; stack[sp++] = (k); } } while (0)
	while (sp && !out) {
		size_t i = stack[--sp], t;

		if (v[i].sleeps) {
			slept = true;	/* waited: what follows is past the sleep */
			continue;
		}
		if (v[i].dies)
			continue;
		if (v[i].ret || v[i].cond_ret || (v[i].indirect && !cg->nr_x)) {
			out = true;
			break;
		}
		if (v[i].indirect) {
			for (size_t k = 0; k < cg->nr_x; k++) {
				if (cg->x[k].from != i)
					continue;
				t = cfg_node_at(v, n, cg->x[k].to);
				if (t == SIZE_MAX)
					out = true;
				else
					PUSH(t);
			}
			continue;
		}
		if (v[i].jump || v[i].branch) {
			t = v[i].target ? cfg_node_at(v, n, v[i].target) : SIZE_MAX;
			if (t == SIZE_MAX)
				out = true;	/* a tail call that does not sleep */
			else
				PUSH(t);
			if (v[i].jump)
				continue;
		}
		if (i + 1 < n)
			PUSH(i + 1);
		else
			out = true;
	}
#undef PUSH
	free(stack);
	return !out && slept;
}

/*
 * Whether node S of the function just read (N nodes) is reached from its
 * entry only through node B's edge to its successor SIDE (its target or the
 * next node): with that edge taken away, S cannot be reached.  SEEN, STACK:
 * scratch of N.
 */
static bool only_through(const struct callgraph *cg, size_t n, size_t s, size_t b, size_t side,
			 uint8_t *seen, size_t *stack)
{
	const struct cfg_node *v = cg->buf;
	size_t sp = 0;

	memset(seen, 0, n);
	stack[sp++] = 0;
	seen[0] = 1;
	while (sp) {
		size_t i = stack[--sp], t;

		if (i == s)
			return false;
		if (v[i].ret || v[i].dies)
			continue;
#define NEXT(k) do { if ((k) < n && !seen[k] && !(i == b && (k) == side)) \
			     { seen[k] = 1; stack[sp++] = (k); } } while (0)
		if (v[i].indirect) {
			for (size_t k = 0; k < cg->nr_x; k++)
				if (cg->x[k].from == i && (t = cfg_node_at(v, n, cg->x[k].to)) != SIZE_MAX)
					NEXT(t);
			continue;
		}
		if ((v[i].jump || v[i].branch) && v[i].target &&
		    (t = cfg_node_at(v, n, v[i].target)) != SIZE_MAX)
			NEXT(t);
		if (!v[i].jump)
			NEXT(i + 1);
#undef NEXT
	}
	return true;
}

/* Most tests of one key tried for a store; functions larger than this are not looked into. */
#define GUARD_TESTS 8
#define GUARD_NODES 20000

/* The stores of the function just read that run only on one side of a test of their key. */
int cg_function_guards(struct callgraph *cg, size_t n)
{
	uint8_t *seen = NULL;
	size_t *stack = NULL;
	int err = 0;

	if (!cg->nr_gstores || !cg->nr_gtests || n > GUARD_NODES)
		goto out;
	seen = malloc(n);
	stack = malloc(n * sizeof(*stack));
	if (!seen || !stack) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < cg->nr_gstores; i++) {
		size_t s = cfg_node_at(cg->buf, n, cg->gstores[i].at), tried = 0;
		bool guarded = false;

		for (size_t k = 0; k < cg->nr_gtests && !guarded && tried < GUARD_TESTS; k++) {
			size_t b, t;

			if (cg->gtests[k].key != cg->gstores[i].key || s == SIZE_MAX)
				continue;
			b = cfg_node_at(cg->buf, n, cg->gtests[k].at);
			if (b == SIZE_MAX || !cg->buf[b].target)
				continue;
			tried++;
			t = cfg_node_at(cg->buf, n, cg->buf[b].target);
			guarded = (t != SIZE_MAX && t != b + 1 &&
				   only_through(cg, n, s, b, t, seen, stack)) ||
				  only_through(cg, n, s, b, b + 1, seen, stack);
		}
		if (!guarded)
			continue;
		if (ARRAY_GROW(cg->guarded, cg->guarded_cap, cg->nr_guarded + 1)) {
			err = -ENOMEM;
			goto out;
		}
		cg->guarded[cg->nr_guarded++] = cg->gstores[i].at;
	}
out:
	free(seen);
	free(stack);
	cg->nr_gtests = cg->nr_gstores = 0;
	return err;
}
