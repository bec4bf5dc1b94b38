/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The flat profile as JSON, schema "mycl-hot/1" (see mycl-hot(1)). */
#include <errno.h>
#include "mycl/report.h"
#include "internal.h"
#include "json.h"
#include "report_priv.h"

/* "time_slice" when the recording was read through one: its ranges (null: open) and counts. */
static void time_slice(struct json *j, const struct mycl_perf_data *pd)
{
	const struct mycl_time_range *r;
	const struct mycl_perf_stats *st = mycl_perf_data__stats(pd);
	size_t n = mycl_perf_data__time_ranges(pd, &r);

	if (!n)
		return;
	json_begin_obj(j, "time_slice");
	json_begin_arr(j, "ranges");
	for (size_t i = 0; i < n; i++) {
		json_begin_obj(j, NULL);
		if (r[i].start)
			json_u64(j, "start_ns", r[i].start);
		else
			json_str(j, "start_ns", NULL);
		if (r[i].end != UINT64_MAX)
			json_u64(j, "end_ns", r[i].end);
		else
			json_str(j, "end_ns", NULL);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_u64(j, "samples_kept", st->nr_samples);
	json_u64(j, "samples_outside", st->nr_time_skipped);
	json_end_obj(j);
}

static void header_obj(struct json *j, const struct mycl_perf_data *pd)
{
	const struct mycl_perf_info *in = mycl_perf_data__info(pd);
	const struct mycl_perf_stats *st = mycl_perf_data__stats(pd);

	json_begin_obj(j, "header");
	json_str(j, "file", mycl_perf_data__path(pd));
	json_bool(j, "pipe_mode", in->pipe_mode);
	if (in->nr_data_files)	/* a perf record --threads directory */
		json_u64(j, "data_files", in->nr_data_files);
	json_bool(j, "byte_swapped", in->swapped);
	json_str(j, "hostname", in->hostname);
	json_str(j, "os_release", in->os_release);
	json_str(j, "arch", in->arch);
	json_u64(j, "nr_cpus_online", in->nr_cpus_online);
	json_u64(j, "nr_cpus_avail", in->nr_cpus_avail);
	json_str(j, "cpudesc", in->cpudesc);
	json_str(j, "perf_version", in->perf_version);
	json_str(j, "cmdline", in->cmdline);
	json_u64(j, "first_sample_time_ns", in->first_sample_time ? in->first_sample_time : st->first_time);
	json_u64(j, "last_sample_time_ns", in->last_sample_time ? in->last_sample_time : st->last_time);
	time_slice(j, pd);
	json_u64(j, "lost_samples", st->lost_samples);
	json_u64(j, "lost_events", st->lost_events);
	json_u64(j, "bad_records", st->nr_bad_samples);
	json_u64(j, "bad_periods", st->nr_bad_periods);
	/* SAMPLE records; a record that reads a group is a sample of each member. */
	json_u64(j, "sample_records", st->nr_sample_records);
	json_end_obj(j);
}

/* "warnings": what the recording cannot answer, with the share and the fix. */
static void warnings_arr(struct json *j, const struct mycl_profile *p)
{
	json_begin_arr(j, "warnings");
	for (size_t i = 0; i < mycl_profile__nr_warnings(p); i++) {
		const struct mycl_warning *w = mycl_profile__warning(p, i);

		json_begin_obj(j, NULL);
		json_str(j, "kind", w->kind);
		json_dbl(j, "share", w->share, 2);
		json_str(j, "message", w->message);
		json_str(j, "fix", w->fix[0] ? w->fix : NULL);
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* "ci95": where the row's share of samples lies, at 95% confidence. */
static void ci95(struct json *j, uint64_t part, uint64_t total)
{
	double lo, hi;

	mycl_share_ci95(part, total, &lo, &hi);
	json_begin_arr(j, "ci95");
	json_dbl(j, NULL, lo, 2);
	json_dbl(j, NULL, hi, 2);
	json_end_arr(j);
}

/* The row's key columns. */
static void row_keys(struct json *j, const struct mycl_hot_row *r, const enum mycl_sort_key *keys,
		     size_t nk)
{
	if (r->comm)
		json_str(j, "comm", r->comm);
	for (size_t k = 0; k < nk; k++) {
		switch (keys[k]) {
		case MYCL_SORT_PID:
			json_i64(j, "pid", r->pid);
			break;
		case MYCL_SORT_TID:
			json_i64(j, "tid", r->tid);
			break;
		case MYCL_SORT_CPU:
			if (r->cpu == UINT32_MAX)	/* not sampled */
				json_str(j, "cpu", NULL);
			else
				json_u64(j, "cpu", r->cpu);
			break;
		default:
			break;
		}
	}
	if (r->dso) {
		json_str(j, "dso", r->dso);
		json_str(j, "dso_path", r->dso_path);
	}
	if (r->level) {
		json_str(j, "symbol", r->sym);
		if (!r->sym)
			json_hex(j, "address", r->addr);
		json_str(j, "level", r->level == 'k' ? "kernel" : r->level == '.' ? "user" : "other");
	}
}

/*
 * "groups": per group of leader sampling, the members' rows side by side:
 * overhead, period and samples as arrays in member order (self, or
 * children with --children), and "ipc" where the group has cycles and
 * instructions.
 */
static int groups_arr(struct json *j, const struct mycl_profile *p, const struct mycl_report_opts *o)
{
	size_t nk, max_rows = OPTS_GET(o, max_rows, 0);
	const enum mycl_sort_key *keys = mycl_profile__sort_keys(p, &nk);
	double limit = OPTS_GET(o, percent_limit, 0.0);
	bool rel = OPTS_GET(o, relative, false), any = false;

	for (size_t e = 0; e < mycl_profile__nr_events(p); e++)
		any |= mycl_report__in_group_view(p, e, o);
	if (!any)
		return 0;	/* no group: no "groups" key */
	json_begin_arr(j, "groups");
	for (size_t e = 0; e < mycl_profile__nr_events(p); e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(p, e);
		struct mycl_group_view *g;

		if (!pe->event || (size_t)pe->event->group_leader != e ||
		    !mycl_report__in_group_view(p, e, o))
			continue;
		if (mycl_profile__group_view(p, e, &g))
			return -ENOMEM;
		json_begin_obj(j, NULL);
		json_str(j, "leader", pe->event->name);
		json_begin_arr(j, "members");
		for (size_t m = 0; m < g->nr_members; m++)
			json_str(j, NULL, mycl_profile__event(p, g->members[m])->event->name);
		json_end_arr(j);
		json_begin_arr(j, "rows");
		for (size_t i = 0; i < g->nr_rows && !(max_rows && i >= max_rows); i++) {
			const struct mycl_group_row *r = &g->rows[i];
			double ipc;

			if (limit > 0 && group_top_share(p, g, r, rel) < limit)
				continue;
			json_begin_obj(j, NULL);
			json_begin_arr(j, "overhead");
			for (size_t m = 0; m < g->nr_members; m++)
				json_dbl(j, NULL, group_share(p, g, r, m, rel), 4);
			json_end_arr(j);
			json_begin_arr(j, "period");
			for (size_t m = 0; m < g->nr_members; m++)
				json_u64(j, NULL, r->members[m] ? r->members[m]->total_period : 0);
			json_end_arr(j);
			json_begin_arr(j, "samples");
			for (size_t m = 0; m < g->nr_members; m++)
				json_u64(j, NULL, r->members[m] ? r->members[m]->total_samples : 0);
			json_end_arr(j);
			if (group_ipc(g, r, &ipc))
				json_dbl(j, "ipc", ipc, 4);
			row_keys(j, r->key, keys, nk);
			json_end_obj(j);
		}
		json_end_arr(j);
		json_end_obj(j);
		mycl_group_view__free(g);
	}
	json_end_arr(j);
	return 0;
}

MYCL_API int mycl_report__json(FILE *f, const struct mycl_profile *p, const struct mycl_report_opts *o)
{
	double limit = OPTS_GET(o, percent_limit, 0.0);
	size_t max_rows = OPTS_GET(o, max_rows, 0);
	size_t nk;
	const enum mycl_sort_key *keys = mycl_profile__sort_keys(p, &nk);
	bool children = mycl_profile__children(p);
	bool graph = OPTS_GET(o, graph, false) && mycl_profile__has_callgraph(p);
	double glimit = REPORT_GRAPH_LIMIT(o);
	const char *lat;
	struct json j;

	if (!OPTS_VALID(o, mycl_report_opts))
		return MYCL_ERR_OPTS;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-hot/1");
	json_str(&j, "overhead_base", OPTS_GET(o, relative, false) ? "kept" : "all");
	json_bool(&j, "children", children);
	lat = children ? NULL : mycl_profile__latency_method(p);
	header_obj(&j, mycl_profile__perf_data(p));
	warnings_arr(&j, p);
	json_begin_arr(&j, "sort");
	for (size_t k = 0; k < nk; k++)
		json_str(&j, NULL, mycl_sort_key_name(keys[k]));
	json_end_arr(&j);
	json_begin_arr(&j, "events");
	for (size_t e = 0; e < mycl_profile__nr_events(p); e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(p, e);

		if (!pe->event)
			continue;
		json_begin_obj(&j, NULL);
		json_str(&j, "name", pe->event->name);
		json_u64(&j, "samples", pe->nr_samples);
		json_u64(&j, "event_count", pe->total_period);
		json_u64(&j, "samples_unfiltered", pe->nr_samples_all);
		json_u64(&j, "event_count_unfiltered", pe->total_period_all);
		if (lat)
			json_str(&j, "latency_method", lat);
		json_begin_arr(&j, "rows");
		for (size_t i = 0; i < pe->nr_rows; i++) {
			const struct mycl_hot_row *r = &pe->rows[i];
			uint64_t base = OPTS_GET(o, relative, false) ? pe->total_period : pe->total_period_all;
			double pc = base ? 100.0 * (double)r->period / (double)base : 0;
			double pt = base ? 100.0 * (double)r->total_period / (double)base : 0;

			uint64_t lb = OPTS_GET(o, relative, false) ? pe->total_latency :
				      pe->total_latency_all;
			double pl = lat && lb ? 100.0 * (double)r->latency / (double)lb : 0;

			if ((children ? pt : lat ? pl : pc) < limit || (max_rows && i >= max_rows))
				break;
			json_begin_obj(&j, NULL);
			json_dbl(&j, "overhead", pc, 4);
			if (lat)
				json_dbl(&j, "latency", pl, 4);
			if (children) {
				json_dbl(&j, "children", pt, 4);
				json_u64(&j, "children_samples", r->total_samples);
				json_u64(&j, "children_period", r->total_period);
			}
			json_u64(&j, "samples", r->samples);
			json_u64(&j, "period", r->period);
			ci95(&j, children ? r->total_samples : r->samples, pe->nr_samples);
			row_keys(&j, r, keys, nk);
			if (graph) {
				struct mycl_cg_node *tree;

				if (!mycl_profile__row_graph_order(p, e, r, OPTS_GET(o, caller_order, false), &tree)) {
					report_tree_json(&j, "callers", tree, base, glimit);
					mycl_cg_node__free(tree);
				}
			}
			json_end_obj(&j);
		}
		json_end_arr(&j);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	if (groups_arr(&j, p, o))
		return -ENOMEM;
	json_u64(&j, "unmapped_samples", mycl_profile__unmapped(p));
	json_begin_arr(&j, "symbolization");
	for (size_t i = 0; i < mycl_profile__nr_dsos(p); i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(p, i);

		json_begin_obj(&j, NULL);
		json_str(&j, "dso", d->name);
		json_str(&j, "path", d->path);
		json_str(&j, "build_id", d->build_id[0] ? d->build_id : NULL);
		json_bool(&j, "kernel", d->kernel);
		json_u64(&j, "samples", d->samples);
		json_u64(&j, "unresolved", d->unresolved);
		json_str(&j, "status", d->status);
		json_str(&j, "symbol_file", d->sym_file);
		json_str(&j, "detail", d->detail);
		json_str(&j, "fix", d->fix);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	return json_finish(&j);
}
