/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writers: the flat profile as text for tickets, or as JSON for programs. */
#ifndef MYCL_REPORT_H
#define MYCL_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "mycl/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_report_opts {
	size_t sz;			/* sizeof(struct mycl_report_opts) */
	double percent_limit;		/* hide rows below this overhead (percent) */
	bool no_header;			/* omit the recording's header block */
	bool no_summary;		/* omit the symbolization summary */
	size_t max_rows;		/* 0: all rows */
	/*
	 * Overheads relative to the samples the filters kept (sum 100%), instead
	 * of to all samples of the event as perf report does by default.
	 */
	bool relative;
};

/* Writes the text report to OUT.  0, or -EIO when writing failed. */
int mycl_report__text(FILE *out, const struct mycl_profile *p, const struct mycl_report_opts *opts);

/*
 * Writes the JSON report to OUT (schema "mycl-hot/1": header, events with
 * rows, symbolization; documented in mycl-hot(1)).  0 or -EIO.
 */
int mycl_report__json(FILE *out, const struct mycl_profile *p, const struct mycl_report_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
