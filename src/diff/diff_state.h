/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A comparison of two recordings, as diff.c builds it and report/ writes it. */
#ifndef MYCL_DIFF_STATE_H
#define MYCL_DIFF_STATE_H

#include "mycl/diff.h"

struct mycl_diff {
	struct mycl_diff_row *rows;	/* by |delta|, largest first */
	size_t nr_rows, nr_changed;
	bool by_share, time;		/* time: the event counts nanoseconds (cpu-clock) */
	double noise;
	const char *base_event, *new_event;
	uint64_t base_samples, new_samples, base_period, new_period;
	char *strs;			/* the names, copied: the profiles may go first */
	const char *what;		/* "symbol", "lock site": what a row is */
};

#endif
