/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Waits from tracepoints: sched:sched_switch (a thread leaving the CPU to
 * sleep, with the call chain of where it blocked, until it is switched in
 * again), syscalls:sys_enter_futex/sys_exit_futex (waits per futex word) and
 * lock:contention_begin/contention_end (kernel lock contention).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/locks.h"
#include "offcpu.h"
#include "profile_state.h"
#include "tracepoint.h"

#define PERF_TYPE_TRACEPOINT 2

struct pending {
	int32_t tid;
	uint64_t time;
	uint32_t node;			/* sched_switch: the wait's site (call-tree node) */
	bool lock;			/* ... a lock's, or another wait's */
	const char *via;
	uint64_t addr;			/* futex word or kernel lock */
};

struct pend_set {
	struct pending *v;
	size_t nr, cap;
};

struct wait_state {
	struct tracepoints *tp;
	bool tried;
	struct pend_set sched, futex, lock;
	struct hist sites;		/* key: addr = call-tree node, sym = via */
	struct hist futexes;		/* key: addr = futex word, pid = a process using it */
	struct hist locks;		/* key: addr = kernel lock */
	bool have_sched, have_futex, have_lock;
	uint64_t total;
};

static struct pending *pend_find(struct pend_set *s, int32_t tid)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->v[i].tid == tid)
			return &s->v[i];
	return NULL;
}

static int pend_put(struct pend_set *s, const struct pending *p)
{
	struct pending *e = pend_find(s, p->tid);

	if (!e) {
		if (ARRAY_GROW(s->v, s->cap, s->nr + 1))
			return -ENOMEM;
		e = &s->v[s->nr++];
	}
	*e = *p;
	return 0;
}

static void pend_drop(struct pend_set *s, struct pending *e)
{
	*e = s->v[--s->nr];
}

void offcpu_free(struct mycl_profile *p)
{
	struct wait_state *w = p->waits;

	free(p->futex_words);
	p->futex_words = NULL;
	p->nr_futex_words = p->cap_futex_words = 0;
	if (!w)
		return;
	tracepoints_close(w->tp);
	free(w->sched.v);
	free(w->futex.v);
	free(w->lock.v);
	hist_free(&w->sites);
	hist_free(&w->futexes);
	hist_free(&w->locks);
	free(w);
	p->waits = NULL;
}

/* TID's wait, if it has one, ended at TIME. */
static int wait_end(struct wait_state *w, int32_t tid, uint64_t time)
{
	struct pending *e = pend_find(&w->sched, tid);
	struct hent k;
	uint64_t d;
	int err;

	if (!e)
		return 0;
	k = (struct hent){ .addr = e->node, .sym = e->via, .level = e->lock ? 'L' : 'W' };
	d = time > e->time ? time - e->time : 0;
	err = hist_add(&w->sites, &k, d, 1, NULL);
	w->total += d;
	pend_drop(&w->sched, e);
	return err;
}

static bool field(struct wait_state *w, const struct mycl_sample *s, const char *name, uint64_t *v)
{
	return tracepoints_field(w->tp, s->event->config, name, s->raw, s->raw_size, v);
}

/* The waits' state, made at the first tracepoint sample; NULL when out of memory. */
static struct wait_state *wait_state(struct mycl_profile *p)
{
	struct wait_state *w = p->waits;

	if (!w && !(w = p->waits = calloc(1, sizeof(*w))))
		return NULL;
	if (!w->tried) {
		size_t len;
		const void *data = mycl_perf_data__tracing_data(p->pd, &len);

		w->tried = true;
		w->tp = tracepoints_open(data, len);
	}
	return w;
}

/* Thread TID entered a futex system call on word ADDR (any operation: a wake names its lock too). */
static int futex_enter(struct mycl_profile *p, int32_t tid, uint64_t addr)
{
	for (size_t i = 0; i < p->nr_futex_words; i++)
		if (p->futex_words[i].tid == tid) {
			p->futex_words[i].addr = addr;
			return 0;
		}
	if (ARRAY_GROW(p->futex_words, p->cap_futex_words, p->nr_futex_words + 1))
		return -ENOMEM;
	p->futex_words[p->nr_futex_words++] = (struct futex_word){ tid, addr };
	return 0;
}

static void futex_exit(struct mycl_profile *p, int32_t tid)
{
	for (size_t i = 0; i < p->nr_futex_words; i++)
		if (p->futex_words[i].tid == tid) {
			p->futex_words[i] = p->futex_words[--p->nr_futex_words];
			return;
		}
}

/*
 * Where waits end, from every sample the filters keep or not (a thread that
 * slept on one CPU is switched in on another, by a sample of another
 * command): a sched_switch ends the wait of the thread switched in (and of
 * the one leaving, seen running); a futex system call's exit and a lock
 * contention's end end their thread's; a sample of any other event has its
 * thread running, so a wait it was in is over.  Recordings of one program
 * see its threads leave the CPU, but not the idle task switching them back
 * in: then the wait ends at the thread's next sample, an upper bound.
 */
int offcpu_observe(struct mycl_profile *p, const struct mycl_sample *s)
{
	struct wait_state *w = p->waits;
	const char *name;
	struct pending *e;
	uint64_t prev = 0, next = 0, uaddr;
	bool exit_futex;
	int err;

	/* (the futex word each thread is on, whatever the filters keep: profile_locks.c asks) */
	if (s->event->type == PERF_TYPE_TRACEPOINT && s->raw && !(w = wait_state(p)))
		return -ENOMEM;
	if (!w || (!w->sched.nr && !w->futex.nr && !w->lock.nr && !p->nr_futex_words &&
		   s->event->type != PERF_TYPE_TRACEPOINT))
		return 0;
	if (s->event->type != PERF_TYPE_TRACEPOINT || !s->raw || !w->tp ||
	    !(name = tracepoints_name(w->tp, s->event->config)))
		return w->sched.nr ? wait_end(w, s->tid, s->time) : 0;
	if (!strcmp(name, "syscalls:sys_enter_futex") && field(w, s, "uaddr", &uaddr) &&
	    (err = futex_enter(p, s->tid, uaddr)))
		return err;
	if (!strcmp(name, "sched:sched_switch")) {
		if (!field(w, s, "prev_pid", &prev) || !field(w, s, "next_pid", &next))
			return 0;
		err = wait_end(w, (int32_t)next, s->time);
		return err ? err : wait_end(w, (int32_t)prev, s->time);
	}
	err = w->sched.nr ? wait_end(w, s->tid, s->time) : 0;
	exit_futex = !strcmp(name, "syscalls:sys_exit_futex");
	if (exit_futex)
		futex_exit(p, s->tid);
	if (!err && exit_futex && (e = pend_find(&w->futex, s->tid))) {
		struct hent k = { .addr = e->addr, .pid = s->pid };

		err = hist_add(&w->futexes, &k, s->time > e->time ? s->time - e->time : 0, 0, NULL);
		pend_drop(&w->futex, e);
	} else if (!err && !strcmp(name, "lock:contention_end") &&
		   (e = pend_find(&w->lock, s->tid))) {
		struct hent k = { .addr = e->addr };

		err = hist_add(&w->locks, &k, s->time > e->time ? s->time - e->time : 0, 1, NULL);
		pend_drop(&w->lock, e);
	}
	return err;
}

int offcpu_sample(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf)
{
	struct wait_state *w;
	const char *name;
	uint64_t v;
	int err = 0;

	if (s->event->type != PERF_TYPE_TRACEPOINT || !s->raw)
		return 0;
	if (!(w = wait_state(p)))
		return -ENOMEM;
	if (!w->tp || !(name = tracepoints_name(w->tp, s->event->config)))
		return 0;
	/* (the waits it ends were ended by offcpu_observe(), which saw it first) */
	if (!strcmp(name, "sched:sched_switch")) {
		uint64_t prev = 0, next = 0, state = 0;

		w->have_sched = true;
		if (!field(w, s, "prev_pid", &prev) || !field(w, s, "next_pid", &next))
			return 0;
		field(w, s, "prev_state", &state);
		/* A thread leaving the CPU asleep (not preempted) starts one. */
		if ((state & 0xff) && prev && leaf != UINT32_MAX) {
			struct pending n = { .tid = (int32_t)prev, .time = s->time };

			n.node = profile_wait_site(p, s, leaf, &n.via, &n.lock);
			err = pend_put(&w->sched, &n);
		}
	} else if (!strcmp(name, "syscalls:sys_enter_futex")) {
		uint64_t uaddr = 0, op = 0;

		w->have_futex = true;
		if (field(w, s, "uaddr", &uaddr) && field(w, s, "op", &op) &&
		    ((op & 0x7f) == 0 || (op & 0x7f) == 9 || (op & 0x7f) == 6)) {
			struct pending n = { .tid = s->tid, .time = s->time, .addr = uaddr };
			struct hent k = { .addr = uaddr, .pid = s->pid };

			err = hist_add(&w->futexes, &k, 0, 1, NULL);
			if (!err)
				err = pend_put(&w->futex, &n);
		}
	} else if (!strcmp(name, "lock:contention_begin")) {
		w->have_lock = true;
		if (field(w, s, "lock_addr", &v)) {
			struct pending n = { .tid = s->tid, .time = s->time, .addr = v };

			err = pend_put(&w->lock, &n);
		}
	}
	return err;
}

static int site_cmp(const void *a, const void *b)
{
	const struct mycl_offcpu_site *x = a, *y = b;

	return x->wait_ns != y->wait_ns ? (x->wait_ns > y->wait_ns ? -1 : 1) : 0;
}

static int addr_cmp(const void *a, const void *b)
{
	const struct mycl_addr_wait *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns > y->wait_ns ? -1 : 1;
	return x->waits > y->waits ? -1 : x->waits < y->waits;
}

static struct mycl_addr_wait *addr_list(struct mycl_profile *p, const struct hist *h, size_t *n,
					bool symbolize)
{
	struct mycl_addr_wait *v = calloc(h->nr ? h->nr : 1, sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < h->nr; i++) {
		v[i].addr = h->ents[i].addr;
		v[i].waits = h->ents[i].samples;
		v[i].wait_ns = h->ents[i].period;
		if (symbolize)
			v[i].symbol = machine_data_symbol(p->m, h->ents[i].pid, h->ents[i].pid,
							  h->ents[i].addr);
	}
	*n = h->nr;
	sort_array(v, *n, sizeof(*v), addr_cmp);
	return v;
}

MYCL_API int mycl_profile__waits(const struct mycl_profile *cp, struct mycl_wait_report **out)
{
	struct mycl_profile *p = (struct mycl_profile *)cp;
	struct wait_state *w = p->waits;
	struct mycl_wait_report *r;
	int err = 0;

	*out = NULL;
	if (!w || !(w->have_sched || w->have_futex || w->have_lock))
		return -ENOENT;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->have_sched_switch = w->have_sched;
	r->have_futex = w->have_futex;
	r->have_contention = w->have_lock;
	r->total_wait_ns = w->total;
	r->sites = calloc(w->sites.nr ? w->sites.nr : 1, sizeof(*r->sites));
	if (!r->sites)
		err = -ENOMEM;
	/* One entry per site frame: several call-tree nodes can be the same function. */
	for (size_t i = 0; !err && i < w->sites.nr; i++) {
		const struct hent *h = &w->sites.ents[i];
		struct ct_frame sf, *f = &sf;
		struct mycl_offcpu_site *st = NULL;
		struct vtree t;

		profile_site_frame(p, &p->tree.nodes[h->addr].f, &sf);
		for (size_t k = 0; k < r->nr_sites && !st; k++)
			if ((r->sites[k].sym == f->sym ||
			     (r->sites[k].sym && f->sym && !strcmp(r->sites[k].sym, f->sym))) &&
			    r->sites[k].via == h->sym &&
			    r->sites[k].lock == (h->level == 'L') &&
			    r->sites[k].dso == (f->dso ? f->dso->short_name : "[unknown]"))
				st = &r->sites[k];
		if (!st) {
			st = &r->sites[r->nr_sites++];
			st->sym = f->sym;
			st->dso = f->dso ? f->dso->short_name : "[unknown]";
			st->via = h->sym;
			st->lock = h->level == 'L';
		}
		if (st->lock)
			r->lock_wait_ns += h->period;
		st->waits += h->samples;
		st->wait_ns += h->period;
		/* Callers: merged per site as trees of their own. */
		err = vtree_root(&t, f);
		if (!err)
			err = vtree_add_callers(p, &t, (uint32_t)h->addr, h->period, h->samples);
		if (!err) {
			struct mycl_cg_node *g;

			err = vtree_finish(&t, &g);
			if (!err && !st->callers) {
				st->callers = g;
			} else if (!err) {
				mycl_cg_node__free(g);	/* the largest first path is kept */
			}
		}
	}
	sort_array(r->sites, r->nr_sites, sizeof(*r->sites), site_cmp);
	if (!err) {
		r->futexes = addr_list(p, &w->futexes, &r->nr_futexes, true);
		r->locks = addr_list(p, &w->locks, &r->nr_locks, false);
		if (!r->futexes || !r->locks)
			err = -ENOMEM;
	}
	if (err) {
		mycl_wait_report__free(r);
		return err;
	}
	*out = r;
	return 0;
}

MYCL_API void mycl_wait_report__free(struct mycl_wait_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_sites; i++)
		mycl_cg_node__free(r->sites[i].callers);
	for (size_t i = 0; i < r->nr_futexes; i++)
		free((char *)r->futexes[i].symbol);
	free(r->sites);
	free(r->futexes);
	free(r->locks);
	free(r);
}
