/*
 * tests/data/share/c11ring.c: a single-producer single-consumer ring in C11
 * atomics and C11 threads (thrd_create): its two positions, written by two
 * threads, on one line; its slots written at a computed index (on ppc64le
 * through a register holding the section anchor plus the index); one counter
 * per worker handed by address; a flag main sets before the threads.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static atomic_ulong head_pos;         /* producer writes */
static atomic_ulong tail_pos;         /* consumer writes: same line */
static int slots[128];
long per_worker[4];                   /* one per worker, 4 to a line */
int tracing;                          /* set once by main */

static int producer(void *arg)
{
	long n = (long)arg;
	for (long i = 0; i < n; i++) {
		unsigned long h = atomic_load_explicit(&head_pos, memory_order_relaxed);
		while (h - atomic_load_explicit(&tail_pos, memory_order_acquire) >= 128)
			thrd_yield();
		slots[h % 128] = (int)i;
		atomic_store_explicit(&head_pos, h + 1, memory_order_release);
	}
	return 0;
}

static int consumer(void *arg)
{
	long n = (long)arg, sum = 0;
	for (long i = 0; i < n; i++) {
		unsigned long t = atomic_load_explicit(&tail_pos, memory_order_relaxed);
		while (atomic_load_explicit(&head_pos, memory_order_acquire) == t)
			thrd_yield();
		sum += slots[t % 128];
		atomic_store_explicit(&tail_pos, t + 1, memory_order_release);
	}
	if (tracing)
		printf("%ld\n", sum);
	return 0;
}

static int counter(void *arg)
{
	long *mine = arg;
	for (long i = 0; i < 1000000; i++)
		__atomic_add_fetch(mine, 1, __ATOMIC_RELAXED);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	thrd_t p, c, w[4];

	tracing = argc > 2;
	thrd_create(&p, producer, (void *)n);
	thrd_create(&c, consumer, (void *)n);
	for (int i = 0; i < 4; i++)
		thrd_create(&w[i], counter, &per_worker[i]);
	thrd_join(p, NULL);
	thrd_join(c, NULL);
	for (int i = 0; i < 4; i++)
		thrd_join(w[i], NULL);
	printf("%ld\n", per_worker[0]);
	return 0;
}
