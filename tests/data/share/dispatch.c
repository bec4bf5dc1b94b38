/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share, linked statically: handlers in a table run by
 * workers spawned through a wrapper (get_hits and set_hits, written on every
 * request beside each other); the C library linked in brings its own
 * objects (malloc arenas, the loader), which are not the program's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long (*handler_fn)(long);
struct handler { const char *name; handler_fn fn; };

long get_hits;          /* do_get, every get */
long set_hits;          /* do_set, every set: writer/writer with get_hits */
int log_level = 2;      /* read by both, written by the admin command only */
long admin_runs;        /* reload, an admin command seldom sent */
char banner[48];        /* written at start-up (strcpy) */

static long do_get(long k) { get_hits++; return k * 3 + log_level; }
static long do_set(long k) { set_hits++; return k ^ log_level; }
static long do_reload(long k) { admin_runs++; log_level = (int)k & 3; return 0; }

static const struct handler handlers[] = {
	{ "get", do_get }, { "set", do_set }, { "reload", do_reload },
};

struct job { int kind; long n; };

static void *serve(void *arg)
{
	struct job *j = arg;
	long acc = 0;

	for (long i = 0; i < j->n; i++)
		acc += handlers[j->kind].fn(i);
	return (void *)acc;
}

static int spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
	return pthread_create(t, NULL, fn, arg);
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	struct job jobs[2] = { { 0, 20000000 }, { 1, 20000000 } };

	strcpy(banner, argc > 1 ? argv[1] : "probe2 server");
	for (int i = 0; i < 2; i++)
		spawn(&t[i], serve, &jobs[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%s %ld %ld %ld\n", banner, get_hits, set_hits, admin_runs);
	return 0;
}
