/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: variables larger than a line, judged by where
 * their hot writes land.  head_hot's counter is at its start: its tail
 * shares a line with read-mostly tail_reader, which no hot write touches (not
 * flagged there).  tail_hot's counter is in its last bytes, on a line with
 * read-mostly beside_tail (flagged).  stack_pool's lock (a mutex, written by
 * the C library somewhere in its bytes) sits at its start: with the debug
 * info, which gives the member's 40 bytes, its tail line with read-mostly
 * after_pool is not written; without it the tail line stays flagged, as
 * nothing tells the mutex's bytes apart.
 */
#include <pthread.h>
#include <stdlib.h>

#define WORKERS 2

struct head_hot { long requests; char rest[100]; };
struct tail_hot { char rest[100]; long requests; };
struct pool { pthread_mutex_t lock; char rest[40]; };

_Alignas(64) struct head_hot head_hot = { 0, "h" };	/* 0..112: the tail's 48 bytes on the next line */
int tail_reader = 1;			/* read on every request, on head_hot's tail line */
_Alignas(64) struct tail_hot tail_hot = { "t", 0 };	/* requests at +104, on its second line */
int beside_tail = 1;			/* read on every request, beside tail_hot.requests */
_Alignas(64) struct pool stack_pool = { PTHREAD_MUTEX_INITIALIZER, "p" };
int after_pool = 1;			/* read on every request, on the mutex's line */

static void *worker(void *arg)
{
	long n = (long)arg, sum = 0;

	for (long i = 0; i < n; i++) {
		__atomic_add_fetch(&head_hot.requests, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&tail_hot.requests, 1, __ATOMIC_RELAXED);
		sum += tail_reader + beside_tail + after_pool;
		pthread_mutex_lock(&stack_pool.lock);
		pthread_mutex_unlock(&stack_pool.lock);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	pthread_t t[WORKERS];

	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)(argc > 1 ? atoi(argv[1]) : 1000));
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	return (int)(head_hot.requests + tail_hot.requests);
}
