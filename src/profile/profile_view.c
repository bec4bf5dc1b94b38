/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Views of the call tree: a row's callers, a function's callers or callees, paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_state.h"

int vtree_child(struct vtree *t, uint32_t parent, const struct ct_frame *f, uint32_t *out)
{
	size_t h;

	if (itable_full(&t->index, t->nr)) {
		struct ct_nodes c = { t->v, sizeof(*t->v), offsetof(struct vnode, parent) };

		if (itable_grow(&t->index, t->nr, 64, ct_node_hash, &c))
			return -ENOMEM;
	}
	itable_each(&t->index, ct_child_hash(parent, f), h) {
		const struct vnode *c = &t->v[t->index.slot[h]];

		if (c->parent == parent && ct_frame_eq(&c->f, f)) {
			*out = t->index.slot[h];
			return 0;
		}
	}
	if (ARRAY_GROW(t->v, t->cap, t->nr + 1))
		return -ENOMEM;
	t->v[t->nr] = (struct vnode){ .f = *f, .parent = parent, .first_child = CT_NONE,
				      .next_sibling = t->v[parent].first_child };
	t->v[parent].first_child = (uint32_t)t->nr;
	t->v[parent].nr_children++;
	itable_put(&t->index, h, t->nr);
	*out = (uint32_t)t->nr++;
	return 0;
}

int vtree_root(struct vtree *t, const struct ct_frame *f)
{
	t->index = (struct itable){ 0 };
	t->v = calloc(16, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	t->cap = 16;
	t->nr = 1;
	t->v[0] = (struct vnode){ .f = *f, .parent = CT_NONE, .first_child = CT_NONE,
				  .next_sibling = CT_NONE };
	return 0;
}

static void fill_public(const struct vnode *v, struct mycl_cg_node *out)
{
	out->sym = v->f.sym;
	out->dso = v->f.dso ? v->f.dso->short_name : "[unknown]";
	out->addr = v->f.addr;
	out->level = v->f.level;
	out->period = v->period;
	out->samples = v->samples;
	out->inlined = v->f.inl;
}

static int cg_cmp(const void *a, const void *b)
{
	const struct mycl_cg_node *x = a, *y = b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "");
}

static int convert(const struct vtree *t, uint32_t i, struct mycl_cg_node *out)
{
	size_t k = 0;

	fill_public(&t->v[i], out);
	out->nr_children = t->v[i].nr_children;
	out->children = NULL;
	if (!out->nr_children)
		return 0;
	out->children = calloc(out->nr_children, sizeof(*out->children));
	if (!out->children)
		return -ENOMEM;
	for (uint32_t c = t->v[i].first_child; c != CT_NONE; c = t->v[c].next_sibling) {
		int err = convert(t, c, &out->children[k++]);

		if (err)
			return err;
	}
	sort_array(out->children, out->nr_children, sizeof(*out->children), cg_cmp);
	return 0;
}

void vtree_free(struct vtree *t)
{
	free(t->v);
	itable_free(&t->index);
	t->v = NULL;
}

int vtree_finish(struct vtree *t, struct mycl_cg_node **out)
{
	struct mycl_cg_node *root = calloc(1, sizeof(*root));
	int err = root ? convert(t, 0, root) : -ENOMEM;

	vtree_free(t);
	if (err) {
		mycl_cg_node__free(root);
		return err;
	}
	*out = root;
	return 0;
}

static void free_children(struct mycl_cg_node *n)
{
	for (size_t i = 0; i < n->nr_children; i++)
		free_children(&n->children[i]);
	free(n->children);
}

MYCL_API void mycl_cg_node__free(struct mycl_cg_node *n)
{
	if (!n)
		return;
	free_children(n);
	free(n);
}

/* Adds the callers of tree node N (its ancestors) under view node 0 with weight W. */
int vtree_add_callers(const struct mycl_profile *p, struct vtree *t, uint32_t n, uint64_t w,
		       uint64_t samples)
{
	uint32_t v = 0;

	t->v[0].period += w;
	t->v[0].samples += samples;
	for (uint32_t a = p->tree.nodes[n].parent; p->tree.nodes[a].parent != CT_NONE;
	     a = p->tree.nodes[a].parent) {
		int err = vtree_child(t, v, &p->tree.nodes[a].f, &v);

		if (err)
			return err;
		t->v[v].period += w;
		t->v[v].samples += samples;
	}
	return 0;
}

/* Adds the path from the outermost caller down to N's caller under view node 0. */
static int add_path_down(const struct mycl_profile *p, struct vtree *t, uint32_t n, uint64_t w,
			 uint64_t samples)
{
	uint32_t stack[512], depth = 0, v = 0;

	t->v[0].period += w;
	t->v[0].samples += samples;
	for (uint32_t a = p->tree.nodes[n].parent; p->tree.nodes[a].parent != CT_NONE && depth < 512;
	     a = p->tree.nodes[a].parent)
		stack[depth++] = a;
	while (depth--) {
		int err = vtree_child(t, v, &p->tree.nodes[stack[depth]].f, &v);

		if (err)
			return err;
		t->v[v].period += w;
		t->v[v].samples += samples;
	}
	return 0;
}

/* Merges tree node N's callees under view node V. */
static int add_callees(const struct mycl_profile *p, struct vtree *t, uint32_t n, uint32_t v)
{
	for (uint32_t c = p->tree.nodes[n].first_child; c != CT_NONE; c = p->tree.nodes[c].next_sibling) {
		const struct ct_node *cn = &p->tree.nodes[c];
		uint32_t vc;
		int err = vtree_child(t, v, &cn->f, &vc);

		if (err)
			return err;
		t->v[vc].period += cn->total_period;
		t->v[vc].samples += cn->total_samples;
		err = add_callees(p, t, c, vc);
		if (err)
			return err;
	}
	return 0;
}

MYCL_API int mycl_profile__row_graph(const struct mycl_profile *p, size_t ev,
				     const struct mycl_hot_row *row, struct mycl_cg_node **out)
{
	return mycl_profile__row_graph_order(p, ev, row, false, out);
}

/*
 * The row (entry of H) that call-tree node I adds to, and the node its time
 * is drawn at; UINT32_MAX when none.  Self time of an inlined frame belongs to
 * the real function around it; with children every node counts for its own
 * row (the outermost of recursive calls is chosen when the graph is made).
 */
static uint32_t row_of_node(const struct mycl_profile *p, const struct hist *h, uint32_t i,
			    uint32_t *at)
{
	const struct ct_node *n = &p->tree.nodes[i];
	const struct hent *rk, *e;
	struct hent k;

	*at = i;
	if (n->parent == CT_NONE || (!p->children && !n->self_samples))
		return UINT32_MAX;
	if (!p->children)
		while (p->tree.nodes[*at].f.inl &&
		       p->tree.nodes[p->tree.nodes[*at].parent].parent != CT_NONE)
			*at = p->tree.nodes[*at].parent;
	rk = &p->roots.ents[n->key];
	profile_frame_key(p, rk, &p->tree.nodes[*at].f, &k);
	e = hist_find(h, &k);
	return e ? (uint32_t)(e - h->ents) : UINT32_MAX;
}

/* The nodes of every row, one pass over the tree (a counting sort by row). */
static int build_row_index(struct mycl_profile *p)
{
	const struct hist *h = p->children ? &p->incl : &p->self;
	size_t n = p->tree.nr ? p->tree.nr : 1, total = 0;
	uint32_t *first = calloc(h->nr + 2, sizeof(*first));
	uint32_t *rows = malloc(n * sizeof(*rows)), *at_of = malloc(n * sizeof(*at_of));
	uint32_t *nodes = NULL, *ats = NULL;

	if (!first || !rows || !at_of)
		goto fail;
	for (size_t i = 0; i < p->tree.nr; i++) {
		rows[i] = row_of_node(p, h, (uint32_t)i, &at_of[i]);
		if (rows[i] != UINT32_MAX) {
			first[rows[i] + 2]++;
			total++;
		}
	}
	for (size_t r = 0; r < h->nr; r++)
		first[r + 2] += first[r + 1];
	nodes = malloc((total ? total : 1) * sizeof(*nodes));
	ats = malloc((total ? total : 1) * sizeof(*ats));
	if (!nodes || !ats)
		goto fail;
	for (size_t i = 0; i < p->tree.nr; i++) {
		uint32_t slot;

		if (rows[i] == UINT32_MAX)
			continue;
		slot = first[rows[i] + 1]++;
		nodes[slot] = (uint32_t)i;
		ats[slot] = at_of[i];
	}
	free(rows);
	free(at_of);
	p->row_first = first;
	p->row_nodes = nodes;
	p->row_at = ats;
	return 0;
fail:
	free(first);
	free(rows);
	free(at_of);
	free(nodes);
	free(ats);
	p->row_index_failed = true;
	return -ENOMEM;
}

/*
 * A row's call-tree nodes grouped by their caller (parent) node: every node under one caller
 * has the same path of callers, so the path is walked once with the group's sum.
 */
struct by_caller {
	struct caller_sum {
		uint32_t parent, node;		/* NODE: the first node met under PARENT */
		uint64_t period, samples;
	} *e;
	size_t nr;
	struct itable index;		/* finds E by parent */
};

/* Room for NODES groups, the table sized once for all of them. */
static int by_caller_init(struct by_caller *g, size_t nodes)
{
	g->e = malloc((nodes ? nodes : 1) * sizeof(*g->e));
	if (itable_reserve(&g->index, nodes, 16) || !g->e)
		return -ENOMEM;
	return 0;
}

static void by_caller_add(struct by_caller *g, const struct mycl_profile *p, uint32_t node,
			  uint64_t period, uint64_t samples)
{
	uint32_t parent = p->tree.nodes[node].parent;
	size_t h;

	itable_each(&g->index, parent * 0x9E3779B97F4A7C15ULL >> 32, h)
		if (g->e[g->index.slot[h]].parent == parent)
			break;
	if (g->index.slot[h] == ITABLE_EMPTY) {
		itable_put(&g->index, h, g->nr);
		g->e[g->nr++] = (struct caller_sum){ parent, node, 0, 0 };
	}
	g->e[g->index.slot[h]].period += period;
	g->e[g->index.slot[h]].samples += samples;
}

static void by_caller_free(struct by_caller *g)
{
	free(g->e);
	itable_free(&g->index);
}

MYCL_API int mycl_profile__row_graph_order(const struct mycl_profile *p, size_t ev,
					   const struct mycl_hot_row *row, bool caller_order,
					   struct mycl_cg_node **out)
{
	int (*add)(const struct mycl_profile *, struct vtree *, uint32_t, uint64_t, uint64_t) =
		caller_order ? add_path_down : vtree_add_callers;
	const struct hist *h = p->children ? &p->incl : &p->self;
	const struct hent *key;
	struct ct_frame top;
	struct by_caller g = { 0 };
	struct vtree t;
	int err;

	*out = NULL;
	if (!p->want_tree)
		return -EINVAL;
	if (row->id >= h->nr)
		return -EINVAL;
	/* The index is a cache of the finished profile: built once, at the first graph. */
	if (!p->row_first && (p->row_index_failed || build_row_index((struct mycl_profile *)p)))
		return -ENOMEM;
	key = &h->ents[row->id];
	top = (struct ct_frame){ .dso = key->dso, .sym = key->sym, .addr = key->addr,
				 .level = key->level };
	err = vtree_root(&t, &top);
	if (!err)
		err = by_caller_init(&g, p->row_first[row->id + 1] - p->row_first[row->id]);
	for (uint32_t s = p->row_first[row->id]; s < p->row_first[row->id + 1] && !err; s++) {
		uint32_t i = p->row_nodes[s], at = p->row_at[s];
		const struct ct_node *n = &p->tree.nodes[i];
		const struct hent *rk = &p->roots.ents[n->key];
		bool outer = true;

		if ((size_t)rk->ev != ev)
			continue;
		if (!p->children) {
			by_caller_add(&g, p, at, n->self_period, n->self_samples);
			continue;
		}
		/* Only the outermost of recursive calls: no double counting. */
		for (uint32_t a = n->parent; outer && p->tree.nodes[a].parent != CT_NONE;
		     a = p->tree.nodes[a].parent) {
			struct hent ka;

			profile_frame_key(p, rk, &p->tree.nodes[a].f, &ka);
			outer = !hent_key_eq(&ka, key);
		}
		if (outer)
			by_caller_add(&g, p, i, n->total_period, n->total_samples);
	}
	/* Each caller path once, in the order first met (the view's nodes are made as before). */
	for (size_t k = 0; k < g.nr && !err; k++)
		err = add(p, &t, g.e[k].node, g.e[k].period, g.e[k].samples);
	by_caller_free(&g);
	if (err) {
		vtree_free(&t);
		return err;
	}
	return vtree_finish(&t, out);
}

static bool sym_is(const struct ct_frame *f, const char *sym)
{
	return f->sym && !strcmp(f->sym, sym);
}

MYCL_API int mycl_profile__symbol_graph(const struct mycl_profile *p, size_t ev, const char *sym,
					bool callees, struct mycl_cg_node **out)
{
	struct ct_frame top = { 0 };
	const struct dso *one = NULL;	/* the binary of every match, NULL if several */
	struct vtree t;
	bool found = false, several = false;
	int err;

	*out = NULL;
	if (!p->want_tree)
		return -EINVAL;
	for (size_t i = 0; i < p->tree.nr && !found; i++)
		if (p->tree.nodes[i].parent != CT_NONE && sym_is(&p->tree.nodes[i].f, sym)) {
			top = p->tree.nodes[i].f;
			found = true;
		}
	if (!found)
		return -ENOENT;
	top.dso = NULL;		/* one tree for the name, whatever binary it is in */
	err = vtree_root(&t, &top);
	for (size_t i = 0; i < p->tree.nr && !err; i++) {
		const struct ct_node *n = &p->tree.nodes[i];
		bool outer = true;

		if (n->parent == CT_NONE || !sym_is(&n->f, sym) ||
		    (size_t)p->roots.ents[n->key].ev != ev)
			continue;
		for (uint32_t a = n->parent; outer && p->tree.nodes[a].parent != CT_NONE;
		     a = p->tree.nodes[a].parent)
			outer = !sym_is(&p->tree.nodes[a].f, sym);
		if (!outer)
			continue;
		several |= one && one != n->f.dso;
		one = n->f.dso;
		if (callees) {
			t.v[0].period += n->total_period;
			t.v[0].samples += n->total_samples;
			err = add_callees(p, &t, (uint32_t)i, 0);
		} else {
			err = vtree_add_callers(p, &t, (uint32_t)i, n->total_period, n->total_samples);
		}
	}
	if (err) {
		vtree_free(&t);
		return err;
	}
	if (!t.v[0].samples) {
		vtree_free(&t);
		return -ENOENT;
	}
	err = vtree_finish(&t, out);
	if (!err)
		(*out)->dso = !several && one ? one->short_name : NULL;
	return err;
}

MYCL_API int mycl_profile__for_each_stack(const struct mycl_profile *p, size_t ev,
					  mycl_stack_fn fn, void *ctx)
{
	struct mycl_cg_node *frames = NULL;
	size_t cap = 0;
	int err = 0;

	if (!p->want_tree)
		return -EINVAL;
	for (size_t i = 0; i < p->tree.nr && !err; i++) {
		const struct ct_node *n = &p->tree.nodes[i];
		const struct hent *rk;
		struct mycl_stack st;
		size_t depth = 0, k;

		if (n->parent == CT_NONE || !n->self_samples)
			continue;
		rk = &p->roots.ents[n->key];
		if ((size_t)rk->ev != ev)
			continue;
		for (uint32_t a = (uint32_t)i; p->tree.nodes[a].parent != CT_NONE;
		     a = p->tree.nodes[a].parent)
			depth++;
		if (depth > cap) {
			struct mycl_cg_node *nf = realloc(frames, depth * sizeof(*nf));

			if (!nf) {
				err = -ENOMEM;
				break;
			}
			frames = nf;
			cap = depth;
		}
		k = depth;
		for (uint32_t a = (uint32_t)i; p->tree.nodes[a].parent != CT_NONE;
		     a = p->tree.nodes[a].parent) {
			struct vnode v = { .f = p->tree.nodes[a].f };

			memset(&frames[--k], 0, sizeof(frames[k]));
			fill_public(&v, &frames[k]);
		}
		st = (struct mycl_stack){
			.comm = rk->comm, .frames = frames, .nr_frames = depth,
			.pid = p->use[MYCL_SORT_PID] || p->use[MYCL_SORT_TID] ? rk->pid : -1,
			.tid = p->use[MYCL_SORT_TID] ? rk->tid : -1,
			.samples = n->self_samples, .period = n->self_period, .id = (uint32_t)i,
		};
		err = fn(&st, ctx);
	}
	free(frames);
	return err;
}

struct path_adapter {
	mycl_path_fn fn;
	void *ctx;
};

static int path_of_stack(const struct mycl_stack *s, void *ctx)
{
	const struct path_adapter *a = ctx;

	return a->fn(s->comm, s->frames, s->nr_frames, s->samples, s->period, a->ctx);
}

MYCL_API int mycl_profile__for_each_path(const struct mycl_profile *p, size_t ev, mycl_path_fn fn,
					 void *ctx)
{
	struct path_adapter a = { fn, ctx };

	return mycl_profile__for_each_stack(p, ev, path_of_stack, &a);
}

MYCL_API bool mycl_profile__has_callgraph(const struct mycl_profile *p)
{
	return p->want_tree;
}

MYCL_API bool mycl_profile__children(const struct mycl_profile *p)
{
	return p->children;
}
