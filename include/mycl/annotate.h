/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Annotation: a hot function's instructions (capstone, in process) with the
 * share of samples on each, the source line, the functions inlined there,
 * and the global variable or branch target each instruction names.
 */
#ifndef MYCL_ANNOTATE_H
#define MYCL_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mycl/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_annotate_opts {
	size_t sz;			/* sizeof(struct mycl_annotate_opts) */
	const char *const *source_dirs;	/* where to look for source files; NULL-terminated */
	const char *prefix_map;		/* "BUILD=LOCAL": rewrite build paths of sources */
};

struct mycl_annotate_line {
	uint64_t addr;			/* in the binary's address space (as objdump shows) */
	const char *insn;		/* "mov     0x2f1a(%rip), %eax" */
	uint64_t period, samples;
	double pct;			/* of the function's samples */
	double pct_total;		/* of all the event's samples */
	const char *file;		/* source file, or NULL */
	int line;
	const char *source;		/* that line's text when the file was found, else NULL */
	const char *inlined;		/* set where code of an inlined function starts: its name */
	const char *target;		/* branch/call target, "sym+0x10" */
	const char *global;		/* the global the instruction touches, "var+0x8" */
	const char *access;		/* "read", "write", "rmw", "address" for global */
	/*
	 * A timer sample lands on the instruction after the one that stalled:
	 * for an instruction touching no global, the global the one before it
	 * touched.
	 */
	const char *after;
	/* Another global on the same cache line that this function writes. */
	const char *line_shared_with;
	bool atomic, spin_hint;
	/*
	 * Data types: the object the memory operand touches, from DWARF and
	 * the code (x86_64, aarch64).  data_where: "heap" (through a pointer
	 * a register holds), "global" or "stack" (a local), NULL without a
	 * memory operand; data_expr: the access as the source writes it
	 * ("c->st->lookups", "slots[i].served", "this->word") when the
	 * variable is known; data_type: the object's type ("struct cache");
	 * data_member: the member path inside it ("stat.n_page_gets"), NULL
	 * for the whole object; data_member_type, data_offset and data_size:
	 * that member's.  data_unknown: why the object is not known.
	 */
	const char *data_where, *data_expr, *data_type, *data_member, *data_member_type;
	const char *data_unknown;
	const char *data_access;	/* "read", "write", "rmw" */
	int64_t data_offset;
	uint64_t data_size;
};

/* Samples of the function whose memory operand's object is not known, for one reason. */
struct mycl_annotate_unknown {
	const char *why;
	uint64_t samples;
};

struct mycl_annotation {
	const char *sym, *dso, *arch;
	uint64_t start, end;
	uint64_t period, samples;	/* the function's self samples */
	double pct_total;
	size_t nr_lines;
	struct mycl_annotate_line *lines;
	const char *why_not;		/* when no code could be shown: the reason */
	/*
	 * The function's samples on instructions that access memory (a
	 * sample on an instruction without a memory operand counts for the one
	 * before it, where a timer's sample lands after the instruction that
	 * waited), and of them those whose object is known; the rest by reason,
	 * most samples first.
	 */
	uint64_t data_samples, data_known_samples;
	size_t nr_data_unknown;
	struct mycl_annotate_unknown data_unknown[4];
	/*
	 * Lines whose source text was not read, and why: the debug info came
	 * from another machine (--symfs, a perf archive, the build-id cache)
	 * and names its own paths.  Source files are then read only from the
	 * directories the options give.
	 */
	size_t nr_source_withheld;
	const char *source_withheld;
	bool data_skid;			/* the event is a timer: its samples skid (above) */
};

/*
 * Annotates ROW (a row of event EV with a symbol in a user binary) of a
 * profile built with annotate set.  *OUT is freed with mycl_annotation__free.
 * When the code is not available, *OUT still tells why (why_not) with no lines.
 */
int mycl_profile__annotate(const struct mycl_profile *p, size_t ev, const struct mycl_hot_row *row,
			   const struct mycl_annotate_opts *opts, struct mycl_annotation **out);
void mycl_annotation__free(struct mycl_annotation *a);

/*
 * Where the time goes by data type (perf's --sort type and type,typeoff),
 * from any samples: each sampled instruction's memory operand named from
 * DWARF and the code (a sample on an instruction without one counts for the
 * instruction before it, where a timer's sample lands after a load that
 * waited).  Rows of one event, largest first: a type (type set, member
 * NULL), or a member of one (by_member: member and offset set), or what the
 * rest is: unknown set to why ("no debug info for the binary", "the base
 * register's origin is not known", "not a memory access", "kernel code or
 * code without a symbol: not followed").  Shares are of the event's samples
 * the filters keep, so the rows add up to 100%.
 */
struct mycl_data_type_row {
	const char *type;		/* "struct cache", or NULL */
	const char *member;		/* by_member: "stat.n_page_gets", NULL for the whole object */
	int64_t offset;			/* ... the member's offset in the type */
	uint64_t size;			/* of the member, or of the object */
	const char *where;		/* "heap", "global", "stack" */
	const char *unknown;		/* no type: why */
	const char *example;		/* an access of it as the source writes it ("c->hits") */
	uint64_t samples, period;
	double pct;
	uint64_t address_samples;	/* of SAMPLES, named by their sampled data address */
};

/*
 * Samples that carry a data address (perf mem, IBS, SPE, page faults) are
 * named from it where it falls in a variable of a binary (the variable's
 * member at that offset), and the code's naming of their instruction is
 * checked against it: the same type and member, another, or none.  The
 * rest (heap, stack, shared memory) keep the code's naming.
 */
struct mycl_data_types {
	const char *event;
	bool by_member;
	uint64_t samples, period;	/* the event's, as the filters keep them */
	uint64_t known_samples;		/* of them on memory accesses whose type is known */
	size_t nr_rows;
	struct mycl_data_type_row *rows;
	bool skid;			/* a sample counts for the instruction before it (a timer) */
	uint64_t addr_samples;		/* samples on named code with a data address */
	uint64_t addr_agree;		/* ... in a variable, which the code names the same */
	uint64_t addr_differ;		/* ... the code names another object */
	uint64_t addr_only;		/* ... in a variable the code could not name */
	uint64_t addr_undescribed;	/* ... in a variable the debug info does not describe */
	uint64_t addr_elsewhere;	/* ... outside the binaries' variables: heap, stack,
					 * shared memory */
	uint64_t addr_outside;		/* ... of them, the code names a global there */
	uint64_t addr_code;		/* ... in a binary's code: a fault fetching instructions
					 * (a row of its own, not a data access) */
};

/* The data types of event EV of a profile built with annotate set. 0, -EINVAL, -ENOMEM. */
int mycl_profile__data_types(const struct mycl_profile *p, size_t ev, bool by_member,
			     struct mycl_data_types **out);
void mycl_data_types__free(struct mycl_data_types *t);
/* The table as text ("struct cache +16 (hits)", perf's typeoff) or JSON (schema mycl-types/1). */
int mycl_report__data_types_text(FILE *f, const struct mycl_data_types *t, double percent_limit);
int mycl_report__data_types_json(FILE *f, const struct mycl_data_types *t);

/* Text: CONTEXT > 0 prints only that many lines around instructions with >= 1% of the function. */
int mycl_report__annotation_text(FILE *f, const struct mycl_annotation *a, int context);
int mycl_report__annotation_json(FILE *f, const struct mycl_annotation *a);

#ifdef __cplusplus
}
#endif
#endif
