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
#include "cli.h"

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

static void usage(FILE *f)
{
	fputs("usage: mycl-hot [options] [perf.data | -]\n"
	      "\n"
	      "Flat profile of a perf recording: overhead by command, binary and symbol.\n"
	      "\n"
	      "  -i, --input FILE        recording to read (default perf.data; - or a pipe: stdin)\n"
	      "  -s, --sort KEYS         comma list of comm,pid,tid,dso,sym,cpu (default comm,dso,sym);\n"
	      "                          type or typeoff: the data types the samples touch;\n"
	      "                          parallelism: samples by the threads running then\n"
	      "      --latency           wall-clock time beside CPU time (perf's latency): each\n"
	      "                          sample over the threads running then; rows by it\n"
	      "      --percent-limit P   hide rows under P percent\n"
	      "      --max-rows N        show at most N rows per event (0: all)\n"
	      "      --percentage absolute|relative  overhead of all samples (default, as perf)\n"
	      "                          or of the samples the filters keep\n"
	      "      --comm LIST         only these commands      --pid LIST  only these pids\n"
	      "      --tid LIST          only these threads       --cpu LIST  only these CPUs\n"
	      "      --dso LIST          only these binaries (short name or path)\n"
	      "      --event NAME        only this event (default: every event in turn)\n"
	      "      --time SLICE        only samples in this time slice, as perf's --time:\n"
	      "                          START,STOP seconds, 10%/2 (the second tenth), 0%-10%\n"
	      "      --group, --no-group  events read together by leader sampling side by side\n"
	      "                          (default, as perf) or each in its own table\n"
	      "  -g, --call-graph        under each row, the tree of its callers\n"
	      "      --call-order callee|caller  callers below the function (default) or\n"
	      "                          paths from the outermost caller down to it\n"
	      "      --children          rows by inclusive time (self and children), as perf's default\n"
	      "      --graph-limit P     hide call-graph branches (--locks: sites) under P percent\n"
	      "                          (default 0.5)\n"
	      "      --callers SYM       every call path into SYM, merged into one tree\n"
	      "      --callees SYM       everything SYM calls, merged into one tree\n"
	      "      --folded            folded stacks (flamegraph.pl, speedscope, inferno)\n"
	      "      --flamegraph FILE   also write an interactive flame graph (SVG) to FILE\n"
	      "      --html FILE         also write one self-contained page: flame graph, flat\n"
	      "                          profile, lock sites, hottest code, symbolization\n"
	      "      --max-stack N       keep at most N frames of each call chain (default 127,\n"
	      "                          as perf report); a longer one ends in a marked frame\n"
	      "      --no-inline         no inlined-function frames in DWARF-unwound stacks\n"
	      "      --no-call-site-frames  call chains exactly as recorded: no frame put back\n"
	      "                          from the call before a return address (perf's view)\n"
	      "      --annotate[=SYM|N]  disassemble the N hottest functions (default 3) or SYM\n"
	      "      --annotate-context=N  only N instructions around the hot ones\n"
	      "      --source-dir DIR    where to find source files (repeatable; for\n"
	      "                          --annotate and --html)\n"
	      "      --prefix-map OLD=NEW  rewrite build paths of source files\n"
	      "      --locks             lock and spin time by primitive and by lock site\n"
	      "      --lock-rules FILE   more lock primitives (LAYER KIND PATTERN lines)\n"
	      "      --wide              text lines of any length (default: 100 columns, names\n"
	      "                          shortened in the middle, comments folded)\n"
	      "      --format text|json|pprof  output format (default text); pprof: gzipped\n"
	      "                          profile.proto of every call path (Pyroscope, Parca, pprof)\n"
	      "  -o, --output FILE       write the report to FILE\n"
	      "      --symfs DIR         look for binaries under DIR\n"
	      "      --kallsyms FILE     kernel symbols of the recorded kernel\n"
	      "      --buildid-dir DIR   perf's build-id cache (default ~/.debug; '' for none)\n"
	      "      --archive FILE      perf archive (perf.data.tar.bz2) from the recorded machine\n"
	      "      --archive-max MIB   what its members kept may take (default 1024)\n"
	      "      --debug-dir DIR     separate debug files (default /usr/lib/debug; '' for none)\n"
	      , f);
	fputs("      --no-demangle       show C++ names mangled\n"
	      "      --jit-maps          read /tmp/perf-PID.map for a recording from elsewhere\n"
	      "                          (by default only for one made on this machine)\n"
	      "      --no-header         omit the recording's header block\n"
	      "      --no-summary        omit the symbolization summary\n"
	      "      --file-order        do not sort records by time\n"
	      "  -q, --quiet             no warnings, no progress line   -v, --verbose  more\n"
	      "  -h, --help              this help          --version      print the version\n"
	      "\n"
	      "Exit status: 0 ok, 1 usage, 2 cannot read input, 3 invalid or corrupt input,\n"
	      "4 nothing to report, 5 internal error.\n", f);
}

enum {
	OPT_PERCENT = 256, OPT_MAXROWS, OPT_COMM, OPT_PID, OPT_TID, OPT_CPU, OPT_DSO, OPT_EVENT,
	OPT_FORMAT, OPT_SYMFS, OPT_KALLSYMS, OPT_BUILDID, OPT_ARCHIVE, OPT_ARCHIVEMAX, OPT_NODEMANGLE, OPT_NOHEADER,
	OPT_NOSUMMARY, OPT_FILEORDER, OPT_VERSION, OPT_PERCENTAGE, OPT_CHILDREN, OPT_NOCHILDREN,
	OPT_GLIMIT, OPT_CALLERS, OPT_CALLEES, OPT_FOLDED, OPT_NOINLINE, OPT_NOCALLSITE, OPT_DEBUGDIR, OPT_ANNOTATE,
	OPT_ACONTEXT, OPT_SRCDIR, OPT_PREFIXMAP, OPT_LOCKS, OPT_LOCKRULES, OPT_CORDER, OPT_GROUP,
	OPT_NOGROUP, OPT_FLAME, OPT_HTML, OPT_WIDE, OPT_MAXSTACK, OPT_JITMAPS, OPT_TIME, OPT_LATENCY,
};

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "sort", required_argument, NULL, 's' },
	{ "percent-limit", required_argument, NULL, OPT_PERCENT },
	{ "max-rows", required_argument, NULL, OPT_MAXROWS },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "call-graph", no_argument, NULL, 'g' },
	{ "children", no_argument, NULL, OPT_CHILDREN },
	{ "no-children", no_argument, NULL, OPT_NOCHILDREN },
	{ "graph-limit", required_argument, NULL, OPT_GLIMIT },
	{ "callers", required_argument, NULL, OPT_CALLERS },
	{ "callees", required_argument, NULL, OPT_CALLEES },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "max-stack", required_argument, NULL, OPT_MAXSTACK },
	{ "flamegraph", required_argument, NULL, OPT_FLAME },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "wide", no_argument, NULL, OPT_WIDE },
	{ "no-inline", no_argument, NULL, OPT_NOINLINE },
	{ "no-call-site-frames", no_argument, NULL, OPT_NOCALLSITE },
	{ "annotate", optional_argument, NULL, OPT_ANNOTATE },
	{ "annotate-context", required_argument, NULL, OPT_ACONTEXT },
	{ "source-dir", required_argument, NULL, OPT_SRCDIR },
	{ "prefix-map", required_argument, NULL, OPT_PREFIXMAP },
	{ "locks", no_argument, NULL, OPT_LOCKS },
	{ "group", no_argument, NULL, OPT_GROUP },
	{ "no-group", no_argument, NULL, OPT_NOGROUP },
	{ "call-order", required_argument, NULL, OPT_CORDER },
	{ "lock-rules", required_argument, NULL, OPT_LOCKRULES },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "comms", required_argument, NULL, OPT_COMM },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "dso", required_argument, NULL, OPT_DSO },
	{ "dsos", required_argument, NULL, OPT_DSO },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "latency", no_argument, NULL, OPT_LATENCY },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID },
	{ "archive", required_argument, NULL, OPT_ARCHIVE },
	{ "archive-max", required_argument, NULL, OPT_ARCHIVEMAX },
	{ "debug-dir", required_argument, NULL, OPT_DEBUGDIR },
	{ "no-demangle", no_argument, NULL, OPT_NODEMANGLE },
	{ "jit-maps", no_argument, NULL, OPT_JITMAPS },
	{ "no-header", no_argument, NULL, OPT_NOHEADER },
	{ "no-summary", no_argument, NULL, OPT_NOSUMMARY },
	{ "file-order", no_argument, NULL, OPT_FILEORDER },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

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
static int stat_view(struct mycl_perf_data *pd, const struct cli_seen *seen, const char *format,
		     const char *output, bool wide, const struct mycl_report_opts *ropts,
		     struct cli_log *lg, const char *html_file)
{
	static const struct { int code; const char *name; } samples_only[] = {
		{ 's', "--sort" }, { 'g', "-g" }, { OPT_CHILDREN, "--children" },
		{ OPT_CALLERS, "--callers" }, { OPT_CALLEES, "--callees" },
		{ OPT_FOLDED, "--folded" }, { OPT_FLAME, "--flamegraph" },
		{ OPT_ANNOTATE, "--annotate" }, { OPT_LOCKS, "--locks" }, { OPT_COMM, "--comm" },
		{ OPT_PID, "--pid" }, { OPT_TID, "--tid" }, { OPT_CPU, "--cpu" },
		{ OPT_DSO, "--dso" }, { OPT_EVENT, "--event" }, { OPT_TIME, "--time" },
		{ OPT_PERCENT, "--percent-limit" }, { OPT_MAXROWS, "--max-rows" },
		{ OPT_GLIMIT, "--graph-limit" }, { OPT_MAXSTACK, "--max-stack" },
	};
	MYCL_OPTS(mycl_stat_opts, so, .print = cli_print, .print_ctx = lg);
	struct mycl_stat *st;
	FILE *out = stdout, *fo = NULL;
	int err;

	for (size_t i = 0; i < sizeof(samples_only) / sizeof(samples_only[0]); i++)
		if (cli_given(seen, samples_only[i].code) || (i == 0 && !strcmp(format, "pprof"))) {
			fprintf(stderr, P ": %s: a perf stat recording holds counts, not samples: %s "
				"has nothing to show (its counts: mycl-hot %s)\n",
				mycl_perf_data__path(pd), i == 0 && !cli_given(seen, 's') ?
				"--format pprof" : samples_only[i].name, mycl_perf_data__path(pd));
			return EXIT_USAGE;
		}
	err = mycl_stat__build(pd, &so, &st);
	if (err) {
		const char *msg = mycl_perf_data__errmsg(pd);

		if (err == MYCL_ERR_NO_SAMPLES)
			fprintf(stderr, P ": %s: a perf stat recording without counter values (perf "
				"stat was stopped before it wrote them)\n", mycl_perf_data__path(pd));
		else
			fprintf(stderr, P ": %s\n", msg[0] ? msg : mycl_strerror(err));
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

int main(int argc, char **argv)
{
	struct cli_log lg = { .prog = "mycl-hot", .verbose = 0 };
	struct cli_progress progress;
	MYCL_OPTS(mycl_perf_data_opts, popts, .print = cli_print, .print_ctx = &lg);
	MYCL_OPTS(mycl_profile_opts, opts, .buildid_dir = cli_home_debug(), .print = cli_print,
		  .print_ctx = &lg);
	MYCL_OPTS(mycl_report_opts, ropts);
	enum mycl_sort_key keys[MYCL_SORT__MAX];
	const char *input = NULL, *output = NULL, *format = "text", *archive = NULL;
	struct mycl_perf_data *pd = NULL;
	struct mycl_profile *prof = NULL;
	FILE *out = NULL;
	const char *graph_sym = NULL, *ann_sym = NULL, *src_dirs[MAX_SRC_DIRS + 1] = { NULL };
	bool graph_callees = false, folded = false;
	const char *flame_file = NULL, *html_file = NULL;
	bool wide = false;
	FILE *base_out;
	bool locks_view;
	int types_view = 0;		/* --sort type: 1, typeoff: 2 */
	int ann_n = 0, ann_context = 0, nsrc = 0, group = -1;
	bool want_g = false, ann_context_set = false, glimit_set = false;
	MYCL_OPTS(mycl_annotate_opts, aopts, .source_dirs = src_dirs);
	/* --source-dir adds a directory, -v more words: the options given more than once */
	static const int repeatable[] = { OPT_SRCDIR, 'v', 0 };
	struct cli_seen seen = { .nr = 0 };
	int c, err, rc;

	cli_escape_std();
	if (cli_check_env(P))
		return EXIT_USAGE;
	out = stdout;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:s:o:gqvh", long_opts, NULL)) != -1) {
		if (cli_once(P, long_opts, &seen, c, optarg, repeatable))
			return EXIT_USAGE;
		switch (c) {
		case 'i': input = optarg; break;
		case 's':
			types_view = parallelism_sort(optarg);
			if (!types_view)
				types_view = types_sort(optarg);
			if (types_view < 0)
				return EXIT_USAGE;
			if (types_view == 3)
				opts.latency = true;
			if (types_view)
				break;
			if (parse_sort(optarg, keys, &opts.nr_sort))
				return EXIT_USAGE;
			opts.sort = keys;
			break;
		case OPT_PERCENT:
			if (cli_double(P, "--percent-limit", optarg, 0, 100, &ropts.percent_limit))
				return EXIT_USAGE;
			break;
		case OPT_MAXROWS:
			if (cli_size(P, "--max-rows", optarg, 0, 1000000000, &ropts.max_rows))
				return EXIT_USAGE;
			break;
		case OPT_PERCENTAGE:
			if (strcmp(optarg, "absolute") && strcmp(optarg, "relative")) {
				fprintf(stderr, "mycl-hot: --percentage is absolute or relative\n");
				return EXIT_USAGE;
			}
			ropts.relative = !strcmp(optarg, "relative");
			break;
		case OPT_COMM: opts.comms = optarg; break;
		case OPT_PID:
		case OPT_TID:
		case OPT_CPU:
			if (cli_id_list(P, c == OPT_PID ? "--pid" : c == OPT_TID ? "--tid" : "--cpu",
					optarg))
				return EXIT_USAGE;
			*(c == OPT_PID ? &opts.pids : c == OPT_TID ? &opts.tids : &opts.cpus) = optarg;
			break;
		case OPT_DSO: opts.dsos = optarg; break;
		case OPT_EVENT: opts.event = optarg; break;
		case OPT_FORMAT:
			if (cli_choice(P, "--format", optarg, (const char *const[]){ "text", "json",
									    "pprof", NULL }))
				return EXIT_USAGE;
			format = optarg;
			break;
		case 'o': output = optarg; break;
		case OPT_SYMFS: opts.symfs = optarg; break;
		case OPT_KALLSYMS: opts.kallsyms = optarg; break;
		case OPT_BUILDID: opts.buildid_dir = optarg; break;
		case OPT_ARCHIVE:
			if (cli_set_once(P, "--archive", &archive, optarg, "; one archive a run"))
				return EXIT_USAGE;
			break;
		case OPT_ARCHIVEMAX:
			if (cli_archive_max(P, optarg))
				return EXIT_USAGE;
			break;
		case OPT_DEBUGDIR: opts.debug_dir = optarg; break;
		case OPT_NODEMANGLE: opts.no_demangle = true; break;
		case OPT_JITMAPS: opts.jit_maps = true; break;
		case OPT_NOHEADER: ropts.no_header = true; break;
		case OPT_NOSUMMARY: ropts.no_summary = true; break;
		case OPT_FILEORDER: popts.file_order = true; break;
		case OPT_TIME: popts.time = optarg; break;
		case OPT_LATENCY: opts.latency = true; break;
		case 'g':
			opts.callgraph = true;
			ropts.graph = true;
			want_g = true;
			break;
		case OPT_CHILDREN: opts.children = true; break;
		case OPT_NOCHILDREN: opts.children = false; break;
		case OPT_NOINLINE: opts.no_inline = true; break;
		case OPT_NOCALLSITE: opts.no_call_site_frames = true; break;
		case OPT_ANNOTATE:
			opts.annotate = true;
			ann_n = 3;
			ann_sym = NULL;
			if (optarg && strspn(optarg, "0123456789+-") == strlen(optarg)) {
				size_t v;

				if (cli_size(P, "--annotate=N", optarg, 1, 100000, &v))
					return EXIT_USAGE;
				ann_n = (int)v;
			} else if (optarg) {
				if (!*optarg) {
					fprintf(stderr, "mycl-hot: --annotate= needs a symbol or a count\n");
					return EXIT_USAGE;
				}
				ann_sym = optarg;
			}
			break;
		case OPT_ACONTEXT: {
			size_t v;

			if (cli_size(P, "--annotate-context", optarg, 0, 100000, &v))
				return EXIT_USAGE;
			ann_context = (int)v;
			ann_context_set = true;
			break;
		}
		case OPT_SRCDIR:
			if (cli_source_dir(P, src_dirs, &nsrc, optarg))
				return EXIT_USAGE;
			break;
		case OPT_PREFIXMAP:
			if (cli_prefix_map(P, optarg))
				return EXIT_USAGE;
			aopts.prefix_map = optarg;
			break;
		case OPT_LOCKS: opts.locks = true; break;
		case OPT_CORDER:
			if (strcmp(optarg, "caller") && strcmp(optarg, "callee")) {
				fprintf(stderr, "mycl-hot: --call-order is caller or callee\n");
				return EXIT_USAGE;
			}
			ropts.caller_order = !strcmp(optarg, "caller");
			opts.callgraph = ropts.graph = want_g = true;
			break;
		case OPT_LOCKRULES: opts.lock_rules = optarg; break;
		case OPT_GLIMIT:
			if (cli_double(P, "--graph-limit", optarg, 0, 100, &ropts.graph_limit))
				return EXIT_USAGE;
			glimit_set = true;
			break;
		case OPT_CALLERS:
		case OPT_CALLEES:
			if (graph_sym && graph_callees != (c == OPT_CALLEES)) {
				fprintf(stderr, "mycl-hot: --callers and --callees do not go together: "
					"one tree at a time\n");
				return EXIT_USAGE;
			}
			graph_sym = optarg;
			graph_callees = c == OPT_CALLEES;
			opts.callgraph = true;
			break;
		case OPT_FOLDED:
			folded = true;
			opts.callgraph = true;
			break;
		case OPT_MAXSTACK:
			if (cli_uint(P, "--max-stack", optarg, 1, 65535, &opts.max_stack))
				return EXIT_USAGE;
			break;
		case OPT_FLAME:
			if (!*optarg) {
				fprintf(stderr, "mycl-hot: --flamegraph needs a file name\n");
				return EXIT_USAGE;
			}
			flame_file = optarg;
			opts.callgraph = true;
			break;
		case OPT_WIDE: wide = ropts.wide = true; break;
		case OPT_HTML:
			if (!*optarg) {
				fprintf(stderr, "mycl-hot: --html needs a file name\n");
				return EXIT_USAGE;
			}
			html_file = optarg;
			break;
		case OPT_GROUP: group = 1; break;
		case OPT_NOGROUP: group = 0; break;
		case 'q': lg.verbose = -1; break;
		case 'v': lg.verbose++; break;
		case 'h': usage(stdout); return EXIT_OK;
		case OPT_VERSION: puts("mycl-hot " MYCL_VERSION); return EXIT_OK;
		default: return cli_bad_option(P, argv, long_opts);
		}
	}
	if (cli_conflict(P, cli_given(&seen, 'q'), "-q", cli_given(&seen, 'v'), "-v",
			 "quiet or verbose?") ||
	    cli_conflict(P, cli_given(&seen, OPT_GROUP), "--group", cli_given(&seen, OPT_NOGROUP),
			 "--no-group", "events side by side or each in its own table?") ||
	    cli_conflict(P, cli_given(&seen, OPT_CHILDREN), "--children",
			 cli_given(&seen, OPT_NOCHILDREN), "--no-children",
			 "rows by inclusive or by self time?"))
		return EXIT_USAGE;
	if (check_modes(&opts, want_g, graph_sym, graph_callees, folded, ann_n > 0, ann_context_set,
			glimit_set, group, !strcmp(format, "json"), &ropts, flame_file, html_file, output,
			!strcmp(format, "pprof")))
		return EXIT_USAGE;
	/* options only some views read, refused where they would be dropped without a word */
	if (opts.lock_rules && !opts.locks && !html_file &&
	    (strcmp(format, "text") || folded || graph_sym || ann_n > 0)) {
		fprintf(stderr, P ": --lock-rules goes with --locks, --html or the text report "
			"(whose lock summary it names)\n");
		return EXIT_USAGE;
	}
	if ((nsrc || aopts.prefix_map) && !ann_n && !html_file) {
		fprintf(stderr, P ": %s goes with --annotate or --html (the source lines beside "
			"the code)\n", nsrc ? "--source-dir" : "--prefix-map");
		return EXIT_USAGE;
	}
	locks_view = opts.locks;
	if (types_view) {
		const char *other = want_g ? "-g" : opts.children ? "--children" :
				    opts.locks ? "--locks" : folded ? "--folded" :
				    graph_sym ? (graph_callees ? "--callees" : "--callers") :
				    ann_n ? "--annotate" : html_file ? "--html" :
				    flame_file ? "--flamegraph" : !strcmp(format, "pprof") ?
				    "--format pprof" : group == 1 ? "--group" :
				    ropts.max_rows ? "--max-rows" : NULL;

		if (cli_conflict(P, true, types_view == 3 ? "--sort parallelism" :
				 types_view == 2 ? "--sort typeoff" : "--sort type",
				 other != NULL, other, types_view == 3 ? "the parallelism view is a "
				 "table of its own; run them apart" : "the data-type view is a table of "
				 "its own; run them apart"))
			return EXIT_USAGE;
		opts.annotate = types_view != 3;
	}
	if (opts.latency && types_view != 3) {
		/* the flat profile's column: the other views weigh samples by CPU time */
		const char *other = want_g ? "-g" : opts.children ? "--children" :
				    opts.locks ? "--locks" : folded ? "--folded" :
				    graph_sym ? (graph_callees ? "--callees" : "--callers") :
				    ann_n ? "--annotate" :
				    flame_file ? "--flamegraph" : !strcmp(format, "pprof") ?
				    "--format pprof" : types_view ? "--sort type" : NULL;

		if (cli_conflict(P, true, "--latency", other != NULL, other, "--latency is a column "
				 "of the flat profile (and --sort parallelism a view); run them apart"))
			return EXIT_USAGE;
	}
	if (!strcmp(format, "pprof")) {
		static const enum mycl_sort_key thread_keys[] = { MYCL_SORT_COMM, MYCL_SORT_PID,
								  MYCL_SORT_TID, MYCL_SORT_DSO,
								  MYCL_SORT_SYM };

		if (!output && isatty(1)) {
			fprintf(stderr, P ": --format pprof is binary: give -o FILE or a pipe\n");
			return EXIT_USAGE;
		}
		opts.callgraph = true;
		opts.sort = thread_keys;
		opts.nr_sort = 5;
	}
	if (html_file) {
		/* The page shows call paths, lock sites, annotated code and a heat map whatever the view. */
		opts.callgraph = opts.annotate = opts.timed_stacks = true;
		opts.locks = !opts.children;
	}
	/* By default, as perf: groups side by side, unless a view of single events was asked for. */
	ropts.no_group = group == 0 || (group < 0 && (want_g || opts.event));
	if (opts.lock_rules && access(opts.lock_rules, R_OK)) {
		fprintf(stderr, P ": --lock-rules %s: %s\n", opts.lock_rules, strerror(errno));
		return EXIT_USAGE;
	}
	if (opts.symfs && !cli_is_dir(P, "--symfs", opts.symfs))
		return EXIT_USAGE;
	if (opts.kallsyms && cli_check_kallsyms(P, opts.kallsyms))
		return EXIT_USAGE;
	if (optind < argc) {
		if (input || optind + 1 < argc) {
			fprintf(stderr, "mycl-hot: one recording at a time\n");
			return EXIT_USAGE;
		}
		input = argv[optind];
	}
	if (!input) {
		struct stat sb;

		input = !fstat(0, &sb) && S_ISFIFO(sb.st_mode) ? "-" : "perf.data";
	}
	{
		const struct cli_file files[] = {
			{ input, "the recording", false }, { archive, "the --archive", false },
			{ opts.kallsyms, "the --kallsyms file", false },
			{ opts.lock_rules, "the --lock-rules file", false },
			{ output, "-o", true }, { html_file, "--html", true },
			{ flame_file, "--flamegraph", true },
		};

		if (cli_check_files(P, files, sizeof(files) / sizeof(files[0])))
			return EXIT_USAGE;
	}
	if (archive && (rc = cli_archive(P, archive, &input, 1, &opts.archive)))
		return rc;

	cli_progress_setup(&progress, "mycl-hot", input, lg.verbose, &popts);
	if ((rc = cli_open_recording(P, input, &popts, &pd)))
		return rc;
	if (mycl_perf_data__is_stat(pd)) {
		cli_progress_done(&progress);
		rc = stat_view(pd, &seen, format, output, wide, &ropts, &lg, html_file);
		mycl_perf_data__close(pd);
		return rc;
	}
	err = mycl_profile__build(pd, &opts, &prof);
	cli_progress_done(&progress);
	if (!err && (rc = cli_time_empty(P, pd, popts.time))) {
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (!err && opts.latency && !mycl_profile__latency_method(prof)) {
		fprintf(stderr, P ": %s: %s needs the threads running at each sample: the recording "
			"has no context switches and its samples carry no CPU; record with perf record "
			"--switch-events (perf 6.15+: --latency), or -a\n", mycl_perf_data__path(pd),
			types_view == 3 ? "--sort parallelism" : "--latency");
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return EXIT_USAGE;
	}
	if (err) {
		const char *msg = mycl_perf_data__errmsg(pd);

		if (err == MYCL_ERR_NO_EVENT) {
			fprintf(stderr, "mycl-hot: %s: no event named '%s' in the recording; it has",
				mycl_perf_data__path(pd), opts.event);
			for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
				fprintf(stderr, "%s '%s'", i ? "," : "", mycl_perf_data__event(pd, i)->name);
			fputc('\n', stderr);
		} else if (err == MYCL_ERR_NOT_RECORDED && !msg[0]) {
			fprintf(stderr, "mycl-hot: %s: its samples carry no CPU number (perf record -a, -C "
				"or --sample-cpu records one): %s cannot use it\n",
				mycl_perf_data__path(pd), opts.cpus ? "--cpu" : "--sort cpu");
			err = -EINVAL;
		} else if (err == MYCL_ERR_BAD_RULES) {
			fprintf(stderr, "mycl-hot: --lock-rules %s refused\n", opts.lock_rules);
			err = -EINVAL;
		} else if (err == -EINVAL)
			fprintf(stderr, "mycl-hot: --pid, --tid and --cpu take comma lists of numbers\n");
		else
			fprintf(stderr, "mycl-hot: %s\n", msg[0] ? msg : mycl_strerror(err));
		rc = err == -EINVAL ? EXIT_USAGE : cli_exit_code(err);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (opts.comms || opts.dsos || opts.pids || opts.tids || opts.cpus) {
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
				opts.comms ? " --comm " : "", opts.comms ? opts.comms : "",
				opts.pids ? " --pid " : "", opts.pids ? opts.pids : "",
				opts.tids ? " --tid " : "", opts.tids ? opts.tids : "",
				opts.cpus ? " --cpu " : "", opts.cpus ? opts.cpus : "",
				opts.dsos ? " --dso " : "", opts.dsos ? opts.dsos : "");
			mycl_profile__free(prof);
			mycl_perf_data__close(pd);
			return EXIT_NOTHING;
		}
	}
	/*
	 * Views that print no header (folded stacks, --callers/--callees, --locks, pprof, the
	 * pictures) say on stderr that the recording has no call chains; the others in it.
	 */
	if (lg.verbose >= 0 && (folded || graph_sym || locks_view || flame_file || html_file ||
				!strcmp(format, "pprof"))) {
		for (size_t i = 0; i < mycl_profile__nr_warnings(prof); i++) {
			const struct mycl_warning *w = mycl_profile__warning(prof, i);

			if (!strcmp(w->kind, "no_chains"))
				fprintf(stderr, "mycl-hot: %s: %s; %s\n", mycl_perf_data__path(pd),
					w->message, w->fix);
		}
	}
	/* The pictures asked for beside the report, then the report. */
	if ((flame_file && (rc = write_flame(flame_file, prof))) ||
	    (html_file && (rc = write_html(html_file, prof, &aopts)))) {
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (!strcmp(format, "pprof")) {
		rc = write_pprof(output, prof);
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (output && !(out = cli_open_output(output))) {
		fprintf(stderr, "mycl-hot: cannot write %s: %s\n", output, strerror(errno));
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return EXIT_INTERNAL;
	}
	/* Text within 100 columns unless --wide; JSON and folded stacks as they are. */
	base_out = out;
	if (!wide && strcmp(format, "json") && !folded) {
		FILE *fo = cli_folding(out, 100);

		if (fo)
			out = fo;
	}
	if (types_view == 3)
		err = parallelism_views(out, prof, !strcmp(format, "json"));
	else if (types_view)
		err = types_views(out, prof, types_view == 2, !strcmp(format, "json"),
				  ropts.percent_limit);
	else if (locks_view)
		err = lock_reports(out, prof, true, !strcmp(format, "json"), ropts.graph_limit);
	else if (graph_sym || folded)
		err = special_views(out, prof, graph_sym, graph_callees, folded,
				    !strcmp(format, "json"), &ropts);
	else if (ann_n && !strcmp(format, "json"))
		err = annotations(out, prof, ann_n, ann_sym, ann_context, true, &aopts);
	else if (ann_n) {
		/* --annotate=SYM: that function alone, as perf annotate SYM; N: after the profile */
		err = ann_sym ? 0 : mycl_report__text(out, prof, &ropts);
		if (!err)
			err = annotations(out, prof, ann_n, ann_sym, ann_context, false, &aopts);
		if (err == -ENOENT)
			graph_sym = ann_sym;
	} else if (!strcmp(format, "json")) {
		err = mycl_report__json(out, prof, &ropts);
	} else {
		err = mycl_report__text(out, prof, &ropts);
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
			graph_sym);
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
	err = cli_finish_output(P, out, output, err) != EXIT_OK;
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
