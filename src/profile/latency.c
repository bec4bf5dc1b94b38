/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Wall-clock time: each sample weighted by 1/(threads running at that
 * moment), perf report --latency's definition (tools/perf, cpu-and-latency-
 * overheads.txt): a function that runs alone for 9 s and one that runs on
 * 128 threads for 1 s take 90% and 10% of the latency, 6.6% and 93.4% of
 * the CPU time.  How many threads run is known two ways:
 *   switches  the recording's context-switch records (perf record
 *             --switch-events, or --latency on perf 6.15+) of the recorded
 *             tasks: one more on a switch in, one less on a switch out or an
 *             exit (perf's count; kept within 1 and the CPUs), each thread
 *             counted from its first record or sample (set_on());
 *   samples   without them, per CPU the command of its latest sample: a
 *             program runs on the CPUs whose latest sample, within two of
 *             the event's sampling intervals, was of its command (processes
 *             of one name count together, as PostgreSQL's backends serve one
 *             server; perf's proposal counts per process); a sample of the
 *             idle task weighs nothing.  This needs the CPU in each sample.
 * Both are counted while reading; the switches are used when there are any
 * (and they are not -a's CPU-wide switches, which perf does not use either).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perf_abi.h"
#include "profile_state.h"

#define MAX_LEVEL 4096
#define WINDOW_DEFAULT 10000000ULL	/* 10 ms, for events with no nominal interval */

struct cpu_now {
	const char *comm;		/* interned: compared by pointer */
	uint64_t time;
	bool idle;
};

/* A thread's state by its switch records and samples: on a CPU or not. */
struct tstate {
	int32_t tid;
	bool on;
};

struct latency_state {
	int64_t running;		/* the switch count */
	struct tstate *threads;		/* found through threads_index, by tid */
	size_t nr_threads, cap_threads;
	struct itable threads_index;
	bool switches, cpu_wide, cpus;
	struct cpu_now *now;		/* per CPU number */
	size_t nr_now;
	struct hist by_switch, by_sample;	/* each row's latency (period * 1000 / threads) */
	struct mycl_parallelism *lv_switch, *lv_sample;	/* per event, MAX_LEVEL + 1 levels */
	size_t nr_ev;
	uint32_t nr_cpus;
	int method;			/* after the read: 0 none, 1 switches, 2 samples */
	/* the sample being read, by both counts: threads running, weight */
	uint32_t cur_n[2];
	uint64_t cur_w[2];
	uint64_t *all[2];		/* per event: every sample's weight, filtered or not */
};

int latency_init(struct mycl_profile *p)
{
	const struct mycl_perf_info *in = mycl_perf_data__info(p->pd);

	p->lat = calloc(1, sizeof(*p->lat));
	if (!p->lat)
		return -ENOMEM;
	p->lat->running = 0;	/* each thread counted from its first switch or sample */
	p->lat->nr_cpus = in->nr_cpus_avail ? in->nr_cpus_avail : in->nr_cpus_online;
	if (!p->lat->nr_cpus)
		p->lat->nr_cpus = 1;
	return 0;
}

static uint64_t tid_hash(int32_t tid)
{
	return (size_t)tid * 2654435761u;
}

static bool tid_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = tid_hash(((const struct latency_state *)ctx)->threads[i].tid);
	return true;
}

/* TID's state, made (off) on first use; NULL without memory or for tid < 0. */
static struct tstate *thread_state(struct latency_state *l, int32_t tid)
{
	size_t h;

	if (tid < 0)
		return NULL;
	if (itable_full(&l->threads_index, l->nr_threads) &&
	    itable_grow(&l->threads_index, l->nr_threads, 256, tid_hash_at, l))
		return NULL;
	itable_each(&l->threads_index, tid_hash(tid), h)
		if (l->threads[l->threads_index.slot[h]].tid == tid)
			return &l->threads[l->threads_index.slot[h]];
	if (ARRAY_GROW(l->threads, l->cap_threads, l->nr_threads + 1))
		return NULL;
	l->threads[l->nr_threads] = (struct tstate){ .tid = tid };
	itable_put(&l->threads_index, h, l->nr_threads);
	return &l->threads[l->nr_threads++];
}

/*
 * A thread counts from its first record: on a switch in, or a sample (it
 * runs); a switch out or an exit of a counted thread ends it.  perf starts
 * its count at 1 (the command it launched), which a server recorded with -p
 * whose threads sleep at the start makes one too high all along; counted per
 * thread, a launched command's first thread is counted by its first sample.
 */
static void set_on(struct latency_state *l, int32_t tid, bool on)
{
	struct tstate *t = thread_state(l, tid);

	if (!t) {
		/* no tid (or memory): perf's count */
		l->running += on ? 1 : -1;
		return;
	}
	if (t->on != on)
		l->running += on ? 1 : -1;
	t->on = on;
}

void latency_switch(struct mycl_profile *p, const struct mycl_context_switch *sw)
{
	if (!p->lat)
		return;
	p->lat->switches = true;
	p->lat->cpu_wide |= sw->cpu_wide;
	set_on(p->lat, sw->tid, !sw->out);
}

void latency_exit(struct mycl_profile *p, int32_t tid)
{
	/* no switch out comes before an exit */
	if (p->lat)
		set_on(p->lat, tid, false);
}

/* The event's nominal time between two samples on a CPU, in ns. */
static uint64_t interval(const struct mycl_event *e)
{
	if (e->freq && e->sample_period_or_freq)
		return 1000000000ULL / e->sample_period_or_freq;
	if (e->type == 1 && (e->config == 0 || e->config == 1) && e->sample_period_or_freq)
		return e->sample_period_or_freq;	/* cpu-clock, task-clock: ns */
	return WINDOW_DEFAULT / 2;
}

static struct mycl_parallelism *level(struct mycl_parallelism *lv, size_t ev, uint32_t n)
{
	return &lv[ev * (MAX_LEVEL + 1) + (n > MAX_LEVEL ? MAX_LEVEL : n)];
}

static int grow(struct latency_state *l, size_t ev)
{
	size_t n = ev + 1, sz = (MAX_LEVEL + 1) * sizeof(struct mycl_parallelism);
	struct mycl_parallelism *a, *b;

	if (ev < l->nr_ev)
		return 0;
	a = realloc(l->lv_switch, n * sz);
	if (!a)
		return -ENOMEM;
	l->lv_switch = a;
	b = realloc(l->lv_sample, n * sz);
	if (!b)
		return -ENOMEM;
	l->lv_sample = b;
	for (int m = 0; m < 2; m++) {
		uint64_t *t = realloc(l->all[m], n * sizeof(*t));

		if (!t)
			return -ENOMEM;
		memset(t + l->nr_ev, 0, (n - l->nr_ev) * sizeof(*t));
		l->all[m] = t;
	}
	memset((char *)a + l->nr_ev * sz, 0, (n - l->nr_ev) * sz);
	memset((char *)b + l->nr_ev * sz, 0, (n - l->nr_ev) * sz);
	for (size_t e = l->nr_ev; e < n; e++)
		for (uint32_t k = 0; k <= MAX_LEVEL; k++) {
			a[e * (MAX_LEVEL + 1) + k].parallelism = k;
			b[e * (MAX_LEVEL + 1) + k].parallelism = k;
		}
	l->nr_ev = n;
	return 0;
}

static void count(struct mycl_parallelism *lv, uint64_t period, uint64_t weight)
{
	lv->samples++;
	lv->period += period;
	lv->latency += weight;
}

/*
 * Every sample, kept by the filters or not: the threads running now by
 * both counts, its weights, and the event's totals (the base of absolute
 * shares); latency_sample() then files a kept sample under its row.
 */
int latency_observe(struct mycl_profile *p, const struct mycl_sample *s, const char *comm)
{
	struct latency_state *l = p->lat;
	size_t ev = (size_t)s->event->idx;
	uint32_t n;
	int err;

	if (!l)
		return 0;
	err = grow(l, ev);
	if (err)
		return err;
	/* by the switches: the sampled thread runs */
	if (s->tid >= 0) {
		struct tstate *t = thread_state(l, s->tid);

		if (t && !t->on) {
			t->on = true;
			l->running++;
		}
	}
	n = l->running < 1 ? 1 : l->running > l->nr_cpus ? l->nr_cpus : (uint32_t)l->running;
	l->cur_n[0] = n;
	l->cur_w[0] = s->period * 1000 / n;
	l->all[0][ev] += l->cur_w[0];
	/* by the samples per CPU */
	l->cur_n[1] = UINT32_MAX;
	if (!(s->sample_type & S_CPU) || s->cpu >= 65536)
		return 0;
	l->cpus = true;
	if (s->cpu >= l->nr_now) {
		size_t nn = (size_t)s->cpu + 1;
		struct cpu_now *now = realloc(l->now, nn * sizeof(*now));

		if (!now)
			return -ENOMEM;
		for (size_t i = l->nr_now; i < nn; i++)
			now[i] = (struct cpu_now){ .idle = true };
		l->now = now;
		l->nr_now = nn;
	}
	l->now[s->cpu] = (struct cpu_now){ .comm = comm, .time = s->time, .idle = s->pid <= 0 };
	n = 0;
	if (s->pid > 0) {
		uint64_t window = 2 * interval(s->event);

		for (size_t c = 0; c < l->nr_now; c++)
			n += !l->now[c].idle && l->now[c].comm == comm &&
			     s->time - l->now[c].time <= window;
	}
	l->cur_n[1] = n;
	l->cur_w[1] = n ? s->period * 1000 / n : 0;	/* the idle task: no wall-clock time of its own */
	l->all[1][ev] += l->cur_w[1];
	return 0;
}

int latency_sample(struct mycl_profile *p, const struct mycl_sample *s, const struct hent *k)
{
	struct latency_state *l = p->lat;
	size_t ev = (size_t)s->event->idx;
	int err;

	if (!l)
		return 0;
	err = hist_add(&l->by_switch, k, l->cur_w[0], 1, NULL);
	if (err)
		return err;
	count(level(l->lv_switch, ev, l->cur_n[0]), s->period, l->cur_w[0]);
	if (l->cur_n[1] == UINT32_MAX)
		return 0;
	err = hist_add(&l->by_sample, k, l->cur_w[1], 1, NULL);
	if (!err)
		count(level(l->lv_sample, ev, l->cur_n[1]), s->period, l->cur_w[1]);
	return err;
}

void latency_settle(struct mycl_profile *p)
{
	struct latency_state *l = p->lat;

	if (!l)
		return;
	l->method = l->switches && !l->cpu_wide ? 1 : l->cpus ? 2 : 0;
}

uint64_t latency_of(const struct mycl_profile *p, const struct hent *k)
{
	const struct latency_state *l = p->lat;
	const struct hent *e;

	if (!l || !l->method)
		return 0;
	e = hist_find(l->method == 1 ? &l->by_switch : &l->by_sample, k);
	return e ? e->period : 0;
}

void latency_free(struct mycl_profile *p)
{
	if (!p->lat)
		return;
	hist_free(&p->lat->by_switch);
	hist_free(&p->lat->by_sample);
	free(p->lat->lv_switch);
	free(p->lat->lv_sample);
	free(p->lat->now);
	free(p->lat->threads);
	itable_free(&p->lat->threads_index);
	free(p->lat->all[0]);
	free(p->lat->all[1]);
	free(p->lat);
}

MYCL_API const char *mycl_profile__latency_method(const struct mycl_profile *p)
{
	if (!p->lat)
		return NULL;
	return p->lat->method == 1 ? "switches" : p->lat->method == 2 ? "samples" : NULL;
}

uint64_t latency_all(const struct mycl_profile *p, size_t ev)
{
	const struct latency_state *l = p->lat;

	return l && l->method && ev < l->nr_ev ? l->all[l->method - 1][ev] : 0;
}

MYCL_API size_t mycl_profile__parallelism(const struct mycl_profile *p, size_t ev,
					  const struct mycl_parallelism **levels)
{
	const struct latency_state *l = p->lat;

	*levels = NULL;
	if (!l || !l->method || ev >= l->nr_ev)
		return 0;
	*levels = (l->method == 1 ? l->lv_switch : l->lv_sample) + ev * (MAX_LEVEL + 1);
	return MAX_LEVEL + 1;
}
