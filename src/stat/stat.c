/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf stat record files, read as perf stat report reads them.  Values
 * arrive per counter (event, CPU, thread) and are cumulative; a STAT_ROUND
 * closes the values read before it.  With -I each round is an interval,
 * shown as the change since the round before; without, one final round
 * holds the run.  The figures beside the counts follow perf's stat-shadow:
 * a clock's CPUs utilised against the elapsed time, other counts per second
 * of the same CPU's or thread's task-clock, GHz, instructions per cycle and
 * miss ratios against their base event.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/stat.h"
#include "internal.h"

#define PERF_TYPE_HARDWARE 0
#define PERF_TYPE_SOFTWARE 1

/* One counter's value: event, CPU, thread, as read. */
struct sv {
	int ev;
	int32_t cpu;
	uint32_t thread;
	uint64_t val, ena, run;
};

struct mycl_stat {
	struct mycl_perf_data *pd;
	struct logger log;
	struct sv *cur, *prev;		/* read since the last round; cumulative at it */
	size_t nr_cur, cap_cur, nr_prev;
	uint64_t prev_time;		/* the last round's time */
	bool rounds_seen, final_seen;
	struct mycl_stat_interval *ivs;
	size_t nr_ivs, cap_ivs;
	struct mycl_stat_interval total;
	uint64_t nr_unknown;		/* values of ids that name no event */
	int err;
};

static int sv_cmp(const void *a, const void *b)
{
	const struct sv *x = a, *y = b;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static int on_stat(const struct mycl_stat_value *v, void *ctx)
{
	struct mycl_stat *st = ctx;

	if (!v->event) {
		st->nr_unknown++;
		return 0;
	}
	if (st->nr_cur == st->cap_cur) {
		size_t cap = st->cap_cur ? st->cap_cur * 2 : 64;
		struct sv *n = realloc(st->cur, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->cur = n;
		st->cap_cur = cap;
	}
	st->cur[st->nr_cur++] = (struct sv){ .ev = v->event->idx, .cpu = v->cpu,
					     .thread = v->thread, .val = v->val, .ena = v->ena,
					     .run = v->run };
	return 0;
}

static bool per_cpu(const struct mycl_stat *st)
{
	uint32_t m = mycl_perf_data__stat_config(st->pd)->aggr_mode;

	/* socket, die, core and node need the topology: kept per CPU */
	return m == 0 || m == 2 || m == 3 || m == 4 || m == 7;
}

static bool per_thread(const struct mycl_stat *st)
{
	return mycl_perf_data__stat_config(st->pd)->aggr_mode == 5;
}

/* The index of the event named NAME, or -1. */
static int event_of(const struct mycl_stat *st, const char *name)
{
	for (size_t k = 0; k < mycl_perf_data__nr_events(st->pd); k++)
		if (!strcmp(mycl_perf_data__event(st->pd, k)->name, name))
			return (int)k;
	return -1;
}

/* The row of N rows keyed like R for event EV, or NULL. */
static struct mycl_stat_row *row_of(struct mycl_stat_row *rows, size_t n, const char *ev,
				    int32_t cpu, int32_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].cpu == cpu && rows[i].pid == pid && !strcmp(rows[i].event, ev))
			return &rows[i];
	return NULL;
}

static bool is(const struct mycl_event *e, uint32_t type, uint64_t config)
{
	return e && e->type == type && e->config == config;
}

/* The counted row of the event TYPE/CONFIG in ROWS with R's CPU and thread. */
static const struct mycl_stat_row *base_row(const struct mycl_stat *st, struct mycl_stat_row *rows,
					    size_t n, const struct mycl_stat_row *r, uint32_t type,
					    uint64_t config)
{
	for (size_t i = 0; i < mycl_perf_data__nr_events(st->pd); i++) {
		const struct mycl_event *e = mycl_perf_data__event(st->pd, i);
		const struct mycl_stat_row *b;

		if (!is(e, type, config))
			continue;
		b = row_of(rows, n, e->name, r->cpu, r->pid);
		if (b && b->counted)
			return b;
	}
	return NULL;
}

/* A clock row's ns: its value scaled by enabled/running when multiplexed. */
static double clock_ns(const struct mycl_stat_row *r)
{
	return (double)r->val * (r->run && r->run < r->ena ? (double)r->ena / (double)r->run : 1.0);
}

static void ratio(struct mycl_stat_row *r, const struct mycl_stat_row *b, const char *unit,
		  double mult)
{
	if (!b || !b->count)
		return;
	r->metric = r->count / b->count * mult;
	r->metric_unit = unit;
}

/* perf's stat-shadow figures for the rows of one interval of LENGTH ns. */
static void metrics(const struct mycl_stat *st, struct mycl_stat_row *rows, size_t n,
		    uint64_t length)
{
	for (size_t i = 0; i < n; i++) {
		struct mycl_stat_row *r = &rows[i];
		int k = event_of(st, r->event);
		const struct mycl_event *e = k < 0 ? NULL : mycl_perf_data__event(st->pd, (size_t)k);
		const struct mycl_stat_row *clock;

		if (!r->counted || !e)
			continue;
		clock = base_row(st, rows, n, r, PERF_TYPE_SOFTWARE, 1);	/* task-clock */
		if (!clock)
			clock = base_row(st, rows, n, r, PERF_TYPE_SOFTWARE, 0);	/* cpu-clock */
		if (is(e, PERF_TYPE_SOFTWARE, 0) || is(e, PERF_TYPE_SOFTWARE, 1)) {
			if (length) {
				/* the clock's ns over the elapsed ns */
				r->metric = clock_ns(r) / (double)length;
				r->metric_unit = "CPUs utilized";
			}
		} else if (is(e, PERF_TYPE_HARDWARE, 1)) {
			ratio(r, base_row(st, rows, n, r, PERF_TYPE_HARDWARE, 0), "insn per cycle", 1);
		} else if (is(e, PERF_TYPE_HARDWARE, 5)) {
			ratio(r, base_row(st, rows, n, r, PERF_TYPE_HARDWARE, 4), "% of all branches",
			      100);
		} else if (is(e, PERF_TYPE_HARDWARE, 3)) {
			ratio(r, base_row(st, rows, n, r, PERF_TYPE_HARDWARE, 2), "% of all cache refs",
			      100);
		} else if (is(e, PERF_TYPE_HARDWARE, 7) || is(e, PERF_TYPE_HARDWARE, 8)) {
			ratio(r, base_row(st, rows, n, r, PERF_TYPE_HARDWARE, 0),
			      e->config == 7 ? "frontend cycles idle" : "backend cycles idle", 100);
		} else if (is(e, PERF_TYPE_HARDWARE, 0) && clock) {
			/* cycles per ns of the clock: GHz */
			r->metric = r->count / clock_ns(clock);
			r->metric_unit = "GHz";
		} else if (clock) {
			/* per second of the clock (msec), in K/M/G as perf prints it */
			double v = r->count / (clock_ns(clock) / 1e9);

			r->metric_unit = v >= 1e9 ? "G/sec" : v >= 1e6 ? "M/sec" : v >= 1e3 ? "K/sec"
										       : "/sec";
			r->metric = v >= 1e9 ? v / 1e9 : v >= 1e6 ? v / 1e6 : v >= 1e3 ? v / 1e3 : v;
		}
	}
}

/* Per thread, perf lists each event's threads by count, largest first. */
static const struct mycl_stat *sorting;

static int thread_row_cmp(const void *a, const void *b)
{
	const struct mycl_stat_row *x = a, *y = b;
	int ex = event_of(sorting, x->event), ey = event_of(sorting, y->event);

	if (ex != ey)
		return ex < ey ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * VALUES (N, sorted) aggregated into rows as perf stat kept them apart; with
 * UNSUPPORTED, a row for each event that has no value (it could not be opened).
 */
static int make_rows(struct mycl_stat *st, const struct sv *values, size_t n, uint64_t length,
		     struct mycl_stat_interval *iv, bool unsupported)
{
	const struct mycl_stat_thread *threads;
	size_t nr_threads = mycl_perf_data__stat_threads(st->pd, &threads);
	size_t nr_events = mycl_perf_data__nr_events(st->pd);
	struct mycl_stat_row *rows = calloc(n + nr_events + 1, sizeof(*rows));
	bool scale = mycl_perf_data__stat_config(st->pd)->scale ||
		     !mycl_perf_data__stat_config(st->pd)->present;
	size_t nr = 0;

	if (!rows)
		return -ENOMEM;
	/* rows in perf's order: by event, then CPU or thread */
	for (size_t i = 0; i < n; i++) {
		const struct mycl_event *e = mycl_perf_data__event(st->pd, (size_t)values[i].ev);
		int32_t cpu = per_cpu(st) ? values[i].cpu : -1;
		int32_t pid = -1;
		const char *comm = NULL;
		struct mycl_stat_row *r;

		if (per_thread(st) && values[i].thread < nr_threads) {
			pid = threads[values[i].thread].pid;
			comm = threads[values[i].thread].comm;
		}
		r = row_of(rows, nr, e->name, cpu, pid);
		if (!r) {
			r = &rows[nr++];
			*r = (struct mycl_stat_row){ .event = e->name, .unit = e->unit, .cpu = cpu,
						     .pid = pid, .comm = comm, .supported = true };
		}
		r->val += values[i].val;
		r->ena += values[i].ena;
		r->run += values[i].run;
	}
	for (size_t i = 0; i < nr; i++) {
		struct mycl_stat_row *r = &rows[i];
		int k = event_of(st, r->event);
		const struct mycl_event *e = k < 0 ? NULL : mycl_perf_data__event(st->pd, (size_t)k);

		r->counted = r->run > 0 || (!r->ena && r->val);
		r->count = (double)r->val;
		if (scale && r->run && r->run < r->ena)	/* in whole counts, as perf's u64 */
			r->count = (double)(uint64_t)((double)r->val * (double)r->ena /
						       (double)r->run);
		if (e && e->scale)
			r->count *= e->scale;
		else if (is(e, PERF_TYPE_SOFTWARE, 0) || is(e, PERF_TYPE_SOFTWARE, 1)) {
			/* the clocks count ns, shown in msec as perf does without an EVENT_UPDATE */
			r->count /= 1e6;
			r->unit = "msec";
		}
		r->running = r->ena ? 100.0 * (double)r->run / (double)r->ena : 100.0;
	}
	for (size_t k = 0; unsupported && k < nr_events; k++) {
		const struct mycl_event *e = mycl_perf_data__event(st->pd, k);
		bool any = false;

		for (size_t i = 0; i < nr && !any; i++)
			any = !strcmp(rows[i].event, e->name);
		if (!any && e->name)
			rows[nr++] = (struct mycl_stat_row){ .event = e->name, .unit = e->unit,
							     .cpu = -1, .pid = -1, .running = 100.0 };
	}
	if (per_thread(st)) {
		sorting = st;
		qsort(rows, nr, sizeof(*rows), thread_row_cmp);
	}
	metrics(st, rows, nr, length);
	iv->rows = rows;
	iv->nr_rows = nr;
	iv->length = length;
	return 0;
}

/* A's value less B's (B: the same counter at the round before, or NULL). */
static struct sv minus(const struct sv *a, const struct sv *b)
{
	struct sv d = *a;

	if (b) {
		d.val = a->val >= b->val ? a->val - b->val : 0;
		d.ena = a->ena >= b->ena ? a->ena - b->ena : 0;
		d.run = a->run >= b->run ? a->run - b->run : 0;
	}
	return d;
}

/* The values read since the last round, merged into the cumulative ones. */
static int settle(struct mycl_stat *st)
{
	struct sv *m = malloc((st->nr_prev + st->nr_cur + 1) * sizeof(*m));
	size_t i = 0, j = 0, k = 0;

	if (!m)
		return -ENOMEM;
	if (st->nr_cur)
		qsort(st->cur, st->nr_cur, sizeof(*st->cur), sv_cmp);
	while (i < st->nr_prev || j < st->nr_cur) {
		int c = i == st->nr_prev ? 1 : j == st->nr_cur ? -1 : sv_cmp(&st->prev[i], &st->cur[j]);

		if (c < 0)
			m[k++] = st->prev[i++];
		else if (c > 0)
			m[k++] = st->cur[j++];
		else {
			m[k++] = st->cur[j++];
			i++;
		}
		/* a counter read twice in one round: its last value */
		while (j < st->nr_cur && k && !sv_cmp(&m[k - 1], &st->cur[j]))
			m[k - 1] = st->cur[j++];
	}
	free(st->prev);
	st->prev = m;
	st->nr_prev = k;
	return 0;
}

static int on_round(const struct mycl_stat_round *r, void *ctx)
{
	struct mycl_stat *st = ctx;
	struct mycl_stat_interval iv = { .time = r->time };
	struct sv *d;
	size_t n = 0;
	int err;

	st->rounds_seen = true;
	if (r->final) {
		st->final_seen = true;
		err = settle(st);
		st->nr_cur = 0;
		st->total.time = r->time;
		return err;
	}
	/* an interval: each counter's change since the round before */
	if (st->nr_cur)
		qsort(st->cur, st->nr_cur, sizeof(*st->cur), sv_cmp);
	d = malloc((st->nr_cur + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < st->nr_cur; i++) {
		const struct sv *b = st->nr_prev ? bsearch(&st->cur[i], st->prev, st->nr_prev,
							   sizeof(*st->prev), sv_cmp) : NULL;

		if (n && !sv_cmp(&d[n - 1], &st->cur[i]))
			n--;
		d[n++] = minus(&st->cur[i], b);
	}
	if (st->nr_ivs == st->cap_ivs) {
		size_t cap = st->cap_ivs ? st->cap_ivs * 2 : 16;
		struct mycl_stat_interval *nv = realloc(st->ivs, cap * sizeof(*nv));

		if (!nv) {
			free(d);
			return -ENOMEM;
		}
		st->ivs = nv;
		st->cap_ivs = cap;
	}
	err = make_rows(st, d, n, r->time > st->prev_time ? r->time - st->prev_time : 0, &iv,
			false);
	free(d);
	if (err)
		return err;
	st->ivs[st->nr_ivs++] = iv;
	st->prev_time = r->time;
	st->total.time = r->time;
	err = settle(st);
	st->nr_cur = 0;
	return err;
}

MYCL_API int mycl_stat__build(struct mycl_perf_data *pd, const struct mycl_stat_opts *opts,
			      struct mycl_stat **out)
{
	struct mycl_record_ops ops = { .sz = sizeof(ops), .stat = on_stat, .stat_round = on_round };
	struct mycl_stat *st;
	int err;

	error_clear();
	if (!OPTS_VALID(opts, mycl_stat_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->pd = pd;
	st->log.print = OPTS_GET(opts, print, NULL);
	st->log.ctx = OPTS_GET(opts, print_ctx, NULL);
	err = mycl_perf_data__read(pd, &ops, st);
	/* values after the last round (-I writes the final counts without one) close the run */
	if (!err && st->nr_cur)
		err = settle(st);
	if (!err && !st->nr_prev)
		err = MYCL_ERR_NO_SAMPLES;
	if (!err)
		err = make_rows(st, st->prev, st->nr_prev, st->total.time, &st->total, true);
	if (!err && !st->rounds_seen)
		mycl_log(&st->log, MYCL_WARN, "%s: no STAT_ROUND record: perf stat was stopped "
			 "before it wrote the elapsed time; counts shown without rates",
			 mycl_perf_data__path(pd));
	if (!err && st->nr_unknown)
		mycl_log(&st->log, MYCL_WARN, "%s: %" PRIu64 " counter values name no event of the "
			 "header: left out", mycl_perf_data__path(pd), st->nr_unknown);
	if (!err && per_cpu(st) && mycl_perf_data__stat_config(pd)->aggr_mode != 0)
		mycl_log(&st->log, MYCL_WARN, "%s: recorded per socket, die, core or node: shown "
			 "per CPU (perf stat report -i FILE --per-socket groups them)",
			 mycl_perf_data__path(pd));
	if (err) {
		mycl_stat__free(st);
		return err;
	}
	*out = st;
	return 0;
}

MYCL_API void mycl_stat__free(struct mycl_stat *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr_ivs; i++)
		free((void *)st->ivs[i].rows);
	free(st->ivs);
	free((void *)st->total.rows);
	free(st->cur);
	free(st->prev);
	free(st);
}

MYCL_API struct mycl_perf_data *mycl_stat__perf_data(const struct mycl_stat *st)
{
	return st->pd;
}

MYCL_API const struct mycl_stat_interval *mycl_stat__total(const struct mycl_stat *st)
{
	return &st->total;
}

MYCL_API size_t mycl_stat__nr_intervals(const struct mycl_stat *st)
{
	return st->nr_ivs;
}

MYCL_API const struct mycl_stat_interval *mycl_stat__interval(const struct mycl_stat *st, size_t i)
{
	return i < st->nr_ivs ? &st->ivs[i] : NULL;
}

MYCL_API const char *mycl_stat__aggregation(const struct mycl_stat *st)
{
	return per_thread(st) ? "thread" : per_cpu(st) ? "cpu" : "global";
}
