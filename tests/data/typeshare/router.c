/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A router, for mycl-share --types: a server object whose accepted count
 * every worker increments beside the limits every request reads; per-CPU
 * statistics (16 bytes an element) and per-worker connections (48 bytes)
 * in heap arrays, each reached through a local pointer to its element
 * (&s->stats[cpu], &s->conns[me]): at -O0 that pointer lives in the frame,
 * stored there and loaded again before each write.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

struct cpu_stats { long requests; long bytes; };
struct conn { int fd; int state; char peer[32]; long last_seen; };
struct server { int max_conn; int timeout_ms; long accepted; struct conn *conns; struct cpu_stats *stats; };
struct lane { _Alignas(64) long done; };

static struct server *srv;
static struct lane *lanes;

static void handle(struct server *s, int me, long i)
{
	struct cpu_stats *st = &s->stats[sched_getcpu() & 7];
	struct conn *c = &s->conns[me];

	if (i % s->timeout_ms < s->max_conn)
		__atomic_fetch_add(&s->accepted, 1, __ATOMIC_RELAXED);
	st->requests++;
	st->bytes += i & 255;
	c->last_seen = i;
	c->state = (int)(i & 3);
	lanes[me].done++;
}

static void *worker(void *arg)
{
	int me = (int)(long)arg;

	for (long i = 0; i < 3000000; i++)
		handle(srv, me, i);
	return NULL;
}

int main(void)
{
	pthread_t t[4];

	srv = calloc(1, sizeof(*srv));
	srv->max_conn = 100;
	srv->timeout_ms = 250;
	srv->conns = calloc(4, sizeof(struct conn));
	srv->stats = calloc(8, sizeof(struct cpu_stats));
	lanes = aligned_alloc(64, 4 * sizeof(struct lane));
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", srv->accepted);
	return 0;
}
