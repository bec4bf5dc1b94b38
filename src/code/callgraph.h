/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A binary's direct call graph from its disassembly, and when each function
 * runs: only at start-up (constructors, main before its first thread, what
 * only they call), only at exit, or while the program's threads run (thread
 * entries, main after the first thread starts, callbacks, a library's API) —
 * and whether it runs repeatedly (called in a loop anywhere up the chain).
 */
#ifndef MYCL_CALLGRAPH_H
#define MYCL_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct insn;
struct symtab;
struct elf_image;

enum cg_ctx {
	CG_STARTUP = 1,
	CG_RUNTIME = 2,
	CG_EXIT = 4,
};

/* When an instruction runs, weakest first. */
enum cg_heat {
	HEAT_UNKNOWN = 0,		/* in a function nothing seen calls */
	HEAT_EXIT,			/* only at exit */
	HEAT_STARTUP,			/* only before the threads start */
	HEAT_WARM,			/* while threads run, not repeatedly as far as the code shows */
	HEAT_HOT,			/* while threads run, in a loop here or up the call chain */
};

struct callgraph;

int callgraph_new(struct callgraph **out, const struct symtab *funcs, const struct elf_image *img);
void callgraph_free(struct callgraph *cg);
/* The function starts, sorted, for disasm_set_starts. */
const uint64_t *callgraph_starts(const struct callgraph *cg, size_t *n);
/* Feeds one instruction (in address order within each code section). */
int callgraph_insn(struct callgraph *cg, const struct insn *in);
/*
 * After the last instruction: the functions to read again, [start, end)
 * pairs into *V (*N pairs, the callgraph's memory), fed again through
 * callgraph_insn; then again until *N is 0.  Callers read before a function
 * of theirs was found to wait a time (a sleep wrapper) see their loops paced
 * by it only when read again.
 */
int callgraph_revisits(struct callgraph *cg, const uint64_t **v, size_t *n);
/*
 * Guards, while the instructions are fed (after callgraph_insn of the one
 * concerned): the conditional branch at AT tests KEY (a variable just read);
 * the instruction at AT stores to KEY.  After callgraph_finish,
 * callgraph_guarded(AT) says whether such a store runs only on one side of a
 * branch testing its key, every way to it from its function's entry: "if
 * (!ready) ready = 1", a flag set once.
 */
int callgraph_guard_test(struct callgraph *cg, uint64_t at, uint64_t key);
int callgraph_guard_store(struct callgraph *cg, uint64_t at, uint64_t key);
bool callgraph_guarded(const struct callgraph *cg, uint64_t at);
/* After the last instruction: roots, contexts, loops up the chain. */
int callgraph_finish(struct callgraph *cg);
/*
 * After callgraph_finish: the calls (and stores) that run only on the side of a test of
 * a key where a store of that key runs too (callgraph_guard_test and _store:
 * "if (!ready) { fill(); ready = 1; }"), ONCE(KEY, ARG) saying the key is a
 * flag set once, run once: what they call is no hotter for the code around
 * them.  Contexts and repetition spread again; the number of calls so
 * marked (0: nothing changed).
 */
int callgraph_once_calls(struct callgraph *cg, bool (*once)(uint64_t key, void *arg), void *arg);
/* After callgraph_once_calls: the call or store at AT runs only past the test of a flag set once. */
bool callgraph_once_at(const struct callgraph *cg, uint64_t at);

enum cg_heat callgraph_heat(const struct callgraph *cg, uint64_t addr);
/* The function holding ADDR (its start), or 0; whether ADDR is in one of its loops. */
uint64_t callgraph_func_start(const struct callgraph *cg, uint64_t addr);
bool callgraph_in_loop(const struct callgraph *cg, uint64_t addr);
/*
 * ADDR runs while spinning: in a spin-wait of its function (a loop an atomic
 * exchange is retried in, or that pauses or yields), or in a function only
 * spin-waits call (a delay, a back-off generator).  After callgraph_finish.
 */
bool callgraph_spinning(const struct callgraph *cg, uint64_t addr);
/*
 * Each loop of the function starting at FN, as the code it spans: from a
 * backward branch's target to the branch (blocks a compiler moved out of
 * line are not in it; nested loops nest).  0 or CB's.
 */
int callgraph_for_each_loop(const struct callgraph *cg, uint64_t fn,
			    int (*cb)(uint64_t from, uint64_t to, void *arg), void *arg);
/* The end of the function holding ADDR (0: none), and its name. */
uint64_t callgraph_func_end(const struct callgraph *cg, uint64_t addr, const char **name);
/*
 * Why ADDR's function runs when it does, in a few words ("in a loop of
 * do_command, called from thread entry handle_one_connection"), into BUF.
 */
const char *callgraph_why(const struct callgraph *cg, uint64_t addr, char *buf, size_t len);
/* FN(AT, CALLER, CALLEE, ARG) for each direct call (starts of the two functions); stops on non-zero. */
int callgraph_for_each_call(const struct callgraph *cg,
			    int (*fn)(uint64_t at, uint64_t caller, uint64_t callee, void *arg),
			    void *arg);
/*
 * FN(TAKER, TAKEN, TO, K, AT, ARG) for each function address taken in code
 * (starts of the function taking it and of the one taken), handed to
 * function TO as its argument K by the call at AT (TO 0, K -1: kept or
 * stored); stops on non-zero.
 */
int callgraph_for_each_take(const struct callgraph *cg,
			    int (*fn)(uint64_t taker, uint64_t taken, uint64_t to, int k, uint64_t at,
				      void *arg),
			    void *arg);
/*
 * The thread ADDR's function runs on, as far as the code shows: the start of
 * the thread entry (or of main, after its first thread) whose calls make it
 * run; 0 when that is a callback, an API or nothing known.
 */
uint64_t callgraph_thread_root(const struct callgraph *cg, uint64_t addr);
/*
 * The function starting at FN starts a thread running its argument K (as
 * pthread_create its third, or a wrapper of it): K; else -1.
 */
int callgraph_thread_api(const struct callgraph *cg, uint64_t fn);
/* Whether FN starts a std::thread from its state object (libstdc++'s _M_start_thread). */
bool callgraph_state_start(const struct callgraph *cg, uint64_t fn);
/*
 * The start of the function whose address ADDR is (a Thumb function's with
 * its low bit set, a ppc64 function's local entry too), or 0.
 */
uint64_t callgraph_function_at(const struct callgraph *cg, uint64_t addr);
/*
 * ROOT (a callgraph_thread_root) runs on one thread only: main, or a thread
 * entry started by one call, which runs once, outside any loop.
 */
bool callgraph_one_thread(const struct callgraph *cg, uint64_t root);
/* The function starting at FN runs a function it is handed at exit (atexit, __cxa_atexit). */
bool callgraph_exit_api(const struct callgraph *cg, uint64_t fn);
/* The program starts threads (or is a library, whose callers may). */
bool callgraph_threaded(const struct callgraph *cg);
/*
 * No thread started here, but threads joined (pthread_join): the name of the
 * function called to join them; else NULL.  The program is then threaded.
 */
const char *callgraph_joined_elsewhere(const struct callgraph *cg);
/* How many thread entries and callbacks were found (for the report's header). */
size_t callgraph_nr_thread_entries(const struct callgraph *cg);
const char *callgraph_thread_entry(const struct callgraph *cg, size_t i);

#endif
