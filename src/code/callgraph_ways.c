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
 * The nodes of the function just read (N nodes) reached from node FROM, into
 * SEEN (STACK: scratch of N): the edges of CUT taken away (CUT[I]: the
 * successor node I's edge to which is gone, or SIZE_MAX; NULL: none), the
 * nodes of STOP reached but not left (NULL: none).
 */
static void walk(const struct callgraph *cg, size_t n, size_t from, const size_t *cut,
		 const uint8_t *stop, uint8_t *seen, size_t *stack)
{
	const struct cfg_node *v = cg->buf;
	size_t sp = 0;

	memset(seen, 0, n);
	if (from >= n)
		return;
	stack[sp++] = from;
	seen[from] = 1;
	while (sp) {
		size_t i = stack[--sp], t;

		if (v[i].ret || v[i].dies || (stop && stop[i]))
			continue;
#define NEXT(k) do { if ((k) < n && !seen[k] && (!cut || cut[i] != (k))) \
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
}

/* Whether node S is reached from node X without passing a node of STOP (X one: not). */
static bool reaches(const struct callgraph *cg, size_t n, size_t x, size_t s, const uint8_t *stop,
		    uint8_t *seen, size_t *stack)
{
	if (x >= n || stop[x])
		return false;
	walk(cg, n, x, NULL, stop, seen, stack);
	return seen[s] != 0;
}

/* Most tests of one key tried; functions larger than this are not looked into. */
#define GUARD_TESTS 8
#define GUARD_NODES 20000

static int keyed_key_cmp(const void *a, const void *b)
{
	const struct cg_keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * The stores of the function just read that run only on one side of a test
 * of their key, and its calls and other stores that run only there too
 * ("if (!ready) { fill(); ready = 1; }": fill's call, keyed by the flag
 * stored beside it).
 */
/* Store M runs only past a test of its key. */
static int guarded_store(struct callgraph *cg, size_t m)
{
	if (ARRAY_GROW(cg->guarded, cg->guarded_cap, cg->nr_guarded + 1))
		return -ENOMEM;
	cg->guarded[cg->nr_guarded++] = cg->gstores[m].at;
	return 0;
}

/* The calls and stores SEEN leaves out, which run only where a store of KEY does. */
static int guarded_beside(struct callgraph *cg, size_t n, uint64_t key, const uint8_t *seen)
{
	for (size_t c = 0; c < n; c++) {
		if ((!cg->buf[c].call && !cg->buf[c].store) || seen[c])
			continue;
		if (ARRAY_GROW(cg->gcalls, cg->gcalls_cap, cg->nr_gcalls + 1))
			return -ENOMEM;
		cg->gcalls[cg->nr_gcalls++] = (struct cg_keyed){ cg->buf[c].addr, key };
	}
	return 0;
}

int cg_function_guards(struct callgraph *cg, size_t n)
{
	uint8_t *seen = NULL, *done = NULL, *stop = NULL;
	size_t *stack = NULL, *node = NULL, *cut = NULL, tests[GUARD_TESTS];
	bool both[GUARD_TESTS];		/* the key stored on each side of the test */
	int err = 0;

	if (!cg->nr_gstores || !cg->nr_gtests || n > GUARD_NODES)
		goto out;
	seen = malloc(n);
	stop = calloc(n, 1);
	done = calloc(cg->nr_gstores, 1);
	stack = malloc(n * sizeof(*stack));
	cut = malloc(n * sizeof(*cut));
	node = malloc(cg->nr_gstores * sizeof(*node));
	if (!seen || !stop || !done || !stack || !cut || !node) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		cut[i] = SIZE_MAX;
	/* (by key: each key's stores, then its tests, in the order they were noted) */
	sort_array(cg->gstores, cg->nr_gstores, sizeof(*cg->gstores), keyed_key_cmp);
	for (size_t i = 0; i < cg->nr_gstores; i++)
		node[i] = cfg_node_at(cg->buf, n, cg->gstores[i].at);
	for (size_t i = 0, j; i < cg->nr_gstores && !err; i = j) {
		uint64_t key = cg->gstores[i].key;
		size_t nt = 0;

		for (j = i; j < cg->nr_gstores && cg->gstores[j].key == key; j++)
			;
		for (size_t k = 0; k < cg->nr_gtests && nt < GUARD_TESTS; k++) {
			size_t b;

			if (cg->gtests[k].key != key)
				continue;
			b = cfg_node_at(cg->buf, n, cg->gtests[k].at);
			if (b != SIZE_MAX && cg->buf[b].target)
				tests[nt++] = b;
		}
		/*
		 * One test at a time: a store only on one side of it.  Stores on
		 * both of its sides store the key whichever way it goes: none of
		 * them is guarded by it.
		 */
		for (size_t q = 0; q < nt && !err; q++) {
			size_t b = tests[q], t = cfg_node_at(cg->buf, n, cg->buf[b].target);
			size_t sides[2], ns = 0;
			bool some[2] = { false, false };

			if (t != SIZE_MAX && t != b + 1)
				sides[ns++] = t;
			sides[ns++] = b + 1;
			for (size_t r = 0; r < ns && !err; r++) {
				cut[b] = sides[r];
				walk(cg, n, 0, cut, NULL, seen, stack);
				cut[b] = SIZE_MAX;
				for (size_t m = i; m < j && !err; m++) {
					if (node[m] == SIZE_MAX || seen[node[m]])
						continue;
					some[r] = true;
					if (!done[m])
						done[m] = 2 + (uint8_t)r;	/* (a candidate of side r) */
				}
				if (some[r] && !err)
					err = guarded_beside(cg, n, key, seen);
			}
			both[q] = some[0] && some[1];
			for (size_t m = i; m < j && !err; m++) {
				if (done[m] < 2)
					continue;
				if (both[q]) {
					done[m] = 0;	/* (another test may still guard it) */
				} else {
					done[m] = 1;
					err = guarded_store(cg, m);
				}
			}
		}
		/*
		 * The tests together: a store each way to which passes one of them
		 * on its side (a test the compiler made twice, once on each way in).
		 */
		for (size_t q = 0; q < nt; q++)
			stop[tests[q]] = 1;
		for (size_t m = i; m < j && !err; m++) {
			bool any = false;

			if (node[m] == SIZE_MAX || done[m])
				continue;
			for (size_t q = 0; q < nt; q++) {
				size_t b = tests[q], t = cfg_node_at(cg->buf, n, cg->buf[b].target);
				bool on_t = !both[q] && t != SIZE_MAX && t != b + 1 &&
					    reaches(cg, n, t, node[m], stop, seen, stack);
				bool on_f = !both[q] && reaches(cg, n, b + 1, node[m], stop, seen, stack);

				if (on_t != on_f) {
					cut[b] = on_t ? t : b + 1;
					any = true;
				}
			}
			if (any) {
				walk(cg, n, 0, cut, NULL, seen, stack);
				if (!seen[node[m]]) {
					done[m] = 1;
					err = guarded_store(cg, m);
					if (!err)
						err = guarded_beside(cg, n, key, seen);
				}
			}
			for (size_t q = 0; q < nt; q++)
				cut[tests[q]] = SIZE_MAX;
		}
		for (size_t q = 0; q < nt; q++)
			stop[tests[q]] = 0;
	}
out:
	free(seen);
	free(stop);
	free(done);
	free(stack);
	free(cut);
	free(node);
	cg->nr_gtests = cg->nr_gstores = 0;
	return err;
}
