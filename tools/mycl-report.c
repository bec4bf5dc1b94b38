/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-report: one attachment for a bug ticket from a perf recording (a thin CLI over libmycl). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

#define P "mycl-report"
#define MAX_BINS 16

static void usage(FILE *f)
{
	fputs("usage: mycl-report [options] perf.data [BINARY...]\n"
	      "\n"
	      "One report of a recording to paste into a bug ticket: what was recorded and its\n"
	      "warnings, the flat profile, the callers of the top functions, lock and spin sites,\n"
	      "the hottest code annotated, false sharing among the globals of the binaries (those\n"
	      "given, else the recording's own), symbols, and how the main binaries were built.\n"
	      "Every line within 100 columns.\n"
	      "\n"
	      "      --format text|markdown|jira|json  (default text, for mailing lists and\n"
	      "                          bugs.mysql.com; markdown for GitHub, GitLab; jira: Jira's\n"
	      "                          wiki markup, for MariaDB's and MySQL's Jira)\n"
	      "      --redact            drop host name, command line, the recording's directory,\n"
	      "                          home directories and user names\n"
	      "      --color auto|always|never  headings and warnings in colour (text; auto: on a\n"
	      "                          terminal, unless NO_COLOR is set)\n"
	      "      --top N             rows of the flat profile (default 20)\n"
	      "      --width N           columns (60 or more; default 100)\n"
	      "      --no-share          no false-sharing section (it reads the binaries' code)\n"
	      "      --libraries         the hottest code, false sharing and build facts of shared\n"
	      "                          libraries too (default: the programs' own binaries)\n"
	      "      --share-types       the false-sharing section judges struct members too\n"
	      "                          (mycl-share --types: reads every function's debug info)\n"
	      "      --event NAME        report this event (default: the first with samples)\n"
	      "      --time SLICE        only samples in this time slice, as perf's --time:\n"
	      "                          START,STOP seconds, 10%/2 (the second tenth), 0%-10%\n"
	      "      --stat FILE         a perf stat record file run beside it: its counts\n"
	      "      --max-stack N       frames kept of each call chain (default 127, as perf)\n"
	      "      --symfs DIR         look for binaries under DIR\n"
	      "      --kallsyms FILE     kernel symbols of the recorded kernel\n"
	      "      --no-demangle       show C++ names mangled\n"
	      "      --buildid-dir DIR   perf's build-id cache (default ~/.debug; '' for none)\n"
	      "      --archive FILE      perf archive (perf.data.tar.bz2) from the recorded machine\n"
	      "      --archive-max MIB   what its members kept may take (default 1024)\n"
	      "      --debug-dir DIR     separate debug files (default /usr/lib/debug)\n"
	      "      --jit-maps          read /tmp/perf-PID.map for a recording from elsewhere\n"
	      "      --source-dir DIR    where to find source files (repeatable)\n"
	      "      --prefix-map OLD=NEW  rewrite build paths of source files\n"
	      "  -o, --output FILE       write the report to FILE\n"
	      "  -q, --quiet             no warnings, no progress line\n"
	      "  -h, --help              this help          --version      print the version\n"
	      "\n"
	      "Exit status: 0 ok, 1 usage, 2 cannot read input, 3 invalid or corrupt input,\n"
	      "4 nothing to report, 5 internal error.\n", f);
}

enum { O_FORMAT = 256, O_REDACT, O_COLOR, O_TOP, O_WIDTH, O_NOSHARE, O_SHARETYPES, O_EVENT, O_SYMFS, O_KALLSYMS,
       O_BUILDID, O_ARCHIVE, O_ARCHIVEMAX, O_DEBUG, O_VERSION, O_MAXSTACK, O_SRCDIR, O_PREFIXMAP, O_JITMAPS, O_TIME, O_STAT,
       O_LIBRARIES, O_NODEMANGLE };

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, O_FORMAT },
	{ "redact", no_argument, NULL, O_REDACT },
	{ "color", required_argument, NULL, O_COLOR },
	{ "colour", required_argument, NULL, O_COLOR },
	{ "top", required_argument, NULL, O_TOP },
	{ "width", required_argument, NULL, O_WIDTH },
	{ "no-share", no_argument, NULL, O_NOSHARE },
	{ "share-types", no_argument, NULL, O_SHARETYPES },
	{ "libraries", no_argument, NULL, O_LIBRARIES },
	{ "no-demangle", no_argument, NULL, O_NODEMANGLE },
	{ "event", required_argument, NULL, O_EVENT },
	{ "time", required_argument, NULL, O_TIME },
	{ "stat", required_argument, NULL, O_STAT },
	{ "max-stack", required_argument, NULL, O_MAXSTACK },
	{ "symfs", required_argument, NULL, O_SYMFS },
	{ "kallsyms", required_argument, NULL, O_KALLSYMS },
	{ "buildid-dir", required_argument, NULL, O_BUILDID },
	{ "archive", required_argument, NULL, O_ARCHIVE },
	{ "archive-max", required_argument, NULL, O_ARCHIVEMAX },
	{ "debug-dir", required_argument, NULL, O_DEBUG },
	{ "source-dir", required_argument, NULL, O_SRCDIR },
	{ "jit-maps", no_argument, NULL, O_JITMAPS },
	{ "prefix-map", required_argument, NULL, O_PREFIXMAP },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 },
};

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

int main(int argc, char **argv)
{
	struct cli_log lg = { .prog = P, .verbose = 0 };
	struct cli_progress progress;
	MYCL_OPTS(mycl_perf_data_opts, popts, .print = cli_print, .print_ctx = &lg);
	MYCL_OPTS(mycl_profile_opts, opts, .buildid_dir = cli_home_debug(), .print = cli_print,
		  .print_ctx = &lg, .callgraph = true, .locks = true, .annotate = true);
	const char *src_dirs[MAX_SRC_DIRS + 1] = { NULL };
	int nsrc = 0;
	MYCL_OPTS(mycl_annotate_opts, aopts, .source_dirs = src_dirs);
	MYCL_OPTS(mycl_ticket_opts, to, .annotate_opts = &aopts, .home = getenv("HOME"));
	static const int repeatable[] = { O_SRCDIR, 0 };
	const char *format = "text", *output = NULL, *input, *color = "auto";
	const char *bins[MAX_BINS + 1] = { NULL };
	struct mycl_perf_data *pd = NULL, *stat_pd = NULL;
	struct mycl_stat *stat = NULL;
	const char *stat_file = NULL;
	struct mycl_profile *prof = NULL;
	const char *archive = NULL;
	bool use_colour;
	size_t ev = SIZE_MAX;
	FILE *out;
	struct cli_seen seen = { .nr = 0 };
	int c, err, rc;

	cli_escape_std();
	if (cli_check_env(P))
		return EXIT_USAGE;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:qh", long_opts, NULL)) != -1) {
		if (cli_once(P, long_opts, &seen, c, optarg, repeatable))
			return EXIT_USAGE;
		switch (c) {
		case O_FORMAT:
			if (cli_choice(P, "--format", optarg, (const char *const[]){ "text", "markdown",
									    "jira", "json", NULL }))
				return EXIT_USAGE;
			format = optarg;
			break;
		case O_REDACT: to.redact = true; break;
		case O_COLOR:
			if (cli_choice(P, "--color", optarg, (const char *const[]){ "auto", "always",
									   "never", NULL }))
				return EXIT_USAGE;
			color = optarg;
			break;
		case O_TOP:
			if (cli_size(P, "--top", optarg, 1, 100000, &to.top))
				return EXIT_USAGE;
			break;
		case O_WIDTH:
			if (cli_uint(P, "--width", optarg, 60, 10000, &to.width))
				return EXIT_USAGE;
			break;
		case O_NOSHARE: to.no_share = true; break;
		case O_LIBRARIES: to.libraries = true; break;
		case O_NODEMANGLE: opts.no_demangle = true; break;
		case O_SHARETYPES: to.share_types = true; break;
		case O_EVENT: opts.event = optarg; break;
		case O_TIME: popts.time = optarg; break;
		case O_STAT: stat_file = optarg; break;
		case O_MAXSTACK:
			if (cli_uint(P, "--max-stack", optarg, 1, 65535, &opts.max_stack))
				return EXIT_USAGE;
			break;
		case O_SYMFS: opts.symfs = to.symfs = optarg; break;
		case O_KALLSYMS: opts.kallsyms = optarg; break;
		case O_BUILDID: opts.buildid_dir = optarg; break;
		case O_ARCHIVE:
			if (cli_set_once(P, "--archive", &archive, optarg, "; one archive a run"))
				return EXIT_USAGE;
			break;
		case O_ARCHIVEMAX:
			if (cli_archive_max(P, optarg))
				return EXIT_USAGE;
			break;
		case O_DEBUG: opts.debug_dir = optarg; break;
		case O_JITMAPS: opts.jit_maps = true; break;
		case O_SRCDIR:
			if (cli_source_dir(P, src_dirs, &nsrc, optarg))
				return EXIT_USAGE;
			break;
		case O_PREFIXMAP:
			if (cli_prefix_map(P, optarg))
				return EXIT_USAGE;
			aopts.prefix_map = optarg;
			break;
		case 'o': output = optarg; break;
		case 'q': lg.verbose = -1; break;
		case 'h': usage(stdout); return EXIT_OK;
		case O_VERSION: puts(P " " MYCL_VERSION); return EXIT_OK;
		default: return cli_bad_option(P, argv, long_opts);
		}
	}
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
		to.binaries = opts.binaries = bins;
	if (cli_conflict(P, !strcmp(color, "always"), "--color always", strcmp(format, "text") != 0,
			 "--format", "colour is for the text report") ||
	    cli_conflict(P, to.width != 0, "--width", !strcmp(format, "json"), "--format json",
			 "JSON has no columns") ||
	    cli_conflict(P, to.no_share, "--no-share", bins[0] != NULL, "BINARY arguments",
			 "the binaries are for the false-sharing section") ||
	    cli_conflict(P, to.no_share, "--no-share", to.share_types, "--share-types",
			 "--share-types is for the false-sharing section") ||
	    (opts.symfs && !cli_is_dir(P, "--symfs", opts.symfs)) ||
	    (opts.kallsyms && cli_check_kallsyms(P, opts.kallsyms)))
		return EXIT_USAGE;
	{
		struct cli_file files[MAX_BINS + 5] = {
			{ input, "the recording", false }, { archive, "the --archive", false },
			{ opts.kallsyms, "the --kallsyms file", false }, { output, "-o", true },
			{ stat_file, "the --stat file", false },
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
	if (archive && (rc = cli_archive(P, archive, &input, 1, &opts.archive)))
		return rc;
	to.archive = opts.archive;
	use_colour = !strcmp(color, "always") ||
		     (!strcmp(color, "auto") && !output && isatty(1) && !getenv("NO_COLOR") &&
		      !strcmp(format, "text"));
	to.markdown = !strcmp(format, "markdown");
	to.jira = !strcmp(format, "jira");
	if (stat_file && (rc = cli_read_stat(P, stat_file, "--stat ", &lg, &stat_pd, &stat)))
		return rc;
	to.stat = stat;

	cli_progress_setup(&progress, P, input, lg.verbose, &popts);
	if ((rc = cli_open_recording(P, input, &popts, &pd)))
		return rc;
	err = mycl_profile__build(pd, &opts, &prof);
	cli_progress_done(&progress);
	if (!err && (rc = cli_time_empty(P, pd, popts.time))) {
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return rc;
	}
	if (err) {
		const char *msg = mycl_perf_data__errmsg(pd);

		if (err == MYCL_ERR_NO_EVENT) {
			fprintf(stderr, P ": %s: no event named '%s' in the recording; it has",
				mycl_perf_data__path(pd), opts.event);
			for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
				fprintf(stderr, "%s '%s'", i ? "," : "", mycl_perf_data__event(pd, i)->name);
			fputc('\n', stderr);
		} else {
			fprintf(stderr, P ": %s\n", msg[0] ? msg : mycl_strerror(err));
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
	out = use_colour ? stdout : output ? cli_open_output(output) : stdout;
	if (!out) {
		fprintf(stderr, P ": cannot write %s: %s\n", output, strerror(errno));
		mycl_profile__free(prof);
		mycl_perf_data__close(pd);
		return EXIT_INTERNAL;
	}
	if (!strcmp(format, "json")) {
		err = mycl_report__ticket_json(out, prof, ev, &to);
	} else if (use_colour) {
		/* Escaped first, into memory; colour added after, straight to the terminal. */
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len), *esc = mem ? cli_escaping(mem, false) : NULL;
		int fd;
		FILE *raw;

		err = esc ? mycl_report__ticket(esc, prof, ev, &to) : -ENOMEM;
		if (esc)
			fclose(esc);
		if (mem)
			fclose(mem);
		fflush(stdout);
		raw = err ? NULL : output ? cli_create(output, "w") :
		      (fd = dup(1)) >= 0 ? fdopen(fd, "w") : NULL;
		if (raw) {
			colour_lines(raw, text);
			out = raw;	/* (OUT was stdout, which holds nothing of it) */
		} else if (!err) {
			err = errno ? -errno : -EIO;
		}
		free(text);
	} else {
		err = mycl_report__ticket(out, prof, ev, &to);
	}
	rc = cli_finish_output(P, out, output, err);
	mycl_profile__free(prof);
	mycl_perf_data__close(pd);
	mycl_stat__free(stat);
	mycl_perf_data__close(stat_pd);
	return rc;
}
