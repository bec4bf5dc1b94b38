/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: when callbacks run.  A pool of workers runs
 * tasks whose function pointers main stores before the threads start, so
 * handle() is reached only through memory: requests_served, which every
 * task increments, is a hot shared counter.  Set apart from it, none of
 * which is hot: got_hup, written by a signal handler; tables_ready and
 * crc_table, written by an initialiser pthread_once runs once (at -O0 in a
 * loop of its own); exit_reports, by an exit handler; worker_ids, taken
 * once by each worker at its start (on aarch64 through the C library's
 * outlined atomic, whose retry loop is no repetition).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define WORKERS 4

struct task { void (*fn)(void *); void *arg; };
struct pool { pthread_t th[WORKERS]; struct task *tasks; int ntasks; _Atomic int next; };

_Alignas(128) _Atomic unsigned long requests_served;
_Alignas(128) volatile sig_atomic_t got_hup;
_Alignas(128) int tables_ready;
long crc_table[8];
_Alignas(128) long exit_reports;
_Alignas(128) _Atomic int worker_ids;
_Alignas(128) int log_level = 1;
int max_conn = 100;

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void init_tables(void)
{
	for (int i = 0; i < 8; i++)
		crc_table[i] = i * 0x1021;
	tables_ready = 1;
}

static void on_hup(int sig)
{
	(void)sig;
	got_hup = 1;
}

static void report(void)
{
	exit_reports++;
	fprintf(stderr, "%lu requests\n", (unsigned long)requests_served);
}

static void handle(void *arg)
{
	long n = (long)arg;

	pthread_once(&tables_once, init_tables);
	if (log_level > 3 || got_hup)
		fprintf(stderr, "request %ld\n", n);
	atomic_fetch_add_explicit(&requests_served, 1, memory_order_relaxed);
	if (crc_table[n & 7] + max_conn == 0)
		abort();
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	int id = atomic_fetch_add(&worker_ids, 1);

	for (;;) {
		int i = atomic_fetch_add(&p->next, 1);

		if (i >= p->ntasks)
			break;
		p->tasks[i].fn(p->tasks[i].arg);
	}
	return (void *)(long)id;
}

int main(int argc, char **argv)
{
	struct pool p = { .ntasks = argc > 1 ? atoi(argv[1]) : 100000 };

	signal(SIGHUP, on_hup);
	atexit(report);
	p.tasks = calloc((size_t)p.ntasks, sizeof(*p.tasks));
	if (!p.tasks)
		return 1;
	for (int i = 0; i < p.ntasks; i++) {
		p.tasks[i].fn = handle;
		p.tasks[i].arg = (void *)(long)i;
	}
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&p.th[i], NULL, worker, &p);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(p.th[i], NULL);
	free(p.tasks);
	return 0;
}
