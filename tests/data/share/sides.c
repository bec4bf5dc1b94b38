/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A counter chosen by a function that returns one of two addresses (a
 * conditional move or select there), written through the result and through
 * a struct it is stored in and handed down; a read-only step beside.  Both
 * tallies are written by the threads, the step never.
 */
#include <pthread.h>
#include <stdio.h>

long tally_left, tally_right;
long step = 10;

struct job {
	long *counter;
	int id;
};

static long *__attribute__((noinline)) side(long id)
{
	return (id & 1) ? &tally_right : &tally_left;
}

static void __attribute__((noinline)) run(struct job *j)
{
	for (int i = 0; i < 1000; i++)
		*j->counter += step;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	struct job j = { side(id), (int)id };

	for (long i = 0; i < 100000; i++) {
		run(&j);
		*side(id + 1) += 1;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];

	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", tally_left, tally_right);
	return 0;
}
