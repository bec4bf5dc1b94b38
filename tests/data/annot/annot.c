/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Annotation of clang's code (no .debug_aranges): source lines, an inlined
 * function, and a global's element read at a computed index from its address
 * in a register (g_table.weights[k]: 8(%rax,%rdx) with rdx = &g_table).
 */
#include <stdio.h>

struct table { long hits; double weights[64]; } g_table;
static unsigned long g_seed = 17;

static inline double weigh(int k)
{
	return g_table.weights[k & 63] * 1.0001;
}

__attribute__((noinline)) double score(int n)
{
	double s = 0;

	for (int i = 0; i < n; i++) {
		g_seed = g_seed * 6364136223846793005UL + 1;
		s += weigh((int)(g_seed >> 33));
		g_table.hits++;
	}
	return s;
}

int main(void)
{
	double t = 0;

	for (int i = 0; i < 64; i++)
		g_table.weights[i] = i;
	for (int r = 0; r < 400; r++)
		t += score(100000);
	printf("%f %ld\n", t, g_table.hits);
	return 0;
}
