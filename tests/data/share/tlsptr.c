/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: writes through pointers kept in variables.
 * Each worker points its thread-local mine at its own element of slots[]
 * (16-byte elements, four to a line: per-thread slots, flagged) and of
 * padded[] (an element a line: not flagged) at its start; account(), run
 * for every request, writes through them.  main points the global active
 * at stats_a before the threads start; every request increments
 * active->hits: stats_a is a hot shared counter, stats_b (never pointed
 * to) is not written.
 */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 4

struct slot { long ops, bytes; };
struct padded { _Alignas(64) long ops; };
struct stats { long hits, misses; };

_Alignas(64) struct slot slots[WORKERS];
_Alignas(64) struct padded padded[WORKERS];
_Alignas(64) struct stats stats_a;
_Alignas(64) struct stats stats_b;
_Alignas(64) struct stats *active;
_Alignas(64) int next_id;

static __thread struct slot *mine;
static __thread struct padded *mine_padded;

__attribute__((noinline)) static void account(long n)
{
	mine->ops++;
	mine->bytes += n;
	mine_padded->ops += n;
	active->hits++;
}

static void *worker(void *arg)
{
	int id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED) % WORKERS;

	mine = &slots[id];
	mine_padded = &padded[id];
	for (long i = 0; i < 1000000; i++)
		account(i);
	return arg;
}

int main(void)
{
	pthread_t t[WORKERS];

	active = &stats_a;
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %ld\n", slots[0].ops, stats_a.hits, stats_b.hits);
	return 0;
}
