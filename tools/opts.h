/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tools' options, declared once: each option is a row (its names, its
 * argument, its help, the function that takes its value), rows come in
 * groups, and the groups every tool shares (symbol sources, source files,
 * output) are declared here, as elfutils' tools share dwfl_standard_argp().
 * getopt's table, --help and the checks (a value given twice, an empty one,
 * a misspelled option) are made from the rows.
 */
#ifndef MYCL_OPTS_H
#define MYCL_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cli.h"

/* What the shared groups set: the first member of every tool's own state. */
struct cli_common {
	struct cli_log lg;			/* prog; -q, -v */
	/* symbol sources */
	const char *symfs, *kallsyms, *buildid_dir, *debug_dir, *archive;
	bool no_demangle, jit_maps;
	/* source files */
	const char *src_dirs[MAX_SRC_DIRS + 1];
	int nsrc;
	const char *prefix_map;
	/* output */
	const char *output, *format;
	bool wide;
};

struct cli_opt;
/* Takes ARG (NULL for a flag) for option O into STATE: 0, or -1 once said why not. */
typedef int (*cli_set_fn)(struct cli_common *state, const struct cli_opt *o, const char *arg);

struct cli_opt {
	const char *name;		/* the long name, without "--"; NULL ends a group */
	char letter;			/* the short name, or 0 */
	const char *arg;		/* the value's name in --help; NULL: a flag */
	const char *help;		/* lines of help; NULL: another name of ALIAS, not listed */
	cli_set_fn set;
	size_t off;			/* where the setters below store: offsetof in the state */
	double min, max;		/* the range of a number */
	const char *const *choices;	/* cli_set_choice's values, NULL-terminated */
	const char *alias;		/* the option this name stands for */
	bool optional;			/* --name[=ARG] */
	bool repeatable;		/* given again with another value: both taken */
};

/* Setters for rows that only store their value at OFF. */
int cli_set_flag(struct cli_common *s, const struct cli_opt *o, const char *arg);	/* bool */
int cli_set_str(struct cli_common *s, const struct cli_opt *o, const char *arg);	/* const char * */
int cli_set_size(struct cli_common *s, const struct cli_opt *o, const char *arg);	/* size_t */
int cli_set_uint(struct cli_common *s, const struct cli_opt *o, const char *arg);	/* unsigned int */
int cli_set_double(struct cli_common *s, const struct cli_opt *o, const char *arg);	/* double */
int cli_set_choice(struct cli_common *s, const struct cli_opt *o, const char *arg);	/* const char * */
/* The state's field FIELD of the tool's state type T, as a row's off. */
#define CLI_AT(T, FIELD) offsetof(T, FIELD)

struct cli_group {
	const char *title;		/* a heading in --help; NULL: none */
	const struct cli_opt *opts;	/* ends with a row whose name is NULL */
};

/* The shared groups. */
extern const struct cli_opt cli_opts_symbols[];	/* --symfs --kallsyms --buildid-dir --no-demangle --jit-maps */
extern const struct cli_opt cli_opts_archive[];	/* --archive FILE */
extern const struct cli_opt cli_opts_archive_max[];	/* --archive-max */
extern const struct cli_opt cli_opts_debug[];	/* --debug-dir */
extern const struct cli_opt cli_opts_sources[];	/* --source-dir --prefix-map */
extern const struct cli_opt cli_opts_wide[];	/* --wide */
extern const struct cli_opt cli_opts_output[];	/* -o -q -v -h --version */

struct cli_tool {
	const char *prog;
	const char *version;
	const char *synopsis;		/* after "usage: PROG " */
	const char *about;		/* what it does, lines of up to 80 columns */
	const struct cli_group *groups;	/* ends with a group whose opts are NULL */
	const char *exit_status;	/* the exit codes' lines */
};

#define CLI_MAX_OPTS 96
/* A parse: getopt's table made from the tool's rows, and what was given. */
struct cli_args {
	const struct cli_tool *tool;
	struct option longs[CLI_MAX_OPTS + 1];
	const struct cli_opt *row[CLI_MAX_OPTS];
	int code[CLI_MAX_OPTS];
	size_t nr;
	struct cli_seen seen;
};

/*
 * Parses ARGV's options into STATE (a struct cli_common, or a tool's state
 * starting with one) by T's rows; -h and --version answered.  True to go on
 * with the operands from optind; false with *STATUS the exit status (0 after
 * --help, EXIT_USAGE once the mistake is said).
 */
bool cli_parse(struct cli_args *a, const struct cli_tool *t, struct cli_common *state, int argc,
	       char **argv, int *status);
/* Whether the option NAME was given. */
bool cli_opt_given(const struct cli_args *a, const char *name);
/* The shared symbol-source options into a profile's options. */
void cli_profile_sources(const struct cli_common *c, struct mycl_profile_opts *po);
/* --help's text, made from the rows. */
void cli_usage(const struct cli_tool *t, FILE *f);

#endif
