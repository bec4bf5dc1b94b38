/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: hot writes beside read-mostly members of the
 * same variable.  cfg.hits, a counter every worker increments, shares its
 * line with cfg.enabled, which every worker reads and nothing writes once
 * the threads run: aligning cfg whole mends nothing.  rng.seed is rewritten
 * (no counter) beside rng.mode, read on every request.  far.hits sits 128
 * bytes past far.enabled: another line, a plain hot counter.  tuned.hits
 * sits beside tuned.level, which an admin command sets while the threads
 * run: no read-mostly member.  pair.a and pair.b are both written: none.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define WORKERS 2

struct config { int enabled; int verbose; long hits; };
struct rng { int mode; int spare; unsigned long seed; };
struct far_config { int enabled; char pad[124]; long hits; };
struct tuned { int level; int pad; long hits; };
struct pair { long a, b; };

_Alignas(256) struct config cfg = { 1, 0, 0 };
_Alignas(256) struct rng rng = { 1, 0, 12345 };
_Alignas(256) struct far_config far = { 1, { 0 }, 0 };
_Alignas(256) struct tuned tuned = { 1, 0, 0 };
_Alignas(256) struct pair pair;

__attribute__((noinline)) void admin_set_level(int l)
{
	tuned.level = l;
}

static void *worker(void *arg)
{
	long n = (long)arg;

	for (long i = 0; i < n; i++) {
		if (cfg.enabled)
			__atomic_add_fetch(&cfg.hits, 1, __ATOMIC_RELAXED);
		if (rng.mode)
			rng.seed = rng.seed * 6364136223846793005UL + 1442695040888963407UL;
		if (far.enabled)
			__atomic_add_fetch(&far.hits, 1, __ATOMIC_RELAXED);
		if (tuned.level > 1)
			__atomic_add_fetch(&tuned.hits, 1, __ATOMIC_RELAXED);
		pair.a = i;
		pair.b = i + 1;
	}
	return NULL;
}

static void *admin(void *arg)
{
	char c;

	(void)arg;
	while (read(0, &c, 1) == 1)
		admin_set_level(c - '0');
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[WORKERS + 1];

	cfg.verbose = argc > 2;
	rng.seed = (unsigned long)getpid();
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)(argc > 1 ? atoi(argv[1]) : 1000));
	pthread_create(&t[WORKERS], NULL, admin, NULL);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	return (int)(cfg.hits + rng.seed + far.hits + tuned.hits + pair.a);
}
