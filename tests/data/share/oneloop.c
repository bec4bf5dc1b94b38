/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: lines written hot by one thread only.
 *  - main's event loop (epoll_wait) counts every event in ev_processed and
 *    ev_bytes, side by side; a reporter thread paced by sleep(1) reads them:
 *    one thread writes the line on every event, no false sharing.
 *  - Two threads started once each (a flusher, a compactor) count their
 *    rounds in flushes and compactions, side by side: two writers, one line.
 *  - A pool of workers started in a loop counts requests in pool_hits, alone
 *    on its line: every worker writes it (a hot shared counter).
 *  - A sampler thread started once counts in samples_taken, alone on its
 *    line, read hot by nobody: one thread, nothing shared.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>

/* (volatile: stored on every round, not kept in a register until the loop ends) */
_Alignas(64) volatile long ev_processed;
volatile long ev_bytes;
_Alignas(64) volatile long flushes;
volatile long compactions;
_Alignas(64) volatile long pool_hits;
_Alignas(64) volatile long samples_taken;
_Alignas(64) static volatile int stop;	/* read by every thread: a line of its own */
_Alignas(64) static int pad;

static void *reporter(void *a)
{
	(void)a;
	while (!stop) {
		sleep(1);
		printf("%ld %ld\n", ev_processed, ev_bytes);
	}
	return NULL;
}

static void *flusher(void *a)
{
	(void)a;
	while (!stop)
		flushes++;
	return NULL;
}

static void *compactor(void *a)
{
	(void)a;
	while (!stop)
		compactions++;
	return NULL;
}

static void *worker(void *a)
{
	(void)a;
	while (!stop)
		pool_hits++;
	return NULL;
}

static void *sampler(void *a)
{
	(void)a;
	while (!stop)
		samples_taken++;
	return NULL;
}

int main(void)
{
	struct epoll_event ev[16];
	int ep = epoll_create1(0);
	pthread_t r, f, c, s, w[4];

	pthread_create(&r, NULL, reporter, NULL);
	pthread_create(&f, NULL, flusher, NULL);
	pthread_create(&c, NULL, compactor, NULL);
	pthread_create(&s, NULL, sampler, NULL);
	for (int i = 0; i < 4; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	for (int i = 0; i < 100 && !stop; i++) {
		int n = epoll_wait(ep, ev, 16, 1);

		for (int k = 0; k <= n; k++) {
			ev_processed++;
			ev_bytes += k;
		}
	}
	stop = 1;
	pthread_join(r, NULL);
	pthread_join(f, NULL);
	pthread_join(c, NULL);
	pthread_join(s, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(w[i], NULL);
	printf("%ld %ld %ld %ld %d\n", flushes, compactions, pool_hits, samples_taken, pad);
	return 0;
}
