/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the mycl tools share: exit codes and the message printer. */
#ifndef MYCL_CLI_H
#define MYCL_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "mycl/mycl.h"

/* Exit codes, documented in each tool's man page. */
enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,		/* bad options */
	EXIT_IO = 2,		/* input cannot be opened or read */
	EXIT_BAD_INPUT = 3,	/* not a perf.data, corrupt or unsupported */
	EXIT_NOTHING = 4,	/* valid input, but nothing to report (no such event) */
	EXIT_INTERNAL = 5,	/* out of memory, output error */
};

struct cli_log {
	const char *prog;
	int verbose;		/* -1 quiet, 0 warnings, 1 info, 2 debug */
};

void cli_print(enum mycl_print_level level, const char *msg, void *ctx);
/*
 * A progress line on standard error while a recording is read, for runs over
 * a second, when standard error is a terminal; cleared when done.  Set
 * popts->progress through cli_progress_setup (nothing when quiet or not a tty).
 */
struct cli_progress {
	const char *prog, *path;
	double start, last;
	double after;			/* seconds before the line shows (MYCL_PROGRESS_AFTER) */
	bool shown;
};
struct mycl_perf_data_opts;
void cli_progress_setup(struct cli_progress *cp, const char *prog, const char *path, int verbose,
			struct mycl_perf_data_opts *popts);
/* Clears the line if one was shown. */
void cli_progress_done(struct cli_progress *cp);

/* Exit code for a library error code. */
int cli_exit_code(int err);

/*
 * Strict option numbers: the whole of ARG, within [MIN, MAX].  On anything
 * else, prints "PROG: OPT takes ...: 'ARG'" and returns -1.
 */
int cli_size(const char *prog, const char *opt, const char *arg, size_t min, size_t max,
	     size_t *out);
/* ARG as a --pid/--tid/--cpu list (numbers and ranges, 0 to 2^31 - 1): 0, or -1 once said. */
int cli_id_list(const char *prog, const char *opt, const char *arg);
/* The same, into an unsigned int (MAX at most UINT_MAX). */
int cli_uint(const char *prog, const char *opt, const char *arg, unsigned int min, unsigned int max,
	     unsigned int *out);
int cli_double(const char *prog, const char *opt, const char *arg, double min, double max,
	       double *out);
/*
 * ARG as one of CHOICES (NULL-terminated): 0, or prints "PROG: OPT is a, b or
 * c, not 'ARG'" and returns -1.
 */
int cli_choice(const char *prog, const char *opt, const char *arg, const char *const *choices);
/* --source-dir and --prefix-map of the tools that annotate code. */
#define MAX_SRC_DIRS 16
/* DIR added to DIRS (*NR of them, at most MAX_SRC_DIRS): 0, or -1 once said why not. */
int cli_source_dir(const char *prog, const char **dirs, int *nr, const char *dir);
/* Whether ARG is OLD=NEW: 0, or -1 once said. */
int cli_prefix_map(const char *prog, const char *arg);

/*
 * Opens the recording PATH with POPTS (its --time slice too): EXIT_OK and
 * *PD, or says why not ("PROG: message") and returns the exit status (a
 * malformed or empty --time slice: EXIT_USAGE).
 */
int cli_open_recording(const char *prog, const char *path,
		       const struct mycl_perf_data_opts *popts, struct mycl_perf_data **pd);

/*
 * After reading PD with a --time slice: when the slice kept none of its
 * samples, says so with the span its samples cover and returns EXIT_NOTHING;
 * else EXIT_OK.
 */
int cli_time_empty(const char *prog, const struct mycl_perf_data *pd, const char *spec);

/* True when PATH is a directory; else says why, naming OPT. */
bool cli_is_dir(const char *prog, const char *opt, const char *path);
/*
 * 0 when PATH reads as a kallsyms file ("ADDRESS TYPE NAME [module]" lines);
 * else prints "PROG: PATH:LINE: ..." and returns -1.
 */
int cli_check_kallsyms(const char *prog, const char *path);
/*
 * --archive PATH: the perf archive read into memory, closed at exit; 0, or
 * an exit code once the problem is said ("PROG: PATH: what is wrong").
 */
/* perf's build-id cache, $HOME/.debug: --buildid-dir's default; NULL without $HOME. */
const char *cli_home_debug(void);
/* --archive-max MIB: what the archive's members kept may take; -1 (said) when ARG is no size. */
int cli_archive_max(const char *prog, const char *arg);
/* Opens the archive PATH, keeping the members of the build-ids the recordings RECS name. */
int cli_archive(const char *prog, const char *path, const char *const *recs, size_t nr_recs,
		const struct mycl_archive **out);
/* *SLOT = ARG, or (the option OPT given twice) "PROG: OPT given twice HINT" and -1. */
int cli_set_once(const char *prog, const char *opt, const char **slot, const char *arg,
		 const char *hint);
/*
 * What a run's options said so far, for cli_once: an option's first value
 * by its getopt code.
 */
#define CLI_MAX_SEEN 64
struct cli_seen {
	int code[CLI_MAX_SEEN];
	const char *arg[CLI_MAX_SEEN];
	size_t nr;
};
/*
 * An option with an empty value ('' means "none" only for --buildid-dir and
 * --debug-dir): "PROG: --NAME needs a value, not ''" and -1.
 * An option given again (getopt's CODE, its ARG) with another value than the
 * first time: "PROG: --NAME given twice ('A', then 'B')" and -1, since one
 * would silently win.  The same value again, a flag again and the codes in
 * REPEATABLE (0-terminated, may be NULL) are fine.
 */
struct option;
int cli_once(const char *prog, const struct option *opts, struct cli_seen *seen, int code,
	     const char *arg, const int *repeatable);
/*
 * The report written to OUT (stdout, or the -o file OUTPUT, closed here) with
 * the writer's ERR: EXIT_OK, or EXIT_INTERNAL once "PROG: writing the report
 * to OUTPUT failed: why" is said (a full disk, a closed pipe's end).
 */
int cli_finish_output(const char *prog, FILE *out, const char *output, int err);
/* The same for F holding WHAT ("the flame graph") for PATH (NULL: standard output). */
int cli_finish_file(const char *prog, FILE *f, const char *what, const char *path, int err);
/*
 * The MYCL_* variables of the environment (ENVIRONMENT in the man pages) hold
 * values they take: 0, or -1 once "PROG: NAME=VALUE: it takes ..." is said
 * (a mistyped value would otherwise silently mean the default); the on/off
 * ones set the library's switches (mycl_tuning__set).
 */
int cli_check_env(const char *prog);
/* A file a run reads or writes, for cli_check_files: PATH (may be NULL), what it is. */
struct cli_file {
	const char *path;
	const char *what;		/* "-o", "--html", "the recording", "BINARY" */
	bool output;
};
/*
 * Refuses ("PROG: -o X is also the recording: ...", -1) a run whose output
 * would overwrite a file it reads, or two outputs that name one file
 * (checked before any file is opened: the same inode, or the same path).
 */
int cli_check_files(const char *prog, const struct cli_file *files, size_t n);
/*
 * getopt_long's '?' (run with opterr = 0) said once: the unknown option and the one it
 * is likely a slip for, the option whose value is missing, or the options a short
 * prefix stands for.  Returns EXIT_USAGE.
 */
int cli_bad_option(const char *prog, char *const argv[], const struct option *opts);
/* Whether the option of getopt's CODE was given (cli_once saw it). */
bool cli_given(const struct cli_seen *seen, int code);
/* Refuses (message, -1) when both options were given: A and B do not go together. */
int cli_conflict(const char *prog, bool a, const char *na, bool b, const char *nb, const char *why);

/*
 * escape.c: a stream writing to TO with control characters escaped (names
 * from a recording never drive the terminal); fclose closes TO when CLOSE_TO.
 */
FILE *cli_escaping(FILE *to, bool close_to);
/* stdout and stderr made so, for the whole run (closed at exit). */
void cli_escape_std(void);
/*
 * fold.c: a stream writing to TO within WIDTH columns: comment lines folded
 * under their indent, names in other lines shortened in the middle.  Closing
 * it flushes TO, never closes it.
 */
FILE *cli_folding(FILE *to, unsigned int width);
/* PATH opened for writing (cli_create), escaped the same way; NULL with errno set. */
FILE *cli_open_output(const char *path);
/*
 * PATH opened for writing with fopen's MODE, the way outputs are: a regular
 * file (or none yet) is written to a temporary file beside it, which
 * cli_finish_file() renames onto PATH once all of it is written, so a failed
 * or cut run leaves the file that was there (the temporary is removed at
 * exit); a device, a FIFO or a symbolic link is written in place.  NULL with
 * errno set.
 */
FILE *cli_create(const char *path, const char *mode);
/* cli_create's PATH: the temporary renamed onto it when OK, else removed.  0 or -errno. */
int cli_commit(const char *path, bool ok);
/* An output F to PATH (NULL: standard output) given up: nothing of it replaces PATH. */
void cli_abandon(FILE *f, const char *path);

/* S as a JSON string (quotes, backslashes and control bytes escaped) to F. */
void cli_json_string(FILE *f, const char *s);

/*
 * Opens PATH and reads it as a perf stat recording into *PD and *ST; says why
 * not ("PROG: WHAT PATH: ...", WHAT such as "--stat " or "") and returns the
 * exit status: EXIT_USAGE when it is not one.
 */
struct mycl_stat;
int cli_read_stat(const char *prog, const char *path, const char *what, struct cli_log *lg,
		  struct mycl_perf_data **pd, struct mycl_stat **st);

#endif
