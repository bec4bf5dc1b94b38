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
	bool dies;			/* a call that never returns and ends the process */
	bool call, atomic, spin;	/* a call; a CAS or store-conditional; pause/yield: callers' use */
	bool takes;			/* an atomic exchange (a test-and-set's): a lock's */
	uint8_t on_zero;		/* insn.on_zero: a branch on a zero test, which way */
	/*
	 * A call that waits a time whatever happens (sleep): the control flow
	 * does not go round through it, as a loop paced by a sleep repeats at
	 * the sleep's pace, not the work's.
	 */
	bool sleeps;
	bool cond_ret;			/* returns when its condition holds, else falls through */
	bool store;			/* writes memory it names (a global, through an argument) */
};

/* The index of the node at ADDR in V (N nodes, by address), or SIZE_MAX. */
size_t cfg_node_at(const struct cfg_node *v, size_t n, uint64_t addr);

/* A further successor of node FROM: a jump table's target (sorted by FROM). */
struct cfg_xedge {
	uint32_t from;
	uint64_t to;
};

/*
 * ON_CYCLE[i] (N entries): whether V[i] is on a cycle, with the NX further
 * edges X (an indirect jump with its table read goes only there; one without
 * may go to any block nothing else reaches).  CYCLE, when not NULL, gets
 * which: nodes of one loop (however its blocks lie in the code) share a
 * number, UINT32_MAX off any.  0 or -ENOMEM.
 */
int cfg_cycles(const struct cfg_node *v, size_t n, const struct cfg_xedge *x, size_t nx,
	       bool *on_cycle, uint32_t *cycle);

#endif
