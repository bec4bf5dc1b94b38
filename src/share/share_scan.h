/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scan of a binary's code, shared by share.c (every instruction: the
 * variables it touches, the calls and stores that hand addresses on) and
 * share_through.c (the writes made through those addresses afterwards:
 * by callees, by functions returning them, through pointer variables).
 */
#ifndef MYCL_SHARE_SCAN_H
#define MYCL_SHARE_SCAN_H

#include "callgraph.h"
#include "insn.h"
#include "share_state.h"

struct disasm;
struct elf_image;

/* A call handing a variable's address to a function of the binary. */
struct argref {
	uint64_t call, callee, addr;
	uint8_t arg;
	bool indexed;			/* the address of an element at a computed index */
	uint8_t depth;			/* calls between CALL and CALLEE (handed on by callees) */
	bool own_heat;			/* CALLEE is a thread's entry: its own code says how often */
	uint64_t prev;			/* what the argument before ARG holds (a thread's entry) */
	/*
	 * CALL, in a thread's entry (or its callable), hands CALLEE a pointer from
	 * the entry's object: CALLEE's loops are the thread's (run_shard(s, n)).
	 */
	bool loops;
};

/* How many calls down a variable's address is followed when callees hand it on. */
#define MAX_PASS_DEPTH 4
/* The functions of a table of functions an indirect call is taken to reach, at most. */
#define MAX_TABLE_TARGETS 64

struct scan {
	struct mycl_share *s;
	struct disasm *d;
	struct callgraph *cg;
	struct elf_image *img;
	struct argref *args;
	size_t nr_args, args_cap;
	uint64_t guard_fn;		/* the function inside a __cxa_guard_acquire'd block, or 0 */
	/*
	 * Variables read by the last few instructions: what a conditional branch
	 * tests.  x86: the registers holding what was read (or computed from it),
	 * and whether the flags a branch tests were set from them.
	 */
	struct { uint64_t key; unsigned int age; uint32_t regs; bool flags; } tested[4];
	bool flags_known;		/* x86: what each instruction reads and whether it sets flags */
	/* Functions returning a variable's address (&stats[id]), and every direct call. */
	struct retref { uint64_t fn, value, alt; bool indexed; } *rets;	/* alt: or this */
	size_t nr_rets, rets_cap;
	struct callref { uint64_t caller, at, value, alt; bool indexed; } *calls;
	size_t nr_calls, calls_cap;
	/* Writes through what a pointer variable holds, and what is stored in such variables. */
	struct ptrw { uint64_t at, ptr; int64_t off; uint8_t kind; } *ptrws;
	size_t nr_ptrws, ptrws_cap;
	struct ptrset { uint64_t ptr, target; bool indexed; } *ptrsets;
	size_t nr_ptrsets, ptrsets_cap;
	/*
	 * Variables' addresses a function stores into memory not a variable's
	 * (a struct it builds).  (This and dstore begin with fn, at: one sort.)
	 */
	struct argstore { uint64_t fn, at, target; bool indexed; } *argstores;
	size_t nr_argstores, argstores_cap;
	/* Addresses of functions and variables stored into the program's data (a task's fn, arg). */
	struct dstore { uint64_t fn, at, data, value; bool is_fn, indexed; } *dstores;
	size_t nr_dstores, dstores_cap;
	/* The call graph's function addresses taken, and what each is handed to (read_takes). */
	struct fntake { uint64_t taker, taken, to, at; int k; } *fntakes;
	size_t nr_fntakes, fntakes_cap;
	bool fntakes_read;
	/* Calls handing on a pointer loaded from what the caller's first argument points to. */
	struct argptr_call { uint64_t fn, at, callee; uint8_t args; } *apcalls;
	size_t nr_apcalls, apcalls_cap;
	/* A function's own argument PRM stored into memory (a lambda's [this]), by function. */
	struct prmstore { uint64_t fn, at; uint8_t prm; } *prmstores;
	size_t nr_prmstores, prmstores_cap;
	/*
	 * What FN is handed as its argument PRM is what function TO (a callable's
	 * _M_run or operator()) loads from its object, or with AS_ARG what TO is
	 * handed as its argument ARG on its own thread (a method starting
	 * std::thread(&C::run, this)) (share_handover.c).
	 */
	struct capfwd { uint64_t fn; uint8_t prm; uint64_t to; bool as_arg; uint8_t arg; } *capfwds;
	size_t nr_capfwds, capfwds_cap;
};

/*
 * The pointer key of "a pointer the first argument of function FN points
 * to" (struct ptrw, ptrset): INSN_ARG_KEY with FN's start in its low bits.
 */
#define SHARE_ARG_PTR(fn) (INSN_ARG_KEY | ((fn) & 0x000fffffffffffffULL))

/*
 * What a write does (share_count_write's KIND): adds to the place (and
 * subtracts), compares and swaps it, or neither.  An exchange is no swap
 * here: a sequentially consistent store is one (xchg).
 */
enum { SHARE_W_COUNTER = 1, SHARE_W_SWAP = 2, SHARE_W_DOWN = 4 };

static inline unsigned int share_write_kind(const struct insn *in)
{
	return (in->counter_op ? SHARE_W_COUNTER : 0) |
	       (in->counter_op && in->decrement ? SHARE_W_DOWN : 0) |
	       (in->atomic && in->atomic_op == ATOM_CAS ? SHARE_W_SWAP : 0);
}

/*
 * One write to V, by when it runs (HEAT); AT explains where (for the hottest);
 * WHERE is the address written (0: not known; INDEXED, the start of what is
 * written at a computed index), SPREAD: or somewhere from WHERE on (a
 * library function writing a buffer), within the member holding it; KIND,
 * SHARE_W_* (an increment, a swap).
 */
void share_count_write(struct mycl_share *s, struct callgraph *cg, struct mycl_share_var *v,
		       enum cg_heat heat, uint64_t at, uint64_t where, bool spread, unsigned int kind,
		       bool indexed, unsigned int width);
/*
 * The same for a write counted once while threads run (enum share_once
 * ONCE: a flag set once, or what runs only past its test): warm at most,
 * and the writers' account says why.
 */
void share_count_write_once(struct mycl_share *s, struct callgraph *cg, struct mycl_share_var *v,
			    uint8_t once, enum cg_heat heat, uint64_t at, uint64_t where,
			    bool spread, unsigned int kind, bool indexed, unsigned int width);
/*
 * A write at AT (or the call at AT handing the variable on) as hot as HEAT:
 * counted, once when AT runs only past the test of a flag set once.
 */
void share_count_write_at(struct mycl_share *s, struct callgraph *cg, struct mycl_share_var *v,
			  enum cg_heat heat, uint64_t at, uint64_t where, bool spread, unsigned int kind,
			  bool indexed, unsigned int width);
/*
 * The increments of lock words (a place also subtracted from and compared
 * and swapped: share_state.h's swaps) taken off the counters: before the
 * hot writes are sorted.
 */
void share_settle_swaps(struct mycl_share *s);
/*
 * The code of CALLEE, a function of the binary (not a library's), when it is
 * to be read for what it does with an address handed to it: at most 64 KB.
 */
const uint8_t *share_callee_code(const struct scan *sc, uint64_t callee, size_t *len);
/*
 * The functions a call may reach, at most MAX into OUT; how many: its TARGET
 * when direct; through a table of functions (insn.call_slot SLOT, element
 * size STRIDE or 0), those the table's data object holds at the slot's place
 * in each element (any of its words when STRIDE is not known).
 */
size_t share_callees(const struct scan *sc, uint64_t target, uint64_t slot, uint16_t stride,
		     uint64_t *out, size_t max);
/*
 * A thread's entry handed a struct holding variables' addresses
 * (pthread_create(&t, NULL, worker, a) after a->slot = &slots[i], the struct
 * on the heap or the stack): the addresses the function starting it stores
 * into memory since its call before are what the entry's pointers loaded
 * from its argument's struct hold (ptrsets of SHARE_ARG_PTR(entry)), and
 * what the entry hands such a pointer to is handed those addresses
 * (argrefs); -ENOMEM.
 */
int share_thread_args(struct scan *sc);
/*
 * A callback handed with its context (submit(fn, &ctx), the address right
 * after the function, as pthread_create hands its entry's): the context is
 * handed to the callback, as the one parameter it stores through, when and
 * as often as the call handing them over runs (a task queued runs once a
 * call); -ENOMEM.
 */
int share_callback_contexts(struct scan *sc);
/*
 * A callback stored into the program's data with its context beside it
 * (queue[i] = (struct task){ fn, &ctx }: the context's address in the word
 * after the function's, stored by the same code): the context is handed to
 * the callback as submit(fn, &ctx) hands it (share_callback_contexts), as
 * often as that store runs; -ENOMEM.
 */
int share_stored_contexts(struct scan *sc);
/*
 * std::thread(f, &object) and std::thread(&C::method, &object): the objects
 * a thread's state hands its callable, by the state's type, handed to the
 * functions taken beside their address, as a thread's entry (argrefs
 * share_callee_writes follows); -ENOMEM.
 */
int share_thread_methods(struct scan *sc);
/* Pointer sets by pointer, then target (the indexed first). */
int share_ptrset_cmp(const void *a, const void *b);
/* A hot access of variable VAR at AT: the thread root it runs from (hot_root). */
void share_hot_access(struct mycl_share *s, struct callgraph *cg, size_t var, uint64_t at);
/* Once every access is counted: which variables' hot accesses all run on one thread. */
void share_one_thread(struct mycl_share *s, struct callgraph *cg);
/* Once every write is counted: the hot writes' places in order, for the lines' look-ups. */
void share_sort_hot_writes(struct mycl_share *s);
/* share_through.c: writes through addresses handed to callees and threads, returned, kept. */
int share_callee_writes(struct scan *sc);
/* (before share_callee_writes: returned addresses handed to callees become its argrefs) */
int share_returned_writes(struct scan *sc);
void share_pointer_writes(struct scan *sc);

#endif
