/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Aggregating samples into the flat profile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "mycl/tuning.h"
#include "perf_abi.h"
#include "pkghint.h"
#include "offcpu.h"
#include "profile_state.h"
#include "unwind.h"

static const char *const sort_names[MYCL_SORT__MAX] = {
	[MYCL_SORT_COMM] = "comm", [MYCL_SORT_PID] = "pid", [MYCL_SORT_TID] = "tid",
	[MYCL_SORT_DSO] = "dso", [MYCL_SORT_SYM] = "sym", [MYCL_SORT_CPU] = "cpu",
};

MYCL_API int mycl_sort_key_parse(const char *name)
{
	for (int i = 0; i < MYCL_SORT__MAX; i++)
		if (!strcmp(name, sort_names[i]))
			return i;
	if (!strcmp(name, "symbol"))
		return MYCL_SORT_SYM;
	return -1;
}

MYCL_API const char *mycl_sort_key_name(enum mycl_sort_key key)
{
	return (unsigned)key < MYCL_SORT__MAX ? sort_names[key] : "?";
}

/* TOK as a number from 0 to INT32_MAX: 0, or -EINVAL. */
static int id_of(const char *tok, const char *end, long *v)
{
	char *e;

	if (tok == end || *tok < '0' || *tok > '9')
		return -EINVAL;
	errno = 0;
	*v = strtol(tok, &e, 10);
	return e != end || errno || *v > INT32_MAX ? -EINVAL : 0;
}

/*
 * LIST (comma-separated) into F: names, or with NUMERIC numbers and ranges
 * ("0-3", as perf's --cpu) from 0 to INT32_MAX, kept as [lo, hi] pairs.
 */
static int filter_parse(struct filter *f, const char *list, bool numeric)
{
	char *dup, *tok, *save = NULL;

	if (!list)
		return 0;
	f->on = true;
	dup = strdup(list);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (numeric) {
			char *dash = strchr(tok, '-'), *end = tok + strlen(tok);
			long lo, hi, *n;

			if (id_of(tok, dash ? dash : end, &lo) || (dash && id_of(dash + 1, end, &hi)) ||
			    (dash && hi < lo)) {
				free(dup);
				return -EINVAL;
			}
			n = realloc(f->nums, (f->nr_nums + 2) * sizeof(*n));
			if (!n)
				goto nomem;
			f->nums = n;
			f->nums[f->nr_nums++] = lo;
			f->nums[f->nr_nums++] = dash ? hi : lo;
		} else {
			char **n = realloc(f->names, (f->nr + 1) * sizeof(*n));

			if (!n)
				goto nomem;
			f->names = n;
			f->names[f->nr] = strdup(tok);
			if (!f->names[f->nr])
				goto nomem;
			f->nr++;
		}
	}
	free(dup);
	return 0;
nomem:
	free(dup);
	return -ENOMEM;
}

static void filter_free(struct filter *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->names[i]);
	free(f->names);
	free(f->nums);
}

static bool filter_num(const struct filter *f, long v)
{
	if (!f->on)
		return true;
	for (size_t i = 0; i + 1 < f->nr_nums; i += 2)
		if (f->nums[i] <= v && v <= f->nums[i + 1])
			return true;
	return false;
}

static bool filter_name(const struct filter *f, const char *a, const char *b)
{
	if (!f->on)
		return true;
	for (size_t i = 0; i < f->nr; i++)
		if ((a && !strcmp(f->names[i], a)) || (b && !strcmp(f->names[i], b)))
			return true;
	return false;
}

static struct dso_count *dso_count(struct mycl_profile *p, struct dso *d)
{
	/* Runs of samples hit one DSO: search only when it changes. */
	if (p->last_dcount < p->nr_dcounts && p->dcounts[p->last_dcount].dso == d)
		return &p->dcounts[p->last_dcount];
	for (size_t i = 0; i < p->nr_dcounts; i++)
		if (p->dcounts[i].dso == d) {
			p->last_dcount = i;
			return &p->dcounts[i];
		}
	if (ARRAY_GROW(p->dcounts, p->dcounts_cap, p->nr_dcounts + 1))
		return NULL;
	p->dcounts[p->nr_dcounts] = (struct dso_count){ .dso = d };
	p->last_dcount = p->nr_dcounts;
	return &p->dcounts[p->nr_dcounts++];
}

static int grow_events(struct mycl_profile *p, size_t n)
{
	struct mycl_profile_event *e;

	if (n <= p->nr_events)
		return 0;
	e = realloc(p->events, n * sizeof(*e));
	if (!e)
		return -ENOMEM;
	memset(e + p->nr_events, 0, (n - p->nr_events) * sizeof(*e));
	p->events = e;
	p->nr_events = n;
	return 0;
}

/*
 * NAME as the recording spells it: "cpu-clock" is the file's "cpu-clock:ppp"
 * or "cpu-clock:u" when only one event has that name before its modifiers.
 */
static const char *match_event(struct mycl_perf_data *pd, const char *name)
{
	const char *found = NULL;
	size_t n = strlen(name);

	for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++) {
		const char *e = mycl_perf_data__event(pd, i)->name;

		if (!strcmp(e, name))
			return name;
		if (!strncmp(e, name, n) && e[n] == ':') {
			if (found && strcmp(found, e))
				return name;	/* ambiguous: no event of that name */
			found = e;
		}
	}
	return found ? found : name;
}
/* Tracepoints are waits; other samples may be lock time, and end their thread's wait. */
static int locks_and_waits(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf)
{
	if (s->event->type == 2 /* PERF_TYPE_TRACEPOINT */)
		return offcpu_sample(p, s, leaf);
	return profile_locks_sample(p, s, leaf);
}


/* cpu-clock or task-clock: a timer's samples, taken when its interrupt is let in. */
static bool software_clock(const struct mycl_event *e)
{
	return e && e->type == 1 /* PERF_TYPE_SOFTWARE */ && e->config <= 1;
}

static int on_sample(const struct mycl_sample *s, void *ctx)
{
	struct mycl_profile *p = ctx;
	struct mycl_profile_event *pe;
	struct dso_count *dc = NULL;
	struct resolved r;
	struct hent rk = { 0 }, k;
	struct ct_frame f;
	int err;

	if ((size_t)s->event->idx >= p->nr_events) {
		err = grow_events(p, (size_t)s->event->idx + 1);
		if (err)
			return err;
	}
	pe = &p->events[s->event->idx];
	pe->event = s->event;
	pe->nr_samples_all++;
	pe->total_period_all += s->period;
	if (p->data_addresses && (s->sample_type & S_ADDR) && s->addr) {
		struct hent dk = { .addr = s->addr & ~(uint64_t)7,
				   .ev = !!(s->data_src & MEM_SNOOP_HITM) };

		err = hist_add(&p->data_addrs, &dk, 0, 1, NULL);
		if (err)
			return err;
	}
	/* (the waits a sample ends, whatever the filters keep: a wait is as long either way) */
	if (p->locks && (err = offcpu_observe(p, s)))
		return err;
	if (p->event_name && strcmp(p->event_name, s->event->name))
		return 0;
	if (p->lat) {
		/* every sample tells which threads run now, kept by the filters or not */
		struct thread *t = machine_thread(p->m, s->pid, s->tid);

		err = latency_observe(p, s, t ? t->comm : NULL);
		if (err)
			return err;
	}
	if (p->filtered && (!filter_num(&p->f_pid, s->pid) || !filter_num(&p->f_tid, s->tid) ||
			    !filter_num(&p->f_cpu, (long)s->cpu)))
		return 0;
	err = machine_resolve(p->m, s->pid, s->tid, s->ip, s->cpumode, &r);
	if (err)
		return err;
	if (p->filtered && (!filter_name(&p->f_comm, r.thread->comm, NULL) ||
			    !filter_name(&p->f_dso, r.dso ? r.dso->short_name : "[unknown]",
					 r.dso ? r.dso->path : NULL)))
		return 0;
	pe->nr_samples++;
	pe->total_period += s->period;
	if ((s->sample_type & S_TIME) && (err = timeline_add(p, (size_t)s->event->idx, s->time,
							       s->period)))
		return err;
	if (r.dso) {
		dc = dso_count(p, r.dso);
		if (!dc)
			return -ENOMEM;
		dc->samples++;
		dc->unresolved += !r.sym;
	} else {
		p->unmapped++;
	}
	rk.ev = s->event->idx;
	rk.comm = r.thread->comm;	/* dropped by profile_frame_key unless sorted on */
	if (p->use[MYCL_SORT_PID]) {
		rk.pid = r.thread->pid;
		rk.comm = r.thread->comm;
	}
	if (p->use[MYCL_SORT_TID]) {
		rk.tid = r.thread->tid;
		rk.pid = r.thread->pid;
		rk.comm = r.thread->comm;
	}
	if (p->use[MYCL_SORT_CPU])
		rk.cpu = s->cpu;
	f.dso = r.dso;
	f.level = r.level;
	f.sym = r.sym ? r.sym->name : NULL;
	f.addr = r.sym ? r.sym->start : r.addr;
	profile_frame_key(p, &rk, &f, &k);
	err = hist_add(&p->self, &k, s->period, 1, NULL);
	if (!err && p->lat)
		err = latency_sample(p, s, &k);
	if (!err && p->annotate && r.sym && r.dso && !r.dso->kernel && !r.dso->identity) {
		struct hent ik = { .ev = s->event->idx, .dso = r.dso,
				   .addr = dso_offset_to_vaddr(r.dso, r.addr) };

		uint32_t row;

		err = hist_add(&p->insns, &ik, s->period, 1, &row);
		if (!err && (s->sample_type & S_ADDR) && s->addr) {
			struct hent dk = { .ev = s->event->idx, .tid = (int32_t)row };
			int at = machine_data_at(p->m, s->pid, s->tid, s->addr, &dk.dso, &dk.addr);

			if (at) {
				dk.dso = NULL;
				dk.level = at == 1 ? 'x' : 0;	/* x: code */
			}
			err = hist_add(&p->daddrs, &dk, s->period, 1, NULL);
		}
	}
	/* (the idle task's samples pile on its halt: said as idle, not here) */
	if (!err && r.level == 'k' && r.sym && r.dso && s->pid != 0 && software_clock(s->event)) {
		struct hent ik = { .ev = s->event->idx, .dso = r.dso, .sym = r.sym->name,
				   .addr = r.addr - r.sym->start, .level = 'k' };

		err = hist_add(&p->kinsns, &ik, s->period, 1, NULL);
	}
	/* The idle task; pid is -1 when the event does not sample it. */
	if (s->pid == 0)
		p->nr_idle++;
	if (!err && p->want_tree && dc && s->cpumode == MYCL_CPUMODE_USER && s->callchain_nr &&
	    !(s->user_regs_abi && s->user_stack_size) && !s->branch_nr) {
		/* A frame-pointer chain: good only where the code keeps frame pointers. */
		p->nr_fp_user++;
		if (r.sym && profile_frameless(r.dso, r.sym)) {
			p->nr_fp_gap++;
			dc->fp_gap++;
		}
	}
	if (!err && p->want_tree) {
		uint32_t leaf = UINT32_MAX;

		p->nr_chained += s->callchain_nr || s->branch_nr ||
				 (s->user_regs_abi && s->user_stack_size);

		err = profile_add_chain(p, s, &rk, &leaf);
		if (!err && p->timed_stacks && leaf != UINT32_MAX && (s->sample_type & S_TIME))
			err = timeline_stack(p, (size_t)s->event->idx, s->time, leaf);
		if (!err && p->locks && leaf != UINT32_MAX)
			err = locks_and_waits(p, s, leaf);
	}
	return err;
}

/* opts.data_addresses: the first executable mapping of each file name. */
static int first_map(struct mycl_profile *p, const struct mycl_mmap *m)
{
	const char *b = strrchr(m->filename, '/');
	struct hent k = { .sym = machine_intern(p->m, b ? b + 1 : m->filename) };
	uint32_t row;
	int err;

	if (!k.sym)
		return -ENOMEM;
	err = hist_add(&p->maps_seen, &k, 0, 1, &row);
	if (err || p->maps_seen.ents[row].samples > 1)
		return err;
	if (ARRAY_GROW(p->first_maps, p->first_maps_cap, (size_t)row + 1))
		return -ENOMEM;
	p->first_maps[row].start = m->start;
	p->first_maps[row].pgoff = m->pgoff;
	return 0;
}

static int on_mmap(const struct mycl_mmap *m, void *ctx)
{
	struct mycl_profile *p = ctx;

	if (p->data_addresses && !(m->misc & (1 << 13)) /* PERF_RECORD_MISC_MMAP_DATA */) {
		int err = first_map(p, m);

		if (err)
			return err;
	}
	return machine_mmap(p->m, m);
}

static int on_comm(const struct mycl_comm *c, void *ctx)
{
	return machine_comm(((struct mycl_profile *)ctx)->m, c);
}

static int on_fork(const struct mycl_task *t, void *ctx)
{
	return machine_fork(((struct mycl_profile *)ctx)->m, t);
}

static int on_switch(const struct mycl_context_switch *sw, void *ctx)
{
	latency_switch(ctx, sw);
	return 0;
}

static int on_exit_rec(const struct mycl_task *t, void *ctx)
{
	latency_exit(ctx, t->tid);
	return 0;
}

static int on_ksymbol(const struct mycl_ksymbol *k, void *ctx)
{
	return machine_ksymbol(((struct mycl_profile *)ctx)->m, k);
}

static int row_cmp(const void *a, const void *b)
{
	const struct mycl_hot_row *x = a, *y = b;
	int c;

	/* with opts.latency, by wall-clock time first, as perf report --latency */
	if (x->latency != y->latency)
		return x->latency > y->latency ? -1 : 1;

	if (x->total_period != y->total_period)
		return x->total_period > y->total_period ? -1 : 1;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if ((c = strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "")))
		return c;
	if ((c = strcmp(x->dso ? x->dso : "", y->dso ? y->dso : "")))
		return c;
	if ((c = strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "")))
		return c;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int make_rows(struct mycl_profile *p)
{
	const struct hist *h = p->children ? &p->incl : &p->self;
	size_t *counts = calloc(p->nr_events ? p->nr_events : 1, sizeof(*counts));

	p->rows = calloc(p->nr_events ? p->nr_events : 1, sizeof(*p->rows));
	if (!counts || !p->rows) {
		free(counts);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h->nr; i++)
		counts[h->ents[i].ev]++;
	for (size_t e = 0; e < p->nr_events; e++) {
		p->rows[e] = calloc(counts[e] ? counts[e] : 1, sizeof(**p->rows));
		if (!p->rows[e]) {
			free(counts);
			return -ENOMEM;
		}
		p->events[e].rows = p->rows[e];
		p->events[e].nr_rows = 0;
	}
	for (size_t i = 0; i < h->nr; i++) {
		const struct hent *he = &h->ents[i];
		const struct hent *self = p->children ? hist_find(&p->self, he) : he;
		struct mycl_profile_event *pe = &p->events[he->ev];
		struct mycl_hot_row *r = &p->rows[he->ev][pe->nr_rows++];

		r->id = (uint32_t)i;
		r->comm = he->comm;
		r->pid = he->pid;
		r->tid = he->tid;
		r->cpu = he->cpu;
		r->dso = p->use[MYCL_SORT_DSO] || (p->use[MYCL_SORT_SYM] && !he->sym) ?
			(he->dso ? he->dso->short_name : "[unknown]") : NULL;
		r->dso_path = he->dso ? he->dso->path : NULL;
		r->sym = he->sym;
		r->addr = he->sym ? 0 : he->addr;
		r->level = he->level;
		r->period = self ? self->period : 0;
		r->samples = self ? self->samples : 0;
		r->total_period = p->children ? he->period : r->period;
		r->total_samples = p->children ? he->samples : r->samples;
		r->latency = p->children ? 0 : latency_of(p, he);
		pe->total_latency += r->latency;
	}
	for (size_t e = 0; e < p->nr_events; e++)
		p->events[e].total_latency_all = latency_all(p, e);
	for (size_t e = 0; e < p->nr_events; e++)
		sort_array(p->rows[e], p->events[e].nr_rows, sizeof(**p->rows), row_cmp);
	free(counts);
	return 0;
}

static int dcount_cmp(const void *a, const void *b)
{
	const struct dso_count *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->dso->path, y->dso->path);
}

static int make_summary(struct mycl_profile *p)
{
	sort_array(p->dcounts, p->nr_dcounts, sizeof(*p->dcounts), dcount_cmp);
	p->summ = calloc(p->nr_dcounts ? p->nr_dcounts : 1, sizeof(*p->summ));
	p->summ_strs = calloc(p->nr_dcounts ? p->nr_dcounts * 2 : 1, sizeof(char *));
	p->summ_hint_pending = calloc(p->nr_dcounts ? p->nr_dcounts : 1, sizeof(bool));
	if (!p->summ || !p->summ_strs || !p->summ_hint_pending)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_dcounts; i++) {
		struct dso *d = p->dcounts[i].dso;
		struct mycl_dso_summary *s = &p->summ[i];

		p->summ_strs[i] = malloc(41);
		if (!p->summ_strs[i])
			return -ENOMEM;
		build_id_hex(d->build_id, d->build_id_size, p->summ_strs[i]);
		s->name = d->short_name;
		s->path = d->path;
		s->build_id = p->summ_strs[i];
		s->sym_file = d->sym_label ? d->sym_label : d->sym_path;
		s->read_file = d->runtime_path;
		s->read_sym_file = d->sym_path;
		s->status = dso_status_str(d->status);
		s->detail = d->detail;
		s->kernel = d->kernel;
		s->ok = d->status == DSO_OK;
		s->samples = p->dcounts[i].samples;
		s->unresolved = p->dcounts[i].unresolved;
		if (s->unresolved && !d->kernel && d->status == DSO_MISSING && !d->identity) {
			/* No debug package brings a binary back: it must come from where it ran. */
			char *lacks = NULL;

			if (p->archive && asprintf(&lacks, "%s lacks it (it was not in that machine's "
						   "build-id cache); copy it from where it ran under --symfs",
						   mycl_archive__path(p->archive)) < 0)
				lacks = NULL;
			if (asprintf(&p->summ_strs[p->nr_dcounts + i], "the binary itself is needed%s: %s",
				     s->build_id[0] ? " (build-id given above)" : "", lacks ? lacks :
				     "'perf archive' where it was recorded, then unpack into ~/.debug or "
				     "pass --archive; or copy it under --symfs") < 0)
				p->summ_strs[p->nr_dcounts + i] = NULL;
			free(lacks);
			s->fix = p->summ_strs[p->nr_dcounts + i];
		} else if (s->unresolved && !d->kernel && d->status == DSO_BUILD_ID_MISMATCH) {
			/* The file here was rebuilt: only the build that ran has those addresses. */
			s->fix = "the build that ran is needed: point --symfs at it, or 'perf archive' "
				 "where it was recorded and pass --archive";
		} else if (s->unresolved && !d->kernel && (!s->ok || !d->symtab_full)) {
			p->summ_hint_pending[i] = true;	/* see mycl_profile__dso() */
		}
	}
	p->nr_summ = p->nr_dcounts;
	return 0;
}

static void find_kernel_build_id(const struct mycl_perf_info *in, struct sym_opts *so)
{
	for (size_t i = 0; i < in->nr_build_ids; i++)
		if (!strcmp(in->build_ids[i].filename, "[kernel.kallsyms]")) {
			so->kernel_build_id = in->build_ids[i].id;
			so->kernel_build_id_size = in->build_ids[i].size;
		}
}

MYCL_API int mycl_profile__build(struct mycl_perf_data *pd, const struct mycl_profile_opts *opts,
				 struct mycl_profile **out)
{
	struct mycl_profile *p;
	struct sym_opts so = { 0 };
	const enum mycl_sort_key *keys = OPTS_GET(opts, sort, NULL);
	size_t nr_keys = OPTS_GET(opts, nr_sort, 0);
	static const enum mycl_sort_key def_keys[] = { MYCL_SORT_COMM, MYCL_SORT_DSO, MYCL_SORT_SYM };
	const char *bdir = OPTS_GET(opts, buildid_dir, NULL);
	struct mycl_record_ops ops = {
		.sz = sizeof(ops), .sample = on_sample, .mmap = on_mmap, .comm = on_comm,
		.fork = on_fork, .ksymbol = on_ksymbol,
	};
	const char *ev;
	int err;

	error_clear();
	if (!OPTS_VALID(opts, mycl_profile_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->pd = pd;
	p->log.print = OPTS_GET(opts, print, NULL);
	p->log.ctx = OPTS_GET(opts, print_ctx, NULL);
	if (!keys || !nr_keys) {
		keys = def_keys;
		nr_keys = ARRAY_SIZE(def_keys);
	}
	for (size_t i = 0; i < nr_keys && p->nr_keys < MYCL_SORT__MAX; i++) {
		if ((unsigned)keys[i] >= MYCL_SORT__MAX) {
			mycl_profile__free(p);
			return -EINVAL;
		}
		if (!p->use[keys[i]])
			p->keys[p->nr_keys++] = keys[i];
		p->use[keys[i]] = true;
	}
	err = filter_parse(&p->f_comm, OPTS_GET(opts, comms, NULL), false);
	err = err ? err : filter_parse(&p->f_dso, OPTS_GET(opts, dsos, NULL), false);
	err = err ? err : filter_parse(&p->f_pid, OPTS_GET(opts, pids, NULL), true);
	err = err ? err : filter_parse(&p->f_tid, OPTS_GET(opts, tids, NULL), true);
	err = err ? err : filter_parse(&p->f_cpu, OPTS_GET(opts, cpus, NULL), true);
	p->filtered = p->f_comm.on || p->f_dso.on || p->f_pid.on || p->f_tid.on || p->f_cpu.on;
	ev = OPTS_GET(opts, event, NULL);
	if (ev)
		ev = match_event(pd, ev);
	if (!err && ev && !(p->event_name = strdup(ev)))
		err = -ENOMEM;
	if (!err && (p->f_cpu.on || p->use[MYCL_SORT_CPU])) {
		/* samples without PERF_SAMPLE_CPU hold no CPU: a filter would keep none, a row show -1 */
		bool any = false;

		for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++) {
			const struct mycl_event *e = mycl_perf_data__event(pd, i);

			any |= (!ev || !strcmp(e->name, ev)) && (e->sample_type & S_CPU);
		}
		if (!any)
			err = MYCL_ERR_NOT_RECORDED;
	}
	if (err) {
		mycl_profile__free(p);
		return err;
	}
	so.symfs = OPTS_GET(opts, symfs, NULL);
	so.kallsyms = OPTS_GET(opts, kallsyms, NULL);
	so.buildid_dir = bdir && *bdir ? bdir : NULL;
	so.archive = OPTS_GET(opts, archive, NULL);
	p->archive = so.archive;
	if (known_files_read(OPTS_GET(opts, binaries, NULL), &p->known, &so.nr_known)) {
		mycl_profile__free(p);
		return -ENOMEM;
	}
	so.known = p->known;
	so.debug_dir = dso_debug_dir(OPTS_GET(opts, debug_dir, NULL));
	so.demangle = !OPTS_GET(opts, no_demangle, false);
	so.lazy_demangle = true;	/* the profile reads its tables through look-ups only */
	/* source lines are read for annotation only (mycl_profile__annotate() needs the option) */
	so.no_line_table = !OPTS_GET(opts, annotate, false);
	so.log = p->log;
	so.os_release = mycl_perf_data__info(pd)->os_release;
	if (!OPTS_GET(opts, jit_maps, false)) {
		const char *host = mycl_perf_data__info(pd)->hostname;
		struct utsname u;

		if (!host || uname(&u) || strcmp(host, u.nodename))
			so.jit_host = host ? host : "";
	}
	find_kernel_build_id(mycl_perf_data__info(pd), &so);
	/* Kernel symbols read beside the first samples, when an event may sample the kernel. */
	for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
		so.prefetch_kernel |= !(mycl_perf_data__event(pd, i)->flags & (1ULL << AF_EXCLUDE_KERNEL));
	p->m = machine_new(&so, mycl_perf_data__info(pd));
	if (!p->m) {
		mycl_profile__free(p);
		return -ENOMEM;
	}
	p->children = OPTS_GET(opts, children, false);
	p->want_tree = p->children || OPTS_GET(opts, callgraph, false) || OPTS_GET(opts, locks, false);
	if (OPTS_GET(opts, locks, false)) {
		char msg[512] = "";

		err = profile_locks_init(p, OPTS_GET(opts, lock_rules, NULL), msg, sizeof(msg));
		if (err) {
			error_set(err, "%s", msg);
			mycl_profile__free(p);
			return err;
		}
	} else if (OPTS_GET(opts, lock_rules, NULL)) {
		/* for mycl_profile__lock_summary(): refused now, not after the report */
		char msg[512] = "";

		err = profile_lock_rules_keep(p, OPTS_GET(opts, lock_rules, NULL), msg, sizeof(msg));
		if (err) {
			error_set(err, "%s", msg);
			mycl_profile__free(p);
			return err;
		}
	}
	p->inlines = !OPTS_GET(opts, no_inline, false);
	p->fp_repair = !OPTS_GET(opts, no_call_site_frames, false);
	/* chain_cache off: every chain resolved and walked (the tests' measure of the cache) */
	p->no_chain_cache = tuning_get()->chain_cache == MYCL_SWITCH_OFF;
	p->max_stack = OPTS_GET(opts, max_stack, 0);
	if (!p->max_stack)
		p->max_stack = MAX_STACK_DEFAULT;
	p->annotate = OPTS_GET(opts, annotate, false);
	p->timed_stacks = OPTS_GET(opts, timed_stacks, false) && p->want_tree;
	p->call_sites = OPTS_GET(opts, call_sites, false) && p->want_tree;
	p->data_addresses = OPTS_GET(opts, data_addresses, false);
	if (OPTS_GET(opts, latency, false)) {
		err = latency_init(p);
		if (err) {
			mycl_profile__free(p);
			return err;
		}
		ops.context_switch = on_switch;
		ops.exit = on_exit_rec;
	}
	/* Started after every step that can fail: its thread reads the options set up above. */
	machine_prefetch_kernel(p->m);
	/*
	 * The binaries with samples loaded beside the reading; not when filters may
	 * leave some unwanted.  Their DWARF too when unwound stacks get inlined frames.
	 */
	if (!p->filtered) {
		bool unwinds = false;

		for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
			unwinds |= !!(mycl_perf_data__event(pd, i)->sample_type & S_STACK_USER);
		machine_prefetch_dsos(p->m, unwinds && p->want_tree && p->inlines);
	}
	err = mycl_perf_data__read(pd, &ops, p);
	machine_settle(p->m);
	if (!err)
		err = grow_events(p, mycl_perf_data__nr_events(pd));
	if (!err && p->want_tree)
		err = profile_children(p);
	for (size_t i = 0; !err && i < p->nr_events; i++) {
		p->events[i].event = mycl_perf_data__event(pd, i);
		if (p->events[i].event && p->events[i].nr_samples_all == 0) {
			p->events[i].nr_samples_all = p->events[i].event->nr_samples;
			p->events[i].total_period_all = p->events[i].event->total_period;
		}
	}
	if (!err && p->event_name) {
		bool found = false;

		for (size_t i = 0; i < p->nr_events; i++)
			found |= p->events[i].event && !strcmp(p->events[i].event->name, p->event_name);
		if (!found)
			err = MYCL_ERR_NO_EVENT;
	}
	latency_settle(p);
	if (!err)
		err = make_rows(p);
	if (!err)
		err = make_summary(p);
	if (!err)
		err = profile_quality(p);
	if (err) {
		mycl_profile__free(p);
		return err;
	}
	*out = p;
	return 0;
}

MYCL_API void mycl_profile__free(struct mycl_profile *p)
{
	if (!p)
		return;
	machine_settle(p->m);	/* the kernel's symbols' thread reads the options freed below */
	for (size_t e = 0; p->rows && e < p->nr_events; e++)
		free(p->rows[e]);
	free(p->rows);
	for (size_t i = 0; p->summ_strs && i < 2 * p->nr_summ; i++)
		free(p->summ_strs[i]);
	free(p->summ_strs);
	free(p->summ_hint_pending);
	free(p->summ);
	free(p->events);
	timeline_free(p);
	latency_free(p);
	hist_free(&p->self);
	hist_free(&p->roots);
	hist_free(&p->incl);
	hist_free(&p->insns);
	hist_free(&p->kinsns);
	hist_free(&p->daddrs);
	hist_free(&p->data_addrs);
	hist_free(&p->maps_seen);
	free(p->first_maps);
	hist_free(&p->sites);
	calltree_free(&p->tree);
	chaincache_free(&p->chains);
	free(p->ckeys);
	free(p->cpos);
	unwinder_free(p->unwinder);
	offcpu_free(p);
	profile_locks_free(p);
	free(p->ubuf);
	free(p->frames);
	free(p->dcounts);
	free(p->warnings);
	free(p->row_first);
	free(p->row_nodes);
	free(p->row_at);
	filter_free(&p->f_comm);
	filter_free(&p->f_dso);
	filter_free(&p->f_pid);
	filter_free(&p->f_tid);
	filter_free(&p->f_cpu);
	free(p->event_name);
	free(p->known);
	machine_free(p->m);
	free(p);
}

MYCL_API size_t mycl_profile__nr_events(const struct mycl_profile *p)
{
	return p->nr_events;
}

MYCL_API const struct mycl_profile_event *mycl_profile__event(const struct mycl_profile *p, size_t i)
{
	return i < p->nr_events ? &p->events[i] : NULL;
}

MYCL_API size_t mycl_profile__nr_dsos(const struct mycl_profile *p)
{
	return p->nr_summ;
}

/*
 * Package hints are looked up the first time a summary is read, for every binary that needs
 * one in a single reading of dpkg's lists: a report without a summary reads no list.
 */
static void look_up_hints(struct mycl_profile *p)
{
	const char **paths = calloc(p->nr_summ, sizeof(*paths));
	char **hints = calloc(p->nr_summ, sizeof(*hints));
	size_t n = 0;

	if (paths && hints) {
		for (size_t i = 0; i < p->nr_summ; i++)
			if (p->summ_hint_pending[i])
				paths[n++] = p->summ[i].path;
		pkg_debug_hints(paths, n, hints);
	}
	n = 0;
	for (size_t i = 0; i < p->nr_summ; i++) {
		if (!p->summ_hint_pending[i])
			continue;
		p->summ_hint_pending[i] = false;
		if (paths && hints) {
			p->summ_strs[p->nr_summ + i] = hints[n++];
			p->summ[i].fix = hints[n - 1];
		}
	}
	free(paths);
	free(hints);
}

MYCL_API const struct mycl_dso_summary *mycl_profile__dso(const struct mycl_profile *p, size_t i)
{
	struct mycl_profile *w = (struct mycl_profile *)p;	/* the hints are a cache */

	if (i >= p->nr_summ)
		return NULL;
	if (p->summ_hint_pending[i])
		look_up_hints(w);
	return &p->summ[i];
}

MYCL_API uint64_t mycl_profile__unmapped(const struct mycl_profile *p)
{
	return p->unmapped;
}

MYCL_API const enum mycl_sort_key *mycl_profile__sort_keys(const struct mycl_profile *p, size_t *nr)
{
	*nr = p->nr_keys;
	return p->keys;
}

MYCL_API struct mycl_perf_data *mycl_profile__perf_data(const struct mycl_profile *p)
{
	return p->pd;
}
