/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: flags set once on the request path.  Each
 * sits beside a switch the workers read on every request (set by main).
 *  - tables_ready ("if (!tables_ready) { fill(); tables_ready = 1; }"),
 *    warned_slow (a warning given once) and spare_buf ("if (spare_buf) {
 *    free(spare_buf); spare_buf = NULL; }"): stored only when a test of
 *    themselves lets the store run, always the same constant: once while
 *    threads run, not hot.
 *  - Not such flags, hot: batch_fill ("if (++batch_fill > 64) batch_fill =
 *    0": a constant stored on one side of its own test, but incremented
 *    too), busy (1 then 0 around each request), seen (1 on every request,
 *    untested) and marked (1 when another variable says so).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

_Alignas(64) int tables_ready;
int use_cache;				/* read on every request */
_Alignas(64) int warned_slow;
int slow_limit;
_Alignas(64) char *spare_buf;
int trace_on;
_Alignas(64) int batch_fill;
int batch_max;
_Alignas(64) int busy;
int busy_limit;
_Alignas(64) int seen;
int seen_cap;
_Alignas(64) int marked;
int mark_level;
_Alignas(64) long table[16];
static volatile int pressure;

__attribute__((noinline)) static void fill(void)
{
	for (int i = 0; i < 16; i++)
		table[i] = i * 7;
}

__attribute__((noinline)) static void flush_batch(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static long handle(long key)
{
	long r = key;

	if (!tables_ready) {
		fill();
		tables_ready = 1;
	}
	if (use_cache)
		r += table[key & 15];
	if (key > slow_limit && !warned_slow) {
		warned_slow = 1;
		fputs("slow request\n", stderr);
	}
	if (pressure && spare_buf) {
		free(spare_buf);
		spare_buf = NULL;
	}
	if (trace_on)
		r ^= 1;
	busy = 1;
	if (++batch_fill > batch_max) {
		batch_fill = 0;
		flush_batch();
	}
	seen = 1;
	if (r > seen_cap && pressure)
		marked = 1;
	r += mark_level + busy_limit;
	busy = 0;
	return r;
}

static void *worker(void *arg)
{
	long acc = 0;

	for (long i = 0; i < (long)arg; i++)
		acc += handle(i);
	return (void *)acc;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	long sum = 0;

	(void)argv;
	spare_buf = malloc(1 << 16);
	trace_on = argc > 2;
	use_cache = 1;
	slow_limit = 900;
	batch_max = 64;
	busy_limit = 3;
	seen_cap = 5;
	mark_level = 7;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)100000L);
	for (int i = 0; i < 4; i++) {
		void *r;

		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("%ld %d %d %d\n", sum & 1, seen, marked, batch_fill);
	return 0;
}
