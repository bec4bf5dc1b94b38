/*
 * tests/data/share/pooled.c: threads started by another library
 * (pooled_lib.c's pool_spawn, handed the entry), joined here: no
 * pthread_create in this binary, only pthread_join.  Every worker increments
 * served per request; debug_level is set by main before the pool starts.
 * Built with -DNO_JOIN (pooled.nojoin) it does not join them either: no sign
 * of threads but its own atomic update of served.
 */
#include <pthread.h>
#include <stdio.h>

int pool_spawn(void (*fn)(void *), void *arg, pthread_t *t);

long served;
int debug_level;

static void worker(void *arg)
{
	long n = (long)arg;

	for (long i = 0; i < n; i++) {
		__atomic_fetch_add(&served, 1, __ATOMIC_RELAXED);
		if (debug_level > 5)
			puts("request");
	}
}

int main(int argc, char **argv)
{
	pthread_t t[4];

	debug_level = argc > 5;
	for (int i = 0; i < 4; i++)
		pool_spawn(worker, (void *)1000000L, &t[i]);
#ifndef NO_JOIN
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
#endif
	printf("%ld\n", served);
	return 0;
}
