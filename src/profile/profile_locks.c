/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lock and spin samples, credited to their lock sites. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/locks.h"
#include "lockrules.h"
#include "profile_state.h"
#include "offcpu.h"
#include "spinloops.h"

#define INLINE_SPIN "(inlined spin loop)"

struct lock_state {
	struct lock_rules rules;
	/* Per primitive: key (ev, sym = name, tid = rule or -1), by period. */
	struct hist prims;
	/* Per lock-site node: key (ev, addr = call-tree node, sym = innermost primitive). */
	struct hist sites;
};

int profile_locks_init(struct mycl_profile *p, const char *file, char *err, size_t len)
{
	struct lock_state *ls = calloc(1, sizeof(*ls));
	int bad = 0, rc;

	if (!ls)
		return -ENOMEM;
	p->locks = ls;
	rc = lock_rules_parse(&ls->rules, mycl_default_lock_rules, &bad);
	if (rc)
		return rc;
	if (file) {
		char *text = read_text_file(file);

		if (!text) {
			snprintf(err, len, "%s: cannot read lock rules: %s", file, strerror(errno));
			return -errno;
		}
		rc = lock_rules_parse(&ls->rules, text, &bad);
		free(text);
		if (rc == -EINVAL) {
			snprintf(err, len, "%s:%d: not a lock rule (LAYER KIND PATTERN lines)", file, bad);
			rc = MYCL_ERR_BAD_RULES;
		}
	}
	return rc;
}

void profile_locks_free(struct mycl_profile *p)
{
	if (!p->locks)
		return;
	offcpu_free(p);
	lock_rules_free(&p->locks->rules);
	hist_free(&p->locks->prims);
	hist_free(&p->locks->sites);
	free(p->locks);
	p->locks = NULL;
}

/* Scheduler and syscall entry rules: on a lock's path, but not a lock. */
static bool plumbing(const struct lock_rules *r, int rule)
{
	return !strcmp(r->v[rule].kind, "sched") || !strcmp(r->v[rule].kind, "entry");
}

static int count_prim(struct mycl_profile *p, const struct mycl_sample *s, const char *name,
		      int rule)
{
	struct hent k = { .ev = s->event->idx, .sym = name, .tid = rule };

	return hist_add(&p->locks->prims, &k, s->period, 1, NULL);
}

/*
 * A sample is a lock sample when its function is a primitive (by rule), or
 * when it sits in a spin loop of its function's own code.  Its lock site is
 * the first caller above the primitives that is not one.
 */
int profile_locks_sample(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf)
{
	if (s->event->type == 2 /* PERF_TYPE_TRACEPOINT */)
		return offcpu_sample(p, s, leaf, &p->locks->rules);
	struct lock_state *ls = p->locks;
	const struct calltree *t = &p->tree;
	const char *seen[16], *innermost = NULL;
	size_t nseen = 0;
	uint32_t a = leaf;
	struct hent k = { .ev = s->event->idx };
	int rule, err;

	rule = lock_rules_match(&ls->rules, t->nodes[a].f.sym);
	if (rule < 0) {
		/*
		 * Code called by a function that runs under a global lock (kind
		 * "serial", __tz_convert) is under that lock too.
		 */
		uint32_t b = a;

		for (int depth = 0; depth < 16 && t->nodes[b].parent != CT_NONE; depth++) {
			int rb = lock_rules_match(&ls->rules, t->nodes[b].f.sym);

			if (rb >= 0 && !strcmp(ls->rules.v[rb].kind, "serial")) {
				a = b;
				rule = rb;
				break;
			}
			b = t->nodes[b].parent;
		}
	}
	if (rule < 0) {
		struct resolved r;
		struct spin_info si;

		err = machine_resolve(p->m, s->pid, s->tid, s->ip, s->cpumode, &r);
		if (err || !r.sym || !r.dso || r.dso->kernel || r.dso->identity)
			return err;
		spin_loop_at(r.dso, r.sym, dso_offset_to_vaddr(r.dso, r.addr), &si);
		if (!si.in_loop)
			return 0;
		/* The spin loop is the site's own code (after any inlined frames). */
		while (t->nodes[a].f.inl && t->nodes[t->nodes[a].parent].parent != CT_NONE)
			a = t->nodes[a].parent;
		err = count_prim(p, s, INLINE_SPIN, -1);
		k.addr = a;
		k.sym = INLINE_SPIN;
		return err ? err : hist_add(&ls->sites, &k, s->period, 1, NULL);
	}
	/* A path of only scheduler or syscall plumbing is no lock time. */
	{
		bool real = false;

		for (uint32_t b = a; t->nodes[b].parent != CT_NONE; b = t->nodes[b].parent) {
			int rb = lock_rules_match(&ls->rules, t->nodes[b].f.sym);

			if (rb < 0)
				break;
			real |= !plumbing(&ls->rules, rb);
		}
		if (!real)
			return 0;
	}
	while (t->nodes[a].parent != CT_NONE &&
	       (rule = lock_rules_match(&ls->rules, t->nodes[a].f.sym)) >= 0) {
		const char *name = t->nodes[a].f.sym;
		bool dup = false;

		if (plumbing(&ls->rules, rule)) {
			a = t->nodes[a].parent;
			continue;
		}

		for (size_t i = 0; i < nseen; i++)
			dup |= seen[i] == name;
		if (!dup && nseen < 16) {
			seen[nseen++] = name;
			err = count_prim(p, s, name, rule);
			if (err)
				return err;
		}
		if (!innermost)
			innermost = name;
		a = t->nodes[a].parent;
	}
	if (t->nodes[a].parent == CT_NONE)
		a = leaf;	/* primitives all the way up: the stack was cut short */
	/* Code inlined into a function is that function's: the site is the function. */
	while (t->nodes[a].f.inl && t->nodes[t->nodes[a].parent].parent != CT_NONE)
		a = t->nodes[a].parent;
	k.addr = a;
	k.sym = innermost;
	return hist_add(&ls->sites, &k, s->period, 1, NULL);
}

/* ---- the report ---- */

struct site_acc {
	struct ct_frame f;
	uint64_t period, samples;
	struct vtree callers;
	const char *via[MYCL_LOCK_MAX_VIA];
	uint64_t via_period[MYCL_LOCK_MAX_VIA];
	size_t nvia;
	bool inl;
};

static int prim_cmp(const void *a, const void *b)
{
	const struct mycl_lock_primitive *x = a, *y = b;

	return x->period != y->period ? (x->period > y->period ? -1 : 1) : strcmp(x->name, y->name);
}

static int site_cmp(const void *a, const void *b)
{
	const struct mycl_lock_site *x = a, *y = b;

	return x->period != y->period ? (x->period > y->period ? -1 : 1) :
	       strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "");
}

/* The site's primitives into ST, largest period first. */
static void site_vias(const struct site_acc *sa, struct mycl_lock_site *st)
{
	st->nr_via = 0;
	for (size_t i = 0; i < sa->nvia && i < MYCL_LOCK_MAX_VIA; i++) {
		size_t k = st->nr_via++;

		while (k && st->vias[k - 1].period < sa->via_period[i]) {
			st->vias[k] = st->vias[k - 1];
			k--;
		}
		st->vias[k].name = sa->via[i];
		st->vias[k].period = sa->via_period[i];
	}
}

MYCL_API int mycl_profile__locks(const struct mycl_profile *p, size_t ev, struct mycl_lock_report **out)
{
	const struct lock_state *ls = p->locks;
	struct mycl_lock_report *r;
	struct site_acc *acc = NULL;
	size_t nacc = 0, cap = 0;
	int err = 0;

	*out = NULL;
	if (!ls || ev >= p->nr_events)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->event = p->events[ev].event;
	r->total_period = p->events[ev].total_period_all;
	r->total_samples = p->events[ev].nr_samples_all;
	r->primitives = calloc(ls->prims.nr ? ls->prims.nr : 1, sizeof(*r->primitives));
	if (!r->primitives) {
		free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ls->prims.nr; i++) {
		const struct hent *h = &ls->prims.ents[i];
		struct mycl_lock_primitive *pr = &r->primitives[r->nr_primitives];

		if ((size_t)h->ev != ev)
			continue;
		pr->name = h->sym;
		pr->layer = h->tid >= 0 ? ls->rules.v[h->tid].layer : "code";
		pr->kind = h->tid >= 0 ? ls->rules.v[h->tid].kind : "spin";
		pr->period = h->period;
		pr->samples = h->samples;
		r->nr_primitives++;
	}
	sort_array(r->primitives, r->nr_primitives, sizeof(*r->primitives), prim_cmp);
	for (size_t i = 0; i < ls->sites.nr && !err; i++) {
		const struct hent *h = &ls->sites.ents[i];
		const struct ct_frame *f;
		struct site_acc *sa = NULL;

		if ((size_t)h->ev != ev)
			continue;
		r->period += h->period;
		r->samples += h->samples;
		f = &p->tree.nodes[h->addr].f;
		for (size_t k = 0; k < nacc && !sa; k++)
			if (acc[k].f.dso == f->dso && acc[k].f.sym == f->sym && acc[k].f.addr == f->addr)
				sa = &acc[k];
		if (!sa) {
			if (ARRAY_GROW(acc, cap, nacc + 1)) {
				err = -ENOMEM;
				break;
			}
			sa = &acc[nacc++];
			memset(sa, 0, sizeof(*sa));
			sa->f = *f;
			err = vtree_root(&sa->callers, f);
			if (err)
				break;
		}
		sa->period += h->period;
		sa->samples += h->samples;
		sa->inl |= h->sym && !strcmp(h->sym, INLINE_SPIN);
		if (h->sym) {
			size_t k;

			for (k = 0; k < sa->nvia && sa->via[k] != h->sym; k++)
				;
			if (k == sa->nvia && k < MYCL_LOCK_MAX_VIA)
				sa->via[sa->nvia++] = h->sym;
			if (k < MYCL_LOCK_MAX_VIA)
				sa->via_period[k] += h->period;
		}
		err = vtree_add_callers(p, &sa->callers, (uint32_t)h->addr, h->period, h->samples);
	}
	r->sites = calloc(nacc ? nacc : 1, sizeof(*r->sites));
	if (!r->sites)
		err = -ENOMEM;
	for (size_t k = 0; k < nacc; k++) {
		struct site_acc *sa = &acc[k];
		struct mycl_lock_site *st;

		if (err) {
			free(sa->callers.v);
			continue;
		}
		st = &r->sites[r->nr_sites++];
		st->sym = sa->f.sym;
		st->dso = sa->f.dso ? sa->f.dso->short_name : "[unknown]";
		st->period = sa->period;
		st->samples = sa->samples;
		site_vias(sa, st);
		st->inlined_spin = sa->inl;
		if (sa->f.dso && sa->f.sym && !sa->f.dso->kernel && !sa->f.dso->identity) {
			const struct sym *fn = symtab_find(&sa->f.dso->syms, sa->f.addr);
			struct spin_info si;

			if (fn) {
				spin_loop_globals(sa->f.dso, fn, &si);
				st->lock_word = si.lock_word;
				st->seed = si.seed;
			}
		}
		err = vtree_finish(&sa->callers, &st->callers);
	}
	free(acc);
	if (err) {
		mycl_lock_report__free(r);
		return err;
	}
	sort_array(r->sites, r->nr_sites, sizeof(*r->sites), site_cmp);
	*out = r;
	return 0;
}

MYCL_API void mycl_lock_report__free(struct mycl_lock_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_sites; i++)
		mycl_cg_node__free(r->sites[i].callers);
	free(r->sites);
	free(r->primitives);
	free(r);
}

/*
 * Without call paths: the flat rows whose function is a primitive, for the
 * section of the default report.  No lock sites (those need --locks).
 */
MYCL_API int mycl_profile__lock_summary(const struct mycl_profile *p, size_t ev,
					const char *rules_file, struct mycl_lock_report **out)
{
	struct lock_rules rules = { 0 };
	const struct mycl_profile_event *pe;
	struct mycl_lock_report *r;
	char *extra = NULL;
	int err, bad;

	*out = NULL;
	if (ev >= p->nr_events)
		return -EINVAL;
	pe = &p->events[ev];
	err = lock_rules_parse(&rules, mycl_default_lock_rules, &bad);
	if (!err && rules_file) {
		extra = read_text_file(rules_file);
		err = extra ? lock_rules_parse(&rules, extra, &bad) : -errno;
		free(extra);
	}
	r = err ? NULL : calloc(1, sizeof(*r));
	if (r)
		r->primitives = calloc(pe->nr_rows ? pe->nr_rows : 1, sizeof(*r->primitives));
	if (!r || !r->primitives) {
		lock_rules_free(&rules);
		mycl_lock_report__free(r);
		return err ? err : -ENOMEM;
	}
	r->event = pe->event;
	r->total_period = pe->total_period_all;
	r->total_samples = pe->nr_samples_all;
	for (size_t i = 0; i < pe->nr_rows; i++) {
		const struct mycl_hot_row *row = &pe->rows[i];
		int rule = lock_rules_match(&rules, row->sym);
		struct mycl_lock_primitive *pr;

		if (rule < 0 || !row->period || plumbing(&rules, rule))
			continue;
		pr = &r->primitives[r->nr_primitives++];
		pr->name = row->sym;
		pr->period = row->period;
		pr->samples = row->samples;
		r->period += row->period;
		r->samples += row->samples;
		snprintf(pr->kind_buf, sizeof(pr->kind_buf), "%s", rules.v[rule].kind);
		snprintf(pr->layer_buf, sizeof(pr->layer_buf), "%s", rules.v[rule].layer);
		pr->kind = pr->kind_buf;
		pr->layer = pr->layer_buf;
	}
	lock_rules_free(&rules);
	sort_array(r->primitives, r->nr_primitives, sizeof(*r->primitives), prim_cmp);
	*out = r;
	return 0;
}
