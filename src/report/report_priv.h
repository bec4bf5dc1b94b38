/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef MYCL_REPORT_PRIV_H
#define MYCL_REPORT_PRIV_H

#include <stdint.h>
#include <stdio.h>
#include "mycl/report.h"

/* PART as a percentage of TOTAL; 0 when TOTAL is 0. */
static inline double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* The call-graph branch limit of O, in percent (default 0.5). */
#define REPORT_GRAPH_LIMIT(o) \
	(OPTS_GET(o, graph_limit, 0.0) > 0 ? OPTS_GET(o, graph_limit, 0.0) : 0.5)

/* "name" of a graph node: symbol, or dso+0xaddr when unresolved. */
void report_node_name(const struct mycl_cg_node *n, char *buf, size_t len);
/* Prints ROOT's children as a tree, perf-style, percentages of TOTAL. */
void report_tree_text(FILE *f, const struct mycl_cg_node *root, uint64_t total, double limit,
		      int indent);
void report_tree_json(void *json, const char *key, const struct mycl_cg_node *n, uint64_t total,
		      double limit);

#endif
