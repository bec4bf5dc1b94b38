/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * False sharing inside types: the struct, class and union types code
 * reaches through pointers (and the globals of such types), each member's
 * writers and readers from the data-type walk of every function the debug
 * info describes (code/datatype.c), laid out on lines as the type's
 * alignment allows, and a verdict per type.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "datatype.h"
#include "disasm.h"
#include "elfimage.h"
#include "inline.h"
#include "insn.h"
#include "mycl/tuning.h"
#include "share_state.h"

#define MAX_LEAVES 4096		/* members of one type unfolded: past it, the rest as one */
#define MAX_DEPTH 8		/* nested structs and base classes unfolded */
#define MAX_TYPE_SIZE (1u << 30)	/* a type larger is no object to lay out (corrupt DWARF) */
#define MAX_FUNC_BYTES (1u << 20)	/* functions longer are not walked (the walk's own limit) */
#define MAX_TYPE_THREADS 8
#define CHUNKS_PER_THREAD 64	/* (the last ones short: the threads end together) */
#define MIN_FUNCS_PER_THREAD 16

/* ---- the layout of one type, from DWARF ---- */

static bool record_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type;
}

static uint64_t die_size(Dwarf_Die *t)
{
	Dwarf_Die s = *t;
	Dwarf_Word n;

	if (!inline_strip_type(&s))
		return 0;
	if (dwarf_tag(&s) == DW_TAG_pointer_type || dwarf_tag(&s) == DW_TAG_reference_type ||
	    dwarf_tag(&s) == DW_TAG_rvalue_reference_type || dwarf_tag(&s) == DW_TAG_ptr_to_member_type)
		return dwarf_aggregate_size(&s, &n) ? 8 : n;
	return dwarf_aggregate_size(&s, &n) ? 0 : n;
}

/* The alignment of TYPE: declared (alignas), else its members' (scalars their size, at most 16). */
static uint64_t die_align_in(Dwarf_Die *t, int depth, size_t *budget);

/* The alignment of TYPE (a bounded look: corrupt DWARF may nest types without end). */
static uint64_t die_align(Dwarf_Die *t, int depth)
{
	size_t budget = 4 * MAX_LEAVES;

	return die_align_in(t, depth, &budget);
}

static uint64_t die_align_in(Dwarf_Die *t, int depth, size_t *budget)
{
	Dwarf_Die s = *t, c, mt;
	Dwarf_Attribute at;
	Dwarf_Word a;
	uint64_t best = 1;

	if (dwarf_attr_integrate(t, DW_AT_alignment, &at) && !dwarf_formudata(&at, &a) && a)
		return a;
	if (!inline_strip_type(&s) || depth > MAX_DEPTH)
		return 1;
	if (dwarf_attr_integrate(&s, DW_AT_alignment, &at) && !dwarf_formudata(&at, &a) && a)
		return a;
	switch (dwarf_tag(&s)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_child(&s, &c) == 0) {
			int n = 0;

			do {
				uint64_t m;

				if ((dwarf_tag(&c) != DW_TAG_member && dwarf_tag(&c) != DW_TAG_inheritance) ||
				    dwarf_hasattr(&c, DW_AT_external) || ++n > MAX_LEAVES || !*budget)
					continue;
				--*budget;
				if (dwarf_attr_integrate(&c, DW_AT_alignment, &at) &&
				    !dwarf_formudata(&at, &a) && a)
					m = a;
				else if (dwarf_attr_integrate(&c, DW_AT_type, &at) &&
					 dwarf_formref_die(&at, &mt))
					m = die_align_in(&mt, depth + 1, budget);
				else
					m = 1;
				if (m > best)
					best = m;
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		return best;
	case DW_TAG_array_type:
		return dwarf_attr_integrate(&s, DW_AT_type, &at) && dwarf_formref_die(&at, &mt) ?
		       die_align_in(&mt, depth + 1, budget) : 1;
	default: {
		uint64_t n = die_size(&s);

		return n >= 16 ? 16 : n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
	}
	}
}

/* The printed name of a member's type: "long", "struct stat", "char[64]", "Latch *". */
static void type_words(Dwarf_Die *t, char *buf, size_t len, int depth)
{
	Dwarf_Attribute at;
	Dwarf_Die in;
	const char *name = dwarf_diename(t);
	int tag = dwarf_tag(t);

	buf[0] = '\0';
	if (depth > 6)
		return;
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (dwarf_attr_integrate(t, DW_AT_type, &at) && dwarf_formref_die(&at, &in))
			type_words(&in, buf, len, depth + 1);
		else
			snprintf(buf, len, "void");
		snprintf(buf + strlen(buf), len - strlen(buf), tag == DW_TAG_pointer_type ? " *" : " &");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_atomic_type: {
		const char *q = tag == DW_TAG_const_type ? "const " : tag == DW_TAG_volatile_type ?
				"volatile " : "_Atomic ";

		snprintf(buf, len, "%s", q);
		if (dwarf_attr_integrate(t, DW_AT_type, &at) && dwarf_formref_die(&at, &in))
			type_words(&in, buf + strlen(buf), len - strlen(buf), depth + 1);
		return;
	}
	case DW_TAG_array_type: {
		Dwarf_Die sub;
		Dwarf_Word n = 0;

		if (dwarf_attr_integrate(t, DW_AT_type, &at) && dwarf_formref_die(&at, &in))
			type_words(&in, buf, len, depth + 1);
		if (dwarf_child(t, &sub) == 0 && dwarf_tag(&sub) == DW_TAG_subrange_type &&
		    ((dwarf_attr_integrate(&sub, DW_AT_count, &at) && !dwarf_formudata(&at, &n)) ||
		     (dwarf_attr_integrate(&sub, DW_AT_upper_bound, &at) && !dwarf_formudata(&at, &n) &&
		      (n += 1))))
			snprintf(buf + strlen(buf), len - strlen(buf), "[%" PRIu64 "]", (uint64_t)n);
		else
			snprintf(buf + strlen(buf), len - strlen(buf), "[]");
		return;
	}
	case DW_TAG_structure_type:
		snprintf(buf, len, "struct %s", name ? name : "{...}");
		return;
	case DW_TAG_class_type:
		snprintf(buf, len, "class %s", name ? name : "{...}");
		return;
	case DW_TAG_union_type:
		snprintf(buf, len, "union %s", name ? name : "{...}");
		return;
	case DW_TAG_enumeration_type:
		snprintf(buf, len, "enum %s", name ? name : "{...}");
		return;
	case DW_TAG_subroutine_type:
		snprintf(buf, len, "function");
		return;
	default:
		snprintf(buf, len, "%s", name ? name : "?");
	}
}

struct leaf {
	char *name;
	char *type;
	uint64_t off, size;
	bool sync;
};

struct flat {
	struct leaf *v;
	size_t n, cap;
	size_t visits;			/* members looked at: bounded, whatever the DWARF says */
	bool truncated;
};

static bool member_location(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Word w;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr_integrate(m, DW_AT_data_member_location, &at)) {
		*off = 0;	/* a union's members, and C++ members at 0 */
		return true;
	}
	if (!dwarf_formudata(&at, &w)) {
		*off = w;
		return true;
	}
	if (dwarf_getlocation(&at, &ops, &nops) == 0 && nops == 1 &&
	    ops[0].atom == DW_OP_plus_uconst) {
		*off = ops[0].number;
		return true;
	}
	return false;
}

/*
 * Whether T is a type for words several threads or processes touch at once:
 * _Atomic, std::atomic, or a struct holding one such word.
 */
static bool sync_type(Dwarf_Die *t, int depth)
{
	Dwarf_Die s = *t, c, mt;
	Dwarf_Attribute at;
	const char *n;
	int members = 0;
	bool sync = false;

	for (int k = 0; k < 16; k++) {
		int tag = dwarf_tag(&s);

		/* (volatile alone is no sign: a flag a signal handler sets is one too) */
		if (tag == DW_TAG_atomic_type)
			return true;
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_volatile_type)
			break;
		if (!dwarf_attr_integrate(&s, DW_AT_type, &at) || !dwarf_formref_die(&at, &s))
			return false;
	}
	if (dwarf_tag(&s) != DW_TAG_structure_type && dwarf_tag(&s) != DW_TAG_class_type)
		return false;
	n = dwarf_diename(&s);
	if (n && (!strncmp(n, "atomic<", 7) || !strncmp(n, "__atomic_base<", 14) ||
		  !strncmp(n, "atomic_", 7)) && share_library_type(&s))
		return true;
	if (depth > 2 || dwarf_child(&s, &c))
		return false;
	do {
		if (dwarf_tag(&c) != DW_TAG_member || dwarf_hasattr(&c, DW_AT_external))
			continue;
		if (++members > 1)
			return false;
		sync = dwarf_attr_integrate(&c, DW_AT_type, &at) && dwarf_formref_die(&at, &mt) &&
		       sync_type(&mt, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
	return sync;
}

static int add_leaf(struct flat *f, const char *name, Dwarf_Die *type, uint64_t off, uint64_t size)
{
	char tw[160];

	if (f->n >= MAX_LEAVES) {
		f->truncated = true;
		return 0;
	}
	if (ARRAY_GROW(f->v, f->cap, f->n + 1))
		return -ENOMEM;
	if (type)
		type_words(type, tw, sizeof(tw), 0);
	else
		snprintf(tw, sizeof(tw), "?");
	f->v[f->n].name = strdup(name);
	f->v[f->n].type = strdup(tw);
	f->v[f->n].off = off;
	f->v[f->n].size = size;
	f->v[f->n].sync = type && sync_type(type, 0);
	if (!f->v[f->n].name || !f->v[f->n].type) {
		free(f->v[f->n].name);
		free(f->v[f->n].type);
		return -ENOMEM;
	}
	f->n++;
	return 0;
}

/*
 * The members of the struct or class T at BASE, nested structs and base
 * classes unfolded ("stat.n_page_gets"; a base class's members under their
 * own names), unions and arrays whole; bit fields by the bytes they lie in.
 */
static int flatten(struct flat *f, Dwarf_Die *t, uint64_t base, uint64_t limit, const char *prefix,
		   int depth)
{
	Dwarf_Die c;
	int err = 0, n = 0;

	if (dwarf_child(t, &c))
		return 0;
	do {
		Dwarf_Die mt, st;
		Dwarf_Attribute at;
		const char *mname;
		char name[256];
		uint64_t off, size;
		int tag = dwarf_tag(&c);

		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
		    dwarf_hasattr(&c, DW_AT_external) || dwarf_hasattr(&c, DW_AT_declaration))
			continue;
		if (++n > MAX_LEAVES || ++f->visits > 4 * MAX_LEAVES || f->truncated) {
			f->truncated = true;
			break;
		}
		if (!dwarf_attr_integrate(&c, DW_AT_type, &at) || !dwarf_formref_die(&at, &mt))
			continue;
		if (!member_location(&c, &off))
			continue;
		size = die_size(&mt);
		if (dwarf_hasattr(&c, DW_AT_bit_size)) {
			Dwarf_Word bits = 0, boff = 0;

			if (dwarf_attr_integrate(&c, DW_AT_bit_size, &at))
				dwarf_formudata(&at, &bits);
			if (dwarf_attr_integrate(&c, DW_AT_data_bit_offset, &at) &&
			    !dwarf_formudata(&at, &boff)) {
				off = boff / 8;
				size = (boff % 8 + bits + 7) / 8;
			}
		}
		off += base;
		if (off >= limit || (size && off + size > limit) || size > MAX_TYPE_SIZE)
			continue;	/* past the end: corrupt, or a flexible member's elements */
		mname = tag == DW_TAG_inheritance ? NULL : dwarf_diename(&c);
		snprintf(name, sizeof(name), "%s%s%s", prefix, prefix[0] && mname ? "." : "",
			 mname ? mname : "");
		st = mt;
		/* (a library's type, std::atomic or pthread_mutex_t: one member, its insides not ours) */
		if (inline_strip_type(&st) && (dwarf_tag(&st) == DW_TAG_structure_type ||
					dwarf_tag(&st) == DW_TAG_class_type) &&
		    depth < MAX_DEPTH && size && !share_library_type(&st)) {
			size_t before = f->n;

			err = flatten(f, &st, off, off + size, mname || !prefix[0] ? name : prefix,
				      depth + 1);
			if (err)
				return err;
			if (f->n > before || tag == DW_TAG_inheritance)
				continue;
		}
		if (!name[0])
			continue;
		err = add_leaf(f, name, &mt, off, size);
	} while (!err && dwarf_siblingof(&c, &c) == 0);
	return err;
}

static int leaf_cmp(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

/* ---- the accesses ---- */

/* Whether TYPE is declared in a header of the system or the compiler, not the program's. */
bool share_library_type(Dwarf_Die *type)
{
	static const char *const dirs[] = { "/usr/include/", "/usr/lib/gcc/", "/usr/lib/llvm",
					    "/usr/local/include/" };
	/* (as clang writes them: /usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++) */
	static const char *const parts[] = { "/include/c++/", "/lib/gcc/", "/lib/llvm-" };
	const char *f = dwarf_decl_file(type);

	for (size_t i = 0; f && i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(f, dirs[i], strlen(dirs[i])))
			return true;
	for (size_t i = 0; f && f[0] == '/' && i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(f, parts[i]))
			return true;
	return false;
}

/* Whether [A, E) lies inside the code the debug info describes. */
static bool described(const struct mycl_share *s, uint64_t a, uint64_t e)
{
	size_t k = PARTITION_POINT(0, s->nr_dcode, mid, s->dcode[mid].start <= a);

	return k && e <= s->dcode[k - 1].end;
}

/*
 * Whether the store at V[I] puts back what a load of the same member a few
 * instructions before gave plus a constant (ldr; add; str, or -O0's reload
 * and lea): a counter, where the instruction set has no add to memory or
 * the compiler does not use it.  R: the walk's names of the accesses.
 */
static bool stored_increment(const struct insn *v, const struct dt_result *r, size_t i)
{
	const struct insn *st = &v[i];

	if (st->ty_op != TY_STORE || !st->ty_src || !r->v[i].type_die)
		return false;
	for (size_t k = i; k-- > 0 && i - k <= 8;) {
		uint8_t reg;
		bool added = false;

		if (v[k].jump || v[k].call || v[k].ret || v[k].branch)
			return false;
		if (v[k].ty_op != TY_LOAD || r->v[k].access != ACC_READ ||
		    r->v[k].type_die != r->v[i].type_die || r->v[k].offset != r->v[i].offset)
			continue;
		reg = v[k].ty_dst;
		for (size_t j = k + 1; j < i && reg; j++) {
			const struct insn *x = &v[j];

			if (x->ty_op == TY_ADD_IMM && x->ty_imm &&
			    (x->ty_src ? x->ty_src == reg : x->ty_dst == reg)) {
				reg = x->ty_dst;
				added = true;
			} else if (x->ty_op == TY_LEA && x->ty_base == reg && !x->ty_index && x->ty_disp) {
				reg = x->ty_dst;
				added = true;
			} else if (x->ty_op == TY_MOVE && x->ty_src == reg) {
				reg = x->ty_dst;
			}
		}
		return added && reg == st->ty_src;
	}
	return false;
}

static const char *func_name(struct mycl_share *s, struct callgraph *cg, uint64_t fn)
{
	const char *name = NULL;

	callgraph_func_end(cg, fn, &name);
	return name ? share_keep(s, strdup(name)) : savef(s, "0x%" PRIx64, fn);
}

/*
 * aarch64's out-of-line atomics (gcc's -moutline-atomics, the default on
 * Debian): a call to __aarch64_ldadd4_relax(v, p) and the like is an atomic
 * read-modify-write of what its pointer argument points to (x1; a
 * compare-and-swap's is x2): made a memory operand for the walk.  The
 * helpers' starts, found before the walk (the walk reads no call graph).
 */
struct oatomic {
	uint64_t start;
	uint8_t op, bytes;		/* op: an index into ops, 5 the compare-and-swap */
};

static struct oatomic *outline_atomics(struct callgraph *cg, size_t *nr)
{
	static const char *const ops[] = { "ldadd", "ldset", "ldclr", "ldeor", "swp", "cas" };
	const uint64_t *starts;
	struct oatomic *v = NULL;
	size_t n, cap = 0;

	*nr = 0;
	starts = callgraph_starts(cg, &n);
	for (size_t i = 0; i < n; i++) {
		const char *name = NULL, *p;
		char *e;
		unsigned long bytes;

		callgraph_func_end(cg, starts[i], &name);
		if (!name || strncmp(name, "__aarch64_", 10))
			continue;
		p = name + 10;
		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			size_t l = strlen(ops[k]);

			if (strncmp(p, ops[k], l))
				continue;
			bytes = strtoul(p + l, &e, 10);
			if (e == p + l || *e != '_' || (bytes != 1 && bytes != 2 && bytes != 4 &&
							 bytes != 8 && bytes != 16))
				break;
			if (ARRAY_GROW(v, cap, *nr + 1)) {
				free(v);
				*nr = 0;
				return NULL;
			}
			v[(*nr)++] = (struct oatomic){ starts[i], (uint8_t)k, (uint8_t)bytes };
			break;
		}
	}
	return v;
}

static void outline_atomic(struct insn *in, const struct oatomic *oa, size_t nr)
{
	size_t k;

	if (!in->call || !in->target)
		return;
	k = PARTITION_POINT(0, nr, mid, oa[mid].start < in->target);
	if (k >= nr || oa[k].start != in->target)
		return;
	in->ty_op = TY_MEM;
	in->ty_base = oa[k].op == 5 ? 3 : 2;	/* x2, x1: DWARF's register plus one */
	in->ty_index = 0;
	in->ty_disp = 0;
	in->ty_size = oa[k].bytes;
	in->ty_access = ACC_RMW;
	in->atomic = true;
	in->counter_op = oa[k].op == 0;
}

/*
 * The walk of every function, on as many threads as the process may use,
 * while the globals' scan runs: the functions in runs of consecutive ones
 * (chunks), each walked by one thread with a DWARF handle of its own
 * (inline_twin), the accesses joined in the functions' order afterwards
 * (share_types_scan), where what depends on the finished call graph is
 * added.  What a chunk holds is what one thread walking them all finds: the
 * output does not depend on the threads.
 */
struct tfn {
	uint64_t start, end;
};

static const char *shared_memory_call(const struct mycl_share *s);

struct tchunk {
	size_t from, to;		/* fns[from..to) */
	uint64_t longest;		/* its longest function's bytes */
	struct share_tacc *v;		/* heat, root, once, fname unset; expr: any write's, owned */
	size_t n, cap;
	size_t walked;
};

struct tworker {
	struct share_twalk *tw;
	struct dso *dso;		/* a twin of the analysis's, or (joining last) its own */
	bool twin;			/* DSO is a twin: the thread frees it when done */
	struct insn *v;			/* the function decoded (kept from one to the next) */
	size_t cap;
	pthread_t tid;
};

struct share_twalk {
	struct elf_image *img;
	struct tfn *fns;
	struct oatomic *oa;
	size_t nr_oa;
	struct tchunk *chunks;
	size_t nr_chunks;
	size_t *order;			/* the chunks as taken: the longest functions first */
	atomic_size_t next;
	atomic_int err;
	/* the threads still walking: the last one's done wakes the joining thread */
	pthread_mutex_t lock;
	pthread_cond_t done;
	size_t walking;
	struct tworker k[MAX_TYPE_THREADS];
	size_t nk;
};

/* The accesses of the function at [START, END) to members of types, into OUT. */
static int function_accesses(struct tworker *k, struct disasm *d, struct dt_memo *memo,
			     struct tchunk *out, uint64_t start, uint64_t end)
{
	struct share_twalk *tw = k->tw;
	uint16_t machine = elf_image_machine(tw->img);
	const uint8_t *code = elf_image_code(tw->img, start, end - start);
	struct insn *v;
	struct dt_result r;
	size_t n = 0;
	int err;

	if (!code)
		return 0;
	err = disasm_range_into(d, code, end - start, start, &k->v, &k->cap, &n);
	v = k->v;
	if (err)
		return err == -ENOMEM ? err : 0;
	for (size_t i = 0; machine == 183 /* EM_AARCH64 */ && i < n; i++)
		outline_atomic(&v[i], tw->oa, tw->nr_oa);
	err = datatype_walk_memo(k->dso, machine, v, n, &r, memo);
	if (err)
		return err;
	for (size_t i = 0; i < n && !err; i++) {
		const struct dt_access *a = &r.v[i];
		char *expr = NULL;
		uint8_t acc = a->access;

		if ((a->where != DT_HEAP && a->where != DT_GLOBAL) || a->unknown || !a->type_die ||
		    (acc != ACC_READ && acc != ACC_WRITE && acc != ACC_RMW) || a->offset < 0 ||
		    a->offset > MAX_TYPE_SIZE)
			continue;
		if (ARRAY_GROW(out->v, out->cap, out->n + 1) ||
		    (acc != ACC_READ && a->expr && !(expr = strdup(a->expr)))) {
			err = -ENOMEM;
			break;
		}
		out->v[out->n++] = (struct share_tacc){
			.expr = expr,
			.addr = v[i].addr, .end = v[i].addr + v[i].size, .func = start,
			.die = a->type_die,
			.off = (uint32_t)a->offset, .size = (uint32_t)(a->size < 1u << 20 ? a->size : 0),
			.access = acc,
			.atomic = v[i].atomic,
			.counter = (acc == ACC_RMW && v[i].counter_op) ||
				   (acc == ACC_WRITE && stored_increment(v, &r, i)),
			.element = a->element,
			.via_global = a->via_global || a->where == DT_GLOBAL };
	}
	datatype_free(&r);
	return err;
}

/* Takes chunks until none is left (or a thread failed). */
static void *types_worker(void *arg)
{
	struct tworker *k = arg;
	struct share_twalk *tw = k->tw;
	struct dt_memo *memo = datatype_memo_new();
	struct disasm *d = NULL;
	int err = memo ? disasm_for_image(&d, tw->img) : -ENOMEM;

	if (!err) {
		datatype_memo_lean(memo);
		disasm_set_type_facts(d, true);
		disasm_set_text(d, false);
	}
	while (!err && !atomic_load(&tw->err)) {
		size_t c = atomic_fetch_add(&tw->next, 1);
		struct tchunk *ch;

		if (c >= tw->nr_chunks)
			break;
		ch = &tw->chunks[tw->order[c]];
		for (size_t f = ch->from; f < ch->to && !err; f++) {
			ch->walked++;
			err = function_accesses(k, d, memo, ch, tw->fns[f].start, tw->fns[f].end);
		}
	}
	if (err) {
		int none = 0;

		atomic_compare_exchange_strong(&tw->err, &none, err);
	}
	disasm_close(d);
	datatype_memo_free(memo);
	free(k->v);
	k->v = NULL;
	pthread_mutex_lock(&tw->lock);
	if (k->twin && !--tw->walking)
		pthread_cond_signal(&tw->done);
	pthread_mutex_unlock(&tw->lock);
	if (k->twin) {
		/* (its DWARF freed here, while the others still walk) */
		inline_twin_free(k->dso);
		k->dso = NULL;
	}
	return NULL;
}

/* The functions to walk: those the debug info describes, within the walk's limits. */
static struct tfn *types_functions(struct mycl_share *s, struct callgraph *cg, size_t *nr,
				   uint64_t *bytes)
{
	size_t n;
	const uint64_t *starts = callgraph_starts(cg, &n);
	struct tfn *fns = malloc((n ? n : 1) * sizeof(*fns));

	*nr = 0;
	*bytes = 0;
	for (size_t i = 0; fns && i < n; i++) {
		uint64_t end = callgraph_func_end(cg, starts[i], NULL);

		if (i + 1 < n && (!end || end > starts[i + 1]))
			end = starts[i + 1];
		if (!end || end <= starts[i] || end - starts[i] > MAX_FUNC_BYTES ||
		    !described(s, starts[i], end))
			continue;
		fns[(*nr)++] = (struct tfn){ starts[i], end };
		*bytes += end - starts[i];
	}
	return fns;
}

/* NR functions of BYTES in all into chunks of about equal code, for THREADS threads. */
static struct tchunk *types_chunks(const struct tfn *fns, size_t nr, uint64_t bytes, int threads,
				   size_t *nr_chunks)
{
	size_t want = threads > 1 ? (size_t)threads * CHUNKS_PER_THREAD : 1;
	struct tchunk *ch = calloc(want, sizeof(*ch));
	uint64_t done = 0;
	size_t c = 0;

	if (!ch)
		return NULL;
	for (size_t f = 0; f < nr; f++) {
		done += fns[f].end - fns[f].start;
		if (fns[f].end - fns[f].start > ch[c].longest)
			ch[c].longest = fns[f].end - fns[f].start;
		/* (a chunk ends where the code done passes its share of all) */
		if (c + 1 < want && done * want >= bytes * (c + 1)) {
			ch[c].to = f + 1;
			ch[++c].from = f + 1;
		}
	}
	ch[c].to = nr;
	*nr_chunks = c + 1;
	return ch;
}

static int by_longest(const void *a, const void *b, void *arg)
{
	const struct tchunk *ch = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (ch[x].longest != ch[y].longest)
		return ch[x].longest > ch[y].longest ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void twalk_free(struct share_twalk *tw)
{
	if (!tw)
		return;
	for (size_t c = 0; tw->chunks && c < tw->nr_chunks; c++) {
		for (size_t i = 0; i < tw->chunks[c].n; i++)
			free((char *)tw->chunks[c].v[i].expr);
		free(tw->chunks[c].v);
	}
	free(tw->chunks);
	free(tw->order);
	free(tw->fns);
	free(tw->oa);
	pthread_mutex_destroy(&tw->lock);
	pthread_cond_destroy(&tw->done);
	free(tw);
}

int share_types_start(struct mycl_share *s, struct elf_image *img, struct callgraph *cg)
{
	struct share_twalk *tw;
	int threads = cpus_available();
	uint64_t bytes;
	size_t nr;

	s->types_done = true;
	s->shm_call = shared_memory_call(s);
	if (!inline_dwarf(s->dso))
		return 0;
	tw = calloc(1, sizeof(*tw));
	if (!tw)
		return -ENOMEM;
	tw->img = img;
	tw->fns = types_functions(s, cg, &nr, &bytes);
	if (elf_image_machine(img) == 183 /* EM_AARCH64 */)
		tw->oa = outline_atomics(cg, &tw->nr_oa);
	if (threads > MAX_TYPE_THREADS)
		threads = MAX_TYPE_THREADS;
	/* (MYCL_TYPE_THREADS: off, none; on, at least two threads whatever the functions) */
	if (tuning_get()->type_threads == MYCL_SWITCH_ON && threads < 2)
		threads = 2;
	else if (tuning_get()->type_threads == MYCL_SWITCH_OFF ||
		 (tuning_get()->type_threads != MYCL_SWITCH_ON &&
		  nr < (size_t)threads * MIN_FUNCS_PER_THREAD))
		threads = 1;
	tw->chunks = tw->fns ? types_chunks(tw->fns, nr, bytes, threads, &tw->nr_chunks) : NULL;
	tw->order = tw->chunks ? malloc(tw->nr_chunks * sizeof(*tw->order)) : NULL;
	if (!tw->order) {
		twalk_free(tw);
		return -ENOMEM;
	}
	/* (a long function walked last would keep the others waiting) */
	for (size_t c = 0; c < tw->nr_chunks; c++)
		tw->order[c] = c;
	qsort_r(tw->order, tw->nr_chunks, sizeof(*tw->order), by_longest, tw->chunks);
	atomic_init(&tw->next, 0);
	atomic_init(&tw->err, 0);
	pthread_mutex_init(&tw->lock, NULL);
	pthread_cond_init(&tw->done, NULL);
	s->twalk = tw;
	/*
	 * Threads with twins of the binary's DWARF from now on, while this one
	 * scans for the globals; this one joins them when it is done
	 * (share_types_scan).  One CPU: it walks alone then.
	 */
	for (int t = 1; t < threads; t++) {
		struct tworker *k = &tw->k[tw->nk];

		*k = (struct tworker){ .tw = tw, .dso = inline_twin(s->dso), .twin = true };
		if (!k->dso)
			break;
		tw->walking++;
		if (pthread_create(&k->tid, NULL, types_worker, k)) {
			tw->walking--;
			inline_twin_free(k->dso);
			break;
		}
		tw->nk++;
	}
	return 0;
}

/* Waits for the walk's threads (the analysis failed elsewhere, or joins). */
static void types_stop(struct share_twalk *tw)
{
	for (size_t t = 0; t < tw->nk; t++)
		pthread_join(tw->k[t].tid, NULL);
	tw->nk = 0;
}

/* This thread's part of the walk, the threads' joined: the accesses into S->taccs. */
static int walk_types(struct mycl_share *s, struct callgraph *cg)
{
	struct share_twalk *tw = s->twalk;
	struct tworker self = { .tw = tw, .dso = s->dso };
	int err;

	types_worker(&self);
	/* (the threads free their DWARF after they are done: joined later) */
	pthread_mutex_lock(&tw->lock);
	while (tw->walking)
		pthread_cond_wait(&tw->done, &tw->lock);
	pthread_mutex_unlock(&tw->lock);
	err = atomic_load(&tw->err);
	/* joined in the functions' order, each function's name kept once */
	for (size_t c = 0; c < tw->nr_chunks && !err; c++) {
		struct tchunk *ch = &tw->chunks[c];
		const char *fname = NULL;
		uint64_t func = 0;

		s->types_walked += ch->walked;
		if (ARRAY_GROW(s->taccs, s->taccs_cap, s->nr_taccs + ch->n)) {
			err = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < ch->n && !err; i++) {
			struct share_tacc t = ch->v[i];
			uint8_t heat = (uint8_t)callgraph_heat(cg, t.addr);

			ch->v[i].expr = NULL;
			if (!fname || t.func != func) {
				func = t.func;
				if (!(fname = func_name(s, cg, func)))
					err = -ENOMEM;
			}
			/* (a hot write's words kept) */
			if (t.expr && heat != HEAT_HOT) {
				free((char *)t.expr);
				t.expr = NULL;
			}
			if (!err && t.expr && !(t.expr = share_keep(s, (char *)t.expr)))
				err = -ENOMEM;
			if (err) {
				free((char *)t.expr);
				break;
			}
			t.fname = fname;
			t.heat = heat;
			t.root = callgraph_thread_root(cg, t.addr);
			t.once = callgraph_once_at(cg, t.addr);
			s->taccs[s->nr_taccs++] = t;
		}
	}
	return err;
}

/* ---- naming the types ---- */

struct cand {
	uint64_t die;			/* the type entry the walk named */
	uint64_t sdie;			/* ... its struct, class or union */
	char *name;
	uint64_t size;
	uint32_t type;
};

static int cand_by_name(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->die < y->die ? -1 : x->die > y->die;
}

static int cand_by_die(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return x->die < y->die ? -1 : x->die > y->die;
}

static int tacc_by_die(const void *a, const void *b)
{
	const struct share_tacc *x = a, *y = b;

	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int tacc_by_addr(const void *a, const void *b)
{
	const struct share_tacc *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The name of the struct, class or union behind entry DIE, and that type: false when none. */
static bool type_name_of(Dwarf *dw, uint64_t die, Dwarf_Die *st, char *buf, size_t len)
{
	Dwarf_Die t;
	const char *n;

	if (!dwarf_offdie(dw, die, &t))
		return false;
	*st = t;
	if (!inline_strip_type(st) || !record_tag(dwarf_tag(st)) || dwarf_hasattr(st, DW_AT_declaration))
		return false;
	n = dwarf_diename(st);
	if (n)
		type_words(st, buf, len, 0);
	else if (dwarf_tag(&t) == DW_TAG_typedef && dwarf_diename(&t))
		snprintf(buf, len, "%s", dwarf_diename(&t));
	else
		return false;	/* an anonymous type inside another: its members are the outer's */
	return true;
}

/* ---- members and their accesses ---- */

/*
 * A union's members that only pad it to a size (char pad[LINE] beside the
 * real member, PostgreSQL's LWLockPadded): an array of bytes, when the union
 * has another member.
 */
static bool pad_member(Dwarf_Die *m)
{
	Dwarf_Attribute at;
	Dwarf_Die t, e;

	if (!dwarf_attr_integrate(m, DW_AT_type, &at) || !dwarf_formref_die(&at, &t) ||
	    !inline_strip_type(&t) || dwarf_tag(&t) != DW_TAG_array_type ||
	    !dwarf_attr_integrate(&t, DW_AT_type, &at) || !dwarf_formref_die(&at, &e))
		return false;
	return die_size(&e) == 1;
}

/*
 * The layout of type ST: its leaves, sorted, bytes shared by several (bit
 * fields) merged into one.  A union is laid out as its widest real member
 * (what pads it counts as padding: *PADDED_BY gets its size).
 */
static int layout(Dwarf_Die *st, uint64_t size, struct flat *f, uint64_t *padded_by)
{
	int err = 0;

	*padded_by = 0;
	if (dwarf_tag(st) == DW_TAG_union_type) {
		Dwarf_Die c, best;
		uint64_t bsz = 0;
		int n = 0, pads = 0;

		if (dwarf_child(st, &c) == 0) {
			do {
				Dwarf_Attribute at;
				Dwarf_Die mt;
				uint64_t z;

				if (dwarf_tag(&c) != DW_TAG_member || ++n > MAX_LEAVES ||
				    !dwarf_attr_integrate(&c, DW_AT_type, &at) ||
				    !dwarf_formref_die(&at, &mt))
					continue;
				z = die_size(&mt);
				if (pad_member(&c)) {
					pads++;
					if (z > *padded_by)
						*padded_by = z;
					continue;
				}
				if (z > bsz) {
					bsz = z;
					best = c;
				}
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		if (!bsz && pads)
			return 0;
		if (bsz) {
			Dwarf_Attribute at;
			Dwarf_Die mt, s2;
			const char *mn = dwarf_diename(&best);

			if (dwarf_attr_integrate(&best, DW_AT_type, &at) && dwarf_formref_die(&at, &mt)) {
				s2 = mt;
				if (inline_strip_type(&s2) && (dwarf_tag(&s2) == DW_TAG_structure_type ||
							dwarf_tag(&s2) == DW_TAG_class_type))
					err = flatten(f, &s2, 0, bsz, mn ? mn : "", 1);
				if (!err && !f->n)
					err = add_leaf(f, mn ? mn : "?", &mt, 0, bsz);
			}
		}
		if (*padded_by <= bsz)
			*padded_by = 0;
	} else {
		err = flatten(f, st, 0, size, "", 0);
	}
	if (err)
		return err;
	sort_array(f->v, f->n, sizeof(*f->v), leaf_cmp);
	/* bit fields and overlapping members: one leaf per run of shared bytes */
	{
		size_t o = 0;

		for (size_t i = 0; i < f->n; i++) {
			struct leaf *p = o ? &f->v[o - 1] : NULL;

			if (p && f->v[i].off < p->off + (p->size ? p->size : 1)) {
				char *nm = NULL, *bare = p->name;
				size_t bl = strlen(bare);

				if (bl && bare[0] == '{' && bare[bl - 1] == '}')
					nm = str_printf("%.*s,%s}", (int)(bl - 1), bare, f->v[i].name);
				else
					nm = str_printf("{%s,%s}", bare, f->v[i].name);
				if (!nm)
					return -ENOMEM;
				if (f->v[i].off + f->v[i].size > p->off + p->size)
					p->size = f->v[i].off + f->v[i].size - p->off;
				free(p->name);
				p->name = nm;
				p->sync |= f->v[i].sync;
				free(f->v[i].name);
				free(f->v[i].type);
				continue;
			}
			f->v[o++] = f->v[i];
		}
		f->n = o;
	}
	return 0;
}

static void flat_free(struct flat *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].type);
	}
	free(f->v);
}

/* The member of type T holding byte OFF, or UINT32_MAX. */
static uint32_t member_at(const struct mycl_share *s, const struct mycl_share_type *t, uint64_t off)
{
	const struct mycl_share_member *m = t->members;
	size_t k = PARTITION_POINT(0, t->nr_members, mid, m[mid].offset <= off);

	if (!k || off >= m[k - 1].offset + (m[k - 1].size ? m[k - 1].size : 1))
		return UINT32_MAX;
	return (uint32_t)(&m[k - 1] - s->tmembers);
}

static bool runtime_heat(uint8_t h)
{
	return h == HEAT_HOT || h == HEAT_WARM || h == HEAT_UNKNOWN;
}

static bool is_write(uint8_t a)
{
	return a == ACC_WRITE || a == ACC_RMW;
}

/* Each type's members and what the accesses do to them. */
static int count_members(struct mycl_share *s, struct callgraph *cg)
{
	for (size_t i = 0; i < s->nr_taccs; i++) {
		struct share_tacc *a = &s->taccs[i];
		struct mycl_share_type *t;
		struct mycl_share_member *m;
		bool w = is_write(a->access), hot = a->heat == HEAT_HOT && !a->once;

		if (a->type == UINT32_MAX)
			continue;
		t = &s->types[a->type];
		t->accesses++;
		a->member = member_at(s, t, a->off);
		if (hot && s->tinfo[a->type].root != ROOT_MIXED) {
			uint64_t *r = &s->tinfo[a->type].root;

			*r = !*r && a->root ? a->root : *r == a->root ? *r : ROOT_MIXED;
		}
		s->tinfo[a->type].atomics += a->atomic;
		if (hot) {
			s->tinfo[a->type].via_global += a->via_global;
			/*
			 * (a thread's code started more than once, or in a loop; a root not
			 * known, a callback's, says nothing of how many threads run it)
			 */
			s->tinfo[a->type].several |= a->root && !callgraph_one_thread(cg, a->root);
			s->tinfo[a->type].unknown_root |= !a->root;
		}
		if (a->member == UINT32_MAX)
			continue;
		m = &s->tmembers[a->member];
		if (w) {
			if (hot) {
				m->hot_writes++;
				t->hot_writes++;
				if (!m->example)
					m->example = a->expr;
				if (!m->writer)
					m->writer = a->fname;
			}
			if (runtime_heat(a->heat) && !a->once) {
				m->runtime_writes++;
				m->element_writes += a->element;
				/* (an add to a pointer moves it: it counts nothing) */
				m->counters += a->counter && !strchr(m->type, '*');
				if (!m->writer)
					m->writer = a->fname;
			} else {
				m->startup_writes++;
			}
			m->atomics += a->atomic;
		} else if (runtime_heat(a->heat)) {
			m->runtime_reads++;
			if (a->heat == HEAT_HOT) {
				m->hot_reads++;
				if (!m->reader)
					m->reader = a->fname;
			}
		}
		if (!m->reader && !w && runtime_heat(a->heat))
			m->reader = a->fname;
	}
	for (size_t k = 0; k < s->nr_types; k++) {
		struct share_tinfo *ti = &s->tinfo[k];

		ti->one_thread = ti->root && ti->root != ROOT_MIXED &&
				 callgraph_one_thread(cg, ti->root);
	}
	return 0;
}

static int make_types(struct mycl_share *s, Dwarf *dw)
{
	struct cand *c = NULL;
	size_t nc = 0, cap = 0;
	int err = 0;

	sort_array(s->taccs, s->nr_taccs, sizeof(*s->taccs), tacc_by_die);
	for (size_t i = 0; i < s->nr_taccs; i++) {
		char name[256];
		Dwarf_Die st;

		if (i && s->taccs[i].die == s->taccs[i - 1].die)
			continue;
		if (!type_name_of(dw, s->taccs[i].die, &st, name, sizeof(name)))
			continue;
		if (ARRAY_GROW(c, cap, nc + 1) || !(c[nc].name = strdup(name))) {
			err = -ENOMEM;
			goto out;
		}
		c[nc].die = s->taccs[i].die;
		c[nc].sdie = dwarf_dieoffset(&st);
		c[nc].size = die_size(&st);
		c[nc].type = UINT32_MAX;
		nc++;
	}
	sort_array(c, nc, sizeof(*c), cand_by_name);
	for (size_t i = 0; i < nc; i++) {
		struct flat f = { 0 };
		Dwarf_Die st;
		uint64_t padded_by;
		struct mycl_share_type *t;

		if (i && !strcmp(c[i].name, c[i - 1].name) && c[i].size == c[i - 1].size) {
			c[i].type = c[i - 1].type;
			continue;
		}
		if (!c[i].size || c[i].size > MAX_TYPE_SIZE || !dwarf_offdie(dw, c[i].sdie, &st))
			continue;
		err = layout(&st, c[i].size, &f, &padded_by);
		if (err || !f.n) {
			flat_free(&f);
			if (err)
				goto out;
			continue;
		}
		if (ARRAY_GROW(s->types, s->types_cap, s->nr_types + 1) ||
		    ARRAY_GROW(s->tinfo, s->tinfo_cap, s->nr_types + 1) ||
		    ARRAY_GROW(s->tmembers, s->tmembers_cap, s->nr_tmembers + f.n)) {
			flat_free(&f);
			err = -ENOMEM;
			goto out;
		}
		t = &s->types[s->nr_types];
		memset(t, 0, sizeof(*t));
		memset(&s->tinfo[s->nr_types], 0, sizeof(s->tinfo[0]));
		t->name = share_keep(s, strdup(c[i].name));
		t->size = c[i].size;
		t->align = die_align(&st, 0);
		{
			Dwarf_Attribute at;

			t->align_declared = dwarf_hasattr_integrate(&st, DW_AT_alignment) ||
					    dwarf_attr_integrate(&st, DW_AT_alignment, &at);
		}
		t->padded_by = padded_by;
		t->truncated = f.truncated;
		s->tinfo[s->nr_types].library = share_library_type(&st);
		s->tinfo[s->nr_types].first = s->nr_tmembers;
		for (size_t k = 0; k < f.n; k++) {
			struct mycl_share_member *m = &s->tmembers[s->nr_tmembers + k];

			memset(m, 0, sizeof(*m));
			m->name = share_keep(s, f.v[k].name);
			m->type = share_keep(s, f.v[k].type);
			f.v[k].name = f.v[k].type = NULL;
			m->offset = f.v[k].off;
			m->size = f.v[k].size;
			m->sync = f.v[k].sync;
		}
		t->nr_members = f.n;
		s->nr_tmembers += f.n;
		flat_free(&f);
		c[i].type = (uint32_t)s->nr_types++;
	}
	/* (the members' storage moved while it grew: pointers set now) */
	for (size_t k = 0; k < s->nr_types; k++)
		s->types[k].members = &s->tmembers[s->tinfo[k].first];
	sort_array(c, nc, sizeof(*c), cand_by_die);
	for (size_t i = 0; i < s->nr_taccs; i++) {
		struct cand key = { .die = s->taccs[i].die };
		struct cand *hit = nc ? bsearch(&key, c, nc, sizeof(*c), cand_by_die) : NULL;

		s->taccs[i].type = hit ? hit->type : UINT32_MAX;
	}
out:
	for (size_t i = 0; i < nc; i++)
		free(c[i].name);
	free(c);
	return err;
}

static int order_cmp(const void *a, const void *b, void *arg)
{
	const struct share_tacc *t = arg;
	const struct share_tacc *x = &t[*(const uint32_t *)a], *y = &t[*(const uint32_t *)b];

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->member != y->member)
		return x->member < y->member ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The accesses by type, then function: each type's range of them. */
static int order_by_type(struct mycl_share *s)
{
	size_t n = 0;

	s->torder = malloc((s->nr_taccs ? s->nr_taccs : 1) * sizeof(*s->torder));
	if (!s->torder)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_taccs; i++)
		if (s->taccs[i].type != UINT32_MAX)
			s->torder[n++] = (uint32_t)i;
	if (n)
		qsort_r(s->torder, n, sizeof(*s->torder), order_cmp, s->taccs);
	for (size_t i = 0; i < n; i++) {
		struct share_tinfo *ti = &s->tinfo[s->taccs[s->torder[i]].type];

		if (!i || s->taccs[s->torder[i - 1]].type != s->taccs[s->torder[i]].type)
			ti->ofirst = i;
		ti->oend = i + 1;
	}
	return 0;
}

void share_types_end(struct mycl_share *s)
{
	int none = 0;

	if (!s->twalk)
		return;
	atomic_compare_exchange_strong(&s->twalk->err, &none, -ECANCELED);
	types_stop(s->twalk);
	twalk_free(s->twalk);
	s->twalk = NULL;
}

void share_types_free(struct mycl_share *s)
{
	share_types_end(s);
	free(s->taccs);
	free(s->torder);
	free(s->types);
	free(s->tinfo);
	free(s->tmembers);
	s->taccs = NULL;
	s->torder = NULL;
	s->types = NULL;
	s->tinfo = NULL;
	s->tmembers = NULL;
	s->nr_taccs = s->nr_types = s->nr_tmembers = 0;
}

/*
 * The call that maps memory several processes share (System V or POSIX
 * shared memory), when the binary makes one: its objects there are shared
 * as threads' heap is, threads or not (PostgreSQL's buffer pool).
 */
static const char *shared_memory_call(const struct mycl_share *s)
{
	static const char *const calls[] = { "shmget", "shmat", "shm_open" };

	for (size_t i = 0; i < s->dso->syms.nr; i++) {
		const char *n = s->dso->syms.syms[i].name;

		for (size_t k = 0; n && k < sizeof(calls) / sizeof(calls[0]); k++) {
			size_t l = strlen(calls[k]);

			if (!strncmp(n, calls[k], l) && (!n[l] || !strcmp(n + l, "@plt")))
				return calls[k];
		}
	}
	return NULL;
}

/*
 * Whether the debug info is split (-gsplit-dwarf): skeleton units whose
 * variables and types are in .dwo files, which the walk does not read.
 */
static bool split_dwarf(Dwarf *dw)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t ut;
	int n = 0;

	while (n++ < 100000 && dwarf_get_units(dw, cu, &cu, NULL, &ut, &cudie, NULL) == 0) {
		if (ut == DW_UT_skeleton || dwarf_hasattr(&cudie, DW_AT_GNU_dwo_name) ||
		    dwarf_hasattr(&cudie, DW_AT_dwo_name))
			return true;
	}
	return false;
}

/*
 * Every function the debug info describes, walked for its data types: the
 * accesses of struct, class and union types, by member.
 */
int share_types_scan(struct mycl_share *s, struct callgraph *cg)
{
	Dwarf *dw = inline_dwarf(s->dso);
	int err;

	if (!s->twalk)
		return 0;
	err = walk_types(s, cg);
	/* (the walk's threads joined and its storage freed with share_types_end) */
	if (!err)
		s->split_dwarf = split_dwarf(dw);
	if (!err)
		err = make_types(s, dw);
	if (!err)
		err = count_members(s, cg);
	sort_array(s->taccs, s->nr_taccs, sizeof(*s->taccs), tacc_by_addr);
	if (!err)
		err = order_by_type(s);
	return err;
}

/* A sample on the instruction at VADDR: to the member it touches (skid: the one before). */
void share_types_credit(struct mycl_share *s, uint64_t vaddr, uint64_t samples)
{
	size_t lo = PARTITION_POINT(0, s->nr_taccs, mid, s->taccs[mid].addr < vaddr);
	const struct share_tacc *r = lo < s->nr_taccs && s->taccs[lo].addr == vaddr ?
				     &s->taccs[lo] : NULL;
	const struct share_tacc *p = lo > 0 && s->taccs[lo - 1].end == vaddr ? &s->taccs[lo - 1] :
				     NULL;

	if (p && (!r || (p->atomic && !r->atomic)) && !share_ref_at(s, vaddr, false))
		r = p;
	if (!r || r->type == UINT32_MAX)
		return;
	s->types[r->type].samples += samples;
	if (r->member != UINT32_MAX) {
		s->tmembers[r->member].samples += samples;
		if (is_write(r->access))
			s->tmembers[r->member].sampled_writes += samples;
	}
}
