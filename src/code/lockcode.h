/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a function does with locks, decided from its code (names are only
 * hints, given by the caller): a delay, a spin acquire, a futex call, a lock's
 * fast path, a thin wrapper, or a lock-free update that is no lock at all.
 * The analysis disassembles each function once and keeps the result per
 * binary.
 */
#ifndef MYCL_LOCKCODE_H
#define MYCL_LOCKCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso;
struct sym;

enum lock_kind {
	LK_UNKNOWN = 0,		/* no code to look at (kernel, missing binary, other arch) */
	LK_NONE,		/* nothing a lock does */
	LK_UPDATE,		/* lock-free: a CAS retry loop computing the new value, an atomic add */
	LK_TAS,			/* one exchange or CAS of a constant, no loop, no call (-O0 helpers) */
	LK_DELAY,		/* a spin hint and no atomics, or a yield/sleep system call */
	LK_FUTEX,		/* a futex system call: a lock's wait or wake */
	LK_ACQUIRE,		/* mostly an atomic acquire retried in a loop with a spin or wait inside */
	LK_ENTER,		/* an atomic on a word and a call to a primitive: a lock's fast path */
	LK_WRAPPER,		/* stores nothing outside its stack, calls primitives only (or
				 * hands its own argument to one: a retry around sem_wait) */
};

/* A loop that retries an atomic acquire: a spin loop. */
struct lock_loop {
	uint64_t from, to;		/* its first instruction and its last one's last byte (a
				 * loop's way round, in runs where other code lies between) */
	const char *word;		/* the global its atomic targets, when the address is direct */
};

/* A direct call: where it returns to, what it calls, the address its first argument holds. */
struct lock_call {
	uint64_t ret, target, arg0;
	uint8_t kind;			/* the callee's enum lock_kind */
	bool arg0_param;		/* arg0 unknown: the caller's own first argument plus arg0_off */
	int64_t arg0_off;
	uint64_t arg0_deref;		/* arg0 unknown: the pointer this global holds, */
	int64_t arg0_deref_off;		/* ... plus this */
};

struct lock_code {
	uint8_t kind;			/* enum lock_kind */
	bool syscalls;			/* makes system calls itself (a wrapper: poll, read...) */
	bool thin;			/* small, no loop, no store outside its stack: forwards */
	const char *word;		/* global an acquire atomic targets */
	const char *seed;		/* global written by a spin loop, or by a delay it calls */
	/*
	 * An atomic helper (aarch64's outline atomics, __aarch64_swp4_acq(v, p)):
	 * a leaf doing one atomic operation (enum atomic_op; 0: none) on what its
	 * argument helper_ptr points to, storing argument helper_val (or -1).
	 */
	uint8_t helper;
	int8_t helper_ptr, helper_val;
	bool uses_arg0;			/* reads through its first argument, or hands it on */
	struct lock_loop *loops;
	size_t nr_loops;
	struct lock_call *calls;
	size_t nr_calls;
};

/*
 * NAMED(CTX, NAME): what a rule says of a function NAME (as it is, or with
 * glibc's internal prefixes and version suffixes taken off; NAME lives as
 * long as the binary's symbols): > 0 a lock primitive, 0 nothing, < 0 not a
 * lock (scheduler, system-call entry).
 */
typedef int (*lock_named_fn)(void *ctx, const char *name);

/* FN's analysis (FN a symbol of D); NULL when out of memory.  Cached per binary. */
const struct lock_code *lock_code_of(struct dso *d, const struct sym *fn, lock_named_fn named,
				     void *ctx);
/*
 * FN's kind from its own code alone, its callees unread (a quick look for a
 * flat profile: a fast path or a wrapper is not told apart); not cached.
 */
uint8_t lock_code_kind_shallow(struct dso *d, const struct sym *fn);
/*
 * The same with every instruction decoded: x86_64 code is not first scanned
 * by instruction lengths (x86len.c), which answers for most functions without
 * decoding them.  For tests: both must tell the same primitives.
 */
uint8_t lock_code_kind_decoded(struct dso *d, const struct sym *fn);
/* A primitive passes its samples up to its caller: TAS, DELAY and above. */
static inline bool lock_kind_primitive(uint8_t k)
{
	return k >= LK_TAS;
}

/* A primitive that makes a lock on its own (a delay or a lone TAS only with one above it). */
static inline bool lock_kind_strong(uint8_t k)
{
	return k >= LK_FUTEX;
}

const char *lock_kind_name(uint8_t k);
/* The acquire loop holding VADDR, or NULL. */
const struct lock_loop *lock_code_loop_at(const struct lock_code *c, uint64_t vaddr);
/* The call returning to RET, or NULL. */
const struct lock_call *lock_code_call_at(const struct lock_code *c, uint64_t ret);

#endif
