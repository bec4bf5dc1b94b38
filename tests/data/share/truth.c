/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share, with names and shapes of its own:
 *  - jitter_seed, written by every worker on every request, 0x30 bytes into a
 *    block whose next line starts with the read-mostly switch cache_on
 *    (flagged at 128 and 256 bytes, not at 64);
 *  - boot_mode and boot_flags, written only before the first thread starts,
 *    beside read-mostly limits (never hot);
 *  - hits[], one slot per worker, written through a pointer (per-thread slots);
 *  - served, one counter every worker increments (a hot shared counter);
 *  - stat_slots[], one per worker, written through the address a function
 *    returns (stats_for(id)->n++);
 *  - per_thread_total (thread_local) and table_size (const): never listed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define WORKERS 4

struct block { long long a, b, c, d, e, f; };
__attribute__((aligned(256))) struct block front = { 1, 2, 3, 4, 5, 6 };
unsigned long long jitter_seed = 12345;		/* +0x30 */
long long front_tail = 7;				/* +0x38 */
int cache_on = 1;				/* +0x40: read on every request */
int cache_ways = 8;

__attribute__((aligned(64))) int boot_mode;	/* written at start-up only */
int boot_flags;
int limit_a = 100, limit_b = 200;		/* read on every request */

__attribute__((aligned(64))) long hits[WORKERS];	/* one slot per worker */
__attribute__((aligned(64))) unsigned long served;	/* every worker increments it */
__attribute__((aligned(64))) long spare;

struct stat_slot { long n; };
__attribute__((aligned(64))) struct stat_slot stat_slots[WORKERS];

static __thread long per_thread_total;
const long table_size = 4096;

__attribute__((noinline)) static unsigned long long next_jitter(void)
{
	jitter_seed = jitter_seed * 6364136223846793005UL + 1442695040888963407UL;
	return jitter_seed >> 33;
}

__attribute__((noinline)) static void bump(long *slot, long n)
{
	*slot += n;
}

__attribute__((noinline)) static struct stat_slot *stats_for(long id)
{
	return &stat_slots[id];
}

__attribute__((noinline)) static long handle_request(long id, long key)
{
	long r = key;

	if (cache_on)
		r += cache_ways;
	if (r > limit_a && r < limit_b + table_size)
		r ^= (long)next_jitter();
	__atomic_fetch_add(&served, 1, __ATOMIC_RELAXED);
	bump(&hits[id], 1);
	stats_for(id)->n++;
	per_thread_total += r & 1;
	return r;
}

static void *worker(void *arg)
{
	long id = (long)arg, acc = 0;

	for (long i = 0; i < 2000000; i++)
		acc += handle_request(id, i);
	return (void *)acc;
}

__attribute__((noinline)) static void parse_options(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == 'm')
			boot_mode = atoi(argv[i] + 1);
		else
			boot_flags |= 1 << (argv[i][0] & 7);
	}
}

int main(int argc, char **argv)
{
	pthread_t t[WORKERS];
	long sum = 0;

	parse_options(argc, argv);
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (long i = 0; i < WORKERS; i++) {
		void *r;

		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("%ld %lu %lld %d %d %ld %ld\n", sum & 1, served, hits[0] + front.a + front_tail,
	       boot_mode, boot_flags, spare, stat_slots[0].n);
	return 0;
}
