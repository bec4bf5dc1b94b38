/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The flat profile as plain text, laid out like perf report --stdio. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "mycl/report.h"
#include "internal.h"
#include "report_priv.h"

#define COL_MAX 512

static void cell(const struct mycl_hot_row *r, enum mycl_sort_key k, char *buf, size_t len)
{
	switch (k) {
	case MYCL_SORT_COMM:
		snprintf(buf, len, "%s", str_or(r->comm, "?"));
		break;
	case MYCL_SORT_PID:
		snprintf(buf, len, "%d:%s", r->pid, str_or(r->comm, "?"));
		break;
	case MYCL_SORT_TID:
		snprintf(buf, len, "%d:%s", r->tid, str_or(r->comm, "?"));
		break;
	case MYCL_SORT_DSO:
		snprintf(buf, len, "%s", str_or(r->dso, "[unknown]"));
		break;
	case MYCL_SORT_CPU:
		/* (an event without PERF_SAMPLE_CPU beside one with it: perf's -001) */
		if (r->cpu == UINT32_MAX)
			snprintf(buf, len, "-001");
		else
			snprintf(buf, len, "%03" PRIu32, r->cpu);
		break;
	case MYCL_SORT_SYM:
		if (r->sym)
			snprintf(buf, len, "[%c] %s", r->level, r->sym);
		else
		{
			char a[300];

			snprintf(buf, len, "[%c] %s", r->level,
				 report_addr_name(a, sizeof(a), r->dso, r->addr));
		}
		break;
	default:
		buf[0] = '\0';
	}
}

static const char *const col_title[MYCL_SORT__MAX] = {
	[MYCL_SORT_COMM] = "Command", [MYCL_SORT_PID] = "Pid:Command",
	[MYCL_SORT_TID] = "Tid:Command", [MYCL_SORT_DSO] = "Shared Object",
	[MYCL_SORT_SYM] = "Symbol", [MYCL_SORT_CPU] = "CPU",
};

/* What the recording cannot answer, and the command that would. */
/* The key columns: widths from a row, titles, dots under them, a row's cells. */
static void widen(size_t *w, const struct mycl_hot_row *r, const enum mycl_sort_key *keys, size_t nk)
{
	char buf[COL_MAX];

	for (size_t k = 0; k + 1 < nk; k++) {
		cell(r, keys[k], buf, sizeof(buf));
		if (strlen(buf) > w[k])
			w[k] = strlen(buf);
	}
}

static void key_titles(FILE *f, const size_t *w, const enum mycl_sort_key *keys, size_t nk)
{
	for (size_t k = 0; k < nk; k++)
		fprintf(f, "  %-*s", k + 1 < nk ? (int)w[k] : 0, col_title[keys[k]]);
}

static void key_dots(FILE *f, const size_t *w, const enum mycl_sort_key *keys, size_t nk)
{
	for (size_t k = 0; k < nk; k++) {
		size_t dots = k + 1 < nk ? w[k] : strlen(col_title[keys[k]]);

		fputs("  ", f);
		for (size_t d = 0; d < dots; d++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

/*
 * Narrow reports (not wide): the key columns but the last at most this wide,
 * longer names shortened in the middle, so the last (the symbol) has room.
 */
#define NARROW_COL 22

static void narrow_widths(size_t *w, size_t nk, bool wide)
{
	for (size_t k = 0; k + 1 < nk && !wide; k++)
		if (w[k] > NARROW_COL)
			w[k] = NARROW_COL;
}

static void key_cells(FILE *f, const struct mycl_hot_row *r, const size_t *w,
		      const enum mycl_sort_key *keys, size_t nk)
{
	char buf[COL_MAX], sh[COL_MAX];

	for (size_t k = 0; k < nk; k++) {
		cell(r, keys[k], buf, sizeof(buf));
		if (k + 1 < nk)	/* narrowed: the middle of a longer name gives way */
			fprintf(f, "  %-*s", (int)w[k], report_mid_short(buf, w[k], sh, sizeof(sh)));
		else
			fprintf(f, "  %s", buf);
	}
	fputc('\n', f);
}

static void warnings_block(FILE *f, const struct mycl_profile *p)
{
	for (size_t i = 0; i < mycl_profile__nr_warnings(p); i++) {
		const struct mycl_warning *w = mycl_profile__warning(p, i);

		fprintf(f, "# WARNING: %s\n", w->message);
		if (w->fix[0])
			fprintf(f, "#          %s\n", w->fix);
	}
}

/* A time as perf script prints it: seconds and microseconds. */
static void print_time(FILE *f, uint64_t t, const char *open)
{
	if (!t || t == UINT64_MAX)
		fputs(open, f);
	else
		fprintf(f, "%" PRIu64 ".%06" PRIu64, t / 1000000000, t / 1000 % 1000000);
}

/* "# time slice: A to B, C to D (N of M samples)" when the recording was read through one. */
static void time_slice(FILE *f, const struct mycl_perf_data *pd)
{
	const struct mycl_time_range *r;
	const struct mycl_perf_stats *st = mycl_perf_data__stats(pd);
	size_t n = mycl_perf_data__time_ranges(pd, &r);

	if (!n)
		return;
	fputs("# time slice: ", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		print_time(f, r[i].start, "the start");
		fputs(" to ", f);
		print_time(f, r[i].end, "the end");
	}
	fprintf(f, " (%" PRIu64 " of %" PRIu64 " samples)\n", st->nr_samples,
		st->nr_samples + st->nr_time_skipped);
}

void report_text_header(FILE *f, const struct mycl_profile *p)
{
	const struct mycl_perf_data *pd = mycl_profile__perf_data(p);
	const struct mycl_perf_info *in = mycl_perf_data__info(pd);
	const struct mycl_perf_stats *st = mycl_perf_data__stats(pd);
	uint64_t first = in->first_sample_time ? in->first_sample_time : st->first_time;
	uint64_t last = in->last_sample_time ? in->last_sample_time : st->last_time;

	fprintf(f, "# mycl-hot report of %s%s\n", mycl_perf_data__path(pd),
		in->pipe_mode ? " (pipe mode)" : "");
	if (in->nr_data_files)
		fprintf(f, "# a perf record --threads directory: 'data' and %" PRIu32 " data.N files\n",
			in->nr_data_files);
	fprintf(f, "# host: %s   kernel: %s   arch: %s   CPUs: %" PRIu32 " online of %" PRIu32 "\n",
		str_or(in->hostname, "?"), str_or(in->os_release, "?"), str_or(in->arch, "?"),
		in->nr_cpus_online, in->nr_cpus_avail);
	if (in->cpudesc)
		fprintf(f, "# cpu: %s\n", in->cpudesc);
	if (in->perf_version)
		fprintf(f, "# perf version: %s\n", in->perf_version);
	if (in->cmdline)
		fprintf(f, "# command line: %s\n", in->cmdline);
	if (last > first)
		fprintf(f, "# time span: %.3f s (%" PRIu64 ".%06" PRIu64 " to %" PRIu64 ".%06" PRIu64 ")\n",
			(double)(last - first) / 1e9, first / 1000000000, first / 1000 % 1000000,
			last / 1000000000, last / 1000 % 1000000);
	time_slice(f, pd);
	fprintf(f, "# lost samples: %" PRIu64 "   lost events: %" PRIu64 "\n", st->lost_samples,
		st->lost_events);
	if (st->nr_bad_samples)
		fprintf(f, "# WARNING: %" PRIu64 " records did not decode and were skipped\n",
			st->nr_bad_samples);
	if (st->nr_bad_periods)
		fprintf(f, "# WARNING: %" PRIu64 " samples claim a period past 2^44 (the first %" PRIu64
			"), which no event gives: skipped as corrupt\n", st->nr_bad_periods,
			st->first_bad_period);
	warnings_block(f, p);
	fprintf(f, "#\n");
}

static void event_block(FILE *f, const struct mycl_profile *p, const struct mycl_profile_event *pe,
			const struct mycl_report_opts *o)
{
	size_t nk, w[MYCL_SORT__MAX] = { 0 }, shown = 0;
	const enum mycl_sort_key *keys = mycl_profile__sort_keys(p, &nk);
	double limit = OPTS_GET(o, percent_limit, 0.0);
	size_t max_rows = OPTS_GET(o, max_rows, 0);
	uint64_t base = OPTS_GET(o, relative, false) ? pe->total_period : pe->total_period_all;
	bool children = mycl_profile__children(p);
	bool graph = OPTS_GET(o, graph, false) && mycl_profile__has_callgraph(p);
	double glimit = REPORT_GRAPH_LIMIT(o);
	const char *lat = children ? NULL : mycl_profile__latency_method(p);
	uint64_t lbase = OPTS_GET(o, relative, false) ? pe->total_latency : pe->total_latency_all;

	fprintf(f, "# Event '%s': %" PRIu64 " samples, event count %" PRIu64, pe->event->name,
		pe->nr_samples, pe->total_period);
	if (pe->nr_samples != pe->nr_samples_all)
		fprintf(f, " kept by the filters, of %" PRIu64 " samples (%" PRIu64 "); overhead is "
			"of the %s", pe->nr_samples_all, pe->total_period_all,
			OPTS_GET(o, relative, false) ? "samples kept" : "whole event");
	fprintf(f, "\n");
	if (lat)
		fprintf(f, "# Latency: each sample's time over the threads running then (perf report "
			"--latency), counted %s; rows by latency\n", !strcmp(lat, "switches") ?
			"from the recording's context switches" :
			"from each CPU's latest sample, by command (no context switches recorded: "
			"perf record --switch-events)");
	fprintf(f, "#\n");
	for (size_t k = 0; k < nk; k++)
		w[k] = strlen(col_title[keys[k]]);
	for (size_t i = 0; i < pe->nr_rows; i++) {
		const struct mycl_hot_row *r = &pe->rows[i];

		if ((lat ? pct(r->latency, lbase) : pct(r->total_period, base)) < limit ||
		    (max_rows && i >= max_rows))
			break;
		widen(w, r, keys, nk);
	}
	narrow_widths(w, nk, OPTS_GET(o, wide, false));
	fprintf(f, children ? "# Children      Self   Samples" : lat ? "#  Latency  Overhead   Samples"
								: "# Overhead   Samples");
	key_titles(f, w, keys, nk);
	fprintf(f, children || lat ? "\n# ........  ........  ........" : "\n# ........  ........");
	key_dots(f, w, keys, nk);
	for (size_t i = 0; i < pe->nr_rows; i++) {
		const struct mycl_hot_row *r = &pe->rows[i];
		double pc = pct(r->total_period, base);

		if ((lat ? pct(r->latency, lbase) : pc) < limit ||
		    (max_rows && i >= max_rows))
			break;
		if (children)
			fprintf(f, "  %7.2f%%  %7.2f%%  %8" PRIu64, pc, pct(r->period, base),
				r->total_samples);
		else if (lat)
			fprintf(f, "  %7.2f%%  %7.2f%%  %8" PRIu64, pct(r->latency, lbase),
				pc, r->samples);
		else
			fprintf(f, "  %7.2f%%  %8" PRIu64, pc, r->samples);
		key_cells(f, r, w, keys, nk);
		shown++;
		if (graph) {
			struct mycl_cg_node *tree;
			size_t ev = (size_t)(pe - mycl_profile__event(p, 0));

			if (!mycl_profile__row_graph_order(p, ev, r, OPTS_GET(o, caller_order, false), &tree)) {
				report_tree_text(f, tree, base, glimit, 12);
				mycl_cg_node__free(tree);
			}
		}
	}
	if (shown < pe->nr_rows)
		fprintf(f, "#\n# %zu more rows below %.2f%%%s\n", pe->nr_rows - shown, limit,
			max_rows ? " or past the row limit" : "");
	fputs("\n", f);
}

static void group_title(FILE *f, const struct mycl_profile *p, const struct mycl_group_view *g)
{
	fputs("# Group 'anon group {", f);
	for (size_t m = 0; m < g->nr_members; m++)
		fprintf(f, "%s %s", m ? "," : "", mycl_profile__event(p, g->members[m])->event->name);
	fputs(" }' (leader sampling)\n#   samples", f);
	for (size_t m = 0; m < g->nr_members; m++)
		fprintf(f, "%s %" PRIu64, m ? "," : "", mycl_profile__event(p, g->members[m])->nr_samples);
	fputs("; event counts", f);
	for (size_t m = 0; m < g->nr_members; m++)
		fprintf(f, "%s %" PRIu64, m ? "," : "", mycl_profile__event(p, g->members[m])->total_period);
	for (size_t m = 0; m < g->nr_members; m++) {
		const struct mycl_profile_event *pe = mycl_profile__event(p, g->members[m]);

		if (pe->nr_samples == pe->nr_samples_all)
			continue;
		fputs("\n#   kept by the filters, of samples", f);
		for (size_t k = 0; k < g->nr_members; k++)
			fprintf(f, "%s %" PRIu64, k ? "," : "",
				mycl_profile__event(p, g->members[k])->nr_samples_all);
		break;
	}
	fputs("\n#\n", f);
}

/* One table for a group: each member's overhead side by side (perf report's group view). */
static void group_block(FILE *f, const struct mycl_profile *p, const struct mycl_group_view *g,
			const struct mycl_report_opts *o)
{
	size_t nk, w[MYCL_SORT__MAX] = { 0 }, shown = 0;
	const enum mycl_sort_key *keys = mycl_profile__sort_keys(p, &nk);
	double limit = OPTS_GET(o, percent_limit, 0.0);
	size_t max_rows = OPTS_GET(o, max_rows, 0);
	bool rel = OPTS_GET(o, relative, false), ipc = g->cycles >= 0 && g->instructions >= 0;
	bool children = mycl_profile__children(p);
	size_t nm = g->nr_members;

	group_title(f, p, g);
	for (size_t k = 0; k < nk; k++)
		w[k] = strlen(col_title[keys[k]]);
	for (size_t i = 0; i < g->nr_rows; i++) {
		if ((max_rows && i >= max_rows))
			break;
		widen(w, g->rows[i].key, keys, nk);
	narrow_widths(w, nk, OPTS_GET(o, wide, false));
	}
	fprintf(f, "# %s, of each member in turn:", children ? "Children" : "Overhead");
	for (size_t m = 0; m < nm; m++)
		fprintf(f, " %s", mycl_profile__event(p, g->members[m])->event->name);
	fputs(ipc ? "; IPC: instructions per cycle\n#" : "\n#", f);
	for (size_t m = 0; m < nm; m++)
		fprintf(f, "  %8s", m ? "" : children ? "Children" : "Overhead");
	fputs(ipc ? "     IPC   Samples" : "   Samples", f);
	key_titles(f, w, keys, nk);
	fputs("\n#", f);
	for (size_t m = 0; m < nm; m++)
		fputs("  ........", f);
	fputs(ipc ? "  ......  ........" : "  ........", f);
	key_dots(f, w, keys, nk);
	for (size_t i = 0; i < g->nr_rows; i++) {
		const struct mycl_group_row *r = &g->rows[i];
		double v;

		if ((limit > 0 && group_top_share(p, g, r, rel) < limit) ||
		    (max_rows && i >= max_rows))
			continue;
		fputc(' ', f);
		for (size_t m = 0; m < nm; m++)
			fprintf(f, "  %7.2f%%", group_share(p, g, r, m, rel));
		if (ipc && group_ipc(g, r, &v))
			fprintf(f, "  %6.2f", v);
		else if (ipc)
			fprintf(f, "  %6s", "-");
		fprintf(f, "  %8" PRIu64, r->members[0] ? r->members[0]->total_samples : 0);
		key_cells(f, r->key, w, keys, nk);
		shown++;
	}
	if (shown < g->nr_rows)
		fprintf(f, "#\n# %zu more rows below %.2f%% in every member%s\n", g->nr_rows - shown,
			limit, max_rows ? " or past the row limit" : "");
	fputs("\n", f);
}

MYCL_API bool mycl_report__in_group_view(const struct mycl_profile *p, size_t ev,
					 const struct mycl_report_opts *o)
{
	const struct mycl_profile_event *pe = mycl_profile__event(p, ev), *lp;
	const struct mycl_event *e = pe ? pe->event : NULL;

	if (!e || OPTS_GET(o, no_group, false))
		return false;
	lp = mycl_profile__event(p, (size_t)e->group_leader);
	return lp && lp->event && lp->event->nr_group_members > 1;
}

void report_text_summary(FILE *f, const struct mycl_profile *p)
{
	uint64_t total = mycl_profile__unmapped(p), unresolved = mycl_profile__unmapped(p);
	size_t n = mycl_profile__nr_dsos(p), events = 0;

	for (size_t i = 0; i < n; i++) {
		total += mycl_profile__dso(p, i)->samples;
		unresolved += mycl_profile__dso(p, i)->unresolved;
	}
	if (!total)
		return;
	for (size_t e = 0; e < mycl_profile__nr_events(p); e++)
		events += mycl_profile__event(p, e)->nr_samples > 0;
	/* (the binaries' counts take every event's samples: said so when there are several) */
	if (events > 1)
		fprintf(f, "# Symbolization: %.1f%% of %" PRIu64 " samples (of all %zu events) "
			"resolved to a symbol\n", pct(total - unresolved, total), total, events);
	else
		fprintf(f, "# Symbolization: %.1f%% of %" PRIu64 " samples resolved to a symbol\n",
			pct(total - unresolved, total), total);
	fprintf(f, "#\n#  Samples  No symbol  Binary\n");
	if (mycl_profile__unmapped(p))
		fprintf(f, "#  %6.2f%%    %6.2f%%  [unknown]: the address is in no known mapping\n",
			pct(mycl_profile__unmapped(p), total), pct(mycl_profile__unmapped(p), total));
	for (size_t i = 0; i < n; i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(p, i);
		char esc[1024];

		fprintf(f, "#  %6.2f%%    %6.2f%%  %s", pct(d->samples, total), pct(d->unresolved, total),
			str_escape_ctl_buf(d->kernel ? d->name : d->path, esc, sizeof(esc)));
		if (d->build_id[0])
			fprintf(f, " (build-id %s)", d->build_id);
		if (d->ok)
			fprintf(f, ": symbols from %s", str_or(d->sym_file, "?"));
		else
			fprintf(f, ": %s", d->status);
		if (d->detail && (d->unresolved || !d->ok))
			fprintf(f, "; %s", d->detail);
		if (d->fix)
			fprintf(f, "\n#                       fix: %s", d->fix);
		fputc('\n', f);
	}
	fputc('\n', f);
}

MYCL_API int mycl_report__text(FILE *f, const struct mycl_profile *p, const struct mycl_report_opts *o)
{
	size_t shown = 0;

	if (!OPTS_VALID(o, mycl_report_opts))
		return MYCL_ERR_OPTS;
	if (!OPTS_GET(o, no_header, false))
		report_text_header(f, p);
	for (size_t e = 0; e < mycl_profile__nr_events(p); e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(p, e);

		if (!pe->event || !pe->nr_samples)
			continue;
		if (mycl_report__in_group_view(p, e, o)) {
			struct mycl_group_view *g;

			if ((size_t)pe->event->group_leader != e)
				continue;	/* in its leader's table */
			if (mycl_profile__group_view(p, e, &g))
				return -ENOMEM;
			group_block(f, p, g, o);
			mycl_group_view__free(g);
		} else {
			event_block(f, p, pe, o);
		}
		shown++;
	}
	if (!shown)
		fprintf(f, "# no samples%s\n\n", mycl_perf_data__stats(mycl_profile__perf_data(p))->nr_samples ?
			" after filtering" : " in the recording");
	if (!OPTS_GET(o, no_summary, false))
		report_text_summary(f, p);
	return ferror(f) ? -EIO : 0;
}
