/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: sequentially consistent atomics, which aarch64
 * with ARMv8.1 (-march=armv8.1-a) compiles to LSE instructions capstone 4
 * cannot decode (ldaddal, casal, swpal), and Debian's default compiles to
 * calls to libgcc's outline helpers (__aarch64_ldadd8_acq_rel(v, p)).  Every
 * worker, on every round: hits += 1 (a hot counter beside verbose, read on
 * every round and set by main before the threads start), peak raised by a
 * CAS loop, owner exchanged.  Each is written hot on every build.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

_Alignas(128) atomic_long hits;
int verbose;
_Alignas(128) atomic_long peak;
_Alignas(128) atomic_int owner;
static volatile long sink;

static void *worker(void *arg)
{
	long id = (long)arg;

	for (long i = 0; i < 1000000; i++) {
		long cur = atomic_load(&peak), v = i * 4 + id;

		atomic_fetch_add(&hits, 1);
		if (verbose)
			sink = i;
		while (cur < v && !atomic_compare_exchange_weak(&peak, &cur, v))
			;
		sink += atomic_exchange(&owner, (int)id);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];

	verbose = argc > 1 && atoi(argv[1]);
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return (int)(hits & 1);
}
