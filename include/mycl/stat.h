/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Counter statistics: a perf stat record file read as perf stat report
 * reads it: counts per event (per CPU or thread when perf stat kept them
 * apart), scaled by enabled/running time when counters were multiplexed,
 * per interval with -I, and the figures perf stat derives beside them (CPUs
 * utilised, rates per second, GHz, instructions per cycle, miss rates).
 */
#ifndef MYCL_STAT_H
#define MYCL_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mycl/perf_data.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_stat;

struct mycl_stat_opts {
	size_t sz;			/* sizeof(struct mycl_stat_opts) */
	mycl_print_fn print;		/* warnings; NULL: none */
	void *print_ctx;
};

/* One event's count in one interval (or the whole run), for one CPU or thread or all. */
struct mycl_stat_row {
	const char *event;
	const char *unit;		/* "msec" (task-clock, cpu-clock), or NULL: a count */
	int32_t cpu;			/* the CPU number; -1: summed over CPUs */
	int32_t pid;			/* the thread's pid; -1: summed over threads */
	const char *comm;		/* the thread's command, or NULL */
	uint64_t val, ena, run;		/* summed as read: count, ns enabled, ns running */
	bool supported;			/* values were recorded: else perf's <not supported>
					 * (the counter could not be opened) */
	bool counted;			/* it ran (run > 0): else perf's <not counted> */
	double count;			/* as perf prints it: val scaled by ena/run when the
					 * counter was multiplexed, then by the event's scale */
	double running;			/* run/ena in percent: below 100 when multiplexed */
	/*
	 * What perf stat derives beside the count ("CPUs utilized", "/sec",
	 * "K/sec", "M/sec", "GHz", "insn per cycle", "% of all branches",
	 * "% of all cache refs", ...), or NULL; METRIC its value.
	 */
	const char *metric_unit;
	double metric;
};

/* The counts of one interval (-I), or of the whole run. */
struct mycl_stat_interval {
	uint64_t time;			/* ns from the start to its end */
	uint64_t length;		/* ns it covers */
	size_t nr_rows;
	const struct mycl_stat_row *rows;
};

/*
 * Reads PD (not read before) as a perf stat recording.  0, -ENOMEM, a
 * reader's error (mycl_errmsg()), or MYCL_ERR_NO_SAMPLES when it
 * holds no counter values (not a perf stat record file).
 */
int mycl_stat__build(struct mycl_perf_data *pd, const struct mycl_stat_opts *opts,
		     struct mycl_stat **out);
void mycl_stat__free(struct mycl_stat *st);
struct mycl_perf_data *mycl_stat__perf_data(const struct mycl_stat *st);
/* The whole run: the final counts, over the elapsed time. */
const struct mycl_stat_interval *mycl_stat__total(const struct mycl_stat *st);
/* With -I, each interval's counts (the change since the interval before); else 0. */
size_t mycl_stat__nr_intervals(const struct mycl_stat *st);
const struct mycl_stat_interval *mycl_stat__interval(const struct mycl_stat *st, size_t i);
/* How the counts were aggregated: "global", "cpu" (-A), "thread" (--per-thread). */
const char *mycl_stat__aggregation(const struct mycl_stat *st);

#ifdef __cplusplus
}
#endif

#endif
