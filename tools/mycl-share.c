/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-share: which global variables share a cache line, who writes them. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

struct share_args {
	struct cli_common c;
	struct mycl_share_opts o;
	struct mycl_share_write_opts wo;
	bool what_if;
	const char *dis;
};

#define AT(f) offsetof(struct share_args, f)

static int set_line_size(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	unsigned int *v = &((struct share_args *)s)->o.line_size;

	if (cli_uint(s->lg.prog, "--line-size", arg, 8, 4096, v))
		return -1;
	if (*v & (*v - 1)) {
		fprintf(stderr, "mycl-share: --line-size takes a power of two, not '%s'\n", arg);
		return -1;
	}
	return 0;
}

static int set_type(struct cli_common *s, const struct cli_opt *o, const char *arg)
{
	struct share_args *a = (struct share_args *)s;

	a->wo.type = arg;
	a->o.types = true;
	return 0;
}

static const struct cli_opt share_opts[] = {
	{ .name = "line-size", .arg = "N", .set = set_line_size,
	  .help = "line size in bytes (default: x86_64 64, aarch64 and\n"
		  "ppc64 128, s390x 256)" },
	{ .name = "arch", .arg = "NAME", .set = cli_set_str, .off = AT(o.arch),
	  .help = "line size of NAME (x86_64 i386 aarch64 arm ppc64 s390x\n"
		  "riscv64)" },
	{ .name = "what-if", .set = cli_set_flag, .off = AT(what_if),
	  .help = "the flagged lines at 64, 128 and 256 bytes" },
	{ .name = "symbol", .arg = "NAME", .set = cli_set_str, .off = AT(wo.symbol),
	  .help = "NAME's line and its neighbours, at 64, 128 and 256 bytes" },
	{ .name = "perf", .arg = "FILE", .set = cli_set_str, .off = AT(o.perf_data),
	  .help = "weight by a recording (sampled instructions, data addresses)" },
	{ .name = "time", .arg = "SLICE", .set = cli_set_str, .off = AT(o.perf_time),
	  .help = "only its samples in this time slice, as perf's --time" },
	{ .name = "all", .set = cli_set_flag, .off = AT(wo.all_lines),
	  .help = "every line with a variable, not only flagged ones" },
	{ .name = "max-lines", .arg = "N", .set = cli_set_size, .off = AT(wo.max_lines), .min = 1,
	  .max = 1000000000,
	  .help = "flagged lines shown (default 20)" },
	{ .name = "disassemble", .arg = "FUNC", .set = cli_set_str, .off = AT(dis),
	  .help = "FUNC's code with the variables each instruction touches" },
	{ .name = "types", .set = cli_set_flag, .off = AT(o.types),
	  .help = "also the struct, class and union types the code reaches\n"
		  "through pointers, member by member (walks every function)" },
	{ .name = "type", .arg = "NAME", .set = set_type,
	  .help = "NAME's layout on the lines, each member's role (pahole-like)" },
	{ .name = "include-readonly", .set = cli_set_flag, .off = AT(o.include_readonly),
	  .help = "also read-only data" },
	{ .name = "assume-threads", .set = cli_set_flag, .off = AT(o.assume_threads),
	  .help = "judge a program that starts no thread as if it did" },
	{ .name = "format", .arg = "text|json", .set = cli_set_choice, .off = AT(c.format),
	  .choices = (const char *const[]){ "text", "json", NULL },
	  .help = "output format (default text)" },
	{ .name = NULL },
};

static const struct cli_group share_groups[] = {
	{ NULL, share_opts },
	{ "Symbol sources", cli_opts_debug },
	{ "Output", cli_opts_wide },
	{ NULL, cli_opts_output },
	{ NULL, NULL },
};

static const struct cli_tool share_tool = {
	.prog = "mycl-share",
	.version = MYCL_VERSION,
	.synopsis = "[options] BINARY",
	.about = "Global variables on the cache lines of BINARY's architecture, the code that\n"
		 "writes and reads each, and the lines where written data sits beside other data.",
	.groups = share_groups,
	.exit_status = "Exit status: 0 ok, 1 usage, 2 cannot read, 3 not an ELF file with code,\n"
		       "4 symbol, function or type not found, 5 internal error.\n",
};

int main(int argc, char **argv)
{
	struct share_args a = {
		.c = { .lg = { .prog = "mycl-share" }, .format = "text" },
		.o = { .sz = sizeof(a.o), .print = cli_print, .print_ctx = &a.c.lg },
		.wo = { .sz = sizeof(a.wo) },
	};
	struct cli_args args;
	struct mycl_share *s;
	bool json;
	FILE *out = NULL;
	int rc;

	cli_escape_std();
	if (cli_check_env("mycl-share"))
		return EXIT_USAGE;
	out = stdout;
	if (!cli_parse(&args, &share_tool, &a.c, argc, argv, &rc))
		return rc;
	a.o.debug_dir = a.c.debug_dir;
	a.wo.wide = a.c.wide;
	json = !strcmp(a.c.format, "json");
	if (optind + 1 != argc) {
		cli_usage(&share_tool, stderr);
		return EXIT_USAGE;
	}
	if (cli_conflict("mycl-share", a.dis, "--disassemble", a.what_if || a.wo.symbol,
			 a.what_if ? "--what-if" : "--symbol", "one report at a time") ||
	    cli_conflict("mycl-share", a.what_if, "--what-if", a.wo.symbol != NULL, "--symbol",
			 "--symbol already shows 64, 128 and 256 bytes") ||
	    cli_conflict("mycl-share", a.o.line_size != 0, "--line-size", a.o.arch != NULL, "--arch",
			 "both set the line size"))
		return EXIT_USAGE;
	if (a.o.perf_time && !a.o.perf_data) {
		fprintf(stderr, "mycl-share: --time picks samples of the --perf recording: give "
			"--perf FILE too\n");
		return EXIT_USAGE;
	}
	/* options a report would drop without a word */
	if (a.what_if || a.wo.symbol) {
		const char *rep = a.what_if ? "--what-if" : "--symbol";

		if (cli_conflict("mycl-share", true, rep, a.o.line_size || a.o.arch,
				 a.o.line_size ? "--line-size" : "--arch",
				 "it shows 64, 128 and 256 bytes, whatever the line size"))
			return EXIT_USAGE;
	}
	if (cli_conflict("mycl-share", a.wo.type != NULL, "--type", a.wo.symbol || a.dis != NULL,
			 a.wo.symbol ? "--symbol" : "--disassemble", "one report at a time") ||
	    cli_conflict("mycl-share", a.wo.type != NULL, "--type",
			 a.wo.all_lines || a.wo.max_lines || json,
			 a.wo.all_lines ? "--all" : a.wo.max_lines ? "--max-lines" : "--format json",
			 "--type prints one type's layout as text (--types --format json lists every "
			 "flagged type's members)") ||
	    cli_conflict("mycl-share", a.o.types && !a.wo.type, "--types", a.dis != NULL || a.wo.symbol,
			 a.dis ? "--disassemble" : "--symbol", "one report at a time"))
		return EXIT_USAGE;
	if (cli_conflict("mycl-share", a.wo.symbol != NULL, "--symbol", a.wo.all_lines || a.wo.max_lines,
			 a.wo.all_lines ? "--all" : "--max-lines",
			 "--symbol shows one variable's line and its neighbours") ||
	    cli_conflict("mycl-share", a.dis != NULL, "--disassemble",
			 a.wo.all_lines || a.wo.max_lines || json || a.wo.wide,
			 a.wo.all_lines ? "--all" : a.wo.max_lines ? "--max-lines" :
			 json ? "--format json" : "--wide",
			 "the disassembly is one function's code, as text") ||
	    cli_conflict("mycl-share", json, "--format json", a.wo.wide, "--wide",
			 "--wide is for the text report"))
		return EXIT_USAGE;
	{
		const struct cli_file files[] = {
			{ argv[optind], "the binary", false }, { a.o.perf_data, "the --perf recording", false },
			{ a.c.output, "-o", true },
		};

		if (cli_check_files("mycl-share", files, sizeof(files) / sizeof(files[0])))
			return EXIT_USAGE;
	}
	rc = mycl_share__analyze(argv[optind], &a.o, &s);
	if (rc) {
		fprintf(stderr, "mycl-share: %s\n", mycl_errmsg(rc));
		return rc == -EINVAL ? EXIT_USAGE : rc == MYCL_ERR_ELF ? EXIT_BAD_INPUT : cli_exit_code(rc);
	}
	if (a.c.output && !(out = cli_open_output(a.c.output))) {
		fprintf(stderr, "mycl-share: cannot write %s: %s\n", a.c.output, strerror(errno));
		mycl_share__free(s);
		return EXIT_INTERNAL;
	}
	if (a.dis) {
		rc = mycl_share__disassemble(out, s, a.dis);
		if (rc == -ENOENT)
			fprintf(stderr, "mycl-share: %s: no function named '%s'\n", argv[optind], a.dis);
		mycl_share__free(s);
		return rc == -ENOENT ? (cli_abandon(out, a.c.output), EXIT_NOTHING)
				     : cli_finish_output("mycl-share", out, a.c.output, rc);
	}
	if (a.what_if || a.wo.symbol) {
		/* The same variables at each line size (x86's adjacent-line prefetch pairs: 128). */
		static const unsigned int sizes[] = { 64, 128, 256 };

		for (size_t i = 0; i < 3 && !rc; i++) {
			rc = mycl_share__regroup(s, sizes[i]);
			if (!rc)
				rc = json ? mycl_share__write_json(out, s, &a.wo)
					  : mycl_share__write_text(out, s, &a.wo);
			if (!json)
				fputc('\n', out);
		}
	} else {
		rc = json ? mycl_share__write_json(out, s, &a.wo) : mycl_share__write_text(out, s, &a.wo);
	}
	mycl_share__free(s);
	if (rc == -ENOENT && a.wo.type) {
		fprintf(stderr, "mycl-share: %s: no struct, class or union named '%s' reached by its "
			"code (mycl-share --types lists those written on hot paths)\n", argv[optind],
			a.wo.type);
		cli_abandon(out, a.c.output);
		return EXIT_NOTHING;
	}
	if (rc == -ENOENT) {
		fprintf(stderr, "mycl-share: %s: no variable named '%s'\n", argv[optind], a.wo.symbol);
		cli_abandon(out, a.c.output);
		return EXIT_NOTHING;
	}
	return cli_finish_output("mycl-share", out, a.c.output, rc);
}
