/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: lock words written by the C library.
 * table_lock, taken by every worker on every request, shares its line with
 * table_limit and table_mode, set before the threads start and read on every
 * request: the mutex's line bounces under the readers (flagged).
 * boot_lock is taken only before the threads start, beside boot_limit: not
 * hot.  lone_lock, taken on every request, has its line to itself: not
 * flagged.
 */
#include <pthread.h>
#include <stdio.h>

__attribute__((aligned(64))) pthread_mutex_t table_lock;
int table_limit;			/* set before the threads start */
int table_mode;

__attribute__((aligned(64))) pthread_mutex_t boot_lock;
int boot_limit;

__attribute__((aligned(64))) pthread_mutex_t lone_lock = PTHREAD_MUTEX_INITIALIZER;
__attribute__((aligned(64))) long table_rows, lone_count;

__attribute__((noinline)) static long lookup(long key)
{
	long r;

	pthread_mutex_lock(&table_lock);
	table_rows += key < table_limit * table_mode;
	r = table_rows;
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_lock(&lone_lock);
	lone_count++;
	pthread_mutex_unlock(&lone_lock);
	return r;
}

static void *worker(void *arg)
{
	long acc = 0;

	for (long i = 0; i < 200000; i++)
		acc += lookup(i);
	return (void *)acc;
}

int main(void)
{
	pthread_t t[2];

	table_limit = 1000;
	table_mode = 2;
	pthread_mutex_lock(&boot_lock);
	boot_limit = 14;
	pthread_mutex_unlock(&boot_lock);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %d\n", table_rows, lone_count, boot_limit);
	return 0;
}
