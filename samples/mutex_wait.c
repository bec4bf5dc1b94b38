/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A contended pthread mutex whose waits are known: threads take one mutex
 * from two lock sites and hold it while sleeping, so the others block in
 * pthread_mutex_lock (futex).  Prints the time the threads spent waiting in
 * pthread_mutex_lock, per lock site, as measured here, to check profilers:
 *   mutex_wait [seconds] [threads]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int stop;
static double waited[2];	/* per lock site, seconds */
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

void open_table(void);
void close_table(void);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void hold(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

static inline __attribute__((always_inline)) void take(int site, long hold_us)
{
	double t0 = now(), t1;

	pthread_mutex_lock(&table_lock);
	t1 = now();
	hold(hold_us);
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_lock(&stats_lock);
	waited[site] += t1 - t0;
	pthread_mutex_unlock(&stats_lock);
}

/* The two lock sites. */
__attribute__((noinline)) void open_table(void)
{
	take(0, 2000);
}

__attribute__((noinline)) void close_table(void)
{
	take(1, 500);
}

static void *worker(void *arg)
{
	(void)arg;
	while (!stop) {
		open_table();
		close_table();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0;
	int n = argc > 2 ? atoi(argv[2]) : 4;
	pthread_t t[64];

	if (n < 1 || n > 64)
		n = 4;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	hold((long)(secs * 1e6));
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("open_table %.6f\nclose_table %.6f\n", waited[0], waited[1]);
	return 0;
}
