// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Locks in an array that a global pointer points into, padded to a cache
 * line each and named by a table of strings, as PostgreSQL keeps its
 * individual LWLocks (MainLWLockArray, IndividualLWLockNames): threads take
 * slot 1's mutex around a short burn.  usage: tranche [seconds] [threads]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

typedef union {
	pthread_mutex_t lock;
	char pad[128];
} PaddedLock;

PaddedLock *LockSlots;
const char *const LockSlotNames[] = { "Catalog", "Journal", "Ledger", "Spool" };
static volatile int stop;
unsigned long journal_len;

NOINLINE static unsigned long burn(int n)
{
	unsigned long x = 1;

	for (int i = 0; i < n * 100; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

NOINLINE void append_journal(int k)
{
	pthread_mutex_lock(&LockSlots[1].lock);
	journal_len += burn(150) & 1;
	pthread_mutex_unlock(&LockSlots[1].lock);
	(void)k;
}

static void *worker(void *arg)
{
	for (int k = 0; !stop; k++) {
		append_journal(k + (int)(long)arg);
		burn(20);
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
	LockSlots = aligned_alloc(128, 4 * sizeof(*LockSlots));
	for (int i = 0; i < 4; i++)
		pthread_mutex_init(&LockSlots[i].lock, NULL);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	nanosleep(&ts, NULL);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%lu %s\n", journal_len, LockSlotNames[1]);
	return 0;
}
