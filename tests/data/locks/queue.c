/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Locks that take turns: no exchange or CAS inside their wait loops, which
 * only read and wait after an atomic handed out a turn (mycl-hot --locks).
 *   ticket   a ticket lock inlined into its site (deposit): the site spins
 *   tkcall   a ticket lock's acquire as a function of its own, waiting with
 *            a relax function no rule names (post_entry takes ledger.turn)
 *   turn     a ticket lock giving up the CPU between looks (sched_yield)
 *   mcs      a queue lock (each waiter spins on its own node, the tail
 *            exchanged): append_journal takes journal_lock
 *   barrier  a spin barrier: spin time, not a lock's
 *   maxcas   a CAS loop keeping a maximum: lock-free, no lock
 *   door     a test-and-set lock taken with no argument by a thread's own
 *            function (door_round), which stores nothing itself: the site,
 *            not a wrapper of the lock (its own argument still in the
 *            first argument's register at the call)
 * usage: queue MODE SECONDS THREADS
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#if defined(__x86_64__) || defined(__i386__)
#define PAUSE() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define PAUSE() __asm__ volatile("yield" ::: "memory")
#else
#define PAUSE() __asm__ volatile("" ::: "memory")
#endif

/* ticket: inlined */
struct ticket { atomic_uint head, tail; };
struct account { struct ticket t; long cents[16]; } accounts[2];

static inline void ticket_take(struct ticket *t)
{
	unsigned me = atomic_fetch_add_explicit(&t->head, 1, memory_order_relaxed);

	while (atomic_load_explicit(&t->tail, memory_order_acquire) != me)
		PAUSE();
}

static inline void ticket_give(struct ticket *t)
{
	atomic_fetch_add_explicit(&t->tail, 1, memory_order_release);
}

static NOINLINE void deposit(int k, long v)
{
	struct account *a = &accounts[k & 1];

	ticket_take(&a->t);
	for (int i = 0; i < 300; i++)
		a->cents[i & 15] += v;
	ticket_give(&a->t);
}

/* tkcall: an acquire function waiting through a relax function */
struct ledger { struct ticket turn; long lines[32]; } ledger;

static NOINLINE void cpu_breather(void)
{
	PAUSE();
	PAUSE();
}

static NOINLINE void turn_acquire(struct ticket *t)
{
	unsigned me = atomic_fetch_add_explicit(&t->head, 1, memory_order_relaxed);

	while (atomic_load_explicit(&t->tail, memory_order_acquire) != me)
		cpu_breather();
}

static NOINLINE void turn_release(struct ticket *t)
{
	atomic_fetch_add_explicit(&t->tail, 1, memory_order_release);
}

static NOINLINE void post_entry(long v)
{
	turn_acquire(&ledger.turn);
	for (int i = 0; i < 300; i++)
		ledger.lines[i & 31] += v;
	turn_release(&ledger.turn);
}

/* turn: a ticket waiting with sched_yield */
atomic_uint serve_next, serve_now;
long served[8];

static NOINLINE void wait_my_turn(void)
{
	unsigned t = atomic_fetch_add_explicit(&serve_next, 1, memory_order_relaxed);

	while (atomic_load_explicit(&serve_now, memory_order_acquire) != t)
		sched_yield();
}

static NOINLINE void serve_one(int k)
{
	wait_my_turn();
	for (int i = 0; i < 300; i++)
		served[(k + i) & 7]++;
	atomic_fetch_add_explicit(&serve_now, 1, memory_order_release);
}

/* mcs */
struct qnode { struct qnode *_Atomic next; atomic_int locked; };
struct qlock { struct qnode *_Atomic tail; } journal_lock;
long journal[32];

static NOINLINE void queue_enter(struct qlock *l, struct qnode *me)
{
	struct qnode *prev;

	atomic_store_explicit(&me->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
	prev = atomic_exchange_explicit(&l->tail, me, memory_order_acq_rel);
	if (!prev)
		return;
	atomic_store_explicit(&prev->next, me, memory_order_release);
	while (atomic_load_explicit(&me->locked, memory_order_acquire))
		PAUSE();
}

static NOINLINE void queue_leave(struct qlock *l, struct qnode *me)
{
	struct qnode *n = atomic_load_explicit(&me->next, memory_order_acquire);

	if (!n) {
		struct qnode *exp = me;

		if (atomic_compare_exchange_strong_explicit(&l->tail, &exp, NULL,
							    memory_order_release,
							    memory_order_relaxed))
			return;
		while (!(n = atomic_load_explicit(&me->next, memory_order_acquire)))
			PAUSE();
	}
	atomic_store_explicit(&n->locked, 0, memory_order_release);
}

static NOINLINE void append_journal(long v)
{
	struct qnode me;

	queue_enter(&journal_lock, &me);
	for (int i = 0; i < 300; i++)
		journal[i & 31] += v;
	queue_leave(&journal_lock, &me);
}

/* barrier */
atomic_uint bar_count, bar_gen;
static atomic_int leaving;
static volatile long sink;

static NOINLINE void rendezvous(unsigned n)
{
	unsigned gen = atomic_load(&bar_gen);

	if (atomic_fetch_add(&bar_count, 1) + 1 == n) {
		atomic_store(&bar_count, 0);
		atomic_fetch_add(&bar_gen, 1);
		return;
	}
	while (atomic_load(&bar_gen) == gen && !atomic_load_explicit(&leaving, memory_order_relaxed))
		PAUSE();
}

/* maxcas: lock-free */
atomic_long high_water;

static NOINLINE void raise_high_water(long v)
{
	long cur = atomic_load_explicit(&high_water, memory_order_relaxed);

	while (cur < v && !atomic_compare_exchange_weak_explicit(&high_water, &cur, v,
								 memory_order_relaxed,
								 memory_order_relaxed))
		;
}

/* door: a lock function of no argument */
atomic_int door;
struct tally { long n[8]; } tallies[16];

static NOINLINE void door_shut(void)
{
	while (atomic_exchange_explicit(&door, 1, memory_order_acquire))
		PAUSE();
}

static NOINLINE void door_open(void)
{
	atomic_store_explicit(&door, 0, memory_order_release);
}

static NOINLINE void count_into(struct tally *t)
{
	for (int i = 0; i < 300; i++)
		t->n[i & 7]++;
}

static NOINLINE void door_round(struct tally *t)
{
	door_shut();
	count_into(t);
	door_open();
}

static int mode, nthreads = 4;
static double secs = 1;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	int id = (int)(long)arg;
	double end = now() + secs;

	for (unsigned long it = 0;; it++) {
		switch (mode) {
		case 0: deposit(id, 1); break;
		case 1: post_entry(id); break;
		case 2: serve_one(id); break;
		case 3: append_journal(id); break;
		case 6: door_round(&tallies[id]); break;
		case 4:
			for (int i = 0; i < 20000 * (id + 1); i++)
				sink += i;
			if (atomic_load(&leaving))
				return NULL;
			rendezvous((unsigned)nthreads);
			break;
		default: raise_high_water((long)(it * 8 + (unsigned)id)); break;
		}
		if ((it & 63) == 0 && now() > end) {
			if (mode == 4) {
				/* let the others out of the barrier for good */
				atomic_store(&leaving, 1);
				atomic_fetch_add(&bar_gen, 1);
			}
			break;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "ticket", "tkcall", "turn", "mcs", "barrier", "maxcas",
					     "door" };
	pthread_t t[16];

	if (argc < 2) {
		fprintf(stderr, "usage: queue MODE [SECONDS [THREADS]]\n");
		return 2;
	}
	for (mode = 0; mode < 7 && strcmp(argv[1], modes[mode]); mode++)
		;
	if (mode == 7) {
		fprintf(stderr, "queue: unknown mode %s\n", argv[1]);
		return 2;
	}
	secs = argc > 2 ? atof(argv[2]) : 1;
	nthreads = argc > 3 ? atoi(argv[3]) : 4;
	if (nthreads < 1 || nthreads > 16)
		nthreads = 4;
	for (long i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %ld %ld %ld\n", accounts[0].cents[0], ledger.lines[0], served[0], journal[0],
	       (long)high_water);
	return 0;
}
