/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Workers, for mycl-share --types: each thread hands its own element of a
 * heap array of statistics (&pool->stat[me], 24 bytes apart) to a function
 * that writes it through its parameter: the elements are written by index,
 * though the writer never indexes anything itself.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct worker_stat { long jobs; long errors; int busy; };
struct pool { int nworkers; int quantum; struct worker_stat *stat; };
static struct pool *pool;

__attribute__((noinline)) static void account(struct worker_stat *ws, long n, int q)
{
	ws->jobs++;
	if (n % q == 0)
		ws->errors++;
	ws->busy = (int)(n & 1);
}

static void *run(void *arg)
{
	int me = (int)(long)arg;

	for (long i = 0; i < 3000000; i++)
		account(&pool->stat[me], i, pool->quantum);
	return NULL;
}

int main(void)
{
	pthread_t t[4];

	pool = malloc(sizeof(*pool));
	pool->nworkers = 4;
	pool->quantum = 97;
	pool->stat = calloc(4, sizeof(struct worker_stat));
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", pool->stat[0].jobs);
	return 0;
}
