/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * False sharing among global variables: every data object of a binary placed
 * on the cache lines of the binary's architecture, who writes and who reads
 * each one (from disassembling all its code), and a verdict per line.
 */
#ifndef MYCL_SHARE_H
#define MYCL_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mycl/archive.h"
#include "mycl/log.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_share_opts {
	size_t sz;			/* sizeof(struct mycl_share_opts) */
	mycl_print_fn print;
	void *print_ctx;
	unsigned int line_size;		/* 0: the architecture's (x86_64 64, arm64/ppc64 128, s390x 256) */
	const char *arch;		/* override the ELF header's: x86_64, aarch64, ppc64, s390x */
	bool include_readonly;		/* also read-only data (.rodata, .data.rel.ro) */
	const char *debug_dir;		/* NULL: /usr/lib/debug; "" disables */
	const char *perf_data;		/* weight by this recording's samples */
	const char *perf_time;		/* only those in this time slice (mycl/perf_data.h's time) */
	bool no_dwarf;			/* skip DWARF variables without symbols */
	bool assume_threads;		/* judge a program that starts no thread as if it did */
	const char *name;		/* how the binary is shown; NULL: its path */
	const struct mycl_archive *archive; /* a perf archive to find its debug file in */
	/*
	 * Also the struct, class and union types the code reaches through
	 * pointers (and globals of such types), member by member: walks every
	 * function the debug info describes (slower).
	 */
	bool types;
	/*
	 * Weight by a profile already built (instead of perf_data, which reads
	 * the recording again): as perf_data weighs when it was built with
	 * annotate, callgraph, call_sites and data_addresses (what it lacks
	 * weighs nothing), with its own time slice and filters.  It must stay
	 * open while the analysis is made; not with perf_data.
	 */
	const struct mycl_profile *profile;
};

enum mycl_share_verdict {
	MYCL_SHARE_OK = 0,
	MYCL_SHARE_WRITER_WITH_READERS,	/* a hot written variable beside read-mostly ones */
	MYCL_SHARE_WRITERS,		/* several variables written on hot paths */
	MYCL_SHARE_HOT_COUNTER,		/* one variable every thread increments on a hot path */
	MYCL_SHARE_SLOTS,		/* an array's elements written through an index (per-thread slots) */
};

enum mycl_share_kind {
	MYCL_SHARE_VAR_PLAIN = 0,
	MYCL_SHARE_VAR_READ_MOSTLY,	/* in a section the program declares read-mostly */
	MYCL_SHARE_VAR_LIBRARY,		/* a library's object copied into the program (COPY relocation) */
	/*
	 * Not in the program's debug info and touched only by code outside it:
	 * a library linked in statically (libc.a's malloc and loader state).
	 */
	MYCL_SHARE_VAR_LINKED,
};

/*
 * Instructions that touch a variable are counted by access and by when
 * they run (the binary's call graph): "hot" while the program's threads
 * run, in a loop of their function or anywhere up the call chain; "warm"
 * while threads run, once; "startup" before the first thread (or at exit);
 * "unknown" in functions no call seen reaches.
 */
/* A function that writes a variable: its writes there, and when the hottest of them runs. */
struct mycl_share_writer {
	const char *function;		/* its name, or "0x..." when the binary names none */
	uint64_t addr;			/* its start */
	const char *heat;		/* "hot", "warm", "startup", "unknown" */
	uint64_t writes;		/* instructions writing the variable (or calls handing it on) */
	const char *why;		/* why its hottest write runs when it does, in words */
};

struct mycl_share_var {
	const char *name;
	const char *type;		/* from DWARF when known, else NULL */
	const char *origin;		/* "symtab", "dynsym" or "dwarf" */
	uint64_t addr, size;
	const char *section;
	enum mycl_share_kind kind;
	uint64_t loads, stores, rmws, addr_taken;	/* instructions, by access */
	uint64_t atomics;		/* of the writing instructions */
	uint64_t hot_writes, warm_writes, startup_writes, unknown_writes;
	uint64_t hot_reads, runtime_reads;	/* loads while threads run (hot: repeatedly) */
	uint64_t counter_writes;	/* hot or warm increments (add, inc, atomic add) */
	uint64_t indexed_writes;	/* hot or warm writes at a computed index */
	uint32_t elem_size;		/* ... their width: the element written */
	uint32_t stride;		/* an array's element size, from DWARF (0: unknown) */
	uint64_t callee_writes;		/* writes by a callee handed its address (one call deep) */
	/*
	 * Of the hot and runtime writes, those made while spinning: in a loop
	 * that pauses or yields (a spin-wait), or in a function it calls, or
	 * one that one calls (a delay, a back-off generator): a spin delay's
	 * seed (InnoDB's ut_rnd_ulint_counter), or a lock word.
	 */
	uint64_t spin_writes;
	const char *hot_path;		/* where its hottest write runs, in words */
	uint64_t samples;		/* sampled instructions touching it (with perf_data) */
	uint64_t sampled_writes, sampled_reads;	/* ... of them on writes and on reads */
	uint64_t skid_samples;		/* ... samples on the next instruction, credited back */
	/*
	 * With a recording with call chains: the samples whose chains show that
	 * the busiest function writing it while threads run makes the write
	 * (they pass it in a loop that holds the write, or where it runs
	 * straight through to it), and which function.
	 */
	uint64_t chain_samples;
	const char *chain_writer;
	/* The functions that write it, hottest first (at most MYCL_SHARE_MAX_WRITERS). */
	const struct mycl_share_writer *writers;
	size_t nr_writers;
	/*
	 * With such a recording: written on hot paths by the code, but no
	 * sample shows a write run (none sampled, no chain through it): not a
	 * hot writer in this workload (a write once per connection beside the
	 * per-query loop the chains pass).
	 */
	bool chain_unseen;
};

#define MYCL_SHARE_MAX_WRITERS 8

struct mycl_share_line {
	uint64_t start;
	const char *section;
	size_t nr_members;
	const size_t *members;		/* indexes into the variables, by address */
	enum mycl_share_verdict verdict;
	double score;
	const char *why;		/* the verdict in words */
	const char *fix;		/* what would fix it */
	const char *evidence;		/* what the score rests on, in one line */
	uint64_t samples;		/* of its members (with perf_data) */
	uint64_t data_samples, hitm;	/* data-address samples on this line (perf mem/c2c) */
};

/*
 * A member of a type (nested structs and base classes unfolded: "stat.hits";
 * bit fields sharing bytes as one: "{open,busy}"), and what the code does
 * with it, counted as for variables.
 */
struct mycl_share_member {
	const char *name;
	const char *type;		/* its own type, as the source writes it */
	uint64_t offset, size;
	bool sync;			/* of an atomic type (std::atomic, _Atomic, ...) */
	uint64_t hot_writes, runtime_writes, startup_writes;
	uint64_t hot_reads, runtime_reads;
	uint64_t atomics, counters;	/* of the writes */
	const char *example;		/* a hot write as the source writes it ("pool->stat.hits") */
	uint64_t element_writes;	/* while threads run, to an element of an array of the type */
	const char *writer;		/* a function writing it while threads run (hot first) */
	const char *reader;		/* a function reading it on hot paths (else while threads run) */
	uint64_t samples, sampled_writes;	/* with perf_data: samples on its accesses */
};

/* A struct, class or union type code reaches, laid out on lines, with a verdict. */
struct mycl_share_type {
	const char *name;		/* "struct cache", "class Latch", a typedef's name */
	uint64_t size, align;
	bool align_declared;		/* alignas / __attribute__((aligned)) */
	uint64_t padded_by;		/* a union's padding member: its size (0: none) */
	bool padded;			/* a whole number of lines, aligned or padded to them */
	bool truncated;			/* more members than shown (the rest not laid out) */
	const struct mycl_share_member *members;	/* by offset */
	size_t nr_members;
	uint64_t accesses, hot_writes;	/* instructions touching it; of them writes on hot paths */
	uint64_t samples;		/* with perf_data: on its accesses */
	uint64_t samples_flagged;	/* ... on the members the verdict names */
	enum mycl_share_verdict verdict;
	/*
	 * Why objects of it may be touched at once by several threads or
	 * processes, surest first: "accessed atomically", "has members of
	 * atomic types written while threads run", "reached from a global, in
	 * code several threads run", "reached from a global, in code whose
	 * thread is not known", "used by code several threads run"; NULL: no
	 * sign (not judged).
	 */
	const char *shared;
	bool certain;			/* the members named share a line wherever the object starts */
	double score;
	const char *why, *fix;
	uint64_t fix_size;		/* the type's size with the fix */
};

struct mycl_share;

/*
 * Analyses the ELF file PATH (its debug file is found by build-id or
 * debuglink).  0 or a negative code (mycl_errmsg(): what is wrong).
 */
int mycl_share__analyze(const char *path, const struct mycl_share_opts *opts,
			struct mycl_share **out);
void mycl_share__free(struct mycl_share *s);

const char *mycl_share__arch(const struct mycl_share *s);
unsigned int mycl_share__line_size(const struct mycl_share *s);
size_t mycl_share__nr_vars(const struct mycl_share *s);
const struct mycl_share_var *mycl_share__var(const struct mycl_share *s, size_t i);
size_t mycl_share__nr_lines(const struct mycl_share *s);
/* Whether the program starts threads (false: its globals are each process's own). */
bool mycl_share__threaded(const struct mycl_share *s);
/*
 * A program linked statically without debug info: its C library's objects
 * cannot be told from its own, and may be among the flagged lines.
 */
bool mycl_share__static_blind(const struct mycl_share *s);
/* Samples of the recording that fell in the binary (with perf_data). */
uint64_t mycl_share__binary_samples(const struct mycl_share *s);
const struct mycl_share_line *mycl_share__line(const struct mycl_share *s, size_t i);
/* With opts.types: the types the code reaches (every one with a member laid out). */
size_t mycl_share__nr_types(const struct mycl_share *s);
const struct mycl_share_type *mycl_share__type(const struct mycl_share *s, size_t i);
/* Re-groups the same variables on lines of SIZE bytes (for --what-if), types judged again. */
int mycl_share__regroup(struct mycl_share *s, unsigned int size);

struct mycl_share_write_opts {
	size_t sz;
	size_t max_lines;		/* flagged lines shown; 0: 20 */
	bool wide;			/* full names, long lines (text); default: 100 columns */
	bool all_lines;			/* every line with a written variable, flagged or not */
	const char *symbol;		/* only this symbol's line and its neighbours */
	const char *type;		/* only this type's layout (with opts.types) */
};

/* FUNC's disassembly with the variables each instruction touches.  -ENOENT: no such function. */
int mycl_share__disassemble(FILE *f, const struct mycl_share *s, const char *func);

int mycl_share__write_text(FILE *f, const struct mycl_share *s, const struct mycl_share_write_opts *o);
int mycl_share__write_json(FILE *f, const struct mycl_share *s, const struct mycl_share_write_opts *o);

#ifdef __cplusplus
}
#endif
#endif
