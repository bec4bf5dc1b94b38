/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: threads started by a module's init handler
 * found in a table, never by main's own calls (nginx's thread pool).  main
 * parses its options in a loop (opt_verbose, opt_workers: written once per
 * option, never hot) and runs the modules' handlers; the pool's workers
 * count every job in jobs_done (a hot shared counter).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct module {
	const char *name;
	int (*init)(void);
};

_Alignas(64) int opt_verbose;
int opt_workers = 2;
_Alignas(64) unsigned long jobs_done;
_Alignas(64) pthread_t pool_threads[8];

static void *pool_worker(void *arg)
{
	for (long i = 0; i < 1000000; i++)
		__atomic_fetch_add(&jobs_done, 1, __ATOMIC_RELAXED);
	return arg;
}

static int pool_init(void)
{
	for (int i = 0; i < opt_workers && i < 8; i++)
		if (pthread_create(&pool_threads[i], NULL, pool_worker, NULL))
			return -1;
	return 0;
}

static int log_init(void)
{
	return opt_verbose ? fprintf(stderr, "logging\n") < 0 : 0;
}

static const struct module modules[] = { { "log", log_init }, { "pool", pool_init } };

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			opt_verbose++;
		else if (!strncmp(argv[i], "-w", 2))
			opt_workers = atoi(argv[i] + 2);
	}
	for (size_t m = 0; m < sizeof(modules) / sizeof(modules[0]); m++)
		if (modules[m].init())
			return 1;
	for (int i = 0; i < opt_workers && i < 8; i++)
		pthread_join(pool_threads[i], NULL);
	printf("%lu\n", jobs_done);
	return 0;
}
