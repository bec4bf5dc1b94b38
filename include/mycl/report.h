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
	bool graph;			/* under each row, the tree of its callers */
	double graph_limit;		/* hide branches under this percent; 0.5 when unset */
	bool caller_order;		/* graphs from the outermost caller down (perf -g caller) */
	/*
	 * Events read as a group by leader sampling are shown side by side (one
	 * table per group, perf report's default) unless NO_GROUP: then each
	 * event has its own table, as perf report --no-group.
	 */
	bool no_group;
};

/* True when the text or JSON report shows event EV inside its group's table. */
bool mycl_report__in_group_view(const struct mycl_profile *p, size_t ev,
				const struct mycl_report_opts *opts);

/* Writes the text report to OUT.  0, or -EIO when writing failed. */
int mycl_report__text(FILE *out, const struct mycl_profile *p, const struct mycl_report_opts *opts);

/*
 * Writes the JSON report to OUT (schema "mycl-hot/1": header, events with
 * rows, symbolization; documented in mycl-hot(1)).  0 or -EIO.
 */
int mycl_report__json(FILE *out, const struct mycl_profile *p, const struct mycl_report_opts *opts);

/*
 * Writes ROOT (from mycl_profile__symbol_graph) as a text tree, percentages
 * of all of event EV's samples.  0 or a negative code.
 */
int mycl_report__graph_text(FILE *out, const struct mycl_profile *p, size_t ev,
			    const struct mycl_cg_node *root, bool callees,
			    const struct mycl_report_opts *opts);

/* The same as JSON, schema "mycl-hot-graph/1". */
int mycl_report__graph_json(FILE *out, const struct mycl_profile *p, size_t ev,
			    const struct mycl_cg_node *root, bool callees,
			    const struct mycl_report_opts *opts);

/*
 * Folded stacks of event EV: "comm;outer;...;inner COUNT" per distinct path,
 * COUNT in samples (or in period with BY_PERIOD).  Needs a profile built with
 * callgraph.  0 or a negative code.
 */
int mycl_report__folded(FILE *out, const struct mycl_profile *p, size_t ev, bool by_period);

#ifdef __cplusplus
}
#endif
#endif
