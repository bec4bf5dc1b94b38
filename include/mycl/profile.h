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
#include "mycl/archive.h"
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
	const char *buildid_dir;	/* perf's build-id cache (~/.debug); NULL or "": none */
	const char *debug_dir;		/* NULL: /usr/lib/debug; "" disables */
	bool no_demangle;
	/*
	 * Filters: comma-separated lists; NULL keeps everything.  pids, tids
	 * and cpus take numbers and ranges ("0-3") from 0 to 2^31 - 1
	 * (mycl_profile__build() fails with -EINVAL on anything else).  cpus,
	 * like the cpu sort key, needs events that sample the CPU
	 * (PERF_SAMPLE_CPU): MYCL_ERR_NOT_RECORDED otherwise.
	 */
	const char *comms, *dsos, *pids, *tids, *cpus;
	const char *event;		/* only the event of this name; NULL: all */
	bool callgraph;			/* keep call paths: graphs, --callers, folded */
	bool children;			/* rows by inclusive time (implies callgraph) */
	bool no_inline;			/* no inlined-function frames in unwound stacks */
	bool annotate;			/* count samples per instruction, for annotation */
	bool locks;			/* classify lock and spin samples (implies callgraph) */
	/*
	 * More lock rules, from this file (see data/lock-rules.txt); with or
	 * without locks, a file that cannot be read or is not in the format
	 * fails the build with MYCL_ERR_BAD_RULES.
	 */
	const char *lock_rules;
	/*
	 * Frame-pointer chains: keep the caller a frameless leaf function
	 * loses (perf drops it) out.  By default it is put back from the call
	 * instruction before the first return address, as a frame named
	 * "NAME [from call site]".  On: the chains exactly as perf shows them.
	 */
	bool no_call_site_frames;
	/*
	 * A perf archive from the recorded machine (mycl/archive.h): its
	 * binaries are looked for first after --symfs; it must outlive the
	 * profile.
	 */
	const struct mycl_archive *archive;
	/*
	 * Binaries given by name (NULL-terminated): each is used for the
	 * recording's binary of the same build-id, wherever that was recorded
	 * (a copy, another path, mycl-share's --perf).
	 */
	const char *const *binaries;
	/*
	 * At most this many frames of a recorded call chain, innermost first,
	 * as perf report's --max-stack (0: perf's default, 127); a longer
	 * chain ends in a frame named MYCL_MAX_STACK_CUT and is counted in the
	 * warnings.  DWARF unwinding stops at 127 frames whatever this says.
	 */
	unsigned int max_stack;
	/*
	 * A JIT's symbol map, /tmp/perf-PID.map, is a file of this machine
	 * that the recording's PID picks: by default it is read only when the
	 * recording says it was made here (its host name is this machine's)
	 * or from under symfs; true reads it for any recording.
	 */
	bool jit_maps;
	/*
	 * Wall-clock time beside CPU time, as perf report --latency: each
	 * sample weighted by 1/(threads running then), counted from the
	 * recording's context switches (perf record --switch-events), else
	 * from the samples per CPU (see mycl_profile__latency_method()).
	 */
	bool latency;
	/*
	 * With callgraph: each call path's samples per bucket of the timeline
	 * (mycl_profile__timed_stacks()), for a heat map whose slices show
	 * their own flame graph.
	 */
	bool timed_stacks;
	/*
	 * With callgraph: the samples per place the call chains pass in the
	 * binaries (the sampled instruction, and the call each return address
	 * comes back from), for analyses that ask where in a function a chain
	 * runs (mycl-share: inside the loop that holds a write, or not).
	 */
	bool call_sites;
	/*
	 * Every sample's data address (perf mem, perf c2c, page faults), of
	 * every event and whatever the filters keep, and each file's first
	 * executable mapping: what mycl-share weighs cache lines by, so that an
	 * analysis handed this profile (mycl_share_opts.profile) need not read
	 * the recording again.
	 */
	bool data_addresses;
};

/* The frame that ends a call chain cut at max_stack frames. */
#define MYCL_MAX_STACK_CUT "[call chain cut: --max-stack]"

/* The mark of a frame put back from a call instruction (see no_call_site_frames). */
#define MYCL_FROM_CALL_SITE "[from call site]"

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
	uint64_t period, samples;	/* self: samples taken in the function */
	uint64_t total_period, total_samples; /* children: samples under it too */
	uint32_t id;			/* identifies the row to mycl_profile__row_graph() */
	uint64_t latency;		/* with opts.latency: period * 1000 / threads running,
					 * summed (self); 0 otherwise */
};

struct mycl_profile_event {
	const struct mycl_event *event;
	uint64_t nr_samples, total_period;	/* kept by the filters */
	uint64_t nr_samples_all, total_period_all;
	size_t nr_rows;
	const struct mycl_hot_row *rows;	/* by period (latency with opts.latency), largest first */
	uint64_t total_latency;		/* the rows' latency summed */
	uint64_t total_latency_all;	/* every sample's, the filters aside */
};

struct mycl_profile;
/*
 * With opts.latency: how the threads running at each sample were counted,
 * "switches" (context-switch records) or "samples" (each CPU's latest
 * sample), or NULL when the recording has neither (no switch records, no
 * CPU in its samples) or the option was not set.
 */
const char *mycl_profile__latency_method(const struct mycl_profile *p);
/* Event EV's samples by the number of threads running then (perf's parallelism). */
struct mycl_parallelism {
	uint32_t parallelism;		/* threads running; 0: the idle task (method samples) */
	uint64_t samples, period;
	uint64_t latency;		/* period * 1000 / parallelism, summed */
};
/* Levels 0 to 4096 (*LEVELS, owned by the profile; the last holds 4096 and more); 0: none. */
size_t mycl_profile__parallelism(const struct mycl_profile *p, size_t ev,
				 const struct mycl_parallelism **levels);

/*
 * Event EV's kept samples over time: NR buckets of WIDTH ns from START (the
 * recording's clock), the first holding the first sample; the width is the
 * finest (from 1 ms, doubling) that keeps the run within 4,096 buckets.
 * Arrays owned by the profile.  0, or -ENOENT when the event has no timed
 * sample.
 */
struct mycl_timeline {
	uint64_t start, width;
	size_t nr;
	const uint64_t *samples, *period;
};
int mycl_profile__timeline(const struct mycl_profile *p, size_t ev, struct mycl_timeline *out);

/*
 * With opts.timed_stacks: event EV's samples per (timeline bucket, call path
 * id of mycl_profile__for_each_stack()); *OUT owned by the profile.
 */
struct mycl_timed_stack {
	uint32_t bucket, stack;
	uint64_t samples;
};
size_t mycl_profile__timed_stacks(const struct mycl_profile *p, size_t ev,
				  const struct mycl_timed_stack **out);

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
	/*
	 * Where the binary and its symbols are read here (sym_file may name an
	 * archive's member, which opens as /proc/self/fd/N); NULL when not found.
	 */
	const char *read_file, *read_sym_file;
};

/*
 * A call graph: a function and, below it, its callers (or callees), each
 * with the period and samples that went through that path.  Children are
 * sorted by period, largest first.
 */
struct mycl_cg_node {
	const char *sym;		/* NULL when unresolved: see addr */
	const char *dso;
	uint64_t addr;			/* MYCL_CG_ADDR_MERGED: unresolved addresses of dso merged */
	char level;
	uint64_t period, samples;
	size_t nr_children;
	struct mycl_cg_node *children;
	bool inlined;			/* inlined into the frame that calls it (DWARF stacks) */
};

/*
 * Bounded memory on huge recordings: past 262,144 call-tree nodes the
 * unresolved addresses of new call paths are merged per binary (warning
 * "merged_unresolved"); past 524,288 a path that needs a new node ends in
 * its deepest known caller's "[call paths cut: memory bound]" child
 * (warning "paths_cut").  Callers' inclusive counts stay exact.
 */
#define MYCL_CG_ADDR_MERGED UINT64_MAX

struct mycl_profile;

/*
 * Reads every record of PD (which must not have been read yet) and builds
 * the profile.  PD must outlive the profile.  Returns 0 or a negative code;
 * mycl_errmsg() tells what went wrong in the file.
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
/* True when the profile was built with call paths (callgraph or children). */
bool mycl_profile__has_callgraph(const struct mycl_profile *p);
bool mycl_profile__children(const struct mycl_profile *p);

/*
 * The callers of row ROW of event EV: the row's function at the top, then who
 * called it, weighted by the row's self time (by its inclusive time in
 * children mode).  Needs callgraph.  *OUT is freed with mycl_cg_node__free().
 */
int mycl_profile__row_graph(const struct mycl_profile *p, size_t ev, const struct mycl_hot_row *row,
			    struct mycl_cg_node **out);
/*
 * The same, in caller order when CALLER_ORDER: from the outermost callers down
 * to the row's function (perf report -g caller).
 */
int mycl_profile__row_graph_order(const struct mycl_profile *p, size_t ev,
				  const struct mycl_hot_row *row, bool caller_order,
				  struct mycl_cg_node **out);
/*
 * Every call path into (CALLEES false) or out of (CALLEES true) the functions
 * named SYM in event EV, merged into one tree rooted at SYM and weighted by the
 * time spent in or under it.  -ENOENT when no sample went through SYM.
 */
int mycl_profile__symbol_graph(const struct mycl_profile *p, size_t ev, const char *sym,
			       bool callees, struct mycl_cg_node **out);
void mycl_cg_node__free(struct mycl_cg_node *n);

/*
 * The group view of leader sampling ('{cycles,instructions}:S', samples that
 * read a group of counters): the rows of the group's members side by side,
 * matched on the sort keys, as perf report shows a group by default.  Each
 * member's rows are its own (its period is the increase of its count between
 * the leader's samples); a member with no row for a key has NULL there.
 */
struct mycl_group_row {
	const struct mycl_hot_row *key;	/* one member's row: the key columns */
	const struct mycl_hot_row **members; /* nr_members entries, NULL where absent */
};

struct mycl_group_view {
	size_t leader;			/* event index of the leader */
	size_t nr_members;		/* the leader included, first */
	const size_t *members;		/* event indexes */
	int cycles, instructions;	/* member positions of those hardware events, -1 */
	size_t nr_rows;
	struct mycl_group_row *rows;	/* by the leader's period, then each member's */
	const struct mycl_hot_row **slots; /* storage of the rows' members */
};

/*
 * The group led by event LEADER (mycl_event.group_leader == its idx, with
 * members).  -ENOENT when the event leads no group.  Free with
 * mycl_group_view__free().
 */
int mycl_profile__group_view(const struct mycl_profile *p, size_t leader,
			     struct mycl_group_view **out);
void mycl_group_view__free(struct mycl_group_view *g);

/*
 * What the recording cannot answer well, for the report's header: samples
 * lost, DWARF stack copies too small, frame-pointer chains that stop early,
 * a profile dominated by idle or by a hypervisor artefact, too few samples
 * for the shares shown.  Each with the share it concerns and, where there is
 * one, the perf record command (or option) that would do better.
 */
struct mycl_warning {
	const char *kind;	/* "lost", "unordered", "stack_copy", "fp_chains", "binaries",
				 * "no_chains", "idle", "artefact", "few_samples",
				 * "merged_unresolved", "paths_cut", "max_stack" */
	double share;		/* percent of the samples concerned */
	char message[256];
	char fix[192];		/* "" when there is nothing to do */
};

size_t mycl_profile__nr_warnings(const struct mycl_profile *p);
const struct mycl_warning *mycl_profile__warning(const struct mycl_profile *p, size_t i);

/*
 * The 95% confidence interval (Wilson score) of a share of PART samples in
 * TOTAL, in percent: how much the shares shown can be trusted.
 */
void mycl_share_ci95(uint64_t part, uint64_t total, double *lo, double *hi);

/* Visits each distinct call path of event EV, outermost frame first, with its sample count. */
typedef int (*mycl_path_fn)(const char *comm, const struct mycl_cg_node *frames, size_t n,
			    uint64_t samples, uint64_t period, void *ctx);
int mycl_profile__for_each_path(const struct mycl_profile *p, size_t ev, mycl_path_fn fn, void *ctx);

/* The same with the thread: pid and tid are -1 unless the profile is sorted on them. */
struct mycl_stack {
	const char *comm;		/* NULL unless sorted on comm */
	int32_t pid, tid;
	const struct mycl_cg_node *frames;	/* outermost first */
	size_t nr_frames;
	uint64_t samples, period;
	uint32_t id;			/* the path's id (mycl_timed_stack.stack) */
};
typedef int (*mycl_stack_fn)(const struct mycl_stack *s, void *ctx);
int mycl_profile__for_each_stack(const struct mycl_profile *p, size_t ev, mycl_stack_fn fn,
				 void *ctx);

#ifdef __cplusplus
}
#endif
#endif
