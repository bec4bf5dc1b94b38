/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A server shaped like MariaDB's thread cache: each worker serves
 * connections one after another (an outer loop) and the queries of each (an
 * inner loop).  Per connection it writes conns_served and slot_owner (once,
 * outside the query loop); per query, queries_done (inside it, through
 * run_query).  Under a load of long connections the call chains pass the
 * workers' query loop: the query counter runs, the per-connection writes
 * barely; both are "hot" by the code alone (in a loop of a thread entry).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

long conns_served __attribute__((aligned(64))) = -1;
long slot_owner = -1;
long queries_done __attribute__((aligned(128))) = 0;
long query_budget = 2000000;
static volatile unsigned long sink;

static unsigned long __attribute__((noinline)) step(unsigned long h)
{
	for (int i = 0; i < 20; i++)
		h = h * 6364136223846793005UL + 1442695040888963407UL;
	return h;
}

static void __attribute__((noinline)) run_query(long q)
{
	unsigned long h = (unsigned long)q;

	for (int i = 0; i < 10; i++)
		h = step(h);
	sink = h;
	__atomic_fetch_add(&queries_done, 1, __ATOMIC_RELAXED);
}

static long __attribute__((noinline)) next_connection(long id, long k)
{
	return k < 2 ? id * 100 + k : -1;	/* two long connections a worker */
}

static void *worker(void *arg)
{
	long id = (long)arg, conn;

	for (long k = 0; (conn = next_connection(id, k)) >= 0; k++) {
		__atomic_fetch_add(&conns_served, 1, __ATOMIC_RELAXED);
		slot_owner = conn;
		for (long q = 0; q < query_budget; q++)
			run_query(q);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[3];

	if (argc > 1)
		query_budget = atol(argv[1]);
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %ld\n", conns_served + 1, slot_owner, queries_done);
	return 0;
}
