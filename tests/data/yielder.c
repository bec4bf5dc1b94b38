/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Yields for 0.3 s: time in the kernel, for the artefact fixture (gen.sh). */
#include <sched.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	double start = now();

	while (now() - start < 0.3)
		for (int i = 0; i < 1000; i++)
			sched_yield();
	return 0;
}
