/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: what a thread is handed as its argument.
 * Each worker gets its own element of slots[] (16-byte elements, four to a
 * line: per-thread slots, flagged) or of padded[] (an element a line: not
 * flagged); every counter thread gets the same struct, whose done counter
 * they all increment (a hot shared counter, not slots).
 */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 4

struct slot { long ops, bytes; };
struct padded { _Alignas(64) long ops; };
struct shared { long done; long limit; };

_Alignas(64) struct slot slots[WORKERS];
_Alignas(64) struct padded padded[WORKERS];
_Alignas(64) struct shared shared = { 0, 1000000 };

__attribute__((noinline)) long work(long i)
{
	__asm__ volatile("" ::: "memory");
	return i * 3;
}

static void *slot_worker(void *arg)
{
	struct slot *s = arg;

	for (long i = 0; i < 1000000; i++) {
		s->ops++;
		s->bytes += work(i);
	}
	return NULL;
}

static void *padded_worker(void *arg)
{
	struct padded *p = arg;

	for (long i = 0; i < 1000000; i++)
		p->ops += work(i);
	return NULL;
}

static void *counter(void *arg)
{
	struct shared *sh = arg;

	for (long i = 0; i < sh->limit; i++)
		__atomic_fetch_add(&sh->done, work(i) & 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	pthread_t t[3 * WORKERS];

	for (int i = 0; i < WORKERS; i++) {
		pthread_create(&t[i], NULL, slot_worker, &slots[i]);
		pthread_create(&t[WORKERS + i], NULL, padded_worker, &padded[i]);
		pthread_create(&t[2 * WORKERS + i], NULL, counter, &shared);
	}
	for (int i = 0; i < 3 * WORKERS; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %ld\n", slots[0].ops, padded[0].ops, shared.done);
	return 0;
}
