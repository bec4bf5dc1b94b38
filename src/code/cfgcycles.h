/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The instructions of one function that lie on a cycle of its control flow: its loops. */
#ifndef MYCL_CFGCYCLES_H
#define MYCL_CFGCYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One instruction of a function, in address order: what the control flow needs. */
struct cfg_node {
	uint64_t addr;
	uint64_t target;		/* a direct branch's target (not a call's), else 0 */
	bool jump, ret, branch;		/* unconditional; return; any branch but a call */
	bool indirect;			/* a jump through a register (a switch) */
};

/* ON_CYCLE[i] (N entries): whether V[i] is on a cycle.  0 or -ENOMEM. */
int cfg_cycles(const struct cfg_node *v, size_t n, bool *on_cycle);

#endif
