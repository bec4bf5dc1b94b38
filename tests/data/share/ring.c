/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: writers inside one variable.  ring is a
 * single-producer single-consumer queue whose head (written by the producer
 * thread) and tail (written by the consumer thread) share a line: flagged,
 * by its members.  padded_ring is the same with head and tail a line apart:
 * not flagged.  both_stats has two members every thread writes (one shared
 * object, not two writers apart): no member pair.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define SLOTS 64

struct ring {
	_Atomic unsigned long head;	/* producer */
	_Atomic unsigned long tail;	/* consumer */
	long slot[SLOTS];
};

struct padded_ring {
	_Alignas(64) _Atomic unsigned long head;
	_Alignas(64) _Atomic unsigned long tail;
	long slot[SLOTS];
};

struct both { _Atomic long calls, bytes; };

_Alignas(256) struct ring ring;
_Alignas(256) struct padded_ring padded_ring;
_Alignas(256) struct both both_stats;
_Alignas(256) long pad_end;

#define ITEMS 2000000

static void *producer(void *arg)
{
	for (long i = 0; i < ITEMS; i++) {
		unsigned long h = atomic_load_explicit(&ring.head, memory_order_relaxed);

		while (h - atomic_load_explicit(&ring.tail, memory_order_acquire) == SLOTS)
			;
		ring.slot[h % SLOTS] = i;
		atomic_store_explicit(&ring.head, h + 1, memory_order_release);
		atomic_store_explicit(&padded_ring.head, h + 1, memory_order_release);
		atomic_fetch_add_explicit(&both_stats.calls, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&both_stats.bytes, 8, memory_order_relaxed);
	}
	return arg;
}

static void *consumer(void *arg)
{
	long sum = 0;

	for (long i = 0; i < ITEMS; i++) {
		unsigned long t = atomic_load_explicit(&ring.tail, memory_order_relaxed);

		while (atomic_load_explicit(&ring.head, memory_order_acquire) == t)
			;
		sum += ring.slot[t % SLOTS];
		atomic_store_explicit(&ring.tail, t + 1, memory_order_release);
		atomic_store_explicit(&padded_ring.tail, t + 1, memory_order_release);
		atomic_fetch_add_explicit(&both_stats.calls, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&both_stats.bytes, 8, memory_order_relaxed);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t p, c;
	void *sum;

	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, &sum);
	printf("%ld %ld %ld\n", (long)sum, atomic_load(&both_stats.calls), pad_end);
	return 0;
}
