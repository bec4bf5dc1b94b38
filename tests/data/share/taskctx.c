/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mycl-share's ground truth for callbacks handed with their context: a
 * producer thread queues tasks (submit(fn, &ctx), the context right after the
 * function, as pthread_create hands its entry's) that a pool of workers runs
 * as t.fn(t.arg); a second producer whose queueing is inlined at -O2 (the
 * function and its context stored side by side into the queue); a cleanup
 * registered once at start-up with its own context;
 * options read before the threads.  Regenerate the binaries with gen.sh.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
	void (*fn)(void *);
	void *arg;
};
struct stats {
	unsigned long done, bytes;
};

static struct task queue[256];
static unsigned qhead, qtail;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;
static struct stats req_stats;		/* by every task the producer queues */
static struct stats final_stats;	/* by the cleanup, registered once */
static struct stats inline_stats;	/* by every task the second producer queues */
static int opt_tasks = 100000;		/* an option, set before the threads */
static struct {
	void (*fn)(void *);
	void *arg;
} cleanup;

static void __attribute__((noinline)) submit(void (*fn)(void *), void *arg)
{
	pthread_mutex_lock(&qlock);
	queue[qtail % 256] = (struct task){ fn, arg };
	qtail++;
	pthread_cond_signal(&qcond);
	pthread_mutex_unlock(&qlock);
}

static inline void push(void (*fn)(void *), void *arg)
{
	pthread_mutex_lock(&qlock);
	queue[qtail % 256].fn = fn;
	queue[qtail % 256].arg = arg;
	qtail++;
	pthread_cond_signal(&qcond);
	pthread_mutex_unlock(&qlock);
}

static void __attribute__((noinline)) register_cleanup(void (*fn)(void *), void *arg)
{
	cleanup.fn = fn;
	cleanup.arg = arg;
}

static void count_request(void *p)
{
	struct stats *st = p;

	st->done++;
	st->bytes += 512;
}

static void count_inline(void *p)
{
	((struct stats *)p)->done++;
}

static void flush_stats(void *p)
{
	struct stats *st = p;

	st->done = req_stats.done;
}

static void *pool_worker(void *unused)
{
	(void)unused;
	for (;;) {
		struct task t;

		pthread_mutex_lock(&qlock);
		while (qhead == qtail)
			pthread_cond_wait(&qcond, &qlock);
		t = queue[qhead % 256];
		qhead++;
		pthread_mutex_unlock(&qlock);
		if (!t.fn)
			return NULL;
		t.fn(t.arg);
	}
}

static void *producer(void *unused)
{
	(void)unused;
	for (int i = 0; i < opt_tasks; i++)
		submit(count_request, &req_stats);
	for (int i = 0; i < 4; i++)
		submit(NULL, NULL);
	return NULL;
}

static void *producer2(void *unused)
{
	(void)unused;
	for (int i = 0; i < opt_tasks; i++)
		push(count_inline, &inline_stats);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[6];

	if (argc > 1)
		opt_tasks = atoi(argv[1]);
	register_cleanup(flush_stats, &final_stats);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, pool_worker, NULL);
	pthread_create(&t[4], NULL, producer2, NULL);
	pthread_join(t[4], NULL);
	pthread_create(&t[5], NULL, producer, NULL);
	for (int i = 0; i < 6; i++)
		if (i != 4)
			pthread_join(t[i], NULL);
	cleanup.fn(cleanup.arg);
	printf("%lu %lu %lu\n", req_stats.done, inline_stats.done, final_stats.done);
	return 0;
}
