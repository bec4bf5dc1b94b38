/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Lock patterns written for mycl's lock report, none named like its rules:
 * each mode runs threads through one way of taking (or not taking) a lock.
 *   zoo MODE [seconds] [threads]
 * MODE: tas (test-and-set with a backoff function of its own), ttas
 * (test-and-test-and-set whose delay writes a shared seed), pmutex (a
 * contended pthread mutex), rwlock (pthread rwlock, a writer-heavy mix),
 * condq (a queue on a condition variable: waits that are no lock), cas (a
 * lock-free counter: a CAS retry loop that is no lock), xadd (an atomic add,
 * no lock), mmap (threads in mmap/munmap: the kernel's mmap_lock), pool (a
 * mutex inside a structure a global pointer points to).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile int stop;
static unsigned long work_sink;

static NOINLINE void burn(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		work_sink = work_sink * 6364136223846793005UL + i;
}

/* ---- tas: a PostgreSQL-shaped spinlock ---- */
struct slot_table {
	volatile unsigned char latch;
	long pins[7];
};
struct slot_table buffer_slots;

static inline int grab(volatile unsigned char *l)
{
	unsigned char old = 1;

	__asm__ __volatile__("lock; xchgb %0, %1" : "+q"(old), "+m"(*l) : : "memory");
	return old;
}

struct backoff { int spins, sleeps; };

NOINLINE void wait_a_little(struct backoff *b)
{
	__asm__ __volatile__("pause");
	if (++b->spins > 100) {
		b->spins = 0;
		b->sleeps++;
		sched_yield();
	}
}

NOINLINE void slot_latch_acquire(volatile unsigned char *l)
{
	struct backoff b = { 0, 0 };

	while (*l || grab(l))
		wait_a_little(&b);
}

NOINLINE void pin_buffer_slot(int id)
{
	slot_latch_acquire(&buffer_slots.latch);
	buffer_slots.pins[id % 7]++;
	burn(400);
	__atomic_store_n(&buffer_slots.latch, 0, __ATOMIC_RELEASE);
}

static void *tas_thread(void *arg)
{
	while (!stop) {
		pin_buffer_slot((int)(long)arg);
		burn(50);
	}
	return NULL;
}

/* ---- ttas: a delay that draws from one shared seed ---- */
struct gate { volatile int held; volatile int waiters; };
struct gate hall_gate;
unsigned long jitter_state = 12345;

NOINLINE unsigned long jitter(void)
{
	jitter_state = jitter_state * 1103515245UL + 12345UL;
	return (jitter_state >> 16) & 31;
}

NOINLINE void relax_for(unsigned long rounds)
{
	rounds += jitter();
	for (unsigned long i = 0; i < rounds; i++)
		__asm__ __volatile__("pause");
}

NOINLINE void close_gate(struct gate *g)
{
	for (;;) {
		int tries = 0;

		while (g->held && tries++ < 30)
			relax_for(4);
		if (!__atomic_exchange_n(&g->held, 1, __ATOMIC_ACQUIRE))
			return;
		__atomic_fetch_add(&g->waiters, 1, __ATOMIC_RELAXED);
		sched_yield();
		__atomic_fetch_sub(&g->waiters, 1, __ATOMIC_RELAXED);
	}
}

NOINLINE void open_gate(struct gate *g)
{
	__atomic_store_n(&g->held, 0, __ATOMIC_RELEASE);
}

NOINLINE void reserve_seat(void)
{
	close_gate(&hall_gate);
	burn(300);
	open_gate(&hall_gate);
}

static void *ttas_thread(void *arg)
{
	(void)arg;
	while (!stop) {
		reserve_seat();
		burn(30);
	}
	return NULL;
}

/* ---- pmutex: a contended pthread mutex ---- */
pthread_mutex_t ledger_mutex = PTHREAD_MUTEX_INITIALIZER;
long ledger_total;

NOINLINE void post_ledger_entry(long amount)
{
	pthread_mutex_lock(&ledger_mutex);
	ledger_total += amount;
	burn(200);
	pthread_mutex_unlock(&ledger_mutex);
}

static void *pmutex_thread(void *arg)
{
	while (!stop) {
		post_ledger_entry((long)arg);
		burn(20);
	}
	return NULL;
}

/* ---- rwlock: writers and readers of one catalog ---- */
pthread_rwlock_t catalog_lock = PTHREAD_RWLOCK_INITIALIZER;
long catalog[64];

NOINLINE void rotate_catalog(void)
{
	pthread_rwlock_wrlock(&catalog_lock);
	for (int i = 0; i < 63; i++)
		catalog[i] = catalog[i + 1];
	burn(200);
	pthread_rwlock_unlock(&catalog_lock);
}

NOINLINE long lookup_catalog(int k)
{
	long v;

	pthread_rwlock_rdlock(&catalog_lock);
	v = catalog[k & 63];
	burn(50);
	pthread_rwlock_unlock(&catalog_lock);
	return v;
}

static void *rwlock_thread(void *arg)
{
	for (unsigned i = 0; !stop; i++) {
		if (i % 2)
			rotate_catalog();
		else
			work_sink += lookup_catalog((int)i);
	}
	(void)arg;
	return NULL;
}

/* ---- condq: a work queue on a condition variable ---- */
pthread_mutex_t queue_mutex = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t queue_nonempty = PTHREAD_COND_INITIALIZER;
int queue_len;

NOINLINE int take_job(void)
{
	pthread_mutex_lock(&queue_mutex);
	while (!queue_len && !stop)
		pthread_cond_wait(&queue_nonempty, &queue_mutex);
	if (queue_len)
		queue_len--;
	pthread_mutex_unlock(&queue_mutex);
	return 1;
}

static void *condq_consumer(void *arg)
{
	(void)arg;
	while (!stop) {
		take_job();
		burn(2000);
	}
	return NULL;
}

static void *condq_producer(void *arg)
{
	(void)arg;
	while (!stop) {
		struct timespec ts = { 0, 2000000 };

		nanosleep(&ts, NULL);
		pthread_mutex_lock(&queue_mutex);
		queue_len++;
		pthread_cond_signal(&queue_nonempty);
		pthread_mutex_unlock(&queue_mutex);
	}
	pthread_mutex_lock(&queue_mutex);
	pthread_cond_broadcast(&queue_nonempty);
	pthread_mutex_unlock(&queue_mutex);
	return NULL;
}

/* ---- pool: a mutex inside what a global pointer points to ---- */
struct page_pool {
	long hits;
	pthread_mutex_t guard;
	long pages[8];
};
struct page_pool *shared_pool;

NOINLINE void fetch_page(int k)
{
	pthread_mutex_lock(&shared_pool->guard);
	shared_pool->pages[k & 7]++;
	burn(150);
	pthread_mutex_unlock(&shared_pool->guard);
}

static void *pool_thread(void *arg)
{
	for (int k = 0; !stop; k++) {
		fetch_page(k + (int)(long)arg);
		burn(20);
	}
	return NULL;
}

/* ---- cas: a lock-free counter; xadd: an atomic add ---- */
unsigned long page_visits;
unsigned long hit_count;

NOINLINE void bump_visits(unsigned long by)
{
	unsigned long old = __atomic_load_n(&page_visits, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(&page_visits, &old, old * 3 + by, 1, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void *cas_thread(void *arg)
{
	while (!stop) {
		bump_visits((unsigned long)arg);
		burn(5);
	}
	return NULL;
}

NOINLINE void count_hit(void)
{
	__atomic_fetch_add(&hit_count, 1, __ATOMIC_RELAXED);
}

static void *xadd_thread(void *arg)
{
	(void)arg;
	while (!stop) {
		count_hit();
		burn(5);
	}
	return NULL;
}

/* ---- mmap: threads mapping and unmapping (the kernel's mmap_lock) ---- */
NOINLINE void churn_mappings(void)
{
	void *p = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED) {
		((char *)p)[0] = 1;
		munmap(p, 1 << 16);
	}
}

static void *mmap_thread(void *arg)
{
	(void)arg;
	while (!stop)
		churn_mappings();
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void *(*fn)(void *); } modes[] = {
		{ "tas", tas_thread }, { "ttas", ttas_thread }, { "pmutex", pmutex_thread },
		{ "rwlock", rwlock_thread }, { "condq", condq_consumer }, { "cas", cas_thread },
		{ "xadd", xadd_thread }, { "mmap", mmap_thread }, { "pool", pool_thread },
	};
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	int n = argc > 3 ? atoi(argv[3]) : 4, m;
	pthread_t t[65];
	struct timespec ts = { (time_t)secs, (long)((secs - (long)secs) * 1e9) };

	for (m = 0; argc > 1 && m < (int)(sizeof(modes) / sizeof(modes[0])); m++)
		if (!strcmp(argv[1], modes[m].name))
			break;
	if (argc < 2 || m == (int)(sizeof(modes) / sizeof(modes[0])) || n < 1 || n > 64) {
		fprintf(stderr, "usage: zoo tas|ttas|pmutex|rwlock|condq|cas|xadd|mmap|pool [s] [threads]\n");
		return 2;
	}
	shared_pool = calloc(1, sizeof(*shared_pool));
	pthread_mutex_init(&shared_pool->guard, NULL);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, modes[m].fn, (void *)(long)(i + 1));
	if (modes[m].fn == condq_consumer)
		pthread_create(&t[n++], NULL, condq_producer, NULL);
	nanosleep(&ts, NULL);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%lu %lu %lu %ld\n", page_visits, hit_count, jitter_state, ledger_total);
	return 0;
}
