/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef MYCL_REPORT_PRIV_H
#define MYCL_REPORT_PRIV_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/report.h"
#include "report_parts.h"


/*
 * Member M's share of group row R, in percent of that member's samples (of
 * those the filters kept with RELATIVE); 0 where the member has no such row.
 */
static inline double group_share(const struct mycl_profile *p, const struct mycl_group_view *g,
				 const struct mycl_group_row *r, size_t m, bool relative)
{
	const struct mycl_profile_event *me = mycl_profile__event(p, g->members[m]);

	return r->members[m] ? pct(r->members[m]->total_period,
				   relative ? me->total_period : me->total_period_all) : 0;
}

/* The largest of R's member shares: what a --percent-limit is held against. */
static inline double group_top_share(const struct mycl_profile *p, const struct mycl_group_view *g,
				     const struct mycl_group_row *r, bool relative)
{
	double top = 0;

	for (size_t m = 0; m < g->nr_members; m++)
		if (group_share(p, g, r, m, relative) > top)
			top = group_share(p, g, r, m, relative);
	return top;
}

/* R's instructions per cycle, when the group has both and R has cycles; else false. */
static inline bool group_ipc(const struct mycl_group_view *g, const struct mycl_group_row *r,
			     double *ipc)
{
	const struct mycl_hot_row *c, *n;

	if (g->cycles < 0 || g->instructions < 0)
		return false;
	c = r->members[g->cycles];
	n = r->members[g->instructions];
	if (!c || !n || !c->total_period)
		return false;
	*ipc = (double)n->total_period / (double)c->total_period;
	return true;
}

/* The call-graph branch limit of O, in percent (default 0.5). */
#define REPORT_GRAPH_LIMIT(o) \
	(OPTS_GET(o, graph_limit, 0.0) > 0 ? OPTS_GET(o, graph_limit, 0.0) : 0.5)

/* report_heatmap.c: the HTML page's heat map section (profiles with timed stacks); 0 or -EIO. */
int report_heatmap(FILE *f, const struct mycl_profile *p, size_t ev);

#endif
