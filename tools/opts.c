/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

#define FIELD(s, o, T) ((T *)((char *)(s) + (o)->off))

int cli_set_flag(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	*FIELD(s, o, bool) = true;
	return 0;
}

int cli_set_str(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	*FIELD(s, o, const char *) = arg;
	return 0;
}

/* "--NAME" in DST for messages. */
static const char *dashed(const struct cli_opt *o, char *dst, size_t len)
{
	snprintf(dst, len, "--%s", o->name);
	return dst;
}

int cli_set_size(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	char n[64];

	return cli_size(s->lg.prog, dashed(o, n, sizeof(n)), arg, (size_t)o->min, (size_t)o->max,
			FIELD(s, o, size_t));
}

int cli_set_uint(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	char n[64];

	return cli_uint(s->lg.prog, dashed(o, n, sizeof(n)), arg, (unsigned int)o->min,
			(unsigned int)o->max, FIELD(s, o, unsigned int));
}

int cli_set_double(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	char n[64];

	return cli_double(s->lg.prog, dashed(o, n, sizeof(n)), arg, o->min, o->max,
			  FIELD(s, o, double));
}

int cli_set_choice(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	char n[64];

	if (cli_choice(s->lg.prog, dashed(o, n, sizeof(n)), arg, o->choices))
		return -1;
	*FIELD(s, o, const char *) = arg;
	return 0;
}

static int set_archive(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	return cli_set_once(s->lg.prog, "--archive", &s->archive, arg, "; one archive a run");
}

static int set_archive_max(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	return cli_archive_max(s->lg.prog, arg);
}

static int set_source_dir(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	return cli_source_dir(s->lg.prog, s->src_dirs, &s->nsrc, arg);
}

static int set_prefix_map(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	if (cli_prefix_map(s->lg.prog, arg))
		return -1;
	s->prefix_map = arg;
	return 0;
}

static int set_quiet(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	s->lg.verbose = -1;
	return 0;
}

static int set_verbose(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	s->lg.verbose++;
	return 0;
}

#define COMMON(f) offsetof(struct cli_common, f)

const struct cli_opt cli_opts_symbols[] = {
	{ .name = "symfs", .arg = "DIR", .set = cli_set_str, .off = COMMON(symfs),
	  .help = "look for binaries under DIR" },
	{ .name = "kallsyms", .arg = "FILE", .set = cli_set_str, .off = COMMON(kallsyms),
	  .help = "kernel symbols of the recorded kernel" },
	{ .name = "buildid-dir", .arg = "DIR", .set = cli_set_str, .off = COMMON(buildid_dir),
	  .help = "perf's build-id cache (default ~/.debug; '' for none)" },
	{ .name = "no-demangle", .set = cli_set_flag, .off = COMMON(no_demangle),
	  .help = "show C++ names mangled" },
	{ .name = "jit-maps", .set = cli_set_flag, .off = COMMON(jit_maps),
	  .help = "read /tmp/perf-PID.map for a recording from elsewhere\n"
		  "(by default only for one made on this machine)" },
	{ .name = NULL },
};

const struct cli_opt cli_opts_archive[] = {
	{ .name = "archive", .arg = "FILE", .set = set_archive,
	  .help = "perf archive (perf.data.tar.bz2) from the recorded machine" },
	{ .name = NULL },
};

const struct cli_opt cli_opts_archive_max[] = {
	{ .name = "archive-max", .arg = "MIB", .set = set_archive_max,
	  .help = "what an archive's members kept may take (default 1024)" },
	{ .name = NULL },
};

const struct cli_opt cli_opts_debug[] = {
	{ .name = "debug-dir", .arg = "DIR", .set = cli_set_str, .off = COMMON(debug_dir),
	  .help = "separate debug files (default /usr/lib/debug; '' for none)" },
	{ .name = NULL },
};

const struct cli_opt cli_opts_sources[] = {
	{ .name = "source-dir", .arg = "DIR", .set = set_source_dir, .repeatable = true,
	  .help = "where to find source files (repeatable)" },
	{ .name = "prefix-map", .arg = "OLD=NEW", .set = set_prefix_map,
	  .help = "rewrite build paths of source files" },
	{ .name = NULL },
};

const struct cli_opt cli_opts_wide[] = {
	{ .name = "wide", .set = cli_set_flag, .off = COMMON(wide),
	  .help = "text lines of any length (default: 100 columns, names\n"
		  "shortened in the middle, comments folded)" },
	{ .name = NULL },
};

/* -h and --version: answered by cli_parse (no setter). */
const struct cli_opt cli_opts_output[] = {
	{ .name = "output", .letter = 'o', .arg = "FILE", .set = cli_set_str,
	  .off = COMMON(output),
	  .help = "write the report to FILE" },
	{ .name = "quiet", .letter = 'q', .set = set_quiet,
	  .help = "no warnings, no progress line" },
	{ .name = "verbose", .letter = 'v', .set = set_verbose, .repeatable = true,
	  .help = "more messages (-vv: debug messages)" },
	{ .name = "help", .letter = 'h',
	  .help = "this help" },
	{ .name = "version",
	  .help = "print the version" },
	{ .name = NULL },
};

void cli_profile_sources(const struct cli_common *c, struct mycl_profile_opts *po)
{
	po->symfs = c->symfs;
	po->kallsyms = c->kallsyms;
	po->buildid_dir = c->buildid_dir;
	po->debug_dir = c->debug_dir;
	po->no_demangle = c->no_demangle;
	po->jit_maps = c->jit_maps;
}

/* The row the option NAME stands for. */
static int code_of(const struct cli_args *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->row[i]->name, name))
			return a->code[i];
	return -1;
}

bool cli_opt_given(const struct cli_args *a, const char *name)
{
	int code = code_of(a, name);

	return code >= 0 && cli_given(&a->seen, code);
}

/* Getopt's table and short options from T's rows; false (a bug of the tool, said) on a clash. */
static bool make_table(struct cli_args *a, const struct cli_tool *t, char *shorts, size_t len)
{
	size_t ns = 0;

	memset(a, 0, sizeof(*a));
	a->tool = t;
	for (const struct cli_group *g = t->groups; g->opts; g++)
		for (const struct cli_opt *o = g->opts; o->name; o++) {
			if (a->nr == CLI_MAX_OPTS || code_of(a, o->name) >= 0 ||
			    (o->alias && code_of(a, o->alias) < 0) || ns + 4 > len) {
				fprintf(stderr, "%s: option --%s declared twice, or too many\n",
					t->prog, o->name);
				return false;
			}
			a->row[a->nr] = o;
			a->code[a->nr] = o->alias ? code_of(a, o->alias) : o->letter ? o->letter
									   : 256 + (int)a->nr;
			a->longs[a->nr] = (struct option){
				o->name, !o->arg ? no_argument : o->optional ? optional_argument
									    : required_argument,
				NULL, a->code[a->nr] };
			if (o->letter) {
				shorts[ns++] = o->letter;
				if (o->arg)
					shorts[ns++] = ':';
			}
			a->nr++;
		}
	shorts[ns] = '\0';
	return true;
}

/* The row getopt's CODE stands for (an alias's: the row it names). */
static const struct cli_opt *row_of(const struct cli_args *a, int code)
{
	for (size_t i = 0; i < a->nr; i++)
		if (a->code[i] == code && !a->row[i]->alias)
			return a->row[i];
	return NULL;
}

bool cli_parse(struct cli_args *a, const struct cli_tool *t, struct cli_common *state, int argc,
	       char **argv, int *status)
{
	int repeatable[CLI_MAX_OPTS + 1], nrep = 0, c;
	char shorts[64];

	*status = EXIT_USAGE;
	if (!make_table(a, t, shorts, sizeof(shorts)))
		return false;
	for (size_t i = 0; i < a->nr; i++)
		if (a->row[i]->repeatable)
			repeatable[nrep++] = a->code[i];
	repeatable[nrep] = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, a->longs, NULL)) != -1) {
		const struct cli_opt *o = row_of(a, c);

		if (cli_once(t->prog, a->longs, &a->seen, c, optarg, repeatable))
			return false;
		if (!o) {
			*status = cli_bad_option(t->prog, argv, a->longs);
			return false;
		}
		if (!strcmp(o->name, "help")) {
			cli_usage(t, stdout);
			*status = EXIT_OK;
			return false;
		}
		if (!strcmp(o->name, "version")) {
			printf("%s %s\n", t->prog, t->version);
			*status = EXIT_OK;
			return false;
		}
		if (o->set(state, o, optarg))
			return false;
	}
	if (cli_conflict(t->prog, cli_opt_given(a, "quiet"), "-q", cli_opt_given(a, "verbose"), "-v",
			 "quiet or verbose?"))
		return false;
	*status = EXIT_OK;
	return true;
}

/* One row of --help: "  -o, --output FILE       help", the help's lines from column 26. */
static void usage_row(FILE *f, const struct cli_opt *o)
{
	const char *h = o->help;
	char head[96];
	int n;

	n = snprintf(head, sizeof(head), "  %c%c%s--%s%s%s%s", o->letter ? '-' : ' ',
		     o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
		     !o->arg ? "" : o->optional ? "[=" : " ", o->arg ? o->arg : "",
		     o->arg && o->optional ? "]" : "");
	fputs(head, f);
	if (n > 24) {
		/* a long head: its help beside it when the line stays within 80 columns */
		size_t first = strcspn(h, "\n");

		if (n + 2 + first > 80)
			fprintf(f, "\n%26s", "");
		else
			fputs("  ", f);
	} else {
		fprintf(f, "%*s", 26 - n, "");
	}
	while (*h) {
		size_t len = strcspn(h, "\n");

		fprintf(f, "%.*s\n", (int)len, h);
		h += len;
		if (*h == '\n' && *++h)
			fprintf(f, "%26s", "");
	}
}

void cli_usage(const struct cli_tool *t, FILE *f)
{
	fprintf(f, "usage: %s %s\n\n%s\n\n", t->prog, t->synopsis, t->about);
	for (const struct cli_group *g = t->groups; g->opts; g++) {
		if (g->title && g != t->groups)
			fprintf(f, "\n%s:\n", g->title);
		for (const struct cli_opt *o = g->opts; o->name; o++)
			if (o->help)
				usage_row(f, o);
	}
	fprintf(f, "\n%s", t->exit_status);
}
