/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "calltree.h"
#include "internal.h"

void calltree_init(struct calltree *t)
{
	memset(t, 0, sizeof(*t));
}

void calltree_free(struct calltree *t)
{
	free(t->nodes);
	itable_free(&t->index);
	free(t->roots);
	memset(t, 0, sizeof(*t));
}

bool ct_frame_eq(const struct ct_frame *a, const struct ct_frame *b)
{
	return a->dso == b->dso && a->sym == b->sym && a->addr == b->addr && a->level == b->level;
}

uint64_t ct_child_hash(uint32_t parent, const struct ct_frame *f)
{
	uint64_t x = parent * 0x9E3779B97F4A7C15ULL;

	x ^= (uintptr_t)f->dso * 0xC2B2AE3D27D4EB4FULL;
	x ^= ((uintptr_t)f->sym ^ f->addr) * 0x165667B19E3779F9ULL;
	x ^= (uint8_t)f->level;
	return x ^ (x >> 29);
}

static int new_node(struct calltree *t, uint32_t parent, const struct ct_frame *f, uint32_t key,
		    uint32_t *out)
{
	struct ct_node *n;

	if (t->nr >= CT_NONE - 1)
		return -E2BIG;
	if (ARRAY_GROW(t->nodes, t->cap, t->nr + 1))
		return -ENOMEM;
	n = &t->nodes[t->nr];
	memset(n, 0, sizeof(*n));
	if (f)
		n->f = *f;
	n->parent = parent;
	n->first_child = CT_NONE;
	n->next_sibling = CT_NONE;
	n->key = key;
	if (parent != CT_NONE) {
		n->next_sibling = t->nodes[parent].first_child;
		t->nodes[parent].first_child = (uint32_t)t->nr;
	}
	*out = (uint32_t)t->nr++;
	return 0;
}

int calltree_root(struct calltree *t, uint32_t key, uint32_t *root)
{
	if (key >= t->nr_roots) {
		size_t n = t->nr_roots;

		if (ARRAY_GROW(t->roots, t->roots_cap, (size_t)key + 1))
			return -ENOMEM;
		for (; n <= key; n++)
			t->roots[n] = CT_NONE;
		t->nr_roots = (size_t)key + 1;
	}
	if (t->roots[key] == CT_NONE) {
		int err = new_node(t, CT_NONE, NULL, key, &t->roots[key]);

		if (err)
			return err;
	}
	*root = t->roots[key];
	return 0;
}

bool ct_node_hash(const void *ctx, size_t i, uint64_t *h)
{
	const struct ct_nodes *c = ctx;
	const char *node = (const char *)c->nodes + i * c->stride;
	uint32_t parent;

	memcpy(&parent, node + c->parent_off, sizeof(parent));
	if (parent == CT_NONE)
		return false;
	*h = ct_child_hash(parent, (const struct ct_frame *)node);
	return true;
}

const char CT_CUT_NAME[] = "[call paths cut: memory bound]";

/* PARENT's child for F: true and *CHILD; or false and *SLOT the free slot for it. */
static bool find_child(const struct calltree *t, uint32_t parent, const struct ct_frame *f,
		       size_t *slot, uint32_t *child)
{
	size_t s;

	itable_each(&t->index, ct_child_hash(parent, f), s) {
		const struct ct_node *n = &t->nodes[t->index.slot[s]];

		if (n->parent == parent && ct_frame_eq(&n->f, f)) {
			*child = t->index.slot[s];
			return true;
		}
	}
	*slot = s;
	return false;
}

int calltree_child(struct calltree *t, uint32_t parent, const struct ct_frame *f, uint32_t *child)
{
	struct ct_frame cut;
	size_t h;
	int err, rc = 0;

	if (itable_full(&t->index, t->nr)) {
		struct ct_nodes c = { t->nodes, sizeof(*t->nodes), offsetof(struct ct_node, parent) };

		if ((err = itable_grow(&t->index, t->nr, 4096, ct_node_hash, &c)))
			return err;
	}
	if (find_child(t, parent, f, &h, child))
		return 0;
	if (t->nr >= CT_NODE_LIMIT) {
		cut = (struct ct_frame){ .sym = CT_CUT_NAME, .level = f->level };
		f = &cut;
		rc = 1;
		if (find_child(t, parent, f, &h, child))
			return rc;
		if (t->nr >= CT_NODE_HARD) {
			parent = t->roots[t->nodes[parent].key];
			if (find_child(t, parent, f, &h, child))
				return rc;
		}
	}
	err = new_node(t, parent, f, t->nodes[parent].key, child);
	if (err)
		return err;
	itable_put(&t->index, h, *child);
	return rc;
}

void calltree_finish(struct calltree *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		t->nodes[i].total_period = t->nodes[i].self_period;
		t->nodes[i].total_samples = t->nodes[i].self_samples;
	}
	/* A child is always made after its parent: sum from the newest back. */
	for (size_t i = t->nr; i-- > 0;) {
		uint32_t p = t->nodes[i].parent;

		if (p != CT_NONE) {
			t->nodes[p].total_period += t->nodes[i].total_period;
			t->nodes[p].total_samples += t->nodes[i].total_samples;
		}
	}
}
