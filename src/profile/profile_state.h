/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The profile's private state, shared by its source files. */
#ifndef MYCL_PROFILE_STATE_H
#define MYCL_PROFILE_STATE_H

#include "mycl/profile.h"
#include "calltree.h"
#include "chaincache.h"
#include "hist.h"
#include "internal.h"
#include "machine.h"

struct dso_count {
	struct dso *dso;
	uint64_t samples, unresolved;
	uint64_t fp_gap;		/* user fp-chain samples in functions with no frame pointer */
};

struct filter {
	char **names;
	size_t nr;
	long *nums;			/* [lo, hi] pairs */
	size_t nr_nums;
	bool on;
};

/* timeline.c: one event's kept samples over time. */
struct timeline {
	uint64_t start, width;		/* ns: the first bucket's start, each one's width */
	uint64_t *samples, *period;	/* TL_BUCKETS each */
	size_t used;			/* buckets up to the last with a sample */
	/* with opts.timed_stacks: samples per (bucket, call path) */
	struct mycl_timed_stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct itable st_index;		/* finds stacks by (bucket, call path) */
	uint64_t st_width;		/* the width the stacks' buckets are in */
};

struct mycl_profile {
	struct mycl_perf_data *pd;
	struct machine *m;
	struct logger log;
	enum mycl_sort_key keys[MYCL_SORT__MAX];
	size_t nr_keys;
	bool use[MYCL_SORT__MAX];
	struct filter f_comm, f_dso, f_pid, f_tid, f_cpu;
	bool filtered;			/* any of them is on */
	char *event_name;
	bool want_tree;			/* call paths kept (graphs, children, folded) */
	bool children;			/* rows by inclusive time */

	struct hist self;		/* rows: period where the sample was taken */
	struct hist roots;		/* call-tree roots: the row key without dso/sym */
	struct hist incl;		/* rows: period under the function (children) */
	struct hist insns;		/* per instruction: ev, dso, addr (binary address) */
	struct hist kinsns;		/* a software clock's samples in named kernel functions,
					 * per instruction: ev, dso, sym, addr (offset in sym) */
	/*
	 * Samples with a data address (perf mem, IBS, SPE, page faults), per
	 * instruction and place: ev; tid the instruction's row in insns; dso
	 * and addr the binary and its address of a variable the address falls
	 * in, or NULL and 0 (heap, stack, shared memory; level 'x': code, a
	 * fault fetching instructions).
	 */
	struct hist daddrs;
	/*
	 * opts.data_addresses: samples by data address (8-byte aligned; ev 1
	 * for a HITM), and per file name (sym, interned) its first executable
	 * mapping (first_maps[row]).
	 */
	bool data_addresses;
	struct hist data_addrs, maps_seen;
	struct { uint64_t start, pgoff; } *first_maps;
	size_t first_maps_cap;
	bool annotate;
	struct lock_state *locks;	/* profile_locks.c, with opts.locks */
	struct lock_rules *rules;	/* without opts.locks: opts.lock_rules read, for summaries */
	struct wait_state *waits;	/* offcpu.c: tracepoint waits */
	/*
	 * offcpu.c: the threads inside a futex system call and the word it is
	 * on (syscalls:sys_enter_futex seen, its exit not yet); profile_futex_word()
	 */
	struct futex_word { int32_t tid; uint64_t addr; } *futex_words;
	size_t nr_futex_words, cap_futex_words;
	struct calltree tree;
	struct chaincache chains;
	bool no_chain_cache;		/* the chain_cache switch off (mycl/tuning.h) */
	struct chain_lanes *ckeys;	/* a chain's suffixes' keys while adding it */
	uint32_t *cpos;			/* ... and where each index's own frames start */
	size_t ckeys_cap, cpos_cap;
	struct ct_frame *frames;	/* a chain's frames while resolving */
	size_t frames_cap;
	bool inlines;			/* inlined functions as frames of unwound stacks */
	bool fp_repair;			/* callers lost under frameless leaves put back */
	unsigned int max_stack;		/* frames of a recorded chain kept (perf's --max-stack) */
	const uint64_t *cur_ids;	/* the chain of the sample being added (markers included) */
	uint64_t single[2];		/* ... when the sample has none: its ip alone */
	size_t cur_n;
	bool cur_unwound;		/* its user return addresses are one byte back (DWARF) */
	struct unwinder *unwinder;	/* made at the first --call-graph dwarf sample */
	uint64_t *ubuf;			/* a chain with its unwound user part */
	size_t ubuf_cap;
	uint64_t nr_unwound, nr_unwind_stopped;
	/* How good the recording is (profile_quality.c): */
	uint64_t nr_merged_samples;		/* samples whose path had unresolved frames merged */
	uint64_t nr_cut_samples;		/* samples whose path was cut short: the tree was full */
	uint64_t nr_max_stack_cut;		/* samples whose chain passed max_stack frames */
	uint64_t nr_stack_samples, nr_stack_end;	/* DWARF stack copies; unwinding hit their end */
	uint64_t stack_copy_size;			/* the largest copy asked for, bytes */
	uint64_t nr_fp_user, nr_fp_gap;			/* user samples with fp chains; in frameless code */
	uint64_t nr_idle;				/* samples of the idle task (pid 0) */
	uint64_t nr_chained;			/* samples kept for call paths with a chain */
	struct mycl_warning *warnings;
	size_t nr_warnings;

	struct dso_count *dcounts;
	size_t nr_dcounts, dcounts_cap, last_dcount;
	uint64_t unmapped;

	/*
	 * Which call-tree nodes make each row's graph (profile_view.c): the nodes
	 * of row r are row_nodes[row_first[r] .. row_first[r + 1]), in tree
	 * order; with each, the node its time is drawn at (an inlined frame's
	 * self time at the real function around it).  Built at the first graph.
	 */
	uint32_t *row_first, *row_nodes, *row_at;
	bool row_index_failed;

	struct mycl_profile_event *events;
	size_t nr_events;
	struct timeline *timelines;	/* per event (timeline.c) */
	struct latency_state *lat;	/* with opts.latency (latency.c) */
	bool timed_stacks;		/* opts.timed_stacks */
	bool call_sites;		/* opts.call_sites: sites (below) */
	/*
	 * With call_sites, per place a user-mode chain passes in a binary:
	 * ev, dso, addr (the binary's address: the sampled instruction, or the
	 * call before a return address).
	 */
	struct hist sites;
	size_t nr_timelines;
	struct mycl_hot_row **rows;
	struct mycl_dso_summary *summ;
	size_t nr_summ;
	char **summ_strs;
	/* Package hints not looked up yet: only when a summary is read (they read dpkg's lists). */
	bool *summ_hint_pending;
	struct known_file *known;	/* opts' binaries, with their build-ids */
	const struct mycl_archive *archive;	/* opts' perf archive, for the summary's fixes */
};

/* A tree being merged (profile_view.c): nodes in one array, siblings linked. */
struct vnode {
	struct ct_frame f;
	uint64_t period, samples;
	uint32_t parent, first_child, next_sibling, nr_children;
};

struct vtree {
	struct vnode *v;
	size_t nr, cap;
	struct itable index;		/* (parent, frame) -> node */
};

int vtree_root(struct vtree *t, const struct ct_frame *f);
int vtree_child(struct vtree *t, uint32_t parent, const struct ct_frame *f, uint32_t *out);
/* Adds call-tree node N's callers under view node 0, weighted W (and SAMPLES). */
int vtree_add_callers(const struct mycl_profile *p, struct vtree *t, uint32_t n, uint64_t w,
		      uint64_t samples);
/* Frees T's storage (on an error; vtree_finish frees it otherwise). */
void vtree_free(struct vtree *t);
/* Converts to the public form, sorted; frees T's storage. */
int vtree_finish(struct vtree *t, struct mycl_cg_node **out);

/* Call-chain ids from here up are context markers (PERF_CONTEXT_*). */
#define CTX_MAX_ID		((uint64_t)-4095)
/* Ours, in the marker range: where DWARF unwinding had to stop (a frame of its own). */
/* perf report's default --max-stack (PERF_MAX_STACK_DEPTH). */
#define MAX_STACK_DEFAULT	127
#define CTX_STOP_ID		((uint64_t)-4000)

/* profile_locks.c */
int profile_locks_init(struct mycl_profile *p, const char *rules_file, char *err, size_t len);
/* Whether RULES_FILE reads as lock rules: profile_locks_init()'s answer, nothing kept. */
int profile_lock_rules_keep(struct mycl_profile *p, const char *rules_file, char *err, size_t len);
int profile_locks_sample(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf);
/*
 * Where a wait whose path ends at LEAF is credited: the lock site (*LOCK
 * set, *VIA the outermost primitive), or for waits that are no lock (I/O,
 * poll, an idle condition variable) the first function above the system
 * call's wrappers (*VIA the outermost wrapper).
 */
uint32_t profile_wait_site(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf,
			   const char **via, bool *lock);
/* F as a lock site is named: a frame put back from a call is its function's. */
void profile_site_frame(struct mycl_profile *p, const struct ct_frame *f, struct ct_frame *out);
void profile_locks_free(struct mycl_profile *p);

/* profile_chain.c */
int profile_add_chain(struct mycl_profile *p, const struct mycl_sample *s, const struct hent *key,
		      uint32_t *leaf);
int profile_children(struct mycl_profile *p);
/* Counts the samples whose paths the tree's bounds changed (profile_quality). */
int profile_bound_counts(struct mycl_profile *p);
/* The row key for a call-tree frame under root key RK (inline: once per sample). */
static inline void profile_frame_key(const struct mycl_profile *p, const struct hent *rk,
				     const struct ct_frame *f, struct hent *out)
{
	*out = *rk;
	out->period = out->samples = 0;
	if (!p->use[MYCL_SORT_COMM] && !p->use[MYCL_SORT_PID] && !p->use[MYCL_SORT_TID])
		out->comm = NULL;
	if (p->use[MYCL_SORT_DSO])
		out->dso = f->dso;
	if (p->use[MYCL_SORT_SYM]) {
		out->level = f->level;
		out->dso = f->dso;
		out->sym = f->sym;
		out->addr = f->addr;
	}
}

/* The warnings on the recording's quality, made once the rows are (profile_quality.c). */
int profile_quality(struct mycl_profile *p);
/*
 * Whether SYM (in D) sets up a frame pointer, from its first bytes: a sample
 * in a function that does not has an fp chain that skips its caller or stops.
 * Cached in the symbol.
 */
bool profile_frameless(struct dso *d, const struct sym *sym);

/*
 * datatypes.c: the access a sample at instruction I of V (R: their data
 * types) counts for, or NULL.  A timer's sample (a software clock, a
 * hardware event without precise_ip, or an event its group's leader of that
 * kind reads: profile_event_skids) lands after the instruction that waited,
 * so it counts for the one before when that one falls through to I and
 * touches memory (SKID); else for I's own access.  Faults are taken at the
 * instruction.
 */
struct dt_result;
struct insn;
const void *profile_data_credit(const struct dt_result *r, const struct insn *v, size_t i, bool skid);
bool profile_event_skids(const struct mycl_profile *p, size_t ev);

/* timeline.c */
int timeline_add(struct mycl_profile *p, size_t ev, uint64_t t, uint64_t period);
int timeline_stack(struct mycl_profile *p, size_t ev, uint64_t t, uint32_t leaf);
void timeline_free(struct mycl_profile *p);

/* latency.c: wall-clock time (opts.latency) */
struct latency_state;
int latency_init(struct mycl_profile *p);
void latency_switch(struct mycl_profile *p, const struct mycl_context_switch *sw);
void latency_exit(struct mycl_profile *p, int32_t tid);
int latency_observe(struct mycl_profile *p, const struct mycl_sample *s, const char *comm);
int latency_sample(struct mycl_profile *p, const struct mycl_sample *s, const struct hent *k);
uint64_t latency_all(const struct mycl_profile *p, size_t ev);
void latency_settle(struct mycl_profile *p);
uint64_t latency_of(const struct mycl_profile *p, const struct hent *k);
void latency_free(struct mycl_profile *p);

/* The futex word thread TID's futex system call is on (recorded), or 0. */
static inline uint64_t profile_futex_word(const struct mycl_profile *p, int32_t tid)
{
	for (size_t i = 0; i < p->nr_futex_words; i++)
		if (p->futex_words[i].tid == tid)
			return p->futex_words[i].addr;
	return 0;
}

#endif
