/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The call paths of the samples as one prefix tree: a root per report key
 * (event, and comm/pid/tid/cpu as sorted on), then frames from the outermost
 * caller to the sampled function.  Samples add to the self count of the node
 * their path ends at; inclusive counts, per-function children totals and the
 * caller/callee views are derived from the tree when reporting.
 */
#ifndef MYCL_CALLTREE_H
#define MYCL_CALLTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "itable.h"

struct dso;

/* One frame: a function (sym != NULL) or an unresolved address in a binary. */
struct ct_frame {
	struct dso *dso;
	const char *sym;		/* interned or pool-owned: compared by pointer */
	uint64_t addr;			/* symbol start, or the address when unresolved */
	char level;			/* '.' user, 'k' kernel */
	bool inl;			/* an inlined function inside the frame above it */
	bool repaired;			/* put back from the call before a return address */
};

struct ct_node {
	struct ct_frame f;
	uint32_t parent;		/* CT_NONE for roots */
	uint32_t first_child, next_sibling;
	uint32_t key;			/* roots: the caller's key; others: their root's */
	uint64_t self_period, self_samples;
	uint64_t total_period, total_samples;	/* after calltree_finish */
};

#define CT_NONE UINT32_MAX
/*
 * Nodes before unresolved addresses are merged per binary (about 25 MB of
 * nodes and index): the bound of a call tree's memory on huge recordings.
 */
#define CT_NODE_BUDGET (1u << 18)
/*
 * Nodes after which a path that needs a new node ends at its deepest node
 * found, in that node's one CT_CUT_NAME child (calltree_child returns 1):
 * callers keep their inclusive counts exact, the cut part is not shown.
 */
#define CT_NODE_LIMIT (3u << 17)
/* Past this, cut paths end in their root's cut child: the node array never doubles again. */
#define CT_NODE_HARD (1u << 19)
extern const char CT_CUT_NAME[];

struct calltree {
	struct ct_node *nodes;
	size_t nr, cap;
	struct itable index;		/* (parent, frame) -> node */
	uint32_t *roots;		/* root node per key */
	size_t nr_roots, roots_cap;
};

void calltree_init(struct calltree *t);
void calltree_free(struct calltree *t);
/* The root for KEY (a caller-chosen dense index), made on first use. */
int calltree_root(struct calltree *t, uint32_t key, uint32_t *root);
/*
 * The child of PARENT for frame F, made on first use; 0.  Past CT_NODE_LIMIT
 * nodes, when it is not there: 1 and *CHILD the parent's CT_CUT_NAME child.
 */
int calltree_child(struct calltree *t, uint32_t parent, const struct ct_frame *f, uint32_t *child);
/* Adds a sample's period at NODE. */
static inline void calltree_hit(struct calltree *t, uint32_t node, uint64_t period)
{
	t->nodes[node].self_period += period;
	t->nodes[node].self_samples++;
}
/* Computes inclusive totals (children before parents: nodes are made in that order). */
void calltree_finish(struct calltree *t);
bool ct_frame_eq(const struct ct_frame *a, const struct ct_frame *b);
/* The hash of (PARENT, F): a child node's key in an index. */
uint64_t ct_child_hash(uint32_t parent, const struct ct_frame *f);
/*
 * The hash of entry I of NODES (NR of them, STRIDE bytes apart, a ct_frame
 * first and its parent at PARENT_OFF), for itable_grow: roots are not in
 * the index.
 */
struct ct_nodes {
	const void *nodes;
	size_t stride, parent_off;
};
bool ct_node_hash(const void *ctx, size_t i, uint64_t *h);

#endif
