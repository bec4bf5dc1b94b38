// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Spin loops whose back-off comes from a random generator writing a global:
 * InnoDB 5.7's TTAS mutex (the delay count from an inlined generator that
 * updates ut_rnd_ulint_counter, the delay a function of its own) and a
 * test-and-set latch whose back-off length a small generator function of
 * its own (not inlined) draws from a global state.  The lock analysis names
 * the global as the spin-delay seed (tests/code/test_lockkinds.c).
 * usage: backoff [seconds] [threads]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

typedef struct {
	volatile int lock_word;
} ib_mutex_t;
ib_mutex_t trx_sys_mutex;
unsigned long ut_rnd_ulint_counter = 65654363;
unsigned long srv_spin_wait_delay = 6;

struct latch {
	volatile unsigned char busy;
} page_latch;
unsigned int backoff_state = 2463534242u;

static volatile int stop;
unsigned long work_done;

static inline unsigned long ut_rnd_gen_ulint(void)
{
	ut_rnd_ulint_counter = 1301 + ut_rnd_ulint_counter * 69069;
	return 1103515245 * ut_rnd_ulint_counter + 12345;
}

static inline unsigned long ut_rnd_interval(unsigned long low, unsigned long high)
{
	return low == high ? low : low + ut_rnd_gen_ulint() % (high - low + 1);
}

NOINLINE unsigned long ut_delay(unsigned long delay)
{
	unsigned long j = 0;

	for (unsigned long i = 0; i < delay * 50; i++) {
		j += i;
		__asm__ __volatile__("" ::: "memory");
	}
	return j;
}

NOINLINE void mutex_enter(ib_mutex_t *m)
{
	for (;;) {
		if (!__atomic_exchange_n(&m->lock_word, 1, __ATOMIC_ACQUIRE))
			return;
		while (m->lock_word)
			ut_delay(ut_rnd_interval(0, srv_spin_wait_delay));
	}
}

NOINLINE void mutex_exit(ib_mutex_t *m)
{
	__atomic_store_n(&m->lock_word, 0, __ATOMIC_RELEASE);
}

NOINLINE unsigned int next_backoff(void)
{
	unsigned int x = backoff_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	backoff_state = x;
	return x & 255;
}

NOINLINE void latch_acquire(struct latch *l)
{
	while (__atomic_test_and_set(&l->busy, __ATOMIC_ACQUIRE)) {
		unsigned int n = next_backoff();

		for (unsigned int i = 0; i < n; i++)
			__asm__ __volatile__("" ::: "memory");
	}
}

NOINLINE void latch_release(struct latch *l)
{
	__atomic_clear(&l->busy, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	for (long k = (long)arg; !stop; k++) {
		if (k & 1) {
			mutex_enter(&trx_sys_mutex);
			work_done += (unsigned long)k;
			mutex_exit(&trx_sys_mutex);
		} else {
			latch_acquire(&page_latch);
			work_done -= 1;
			latch_release(&page_latch);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	int n = argc > 2 ? atoi(argv[2]) : 4;
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	pthread_t t[64];

	if (n < 1 || n > 64)
		return 2;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	nanosleep(&ts, NULL);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%lu %lu %u\n", work_done, ut_rnd_ulint_counter, backoff_state);
	return 0;
}
