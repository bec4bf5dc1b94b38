/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Benchmark workload: CPU work at the bottom of deep call chains (about 40
 * frames), so that a recording with -g is large per sample, as server
 * recordings are.   deepstack SECONDS
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;
static double stop_at;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static uint64_t leaf(uint64_t x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

__attribute__((noinline)) static uint64_t descend_a(int depth, uint64_t x);

__attribute__((noinline)) static uint64_t descend_b(int depth, uint64_t x)
{
	if (!depth)
		return leaf(x, 20000);
	x = descend_a(depth - 1, x + 1);
	__asm__ volatile("" ::: "memory");
	return x;
}

__attribute__((noinline)) static uint64_t descend_a(int depth, uint64_t x)
{
	if (!depth)
		return leaf(x, 40000);
	x = descend_b(depth - 1, x ^ 3);
	__asm__ volatile("" ::: "memory");
	return x;
}

static void *worker(void *arg)
{
	uint64_t x = (uintptr_t)arg;

	while (now() < stop_at)
		for (int d = 30; d < 40; d++)
			sink += descend_a(d, x++);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	stop_at = now() + (argc > 1 ? atof(argv[1]) : 1.0);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return (int)(sink & 1);
}
