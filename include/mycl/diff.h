/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mycl-diff: two recordings compared per symbol (matched by name, so two
 * builds of one program compare), each difference weighed against the noise
 * of sampling.
 */
#ifndef MYCL_DIFF_H
#define MYCL_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_profile;

struct mycl_diff_opts {
	size_t sz;			/* sizeof(struct mycl_diff_opts) */
	/*
	 * false: the amount of the event per symbol (time for cpu-clock), for
	 * runs that did the same work; true: each symbol's share of its run,
	 * for runs of the same length doing as much as they could.
	 */
	bool by_share;
	double noise;			/* |z| at or above this is a change; 0: 4 */
};

struct mycl_diff_row {
	const char *dso;		/* short name */
	const char *sym;		/* NULL: samples without a symbol, at addr */
	uint64_t addr;			/* sym NULL: the address in the binary (0: the binary's
					 * samples without a symbol merged) */
	uint64_t base_samples, new_samples;
	uint64_t base_period, new_period;	/* the event's amount (ns for cpu-clock) */
	double base_share, new_share;	/* % of each run's total */
	double delta;			/* new - base: period, or share points with by_share */
	double z;			/* delta over its standard error from sampling */
	bool changed;			/* |z| >= noise */
};

struct mycl_diff;

/*
 * Compares event BASE_EV of BASE with event NEW_EV of NEW (both built with
 * the sort keys dso, sym).  0, -ENOMEM, or -EINVAL when a profile is not
 * sorted by dso and symbol.
 */
int mycl_diff__build(const struct mycl_profile *base, size_t base_ev,
		     const struct mycl_profile *new_p, size_t new_ev,
		     const struct mycl_diff_opts *opts, struct mycl_diff **out);
/*
 * The same per lock site (the function that takes a lock, matched by name
 * and binary): the lock time credited to each site in both recordings.  Both
 * profiles built with locks.  0, -ENOMEM, -EINVAL (no such event, no lock
 * analysis).
 */
int mycl_diff__build_locks(const struct mycl_profile *base, size_t base_ev,
			   const struct mycl_profile *new_p, size_t new_ev,
			   const struct mycl_diff_opts *opts, struct mycl_diff **out);
/*
 * The same per struct member (data types, mycl_profile__data_types by
 * member): the samples on the instructions that touch each member, in both
 * recordings, matched by type and member; the rest by the reason it is not
 * named.  Both profiles built with annotate.  0, -ENOMEM, -EINVAL.
 */
int mycl_diff__build_types(const struct mycl_profile *base, size_t base_ev,
			   const struct mycl_profile *new_p, size_t new_ev,
			   const struct mycl_diff_opts *opts, struct mycl_diff **out);
struct mycl_share;
/*
 * The same per cache line of a binary's globals, from two mycl-share
 * analyses weighted by two recordings (mycl_share_opts.perf_data): the
 * sampled instructions touching each line's variables.  A line is named by
 * its variables ("line of a, b"), so two builds with one layout match and a
 * changed layout shows the old line gone and the new ones.  BINARY names the
 * rows' binary.  0 or -ENOMEM.
 */
int mycl_diff__build_share(const struct mycl_share *base, const struct mycl_share *new_s,
			   const char *binary, const struct mycl_diff_opts *opts,
			   struct mycl_diff **out);
struct mycl_stat;
/*
 * Two perf stat recordings compared event by event (and CPU by CPU or
 * thread by thread when both kept them apart): each side's count of the
 * whole run and its derived figure.  Noise is known when both were recorded
 * with -I and have two intervals or more: each interval's count per second
 * is a measurement, and the change of the mean rates is weighed against
 * their standard errors.
 */
struct mycl_stat_diff_row {
	const char *event;
	int32_t cpu, pid;		/* -1: summed */
	const char *comm;
	const char *unit;		/* "msec" or NULL */
	bool base_counted, new_counted;
	const char *base_state, *new_state;	/* NULL, or "absent", "<not supported>",
						 * "<not counted>" */
	double base, new_count;		/* the whole run's counts (as perf prints them) */
	double change;			/* (new - base) / base in percent; 0 when base is 0 */
	const char *metric_unit;	/* the derived figure, when either side has one */
	double base_metric, new_metric;
	bool noise_known;		/* both sides have 2+ intervals */
	double base_rate, new_rate;	/* with noise: mean count per second over the intervals */
	double z;			/* the rates' difference over its standard error */
	bool changed;			/* |z| >= noise (with noise known) */
};
struct mycl_stat_diff;
int mycl_diff__build_stat(const struct mycl_stat *base, const struct mycl_stat *new_s,
			  const struct mycl_diff_opts *opts, struct mycl_stat_diff **out);
void mycl_diff__stat_free(struct mycl_stat_diff *d);
const struct mycl_stat_diff_row *mycl_diff__stat_rows(const struct mycl_stat_diff *d, size_t *n);

void mycl_diff__free(struct mycl_diff *d);
/* Rows by |delta|, largest first. */
const struct mycl_diff_row *mycl_diff__rows(const struct mycl_diff *d, size_t *n);
size_t mycl_diff__nr_changed(const struct mycl_diff *d);

struct mycl_diff_write_opts {
	size_t sz;
	const char *base_name, *new_name;	/* the recordings' names for the header */
	size_t max_rows;		/* text, markdown: rows shown; 0: 25 */
	bool wide;			/* text: full names, lines of any length; else 100 columns */
};

int mycl_diff__write_text(FILE *f, const struct mycl_diff *d, const struct mycl_diff_write_opts *o);
int mycl_diff__write_markdown(FILE *f, const struct mycl_diff *d,
			      const struct mycl_diff_write_opts *o);
int mycl_diff__write_json(FILE *f, const struct mycl_diff *d, const struct mycl_diff_write_opts *o);
/* The stat comparison: text (within 100 columns), markdown, JSON "mycl-stat-diff/1". */
int mycl_diff__write_stat_text(FILE *f, const struct mycl_stat_diff *d,
			       const struct mycl_diff_write_opts *o);
int mycl_diff__write_stat_markdown(FILE *f, const struct mycl_stat_diff *d,
				   const struct mycl_diff_write_opts *o);
int mycl_diff__write_stat_json(FILE *f, const struct mycl_stat_diff *d,
			       const struct mycl_diff_write_opts *o);

#ifdef __cplusplus
}
#endif

#endif
