/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: variables the C library writes for the
 * program.  Every request formats into last_query with snprintf (a hot
 * writer) beside query_limit, which every request reads (flagged); main
 * clears boot_stats with memset before the threads start (start-up only);
 * a timer thread stores the time with clock_gettime into now, beside
 * nothing (written while threads run).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define WORKERS 4

struct boot { long forks, loads; };

_Alignas(64) char last_query[56];
int query_limit;
_Alignas(64) struct boot boot_stats;
_Alignas(64) struct timespec now;
_Alignas(64) long pad_end;

__attribute__((noinline)) long work(long i)
{
	__asm__ volatile("" ::: "memory");
	return i * 3;
}

static void *worker(void *arg)
{
	for (long i = 0; i < 100000; i++) {
		if (i > query_limit)
			break;
		snprintf(last_query, sizeof(last_query), "select %ld", work(i));
	}
	return arg;
}

static void *timer(void *arg)
{
	clock_gettime(CLOCK_MONOTONIC, &now);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[WORKERS + 1];

	(void)argv;
	memset(&boot_stats, 0, sizeof(boot_stats));
	query_limit = 50000 * argc;
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	pthread_create(&t[WORKERS], NULL, timer, NULL);
	for (int i = 0; i <= WORKERS; i++)
		pthread_join(t[i], NULL);
	printf("%s %ld\n", last_query, (long)now.tv_sec + boot_stats.forks);
	return 0;
}
