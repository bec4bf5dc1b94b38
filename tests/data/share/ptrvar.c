/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: writes through a pointer variable the program
 * initialises to the address of one of its globals.  Every worker increments
 * cur_stats->reqs: stats_a is written on every request (a hot shared
 * counter), cur_stats itself only read; stats_b, never pointed to, is read
 * once at the end.  Whether the word holds its target by a relocation (PIE)
 * or as the file has it (non-PIE), and on aarch64.
 */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 4

struct stats { long reqs, bytes; };

_Alignas(64) struct stats stats_a;
_Alignas(64) struct stats stats_b;
_Alignas(64) struct stats *cur_stats = &stats_a;
int verbose;

static void *worker(void *arg)
{
	for (long i = 0; i < 1000000; i++) {
		cur_stats->reqs++;
		if (verbose)
			printf("%ld\n", i);
	}
	return arg;
}

int main(void)
{
	pthread_t t[WORKERS];

	for (long i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", stats_a.reqs, stats_b.reqs);
	return 0;
}
