/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pattern of "Finding MySQL Scaling Problems Using perf": InnoDB 5.7's
 * test-and-test-and-set mutex whose spin delay is drawn from one shared global
 * seed, ut_rnd_ulint_counter, written by every spinning thread, and laid out
 * 16 bytes before btr_search_enabled, read on every index search.  In a
 * 256-byte aligned block: the seed at +0x30, the switch at +0x40 (same line at
 * 128 and 256 bytes, different lines at 64), other read-mostly settings after
 * the switch.  Build with -fno-toplevel-reorder
 * so the globals stay in this order.
 *   ttas_mutex [seconds] [threads]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

unsigned long ut_delay(unsigned long delay);
void trx_assign_read_view(void);
void lock_rec_lock(void);
unsigned long btr_cur_search_to_nth_level(unsigned long key);

#define UT_RND1 151117737UL
#define UT_RND2 119785373UL
#define UT_RND3 85689495UL
#define UT_RND4 76595339UL
#define UT_SUM_RND2 98781234UL
#define UT_SUM_RND3 126792457UL
#define UT_SUM_RND4 63498502UL
#define UT_XOR_RND1 187678878UL
#define UT_XOR_RND2 143537923UL

__attribute__((aligned(256))) unsigned long srv_block[6] = { 1, 2, 3, 4, 5, 6 };
unsigned long ut_rnd_ulint_counter = 65654363;	/* +0x30: written on every spin */
unsigned long srv_block_pad = 7;		/* +0x38: never touched */
char btr_search_enabled = 1;			/* +0x40: read on every search */
unsigned long srv_spin_wait_delay = 6;		/* +0x48: read-mostly */
unsigned long srv_n_spin_wait_rounds = 30;	/* +0x50: read-mostly */

struct ttas_mutex {
	volatile int lock_word;
	volatile int waiters;
};

/* Written data starts a block of its own, away from the lines above. */
__attribute__((aligned(256))) struct ttas_mutex trx_sys_mutex = { 0, 0 };
struct ttas_mutex lock_sys_mutex = { 0, 0 };
volatile unsigned long rows_read, views_opened;	/* zero: .bss, in the written block */
static volatile int stop;

static inline unsigned long ut_rnd_gen_next_ulint(unsigned long rnd)
{
	unsigned long n_bits = 8 * sizeof(unsigned long);

	rnd = UT_RND2 * rnd + UT_SUM_RND3;
	rnd = UT_XOR_RND1 ^ rnd;
	rnd = (rnd << 20) + (rnd >> (n_bits - 20));
	rnd = UT_RND3 * rnd + UT_SUM_RND4;
	rnd = UT_XOR_RND2 ^ rnd;
	rnd = (rnd << 20) + (rnd >> (n_bits - 20));
	return UT_RND1 * rnd + UT_SUM_RND2;
}

static inline unsigned long ut_rnd_gen_ulint(void)
{
	ut_rnd_ulint_counter = UT_RND1 * ut_rnd_ulint_counter + UT_RND2;
	return ut_rnd_gen_next_ulint(ut_rnd_ulint_counter);
}

static inline unsigned long ut_rnd_interval(unsigned long low, unsigned long high)
{
	return low == high ? low : low + ut_rnd_gen_ulint() % (high - low + 1);
}

/* The spin delay: a few pauses, as UT_RELAX_CPU does. */
__attribute__((noinline)) unsigned long ut_delay(unsigned long delay)
{
	unsigned long j = 0;

	for (unsigned long i = 0; i < delay; i++) {
		j += i;
#if defined(__x86_64__)
		__asm__ volatile("pause");
#elif defined(__aarch64__)
		__asm__ volatile("yield");
#elif defined(__powerpc64__)
		__asm__ volatile("or 27,27,27");
#endif
	}
	/* Never taken; makes this a non-leaf with a frame, so perf -g sees the caller. */
	if (j == ~0UL)
		abort();
	return j;
}

/* TTASEventMutex::enter: test, test-and-set, spin with random delays, then yield. */
static inline void mutex_enter(struct ttas_mutex *m)
{
	for (unsigned long rounds = 0;; rounds++) {
		if (!m->lock_word && !__atomic_exchange_n(&m->lock_word, 1, __ATOMIC_ACQUIRE))
			return;
		ut_delay(ut_rnd_interval(0, srv_spin_wait_delay));
		if (rounds > srv_n_spin_wait_rounds) {
			/* sync_array_wait_event in InnoDB; here the scheduler. */
			m->waiters = 1;
			sched_yield();
			rounds = 0;
		}
	}
}

static inline void mutex_exit(struct ttas_mutex *m)
{
	__atomic_store_n(&m->lock_word, 0, __ATOMIC_RELEASE);
}

/* MVCC::view_open: opens a read view under the transaction-system mutex. */
__attribute__((noinline)) void trx_assign_read_view(void)
{
	mutex_enter(&trx_sys_mutex);
	for (int i = 0; i < 20; i++)
		views_opened = views_opened * 31 + (unsigned long)i;
	mutex_exit(&trx_sys_mutex);
}

/* lock_rec_lock: a second lock site on another mutex. */
__attribute__((noinline)) void lock_rec_lock(void)
{
	mutex_enter(&lock_sys_mutex);
	for (int i = 0; i < 10; i++)
		rows_read += (unsigned long)i;
	mutex_exit(&lock_sys_mutex);
}

/* btr_cur_search_to_nth_level: reads btr_search_enabled on every search. */
__attribute__((noinline)) unsigned long btr_cur_search_to_nth_level(unsigned long key)
{
	unsigned long h = key;

	for (int i = 0; i < 64; i++) {
		if (btr_search_enabled)
			h = h * 2654435761UL + (unsigned long)i;
		else
			h ^= (unsigned long)i;
	}
	return h;
}

static void *worker(void *arg)
{
	unsigned long key = (uintptr_t)arg, sum = 0;

	while (!stop) {
		trx_assign_read_view();
		sum += btr_cur_search_to_nth_level(key++);
		if (!(key & 3))
			lock_rec_lock();
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0;
	int n = argc > 2 ? atoi(argv[2]) : 4;
	pthread_t t[64];
	struct timespec ts = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };

	if (n < 1 || n > 64)
		n = 4;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i * 1000));
	nanosleep(&ts, NULL);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%lu %lu\n", views_opened & 1, rows_read & 1);
	return 0;
}
