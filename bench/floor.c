/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The floor under a view of a recording: what reading FILE costs with nothing
 * done with its records (framing and time order: "read"), and with every
 * sample decoded and handed to a callback that does nothing ("decode").  Each
 * opens, reads and closes the file RUNS times (the file in the page cache
 * after the first) and prints the median and fastest wall time.  No view of
 * mycl-hot can be faster than "decode"; bench/system_wide.py prints both
 * beside the goals.
 * usage: floor FILE [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mycl/error.h"
#include "mycl/perf_data.h"

struct count {
	unsigned long samples;
};

static int on_sample(const struct mycl_sample *s, void *ctx)
{
	(void)s;
	((struct count *)ctx)->samples++;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One open, read and close of PATH: its wall seconds, or -1 with a message. */
static double once(const char *path, const struct mycl_record_ops *ops, struct count *c)
{
	MYCL_OPTS(mycl_perf_data_opts, po);
	struct mycl_perf_data *pd;
	double t0 = now();
	int rc;

	if ((rc = mycl_perf_data__open(path, &po, &pd))) {
		fprintf(stderr, "floor: %s\n", mycl_errmsg(rc));
		return -1;
	}
	rc = mycl_perf_data__read(pd, ops, c);
	if (rc) {
		fprintf(stderr, "floor: %s\n", mycl_errmsg(rc));
		mycl_perf_data__close(pd);
		return -1;
	}
	mycl_perf_data__close(pd);
	return now() - t0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "read", "decode" };
	int runs = argc > 2 ? atoi(argv[2]) : 7;

	if (argc < 2 || argc > 3 || runs < 1 || runs > 1000) {
		fprintf(stderr, "usage: floor FILE [RUNS (1-1000)]\n");
		return 2;
	}
	for (int mode = 0; mode < 2; mode++) {
		struct mycl_record_ops ops = { .sz = sizeof(ops), .sample = mode ? on_sample : NULL };
		struct count c = { 0 };
		double *t = calloc((size_t)runs, sizeof(*t));

		if (!t || once(argv[1], &ops, &c) < 0)	/* warm-up: the page cache */
			return 1;
		for (int i = 0; i < runs; i++)
			if ((t[i] = once(argv[1], &ops, &c)) < 0)
				return 1;
		qsort(t, (size_t)runs, sizeof(*t), dcmp);
		printf("%-6s median %.4f s  fastest %.4f s", names[mode], t[runs / 2], t[0]);
		if (mode)
			printf("  (%lu samples a run)", c.samples / (unsigned long)(runs + 1));
		printf("\n");
		free(t);
	}
	return 0;
}
