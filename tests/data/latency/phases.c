/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A serial phase and a parallel one, each in a function of its own, for
 * the wall-clock (latency) view: one thread spins in serial_phase for S
 * seconds, then N threads spin in parallel_phase for P seconds.  With N
 * CPUs free, serial_phase takes S/(S+P) of the wall-clock time and
 * S/(S+N*P) of the CPU time.
 *
 * usage: phases S P N
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static double parallel_seconds;
static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static __attribute__((noinline)) void serial_phase(double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i * 7;
}

static __attribute__((noinline)) void *parallel_phase(void *arg)
{
	double end = now() + parallel_seconds;

	(void)arg;
	while (now() < end)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i * 13;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 3 ? atoi(argv[3]) : 2;
	pthread_t t[64];

	if (n < 1 || n > 64)
		return 2;
	parallel_seconds = argc > 2 ? atof(argv[2]) : 0.3;
	serial_phase(argc > 1 ? atof(argv[1]) : 0.3);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, parallel_phase, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
