/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: counters without atomics.  plain_hits (long)
 * and int_hits (int) are incremented by every worker with a plain ++ -- an
 * add to memory on x86_64 at -O2, a load, an add and a store at -O0 and on
 * load/store machines -- each alone on its line: hot shared counters.  seed
 * is rewritten from itself (x = x * a + b), alone on its line: no counter,
 * nothing shares its line, not flagged.  total is written once per worker
 * after its loop, alone: not flagged either.
 */
#include <pthread.h>
#include <stdio.h>

__attribute__((aligned(256))) long plain_hits;
__attribute__((aligned(256))) int int_hits;
__attribute__((aligned(256))) unsigned long seed = 1;
__attribute__((aligned(256))) long total;
__attribute__((aligned(256))) long pad_end;

__attribute__((noinline)) static long step(long i)
{
	plain_hits++;
	int_hits += 2;
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return (long)(seed >> 20) + i;
}

static void *worker(void *arg)
{
	long acc = 0;

	for (long i = 0; i < 1000000; i++)
		acc += step(i);
	total = acc;
	return arg;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %d %lu %ld %ld\n", plain_hits, int_hits, seed, total, pad_end);
	return 0;
}
