/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The call graph's own state, shared by the file that builds it from the
 * instructions (callgraph.c: functions, calls, takes, loops, and the
 * questions asked of it) and the one that decides when each function runs
 * (callgraph_roots.c: thread entries, main's spine, callbacks, spreading).
 */
#ifndef MYCL_CALLGRAPH_PRIV_H
#define MYCL_CALLGRAPH_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "callgraph.h"
#include "cfgcycles.h"
#include "itable.h"

#define NONE UINT32_MAX
#define MAX_THREAD_DEPTH 3		/* calls down to pthread_create that count as starting threads */

struct cg_func {
	uint8_t spun;			/* called by spin-waits only (1: a delay, a back-off
					 * generator), or only by such a function (2) */
	bool spins;			/* it has a spin-wait (back_edges()) */
	bool pauses;			/* it pauses or yields (a spin delay) */
	bool atomics;			/* it makes an atomic access */
	uint64_t start, end;
	const char *name;
	uint8_t ctx;			/* enum cg_ctx */
	bool looped;			/* runs repeatedly */
	bool thread_entry, listed, creates_threads, spine, api, taken_data;
	int8_t thread_api;		/* an imported thread-creating function: its entry argument */
	bool thread_team;		/* ... run on each of a team's threads (OpenMP) */
	bool thread_api_member;		/* starts a thread whose entry it loads from its first
					 * argument's memory (pool_start(&pool): pool->fn) */
	bool exit_api;			/* ... an exit-handler registration */
	bool once_api;			/* ... runs its callback once (pthread_once) */
	bool signal_api;		/* ... installs a signal handler (sigaction) */
	bool join_api;			/* ... waits for a thread to end (pthread_join) */
	uint8_t keeps_args;		/* bit k: stores its argument k to memory (a queue's push) */
	uint8_t dist;			/* calls down to a thread-creating call (255: none) */
	uint8_t wait_dist;		/* calls down to a call that blocks for work (255: none) */
	bool wait_api;			/* an imported function that blocks (accept, poll...) */
	bool sleep_api;			/* ... that waits a time (sleep, nanosleep); or code that does */
	uint8_t sleep_zero_arg;		/* ... when its argument K - 1 is 0 (select(0, ...)); 0: none */
	bool sleeper;			/* its code waits a time on every way through it (a wrapper) */
	bool queued;			/* to be read again (callgraph_revisits) */
	bool fresh;			/* ... found a sleeper since the last round */
	uint32_t visit;			/* 1 + the order its code was read in; 0: not yet */
	uint8_t served;			/* calls down from a serving loop (255: not reached from one) */
	bool noreturn;			/* exit, abort, longjmp, __cxa_throw...: no code after its call */
	bool has_ret, calls_noreturn;	/* seen in its code: a return; a call that never returns */
	/*
	 * Run while threads run from a root of its own (a thread entry, a
	 * callback, main without threads, an API), not only from main's part
	 * after its first thread: code main runs once repeats only in a loop
	 * that waits for I/O.
	 */
	bool rt_root;
	uint32_t first_loop, nr_loops;
	uint32_t parent;		/* who made it run at runtime (for the explanation) */
	uint32_t loop_parent;		/* the caller whose loop makes it repeat */
	bool once_parent;		/* PARENT's call of it runs once (past a flag set once) */
	uint8_t why;			/* enum root_why */
	uint64_t *rt;			/* spine: its instructions that run after a thread starts */
	size_t nr_rt;
};

enum root_why { W_NONE, W_THREAD, W_CALLBACK, W_MAIN, W_API, W_CTOR, W_DTOR, W_ONCE, W_SIGNAL };

struct cg_edge {
	uint32_t caller, callee;
	uint64_t at;
	uint8_t ctx;			/* spine edges: when the call runs */
	bool in_loop;
	bool in_spin;			/* in a spin-wait of the caller's (back_edges()) */
	bool recursive;			/* caller and callee call each other, through others perhaps */
	bool on_exit;			/* straight on from it, a call that ends the process */
	bool sleeps;			/* the call waits a time, not for work (select(0, ...)) */
	bool once;			/* runs once: past a test of a flag set once (callgraph_once_calls) */
};

struct cg_take {
	uint32_t fn, taker;		/* taker NONE: a word in data */
	uint32_t passed_to;		/* the callee it is handed to, NONE: kept or stored */
	int8_t arg;			/* ... as its argument ARG; TAKE_STORED: stored to memory */
	uint32_t next_call;		/* TAKE_STACK: the taker's next callee after the store */
	uint64_t at;			/* handed to a call: the call's address */
};

#define TAKE_STORED (-2)
#define TAKE_STACK (-3)			/* stored into a local (a struct sigaction handed on) */

struct cg_loop {
	uint32_t func;
	uint64_t from, to;
	bool joined;			/* the same loop as the run before it, a break's jump apart */
	bool serving;			/* its body blocks waiting for work (accept, poll...) */
};

struct callgraph {
	const struct elf_image *img;
	struct cg_func *f;
	size_t nr;
	uint64_t *starts;
	struct itable start_index;	/* the function starting at an address (starts[]) */
	struct cg_edge *e;
	size_t nr_e, e_cap;
	struct cg_take *t;
	size_t nr_t, t_cap;
	struct cg_loop *l;
	size_t nr_l, l_cap;
	uint64_t *maxend;		/* per loop: the largest end among its function's loops so far */
	/*
	 * The backward branches on a cycle, per function (sorted by function
	 * after callgraph_finish): [from, to] the code a branch at TO back to
	 * FROM goes round, for the innermost loop around an address.
	 */
	struct cg_back {
		uint32_t func;
		uint64_t from, to;
		bool spins;		/* a spin-wait: see back_edges() */
	} *back;
	size_t nr_back, back_cap;
	uint32_t cur;			/* the function of the last instruction */
	uint32_t *entries;
	size_t nr_entries, entries_cap;
	/* Start-up calls starting a thread that is joined before anything else starts (sorted). */
	uint64_t *joined;
	size_t nr_joined, joined_cap;
	char *names;			/* "0x..." names of unnamed functions, 20 bytes each */
	size_t nr_names;
	/* The current function's instructions, for its loops, and its switches' targets. */
	struct cfg_node *buf;
	size_t nr_buf, buf_cap;
	struct cfg_xedge *x;
	size_t nr_x, x_cap;
	size_t first_e;			/* the current function's first edge */
	size_t first_pending;		/* its takes from here on wait for their next call */
	bool buf_used;			/* the current function calls or touches memory it names */
	uint32_t buf_func;
	bool threaded;
	const char *joined_elsewhere;	/* a join API called, no thread started here: its name */
	uint32_t nr_visits;
	/*
	 * Functions whose code was found to wait a time on every way through
	 * it, in the order found; callers read before them are read again
	 * (callgraph_revisits) to see their loops paced.  REVISIT: the
	 * instructions fed now only remake their functions' loops.
	 */
	uint32_t *sleepers;
	size_t nr_sleepers, sleepers_cap, sleepers_done;
	bool revisit;
	int revisit_round;
	uint64_t *revisit_v;		/* callgraph_revisits' answer: [start, end) pairs */
	size_t revisit_cap;
	/*
	 * The current function's conditional branches that test a key (a
	 * variable just read), its stores of a key, and the stores found to run
	 * only on one side of such a test (callgraph_guarded), sorted at the end.
	 */
	struct cg_keyed { uint64_t at, key; } *gtests, *gstores;
	size_t nr_gtests, gtests_cap, nr_gstores, gstores_cap;
	uint64_t *guarded;
	size_t nr_guarded, guarded_cap;
	/*
	 * Calls and stores that run only on the side of such a test where a
	 * store of its key runs; after callgraph_once_calls, those of flags set
	 * once, sorted by address.
	 */
	struct cg_keyed *gcalls;
	size_t nr_gcalls, gcalls_cap;
	/* What callgraph_finish knew before spreading, for callgraph_once_calls to spread again. */
	struct cg_roots *roots;
	uint32_t main_fn;
};

/* A function's state as its roots made it, before contexts spread down the calls. */
struct cg_roots {
	uint8_t ctx, why;
	bool looped, rt_root;
	uint32_t parent, loop_parent;
};

/* How many calls down a serving loop's wait may be (ServerLoop, WaitEventSetWait, epoll_wait). */
#define MAX_WAIT_DEPTH 2
/* How many calls down a serving loop a thread may be started for each piece of work. */
#define MAX_SERVED_DEPTH 4

/* callgraph.c, for callgraph_roots.c */
/* The function holding ADDR, or NONE; the one whose address ADDR is (Thumb bit, ppc64 local entry). */
uint32_t cg_func_at(const struct callgraph *cg, uint64_t addr);
uint32_t cg_func_starting(const struct callgraph *cg, uint64_t addr);
/* A word in data holding a function's address (elf_image_for_each_pointer's callback). */
int cg_on_pointer(uint64_t slot, uint64_t target, void *arg);
/* Sorts the loops by function and indexes them; sorts the edges by caller. */
int cg_index_loops(struct callgraph *cg);
/* ADDR is in one of F's loops; in one that waits for work. */
bool cg_in_loop(const struct callgraph *cg, uint32_t f, uint64_t addr);
/* callgraph_spin.c: the function just read's loop spans (buf's N nodes, IN: on a cycle). */
int cg_back_edges(struct callgraph *cg, size_t n, const bool *in);
/* callgraph_spin.c: spans sorted, spin-waits and the functions only they call (cg_index_loops). */
void cg_index_spins(struct callgraph *cg);
/* callgraph_spin.c: whether ADDR is in a spin-wait of F's; F's loop spans in turn. */
bool cg_in_spin(const struct callgraph *cg, uint32_t f, uint64_t addr);
int cg_for_each_loop(const struct callgraph *cg, uint32_t f,
		     int (*cb)(uint64_t from, uint64_t to, void *arg), void *arg);
bool cg_serving_loop(const struct callgraph *cg, uint32_t f, uint64_t addr);
/* F's outgoing edges [*FROM, *TO) (edges sorted by caller). */
void cg_out_edges(const struct callgraph *cg, uint32_t f, size_t *from, size_t *to);
/* A in the sorted V[N]. */
bool cg_has_addr(const uint64_t *v, size_t n, uint64_t a);
/* F never returns, ends the process, and is no root of its own. */
bool cg_dying(const struct cg_func *f);

/* callgraph_ways.c, for callgraph.c: of the function just read (N instructions in buf) */
/* Every way from its entry to a return passes a call that waits a time. */
bool cg_always_sleeps(struct callgraph *cg, size_t n);
/* Its noted stores that run only on one side of a noted test of their key: to cg->guarded. */
int cg_function_guards(struct callgraph *cg, size_t n);

#endif
