/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Data types: the object each memory operand of a function's code touches,
 * from DWARF (the types of the variables and parameters registers and frame
 * slots hold at each address, location lists included) followed through the
 * code: loads of pointer members, moves, address arithmetic, array indexing,
 * spills to the stack.  What perf's data-type profiling finds from precise
 * memory samples, here for any sampled instruction.  x86_64 and aarch64.
 */
#ifndef MYCL_DATATYPE_H
#define MYCL_DATATYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "insn.h"

struct dso;

enum dt_where {
	DT_NONE = 0,			/* no memory operand */
	DT_HEAP,			/* through a pointer a register holds */
	DT_GLOBAL,			/* a global variable */
	DT_STACK,			/* a local variable in the function's frame */
};

struct dt_access {
	uint8_t where;			/* enum dt_where */
	uint8_t access;			/* enum insn_access */
	/* The access as the source would write it: "c->st->lookups", "slots[i].served", "e"; or NULL. */
	const char *expr;
	const char *type;		/* the object's type: "struct cache", "Latch", "long" */
	const char *member;		/* the member path inside it: "stat.n_page_gets"; NULL: the whole */
	const char *member_type;	/* that member's own type */
	int64_t offset;			/* of the member inside the object */
	uint64_t size;			/* of the member (of the object when no member) */
	const char *unknown;		/* no type known: why (a sentence fragment) */
	uint64_t type_die;		/* TYPE's DWARF entry (its offset in the binary's DWARF) */
	bool element;			/* the object is an element of an array of TYPE, reached by index */
	bool via_global;		/* the object is a global, or reached through a pointer read out
					 * of one (directly or along a chain of pointers) */
	uint8_t param;			/* reached through the function's parameter PARAM - 1 as it
					 * came in (0: not) */
	uint8_t elem_args;		/* a call (or tail call): bit K, its argument K points to an
					 * element of an array, reached by index (&slots[id]) */
	uint64_t elem_type;		/* ... the first such element's type entry */
};

/* One function's accesses, in the order of its instructions; strings owned by it. */
struct dt_result {
	struct dt_access *v;
	size_t n;
	char **strs;
	size_t nr_strs, cap_strs;
};

/*
 * Resolves the memory operands of the N instructions V (one function of D,
 * decoded with disasm_set_type_facts, sorted by address) into OUT->v[i].
 * Instructions without a memory operand get DT_NONE.  0, or -ENOMEM.
 */
int datatype_walk(struct dso *d, uint16_t e_machine, const struct insn *v, size_t n,
		  struct dt_result *out);
void datatype_free(struct dt_result *r);

/*
 * The same, keeping what it finds of the types in MEMO for the next walk
 * over the same binary (mycl-share --types walks every function): from
 * datatype_memo_new, freed with datatype_memo_free, one binary's only.
 */
struct dt_memo;
struct dt_memo *datatype_memo_new(void);
void datatype_memo_free(struct dt_memo *m);
int datatype_walk_memo(struct dso *d, uint16_t e_machine, const struct insn *v, size_t n,
		       struct dt_result *out, struct dt_memo *memo);
/*
 * Walks through M name what a reader of type entries needs (mycl-share
 * --types): TYPE and MEMBER_TYPE "" rather than the types' names, MEMBER
 * NULL, EXPR only for writes and loads; the rest as a full walk's.
 */
void datatype_memo_lean(struct dt_memo *m);

/*
 * The variable of D at VADDR as instruction IN (decoded with
 * disasm_set_type_facts) touches it there: a sampled data address named
 * into OUT->v[0] (one access), strings owned by OUT.  0, or -ENOMEM.
 */
int datatype_name_data(struct dso *d, uint64_t vaddr, const struct insn *in, struct dt_result *out,
		       struct dt_memo *memo);

#endif
