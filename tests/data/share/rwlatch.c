/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: the program's own reader-writer latch, as
 * InnoDB's (srw_lock): readers add 1 to its word and subtract 1 again, a
 * writer compares and swaps it.  The latch sits at the start of a table
 * object whose bucket count every reader reads: the line is flagged, the
 * word named as written on hot paths -- a lock word, no counter to shard.
 * Beside it, on a line of its own, an id allocator: fetch_add by every
 * request, and a maximum kept by compare-and-swap when an id is imported,
 * never subtracted from -- a counter it stays.
 */
#include <pthread.h>
#include <stdio.h>

struct latch {
	unsigned int writer;
	unsigned int readers;
};

struct table {
	struct latch latch;
	long buckets;
	void *cells;
	long resizes;
};

struct idgen {
	long next;
	long ceiling;
};

__attribute__((aligned(64))) struct table tbl = { .buckets = 512 };
__attribute__((aligned(64))) struct idgen ids = { .ceiling = 1L << 40 };

__attribute__((noinline)) static void s_lock(struct latch *l)
{
	__atomic_fetch_add(&l->readers, 1, __ATOMIC_ACQUIRE);
}

__attribute__((noinline)) static void s_unlock(struct latch *l)
{
	__atomic_fetch_sub(&l->readers, 1, __ATOMIC_RELEASE);
}

static void x_lock(struct table *t)
{
	unsigned int free_word = 0;

	while (!__atomic_compare_exchange_n(&t->latch.readers, &free_word, 1u << 31, 0,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		free_word = 0;
}

static void x_unlock(struct table *t)
{
	__atomic_store_n(&t->latch.readers, 0, __ATOMIC_RELEASE);
}

__attribute__((noinline)) static long new_id(void)
{
	long id = __atomic_fetch_add(&ids.next, 1, __ATOMIC_RELAXED);

	return id < ids.ceiling ? id : -1;
}

/* (an imported id: the next one stays above it) */
__attribute__((noinline)) static void seen_id(long id)
{
	long cur = __atomic_load_n(&ids.next, __ATOMIC_RELAXED);

	while (cur <= id && !__atomic_compare_exchange_n(&ids.next, &cur, id + 1, 0,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void *worker(void *arg)
{
	long sum = 0, me = (long)arg;

	for (long i = 0; i < 2000000; i++) {
		if (i % 4096 == 0) {
			x_lock(&tbl);
			x_unlock(&tbl);
		}
		s_lock(&tbl.latch);
		sum += (i * me) % tbl.buckets;
		s_unlock(&tbl.latch);
		if (i % 64 == 0)
			seen_id(new_id() + (i & 1));
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t t[4];

	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", ids.next);
	return 0;
}
