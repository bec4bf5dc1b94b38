/*
 * tests/data/share/pooled_lib.c: a thread pool's spawn in a library of its
 * own (built by gen.sh to link pooled.c, not kept): the entry travels in a
 * heap job to a trampoline pthread_create starts.
 */
#include <pthread.h>
#include <stdlib.h>

struct job {
	void (*fn)(void *);
	void *arg;
};

static void *trampoline(void *p)
{
	struct job j = *(struct job *)p;

	free(p);
	j.fn(j.arg);
	return NULL;
}

int pool_spawn(void (*fn)(void *), void *arg, pthread_t *t)
{
	struct job *j = malloc(sizeof(*j));

	if (!j)
		return -1;
	j->fn = fn;
	j->arg = arg;
	return pthread_create(t, NULL, trampoline, j);
}
