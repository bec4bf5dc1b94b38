/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-diff: two recordings compared symbol by symbol (a thin CLI over libmycl). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opts.h"
#include "mycl/mycl.h"

#define P "mycl-diff"

/* The text report within 100 columns unless --wide: its header's long lines folded. */
static int write_text(FILE *out, const struct mycl_diff *d, const struct mycl_diff_write_opts *wo)
{
	FILE *fo = wo->wide ? NULL : cli_folding(out, 100);
	int err = mycl_diff__write_text(fo ? fo : out, d, wo);

	errno = 0;
	if (fo && fclose(fo) && !err)
		err = errno ? -errno : -EIO;	/* (the full disk's reason, from the flush under it) */
	return err;
}

/*
 * "A[,B]" copied into FIRST (A there): B, or FIRST when there is no comma;
 * NULL, said as OPT's mistake, when A or B is empty, there are more than two
 * or ARG does not fit.  A path may hold commas: ARG naming a file is that one
 * file, and a comma where both sides name files splits it; more than one such
 * comma is said ambiguous.
 */
static const char *split_pair(const char *opt, const char *what, const char *arg, char *first,
			      size_t len)
{
	char *second = NULL;
	size_t splits = 0, at = 0;

	if (strlen(arg) >= len) {
		fprintf(stderr, P ": %s: a path of %zu bytes is too long\n", opt, strlen(arg));
		return NULL;
	}
	snprintf(first, len, "%s", arg);
	if (!access(arg, F_OK))
		return first;
	for (char *c = strchr(first, ','); c; c = strchr(c + 1, ',')) {
		bool both;

		*c = '\0';
		both = first[0] && c[1] && !access(first, F_OK) && !access(c + 1, F_OK);
		*c = ',';
		if (both) {
			splits++;
			at = (size_t)(c - first);
		}
	}
	if (splits > 1) {
		fprintf(stderr, P ": %s: '%s' splits at more than one comma into two files that "
			"exist: name them through links without commas\n", opt, arg);
		return NULL;
	}
	if (splits == 1) {
		first[at] = '\0';
		return first + at + 1;
	}
	second = strchr(first, ',');
	if (second)
		*second++ = '\0';
	if (!first[0] || (second && (!second[0] || strchr(second, ',')))) {
		fprintf(stderr, P ": %s takes %s, not '%s'\n", opt, what, arg);
		return NULL;
	}
	return second ? second : first;
}

/* --archive A[,B], split by main: BASE's archive and NEW's (SECOND == FIRST: one for both). */
static int open_archives(const char *first, const char *second, const char *const recs[2],
			 const struct mycl_archive **a, const struct mycl_archive **b)
{
	int rc = cli_archive(P, first, recs, second != first ? 1 : 2, a);

	if (!rc && second != first)
		rc = cli_archive(P, second, recs + 1, 1, b);
	else if (!rc)
		*b = *a;
	return rc;
}

/* One recording's flat profile by dso and symbol; an exit code on failure, said. */
/* NAME's length without a modifier suffix (":u", ":ppp"); a tracepoint's "sys:name" stays whole. */
static size_t base_len(const char *name)
{
	const char *c = strrchr(name, ':');

	return c && c[1] && strspn(c + 1, "ukhpPGHSDIWe") == strlen(c + 1) ? (size_t)(c - name)
									    : strlen(name);
}

/*
 * Whether A and B count the same thing: the same hardware, software or cache
 * event (their ids are fixed), else the same name but for modifiers (a
 * tracepoint's or a PMU's ids differ from one machine to the next).
 */
static bool same_kind(const struct mycl_event *a, const struct mycl_event *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == 0 || a->type == 1 || a->type == 3)	/* PERF_TYPE_HARDWARE, SOFTWARE, HW_CACHE */
		return a->config == b->config;
	return base_len(a->name) == base_len(b->name) &&
	       !strncmp(a->name, b->name, base_len(a->name));
}

static int load(const char *path, const char *time, const struct mycl_profile_opts *po,
		struct mycl_perf_data **pd, struct mycl_profile **prof, int verbose)
{
	MYCL_OPTS(mycl_perf_data_opts, popts, .time = time);
	struct cli_progress progress;
	int rc;

	cli_progress_setup(&progress, P, path, verbose, &popts);
	if ((rc = cli_open_recording(P, path, &popts, pd)))
		return rc;
	rc = mycl_profile__build(*pd, po, prof);
	cli_progress_done(&progress);
	if (!rc && (rc = cli_time_empty(P, *pd, time))) {
		mycl_profile__free(*prof);
		*prof = NULL;
		mycl_perf_data__close(*pd);
		*pd = NULL;
		return rc;
	}
	if (rc) {
		if (rc == MYCL_ERR_NO_EVENT) {
			fprintf(stderr, P ": %s: no event named '%s' in the recording; it has", path,
				po->event);
			for (size_t i = 0; i < mycl_perf_data__nr_events(*pd); i++)
				fprintf(stderr, "%s '%s'", i ? "," : "", mycl_perf_data__event(*pd, i)->name);
			fputc('\n', stderr);
		} else {
			fprintf(stderr, P ": %s: %s\n", path, mycl_errmsg(rc));
		}
		mycl_perf_data__close(*pd);
		*pd = NULL;
		return cli_exit_code(rc);
	}
	return EXIT_OK;
}

/*
 * --share BIN[,NEW_BIN] (B1 and B2, split by main; the same when one is given):
 * each binary weighted by its recording, compared line by line.
 */
static int share_diff(const char *b1, const char *b2, const char *base, const char *new_p,
		      const char *const times[2], const struct mycl_diff_opts *dopts,
		      const struct mycl_diff_write_opts *wo, const char *format, const char *output,
		      struct cli_log *lg)
{
	struct mycl_share *sa = NULL, *sb = NULL;
	struct mycl_diff *d = NULL;
	const char *name;
	FILE *out = stdout;
	int rc;

	name = strrchr(b2, '/') ? strrchr(b2, '/') + 1 : b2;
	{
		MYCL_OPTS(mycl_share_opts, so, .print = cli_print, .print_ctx = lg, .perf_data = base,
			  .perf_time = times[0]);

		rc = mycl_share__analyze(b1, &so, &sa);
		if (!rc) {
			so.perf_data = new_p;
			so.perf_time = times[1];
			rc = mycl_share__analyze(b2, &so, &sb);
		}
	}
	if (rc) {
		fprintf(stderr, P ": %s\n", mycl_errmsg(rc));
		mycl_share__free(sa);
		return rc == -EINVAL && (times[0] || times[1]) ? EXIT_USAGE : cli_exit_code(rc);
	}
	rc = mycl_diff__build_share(sa, sb, name, dopts, &d) ? EXIT_INTERNAL : EXIT_OK;
	if (!rc && output && !(out = cli_open_output(output))) {
		fprintf(stderr, P ": cannot write %s: %s\n", output, strerror(errno));
		rc = EXIT_INTERNAL;
	}
	if (!rc) {
		int e = !strcmp(format, "json") ? mycl_diff__write_json(out, d, wo) :
			!strcmp(format, "markdown") ? mycl_diff__write_markdown(out, d, wo) :
			write_text(out, d, wo);

		rc = cli_finish_output(P, out, output, e);
	}
	mycl_diff__free(d);
	mycl_share__free(sa);
	mycl_share__free(sb);
	return rc;
}

/* Whether PATH is a perf stat record file (its STAT feature); false for stdin. */
static bool is_stat(const char *path)
{
	struct mycl_perf_data *pd;
	bool yes;

	if (!strcmp(path, "-") || mycl_perf_data__open(path, NULL, &pd))
		return false;
	yes = mycl_perf_data__is_stat(pd);
	mycl_perf_data__close(pd);
	return yes;
}

/* Two perf stat recordings: each event's count and figure, noise from -I intervals. */
static int stat_diff(const char *base, const char *new_p, const struct mycl_diff_opts *dopts,
		     const struct mycl_diff_write_opts *wo, const char *format, const char *output,
		     struct cli_log *lg)
{
	struct mycl_perf_data *pa = NULL, *pb = NULL;
	struct mycl_stat *a = NULL, *b = NULL;
	struct mycl_stat_diff *d = NULL;
	FILE *out = stdout, *fo = NULL;
	int rc = cli_read_stat(P, base, "", lg, &pa, &a);

	if (!rc)
		rc = cli_read_stat(P, new_p, "", lg, &pb, &b);
	if (!rc && mycl_diff__build_stat(a, b, dopts, &d)) {
		fprintf(stderr, P ": out of memory\n");
		rc = EXIT_INTERNAL;
	}
	if (!rc && output && !(out = cli_open_output(output))) {
		fprintf(stderr, P ": cannot write %s: %s\n", output, strerror(errno));
		rc = EXIT_INTERNAL;
	}
	if (!rc) {
		int e;

		if (!strcmp(format, "text") && !wo->wide)
			fo = cli_folding(out, 100);
		e = !strcmp(format, "json") ? mycl_diff__write_stat_json(out, d, wo) :
		    !strcmp(format, "markdown") ? mycl_diff__write_stat_markdown(out, d, wo) :
		    mycl_diff__write_stat_text(fo ? fo : out, d, wo);
		if (fo && fclose(fo) && !e)
			e = -EIO;
		rc = cli_finish_output(P, out, output, e);
	}
	mycl_diff__stat_free(d);
	mycl_stat__free(a);
	mycl_stat__free(b);
	mycl_perf_data__close(pa);
	mycl_perf_data__close(pb);
	return rc;
}

struct diff_args {
	struct cli_common c;
	struct mycl_profile_opts po;
	struct mycl_diff_opts dopts;
	struct mycl_diff_write_opts wo;
	const char *flame, *share_bins, *archives;
	char tb[256];			/* --time's first part */
	const char *times[2];		/* BASE's and NEW's slices */
	bool types;			/* --types: per struct member */
};

#define AT(f) offsetof(struct diff_args, f)

static int set_types(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct diff_args *a = (struct diff_args *)s;

	a->po.annotate = a->types = true;
	return 0;
}

/* perf diff's --time: one slice for both, or BASE's:NEW's */
static int set_time(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct diff_args *a = (struct diff_args *)s;

	if (strlen(arg) >= sizeof(a->tb) || strchr(strchr(arg, ':') ? strchr(arg, ':') + 1 : "", ':')) {
		fprintf(stderr, P ": --time takes SLICE or BASE_SLICE:NEW_SLICE, not '%s'\n", arg);
		return -1;
	}
	snprintf(a->tb, sizeof(a->tb), "%s", arg);
	a->times[0] = a->times[1] = a->tb;
	if (strchr(a->tb, ':')) {
		*strchr(a->tb, ':') = '\0';
		a->times[1] = arg + strlen(a->tb) + 1;
	}
	return 0;
}

static int set_flame(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct diff_args *a = (struct diff_args *)s;

	a->flame = arg;
	a->po.callgraph = true;
	return 0;
}

static int set_archives(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	return cli_set_once(P, "--archive", &((struct diff_args *)s)->archives, arg,
			    " (BASE,NEW for two)");
}

static const struct cli_opt diff_opts[] = {
	{ .name = "by-share", .set = cli_set_flag, .off = AT(dopts.by_share),
	  .help = "compare each symbol's share of its run (runs of the same\n"
		  "length); default: its amount (runs that did the same work)" },
	{ .name = "noise", .arg = "Z", .set = cli_set_double, .off = AT(dopts.noise), .min = 0.5,
	  .max = 100,
	  .help = "a change is |z| >= Z standard errors (default 4)" },
	{ .name = "locks", .set = cli_set_flag, .off = AT(po.locks),
	  .help = "compare the lock time of each lock site (the function\n"
		  "that takes the lock) instead of each symbol's time" },
	{ .name = "types", .set = set_types,
	  .help = "compare the samples on each struct member (data types, as\n"
		  "mycl-hot --sort typeoff)" },
	{ .name = "share", .arg = "BIN[,NEW_BIN]", .set = cli_set_str, .off = AT(share_bins),
	  .help = "compare the samples on each cache line of the binary's\n"
		  "globals (mycl-share weighted by each recording)" },
	{ .name = "event", .arg = "NAME", .set = cli_set_str, .off = AT(po.event),
	  .help = "compare this event (default: the first of each)" },
	{ .name = "time", .arg = "SLICE[:NEW_SLICE]", .set = set_time,
	  .help = "only samples in this time slice of each (as perf's\n"
		  "--time: START,STOP seconds, 10%/2, 0%-10%); after a ':',\nNEW's own" },
	{ .name = "format", .arg = "text|markdown|json", .set = cli_set_choice,
	  .off = AT(c.format),
	  .choices = (const char *const[]){ "text", "markdown", "json", NULL },
	  .help = "output format (default text)" },
	{ .name = "max-rows", .arg = "N", .set = cli_set_size, .off = AT(wo.max_rows), .min = 1,
	  .max = 1000000000,
	  .help = "rows shown in text and markdown (default 25)" },
	{ .name = "flamegraph", .arg = "FILE", .set = set_flame,
	  .help = "also write a differential flame graph (SVG) to FILE:\n"
		  "NEW's call paths, coloured by the change from BASE" },
	{ .name = NULL },
};

static const struct cli_opt diff_archives[] = {
	{ .name = "archive", .arg = "A[,B]", .set = set_archives,
	  .help = "perf archives of BASE and NEW (one for both)" },
	{ .name = NULL },
};

static const struct cli_group diff_groups[] = {
	{ NULL, diff_opts },
	{ "Symbol sources", cli_opts_symbols },
	{ NULL, diff_archives },
	{ NULL, cli_opts_archive_max },
	{ NULL, cli_opts_debug },
	{ "Output", cli_opts_wide },
	{ NULL, cli_opts_output },
	{ NULL, NULL },
};

static const struct cli_tool diff_tool = {
	.prog = P,
	.version = MYCL_VERSION,
	.synopsis = "[options] BASE.data NEW.data",
	.about = "Compares two recordings per symbol, matched by name (two builds of one program\n"
		 "compare), and marks the differences larger than sampling noise.",
	.groups = diff_groups,
	.exit_status = "Exit status: 0 ok, 1 usage, 2 cannot read, 3 not a perf.data or corrupt,\n"
		       "4 no such event, 5 internal error.\n",
};

int main(int argc, char **argv)
{
	static const enum mycl_sort_key keys[] = { MYCL_SORT_DSO, MYCL_SORT_SYM };
	struct diff_args args = {
		.c = { .lg = { .prog = P }, .format = "text", .buildid_dir = cli_home_debug() },
		.po = { .sz = sizeof(args.po), .print = cli_print, .print_ctx = &args.c.lg,
			.sort = keys, .nr_sort = 2 },
		.dopts = { .sz = sizeof(args.dopts) },
		.wo = { .sz = sizeof(args.wo) },
	};
	struct diff_args *o = &args;
	struct cli_log *lg = &args.c.lg;
	struct mycl_perf_data *pa = NULL, *pb = NULL;
	struct mycl_profile *a = NULL, *b = NULL;
	struct mycl_diff *d = NULL;
	char sb[4096] = "", ab[4096] = "";	/* --share's and --archive's first parts */
	const char **times = args.times;
	char names[2][4400];			/* the recordings' names with their slices */
	const char *sb2, *ab2;			/* their second (the first again when alone) */
	const struct mycl_archive *arch_a = NULL, *arch_b = NULL;
	FILE *out = NULL;
	struct cli_args opts;
	int rc;

	cli_escape_std();
	if (cli_check_env(P))
		return EXIT_USAGE;
	out = stdout;
	if (!cli_parse(&opts, &diff_tool, &args.c, argc, argv, &rc))
		return rc;
	cli_profile_sources(&args.c, &args.po);
	args.wo.wide = args.c.wide;
	if (optind + 2 != argc) {
		fprintf(stderr, P ": two recordings, BASE and NEW\n");
		cli_usage(&diff_tool, stderr);
		return EXIT_USAGE;
	}
	if (cli_conflict(P, o->wo.wide, "--wide", strcmp(o->c.format, "text") != 0, "--format",
			 "--wide is for the text report") ||
	    cli_conflict(P, o->wo.max_rows != 0, "--max-rows", !strcmp(o->c.format, "json"),
			 "--format json", "the JSON document holds every row") ||
	    cli_conflict(P, o->types, "--types", o->po.locks, "--locks", "one comparison at a time") ||
	    cli_conflict(P, o->flame && o->c.output && !strcmp(o->flame, o->c.output),
			 "--flamegraph", true, "-o", "they name the same file; give each its own") ||
	    (o->po.symfs && !cli_is_dir(P, "--symfs", o->po.symfs)) ||
	    (o->po.kallsyms && cli_check_kallsyms(P, o->po.kallsyms)))
		return EXIT_USAGE;
	if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-")) {
		fprintf(stderr, P ": only one recording can come from standard input\n");
		return EXIT_USAGE;
	}
	sb2 = o->share_bins ? split_pair("--share", "BIN[,NEW_BIN]", o->share_bins, sb, sizeof(sb)) : NULL;
	ab2 = o->archives ? split_pair("--archive", "BASE_ARCHIVE[,NEW_ARCHIVE]", o->archives, ab,
				    sizeof(ab)) : NULL;
	{
		const struct cli_file files[] = {
			{ argv[optind], "BASE", false }, { argv[optind + 1], "NEW", false },
			{ sb[0] ? sb : NULL, "a --share binary", false },
			{ sb2, "a --share binary", false },
			{ ab[0] ? ab : NULL, "an --archive", false }, { ab2, "an --archive", false },
			{ o->po.kallsyms, "the --kallsyms file", false },
			{ o->c.output, "-o", true }, { o->flame, "--flamegraph", true },
		};

		if ((o->share_bins && !sb2) || (o->archives && !ab2) ||
		    cli_check_files(P, files, sizeof(files) / sizeof(files[0])))
			return EXIT_USAGE;
	}
	o->wo.base_name = argv[optind];
	o->wo.new_name = argv[optind + 1];
	for (int i = 0; i < 2; i++) {
		/* an empty side reads all of its recording */
		if (times[i] && !*times[i])
			times[i] = NULL;
		if (times[i]) {
			snprintf(names[i], sizeof(names[i]), "%s (--time %s)", argv[optind + i],
				 times[i]);
			*(i ? &o->wo.new_name : &o->wo.base_name) = names[i];
		}
	}
	{
		bool sa = is_stat(argv[optind]), sb_ = is_stat(argv[optind + 1]);

		if (sa != sb_) {
			fprintf(stderr, P ": %s is a perf stat recording (counts) and %s a perf record "
				"one (samples): they do not compare\n", argv[optind + !sa],
				argv[optind + sa]);
			return EXIT_USAGE;
		}
		if (sa) {
			static const char *const samples_only[] = {
				"locks", "types", "share", "flamegraph", "time", "event", "by-share",
				"max-rows",
			};

			for (size_t i = 0; i < sizeof(samples_only) / sizeof(samples_only[0]); i++)
				if (cli_opt_given(&opts, samples_only[i])) {
					fprintf(stderr, P ": --%s compares samples; %s and %s are perf "
						"stat recordings (counts)\n", samples_only[i],
						argv[optind], argv[optind + 1]);
					return EXIT_USAGE;
				}
			return stat_diff(argv[optind], argv[optind + 1], &o->dopts, &o->wo, o->c.format, o->c.output,
					 lg);
		}
	}
	if (o->share_bins) {
		if (cli_conflict(P, true, "--share", o->po.locks, "--locks", "one comparison at a time") ||
		    cli_conflict(P, true, "--share", o->types, "--types", "one comparison at a time") ||
		    cli_conflict(P, true, "--share", o->flame != NULL, "--flamegraph",
				 "the flame graph is of call paths; run them apart") ||
		    cli_conflict(P, true, "--share", !strcmp(argv[optind], "-") ||
				 !strcmp(argv[optind + 1], "-"), "standard input",
				 "each recording is read twice"))
			return EXIT_USAGE;
		return share_diff(sb, sb2, argv[optind], argv[optind + 1], times, &o->dopts, &o->wo,
				  o->c.format, o->c.output, lg);
	}
	rc = o->archives ? open_archives(ab, ab2, (const char *const *)argv + optind, &arch_a,
					 &arch_b) : 0;
	o->po.archive = arch_a;
	if (!rc)
		rc = load(argv[optind], times[0], &o->po, &pa, &a, lg->verbose);
	o->po.archive = arch_b;
	if (!rc)
		rc = load(argv[optind + 1], times[1], &o->po, &pb, &b, lg->verbose);
	if (!rc) {
		const struct mycl_profile_event *ea = mycl_profile__event(a, 0);
		const struct mycl_profile_event *eb = mycl_profile__event(b, 0);

		if (!ea->nr_samples || !eb->nr_samples) {
			/* every symbol would "change" against nothing */
			fprintf(stderr, P ": %s has no samples of %s: nothing to compare\n",
				argv[optind + !!ea->nr_samples],
				(ea->nr_samples ? eb : ea)->event ? (ea->nr_samples ? eb : ea)->event->name
								  : "its event");
			rc = EXIT_NOTHING;
		} else {
			if (!same_kind(ea->event, eb->event) && !o->dopts.by_share) {
				/* time against counts, or two counts of different things: no amount compares */
				fprintf(stderr, P ": %s's first event is %s, %s's %s: they count different "
					"things; give --event NAME of an event both recorded, or --by-share "
					"to compare each symbol's share\n", argv[optind], ea->event->name,
					argv[optind + 1], eb->event->name);
				rc = EXIT_USAGE;
			} else if (!o->po.event && strcmp(ea->event->name, eb->event->name)) {
				fprintf(stderr, P ": comparing %s's %s with %s's %s (--event to "
					"choose)\n", argv[optind], ea->event->name, argv[optind + 1],
					eb->event->name);
			}
			if (!rc)
				rc = (o->types ? mycl_diff__build_types(a, 0, b, 0, &o->dopts, &d) :
				      o->po.locks ? mycl_diff__build_locks(a, 0, b, 0, &o->dopts, &d) :
				      mycl_diff__build(a, 0, b, 0, &o->dopts, &d)) ? EXIT_INTERNAL : EXIT_OK;
			if (rc == EXIT_INTERNAL)
				fprintf(stderr, P ": out of memory\n");
		}
	}
	if (!rc && o->c.output && !(out = cli_open_output(o->c.output))) {
		fprintf(stderr, P ": cannot write %s: %s\n", o->c.output, strerror(errno));
		rc = EXIT_INTERNAL;
	}
	if (!rc) {
		int err = !strcmp(o->c.format, "json") ? mycl_diff__write_json(out, d, &o->wo) :
			  !strcmp(o->c.format, "markdown") ? mycl_diff__write_markdown(out, d, &o->wo) :
			  write_text(out, d, &o->wo);

		rc = cli_finish_output(P, out, o->c.output, err);
	}
	if (!rc && o->flame) {
		MYCL_OPTS(mycl_flame_opts, fo, .by_share = o->dopts.by_share, .by_period = !o->dopts.by_share);
		FILE *f = cli_open_output(o->flame);
		int err;

		if (!f) {
			fprintf(stderr, P ": cannot write %s: %s\n", o->flame, strerror(errno));
			rc = EXIT_INTERNAL;
		} else {
			err = mycl_report__flamegraph_diff(f, a, 0, b, 0, &fo);
			rc = cli_finish_file(P, f, "the flame graph", o->flame, err);
		}
	}
	mycl_diff__free(d);
	mycl_profile__free(a);
	mycl_profile__free(b);
	mycl_perf_data__close(pa);
	mycl_perf_data__close(pb);
	return rc;
}
