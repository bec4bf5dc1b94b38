/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The flat profile: samples of each event aggregated by sort keys (command,
 * pid, tid, shared object, symbol, cpu), as perf report --no-children does,
 * with the symbolization summary of every binary the samples fell in.
 */
#ifndef MYCL_PROFILE_H
#define MYCL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mycl/log.h"
#include "mycl/perf_data.h"

#ifdef __cplusplus
extern "C" {
#endif

enum mycl_sort_key {
	MYCL_SORT_COMM,
	MYCL_SORT_PID,
	MYCL_SORT_TID,
	MYCL_SORT_DSO,
	MYCL_SORT_SYM,
	MYCL_SORT_CPU,
	MYCL_SORT__MAX,
};

/* "comm" -> MYCL_SORT_COMM...; -1 when unknown. */
int mycl_sort_key_parse(const char *name);
const char *mycl_sort_key_name(enum mycl_sort_key key);

struct mycl_profile_opts {
	size_t sz;			/* sizeof(struct mycl_profile_opts) */
	mycl_print_fn print;
	void *print_ctx;
	const enum mycl_sort_key *sort;	/* NULL: comm, dso, sym */
	size_t nr_sort;
	const char *symfs;		/* look for binaries under this directory */
	const char *kallsyms;		/* kernel symbols file */
	const char *buildid_dir;	/* NULL: $HOME/.debug; "" disables */
	const char *debug_dir;		/* NULL: /usr/lib/debug */
	bool no_demangle;
	/* Filters: comma-separated lists; NULL keeps everything. */
	const char *comms, *dsos, *pids, *tids, *cpus;
	const char *event;		/* only the event of this name; NULL: all */
};

/* One row of the flat profile.  Fields not among the sort keys are 0/NULL. */
struct mycl_hot_row {
	const char *comm;
	int32_t pid, tid;
	uint32_t cpu;
	const char *dso;		/* short name; "[unknown]" without a map */
	const char *dso_path;
	const char *sym;		/* NULL when unresolved: show addr */
	uint64_t addr;
	char level;			/* '.' user, 'k' kernel */
	uint64_t period, samples;
};

struct mycl_profile_event {
	const struct mycl_event *event;
	uint64_t nr_samples, total_period;	/* kept by the filters */
	uint64_t nr_samples_all, total_period_all;
	size_t nr_rows;
	const struct mycl_hot_row *rows;	/* by period, largest first */
};

/* Per binary: how many samples fell in it and how many found no symbol. */
struct mycl_dso_summary {
	const char *name, *path;
	const char *build_id;		/* hex, "" when unknown */
	const char *sym_file;		/* the file symbols came from, or NULL */
	const char *status;		/* "ok", "binary not found", "no symbol table"... */
	const char *detail;		/* what was tried or what differed; may be NULL */
	const char *fix;		/* what to install, when samples lack symbols; may be NULL */
	bool kernel, ok;
	uint64_t samples, unresolved;
};

struct mycl_profile;

/*
 * Reads every record of PD (which must not have been read yet) and builds
 * the profile.  PD must outlive the profile.  Returns 0 or a negative code;
 * mycl_perf_data__errmsg(PD) tells what went wrong in the file.
 */
int mycl_profile__build(struct mycl_perf_data *pd, const struct mycl_profile_opts *opts,
			struct mycl_profile **out);
/* Frees P; accepts NULL. */
void mycl_profile__free(struct mycl_profile *p);

size_t mycl_profile__nr_events(const struct mycl_profile *p);
const struct mycl_profile_event *mycl_profile__event(const struct mycl_profile *p, size_t i);
size_t mycl_profile__nr_dsos(const struct mycl_profile *p);
const struct mycl_dso_summary *mycl_profile__dso(const struct mycl_profile *p, size_t i);
/* Samples with no map at all ([unknown]), over all events kept. */
uint64_t mycl_profile__unmapped(const struct mycl_profile *p);
const enum mycl_sort_key *mycl_profile__sort_keys(const struct mycl_profile *p, size_t *nr);
struct mycl_perf_data *mycl_profile__perf_data(const struct mycl_profile *p);

#ifdef __cplusplus
}
#endif
#endif
