/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: a thread pool whose workers are started from
 * a struct (struct pool p = { worker }; pool_start(&p): pthread_create gets
 * p->fn), each counting itself in once (running: warm, not hot) before its
 * loop; per-thread stats indexed by a thread-local id (slots, hot); a
 * spinlock beside the total it protects (hot); a config pointer read on
 * every request and swapped by a reloader paced by sleep (not hot).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct pool {
	void *(*fn)(void *);
	void *arg;
	int nthreads;
	pthread_t tid[8];
};

struct stat_slot {
	long requests;
	long bytes;
};

struct config {
	int limit;
	int verbose;
};

struct stat_slot stats[8];		/* per-thread, indexed by a TLS id: writer/writer sharing */
__thread int my_id;
_Alignas(64) atomic_int spin;		/* a spinlock ... */
long spin_protected_total;		/* ... beside the data it protects */
_Alignas(64) struct config *cur_cfg;	/* read on every request */
struct config cfgs[2];
_Alignas(64) int pool_started;
int running;				/* each worker counts itself in, once */
static volatile int stop;

static void pool_start(struct pool *p)
{
	for (int i = 0; i < p->nthreads; i++)
		pthread_create(&p->tid[i], NULL, p->fn, (void *)(long)i);
	pool_started = 1;
}

static void lock(void)
{
	while (atomic_exchange_explicit(&spin, 1, memory_order_acquire))
		while (atomic_load_explicit(&spin, memory_order_relaxed))
			;
}

static void unlock(void)
{
	atomic_store_explicit(&spin, 0, memory_order_release);
}

__attribute__((noinline)) static void serve(int n)
{
	struct config *c = cur_cfg;

	stats[my_id].requests++;
	stats[my_id].bytes += n + c->limit;
	lock();
	spin_protected_total += n;
	unlock();
}

static void *worker(void *arg)
{
	my_id = (int)(long)arg;
	running++;
	for (int n = 0; !stop; n++)
		serve(n);
	return NULL;
}

static void *reloader(void *arg)
{
	(void)arg;
	for (int k = 0; !stop; k++) {
		sleep(1);
		cfgs[k & 1].limit = k;
		cur_cfg = &cfgs[k & 1];
	}
	return NULL;
}

int main(void)
{
	struct pool p = { worker, NULL, 2, { 0 } };
	pthread_t r;

	cur_cfg = &cfgs[0];
	pool_start(&p);
	pthread_create(&r, NULL, reloader, NULL);
	usleep(200000);
	stop = 1;
	for (int i = 0; i < p.nthreads; i++)
		pthread_join(p.tid[i], NULL);
	pthread_join(r, NULL);
	printf("%ld %ld\n", stats[0].requests, spin_protected_total);
	return 0;
}
