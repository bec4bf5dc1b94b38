/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-share: which global variables share a cache line, who writes them. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void usage(FILE *f)
{
	fputs("usage: mycl-share [options] BINARY\n"
	      "\n"
	      "Global variables on the cache lines of BINARY's architecture, the code that\n"
	      "writes and reads each, and the lines where written data sits beside other data.\n"
	      "\n"
	      "      --line-size N      line size in bytes (default: x86_64 64, aarch64 and\n"
	      "                         ppc64 128, s390x 256)\n"
	      "      --arch NAME        line size of NAME (x86_64 i386 aarch64 arm ppc64 s390x riscv64)\n"
	      "      --what-if          the flagged lines at 64, 128 and 256 bytes\n"
	      "      --symbol NAME      NAME's line and its neighbours, at 64, 128 and 256 bytes\n"
	      "      --perf FILE        weight by a recording (sampled instructions, data addresses)\n"
	      "      --time SLICE       only its samples in this time slice, as perf's --time\n"
	      "      --all              every line with a variable, not only flagged ones\n"
	      "      --max-lines N      flagged lines shown (default 20)\n"
	      "      --disassemble FUNC FUNC's code with the variables each instruction touches\n"
	      "      --types            also the struct, class and union types the code reaches\n"
	      "                         through pointers, member by member (walks every function)\n"
	      "      --type NAME        NAME's layout on the lines, each member's role (pahole-like)\n"
	      "      --include-readonly also read-only data\n"
	      "      --assume-threads   judge a program that starts no thread as if it did\n"
	      "      --debug-dir DIR    separate debug files (default /usr/lib/debug)\n"
	      "      --format text|json\n"
	      "      --wide             full names and lines of any length (text: 100 columns)\n"
	      "  -o, --output FILE      write the report to FILE\n"
	      "  -q, --quiet  -h, --help  --version\n"
	      "\n"
	      "Exit status: 0 ok, 1 usage, 2 cannot read, 3 not an ELF file with code,\n"
	      "4 symbol, function or type not found, 5 internal error.\n", f);
}

enum { O_LINE = 256, O_ARCH, O_WHATIF, O_SYMBOL, O_PERF, O_ALL, O_MAX, O_RO, O_DEBUG, O_FORMAT, O_DIS,
       O_WIDE, O_VERSION, O_THREADS, O_TYPES, O_TYPE, O_TIME };

static const struct option long_opts[] = {
	{ "line-size", required_argument, NULL, O_LINE },
	{ "arch", required_argument, NULL, O_ARCH },
	{ "what-if", no_argument, NULL, O_WHATIF },
	{ "symbol", required_argument, NULL, O_SYMBOL },
	{ "perf", required_argument, NULL, O_PERF },
	{ "time", required_argument, NULL, O_TIME },
	{ "all", no_argument, NULL, O_ALL },
	{ "max-lines", required_argument, NULL, O_MAX },
	{ "include-readonly", no_argument, NULL, O_RO },
	{ "assume-threads", no_argument, NULL, O_THREADS },
	{ "debug-dir", required_argument, NULL, O_DEBUG },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "disassemble", required_argument, NULL, O_DIS },
	{ "wide", no_argument, NULL, O_WIDE },
	{ "types", no_argument, NULL, O_TYPES },
	{ "type", required_argument, NULL, O_TYPE },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, O_VERSION },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	struct cli_log lg = { .prog = "mycl-share", .verbose = 0 };
	MYCL_OPTS(mycl_share_opts, o, .print = cli_print, .print_ctx = &lg);
	MYCL_OPTS(mycl_share_write_opts, wo);
	struct mycl_share *s;
	bool what_if = false, json = false;
	const char *dis = NULL, *output = NULL;
	FILE *out = NULL;
	char err[600] = "";
	struct cli_seen seen = { .nr = 0 };
	int c, rc;

	cli_escape_std();
	if (cli_check_env("mycl-share"))
		return EXIT_USAGE;
	out = stdout;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "qho:", long_opts, NULL)) != -1) {
		if (cli_once("mycl-share", long_opts, &seen, c, optarg, NULL))
			return EXIT_USAGE;
		switch (c) {
		case O_LINE:
			if (cli_uint("mycl-share", "--line-size", optarg, 8, 4096, &o.line_size))
				return EXIT_USAGE;
			if (o.line_size & (o.line_size - 1)) {
				fprintf(stderr, "mycl-share: --line-size takes a power of two, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case O_ARCH: o.arch = optarg; break;
		case O_WHATIF: what_if = true; break;
		case O_SYMBOL: wo.symbol = optarg; break;
		case O_PERF: o.perf_data = optarg; break;
		case O_TIME: o.perf_time = optarg; break;
		case O_ALL: wo.all_lines = true; break;
		case O_MAX:
			if (cli_size("mycl-share", "--max-lines", optarg, 1, 1000000000, &wo.max_lines))
				return EXIT_USAGE;
			break;
		case O_RO: o.include_readonly = true; break;
		case O_THREADS: o.assume_threads = true; break;
		case O_DIS: dis = optarg; break;
		case O_DEBUG: o.debug_dir = optarg; break;
		case O_FORMAT:
			if (cli_choice("mycl-share", "--format", optarg,
				       (const char *const[]){ "text", "json", NULL }))
				return EXIT_USAGE;
			json = !strcmp(optarg, "json");
			break;
		case 'q': lg.verbose = -1; break;
		case 'o': output = optarg; break;
		case O_WIDE: wo.wide = true; break;
		case O_TYPES: o.types = true; break;
		case O_TYPE: wo.type = optarg; o.types = true; break;
		case O_VERSION: puts("mycl-share " MYCL_VERSION); return EXIT_OK;
		case 'h': usage(stdout); return EXIT_OK;
		default: return cli_bad_option("mycl-share", argv, long_opts);
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (cli_conflict("mycl-share", dis, "--disassemble", what_if || wo.symbol,
			 what_if ? "--what-if" : "--symbol", "one report at a time") ||
	    cli_conflict("mycl-share", what_if, "--what-if", wo.symbol != NULL, "--symbol",
			 "--symbol already shows 64, 128 and 256 bytes") ||
	    cli_conflict("mycl-share", o.line_size != 0, "--line-size", o.arch != NULL, "--arch",
			 "both set the line size"))
		return EXIT_USAGE;
	if (o.perf_time && !o.perf_data) {
		fprintf(stderr, "mycl-share: --time picks samples of the --perf recording: give "
			"--perf FILE too\n");
		return EXIT_USAGE;
	}
	/* options a report would drop without a word */
	if (what_if || wo.symbol) {
		const char *rep = what_if ? "--what-if" : "--symbol";

		if (cli_conflict("mycl-share", true, rep, o.line_size || o.arch,
				 o.line_size ? "--line-size" : "--arch",
				 "it shows 64, 128 and 256 bytes, whatever the line size"))
			return EXIT_USAGE;
	}
	if (cli_conflict("mycl-share", wo.type != NULL, "--type", wo.symbol || dis != NULL,
			 wo.symbol ? "--symbol" : "--disassemble", "one report at a time") ||
	    cli_conflict("mycl-share", wo.type != NULL, "--type", wo.all_lines || wo.max_lines || json,
			 wo.all_lines ? "--all" : wo.max_lines ? "--max-lines" : "--format json",
			 "--type prints one type's layout as text (--types --format json lists every "
			 "flagged type's members)") ||
	    cli_conflict("mycl-share", o.types && !wo.type, "--types", dis != NULL || wo.symbol,
			 dis ? "--disassemble" : "--symbol", "one report at a time"))
		return EXIT_USAGE;
	if (cli_conflict("mycl-share", wo.symbol != NULL, "--symbol", wo.all_lines || wo.max_lines,
			 wo.all_lines ? "--all" : "--max-lines",
			 "--symbol shows one variable's line and its neighbours") ||
	    cli_conflict("mycl-share", dis != NULL, "--disassemble",
			 wo.all_lines || wo.max_lines || json || wo.wide,
			 wo.all_lines ? "--all" : wo.max_lines ? "--max-lines" :
			 json ? "--format json" : "--wide",
			 "the disassembly is one function's code, as text") ||
	    cli_conflict("mycl-share", json, "--format json", wo.wide, "--wide",
			 "--wide is for the text report"))
		return EXIT_USAGE;
	{
		const struct cli_file files[] = {
			{ argv[optind], "the binary", false }, { o.perf_data, "the --perf recording", false },
			{ output, "-o", true },
		};

		if (cli_check_files("mycl-share", files, sizeof(files) / sizeof(files[0])))
			return EXIT_USAGE;
	}
	rc = mycl_share__analyze(argv[optind], &o, &s, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "mycl-share: %s\n", err[0] ? err : mycl_strerror(rc));
		return rc == -EINVAL ? EXIT_USAGE : rc == MYCL_ERR_ELF ? EXIT_BAD_INPUT : cli_exit_code(rc);
	}
	if (output && !(out = cli_open_output(output))) {
		fprintf(stderr, "mycl-share: cannot write %s: %s\n", output, strerror(errno));
		mycl_share__free(s);
		return EXIT_INTERNAL;
	}
	if (dis) {
		rc = mycl_share__disassemble(out, s, dis);
		if (rc == -ENOENT)
			fprintf(stderr, "mycl-share: %s: no function named '%s'\n", argv[optind], dis);
		mycl_share__free(s);
		return rc == -ENOENT ? (cli_abandon(out, output), EXIT_NOTHING)
				     : cli_finish_output("mycl-share", out, output, rc);
	}
	if (what_if || wo.symbol) {
		/* The same variables at each line size (x86's adjacent-line prefetch pairs: 128). */
		static const unsigned int sizes[] = { 64, 128, 256 };

		for (size_t i = 0; i < 3 && !rc; i++) {
			rc = mycl_share__regroup(s, sizes[i]);
			if (!rc)
				rc = json ? mycl_share__write_json(out, s, &wo)
					  : mycl_share__write_text(out, s, &wo);
			if (!json)
				fputc('\n', out);
		}
	} else {
		rc = json ? mycl_share__write_json(out, s, &wo) : mycl_share__write_text(out, s, &wo);
	}
	mycl_share__free(s);
	if (rc == -ENOENT && wo.type) {
		fprintf(stderr, "mycl-share: %s: no struct, class or union named '%s' reached by its "
			"code (mycl-share --types lists those written on hot paths)\n", argv[optind],
			wo.type);
		cli_abandon(out, output);
		return EXIT_NOTHING;
	}
	if (rc == -ENOENT) {
		fprintf(stderr, "mycl-share: %s: no variable named '%s'\n", argv[optind], wo.symbol);
		cli_abandon(out, output);
		return EXIT_NOTHING;
	}
	return cli_finish_output("mycl-share", out, output, rc);
}
