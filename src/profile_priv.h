/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The profile's private state, shared by its source files. */
#ifndef MYCL_PROFILE_PRIV_H
#define MYCL_PROFILE_PRIV_H

#include "mycl/profile.h"
#include "calltree.h"
#include "chaincache.h"
#include "hist.h"
#include "internal.h"
#include "machine.h"

struct dso_count {
	struct dso *dso;
	uint64_t samples, unresolved;
};

struct filter {
	char **names;
	size_t nr;
	long *nums;
	size_t nr_nums;
	bool on;
};

struct mycl_profile {
	struct mycl_perf_data *pd;
	struct machine *m;
	struct logger log;
	enum mycl_sort_key keys[MYCL_SORT__MAX];
	size_t nr_keys;
	bool use[MYCL_SORT__MAX];
	struct filter f_comm, f_dso, f_pid, f_tid, f_cpu;
	char *event_name;
	bool want_tree;			/* call paths kept (graphs, children, folded) */
	bool children;			/* rows by inclusive time */

	struct hist self;		/* rows: period where the sample was taken */
	struct hist roots;		/* call-tree roots: the row key without dso/sym */
	struct hist incl;		/* rows: period under the function (children) */
	struct hist insns;		/* per instruction: ev, dso, addr (binary address) */
	bool annotate;
	struct calltree tree;
	struct chaincache chains;
	struct ct_frame *frames;	/* a chain's frames while resolving */
	size_t frames_cap;
	bool inlines;			/* inlined functions as frames of unwound stacks */
	struct unwinder *unwinder;	/* made at the first --call-graph dwarf sample */
	uint64_t *ubuf;			/* a chain with its unwound user part */
	size_t ubuf_cap;
	uint64_t nr_unwound, nr_unwind_stopped;

	struct dso_count *dcounts;
	size_t nr_dcounts, dcounts_cap;
	uint64_t unmapped;

	struct mycl_profile_event *events;
	size_t nr_events;
	struct mycl_hot_row **rows;
	struct mycl_dso_summary *summ;
	size_t nr_summ;
	char **summ_strs;
	char *buildid_dir;
};

/* profile_chain.c */
int profile_add_chain(struct mycl_profile *p, const struct mycl_sample *s, const struct hent *key);
int profile_children(struct mycl_profile *p);
/* The row key for a call-tree frame under root key RK. */
void profile_frame_key(const struct mycl_profile *p, const struct hent *rk,
		       const struct ct_frame *f, struct hent *out);

#endif
