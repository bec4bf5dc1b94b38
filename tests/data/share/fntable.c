/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mycl-share's ground truth for calls through tables of functions: a small
 * key-value server whose C11 threads (thrd_create) each get their own slot of
 * wstats[] and dispatch every request through a command table, the handler
 * writing the slot it is handed; a table of reporters each handed &tallies;
 * beside them options read from a file before the threads start, a seed
 * written on every request beside a switch set once, an atexit summary.
 * Regenerate the binaries with gen.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#define NWORKERS 4
#define NBUCKET 1024

struct kv { unsigned long key, val; };

/* configuration: read from the file before any worker starts, read after */
static int opt_verbose;
static unsigned opt_buckets = 256;
static char opt_name[32] = "kvsim";
static int opt_sync;

/* per request, by every worker */
static unsigned long requests_served;
static unsigned long xs_state = 88172645463325252UL;	/* random choice of keys */
static int lookup_enabled = 1;		/* read on every request, set once */

struct wstat { unsigned long gets, puts, misses; };
static struct wstat wstats[NWORKERS];	/* one slot each, written through a pointer */

static struct kv table[NBUCKET];
static unsigned long puts_total;		/* by the put handler */
static unsigned long flushes;		/* by the flush handler (never sent) */
static unsigned long exit_total;		/* once, at exit */
static const unsigned primes[] = { 2, 3, 5, 7, 11, 13, 17, 19 };

/* tallies kept by a table of reporters, each handed the global's address */
struct tally { unsigned long even, odd; };
static struct tally tallies;
static int tally_mode = 1;			/* set once, read by every request */
static void tally_even(struct tally *t) { t->even++; }
static void tally_odd(struct tally *t) { t->odd++; }
static void (*const tally_fns[])(struct tally *) = { tally_even, tally_odd };

static unsigned long xorshift(void)
{
	unsigned long x = xs_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	xs_state = x;
	return x;
}

typedef int (*handler_fn)(struct wstat *, unsigned long);

static int do_get(struct wstat *ws, unsigned long k)
{
	struct kv *e = &table[k % opt_buckets];
	ws->gets++;
	if (e->key != k) {
		ws->misses++;
		return -1;
	}
	return (int)e->val;
}

static int do_put(struct wstat *ws, unsigned long k)
{
	struct kv *e = &table[k % opt_buckets];
	ws->puts++;
	e->key = k;
	e->val = k * primes[k & 7];
	__atomic_fetch_add(&puts_total, 1, __ATOMIC_RELAXED);
	return 0;
}

static int do_flush(struct wstat *ws, unsigned long k)
{
	(void)ws; (void)k;
	memset(table, 0, sizeof(table));
	flushes++;
	return 0;
}

static const struct { const char *name; handler_fn fn; } commands[] = {
	{ "get", do_get }, { "put", do_put }, { "flush", do_flush },
};

static int dispatch(const char *cmd, struct wstat *ws, unsigned long k)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, cmd))
			return commands[i].fn(ws, k);
	return -2;
}

static int worker(void *arg)
{
	struct wstat *me = arg;
	long n = 0;

	for (int i = 0; i < 2000000; i++) {
		unsigned long k = xorshift();
		if (lookup_enabled)
			n += dispatch((k & 3) ? "get" : "put", me, k);
		__atomic_fetch_add(&requests_served, 1, __ATOMIC_RELAXED);
		if (tally_mode)
			tally_fns[k & 1](&tallies);
	}
	return (int)(n & 1);
}

static void read_config(const char *path)
{
	char line[128];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "verbose", 7))
			opt_verbose++;
		else if (!strncmp(line, "buckets ", 8))
			opt_buckets = (unsigned)strtoul(line + 8, NULL, 10);
		else if (!strncmp(line, "name ", 5))
			snprintf(opt_name, sizeof(opt_name), "%s", line + 5);
		else if (!strncmp(line, "sync", 4))
			opt_sync = 1;
	}
	fclose(f);
	if (opt_buckets == 0 || opt_buckets > NBUCKET)
		opt_buckets = NBUCKET;
}

static void summary(void)
{
	for (int i = 0; i < NWORKERS; i++)
		exit_total += wstats[i].gets + wstats[i].puts;
	if (opt_verbose)
		printf("%s: %lu requests, %lu puts, %lu flushes, %lu\n", opt_name,
		       requests_served, puts_total, flushes, exit_total);
}

int main(int argc, char **argv)
{
	thrd_t t[NWORKERS];

	read_config(argc > 1 ? argv[1] : "/dev/null");
	if (argc > 2)
		lookup_enabled = 0;
	if (argc > 3)
		tally_mode = 0;
	atexit(summary);
	for (int i = 0; i < NWORKERS; i++)
		thrd_create(&t[i], worker, &wstats[i]);
	for (int i = 0; i < NWORKERS; i++)
		thrd_join(t[i], NULL);
	if (opt_sync)
		sync();
	return 0;
}
