/*
 * Ground truth for mycl-share: stores a test of the variable itself lets
 * through (test before store) in workers' loops, beside the same stores
 * without the test.
 *   last_warn   a time stamp stored when the last is 5 s old: rare (not hot)
 *   peak_depth  a watermark stored when passed: rare once warm (not hot)
 *   scratch     a buffer pointer stored when unset: once (not hot)
 *   last_seen   a time stamp stored on every pass, no test: hot
 *   last_key    stored on every pass under a test of another variable: hot
 *   capped      a counter bumped under a test of its bound: hot (a counter)
 *   mode_val    stored on both sides of a test of itself: every pass (hot)
 *   total_ops   folded in once per worker after its loop (warm)
 * Each written variable beside a read-mostly switch on its line.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WORKERS 4
#define A64 __attribute__((aligned(64)))

time_t last_warn A64;
int verbose = 1;
long peak_depth A64;
int trace_on;
char *scratch A64;
int use_scratch = 1;
time_t last_seen A64;
int log_on = 1;
long last_key A64;
int track_keys = 1;
long capped A64;
int cap_on = 1;
long mode_val A64;
int mode_on = 1;
long total_ops A64;
int report_on = 1;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

long work(long i)
{
	return (i * 2654435761u) >> 7;
}

static void *worker(void *arg)
{
	long mine = 0, n = (long)arg;

	for (long i = 0; i < n; i++) {
		long depth = work(i) & 1023;
		time_t now;

		mine += depth;
		if (trace_on)
			printf("%ld\n", depth);
		if (depth > peak_depth)
			peak_depth = depth;
		if (use_scratch && !scratch)
			scratch = malloc(4096);
		if (cap_on && capped < 1000000)
			capped++;
		if (track_keys)
			last_key = i;
		if (mode_val > depth)
			mode_val = depth + mine;
		else
			mode_val = depth * mine;
		if ((mine & 0xfff) == 0) {
			now = time(NULL);
			if (log_on)
				last_seen = now;
			if (now - last_warn >= 5) {
				last_warn = now;
				if (verbose)
					fprintf(stderr, "slow: %ld\n", mine);
			}
		}
	}
	pthread_mutex_lock(&total_lock);
	total_ops += mine;
	pthread_mutex_unlock(&total_lock);
	if (report_on)
		printf("%ld\n", mine);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[WORKERS];
	long n = argc > 1 ? atol(argv[1]) : 1000000;

	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)n);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %d\n", total_ops, peak_depth, scratch != NULL);
	return 0;
}
