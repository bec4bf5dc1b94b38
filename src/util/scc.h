/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The strongly connected parts of a directed graph: its cycles. */
#ifndef MYCL_SCC_H
#define MYCL_SCC_H

#include <stddef.h>

/*
 * The graph of N nodes, node i's successors SUCC[FIRST[i] .. FIRST[i + 1]).
 * COMP[i] gets the number of i's strongly connected part (the nodes it
 * reaches that reach it back), one node of that part; two nodes share a
 * cycle when their COMP agree and the part is larger than one, or its one
 * node is its own successor.  Tarjan's walk, with a stack of its own (no
 * recursion however deep the graph).  0 or -ENOMEM.
 */
int scc_parts(size_t n, const size_t *first, const size_t *succ, size_t *comp);

#endif
