/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-report: one attachment for a bug ticket from a perf recording (a thin CLI over libmycl). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "opts.h"

#define P "mycl-report"
#define MAX_BINS 16

/* TEXT (already escaped) to F with headings and warnings in colour. */
static void colour_lines(FILE *f, const char *text)
{
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		int len = (int)(nl ? nl - l : (long)strlen(l));

		if (len > 6 && !strncmp(l, "== ", 3))
			fprintf(f, "\033[1;36m%.*s\033[0m\n", len, l);
		else if (strstr(l, "WARNING") && strstr(l, "WARNING") < l + len)
			fprintf(f, "\033[1;33m%.*s\033[0m\n", len, l);
		else if (!strncmp(l, "mycl-report of ", 15))
			fprintf(f, "\033[1m%.*s\033[0m\n", len, l);
		else
			fprintf(f, "%.*s\n", len, l);
		l += len + (nl ? 1 : 0);
	}
}

/*
 * A BINARY argument, checked before the recording is read: readable, and an
 * ELF file (what the false-sharing section disassembles).  0, or the exit
 * code once said.
 */
static int binary_arg(const char *path)
{
	unsigned char magic[4];
	struct stat sb;
	FILE *f;
	size_t n;

	if (stat(path, &sb) || !(f = fopen(path, "rb"))) {
		fprintf(stderr, P ": %s: %s\n", path, strerror(errno));
		return EXIT_IO;
	}
	n = S_ISDIR(sb.st_mode) ? 0 : fread(magic, 1, sizeof(magic), f);
	fclose(f);
	if (S_ISDIR(sb.st_mode) || n < sizeof(magic) || memcmp(magic, "\177ELF", 4)) {
		fprintf(stderr, P ": %s: %s; the BINARY arguments are programs or libraries "
			"for the false-sharing section\n", path,
			S_ISDIR(sb.st_mode) ? "is a directory" : "not an ELF file");
		return EXIT_BAD_INPUT;
	}
	return 0;
}

struct report_args {
	struct cli_common c;
	struct mycl_perf_data_opts popts;
	struct mycl_profile_opts opts;
	struct mycl_ticket_opts to;
	const char *color, *stat_file;
};

#define AT(f) offsetof(struct report_args, f)

static const struct cli_opt report_opts[] = {
	{ .name = "format", .arg = "text|markdown|jira|json", .set = cli_set_choice,
	  .off = AT(c.format),
	  .choices = (const char *const[]){ "text", "markdown", "jira", "json", NULL },
	  .help = "(default text, for mailing lists and\n"
		  "bugs.mysql.com; markdown for GitHub, GitLab; jira: Jira's\n"
		  "wiki markup, for MariaDB's and MySQL's Jira)" },
	{ .name = "redact", .set = cli_set_flag, .off = AT(to.redact),
	  .help = "drop host name, command line, the recording's directory,\n"
		  "home directories and user names" },
	{ .name = "color", .arg = "auto|always|never", .set = cli_set_choice, .off = AT(color),
	  .choices = (const char *const[]){ "auto", "always", "never", NULL },
	  .help = "headings and warnings in colour (text; auto: on a\n"
		  "terminal, unless NO_COLOR is set)" },
	{ .name = "colour", .arg = "auto|always|never", .alias = "color", .help = NULL },
	{ .name = "top", .arg = "N", .set = cli_set_size, .off = AT(to.top), .min = 1,
	  .max = 100000,
	  .help = "rows of the flat profile (default 20)" },
	{ .name = "width", .arg = "N", .set = cli_set_uint, .off = AT(to.width), .min = 60,
	  .max = 10000,
	  .help = "columns (60 or more; default 100)" },
	{ .name = "no-share", .set = cli_set_flag, .off = AT(to.no_share),
	  .help = "no false-sharing section (it reads the binaries' code)" },
	{ .name = "libraries", .set = cli_set_flag, .off = AT(to.libraries),
	  .help = "the hottest code, false sharing and build facts of shared\n"
		  "libraries too (default: the programs' own binaries)" },
	{ .name = "share-types", .set = cli_set_flag, .off = AT(to.share_types),
	  .help = "the false-sharing section judges struct members too\n"
		  "(mycl-share --types: reads every function's debug info)" },
	{ .name = "event", .arg = "NAME", .set = cli_set_str, .off = AT(opts.event),
	  .help = "report this event (default: the first with samples)" },
	{ .name = "time", .arg = "SLICE", .set = cli_set_str, .off = AT(popts.time),
	  .help = "only samples in this time slice, as perf's --time:\n"
		  "START,STOP seconds, 10%/2 (the second tenth), 0%-10%" },
	{ .name = "stat", .arg = "FILE", .set = cli_set_str, .off = AT(stat_file),
	  .help = "a perf stat record file run beside it: its counts" },
	{ .name = "max-stack", .arg = "N", .set = cli_set_uint, .off = AT(opts.max_stack),
	  .min = 1, .max = 65535,
	  .help = "frames kept of each call chain (default 127, as perf)" },
	{ .name = NULL },
};

static const struct cli_group report_groups[] = {
	{ NULL, report_opts },
	{ "Symbol sources", cli_opts_symbols },
	{ NULL, cli_opts_archive },
	{ NULL, cli_opts_archive_max },
	{ NULL, cli_opts_debug },
	{ "Source files", cli_opts_sources },
	{ "Output", cli_opts_output },
	{ NULL, NULL },
};

static const struct cli_tool report_tool = {
	.prog = P,
	.version = MYCL_VERSION,
	.synopsis = "[options] perf.data [BINARY...]",
	.about = "One report of a recording to paste into a bug ticket: what was recorded and its\n"
		 "warnings, the flat profile, the callers of the top functions, lock and spin sites,\n"
		 "the hottest code annotated, false sharing among the globals of the binaries (those\n"
		 "given, else the recording's own), symbols, and how the main binaries were built.\n"
		 "Every line within 100 columns.",
	.groups = report_groups,
	.exit_status = "Exit status: 0 ok, 1 usage, 2 cannot read input, 3 invalid or corrupt input,\n"
		       "4 nothing to report, 5 internal error.\n",
};

int main(int argc, char **argv)
{
	struct report_args args = {
		.c = { .lg = { .prog = P }, .format = "text", .buildid_dir = cli_home_debug() },
		.popts = { .sz = sizeof(args.popts), .print = cli_print, .print_ctx = &args.c.lg },
		.opts = { .sz = sizeof(args.opts), .print = cli_print, .print_ctx = &args.c.lg,
			  .callgraph = true, .locks = true, .annotate = true,
			  /* what the false-sharing section weighs by, from this one read */
			  .call_sites = true, .data_addresses = true },
		.to = { .sz = sizeof(args.to), .home = getenv("HOME") },
		.color = "auto",
	};
	struct report_args *a = &args;
	struct cli_progress progress;
	MYCL_OPTS(mycl_annotate_opts, aopts, .source_dirs = args.c.src_dirs);
	const char *input;
	const char *bins[MAX_BINS + 1] = { NULL };
	struct mycl_perf_data *pd = NULL, *stat_pd = NULL;
	struct mycl_stat *stat = NULL;
	struct mycl_profile *prof = NULL;
	bool use_colour;
	size_t ev = SIZE_MAX;
	FILE *out;
	struct cli_args cargs;
	int err, rc;

	cli_escape_std();
	if (cli_check_env(P))
		return EXIT_USAGE;
	if (!cli_parse(&cargs, &report_tool, &args.c, argc, argv, &rc))
		return rc;
	cli_profile_sources(&args.c, &args.opts);
	args.to.symfs = args.c.symfs;
	aopts.prefix_map = args.c.prefix_map;
	args.to.annotate_opts = &aopts;
	if (optind >= argc) {
		fprintf(stderr, P ": which recording? (mycl-report perf.data [BINARY...])\n");
		return EXIT_USAGE;
	}
	input = argv[optind++];
	for (int i = 0; optind < argc; optind++, i++) {
		if (i >= MAX_BINS) {
			fprintf(stderr, P ": at most %d binaries\n", MAX_BINS);
			return EXIT_USAGE;
		}
		bins[i] = argv[optind];
	}
	if (bins[0])
		a->to.binaries = a->opts.binaries = bins;
	if (cli_conflict(P, !strcmp(a->color, "always"), "--color always",
			 strcmp(a->c.format, "text") != 0,
			 "--format", "colour is for the text report") ||
	    cli_conflict(P, a->to.width != 0, "--width", !strcmp(a->c.format, "json"), "--format json",
			 "JSON has no columns") ||
	    cli_conflict(P, a->to.no_share, "--no-share", bins[0] != NULL, "BINARY arguments",
			 "the binaries are for the false-sharing section") ||
	    cli_conflict(P, a->to.no_share, "--no-share", a->to.share_types, "--share-types",
			 "--share-types is for the false-sharing section") ||
	    (a->opts.symfs && !cli_is_dir(P, "--symfs", a->opts.symfs)) ||
	    (a->opts.kallsyms && cli_check_kallsyms(P, a->opts.kallsyms)))
		return EXIT_USAGE;
	{
		struct cli_file files[MAX_BINS + 5] = {
			{ input, "the recording", false }, { a->c.archive, "the --archive", false },
			{ a->opts.kallsyms, "the --kallsyms file", false }, { a->c.output, "-o", true },
			{ a->stat_file, "the --stat file", false },
		};
		size_t n = 5;

		for (size_t i = 0; bins[i]; i++)
			files[n++] = (struct cli_file){ bins[i], "a BINARY", false };
		if (cli_check_files(P, files, n))
			return EXIT_USAGE;
	}
	for (size_t i = 0; bins[i]; i++)
		if ((rc = binary_arg(bins[i])))
			return rc;
	if (a->c.archive && (rc = cli_archive(P, a->c.archive, &input, 1, &a->opts.archive)))
		return rc;
	a->to.archive = a->opts.archive;
	use_colour = !strcmp(a->color, "always") ||
		     (!strcmp(a->color, "auto") && !a->c.output && isatty(1) && !getenv("NO_COLOR") &&
		      !strcmp(a->c.format, "text"));
	a->to.markdown = !strcmp(a->c.format, "markdown");
	a->to.jira = !strcmp(a->c.format, "jira");
	if (a->stat_file && (rc = cli_read_stat(P, a->stat_file, "--stat ", &a->c.lg, &stat_pd, &stat)))
		return rc;
	a->to.stat = stat;

	cli_progress_setup(&progress, P, input, a->c.lg.verbose, &a->popts);
	if ((rc = cli_open_recording(P, input, &a->popts, &pd)))
		return rc;
	err = mycl_profile__build(pd, &a->opts, &prof);
	cli_progress_done(&progress);
	if (!err && (rc = cli_time_empty(P, pd, a->popts.time))) {
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (err) {
		if (err == MYCL_ERR_NO_EVENT) {
			fprintf(stderr, P ": %s: no event named '%s' in the recording; it has",
				mycl_perf_data__path(pd), a->opts.event);
			for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
				fprintf(stderr, "%s '%s'", i ? "," : "", mycl_perf_data__event(pd, i)->name);
			fputc('\n', stderr);
		} else {
			fprintf(stderr, P ": %s\n", mycl_errmsg(err));
		}
		rc = cli_exit_code(err);
		mycl_perf_data__close(pd);
		return rc;
	}
	for (size_t e = 0; e < mycl_profile__nr_events(prof) && ev == SIZE_MAX; e++)
		if (mycl_profile__event(prof, e)->event && mycl_profile__event(prof, e)->nr_samples)
			ev = e;
	if (ev == SIZE_MAX) {
		fprintf(stderr, P ": %s: no samples to report\n", mycl_perf_data__path(pd));
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return EXIT_NOTHING;
	}
	out = use_colour ? stdout : a->c.output ? cli_open_output(a->c.output) : stdout;
	if (!out) {
		fprintf(stderr, P ": cannot write %s: %s\n", a->c.output, strerror(errno));
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return EXIT_INTERNAL;
	}
	if (!strcmp(a->c.format, "json")) {
		err = mycl_report__ticket_json(out, prof, ev, &a->to);
	} else if (use_colour) {
		/* Escaped first, into memory; colour added after, straight to the terminal. */
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len), *esc = mem ? cli_escaping(mem, false) : NULL;
		int fd;
		FILE *raw;

		err = esc ? mycl_report__ticket(esc, prof, ev, &a->to) : -ENOMEM;
		if (esc)
			fclose(esc);
		if (mem)
			fclose(mem);
		fflush(stdout);
		raw = err ? NULL : a->c.output ? cli_create(a->c.output, "w") :
		      (fd = dup(1)) >= 0 ? fdopen(fd, "w") : NULL;
		if (raw) {
			colour_lines(raw, text);
			out = raw;	/* (OUT was stdout, which holds nothing of it) */
		} else if (!err) {
			err = errno ? -errno : -EIO;
		}
		free(text);
	} else {
		err = mycl_report__ticket(out, prof, ev, &a->to);
	}
	rc = cli_finish_output(P, out, a->c.output, err);
	mycl_profile__free(prof);
	mycl_perf_data__close(pd);
	mycl_stat__free(stat);
	mycl_perf_data__close(stat_pd);
	return rc;
}
