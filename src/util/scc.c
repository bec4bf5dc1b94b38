/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Strongly connected parts (Tarjan), without recursion: see scc.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "scc.h"

int scc_parts(size_t n, const size_t *first, const size_t *succ, size_t *comp)
{
	/* One block: index, low link, the part's stack, the walk and its next edges. */
	size_t *idx = malloc((5 * n + 1) * sizeof(*idx)), *low, *stack, *call, *it;
	size_t sp = 0, cp = 0, counter = 0;

	if (!idx)
		return -ENOMEM;
	low = idx + n;
	stack = low + n;
	call = stack + n;
	it = call + n;
	for (size_t i = 0; i < n; i++)
		idx[i] = comp[i] = SIZE_MAX;
	for (size_t r = 0; r < n; r++) {
		if (idx[r] != SIZE_MAX)
			continue;
		call[cp++] = r;
		idx[r] = low[r] = counter++;
		it[r] = first[r];
		stack[sp++] = r;
		while (cp) {
			size_t x = call[cp - 1];

			if (it[x] < first[x + 1]) {
				size_t y = succ[it[x]++];

				if (idx[y] == SIZE_MAX) {
					idx[y] = low[y] = counter++;
					it[y] = first[y];
					stack[sp++] = y;
					call[cp++] = y;
				} else if (comp[y] == SIZE_MAX && idx[y] < low[x]) {
					/* (on the stack: its part is not closed yet) */
					low[x] = idx[y];
				}
				continue;
			}
			cp--;
			if (cp && low[x] < low[call[cp - 1]])
				low[call[cp - 1]] = low[x];
			if (low[x] == idx[x]) {
				size_t y;

				do {
					y = stack[--sp];
					comp[y] = x;
				} while (y != x);
			}
		}
	}
	free(idx);
	return 0;
}
