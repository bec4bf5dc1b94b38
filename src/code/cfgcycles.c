/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which instructions of a function lie on a cycle of its control flow: a
 * strongly connected part of more than one instruction, or a jump to
 * itself, found in one pass (util's scc_parts).  An indirect jump
 * (a switch) may go to any block that nothing else jumps to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cfgcycles.h"
#include "internal.h"
#include "scc.h"

size_t cfg_node_at(const struct cfg_node *buf, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	lo = PARTITION_POINT(lo, hi, mid, buf[mid].addr < addr);
	return lo < n && buf[lo].addr == addr ? lo : SIZE_MAX;
}

int cfg_cycles(const struct cfg_node *buf, size_t n, const struct cfg_xedge *xe, size_t nx,
	       bool *on_cycle, uint32_t *cycle)
{
	size_t v, ne = 0, *first = NULL, *succ = NULL, *comp = NULL, *size = NULL;
	bool *orphan = NULL, any = false;
	int err = 0;

	memset(on_cycle, 0, n * sizeof(*on_cycle));
	for (size_t i = 0; i < n && cycle; i++)
		cycle[i] = UINT32_MAX;
	if (!n)
		return 0;
	for (size_t i = 0; i < n && !any; i++)
		any = buf[i].branch && buf[i].target && buf[i].target <= buf[i].addr;
	for (size_t k = 0; k < nx && !any; k++)
		any = xe[k].from < n && xe[k].to <= buf[xe[k].from].addr;
	if (!any)
		goto out;
	v = n + 1;			/* node n: where an indirect jump may go */
	/* One block for the per-node arrays: three of size_t, one of bool. */
	first = calloc(3 * v + 1, sizeof(size_t) + 1);
	if (!first) {
		err = -ENOMEM;
		goto out;
	}
	comp = first + v + 1;
	size = comp + v;
	orphan = (bool *)(size + v);
	for (size_t i = 1; i < n; i++)
		orphan[i] = buf[i - 1].jump || buf[i - 1].ret;
	for (size_t i = 0; i < n; i++) {
		size_t t = buf[i].branch && buf[i].target ? cfg_node_at(buf, n, buf[i].target) :
			   SIZE_MAX;

		if (t != SIZE_MAX)
			orphan[t] = false;
	}
	for (size_t k = 0; k < nx; k++) {
		size_t t = cfg_node_at(buf, n, xe[k].to);

		if (t != SIZE_MAX)
			orphan[t] = false;
	}
	/* Successors (CSR): counted, then filled. */
	for (int pass = 0; pass < 2; pass++) {
		size_t k = 0, xi = 0;

		for (size_t i = 0; i < v; i++) {
			size_t t = SIZE_MAX;

			if (pass)
				first[i] = k;
			if (i == n) {
				for (size_t o = 0; o < n; o++)
					if (orphan[o]) {
						if (pass)
							succ[k] = o;
						k++;
					}
				continue;
			}
			if (buf[i].branch && buf[i].target)
				t = cfg_node_at(buf, n, buf[i].target);
			if (!buf[i].jump && !buf[i].ret && !buf[i].sleeps && i + 1 < n) {
				if (pass)
					succ[k] = i + 1;
				k++;
			}
			if (t != SIZE_MAX) {
				if (pass)
					succ[k] = t;
				k++;
			}
			if (buf[i].indirect) {
				if (pass)
					succ[k] = n;
				k++;
			}
			for (; xi < nx && xe[xi].from <= i; xi++) {
				size_t xt = xe[xi].from == i ? cfg_node_at(buf, n, xe[xi].to) : SIZE_MAX;

				if (xt != SIZE_MAX) {
					if (pass)
						succ[k] = xt;
					k++;
				}
			}
		}
		if (!pass) {
			ne = k;
			succ = malloc((ne ? ne : 1) * sizeof(*succ));
			if (!succ) {
				err = -ENOMEM;
				goto out;
			}
		} else {
			first[v] = k;
		}
	}
	/* The parts, then which of them are cycles: more than one node, or a jump to itself. */
	err = scc_parts(v, first, succ, comp);
	if (err)
		goto out;
	for (size_t i = 0; i < v; i++)
		size[comp[i]]++;
	for (size_t i = 0; i < n; i++) {
		bool self = false;

		for (size_t k = first[i]; k < first[i + 1] && size[comp[i]] == 1; k++)
			self |= succ[k] == i;
		on_cycle[i] = size[comp[i]] > 1 || self;
		if (cycle)
			cycle[i] = on_cycle[i] ? (uint32_t)comp[i] : UINT32_MAX;
	}
out:
	free(first);
	free(succ);
	return err;
}
