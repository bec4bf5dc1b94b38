/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Counters chosen by address: each worker picks one of two counters on one
 * line (by the parity of its id: a conditional move at -O2, an if's two arms
 * at -O0) and hands it to a function that increments it, or increments it
 * in place; a read-only limit beside.  Both counters are written by
 * different threads (writer/writer false sharing); the limit never.
 */
#include <pthread.h>
#include <stdio.h>

long served_even __attribute__((aligned(64))), served_odd;
long spills_even, spills_odd;
long limit = 1000;

static void __attribute__((noinline)) tick(long *c)
{
	*c += 1;
}

static void *clerk(void *arg)
{
	long id = (long)arg;
	long *served = (id & 1) ? &served_odd : &served_even;
	long *spills = (id & 1) ? &spills_odd : &spills_even;

	for (long i = 0; i < 100000000; i++) {
		if (i > limit * 100000000L)
			break;
		tick(served);
		if ((i & 1023) == 0)
			*spills += 1;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];

	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, clerk, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %ld %ld\n", served_even, served_odd, spills_even, spills_odd);
	return 0;
}
