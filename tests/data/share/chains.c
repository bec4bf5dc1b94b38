/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share --perf with call chains: what the code alone
 * ranks wrong and a recording puts right.
 *  - adm_opens, adm_closes, adm_bytes, adm_errors share a line and are written
 *    at many places by run_stats, a command of the table that workers run in
 *    their loop: the code alone ranks their line first, but the workload
 *    never sends "stats";
 *  - req_served is incremented once by run_get, which the workload sends on
 *    every request, beside req_limit (read on every request): the samples are
 *    in mix, which run_get calls, few or none on the increment itself, so
 *    only the call chains show that its writer runs;
 *  - batches_served is incremented by serve_batch once per thousand requests,
 *    alone on its line: no sample lands on it, but serve_batch is on the call
 *    chain of every request's samples;
 *  - warm_level is written by warm_up, which main runs for a while before the
 *    threads start: on the chains too, but a start-up write all the same.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKERS 2

/* gcc places initialized globals in reverse order: each aligned one starts a line. */
long adm_errors = 1, adm_bytes = 1, adm_closes = 1;
__attribute__((aligned(64))) long adm_opens = 1;
int req_limit = 1 << 20;			/* read on every request */
__attribute__((aligned(64))) unsigned long req_served = 1;
int adm_verbose = 1;				/* read by run_stats */

__attribute__((aligned(64))) long batches_served = 1;

__attribute__((aligned(64))) long warm_level;
int warm_rounds = 3000000;

static const char *workload[] = { "get", "get", "get", "get" };

__attribute__((noinline)) static unsigned long mix(long key)
{
	unsigned long h = (unsigned long)key * 0x9e3779b97f4a7c15UL;

	for (int i = 0; i < 64; i++)
		h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9UL;
	return h;
}

__attribute__((noinline)) static unsigned long run_get(long key)
{
	unsigned long h = mix(key);

	if ((long)(h & 0xfffff) < req_limit)
		req_served++;		/* racy, as such counters often are */
	return h;
}

__attribute__((noinline)) static unsigned long run_stats(long key)
{
	for (long i = 0; i < key; i++) {
		adm_opens += i;
		adm_closes += i >> 1;
		if (adm_verbose)
			adm_bytes += key;
		else
			adm_errors++;
		if (i & 1)
			adm_errors += 2;
		adm_bytes ^= i;
		adm_opens -= adm_errors;
	}
	return (unsigned long)adm_opens;
}

struct command {
	const char *name;
	unsigned long (*run)(long key);
};

static const struct command commands[] = {
	{ "stats", run_stats },
	{ "get", run_get },
};

__attribute__((noinline)) static unsigned long serve_batch(long first, long n)
{
	unsigned long acc = 0;

	batches_served++;
	for (long i = first; i < first + n; i++) {
		const char *req = workload[i & 3];

		for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
			if (!strcmp(commands[k].name, req))
				acc += commands[k].run(i);
	}
	return acc;
}

static void *worker(void *arg)
{
	unsigned long acc = 0;

	for (long b = 0; b < 3000; b++)
		acc += serve_batch(b * 1000 + (long)arg, 1000);
	return (void *)acc;
}

__attribute__((noinline)) static void warm_up(void)
{
	for (int i = 0; i < warm_rounds; i++)
		warm_level = (warm_level * 31 + i) % 1000003;
}

int main(void)
{
	pthread_t t[WORKERS];
	unsigned long sum = 0;

	warm_up();
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (long i = 0; i < WORKERS; i++) {
		void *r;

		pthread_join(t[i], &r);
		sum += (unsigned long)r;
	}
	printf("%lu %lu %ld %ld %ld\n", sum & 1, req_served, adm_opens, warm_level, batches_served);
	return 0;
}
