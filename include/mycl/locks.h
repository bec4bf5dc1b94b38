/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Spin and mutex hot spots: samples in lock and spin primitives of every
 * layer (kernel, glibc, InnoDB/MariaDB, C++, tcmalloc; from a rules file),
 * and spin loops inlined where no rule names them, each credited to its lock
 * site: the first caller that is not a primitive itself.
 */
#ifndef MYCL_LOCKS_H
#define MYCL_LOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mycl/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_lock_primitive {
	const char *name;		/* function, or "(inlined spin loop)" */
	const char *layer, *kind;	/* from the rule: "kernel" "spin", "glibc" "mutex"... */
	uint64_t period, samples;	/* samples with it on their lock path */
	char layer_buf[16], kind_buf[16];	/* storage behind layer and kind when needed */
};

#define MYCL_LOCK_MAX_VIA 8

struct mycl_lock_via {
	const char *name;		/* a primitive the site's lock samples were in */
	uint64_t period;
};

struct mycl_lock_site {
	const char *sym, *dso;
	uint64_t period, samples;	/* lock samples credited here */
	size_t nr_via;
	struct mycl_lock_via vias[MYCL_LOCK_MAX_VIA];	/* the primitives below it, by period */
	/*
	 * The lock object, a global ("ledger_mutex", "slots+0x40"): the address
	 * the site passes to the primitive, or the one the acquire's atomic
	 * targets; NULL when the code does not name it (a pointer).
	 */
	const char *lock_word;
	const char *lock_word_from;	/* "argument of the call", "atomic operand", ... */
	const char *seed;		/* global written while spinning (or by the delay called) */
	bool inlined_spin;		/* the spin loop is in the site's own code */
	uint64_t from_call_site_period;	/* of period: the site's frame was put back from a call */
	bool stack_cut;			/* the stacks end in primitives, or above them in an address
					 * no symbol covers: the site is unknown */
	/*
	 * Of its period, what came through a frame-pointer chain that lost the
	 * frames between the site and the primitive below (the site called
	 * something else, or made an indirect call): the true site is lost.
	 */
	uint64_t lost_frames_period;
	struct mycl_cg_node *callers;	/* who called the site, weighted by lock samples */
	/*
	 * Of its period, time whose call chains lost their site but not their
	 * lock: the futex word the thread was on (syscalls:sys_enter_futex
	 * recorded) is this site's lock object, and the time is shared among
	 * the sites that take that object, by their own time (no callers).
	 */
	uint64_t by_object_period;
};

struct mycl_lock_report {
	const struct mycl_event *event;
	/* The recording that would show sites lost here (stack_cut, lost_frames). */
	const char *fix;
	uint64_t period, samples;	/* in lock and spin code */
	uint64_t total_period, total_samples;
	size_t nr_primitives;
	struct mycl_lock_primitive *primitives;	/* by period */
	size_t nr_sites;
	struct mycl_lock_site *sites;		/* by period */
};

/*
 * The lock report of event EV; the profile must be built with locks set.
 * *OUT is freed with mycl_lock_report__free().
 */
int mycl_profile__locks(const struct mycl_profile *p, size_t ev, struct mycl_lock_report **out);
void mycl_lock_report__free(struct mycl_lock_report *r);
/*
 * The same from the flat rows only (functions that are primitives), for
 * profiles built without locks: primitives, no sites.  Named by the built-in
 * rules and RULES_FILE's; RULES_FILE NULL: by the rules the profile was built
 * with (its lock_rules, read then).  MYCL_ERR_BAD_RULES when RULES_FILE cannot
 * be read or is not in the format.
 */
int mycl_profile__lock_summary(const struct mycl_profile *p, size_t ev, const char *rules_file,
			       struct mycl_lock_report **out);

/* Waits seen through tracepoints (sched_switch, futex syscalls, lock:contention_*). */
struct mycl_offcpu_site {
	const char *sym, *dso;		/* the lock site, or for other waits the first function
					 * above the system call's wrappers */
	const char *via;		/* the outermost primitive (pthread_mutex_lock) or wrapper */
	bool lock;			/* a wait for a lock; else I/O, poll, an idle condition */
	uint64_t waits, wait_ns;
	struct mycl_cg_node *callers;
};

struct mycl_addr_wait {
	uint64_t addr;
	const char *symbol;		/* the global the address is in, when known */
	uint64_t waits, wait_ns;
};

struct mycl_wait_report {
	bool have_sched_switch, have_futex, have_contention;
	uint64_t total_wait_ns;		/* off-CPU in waits (not preemptions) */
	uint64_t lock_wait_ns;		/* ... of it in waits for a lock */
	size_t nr_sites;
	struct mycl_offcpu_site *sites;	/* by wait time */
	size_t nr_futexes;
	struct mycl_addr_wait *futexes;	/* syscalls:sys_enter_futex / sys_exit_futex */
	size_t nr_locks;
	struct mycl_addr_wait *locks;	/* lock:contention_begin / contention_end (kernel) */
};

/*
 * Waits from the recording's tracepoints, per lock site and per address.
 * The profile must be built with locks set.  -ENOENT when the recording has
 * none of those tracepoints.  Freed with mycl_wait_report__free().
 */
int mycl_profile__waits(const struct mycl_profile *p, struct mycl_wait_report **out);
void mycl_wait_report__free(struct mycl_wait_report *w);
int mycl_report__waits_text(FILE *f, const struct mycl_wait_report *w, double graph_limit);
int mycl_report__waits_json(FILE *f, const struct mycl_wait_report *w, double graph_limit);

int mycl_report__locks_text(FILE *f, const struct mycl_lock_report *r, double graph_limit);
int mycl_report__locks_json(FILE *f, const struct mycl_lock_report *r, double graph_limit);

#ifdef __cplusplus
}
#endif
#endif
