/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The state of one mycl-share analysis, shared by share.c, share_dwarf.c and share_perf.c. */
#ifndef MYCL_SHARE_STATE_H
#define MYCL_SHARE_STATE_H

#include <string.h>
#include "mycl/share.h"
#include "dso.h"
#include "internal.h"

/* An instruction that touches a variable: for weighting by samples. */
struct share_ref {
	uint64_t addr, end;		/* the instruction, and the address after it */
	uint32_t var;
	uint8_t access;
	bool atomic;
	uint8_t kind;			/* SHARE_W_*: an increment (add, inc, atomic add), a
					 * decrement, a compare-and-swap */
	bool self;			/* a store of what was loaded there, changed (x86_64) */
	bool indexed;			/* at a computed index from the variable's start */
	uint16_t scale;			/* ... the index's scale */
	bool once;			/* a guarded static initialization (__cxa_guard_acquire) */
	bool konst;			/* a store of the constant VAL */
	uint64_t val;
	uint32_t off;			/* the byte it touches, from the variable's start */
};

/*
 * Two members of one variable, at offsets A < B, written on hot paths by
 * code of different threads (FA's and FB's, none of either's): a
 * writer/writer pair inside one object (a ring's head and tail).
 */
struct share_split {
	uint32_t var;
	uint32_t a, b;
	const char *fa, *fb;		/* a writer of each (function names) */
	const char *ma, *mb;		/* the members' names ("ring.head") */
};

/*
 * A hot write of variable VAR at address WHERE, or somewhere in [WHERE, END)
 * (a member a library function writes), for the lines a large variable
 * spans; in the function starting at FUNC; COUNTER: an increment.  (Those
 * whose place is not known are counted per variable: hot_any.)
 */
struct share_hotw {
	uint32_t var;
	bool counter;
	uint64_t where, end;		/* [where, end): a place, or a member somewhere in it */
	uint64_t func;
};

/*
 * Inside one variable (a struct): a member written on hot paths at W and,
 * on its line, one read while threads run and never written then, at R (a
 * counter beside the switches of one config struct).
 */
struct share_inner {
	uint32_t var;
	uint32_t w, r;
	const char *mw, *mr;		/* the members' names ("cfg.hits", "cfg.enabled") */
};

/*
 * One write of a variable, by the function it runs in; then, summed per
 * function, its writes there (COUNT), the hottest HEAT and where (AT).
 */
struct share_wr {
	uint32_t var;
	uint8_t heat;			/* enum cg_heat */
	uint32_t count;
	uint64_t func;
	uint64_t at;			/* the write (or the call handing the variable on) */
	uint8_t once;			/* enum share_once: a write counted once, and why */
};

enum share_once {
	SHARE_ONCE_NO = 0,
	SHARE_ONCE_FLAG,		/* a flag's store set once (flags_set_once, share.c) */
	SHARE_ONCE_PAST,		/* runs only past the test of such a flag (its block, its callees) */
	SHARE_ONCE_TESTED,		/* a value stored only on one side of a test of the variable */
};

/*
 * A function that writes a listed variable while threads run, [start, end):
 * the samples on whose call chain it is, by the innermost loop of the code
 * the chain passes in it (from, to: the loop's span; 0, 0: outside any), and
 * the loops of the function (SPANS: its backward branches' spans).
 */
struct share_wloop {
	uint64_t from, to;
	uint64_t samples;
};
struct share_wfunc {
	uint64_t start, end;
	struct share_wloop *loops;
	size_t nr_loops, loops_cap;
	uint32_t first_span, nr_spans;	/* in mycl_share.wspans */
};

/* A write of VAR while threads run, in function FUNC, at AT (or the call handing it on). */
struct share_wsite {
	uint32_t var;
	uint64_t func, at;
};

/* An access of a struct, class or union type's member, from the data-type walk (share_types.c). */
struct share_tacc {
	uint64_t addr, end;		/* the instruction */
	uint64_t func;			/* the start of its function */
	uint64_t root;			/* the thread its function runs on (callgraph_thread_root) */
	uint64_t die;			/* the type's DWARF entry, as the walk named it */
	const char *fname;		/* its function's name (owned by the analysis) */
	const char *expr;		/* a hot write: the source's words ("pool->stat.hits") */
	bool sync;			/* its member is an atomic or volatile type */
	uint32_t off, size;		/* the member's offset and size inside the type */
	uint32_t type, member;		/* indexes into types and tmembers (UINT32_MAX: none) */
	uint8_t access, heat;		/* enum insn_access, enum cg_heat */
	bool atomic, counter;
	bool element;			/* of an array of the type, reached by index */
	uint8_t param;			/* reached through its function's parameter PARAM - 1 (0: not) */
	bool via_global;		/* in a global of the type, or reached through a pointer read
					 * out of one */
	bool once;			/* runs only past the test of a flag set once */
	uint8_t walker;			/* the walk's thread that found it (whose DWARF lays out its
					 * type) */
};

/* What the analysis keeps of a type beside what it shows. */
struct share_tinfo {
	size_t first;			/* its members in tmembers */
	size_t ofirst, oend;		/* its accesses in torder */
	uint64_t root;			/* the thread of its hot accesses (0: none yet; ROOT_MIXED) */
	bool one_thread;		/* ... which runs on one thread only */
	bool several;			/* hot accesses in code several threads run (threaded) */
	bool unknown_root;		/* ... or in code whose thread is not known (a callback's) */
	uint64_t atomics;		/* atomic accesses of its members: code expecting others at it */
	uint64_t via_global;		/* hot accesses of objects reached from a global */
	bool library;			/* declared in a system header: not the program's to change */
};

struct share_bucket {
	uint64_t line;
	uint64_t samples, hitm;
};

struct mycl_share {
	struct logger log;
	struct dso *dso;
	const char *name;		/* how the binary is shown */
	const char *arch;
	unsigned int line_size;
	struct mycl_share_var *vars;
	size_t nr_vars, vars_cap;
	struct share_ref *refs;		/* sorted by addr */
	size_t nr_refs, refs_cap;
	struct share_wr *wrs;		/* every counted write, until the writer lists are made */
	size_t nr_wrs, wrs_cap;
	struct mycl_share_writer *writers;	/* the variables' writer lists */
	struct share_wfunc *wfuncs;	/* their functions that run while threads run, by start */
	size_t nr_wfuncs;
	struct share_wsite *wsites;	/* their writes, by variable, function and address */
	size_t nr_wsites;
	struct { uint64_t from, to; } *wspans;	/* the wfuncs' loops (callgraph_for_each_loop) */
	size_t nr_wspans, wspans_cap;
	uint64_t chain_total;		/* samples with this binary on their call chain (with --perf) */
	bool chains;			/* ... and the recording has call chains (else: leaves only) */
	const char *recorded_name;	/* while weighing: the binary's short name in the recording */
	struct mycl_share_line *lines;
	size_t nr_lines;
	size_t *members;		/* storage for lines' member lists */
	char **strs;			/* owned strings */
	size_t nr_strs, strs_cap;
	/* Data-address samples (perf mem/c2c) with no binary line: absolute lines. */
	struct share_bucket *buckets;
	size_t nr_buckets, buckets_cap;
	uint64_t data_samples;
	bool weighted;
	bool threaded;			/* the program starts threads (or is a library) */
	bool assume_threads;		/* --assume-threads: judge lines as if it did */
	size_t nr_entries;		/* thread entries found */
	const char *joined_elsewhere;	/* none started, threads joined with this */
	uint64_t unnamed_writes;	/* stores to writable data no variable names (stripped) */
	const char *debug_hint;		/* then: the package with its debug info, when known */
	const char *first_entry;
	uint64_t binary_samples;	/* samples of the recording in this binary */
	/* The code and the variables the debug info describes (share_dwarf.c), sorted. */
	struct share_range { uint64_t start, end; } *dcode;
	size_t nr_dcode;
	uint64_t *described;
	size_t nr_described;
	struct share_split *splits;	/* by var */
	size_t nr_splits, splits_cap;
	struct share_inner *inner;	/* by var */
	size_t nr_inner, inner_cap;
	struct share_hotw *hotw;	/* hot writes by place: by var, then where */
	size_t nr_hotw, hotw_cap;
	/* per var: its hot writes whose place is not known, and the increments among them */
	struct share_hotany { uint32_t writes, counters; } *hot_any;
	uint64_t hotw_span;		/* the longest range of a placed hot write */
	/*
	 * The places code compares and swaps, those it subtracts from, and
	 * those threads add to: a place added to, subtracted from and swapped
	 * is a lock word (a reader count beside the writer's bit), no counter to
	 * shard; one only added to and swapped stays one (a maximum kept by
	 * compare-and-swap beside fetch_add).  INCS by var and place, lock
	 * words' taken out into LOCKW (share_settle_swaps).
	 */
	struct share_place { uint32_t var; uint64_t where; } *swaps, *downs, *incs, *lockw;
	size_t nr_swaps, swaps_cap, nr_downs, downs_cap, nr_incs, incs_cap, nr_lockw, lockw_cap;
	/*
	 * Per var: the thread root of every hot access the code makes of it (0:
	 * none yet, ROOT_MIXED: several or not known), and then whether that
	 * root runs on one thread only (main, a thread started once).
	 */
	uint64_t *hot_root;
	bool *one_thread;
	/* Linked statically, without debug info: the libraries' objects cannot be set apart. */
	bool static_blind;
	uint64_t skid_samples;		/* ... credited to the instruction before */
	/*
	 * What the debug info says is inside the variables it describes
	 * (share_dwarf.c): by address, a run of marks, an array's for one element
	 * of STRIDE bytes; a mark: a pointer, or an object of a library's type.
	 */
	struct share_vtype { uint64_t addr; uint32_t stride, first, nr; } *vtypes;
	size_t nr_vtypes;
	struct share_mark { uint32_t off, size; uint8_t kind; } *marks;
	size_t nr_marks;
	/* Types (with types): their accesses by address, the types, their members. */
	bool want_types, types_done;
	struct share_twalk *twalk;	/* the walk under way (share_types_start) */
	const char *shm_call;		/* it maps memory processes share, with this call (static) */
	size_t types_walked;		/* functions walked */
	bool split_dwarf;		/* its debug info is split (.dwo files): not read */
	struct share_tacc *taccs;
	size_t nr_taccs, taccs_cap;
	uint32_t *torder;		/* the accesses by type, function, member */
	struct mycl_share_type *types;
	struct share_tinfo *tinfo;
	size_t nr_types, types_cap, tinfo_cap;
	struct mycl_share_member *tmembers;
	size_t nr_tmembers, tmembers_cap;
};

#define ROOT_MIXED UINT64_MAX

/* W writes while the program's threads run (hot or warm), not at start-up or exit. */
static inline bool share_runtime_writer(const struct mycl_share_writer *w)
{
	return !strcmp(w->heat, "hot") || !strcmp(w->heat, "warm");
}

/* A string printed and kept by S (NULL when out of memory): "save formatted". */
#define savef(s, ...) share_keep(s, str_printf(__VA_ARGS__))
/* What a flag set once's write says of itself (writers, hot_path). */
#define ONCE_WHY "once: a flag stored only past a test of itself"
#define ONCE_PAST_WHY "once: only past the test of a flag set once"
/* ... and a value stored only when a test of the variable says so (share.c). */
#define TESTED_WHY "only when a test of its own value says so (test before store)"
/* The words for enum share_once ONCE. */
static inline const char *share_once_why(uint8_t once)
{
	return once == SHARE_ONCE_FLAG ? ONCE_WHY : once == SHARE_ONCE_PAST ? ONCE_PAST_WHY :
	       TESTED_WHY;
}


/* STR (allocated, may be NULL) owned by S from now on; NULL when out of memory. */
static inline const char *share_keep(struct mycl_share *s, char *str)
{
	if (!str)
		return NULL;
	if (ARRAY_GROW(s->strs, s->strs_cap, s->nr_strs + 1)) {
		free(str);
		return NULL;
	}
	s->strs[s->nr_strs++] = str;
	return str;
}
struct elf_image;
struct elf_section;
/* The variable holding ADDR (variables sorted by address), or -1. */
long share_find_var(const struct mycl_share *s, uint64_t addr);
/*
 * The name of the object at ADDR in what the loader makes read-only after
 * relocating it (a vtable: no variable of the analysis), or NULL.
 */
const char *share_relro_name(const struct mycl_share *s, uint64_t addr);
/* The symbol tables' variables in writable data (all data with READONLY). */
int share_symbol_vars(struct mycl_share *s, struct elf_image *img, bool readonly);
enum mycl_share_kind var_kind(const struct elf_image *img, const struct elf_section *sec,
			      uint64_t addr);
struct callgraph;
/* share_members.c: the members of one variable that different threads write (splits). */
int share_member_writers(struct mycl_share *s, struct callgraph *cg);
/*
 * The lock words' variables (share_settle_swaps) with no member written hot
 * beside one read hot yet: the lock word's place counts as that writer (a
 * latch taken through its methods, which -O0 leaves as calls).  -ENOMEM.
 */
int share_lock_word_readers(struct mycl_share *s, struct callgraph *cg);
/* share_writers.c: the writer lists and wfuncs, from the writes in wrs (freed). */
int share_make_writers(struct mycl_share *s, struct callgraph *cg);
/* share_perf.c: weights by the recording PERF_DATA, its samples in TIME (perf's --time; NULL: all). */
int share_weigh(struct mycl_share *s, const char *perf_data, const char *time, char *errbuf,
		size_t len);
/* The same from a profile built with annotate, callgraph, call_sites and data_addresses. */
int share_weigh_profile(struct mycl_share *s, const struct mycl_profile *p);
/*
 * share_dwarf.c: FILE's debug info opened and the code its units describe
 * read (dcode); *OUT NULL when it has none.  Then its variables (the
 * symbol tables' given names, types, marks), and closed.
 */
struct share_dwarf;
int share_dwarf_open(struct mycl_share *s, const char *file, struct share_dwarf **out);
int share_dwarf_vars(struct mycl_share *s, struct share_dwarf *h, bool include_readonly);
void share_dwarf_close(struct share_dwarf *h);
/* After the scan: variables only code without debug info touches are a linked library's. */
void share_mark_linked(struct mycl_share *s);
/*
 * Whether the debug info says the bytes at OFF inside V are a pointer (a
 * member, an element, or V itself): an add there moves a pointer (a deque's
 * cursor), it counts nothing.  False when not known.
 */
bool share_pointer_at(struct mycl_share *s, const struct mycl_share_var *v, uint64_t off);
/*
 * share_members.c: the member of V at byte OFF as the debug info names it
 * ("cfg.hits"), else V's name plus OFF; kept in S.
 */
const char *share_member_name(struct mycl_share *s, const struct mycl_share_var *v, uint32_t off);
/*
 * Whether byte OFF of V lies in an object of a type a system or compiler
 * header declares (a std::deque, a pthread_mutex_t): its bytes [*START,
 * *START + *SIZE) inside V.
 */
bool share_library_at(struct mycl_share *s, const struct mycl_share_var *v, uint64_t off,
		      uint64_t *start, uint64_t *size);
/*
 * Whether the innermost object inside V holding both offsets A and B is of a
 * type a system or compiler header declares (a std::deque's cursors): its
 * layout is the library's, not the program's to change.
 */
bool share_library_part(struct mycl_share *s, const struct mycl_share_var *v, uint64_t a,
			uint64_t b);
/*
 * The types code reaches (share_typewalk.c, share_types.c).  The walk of
 * every function starts on threads of their own once the call graph CG has
 * its functions (share_types_start) and runs beside the globals' scan;
 * share_types_scan joins it when CG is finished and judges.
 */
int share_types_start(struct mycl_share *s, struct elf_image *img, struct callgraph *cg);
/*
 * Waits until the walk's threads have read the analysis's index of the
 * globals (their first thread reads it with the analysis's DWARF handle):
 * before this thread reads that DWARF again after share_types_start.
 */
void share_types_ready(struct mycl_share *s);
int share_types_scan(struct mycl_share *s, struct callgraph *cg);
/*
 * The walk's threads joined (told to stop first when the analysis failed
 * before share_types_scan) and its storage freed.
 */
void share_types_end(struct mycl_share *s);
/* A sample on the instruction at VADDR, to the member it touches. */
void share_types_credit(struct mycl_share *s, uint64_t vaddr, uint64_t samples);
/* share_typelines.c: the types judged at the analysis's line size. */
void share_types_judge(struct mycl_share *s);
void share_types_free(struct mycl_share *s);
#include <elfutils/libdw.h>
struct unit_files;
/*
 * Whether TYPE is declared in a header of the system or the compiler, not
 * the program's (FILES: the thread's reader of the handle's file names).
 */
bool share_library_type(struct unit_files *files, Dwarf_Die *type);
/* What share_dwarf_vars kept of the variables' types, freed. */
void share_dwarf_end(struct mycl_share *s);

/* The reference of the instruction at ADDR (BY_END: that ends at ADDR), or NULL; refs sorted. */
static inline const struct share_ref *share_ref_at(const struct mycl_share *s, uint64_t addr,
						   bool by_end)
{
	size_t lo = PARTITION_POINT(0, s->nr_refs, mid, s->refs[mid].addr < addr);

	if (!by_end)
		return lo < s->nr_refs && s->refs[lo].addr == addr ? &s->refs[lo] : NULL;
	return lo > 0 && s->refs[lo - 1].end == addr ? &s->refs[lo - 1] : NULL;
}

#endif
