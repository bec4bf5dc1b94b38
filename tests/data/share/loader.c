/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mycl-share's ground truth for a thread run and joined at start-up: main
 * starts a loader thread that reads the configuration and waits for it
 * before starting the workers (its writes are start-up writes, the
 * configuration read-mostly after); a second loader started after the
 * workers writes while they run.  Regenerate the binaries with gen.sh.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int port;
	int threads;
	char name[24];
} config;				/* by the loader joined before the workers */
static unsigned long served;		/* by every worker */
static struct {
	int port;
	int generation;
} live_config;				/* by a loader started while the workers run */

static void *loader(void *p)
{
	const char *path = p;
	FILE *f = fopen(path, "r");

	config.port = 8080;
	config.threads = 4;
	strcpy(config.name, "srv");
	if (f) {
		char line[64];

		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "port ", 5))
				config.port = atoi(line + 5);
		fclose(f);
	}
	return NULL;
}

static void *live_loader(void *p)
{
	const char *path = p;
	FILE *f = fopen(path, "r");

	if (f) {
		char line[64];

		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "port ", 5))
				live_config.port = atoi(line + 5);
		fclose(f);
	}
	live_config.generation++;
	return NULL;
}

static void *worker(void *p)
{
	(void)p;
	for (int i = 0; i < 1000000; i++)
		if (config.port && live_config.port >= 0)
			__atomic_fetch_add(&served, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/null";
	pthread_t l, t[4];

	if (pthread_create(&l, NULL, loader, (void *)path))
		return 1;
	pthread_join(l, NULL);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	if (pthread_create(&l, NULL, live_loader, (void *)path) == 0)
		pthread_join(l, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%lu %d\n", served, live_config.generation);
	return 0;
}
