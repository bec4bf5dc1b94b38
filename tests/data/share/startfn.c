// SPDX-License-Identifier: LGPL-2.1-or-later
// Threads started by functions that take the object to hand them: server_start(&g_srv, n)
// runs pthread_create(&s->tids[i], NULL, worker, s) for its own argument s;
// pool_start(&pools[i], &t) tail-calls pthread_create (jmp at -O2).  The
// object reaches each worker as the starter's argument.  mycl-share's ground
// truth (share_checks.py).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct server { long hits; long misses; int nworkers; pthread_t tids[8]; };
struct server g_srv;
struct pool { unsigned long jobs; } pools[4];

static void *worker(void *arg)
{
	struct server *s = arg;
	for (long k = 0; k < 1000000; k++)
		__atomic_fetch_add(&s->hits, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *pool_main(void *arg)
{
	struct pool *p = arg;
	for (long k = 0; k < 1000000; k++)
		p->jobs += k & 3;
	return NULL;
}

void __attribute__((noinline)) server_start(struct server *s, int n)
{
	s->nworkers = n;
	for (int i = 0; i < n; i++)
		pthread_create(&s->tids[i], NULL, worker, s);
}

void __attribute__((noinline)) pool_start(struct pool *p, pthread_t *t)
{
	pthread_create(t, NULL, pool_main, p);
}

int main(int argc, char **argv)
{
	pthread_t pt[4];
	server_start(&g_srv, argc > 1 ? atoi(argv[1]) : 4);
	for (int i = 0; i < 4; i++)
		pool_start(&pools[i], &pt[i]);
	for (int i = 0; i < g_srv.nworkers; i++)
		pthread_join(g_srv.tids[i], NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(pt[i], NULL);
	printf("%ld %lu\n", g_srv.hits, pools[1].jobs);
	return 0;
}
