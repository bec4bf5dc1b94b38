/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef MYCL_REPORT_PRIV_H
#define MYCL_REPORT_PRIV_H

#include <stdio.h>
#include "mycl/report.h"

/* "name" of a graph node: symbol, or dso+0xaddr when unresolved. */
void report_node_name(const struct mycl_cg_node *n, char *buf, size_t len);
/* Prints ROOT's children as a tree, perf-style, percentages of TOTAL. */
void report_tree_text(FILE *f, const struct mycl_cg_node *root, uint64_t total, double limit,
		      int indent);
void report_tree_json(void *json, const char *key, const struct mycl_cg_node *n, uint64_t total,
		      double limit);

#endif
