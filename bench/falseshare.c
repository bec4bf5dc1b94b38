/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What false sharing costs on this machine, measured: two threads on two
 * CPUs, each working on its own global, with the two globals on one cache
 * line and then 256 bytes apart (past adjacent-line prefetch and the largest
 * line, s390x's 256 bytes).  Two shapes, the ones mycl-share flags:
 *   writers  - each thread increments its own counter (writer/writer);
 *   reader   - one thread writes a seed, the other reads a switch beside it
 *              (the ut_rnd_ulint_counter / btr_search_enabled case).
 * Prints nanoseconds per operation and the slowdown of shared over padded.
 * usage: falseshare [MILLION_OPS]   (default 200)
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct pair {
	volatile unsigned long a;
	char gap[256 - sizeof(unsigned long)];
	volatile unsigned long b;
};

static __attribute__((aligned(256))) struct pair padded;
static __attribute__((aligned(256))) volatile unsigned long shared[2];
static long ops;
static pthread_barrier_t go;

struct job {
	volatile unsigned long *mine;
	int cpu;
	int read;			/* 1: read *mine (the switch) instead of writing it */
	unsigned long sink;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	struct job *j = arg;
	cpu_set_t set;
	unsigned long s = 0;

	CPU_ZERO(&set);
	CPU_SET(j->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(&go);
	if (j->read) {
		for (long i = 0; i < ops; i++)
			s += *j->mine;
	} else {
		for (long i = 0; i < ops; i++)
			*j->mine = *j->mine * 6364136223846793005UL + 1;
	}
	j->sink = s;
	return NULL;
}

/* Wall time of the two threads, each on its own variable. */
static double pair_time(volatile unsigned long *x, volatile unsigned long *y, int read_y)
{
	struct job j[2] = { { x, 0, 0, 0 }, { y, 1, read_y, 0 } };
	pthread_t t[2];
	double t0;

	pthread_barrier_init(&go, NULL, 3);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, run, &j[i]);
	t0 = now();
	pthread_barrier_wait(&go);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&go);
	return now() - t0;
}

/* The best of five runs: the least disturbed by other work on the machine. */
static double best(volatile unsigned long *x, volatile unsigned long *y, int read_y)
{
	double b = 1e30;

	for (int r = 0; r < 5; r++) {
		double t = pair_time(x, y, read_y);

		if (t < b)
			b = t;
	}
	return b;
}

int main(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	ops = (argc > 1 ? atol(argv[1]) : 200) * 1000000L;
	if (cpus < 2) {
		printf("falseshare: %ld CPU online; false sharing needs two to measure\n", cpus);
		return 0;
	}
	for (int read = 0; read < 2; read++) {
		double s = best(&shared[0], &shared[1], read);
		double p = best(&padded.a, &padded.b, read);

		printf("%-8s one line: %.2f ns/op, 256 bytes apart: %.2f ns/op: %.1fx slower shared\n",
		       read ? "reader" : "writers", s * 1e9 / (double)ops, p * 1e9 / (double)ops, s / p);
	}
	return 0;
}
