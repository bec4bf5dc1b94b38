/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-hot: where the time goes in a perf recording. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "opts.h"

/* Built with AddressSanitizer (gcc says so by a macro, clang by a feature). */
#if defined(__SANITIZE_ADDRESS__)
#define TOOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOOL_ASAN 1
#endif
#endif


/* --locks: the lock report of each event with samples; else the short section. */
static int lock_reports(FILE *out, const struct mycl_profile *prof, bool full, bool json,
			double limit)
{
	bool first = true;
	int err = 0;

	if (json)
		fputs("[", out);
	for (size_t e = 0; e < mycl_profile__nr_events(prof) && !err; e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(prof, e);
		struct mycl_lock_report *r;

		if (!pe->event || !pe->nr_samples)
			continue;
		err = full ? mycl_profile__locks(prof, e, &r) :
			     mycl_profile__lock_summary(prof, e, NULL, &r);
		if (err)
			break;
		if (json) {
			if (!first)
				fputc(',', out);
			err = mycl_report__locks_json(out, r, limit);
		} else if (full) {
			err = mycl_report__locks_text(out, r, limit);
		} else if (r->samples) {
			fprintf(out, "# Lock and spin primitives in '%s': %.2f%% of the samples\n",
				pe->event->name, r->total_period ?
				100.0 * (double)r->period / (double)r->total_period : 0.0);
			for (size_t i = 0; i < r->nr_primitives && i < 5; i++)
				fprintf(out, "#   %7.2f%%  %-40s %-8s %s\n",
					100.0 * (double)r->primitives[i].period / (double)r->total_period,
					r->primitives[i].name, r->primitives[i].layer, r->primitives[i].kind);
			fprintf(out, "# Lock sites, with the code that takes each lock: mycl-hot --locks\n\n");
		}
		first = false;
		mycl_lock_report__free(r);
	}
	if (full && !err) {
		struct mycl_wait_report *w;

		if (!mycl_profile__waits(prof, &w)) {
			if (json) {
				fputs(first ? "" : ",", out);
				err = mycl_report__waits_json(out, w, limit);
			} else {
				err = mycl_report__waits_text(out, w, limit);
			}
			mycl_wait_report__free(w);
		}
	}
	if (json)
		fputs("]\n", out);
	return err;
}

/* --annotate: the N hottest functions with code of each event, or the one named. */
static int annotations(FILE *out, const struct mycl_profile *prof, int n, const char *sym,
		       int context, bool json, const struct mycl_annotate_opts *ao)
{
	bool first = true, found = false;
	int err = 0;

	if (json)
		fputs("[", out);
	for (size_t e = 0; e < mycl_profile__nr_events(prof) && !err; e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(prof, e);
		int done = 0;

		if (!pe->event || !pe->nr_samples)
			continue;
		for (size_t i = 0; i < pe->nr_rows && !err && (sym || done < n); i++) {
			const struct mycl_hot_row *r = &pe->rows[i];
			struct mycl_annotation *a;

			/* The N hottest: user code; a function named: whatever it is, or why not. */
			if (!r->sym || (sym && strcmp(r->sym, sym)) || (!sym && r->level != '.') ||
			    !r->samples)
				continue;
			err = mycl_profile__annotate(prof, e, r, ao, &a);
			if (err)
				break;
			if (json) {
				if (!first)
					fputc(',', out);
				err = mycl_report__annotation_json(out, a);
			} else {
				err = mycl_report__annotation_text(out, a, context);
			}
			first = false;
			found = true;
			mycl_annotation__free(a);
			done++;
		}
	}
	if (json)
		fputs("]\n", out);
	return err ? err : (sym && !found ? -ENOENT : 0);
}

static int parse_sort(const char *list, enum mycl_sort_key *keys, size_t *nr)
{
	char buf[256], *tok, *save = NULL;

	if (strspn(list, ", ") == strlen(list)) {
		fprintf(stderr, "mycl-hot: --sort needs at least one key of comm,pid,tid,dso,sym,cpu\n");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	*nr = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = mycl_sort_key_parse(tok);

		if (k < 0 || *nr >= MYCL_SORT__MAX) {
			fprintf(stderr, "mycl-hot: unknown sort key '%s' (use comm,pid,tid,dso,sym,cpu)\n",
				tok);
			return -1;
		}
		keys[(*nr)++] = (enum mycl_sort_key)k;
	}
	return *nr ? 0 : -1;
}

/*
 * --sort type, typeoff or both (perf's keys): 1 for types, 2 for their
 * members; 0 for other keys; -1 (said) when mixed with them.
 */
/* --sort parallelism: 3 alone; -1 (said) mixed with other keys; 0 otherwise. */
static int parallelism_sort(const char *list)
{
	if (!strstr(list, "parallelism"))
		return 0;
	if (strcmp(list, "parallelism")) {
		fprintf(stderr, "mycl-hot: --sort parallelism is a view of its own (samples by the "
			"threads running at the time): give it without the other keys of %s\n", list);
		return -1;
	}
	return 3;
}

/* --sort parallelism: each event's samples by the threads running then, by latency. */
static int parallelism_views(FILE *out, const struct mycl_profile *prof, bool json)
{
	const char *how = mycl_profile__latency_method(prof);

	if (json)
		fprintf(out, "{\"schema\": \"mycl-parallelism/1\", \"method\": \"%s\", \"events\": [",
			how);
	for (size_t e = 0, n = 0; e < mycl_profile__nr_events(prof); e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(prof, e);
		const struct mycl_parallelism *lv, *order[4097];
		size_t nl = mycl_profile__parallelism(prof, e, &lv), k = 0;
		uint64_t lat = 0;

		if (!pe->event || !pe->nr_samples || !nl)
			continue;
		for (size_t i = 0; i < nl && i < 4097; i++)
			if (lv[i].samples) {
				order[k++] = &lv[i];
				lat += lv[i].latency;
			}
		/* by latency, largest first (a handful of levels: insertion) */
		for (size_t i = 1; i < k; i++)
			for (size_t j = i; j > 0 && order[j]->latency > order[j - 1]->latency; j--) {
				const struct mycl_parallelism *t = order[j];

				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		if (json) {
			fprintf(out, "%s{\"event\": ", n++ ? ", " : "");
			cli_json_string(out, pe->event->name);
			fputs(", \"levels\": [", out);
			for (size_t i = 0; i < k; i++)
				fprintf(out, "%s{\"parallelism\": %u, \"samples\": %" PRIu64 ", "
					"\"overhead\": %.4f, \"latency\": %.4f}", i ? ", " : "",
					order[i]->parallelism, order[i]->samples,
					100.0 * (double)order[i]->period / (double)pe->total_period,
					lat ? 100.0 * (double)order[i]->latency / (double)lat : 0.0);
			fputs("]}", out);
			continue;
		}
		fprintf(out, "# Event '%s': %" PRIu64 " samples by the threads running at the time "
			"(perf's parallelism), counted %s\n#\n#  Latency  Overhead   Samples  "
			"Parallelism\n# ........  ........  ........  ...........\n", pe->event->name,
			pe->nr_samples, !strcmp(how, "switches") ? "from the context switches" :
			"from each CPU's latest sample");
		for (size_t i = 0; i < k; i++)
			fprintf(out, "  %7.2f%%  %7.2f%%  %8" PRIu64 "  %u%s\n",
				lat ? 100.0 * (double)order[i]->latency / (double)lat : 0.0,
				100.0 * (double)order[i]->period / (double)pe->total_period,
				order[i]->samples, order[i]->parallelism,
				order[i]->parallelism == 0 ? " (the idle task)" :
				order[i]->parallelism == 4096 ? " or more" : "");
		fputc('\n', out);
	}
	if (json)
		fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}

static int types_sort(const char *list)
{
	char buf[256], *tok, *save = NULL;
	int types = 0, others = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "type"))
			types = types > 1 ? types : 1;
		else if (!strcmp(tok, "typeoff"))
			types = 2;
		else
			others++;
	}
	if (types && others) {
		fprintf(stderr, "mycl-hot: --sort type and typeoff are a view of their own (the data "
			"types the sampled instructions touch): give them without %s\n", list);
		return -1;
	}
	return types;
}

/* --sort type, typeoff: the data types of each event with samples (or the one chosen). */
static int types_views(FILE *out, const struct mycl_profile *prof, bool by_member, bool json,
		       double percent_limit)
{
	bool first = true;
	int err = 0;

	if (json)
		fputs("[", out);
	for (size_t e = 0; e < mycl_profile__nr_events(prof) && !err; e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(prof, e);
		struct mycl_data_types *t;

		if (!pe->event || !pe->nr_samples)
			continue;
		err = mycl_profile__data_types(prof, e, by_member, &t);
		if (err)
			break;
		if (json && !first)
			fputc(',', out);
		err = json ? mycl_report__data_types_json(out, t) :
			     mycl_report__data_types_text(out, t, percent_limit);
		mycl_data_types__free(t);
		first = false;
	}
	if (json)
		fputs("]\n", out);
	return err;
}

/* --callers/--callees SYM, --folded: for each event with samples (or the one chosen). */
static int special_views(FILE *out, const struct mycl_profile *prof, const char *sym, bool callees,
			 bool folded, bool json, const struct mycl_report_opts *ro)
{
	int err = -ENOENT;
	bool any = false;

	for (size_t e = 0; e < mycl_profile__nr_events(prof); e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(prof, e);
		struct mycl_cg_node *tree;
		int rc;

		if (!pe->event || !pe->nr_samples)
			continue;
		if (folded) {
			/* One event only: stacks of different events do not add up. */
			return mycl_report__folded(out, prof, e, false);
		}
		rc = mycl_profile__symbol_graph(prof, e, sym, callees, &tree);
		if (rc == -ENOENT)
			continue;
		if (rc)
			return rc;
		if (any && !json)
			fputc('\n', out);
		rc = json ? mycl_report__graph_json(out, prof, e, tree, callees, ro)
			  : mycl_report__graph_text(out, prof, e, tree, callees, ro);
		mycl_cg_node__free(tree);
		if (rc)
			return rc;
		any = true;
		err = 0;
	}
	return folded ? 0 : err;
}

#define P "mycl-hot"

/*
 * The event an export of one event shows (OPT, "shows"/"writes" VERB): the
 * first with samples, the one --event chose; said when there are several.
 * SIZE_MAX, said, when none has samples.
 */
static size_t pick_event(const struct mycl_profile *prof, const char *opt, const char *verb)
{
	size_t ev = SIZE_MAX, with = 0;

	for (size_t e = 0; e < mycl_profile__nr_events(prof); e++) {
		const struct mycl_profile_event *pe = mycl_profile__event(prof, e);

		if (!pe->event || !pe->nr_samples)
			continue;
		if (ev == SIZE_MAX)
			ev = e;
		with++;
	}
	if (ev == SIZE_MAX)
		fprintf(stderr, P ": %s: no event has samples\n", opt);
	else if (with > 1)
		fprintf(stderr, P ": %s %s '%s', the first of %zu events with samples (choose one "
			"with --event NAME)\n", opt, verb, mycl_profile__event(prof, ev)->event->name,
			with);
	return ev;
}

/* --html FILE: the page of the first event with samples; 0, or the exit code once said. */
static int write_html(const char *path, const struct mycl_profile *prof,
		      const struct mycl_annotate_opts *ao)
{
	char title[600];
	MYCL_OPTS(mycl_html_opts, ho, .title = title, .annotate = 3, .annotate_opts = ao);
	size_t ev = pick_event(prof, "--html", "shows");
	FILE *f;
	int err;

	if (ev == SIZE_MAX)
		return EXIT_NOTHING;
	snprintf(title, sizeof(title), "mycl-hot: %s",
		 mycl_perf_data__path(mycl_profile__perf_data(prof)));
	f = cli_open_output(path);
	if (!f) {
		fprintf(stderr, P ": cannot write %s: %s\n", path, strerror(errno));
		return EXIT_INTERNAL;
	}
	err = mycl_report__html(f, prof, ev, &ho);
	return cli_finish_file(P, f, "the page", path, err);
}

/* --format pprof: binary, so not through the escaping stream; to -o FILE or stdout. */
static int write_pprof(const char *path, const struct mycl_profile *prof)
{
	MYCL_OPTS(mycl_pprof_opts, po);
	size_t ev = pick_event(prof, "--format pprof", "writes");
	FILE *f;
	int err, fd;

	if (ev == SIZE_MAX)
		return EXIT_NOTHING;
	fflush(stdout);
	f = path ? cli_create(path, "wb") : (fd = dup(1)) >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		fprintf(stderr, P ": cannot write %s: %s\n", path ? path : "standard output",
			strerror(errno));
		return EXIT_INTERNAL;
	}
	err = mycl_report__pprof(f, prof, ev, &po);
	return cli_finish_file(P, f, "the pprof profile", path, err);
}

/*
 * --flamegraph FILE: the first event with samples (the one --event chose); 0,
 * or the exit code once said.
 */
static int write_flame(const char *path, const struct mycl_profile *prof)
{
	MYCL_OPTS(mycl_flame_opts, fo);
	size_t ev = pick_event(prof, "--flamegraph", "shows");
	FILE *f;
	int err;

	if (ev == SIZE_MAX)
		return EXIT_NOTHING;
	f = cli_open_output(path);
	if (!f) {
		fprintf(stderr, P ": cannot write %s: %s\n", path, strerror(errno));
		return EXIT_INTERNAL;
	}
	err = mycl_report__flamegraph(f, prof, ev, &fo);
	return cli_finish_file(P, f, "the flame graph", path, err);
}

/*
 * Views that cannot be shown together are refused here, never one of them
 * silently dropped.  -g, --children and --annotate add to the flat profile;
 * --locks, --callers/--callees and --folded are reports of their own.
 */
static int check_modes(const struct mycl_profile_opts *o, bool g, const char *graph_sym,
		       bool callees, bool folded, bool ann, bool ann_context, bool glimit, int group,
		       bool json, const struct mycl_report_opts *ro, const char *flame,
		       const char *html, const char *output, bool pprof)
{
	const char *gs = callees ? "--callees" : "--callers";
	bool locks = o->locks;

	if (cli_conflict(P, locks, "--locks", ann, "--annotate",
			 "the lock report names its hot sites; annotate one with --annotate=SYM") ||
	    cli_conflict(P, locks, "--locks", folded, "--folded",
			 "folded stacks are of the whole profile; run them apart") ||
	    cli_conflict(P, locks, "--locks", o->children, "--children",
			 "lock sites are counted by their own time; drop --children") ||
	    cli_conflict(P, locks, "--locks", g, "-g",
			 "the lock report has no rows to hang call graphs on") ||
	    cli_conflict(P, locks, "--locks", graph_sym != NULL, gs, "run them apart") ||
	    cli_conflict(P, folded, "--folded", o->children, "--children",
			 "folded stacks count each sample once, in its own stack") ||
	    cli_conflict(P, folded, "--folded", json, "--format json",
			 "folded stacks are a text format of their own") ||
	    cli_conflict(P, folded, "--folded", g, "-g", "folded stacks already hold the call paths") ||
	    cli_conflict(P, folded, "--folded", ann, "--annotate", "run them apart") ||
	    cli_conflict(P, folded, "--folded", graph_sym != NULL, gs, "run them apart") ||
	    cli_conflict(P, folded, "--folded", ro->percent_limit > 0, "--percent-limit",
			 "folded stacks list every path") ||
	    cli_conflict(P, folded, "--folded", ro->max_rows > 0, "--max-rows",
			 "folded stacks list every path") ||
	    cli_conflict(P, graph_sym != NULL, gs, o->children, "--children",
			 "the tree is weighted by the time spent in and under the symbol already") ||
	    cli_conflict(P, graph_sym != NULL, gs, g, "-g", "the tree is the call graph") ||
	    cli_conflict(P, graph_sym != NULL, gs, ann, "--annotate", "run them apart") ||
	    cli_conflict(P, group == 1, "--group", g, "-g",
			 "the group view is a flat table; use --no-group for call graphs per event") ||
	    cli_conflict(P, group == 1, "--group", o->event != NULL, "--event",
			 "the group view shows every member; --no-group shows one event") ||
	    cli_conflict(P, group == 1, "--group", folded || graph_sym || locks,
			 folded ? "--folded" : graph_sym ? gs : "--locks",
			 "that view is of one event at a time (--event NAME)"))
		return -1;
	if (pprof && (cli_conflict(P, true, "--format pprof", locks, "--locks",
				   "pprof holds call paths, not the lock report; run them apart") ||
		      cli_conflict(P, true, "--format pprof", folded, "--folded",
				   "both are call-path exports; choose one") ||
		      cli_conflict(P, true, "--format pprof", g, "-g",
				   "the profile holds every call path already") ||
		      cli_conflict(P, true, "--format pprof", o->children, "--children",
				   "pprof tools compute inclusive time themselves") ||
		      cli_conflict(P, true, "--format pprof", graph_sym != NULL, gs, "run them apart") ||
		      cli_conflict(P, true, "--format pprof", ann, "--annotate", "run them apart") ||
		      cli_conflict(P, true, "--format pprof", html != NULL, "--html",
				   "the page's tables are per function, pprof's samples per thread; "
				   "run them apart") ||
		      cli_conflict(P, true, "--format pprof", o->sort != NULL, "--sort",
				   "samples carry comm, pid and tid labels; group by them in pprof") ||
		      cli_conflict(P, true, "--format pprof", ro->percent_limit > 0 || ro->max_rows > 0,
				   ro->max_rows ? "--max-rows" : "--percent-limit",
				   "the profile holds every path"))) 
		return -1;
	if (ann_context && !ann) {
		fprintf(stderr, P ": --annotate-context goes with --annotate\n");
		return -1;
	}
	/* options of the text report that a document or folded stacks would silently drop */
	if (json || pprof || folded) {
		const char *fmt = json ? "--format json" : pprof ? "--format pprof" : "--folded";

		if (cli_conflict(P, true, fmt, ro->wide, "--wide", "--wide is for the text report") ||
		    cli_conflict(P, !folded, fmt, ro->no_header, "--no-header",
				 json ? "the JSON document always holds the recording's header"
				      : "--no-header is for the text report") ||
		    cli_conflict(P, !folded, fmt, ro->no_summary, "--no-summary",
				 json ? "the JSON document always holds the symbolization summary"
				      : "--no-summary is for the text report"))
			return -1;
	}
	if (glimit && !g && !graph_sym && !ro->graph && !locks) {
		fprintf(stderr, P ": --graph-limit goes with -g, --callers, --callees or --locks\n");
		return -1;
	}
	return 0;
}

/*
 * A perf stat record file: its counts, as perf stat report shows them.  The
 * options of sample views are refused by name, never dropped.
 */
static int stat_view(struct mycl_perf_data *pd, const struct cli_args *given, const char *format,
		     const char *output, bool wide, const struct mycl_report_opts *ropts,
		     struct cli_log *lg, const char *html_file)
{
	static const struct { const char *opt, *name; } samples_only[] = {
		{ "sort", "--sort" }, { "call-graph", "-g" }, { "children", "--children" },
		{ "callers", "--callers" }, { "callees", "--callees" },
		{ "folded", "--folded" }, { "flamegraph", "--flamegraph" },
		{ "annotate", "--annotate" }, { "locks", "--locks" }, { "comm", "--comm" },
		{ "pid", "--pid" }, { "tid", "--tid" }, { "cpu", "--cpu" },
		{ "dso", "--dso" }, { "event", "--event" }, { "time", "--time" },
		{ "percent-limit", "--percent-limit" }, { "max-rows", "--max-rows" },
		{ "graph-limit", "--graph-limit" }, { "max-stack", "--max-stack" },
	};
	MYCL_OPTS(mycl_stat_opts, so, .print = cli_print, .print_ctx = lg);
	struct mycl_stat *st;
	FILE *out = stdout, *fo = NULL;
	int err;

	for (size_t i = 0; i < sizeof(samples_only) / sizeof(samples_only[0]); i++)
		if (cli_opt_given(given, samples_only[i].opt) || (i == 0 && !strcmp(format, "pprof"))) {
			fprintf(stderr, P ": %s: a perf stat recording holds counts, not samples: %s "
				"has nothing to show (its counts: mycl-hot %s)\n",
				mycl_perf_data__path(pd), i == 0 && !cli_opt_given(given, "sort") ?
				"--format pprof" : samples_only[i].name, mycl_perf_data__path(pd));
			return EXIT_USAGE;
		}
	err = mycl_stat__build(pd, &so, &st);
	if (err) {
		if (err == MYCL_ERR_NO_SAMPLES)
			fprintf(stderr, P ": %s: a perf stat recording without counter values (perf "
				"stat was stopped before it wrote them)\n", mycl_perf_data__path(pd));
		else
			fprintf(stderr, P ": %s\n", mycl_errmsg(err));
		return cli_exit_code(err);
	}
	if (html_file) {
		/* the page beside the report, as for a profile */
		FILE *h = cli_open_output(html_file);

		if (!h) {
			fprintf(stderr, P ": cannot write %s: %s\n", html_file, strerror(errno));
			mycl_stat__free(st);
			return EXIT_INTERNAL;
		}
		if ((err = cli_finish_output(P, h, html_file, mycl_report__stat_html(h, st,
				mycl_perf_data__path(pd))))) {
			mycl_stat__free(st);
			return err;
		}
	}
	if (output && !(out = cli_open_output(output))) {
		fprintf(stderr, P ": cannot write %s: %s\n", output, strerror(errno));
		mycl_stat__free(st);
		return EXIT_INTERNAL;
	}
	if (!wide && strcmp(format, "json"))
		fo = cli_folding(out, 100);
	err = !strcmp(format, "json") ? mycl_report__stat_json(out, st, ropts) :
	      mycl_report__stat_text(fo ? fo : out, st, ropts);
	if (fo && fclose(fo) && !err)
		err = -EIO;
	mycl_stat__free(st);
	return cli_finish_output(P, out, output, err);
}

struct hot_args {
	struct cli_common c;
	struct mycl_perf_data_opts popts;
	struct mycl_profile_opts opts;
	struct mycl_report_opts ropts;
	enum mycl_sort_key keys[MYCL_SORT__MAX];
	const char *input, *graph_sym, *ann_sym, *flame_file, *html_file;
	bool graph_callees, folded, want_g, ann_context_set, glimit_set;
	bool locks_view;		/* --locks asked for (not implied by --html) */
	int types_view;			/* --sort type: 1, typeoff: 2, parallelism: 3 */
	int ann_n, ann_context, group;
};

#define AT(f) offsetof(struct hot_args, f)
#define HOT(s) ((struct hot_args *)(s))

static int set_sort(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct hot_args *a = HOT(s);

	a->types_view = parallelism_sort(arg);
	if (!a->types_view)
		a->types_view = types_sort(arg);
	if (a->types_view < 0)
		return -1;
	if (a->types_view == 3)
		a->opts.latency = true;
	if (a->types_view)
		return 0;
	if (parse_sort(arg, a->keys, &a->opts.nr_sort))
		return -1;
	a->opts.sort = a->keys;
	return 0;
}

static int set_percentage(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	if (strcmp(arg, "absolute") && strcmp(arg, "relative")) {
		fprintf(stderr, "mycl-hot: --percentage is absolute or relative\n");
		return -1;
	}
	HOT(s)->ropts.relative = !strcmp(arg, "relative");
	return 0;
}

/* --pid, --tid, --cpu: a list of numbers and ranges */
static int set_ids(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	char n[16];

	snprintf(n, sizeof(n), "--%s", o->name);
	if (cli_id_list(P, n, arg))
		return -1;
	*(const char **)((char *)s + o->off) = arg;
	return 0;
}

static int set_group(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	HOT(s)->group = strcmp(o->name, "no-group") != 0;
	return 0;
}

static int set_g(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct hot_args *a = HOT(s);

	a->opts.callgraph = a->ropts.graph = a->want_g = true;
	return 0;
}

static int set_call_order(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	if (strcmp(arg, "caller") && strcmp(arg, "callee")) {
		fprintf(stderr, "mycl-hot: --call-order is caller or callee\n");
		return -1;
	}
	HOT(s)->ropts.caller_order = !strcmp(arg, "caller");
	return set_g(s, o, arg);
}

static int set_children(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	HOT(s)->opts.children = strcmp(o->name, "no-children") != 0;
	return 0;
}

static int set_graph_limit(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	HOT(s)->glimit_set = true;
	return cli_set_double(s, o, arg);
}

/* --callers SYM, --callees SYM: one tree */
static int set_tree(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct hot_args *a = HOT(s);
	bool callees = !strcmp(o->name, "callees");

	if (a->graph_sym && a->graph_callees != callees) {
		fprintf(stderr, "mycl-hot: --callers and --callees do not go together: "
			"one tree at a time\n");
		return -1;
	}
	a->graph_sym = arg;
	a->graph_callees = callees;
	a->opts.callgraph = true;
	return 0;
}

static int set_folded(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	HOT(s)->folded = HOT(s)->opts.callgraph = true;
	return 0;
}

static int set_flame(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	HOT(s)->flame_file = arg;
	HOT(s)->opts.callgraph = true;
	return 0;
}

static int set_annotate(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct hot_args *a = HOT(s);

	a->opts.annotate = true;
	a->ann_n = 3;
	a->ann_sym = NULL;
	if (arg && strspn(arg, "0123456789+-") == strlen(arg)) {
		size_t v;

		if (cli_size(P, "--annotate=N", arg, 1, 100000, &v))
			return -1;
		a->ann_n = (int)v;
	} else if (arg) {
		a->ann_sym = arg;
	}
	return 0;
}

static int set_annotate_context(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	size_t v;

	if (cli_size(P, "--annotate-context", arg, 0, 100000, &v))
		return -1;
	HOT(s)->ann_context = (int)v;
	HOT(s)->ann_context_set = true;
	return 0;
}

static const struct cli_opt hot_opts[] = {
	{ .name = "input", .letter = 'i', .arg = "FILE", .set = cli_set_str, .off = AT(input),
	  .help = "recording to read (default perf.data; - or a pipe: stdin)" },
	{ .name = "sort", .letter = 's', .arg = "KEYS", .set = set_sort,
	  .help = "comma list of comm,pid,tid,dso,sym,cpu (default comm,dso,sym);\n"
		  "type or typeoff: the data types the samples touch;\n"
		  "parallelism: samples by the threads running then" },
	{ .name = "latency", .set = cli_set_flag, .off = AT(opts.latency),
	  .help = "wall-clock time beside CPU time (perf's latency): each\n"
		  "sample over the threads running then; rows by it" },
	{ .name = "percent-limit", .arg = "P", .set = cli_set_double,
	  .off = AT(ropts.percent_limit), .min = 0, .max = 100,
	  .help = "hide rows under P percent" },
	{ .name = "max-rows", .arg = "N", .set = cli_set_size, .off = AT(ropts.max_rows),
	  .min = 0, .max = 1000000000,
	  .help = "show at most N rows per event (0: all)" },
	{ .name = "percentage", .arg = "absolute|relative", .set = set_percentage,
	  .help = "overhead of all samples (default, as perf)\n"
		  "or of the samples the filters keep" },
	{ .name = "file-order", .set = cli_set_flag, .off = AT(popts.file_order),
	  .help = "do not sort records by time" },
	{ .name = NULL },
};

static const struct cli_opt hot_filters[] = {
	{ .name = "comm", .arg = "LIST", .set = cli_set_str, .off = AT(opts.comms),
	  .help = "only these commands" },
	{ .name = "comms", .arg = "LIST", .alias = "comm", .help = NULL },
	{ .name = "pid", .arg = "LIST", .set = set_ids, .off = AT(opts.pids),
	  .help = "only these pids" },
	{ .name = "tid", .arg = "LIST", .set = set_ids, .off = AT(opts.tids),
	  .help = "only these threads" },
	{ .name = "cpu", .arg = "LIST", .set = set_ids, .off = AT(opts.cpus),
	  .help = "only these CPUs" },
	{ .name = "dso", .arg = "LIST", .set = cli_set_str, .off = AT(opts.dsos),
	  .help = "only these binaries (short name or path)" },
	{ .name = "dsos", .arg = "LIST", .alias = "dso", .help = NULL },
	{ .name = "event", .arg = "NAME", .set = cli_set_str, .off = AT(opts.event),
	  .help = "only this event (default: every event in turn)" },
	{ .name = "time", .arg = "SLICE", .set = cli_set_str, .off = AT(popts.time),
	  .help = "only samples in this time slice, as perf's --time:\n"
		  "START,STOP seconds, 10%/2 (the second tenth), 0%-10%" },
	{ .name = "group", .set = set_group,
	  .help = "events read together by leader sampling side by side\n"
		  "(default, as perf)" },
	{ .name = "no-group", .set = set_group,
	  .help = "each event in its own table" },
	{ .name = NULL },
};

static const struct cli_opt hot_graphs[] = {
	{ .name = "call-graph", .letter = 'g', .set = set_g,
	  .help = "under each row, the tree of its callers" },
	{ .name = "call-order", .arg = "callee|caller", .set = set_call_order,
	  .help = "callers below the function (default) or\n"
		  "paths from the outermost caller down to it" },
	{ .name = "children", .set = set_children,
	  .help = "rows by inclusive time (self and children), as perf's default" },
	{ .name = "no-children", .set = set_children,
	  .help = "rows by self time (the default)" },
	{ .name = "graph-limit", .arg = "P", .set = set_graph_limit, .off = AT(ropts.graph_limit),
	  .min = 0, .max = 100,
	  .help = "hide call-graph branches (--locks: sites) under P percent\n"
		  "(default 0.5)" },
	{ .name = "callers", .arg = "SYM", .set = set_tree,
	  .help = "every call path into SYM, merged into one tree" },
	{ .name = "callees", .arg = "SYM", .set = set_tree,
	  .help = "everything SYM calls, merged into one tree" },
	{ .name = "folded", .set = set_folded,
	  .help = "folded stacks (flamegraph.pl, speedscope, inferno)" },
	{ .name = "flamegraph", .arg = "FILE", .set = set_flame,
	  .help = "also write an interactive flame graph (SVG) to FILE" },
	{ .name = "html", .arg = "FILE", .set = cli_set_str, .off = AT(html_file),
	  .help = "also write one self-contained page: flame graph, flat\n"
		  "profile, lock sites, hottest code, symbolization" },
	{ .name = "max-stack", .arg = "N", .set = cli_set_uint, .off = AT(opts.max_stack),
	  .min = 1, .max = 65535,
	  .help = "keep at most N frames of each call chain (default 127,\n"
		  "as perf report); a longer one ends in a marked frame" },
	{ .name = "no-inline", .set = cli_set_flag, .off = AT(opts.no_inline),
	  .help = "no inlined-function frames in DWARF-unwound stacks" },
	{ .name = "no-call-site-frames", .set = cli_set_flag, .off = AT(opts.no_call_site_frames),
	  .help = "call chains exactly as recorded: no frame put back\n"
		  "from the call before a return address (perf's view)" },
	{ .name = NULL },
};

static const struct cli_opt hot_code[] = {
	{ .name = "annotate", .arg = "SYM|N", .set = set_annotate, .optional = true,
	  .help = "disassemble the N hottest functions (default 3) or SYM" },
	{ .name = "annotate-context", .arg = "N", .set = set_annotate_context,
	  .help = "only N instructions around the hot ones" },
	{ .name = "locks", .set = cli_set_flag, .off = AT(opts.locks),
	  .help = "lock and spin time by primitive and by lock site" },
	{ .name = "lock-rules", .arg = "FILE", .set = cli_set_str, .off = AT(opts.lock_rules),
	  .help = "more lock primitives (LAYER KIND PATTERN lines)" },
	{ .name = NULL },
};

static const struct cli_opt hot_output[] = {
	{ .name = "format", .arg = "text|json|pprof", .set = cli_set_choice, .off = AT(c.format),
	  .choices = (const char *const[]){ "text", "json", "pprof", NULL },
	  .help = "output format (default text); pprof: gzipped\n"
		  "profile.proto of every call path (Pyroscope, Parca, pprof)" },
	{ .name = "no-header", .set = cli_set_flag, .off = AT(ropts.no_header),
	  .help = "omit the recording's header block" },
	{ .name = "no-summary", .set = cli_set_flag, .off = AT(ropts.no_summary),
	  .help = "omit the symbolization summary" },
	{ .name = NULL },
};

static const struct cli_group hot_groups[] = {
	{ NULL, hot_opts },
	{ "Filters", hot_filters },
	{ "Call graphs", hot_graphs },
	{ "Code and locks", hot_code },
	{ NULL, cli_opts_sources },
	{ "Symbol sources", cli_opts_symbols },
	{ NULL, cli_opts_archive },
	{ NULL, cli_opts_archive_max },
	{ NULL, cli_opts_debug },
	{ "Output", hot_output },
	{ NULL, cli_opts_wide },
	{ NULL, cli_opts_output },
	{ NULL, NULL },
};

static const struct cli_tool hot_tool = {
	.prog = P,
	.version = MYCL_VERSION,
	.synopsis = "[options] [perf.data | -]",
	.about = "Flat profile of a perf recording: overhead by command, binary and symbol.",
	.groups = hot_groups,
	.exit_status = "Exit status: 0 ok, 1 usage, 2 cannot read input, 3 invalid or corrupt input,\n"
		       "4 nothing to report, 5 internal error.\n",
};

/*
 * The options taken together, after parsing: views that do not go together
 * refused, the settings one view implies made, the recording named (ARGV's
 * operand, standard input's pipe or perf.data).  EXIT_OK, or the exit status
 * once the mistake is said.
 */
static int settle(struct hot_args *a, int argc, char **argv,
		  const struct mycl_annotate_opts *aopts)
{
	if (check_modes(&a->opts, a->want_g, a->graph_sym, a->graph_callees, a->folded, a->ann_n > 0,
			a->ann_context_set, a->glimit_set, a->group, !strcmp(a->c.format, "json"),
			&a->ropts, a->flame_file, a->html_file, a->c.output,
			!strcmp(a->c.format, "pprof")))
		return EXIT_USAGE;
	/* options only some views read, refused where they would be dropped without a word */
	if (a->opts.lock_rules && !a->opts.locks && !a->html_file &&
	    (strcmp(a->c.format, "text") || a->folded || a->graph_sym || a->ann_n > 0)) {
		fprintf(stderr, P ": --lock-rules goes with --locks, --html or the text report "
			"(whose lock summary it names)\n");
		return EXIT_USAGE;
	}
	if ((a->c.nsrc || aopts->prefix_map) && !a->ann_n && !a->html_file) {
		fprintf(stderr, P ": %s goes with --annotate or --html (the source lines beside "
			"the code)\n", a->c.nsrc ? "--source-dir" : "--prefix-map");
		return EXIT_USAGE;
	}
	a->locks_view = a->opts.locks;
	if (a->types_view) {
		const char *other = a->want_g ? "-g" : a->opts.children ? "--children" :
				    a->opts.locks ? "--locks" : a->folded ? "--folded" :
				    a->graph_sym ? (a->graph_callees ? "--callees" : "--callers") :
				    a->ann_n ? "--annotate" : a->html_file ? "--html" :
				    a->flame_file ? "--flamegraph" : !strcmp(a->c.format, "pprof") ?
				    "--format pprof" : a->group == 1 ? "--group" :
				    a->ropts.max_rows ? "--max-rows" : NULL;

		if (cli_conflict(P, true, a->types_view == 3 ? "--sort parallelism" :
				 a->types_view == 2 ? "--sort typeoff" : "--sort type",
				 other != NULL, other, a->types_view == 3 ? "the parallelism view is a "
				 "table of its own; run them apart" : "the data-type view is a table of "
				 "its own; run them apart"))
			return EXIT_USAGE;
		a->opts.annotate = a->types_view != 3;
	}
	if (a->opts.latency && a->types_view != 3) {
		/* the flat profile's column: the other views weigh samples by CPU time */
		const char *other = a->want_g ? "-g" : a->opts.children ? "--children" :
				    a->opts.locks ? "--locks" : a->folded ? "--folded" :
				    a->graph_sym ? (a->graph_callees ? "--callees" : "--callers") :
				    a->ann_n ? "--annotate" :
				    a->flame_file ? "--flamegraph" : !strcmp(a->c.format, "pprof") ?
				    "--format pprof" : a->types_view ? "--sort type" : NULL;

		if (cli_conflict(P, true, "--latency", other != NULL, other, "--latency is a column "
				 "of the flat profile (and --sort parallelism a view); run them apart"))
			return EXIT_USAGE;
	}
	if (!strcmp(a->c.format, "pprof")) {
		static const enum mycl_sort_key thread_keys[] = { MYCL_SORT_COMM, MYCL_SORT_PID,
								  MYCL_SORT_TID, MYCL_SORT_DSO,
								  MYCL_SORT_SYM };

		if (!a->c.output && isatty(1)) {
			fprintf(stderr, P ": --format pprof is binary: give -o FILE or a pipe\n");
			return EXIT_USAGE;
		}
		a->opts.callgraph = true;
		a->opts.sort = thread_keys;
		a->opts.nr_sort = 5;
	}
	if (a->html_file) {
		/* The page shows call paths, lock sites, annotated code and a heat map whatever the view. */
		a->opts.callgraph = a->opts.annotate = a->opts.timed_stacks = true;
		a->opts.locks = !a->opts.children;
	}
	/* By default, as perf: groups side by side, unless a view of single events was asked for. */
	a->ropts.no_group = a->group == 0 || (a->group < 0 && (a->want_g || a->opts.event));
	if (a->opts.lock_rules && access(a->opts.lock_rules, R_OK)) {
		fprintf(stderr, P ": --lock-rules %s: %s\n", a->opts.lock_rules, strerror(errno));
		return EXIT_USAGE;
	}
	if (a->opts.symfs && !cli_is_dir(P, "--symfs", a->opts.symfs))
		return EXIT_USAGE;
	if (a->opts.kallsyms && cli_check_kallsyms(P, a->opts.kallsyms))
		return EXIT_USAGE;
	if (optind < argc) {
		if (a->input || optind + 1 < argc) {
			fprintf(stderr, "mycl-hot: one recording at a time\n");
			return EXIT_USAGE;
		}
		a->input = argv[optind];
	}
	if (!a->input) {
		struct stat sb;

		a->input = !fstat(0, &sb) && S_ISFIFO(sb.st_mode) ? "-" : "perf.data";
	}
	{
		const struct cli_file files[] = {
			{ a->input, "the recording", false }, { a->c.archive, "the --archive", false },
			{ a->opts.kallsyms, "the --kallsyms file", false },
			{ a->opts.lock_rules, "the --lock-rules file", false },
			{ a->c.output, "-o", true }, { a->html_file, "--html", true },
			{ a->flame_file, "--flamegraph", true },
		};

		if (cli_check_files(P, files, sizeof(files) / sizeof(files[0])))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct hot_args args = {
		.c = { .lg = { .prog = P }, .format = "text", .buildid_dir = cli_home_debug() },
		.popts = { .sz = sizeof(args.popts), .print = cli_print, .print_ctx = &args.c.lg },
		.opts = { .sz = sizeof(args.opts), .print = cli_print, .print_ctx = &args.c.lg },
		.ropts = { .sz = sizeof(args.ropts) },
		.group = -1,
	};
	struct hot_args *a = &args;
	struct cli_log *lg = &args.c.lg;
	struct cli_progress progress;
	struct mycl_perf_data *pd = NULL;
	struct mycl_profile *prof = NULL;
	FILE *out = NULL;
	FILE *base_out;
	MYCL_OPTS(mycl_annotate_opts, aopts, .source_dirs = args.c.src_dirs);
	struct cli_args given;
	int err, rc;

	cli_escape_std();
	if (cli_check_env(P))
		return EXIT_USAGE;
	out = stdout;
	if (!cli_parse(&given, &hot_tool, &args.c, argc, argv, &rc))
		return rc;
	if (cli_conflict(P, cli_opt_given(&given, "group"), "--group",
			 cli_opt_given(&given, "no-group"), "--no-group",
			 "events side by side or each in its own table?") ||
	    cli_conflict(P, cli_opt_given(&given, "children"), "--children",
			 cli_opt_given(&given, "no-children"), "--no-children",
			 "rows by inclusive or by self time?"))
		return EXIT_USAGE;
	cli_profile_sources(&a->c, &a->opts);
	a->ropts.wide = a->c.wide;
	aopts.prefix_map = a->c.prefix_map;
	if ((rc = settle(a, argc, argv, &aopts)))
		return rc;
	if (a->c.archive && (rc = cli_archive(P, a->c.archive, &a->input, 1, &a->opts.archive)))
		return rc;

	cli_progress_setup(&progress, "mycl-hot", a->input, lg->verbose, &a->popts);
	if ((rc = cli_open_recording(P, a->input, &a->popts, &pd)))
		return rc;
	if (mycl_perf_data__is_stat(pd)) {
		cli_progress_done(&progress);
		rc = stat_view(pd, &given, a->c.format, a->c.output, a->c.wide, &a->ropts, lg, a->html_file);
		mycl_perf_data__close(pd);
		return rc;
	}
	err = mycl_profile__build(pd, &a->opts, &prof);
	cli_progress_done(&progress);
	if (!err && (rc = cli_time_empty(P, pd, a->popts.time))) {
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (!err && a->opts.latency && !mycl_profile__latency_method(prof)) {
		fprintf(stderr, P ": %s: %s needs the threads running at each sample: the recording "
			"has no context switches and its samples carry no CPU; record with perf record "
			"--switch-events (perf 6.15+: --latency), or -a\n", mycl_perf_data__path(pd),
			a->types_view == 3 ? "--sort parallelism" : "--latency");
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return EXIT_USAGE;
	}
	if (err) {
		/* (mycl_strerror's own text: the call left no words of its own) */
		bool words = mycl_errmsg(err) != mycl_strerror(err);

		if (err == MYCL_ERR_NO_EVENT) {
			fprintf(stderr, "mycl-hot: %s: no event named '%s' in the recording; it has",
				mycl_perf_data__path(pd), a->opts.event);
			for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
				fprintf(stderr, "%s '%s'", i ? "," : "", mycl_perf_data__event(pd, i)->name);
			fputc('\n', stderr);
		} else if (err == MYCL_ERR_NOT_RECORDED && !words) {
			fprintf(stderr, "mycl-hot: %s: its samples carry no CPU number (perf record -a, -C "
				"or --sample-cpu records one): %s cannot use it\n",
				mycl_perf_data__path(pd), a->opts.cpus ? "--cpu" : "--sort cpu");
			err = -EINVAL;
		} else if (err == MYCL_ERR_BAD_RULES) {
			fprintf(stderr, "mycl-hot: --lock-rules %s refused: %s\n", a->opts.lock_rules,
				mycl_errmsg(err));
			err = -EINVAL;
		} else if (err == -EINVAL)
			fprintf(stderr, "mycl-hot: --pid, --tid and --cpu take comma lists of numbers\n");
		else
			fprintf(stderr, "mycl-hot: %s\n", mycl_errmsg(err));
		rc = err == -EINVAL ? EXIT_USAGE : cli_exit_code(err);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (a->opts.comms || a->opts.dsos || a->opts.pids || a->opts.tids || a->opts.cpus) {
		/* filters that keep nothing: said with what they were, not an empty table */
		uint64_t kept = 0, all = 0;

		for (size_t e = 0; e < mycl_profile__nr_events(prof); e++) {
			kept += mycl_profile__event(prof, e)->nr_samples;
			all += mycl_profile__event(prof, e)->nr_samples_all;
		}
		if (all && !kept) {
			fprintf(stderr, "mycl-hot: %s: none of its %" PRIu64 " samples passes%s%s%s%s%s%s%s"
				"%s%s%s (--sort comm,pid,dso shows what it holds)\n",
				mycl_perf_data__path(pd), all,
				a->opts.comms ? " --comm " : "", a->opts.comms ? a->opts.comms : "",
				a->opts.pids ? " --pid " : "", a->opts.pids ? a->opts.pids : "",
				a->opts.tids ? " --tid " : "", a->opts.tids ? a->opts.tids : "",
				a->opts.cpus ? " --cpu " : "", a->opts.cpus ? a->opts.cpus : "",
				a->opts.dsos ? " --dso " : "", a->opts.dsos ? a->opts.dsos : "");
			mycl_profile__free(prof);
			mycl_perf_data__close(pd);
			return EXIT_NOTHING;
		}
	}
	/*
	 * Views that print no header (folded stacks, --callers/--callees, --locks, pprof, the
	 * pictures) say on stderr that the recording has no call chains; the others in it.
	 */
	if (lg->verbose >= 0 && (a->folded || a->graph_sym || a->locks_view || a->flame_file ||
				 a->html_file || !strcmp(a->c.format, "pprof"))) {
		for (size_t i = 0; i < mycl_profile__nr_warnings(prof); i++) {
			const struct mycl_warning *w = mycl_profile__warning(prof, i);

			if (!strcmp(w->kind, "no_chains"))
				fprintf(stderr, "mycl-hot: %s: %s; %s\n", mycl_perf_data__path(pd),
					w->message, w->fix);
		}
	}
	/* The pictures asked for beside the report, then the report. */
	if ((a->flame_file && (rc = write_flame(a->flame_file, prof))) ||
	    (a->html_file && (rc = write_html(a->html_file, prof, &aopts)))) {
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (!strcmp(a->c.format, "pprof")) {
		rc = write_pprof(a->c.output, prof);
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (a->c.output && !(out = cli_open_output(a->c.output))) {
		fprintf(stderr, "mycl-hot: cannot write %s: %s\n", a->c.output, strerror(errno));
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return EXIT_INTERNAL;
	}
	/* Text within 100 columns unless --wide; JSON and folded stacks as they are. */
	base_out = out;
	if (!a->c.wide && strcmp(a->c.format, "json") && !a->folded) {
		FILE *fo = cli_folding(out, 100);

		if (fo)
			out = fo;
	}
	if (a->types_view == 3)
		err = parallelism_views(out, prof, !strcmp(a->c.format, "json"));
	else if (a->types_view)
		err = types_views(out, prof, a->types_view == 2, !strcmp(a->c.format, "json"),
				  a->ropts.percent_limit);
	else if (a->locks_view)
		err = lock_reports(out, prof, true, !strcmp(a->c.format, "json"), a->ropts.graph_limit);
	else if (a->graph_sym || a->folded)
		err = special_views(out, prof, a->graph_sym, a->graph_callees, a->folded,
				    !strcmp(a->c.format, "json"), &a->ropts);
	else if (a->ann_n && !strcmp(a->c.format, "json"))
		err = annotations(out, prof, a->ann_n, a->ann_sym, a->ann_context, true, &aopts);
	else if (a->ann_n) {
		/* --annotate=SYM: that function alone, as perf annotate SYM; N: after the profile */
		err = a->ann_sym ? 0 : mycl_report__text(out, prof, &a->ropts);
		if (!err)
			err = annotations(out, prof, a->ann_n, a->ann_sym, a->ann_context, false, &aopts);
		if (err == -ENOENT)
			a->graph_sym = a->ann_sym;
	} else if (!strcmp(a->c.format, "json")) {
		err = mycl_report__json(out, prof, &a->ropts);
	} else {
		err = mycl_report__text(out, prof, &a->ropts);
		if (!err)
			err = lock_reports(out, prof, false, false, 0);
	}
	if (err == -ENOENT) {
		uint64_t lost = mycl_profile__unmapped(prof), all = lost;

		/* Samples in binaries that could not be read may hold the function. */
		for (size_t i = 0; i < mycl_profile__nr_dsos(prof); i++) {
			const struct mycl_dso_summary *d = mycl_profile__dso(prof, i);

			all += d->samples;
			lost += d->ok ? 0 : d->unresolved;
		}
		fprintf(stderr, "mycl-hot: %s: no sample went through '%s'", mycl_perf_data__path(pd),
			a->graph_sym);
		if (lost)
			fprintf(stderr, "; %.1f%% of the samples are in code with no symbols (see the "
				"symbolization summary), which may hold it", 100.0 * (double)lost /
				(double)(all ? all : 1));
		fputc('\n', stderr);
		rc = EXIT_NOTHING;
		if (out != base_out)
			fclose(out);
		if (base_out != stdout)
			fclose(base_out);
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	errno = 0;
	if (out != base_out && fclose(out) && !err)
		err = errno ? -errno : -EIO;
	out = base_out;
	err = cli_finish_output(P, out, a->c.output, err) != EXIT_OK;
#ifndef TOOL_ASAN
	/*
	 * The process ends here: tearing the profile down (libdw's trees of
	 * every binary's CFI and units, thousands of small blocks) took a fifth
	 * of a DWARF recording's report.  Kept reachable, so no leak checker
	 * calls it lost; sanitizer builds free it, as the library's tests do.
	 */
	static void *volatile kept_at_exit[2];	/* (volatile: stores no one reads stay) */

	kept_at_exit[0] = prof;
	kept_at_exit[1] = pd;
	(void)kept_at_exit[0];
	return err ? EXIT_INTERNAL : EXIT_OK;
#else
	mycl_profile__free(prof);
	mycl_perf_data__close(pd);
	return err ? EXIT_INTERNAL : EXIT_OK;
#endif
}
