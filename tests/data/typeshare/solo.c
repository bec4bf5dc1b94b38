/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One thread only: a counter beside the settings it reads, and nothing shared. */
#include <stdio.h>
#include <stdlib.h>

struct meter {
	int enabled;
	int limit;
	unsigned long ticks;
};

__attribute__((noinline)) void tick(struct meter *m, int v)
{
	if (m->enabled && v < m->limit)
		m->ticks++;
}

int main(void)
{
	struct meter *m = calloc(1, sizeof(*m));

	m->enabled = 1;
	m->limit = 100;
	for (int i = 0; i < 1000000; i++)
		tick(m, i & 127);
	printf("%lu\n", m->ticks);
	return 0;
}
