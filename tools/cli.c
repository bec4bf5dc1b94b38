/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

/* The progress line being shown: a message clears it first. */
static struct cli_progress *active_progress;

int cli_size(const char *prog, const char *opt, const char *arg, size_t min, size_t max,
	     size_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = isdigit((unsigned char)arg[0]) ? strtoull(arg, &end, 10) : 0;
	if (!isdigit((unsigned char)arg[0]) || *end || errno || v < min || v > max) {
		fprintf(stderr, "%s: %s takes a whole number from %zu to %zu, not '%s'\n", prog, opt,
			min, max, arg);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

int cli_double(const char *prog, const char *opt, const char *arg, double min, double max,
	       double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || isspace((unsigned char)arg[0]) || *end || errno || !isfinite(v) || v < min ||
	    v > max) {
		fprintf(stderr, "%s: %s takes a number from %g to %g, not '%s'\n", prog, opt, min, max,
			arg);
		return -1;
	}
	*out = v;
	return 0;
}

bool cli_is_dir(const char *prog, const char *opt, const char *path)
{
	struct stat sb;

	if (stat(path, &sb)) {
		fprintf(stderr, "%s: %s %s: %s\n", prog, opt, path, strerror(errno));
		return false;
	}
	if (!S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "%s: %s %s: not a directory\n", prog, opt, path);
		return false;
	}
	return true;
}

int cli_check_kallsyms(const char *prog, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0, good = 0;

	if (!f) {
		fprintf(stderr, "%s: --kallsyms %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char type, name[512];
		unsigned long long addr;
		int used = 0;

		n++;
		if (line[0] == '\n')
			continue;
		if (sscanf(line, "%llx %c %511s%n", &addr, &type, name, &used) != 3 ||
		    !isalpha((unsigned char)type) || !strchr(" \t", line[strspn(line, "0123456789abcdefABCDEF")])) {
			fprintf(stderr, "%s: %s:%d: not a kallsyms line (ADDRESS TYPE NAME): %.60s%s",
				prog, path, n, line, strchr(line, '\n') ? "" : "\n");
			fclose(f);
			return -1;
		}
		good++;
	}
	fclose(f);
	if (!good) {
		fprintf(stderr, "%s: --kallsyms %s: no symbols in it\n", prog, path);
		return -1;
	}
	return 0;
}

int cli_conflict(const char *prog, bool a, const char *na, bool b, const char *nb, const char *why)
{
	if (!a || !b)
		return 0;
	fprintf(stderr, "%s: %s and %s do not go together: %s\n", prog, na, nb, why);
	return -1;
}

void cli_print(enum mycl_print_level level, const char *msg, void *ctx)
{
	const struct cli_log *lg = ctx;

	if ((int)level > lg->verbose)
		return;
	if (active_progress)
		cli_progress_done(active_progress);
	fprintf(stderr, "%s: %s%s\n", lg->prog, level == MYCL_WARN ? "warning: " : "", msg);
}

int cli_exit_code(int err)
{
	switch (err) {
	case 0:
		return EXIT_OK;
	case -ENOMEM:
		return EXIT_INTERNAL;
	case MYCL_ERR_NO_EVENT:
	case MYCL_ERR_NO_SAMPLES:
		return EXIT_NOTHING;
	case MYCL_ERR_NOT_RECORDED:	/* an option asks for what the recording lacks */
		return EXIT_USAGE;
	case MYCL_ERR_NOT_PERF_DATA:
	case MYCL_ERR_LEGACY_FORMAT:
	case MYCL_ERR_TRUNCATED:
	case MYCL_ERR_CORRUPT:
	case MYCL_ERR_UNSUPPORTED:
	case MYCL_ERR_DECOMPRESS:
	case MYCL_ERR_SIMPLEPERF:
	case MYCL_ERR_ARCHIVE:
	case -EISDIR:
		return EXIT_BAD_INPUT;
	default:
		return EXIT_IO;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Written to the terminal directly (fd 2): its carriage returns are our own. */
static void progress(uint64_t done, uint64_t total, void *ctx)
{
	struct cli_progress *cp = ctx;
	double t = now_s();
	char name[64];
	size_t k = 0;

	if (t - cp->start < cp->after || (cp->shown && t - cp->last < 0.25))
		return;
	/* The file name without control characters, its end if long. */
	for (const char *p = strlen(cp->path) > 40 ? cp->path + strlen(cp->path) - 40 : cp->path;
	     *p && k + 1 < sizeof(name); p++)
		name[k++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
	name[k] = 0;
	if (total)
		dprintf(2, "\r%s: reading %s: %3.0f%% (%.0f of %.0f MB)   ", cp->prog, name,
			100.0 * (double)(done < total ? done : total) / (double)total, (double)done / 1e6,
			(double)total / 1e6);
	else
		dprintf(2, "\r%s: reading %s: %.0f MB   ", cp->prog, name, (double)done / 1e6);
	cp->shown = true;
	cp->last = t;
}

void cli_progress_setup(struct cli_progress *cp, const char *prog, const char *path, int verbose,
			struct mycl_perf_data_opts *popts)
{
	const char *after = getenv("MYCL_PROGRESS_AFTER");

	*cp = (struct cli_progress){ .prog = prog, .path = path, .start = now_s(), .after = 1.0 };
	if (after && *after)
		cp->after = atof(after);	/* tests: 0, to see the line on a small file */
	active_progress = cp;
	if (verbose < 0 || !isatty(2) || getenv("MYCL_NO_PROGRESS"))
		return;
	popts->progress = progress;
	popts->progress_ctx = cp;
}

void cli_progress_done(struct cli_progress *cp)
{
	if (cp->shown) {
		fflush(stderr);
		dprintf(2, "\r%*s\r", 78, "");
	}
	cp->shown = false;
	if (active_progress == cp)
		active_progress = NULL;
}

int cli_choice(const char *prog, const char *opt, const char *arg, const char *const *choices)
{
	size_t n = 0;

	for (; choices[n]; n++)
		if (!strcmp(arg, choices[n]))
			return 0;
	fprintf(stderr, "%s: %s is ", prog, opt);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "", choices[i]);
	fprintf(stderr, ", not '%s'\n", arg);
	return -1;
}

const char *cli_home_debug(void)
{
	static char *dir;
	const char *home = getenv("HOME");

	if (!dir && home && *home && asprintf(&dir, "%s/.debug", home) < 0)
		dir = NULL;
	return dir;
}

int cli_open_recording(const char *prog, const char *path,
		       const struct mycl_perf_data_opts *popts, struct mycl_perf_data **pd)
{
	int err = mycl_perf_data__open(path, popts, pd);

	if (!err)
		return EXIT_OK;
	fprintf(stderr, "%s: %s\n", prog, mycl_errmsg(err));
	/* the library's -EINVAL at open is the slice's; a file that cannot open is -errno */
	if (err == -EINVAL && popts->time && *popts->time)
		return EXIT_USAGE;
	return cli_exit_code(err);
}

int cli_time_empty(const char *prog, const struct mycl_perf_data *pd, const char *spec)
{
	const struct mycl_perf_stats *st = mycl_perf_data__stats(pd);

	if (!spec || !*spec || st->nr_samples || !st->nr_time_skipped)
		return EXIT_OK;
	fprintf(stderr, "%s: %s: none of its %" PRIu64 " samples falls in --time '%s' (they run "
		"from %" PRIu64 ".%06" PRIu64 " to %" PRIu64 ".%06" PRIu64 ")\n", prog,
		mycl_perf_data__path(pd), st->nr_time_skipped, spec,
		st->first_time / 1000000000, st->first_time / 1000 % 1000000,
		st->last_time / 1000000000, st->last_time / 1000 % 1000000);
	return EXIT_NOTHING;
}

static struct mycl_archive *archives[4];
static uint64_t archive_max;	/* --archive-max, bytes; 0: the library's default */

int cli_archive_max(const char *prog, const char *arg)
{
	char *end;
	unsigned long long mib;

	if (archive_max) {
		fprintf(stderr, "%s: --archive-max given twice\n", prog);
		return -1;
	}
	errno = 0;
	mib = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || !mib || mib > (1ull << 24) || arg[0] == '-') {
		fprintf(stderr, "%s: --archive-max wants MiB from 1 to %llu, not '%s'\n", prog,
			1ull << 24, arg);
		return -1;
	}
	archive_max = (uint64_t)mib << 20;
	return 0;
}

static void close_archives(void)
{
	for (size_t i = 0; i < sizeof(archives) / sizeof(archives[0]); i++)
		mycl_archive__close(archives[i]);
}

/*
 * The build-ids (hex) the headers of the recordings RECS name, to keep only
 * their archive members; NULL (every member) when one is read from a pipe,
 * cannot be opened here (its own open says why) or names none.
 */
static char **recorded_build_ids(const char *const *recs, size_t nr_recs, size_t *nr)
{
	char **ids = NULL;
	size_t cap = 0;

	*nr = 0;
	for (size_t r = 0; r < nr_recs; r++) {
		struct mycl_perf_data *pd = NULL;
		const struct mycl_perf_info *info;

		if (!strcmp(recs[r], "-") || mycl_perf_data__open(recs[r], NULL, &pd))
			goto all;
		info = mycl_perf_data__info(pd);
		if (info->pipe_mode || !info->nr_build_ids) {
			mycl_perf_data__close(pd);
			goto all;
		}
		for (size_t i = 0; i < info->nr_build_ids; i++) {
			const struct mycl_build_id *b = &info->build_ids[i];
			char *hex;

			/* (out of memory: every member, never a list cut short) */
			if (*nr == cap) {
				char **n = realloc(ids, (cap ? cap * 2 : 64) * sizeof(*ids));

				if (!n) {
					mycl_perf_data__close(pd);
					goto all;
				}
				ids = n;
				cap = cap ? cap * 2 : 64;
			}
			hex = malloc(2 * sizeof(b->id) + 1);
			if (!hex) {
				mycl_perf_data__close(pd);
				goto all;
			}
			for (size_t k = 0; k < b->size && k < sizeof(b->id); k++)
				sprintf(hex + 2 * k, "%02x", b->id[k]);
			hex[2 * (b->size < sizeof(b->id) ? b->size : sizeof(b->id))] = '\0';
			ids[(*nr)++] = hex;
		}
		mycl_perf_data__close(pd);
	}
	return ids;
all:
	for (size_t i = 0; i < *nr; i++)
		free(ids[i]);
	free(ids);
	*nr = 0;
	return NULL;
}

int cli_archive(const char *prog, const char *path, const char *const *recs, size_t nr_recs,
		const struct mycl_archive **out)
{
	struct mycl_archive_opts ao = { .sz = sizeof(ao), .max_bytes = archive_max };
	size_t slot = 0;
	int rc;

	while (slot < sizeof(archives) / sizeof(archives[0]) && archives[slot])
		slot++;
	if (slot == sizeof(archives) / sizeof(archives[0])) {
		fprintf(stderr, "%s: too many archives\n", prog);
		return EXIT_USAGE;
	}
	ao.build_ids = (const char *const *)recorded_build_ids(recs, nr_recs, &ao.nr_build_ids);
	rc = mycl_archive__open(path, &ao, &archives[slot]);
	for (size_t i = 0; i < ao.nr_build_ids; i++)
		free((char *)ao.build_ids[i]);
	free((void *)ao.build_ids);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, mycl_errmsg(rc));
		return cli_exit_code(rc);
	}
	if (!slot)
		atexit(close_archives);
	*out = archives[slot];
	return 0;
}

int cli_set_once(const char *prog, const char *opt, const char **slot, const char *arg,
		 const char *hint)
{
	if (*slot) {
		fprintf(stderr, "%s: %s given twice%s\n", prog, opt, hint);
		return -1;
	}
	*slot = arg;
	return 0;
}

int cli_id_list(const char *prog, const char *opt, const char *arg)
{
	const char *p = arg;

	while (1) {
		unsigned long long lo, hi;
		char *end;

		errno = 0;
		lo = isdigit((unsigned char)*p) ? strtoull(p, &end, 10) : ULLONG_MAX;
		hi = lo;
		if (lo != ULLONG_MAX && !errno && *end == '-') {
			p = end + 1;
			hi = isdigit((unsigned char)*p) ? strtoull(p, &end, 10) : ULLONG_MAX;
		}
		if (lo == ULLONG_MAX || errno || hi > 2147483647ULL || hi < lo ||
		    (*end && *end != ',')) {
			fprintf(stderr, "%s: %s takes a comma list of numbers and ranges (0-3) from 0 "
				"to 2147483647, not '%s'\n", prog, opt, arg);
			return -1;
		}
		if (!*end)
			return 0;
		p = end + 1;
	}
}

int cli_uint(const char *prog, const char *opt, const char *arg, unsigned int min, unsigned int max,
	     unsigned int *out)
{
	size_t v;

	if (cli_size(prog, opt, arg, min, max, &v))
		return -1;
	*out = (unsigned int)v;
	return 0;
}

int cli_once(const char *prog, const struct option *opts, struct cli_seen *seen, int code,
	     const char *arg, const int *repeatable)
{
	const char *was, *now = arg ? arg : "";
	char shortname[3] = { '-', (char)code, 0 };
	const char *name = shortname, *dashes = "";
	bool again = false;

	if (code == '?' || code == ':')
		return 0;
	for (const struct option *o = opts; o->name; o++)
		if (o->val == code) {
			name = o->name;
			dashes = "--";
			break;
		}
	/* An empty value names nothing; '' is "none" only for the two directories. */
	if (arg && !*arg && strcmp(name, "buildid-dir") && strcmp(name, "debug-dir")) {
		fprintf(stderr, "%s: %s%s needs a value, not ''\n", prog, dashes, name);
		return -1;
	}
	for (size_t i = 0; repeatable && repeatable[i]; i++)
		again |= repeatable[i] == code;
	for (size_t i = 0; i < seen->nr; i++) {
		if (seen->code[i] != code)
			continue;
		was = seen->arg[i];
		if (again || !strcmp(was, now))
			return 0;
		fprintf(stderr, "%s: %s%s given twice (%s%s%s, then %s%s%s): give it once\n", prog,
			dashes, name, *was ? "'" : "", *was ? was : "without a value", *was ? "'" : "",
			*now ? "'" : "", *now ? now : "without a value", *now ? "'" : "");
		return -1;
	}
	if (seen->nr < CLI_MAX_SEEN) {
		seen->code[seen->nr] = code;
		seen->arg[seen->nr++] = now;
	}
	return 0;
}

bool cli_given(const struct cli_seen *seen, int code)
{
	for (size_t i = 0; i < seen->nr; i++)
		if (seen->code[i] == code)
			return true;
	return false;
}

int cli_finish_file(const char *prog, FILE *f, const char *what, const char *path, int err)
{
	bool failed;

	errno = 0;	/* (not an earlier call's) */
	failed = f == stdout ? fflush(f) || ferror(f) : fclose(f) != 0;
	/* the close's reason (a full disk) says more than a writer's -EIO */
	if (failed && errno && (!err || err == -EIO))
		err = -errno;
	else if (failed && !err)
		err = -EIO;
	/* (the whole output in place of the old file; none of it when it failed) */
	if (f != stdout) {
		int cerr = cli_commit(path, !err);

		if (!err)
			err = cerr;
	}
	if (!err)
		return EXIT_OK;
	fprintf(stderr, "%s: writing %s to %s failed: %s\n", prog, what,
		path ? path : "standard output", mycl_strerror(err));
	return EXIT_INTERNAL;
}

int cli_finish_output(const char *prog, FILE *out, const char *output, int err)
{
	return cli_finish_file(prog, out, "the report", output, err);
}

int cli_check_env(const char *prog)
{
	/* the knobs, the values each takes (NULL: any number) and the library's switch it sets */
	static const struct {
		const char *name, *values[3];
		size_t sw;
	} knobs[] = {
		{ "MYCL_READ_AHEAD", { "on", "off", NULL }, offsetof(struct mycl_tuning, read_ahead) },
		{ "MYCL_DECODE_AHEAD", { "on", "off", NULL },
		  offsetof(struct mycl_tuning, decode_ahead) },
		{ "MYCL_SCAN_THREAD", { "on", "off", NULL }, offsetof(struct mycl_tuning, scan_thread) },
		{ "MYCL_X86_QUICK", { "on", "off", NULL }, offsetof(struct mycl_tuning, x86_quick) },
		{ "MYCL_CHAIN_CACHE", { "on", "off", NULL }, offsetof(struct mycl_tuning, chain_cache) },
		{ "MYCL_TYPE_THREADS", { "on", "off", NULL },
		  offsetof(struct mycl_tuning, type_threads) },
		{ "MYCL_PROGRESS_AFTER", { NULL }, 0 },
	};
	struct mycl_tuning tuning = { .sz = sizeof(tuning) };

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		const char *v = getenv(knobs[i].name);
		bool ok = false;
		char *end;

		if (!v || !*v)
			continue;
		if (!knobs[i].values[0]) {
			double d = strtod(v, &end);

			ok = !*end && d >= 0 && d < 1e9;
		}
		for (size_t k = 0; k < 2 && knobs[i].values[k]; k++)
			ok |= !strcmp(v, knobs[i].values[k]);
		if (!ok) {
			fprintf(stderr, "%s: %s=%s: it takes %s\n", prog, knobs[i].name, v,
				knobs[i].values[0] ? "on or off" : "a number of seconds");
			return -1;
		}
		if (knobs[i].sw)
			*(int *)((char *)&tuning + knobs[i].sw) = !strcmp(v, "on") ? MYCL_SWITCH_ON :
								  MYCL_SWITCH_OFF;
	}
	mycl_tuning__set(&tuning);
	return 0;
}

/* PATH as the file it names: its real path, or its directory's real path and its name. */
static char *canonical(const char *path)
{
	char *copy, *dir, *base, *out = NULL;
	char buf[PATH_MAX];

	if (realpath(path, buf))
		return strdup(buf);
	copy = strdup(path);
	if (!copy)
		return NULL;
	dir = dirname(copy);
	if (realpath(dir, buf)) {
		free(copy);
		copy = strdup(path);
		base = copy ? basename(copy) : NULL;
		if (base && asprintf(&out, "%s/%s", buf, base) < 0)
			out = NULL;
	}
	free(copy);
	return out ? out : strdup(path);
}

/* Whether A and B name one file: the same inode, or the same canonical path. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	bool same;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = canonical(a);
	cb = canonical(b);
	same = ca && cb && !strcmp(ca, cb);
	free(ca);
	free(cb);
	return same;
}

/*
 * Whether OUT names a file of the perf record --threads directory DIR: its
 * 'data' or a data.N (read with it, or listed as one when made).
 */
static bool in_threads_dir(const char *out, const char *dir)
{
	char *a = strdup(out), *b = strdup(out);
	const char *base;
	struct stat sd, sp;
	bool in = false;

	if (a && b && !stat(dir, &sd) && S_ISDIR(sd.st_mode) && !stat(dirname(a), &sp) &&
	    sp.st_dev == sd.st_dev && sp.st_ino == sd.st_ino) {
		base = basename(b);
		in = mycl_perf_data__dir_member(base);
	}
	free(a);
	free(b);
	return in;
}

int cli_check_files(const char *prog, const struct cli_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!files[i].path || !files[i].output || !strcmp(files[i].path, "-"))
			continue;
		for (size_t k = 0; k < n; k++) {
			if (k == i || !files[k].path || !strcmp(files[k].path, "-") ||
			    (files[k].output && k < i) ||
			    (!same_file(files[i].path, files[k].path) &&
			     (files[k].output || !in_threads_dir(files[i].path, files[k].path))))
				continue;
			if (files[k].output)
				fprintf(stderr, "%s: %s and %s both write %s: give each its own file\n",
					prog, files[k].what, files[i].what, files[i].path);
			else
				fprintf(stderr, "%s: %s %s is also %s: writing it would destroy what "
					"is read\n", prog, files[i].what, files[i].path, files[k].what);
			return -1;
		}
	}
	return 0;
}

/* Edits (insertions, deletions, substitutions) from A to B, at most 63 characters each. */
static size_t edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];

	if (la > 63 || lb > 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

int cli_bad_option(const char *prog, char *const argv[], const struct option *opts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	char name[64];
	size_t len, best = 99, nprefix = 0;
	const char *near = NULL;

	if (optopt) {
		/* a short option unknown, or an option whose value is missing */
		for (const struct option *o = opts; o->name; o++) {
			if (o->val != optopt)
				continue;
			if (o->has_arg == required_argument)
				fprintf(stderr, "%s: --%s needs a value\n", prog, o->name);
			else
				fprintf(stderr, "%s: --%s takes no value\n", prog, o->name);
			return EXIT_USAGE;
		}
		fprintf(stderr, "%s: unknown option -%c (%s --help lists them)\n", prog,
			isprint(optopt) ? optopt : '?', prog);
		return EXIT_USAGE;
	}
	if (strncmp(arg, "--", 2)) {
		fprintf(stderr, "%s: unknown option (%s --help lists them)\n", prog, prog);
		return EXIT_USAGE;
	}
	len = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), arg + 2);
	for (const struct option *o = opts; o->name; o++) {
		size_t d = edits(name, o->name);

		nprefix += *name && !strncmp(o->name, name, strlen(name));
		if (d < best) {
			best = d;
			near = o->name;
		}
	}
	if (nprefix > 1) {
		fprintf(stderr, "%s: --%s is short for several options:", prog, name);
		for (const struct option *o = opts; o->name; o++)
			if (!strncmp(o->name, name, strlen(name)))
				fprintf(stderr, " --%s", o->name);
		fputc('\n', stderr);
	} else if (near && best <= 2 && best < strlen(name)) {
		fprintf(stderr, "%s: unknown option --%s; did you mean --%s?\n", prog, name, near);
	} else {
		fprintf(stderr, "%s: unknown option --%s (%s --help lists them)\n", prog, name, prog);
	}
	return EXIT_USAGE;
}

int cli_source_dir(const char *prog, const char **dirs, int *nr, const char *dir)
{
	if (*nr == MAX_SRC_DIRS) {
		fprintf(stderr, "%s: --source-dir: at most %d directories\n", prog, MAX_SRC_DIRS);
		return -1;
	}
	if (!cli_is_dir(prog, "--source-dir", dir))
		return -1;
	dirs[(*nr)++] = dir;
	return 0;
}

int cli_prefix_map(const char *prog, const char *arg)
{
	if (!strchr(arg, '=') || *arg == '=') {
		fprintf(stderr, "%s: --prefix-map takes OLD=NEW (a build path and where its sources "
			"are here), not '%s'\n", prog, arg);
		return -1;
	}
	return 0;
}

void cli_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int cli_read_stat(const char *prog, const char *path, const char *what, struct cli_log *lg,
		  struct mycl_perf_data **pd, struct mycl_stat **st)
{
	MYCL_OPTS(mycl_perf_data_opts, popts, .print = cli_print, .print_ctx = lg);
	MYCL_OPTS(mycl_stat_opts, so, .print = cli_print, .print_ctx = lg);
	int rc;

	*st = NULL;
	if ((rc = cli_open_recording(prog, path, &popts, pd)))
		return rc;
	if (!mycl_perf_data__is_stat(*pd)) {
		fprintf(stderr, "%s: %s%s: not a perf stat record file (perf stat record -o FILE -- "
			"COMMAND writes one)\n", prog, what, path);
		return EXIT_USAGE;
	}
	rc = mycl_stat__build(*pd, &so, st);
	if (rc) {
		fprintf(stderr, "%s: %s%s: %s\n", prog, what, path, rc == MYCL_ERR_NO_SAMPLES ?
			"a perf stat recording without counter values (perf stat was stopped before "
			"it wrote them)" : mycl_errmsg(rc));
		return cli_exit_code(rc);
	}
	return EXIT_OK;
}
