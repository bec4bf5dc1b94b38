/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A call chain 300 frames deep (recorded with kernel.perf_event_max_stack raised): --max-stack. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(double secs)
{
	for (unsigned long i = 0; i < (unsigned long)(secs * 4e8); i++)
		sink += i;
}

__attribute__((noinline)) static int descend(int d, double secs)
{
	if (!d) {
		spin(secs);
		return 0;
	}
	return descend(d - 1, secs) + 1;
}

int main(int argc, char **argv)
{
	return descend(argc > 1 ? atoi(argv[1]) : 300, argc > 2 ? atof(argv[2]) : 0.3) & 1;
}
