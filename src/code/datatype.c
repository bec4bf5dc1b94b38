/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Data types of memory operands.  A forward data-flow walk over one
 * function's instructions: at each address the registers and frame slots
 * DWARF describes (a parameter in %rdi, a local at CFA-24) give their
 * variables' types, and the code carries them on: a load of a pointer member
 * gives its pointee, a move copies, lea and additions move inside an object or
 * step through an array, stores to the frame spill.  Where paths meet, a
 * register keeps what every path agrees on.  A memory operand is then named
 * by the object its base register points to and the member at its offset.
 */
#include <dwarf.h>
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>
#include "datatype.h"
#include "dwarf_locs.h"
#include "dso.h"
#include "inline.h"
#include "internal.h"
#include "itable.h"
#include "symtab.h"

#define EM_X86_64_ 62
#define EM_AARCH64_ 183

#define NR_REGS 33			/* DWARF 0-32: x86_64's 17, aarch64's x0-x30 and sp */
#define NR_SLOTS 16			/* frame slots followed (spills) */
#define MAX_INSNS 65536			/* a longer function is not walked */
#define MAX_VISITS 24			/* an instruction's state met at most this often */
#define MAX_VARS 4096
#define NAME_MAX_LEN 200

enum { R_UNKNOWN = 0, R_PTR, R_CFA };

/* What a register holds. */
struct rv {
	uint8_t kind;
	uint8_t where;			/* R_PTR: enum dt_where of the object */
	bool obj;			/* R_PTR: NAME is the object itself (g, a local), not a pointer */
	bool indexed;			/* R_PTR: an index of unknown value was added (an array's element) */
	bool groot;			/* R_PTR: a pointer read out of a global (directly or along a chain) */
	bool elem;			/* R_PTR: an array's element, as the flow saw before DWARF named it */
	int32_t name;			/* R_PTR: the expression it holds, in the walk's names; -1 */
	int64_t off;			/* R_PTR: bytes into the object; R_CFA: the value minus the CFA */
	Dwarf_Off type;			/* R_PTR: the object's type (typedefs kept) */
};

struct state {
	bool seen;
	uint8_t nr_slots;
	uint16_t visits;
	struct rv r[NR_REGS];
	struct { int64_t off; struct rv v; } slot[NR_SLOTS];	/* CFA-relative spills */
};

/* *D = *S, the slots S does not use left out. */
static inline void state_copy(struct state *d, const struct state *s)
{
	memcpy(d, s, offsetof(struct state, slot) + s->nr_slots * sizeof(s->slot[0]));
}

/* A variable or parameter of the function, and the scope it lives in. */
struct var {
	Dwarf_Die die, scope;
	const char *name;
	Dwarf_Off type;
	bool has_type;
	bool inlined;			/* SCOPE is an inlined function's */
	bool held_known;		/* held: what a register holding it holds, worked out once */
	struct rv held;
};

/* Where variable VAR is at an instruction. */
struct fact {
	uint32_t var;
	int16_t reg;			/* in register REG (DWARF number), or -1 */
	int16_t base;			/* in memory at BASE's value plus OFF; -1: the CFA plus OFF */
	int64_t off;
};

struct walk {
	struct dso *d;
	Dwarf *dw;
	Dwarf_Die cu, fn;
	bool have_fn, cxx;
	int32_t param_id[6];		/* the names of the function's first parameters (-1: none) */
	bool naming;			/* the final pass: every string of each access (else the flow's) */
	bool lean;			/* ... but types and members by their entries, expressions of
					 * writes and loads only (datatype_memo_lean) */
	uint16_t machine;
	const struct insn *v;
	size_t n;
	uint64_t *addrs;		/* v's addresses alone (searched without v's cache misses) */
	struct dt_result *out;
	struct var *vars;
	size_t nr_vars, cap_vars;
	bool oom;			/* collect_vars ran out of memory */
	struct fact **facts;		/* per instruction, ending with var UINT32_MAX; or NULL */
	struct fact *fact_pool;		/* ... where they are */
	bool *fact_once;		/* per instruction: its facts name no register twice */
	char **names;
	size_t nr_names, cap_names;
	struct itable name_index;	/* the names by their words: each the first of its words */
	bool *name_first;		/* per name: in the index (not a copy of an earlier one) */
	size_t cap_first;
	struct state *in;		/* per basic block, at its entry */
	bool *named;			/* per block: its accesses named under that entry state */
	uint32_t *block_of;		/* per instruction: its block */
	size_t *starts;			/* per block: its first instruction; then n */
	size_t nr_blocks;
	uint32_t *jumps_to;		/* per block: the block its last instruction branches to, or
					 * UINT32_MAX */
	struct dt_memo *memo;		/* what earlier walks found of the types (or NULL) */
	struct loc_reader *locs;	/* the location lists' reader (the memo's, or the walk's) */
};

/*
 * What walks over one binary's functions find again and again, kept across
 * them (datatype_walk_memo): a type's entry and size by its offset, its
 * printed name, what a pointer type points to, the member path and the
 * array element at an offset, and a global's entry by its symbol.
 * Direct-mapped: a slot holds the last key hashed there.
 */
#define MEMO_SLOTS 8192

/*
 * The members of each struct, class and union named through, read once:
 * by the type's entry (its address in the debug info: a type unit's
 * entries have offsets of their own), each type's run of ROWS.
 */
struct member_cache {
	struct member_set {
		const void *addr;
		size_t first, n;
	} *sets;
	size_t nr_sets, cap_sets;
	struct itable set_index;
	struct member_row *rows;
	size_t nr_rows, cap_rows;
};

struct dt_memo {
	Dwarf *dw;
	bool lean;
	struct loc_reader locs;
	struct memo_type {
		Dwarf_Off key;		/* 0: empty */
		bool ok;
		Dwarf_Die die;
		uint64_t size;
		bool aggr;
		char *name;		/* type_name's words, when asked */
	} type[MEMO_SLOTS];
	struct memo_within {
		Dwarf_Off type, want;	/* type 0: empty */
		int64_t off;
		bool yes;
	} within[MEMO_SLOTS];
	struct memo_path {
		Dwarf_Off key;		/* 0: empty */
		int64_t off;
		uint8_t size;
		bool ix;
		bool ix_out;
		Dwarf_Die mt;
		int64_t moff;
		uint64_t msize;
		char *path;
	} path[MEMO_SLOTS];
	struct memo_ptr {
		Dwarf_Off key;		/* 0: empty */
		Dwarf_Off pointee;	/* 0: the type is no pointer */
	} ptr[MEMO_SLOTS];
	struct memo_array {
		Dwarf_Off key;		/* 0: empty */
		int64_t off;
		uint64_t es;
	} array[MEMO_SLOTS];
	struct memo_global {
		uint64_t key;		/* the symbol's start; 0: empty */
		bool ok, has_type;
		Dwarf_Die die;
		const char *name;	/* the debug info's or the symbol table's */
		Dwarf_Off type;
	} global[MEMO_SLOTS];
	struct member_cache members;
};

/* A member (or base class) of a type, as naming an access at an offset needs it. */
struct member_row {
	Dwarf_Word off;
	uint64_t size;
	Dwarf_Die type;			/* its type (typedefs left on) */
	const char *name;		/* a member's, or NULL */
	bool member;			/* not a base class (DW_TAG_inheritance) */
	bool bits;			/* a bit field */
	bool flexible;			/* an array of no size: a flexible array member */
};

static void member_cache_free(struct member_cache *m)
{
	free(m->sets);
	itable_free(&m->set_index);
	free(m->rows);
}

struct dt_memo *datatype_memo_new(void)
{
	return calloc(1, sizeof(struct dt_memo));
}

void datatype_memo_lean(struct dt_memo *m)
{
	m->lean = true;
}

void datatype_memo_free(struct dt_memo *m)
{
	if (!m)
		return;
	loc_reader_free(&m->locs);
	for (size_t i = 0; i < MEMO_SLOTS; i++) {
		free(m->type[i].name);
		free(m->path[i].path);
	}
	member_cache_free(&m->members);
	free(m);
}

static size_t memo_hash(uint64_t k)
{
	k ^= k >> 29;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 32;
	return (size_t)(k % MEMO_SLOTS);
}

/* ---- strings ---- */

static const char *keep(struct dt_result *r, char *s)
{
	if (!s)
		return NULL;
	if (ARRAY_GROW(r->strs, r->cap_strs, r->nr_strs + 1)) {
		free(s);
		return NULL;
	}
	r->strs[r->nr_strs++] = s;
	return s;
}

static bool name_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	const struct walk *w = ctx;

	*h = str_hash(w->names[i]);
	return w->name_first[i];
}

/*
 * S's number among the walk's names: the first name of the same words, or a
 * new one (kept to NAME_MAX_LEN bytes: a longer S is never found again).
 */
static int32_t name_id(struct walk *w, const char *s)
{
	size_t slot, n = w->nr_names;
	char *copy;

	if (!s || !*s)
		return -1;
	if (strnlen(s, NAME_MAX_LEN + 1) <= NAME_MAX_LEN && w->name_index.cap) {
		itable_each(&w->name_index, str_hash(s), slot)
			if (!strcmp(w->names[w->name_index.slot[slot]], s))
				return (int32_t)w->name_index.slot[slot];
	}
	if (n >= INT16_MAX || ARRAY_GROW(w->names, w->cap_names, n + 1) ||
	    ARRAY_GROW(w->name_first, w->cap_first, n + 1) ||
	    (itable_full(&w->name_index, n) &&
	     itable_grow(&w->name_index, n, 64, name_hash_at, w)))
		return -1;
	copy = strndup(s, NAME_MAX_LEN);
	if (!copy)
		return -1;
	w->names[n] = copy;
	w->name_first[n] = true;
	itable_each(&w->name_index, str_hash(copy), slot)
		if (!strcmp(w->names[w->name_index.slot[slot]], copy)) {
			w->name_first[n] = false;	/* (a long name cut to an earlier one's words) */
			break;
		}
	if (w->name_first[n])
		itable_put(&w->name_index, slot, n);
	return (int32_t)w->nr_names++;
}

static const char *name_of(const struct walk *w, int32_t id)
{
	return id >= 0 && (size_t)id < w->nr_names ? w->names[id] : NULL;
}

/* ---- types ---- */

static bool die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute at;

	return dwarf_attr_integrate(die, DW_AT_type, &at) && dwarf_formref_die(&at, out);
}

static bool is_pointer(Dwarf_Die *t)
{
	int tag = dwarf_tag(t);

	return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	       tag == DW_TAG_rvalue_reference_type;
}

static uint64_t type_size(Dwarf_Die *t)
{
	Dwarf_Die s = *t;
	Dwarf_Word sz;

	if (!inline_strip_type(&s))
		return 0;
	if (is_pointer(&s))
		return 8;
	return dwarf_aggregate_size(&s, &sz) == 0 && sz < (1ull << 40) ? sz : 0;
}

/* A struct, class, union or array (after typedefs): what has members or elements. */
static bool aggregate(Dwarf_Die *t)
{
	Dwarf_Die s = *t;
	int tag;

	if (!inline_strip_type(&s))
		return false;
	tag = dwarf_tag(&s);
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_array_type;
}

/* snprintf(BUF, LEN, "%s", S) without a format to read (names are copied millions of times). */
static size_t copy_str(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s), k = n < len ? n : len - 1;

	if (len) {
		memcpy(buf, s, k);
		buf[k] = '\0';
	}
	return n;
}

static void put(char *buf, size_t len, size_t *used, const char *s)
{
	size_t k = copy_str(buf + *used, len - *used, s);

	if (k > 0)
		*used = *used + k < len ? *used + k : len - 1;
}

/* The type's name as its language writes it: "struct cache", "Latch", "long *". */
static void type_name(const struct walk *w, Dwarf_Die *t, char *buf, size_t len, size_t *used,
		      int depth)
{
	Dwarf_Die u;
	const char *name = dwarf_diename(t);
	int tag = dwarf_tag(t);

	if (depth > 8) {
		put(buf, len, used, "?");
		return;
	}
	switch (tag) {
	case DW_TAG_structure_type: case DW_TAG_class_type: case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		if (!w->cxx || !name)
			put(buf, len, used, tag == DW_TAG_union_type ? "union " :
				tag == DW_TAG_enumeration_type ? "enum " :
				tag == DW_TAG_class_type ? "class " : "struct ");
		put(buf, len, used, name ? name : "<anonymous>");
		return;
	case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
		if (die_type(t, &u))
			type_name(w, &u, buf, len, used, depth + 1);
		else
			put(buf, len, used, "void");
		put(buf, len, used, tag == DW_TAG_pointer_type ? " *" : " &");
		return;
	case DW_TAG_const_type: case DW_TAG_volatile_type: case DW_TAG_atomic_type:
	case DW_TAG_restrict_type:
		if (die_type(t, &u))
			type_name(w, &u, buf, len, used, depth + 1);
		else
			put(buf, len, used, "void");
		return;
	case DW_TAG_array_type:
		if (die_type(t, &u))
			type_name(w, &u, buf, len, used, depth + 1);
		put(buf, len, used, "[]");
		return;
	case DW_TAG_subroutine_type:
		put(buf, len, used, "(function)");
		return;
	default:
		put(buf, len, used, name ? name : "?");
		return;
	}
}

static const char *type_str(struct walk *w, Dwarf_Die *t)
{
	char buf[256];
	size_t used = 0;
	struct memo_type *m = NULL;
	Dwarf_Off key = dwarf_dieoffset(t);

	if (w->memo && key) {
		m = &w->memo->type[memo_hash(key)];
		if (m->key == key && m->name)
			return keep(w->out, strdup(m->name));
	}
	buf[0] = '\0';
	type_name(w, t, buf, sizeof(buf), &used, 0);
	if (m && m->key == key && !m->name)
		m->name = strdup(buf);
	return keep(w->out, strdup(buf));
}

/* A member's offset in bytes: DW_AT_data_member_location, or a bit field's DW_AT_data_bit_offset. */
static bool member_offset(Dwarf_Die *m, Dwarf_Word *off)
{
	Dwarf_Attribute at;
	Dwarf_Op *ops;
	size_t nops;

	*off = 0;
	if (dwarf_attr(m, DW_AT_data_member_location, &at)) {
		if (dwarf_formudata(&at, off) == 0)
			return true;
		/* DWARF 2's form: an expression adding the offset. */
		if (dwarf_getlocation(&at, &ops, &nops) == 0 && nops == 1 &&
		    ops[0].atom == DW_OP_plus_uconst) {
			*off = ops[0].number;
			return true;
		}
		return false;
	}
	if (dwarf_attr(m, DW_AT_data_bit_offset, &at) && dwarf_formudata(&at, off) == 0) {
		*off /= 8;
		return true;
	}
	return true;		/* a union's members, and the first one: at 0 */
}

/* The size of the innermost member at byte OFF of TYPE (a union's first member on the way). */
static uint64_t inner_size(Dwarf_Die *type, int64_t off)
{
	Dwarf_Die t = *type, c, ct;

	for (int depth = 0; depth < 12 && inline_strip_type(&t); depth++) {
		int tag = dwarf_tag(&t);
		bool in = false;

		if (tag == DW_TAG_array_type && die_type(&t, &ct)) {
			uint64_t es = type_size(&ct);

			if (!es || off < 0)
				break;
			off %= (int64_t)es;
			t = ct;
			continue;
		}
		if ((tag != DW_TAG_structure_type && tag != DW_TAG_class_type &&
		     tag != DW_TAG_union_type) || off < 0 || dwarf_child(&t, &c) != 0)
			break;
		do {
			Dwarf_Word mo;

			if (dwarf_tag(&c) != DW_TAG_member || !member_offset(&c, &mo) ||
			    !die_type(&c, &ct) || (uint64_t)off < mo ||
			    (uint64_t)off >= mo + type_size(&ct))
				continue;
			off -= (int64_t)mo;
			t = ct;
			in = true;
			break;
		} while (dwarf_siblingof(&c, &c) == 0);
		if (!in)
			break;
	}
	return type_size(&t);
}

/* The bit fields of struct T (at byte BASE) in the SIZE bytes at OFF: "{open,audited,zone}". */
static void bit_fields(Dwarf_Die *t, int64_t base, int64_t off, uint64_t size, char *buf,
		       size_t len, size_t *used)
{
	Dwarf_Die c;
	int n = 0;
	size_t at = *used;

	if (dwarf_child(t, &c) != 0)
		return;
	put(buf, len, used, "{");
	do {
		Dwarf_Attribute a;
		Dwarf_Word bits, bitoff, mo;
		int64_t first, last;

		if (dwarf_tag(&c) != DW_TAG_member || !dwarf_diename(&c) ||
		    !dwarf_attr(&c, DW_AT_bit_size, &a) || dwarf_formudata(&a, &bits) ||
		    !member_offset(&c, &mo))
			continue;
		bitoff = dwarf_attr(&c, DW_AT_data_bit_offset, &a) && !dwarf_formudata(&a, &bitoff) ?
			 bitoff : mo * 8;
		first = (int64_t)(bitoff / 8);
		last = (int64_t)((bitoff + bits - 1) / 8);
		if (last < off || first >= off + (int64_t)(size ? size : 1))
			continue;
		put(buf, len, used, n++ ? "," : "");
		put(buf, len, used, dwarf_diename(&c));
	} while (dwarf_siblingof(&c, &c) == 0);
	if (n == 1) {
		/* one field alone: its name, no braces */
		memmove(buf + at, buf + at + 1, *used - at);
		(*used)--;
		return;
	}
	(void)base;
	put(buf, len, used, "}");
}

/*
 * Appends the path of byte OFF inside TYPE (".stat.n_page_gets", "[i].served")
 * and returns in *MT the innermost member's type, *MOFF its offset inside the
 * outermost type, *MSIZE its size.  INDEXED: an index of unknown value is in
 * the address, so an array on the way is entered at "[i]".  SIZE: the bytes
 * accessed, to choose among a union's members.
 */
static bool set_hash(const void *ctx, size_t i, uint64_t *h)
{
	const struct member_cache *m = ctx;

	*h = u64_hash((uintptr_t)m->sets[i].addr);
	return true;
}

/* The members of struct, class or union T into M's rows: their run, NULL (out of memory). */
static const struct member_set *member_set_read(struct member_cache *m, Dwarf_Die *t)
{
	uint64_t h = u64_hash((uintptr_t)t->addr);
	struct member_set *set;
	Dwarf_Die child;
	size_t s;

	if (m->set_index.cap)
		itable_each(&m->set_index, h, s)
			if (m->sets[m->set_index.slot[s]].addr == t->addr)
				return &m->sets[m->set_index.slot[s]];
	if (ARRAY_GROW(m->sets, m->cap_sets, m->nr_sets + 1) ||
	    (itable_full(&m->set_index, m->nr_sets) &&
	     itable_grow(&m->set_index, m->nr_sets, 256, set_hash, m)))
		return NULL;
	set = &m->sets[m->nr_sets];
	*set = (struct member_set){ .addr = t->addr, .first = m->nr_rows };
	if (dwarf_child(t, &child) == 0) {
		do {
			int ctag = dwarf_tag(&child);
			struct member_row r = { .member = ctag == DW_TAG_member };

			if ((ctag != DW_TAG_member && ctag != DW_TAG_inheritance) ||
			    !member_offset(&child, &r.off) || !die_type(&child, &r.type))
				continue;
			/* (C++ static members have no offset: DW_AT_external, or DWARF 5's variable tag) */
			if (dwarf_hasattr(&child, DW_AT_external))
				continue;
			r.size = type_size(&r.type);
			r.flexible = !r.size && dwarf_tag(&r.type) == DW_TAG_array_type;
			r.bits = r.member && dwarf_hasattr(&child, DW_AT_bit_size);
			r.name = r.member ? dwarf_diename(&child) : NULL;
			if (ARRAY_GROW(m->rows, m->cap_rows, m->nr_rows + 1)) {
				m->nr_rows = set->first;
				return NULL;
			}
			m->rows[m->nr_rows++] = r;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	set->n = m->nr_rows - set->first;
	itable_each(&m->set_index, h, s)
		;
	itable_put(&m->set_index, s, m->nr_sets);
	return &m->sets[m->nr_sets++];
}

/* The members of struct, class or union T, from the memo M or read here into TMP (freed by the caller). */
static const struct member_row *members_of(struct dt_memo *memo, Dwarf_Die *t, size_t *n,
					   struct member_cache *tmp)
{
	struct member_cache *m = memo ? &memo->members : NULL;
	const struct member_set *set = m ? member_set_read(m, t) : NULL;

	if (set) {
		*n = set->n;
		return set->n ? m->rows + set->first : NULL;
	}
	set = member_set_read(tmp, t);
	*n = set ? set->n : 0;
	return *n ? tmp->rows + set->first : NULL;
}

static void path_at(struct dt_memo *memo, Dwarf_Die *type, int64_t off, uint64_t size,
		    bool *indexed, char *buf, size_t len, size_t *used, Dwarf_Die *mt, int64_t base,
		    int64_t *moff, uint64_t *msize, int depth)
{
	Dwarf_Die t = *type, ct;
	char tmp[48];
	int tag;

	if (!inline_strip_type(&t) || depth > 12)
		goto rest;
	tag = dwarf_tag(&t);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
		struct member_cache own = { 0 };
		const struct member_row *rows, *best = NULL;
		bool whole = false;
		size_t n;

		if (off < 0)
			goto rest;
		rows = members_of(memo, &t, &n, &own);
		for (size_t i = 0; i < n; i++) {
			const struct member_row *r = &rows[i];

			if ((uint64_t)off < r->off || (!r->flexible && (uint64_t)off >= r->off + r->size))
				continue;
			/*
			 * In a union, the member whose innermost part the access's size
			 * fits; in a struct, the one holding the whole access (an empty
			 * base class, std::allocator, sits at the same offset as the
			 * data after it), the last one starting of those: a class's
			 * members may lie in its base's tail padding (a base with a
			 * virtual table: 12 bytes of data, 16 of size).
			 */
			if (tag == DW_TAG_union_type) {
				ct = r->type;
				if (!best || inner_size(&ct, off - (int64_t)r->off) == size) {
					bool exact = best;

					best = r;
					if (exact)
						break;
				}
			} else if (r->flexible || (uint64_t)off + (size ? size : 1) <= r->off + r->size) {
				if (!whole || r->off > best->off)
					best = r;
				whole = true;
			} else if (!best) {
				best = r;
			}
		}
		if (!best) {
			member_cache_free(&own);
			goto rest;
		}
		if (best->bits) {
			/* bit fields: every one in the bytes accessed ({open,audited,zone}) */
			put(buf, len, used, ".");
			bit_fields(&t, (int64_t)best->off, off, size, buf, len, used);
		} else if (best->name) {
			put(buf, len, used, ".");
			put(buf, len, used, best->name);
		}
		ct = best->type;
		*mt = ct;
		*moff = base + (int64_t)best->off;
		*msize = best->size;
		base += (int64_t)best->off;
		off -= (int64_t)best->off;
		member_cache_free(&own);
		path_at(memo, &ct, off, size, indexed, buf, len, used, mt, base, moff, msize,
			depth + 1);
		return;
	}
	if (tag == DW_TAG_array_type && die_type(&t, &ct)) {
		uint64_t es = type_size(&ct);

		if (!es || off < 0)
			goto rest;
		*moff = base + off / (int64_t)es * (int64_t)es;
		if (*indexed) {
			/* any element: the member's offset is the first's */
			put(buf, len, used, "[i]");
			*indexed = false;
			*moff = base;
		} else {
			snprintf(tmp, sizeof(tmp), "[%" PRId64 "]", off / (int64_t)es);
			put(buf, len, used, tmp);
		}
		*mt = ct;
		*msize = es;
		path_at(memo, &ct, off % (int64_t)es, size, indexed, buf, len, used, mt, *moff, moff,
			msize, depth + 1);
		return;
	}
rest:
	if (off) {
		snprintf(tmp, sizeof(tmp), "%s%#" PRIx64, off < 0 ? "-" : "+",
			 off < 0 ? -(uint64_t)off : (uint64_t)off);
		put(buf, len, used, tmp);
	}
}

/* ---- variables and where they are ---- */

static void collect_vars(struct walk *w, Dwarf_Die *scope, int depth)
{
	Dwarf_Die c;
	int k = 0;		/* (depth 0: the function's parameters, in their order) */

	if (depth > 16 || dwarf_child(scope, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		bool arg = !depth && tag == DW_TAG_formal_parameter && k < 6;

		/* (the names of the first six: the calling convention's registers) */
		if (arg) {
			Dwarf_Attribute at;
			const char *name = dwarf_attr_integrate(&c, DW_AT_name, &at) ?
					   dwarf_formstring(&at) : NULL;

			w->param_id[k++] = name ? name_id(w, name) : -1;
		}
		if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) &&
		    dwarf_hasattr(&c, DW_AT_location) && w->nr_vars < MAX_VARS) {
			struct var *v;
			Dwarf_Attribute at;
			Dwarf_Die t;

			/* (grown as found: most functions have a few, a calloc of all is a page fault each) */
			if (ARRAY_GROW_ZERO(w->vars, w->cap_vars, w->nr_vars + 1)) {
				w->oom = true;
				return;
			}
			v = &w->vars[w->nr_vars];

			v->die = c;
			v->scope = *scope;
			v->inlined = dwarf_tag(scope) == DW_TAG_inlined_subroutine;
			v->name = dwarf_attr_integrate(&c, DW_AT_name, &at) ? dwarf_formstring(&at) : NULL;
			v->has_type = die_type(&c, &t);
			v->type = v->has_type ? dwarf_dieoffset(&t) : 0;
			if (v->name)
				w->nr_vars++;
		} else if (tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) {
			collect_vars(w, &c, depth + 1);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* The single location expression of ATTR at PC: its operations, or 0. */
static size_t loc_at(Dwarf_Attribute *at, uint64_t pc, Dwarf_Op **ops)
{
	size_t len;

	if (dwarf_getlocation_addr(at, pc, ops, &len, 1) != 1)
		return 0;
	return len;
}

/* A register operation's number: DW_OP_reg0-31, DW_OP_regx; -1. */
static int op_reg(const Dwarf_Op *op)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		return op->atom - DW_OP_reg0;
	if (op->atom == DW_OP_regx)
		return (int)op->number;
	return -1;
}

static int op_breg(const Dwarf_Op *op, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*off = (int64_t)op->number;
		return op->atom - DW_OP_breg0;
	}
	if (op->atom == DW_OP_bregx) {
		*off = (int64_t)op->number2;
		return (int)op->number;
	}
	return -1;
}

/* Where the frame base expression OPS puts it: -1 the CFA, a register plus *OFF, or -2 unknown. */
static int frame_base_of(Dwarf_Op *ops, int64_t *off)
{
	int r;

	if (ops[0].atom == DW_OP_call_frame_cfa)
		return -1;
	if ((r = op_reg(&ops[0])) >= 0)
		return r;
	if ((r = op_breg(&ops[0], off)) >= 0)
		return r;
	return -2;
}

/*
 * One variable's place over instructions [FROM, TO): a register, a register
 * plus an offset, or (FBREG) the frame base plus an offset.  SEQ: the order
 * it was found in, which is the order of an instruction's facts.
 */
struct placed {
	uint32_t from, to, seq;
	bool fbreg;
	struct fact f;			/* fbreg: off is the offset from the frame base */
};

struct placing {
	struct placed *v;
	size_t nr, cap;
};

static size_t first_at(const struct walk *w, uint64_t addr)
{
	size_t lo = 0, hi = w->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->addrs[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int place(struct walk *w, struct placing *p, uint32_t var, const Dwarf_Op *ops, size_t len,
		 uint64_t lo, uint64_t hi)
{
	struct placed r = { .f = { .var = var, .reg = -1 } };
	size_t from, to;
	int64_t off = 0;
	int reg;

	if (len != 1)
		return 0;
	reg = op_reg(&ops[0]);
	if (reg >= NR_REGS)
		return 0;
	if (reg >= 0) {
		r.f.reg = (int16_t)reg;
	} else if (ops[0].atom == DW_OP_fbreg) {
		r.fbreg = true;
		r.f.off = (int64_t)ops[0].number;
	} else {
		int b = op_breg(&ops[0], &off);

		if (b < 0 || b >= NR_REGS)
			return 0;
		r.f.base = (int16_t)b;
		r.f.off = off;
	}
	from = first_at(w, lo);
	to = hi > lo ? first_at(w, hi) : from;
	if (to == from)
		return 0;
	if (ARRAY_GROW(p->v, p->cap, p->nr + 1))
		return -ENOMEM;
	r.from = (uint32_t)from;
	r.to = (uint32_t)to;
	r.seq = (uint32_t)p->nr;
	p->v[p->nr++] = r;
	return 0;
}

static int placed_by_from(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	return x->from != y->from ? (x->from < y->from ? -1 : 1) : (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The facts of every instruction: where each variable is (a register, a
 * frame slot) over the ranges its location list gives.  Neighbouring
 * instructions with the same variables in the same places share one list:
 * a list is made where a range starts or ends or the frame base moves.
 */
static int build_facts(struct walk *w)
{
	struct placing p = { 0 };
	Dwarf_Attribute at0;
	Dwarf_Op *ops0;
	size_t len0;
	bool has_fb, one, any_fb = false;
	int16_t *fb = malloc(w->n * sizeof(*fb));
	int64_t *fb_off = malloc(w->n * sizeof(*fb_off));
	struct placed **act = NULL;
	size_t nact = 0, used = 0, cap = 0;
	uint64_t regs;			/* the registers a list names */
	size_t *list = NULL;		/* per instruction: its list's offset in the pool, or SIZE_MAX */
	int err = 0;

	if (!fb || !fb_off) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * Where the frame base is at each instruction: one expression (the usual
	 * DW_OP_call_frame_cfa) read once, a location list at each address.
	 */
	has_fb = w->have_fn && dwarf_attr(&w->fn, DW_AT_frame_base, &at0);
	one = has_fb && dwarf_getlocation(&at0, &ops0, &len0) == 0 && len0;
	for (size_t i = 0; i < w->n; i++) {
		fb_off[i] = 0;
		fb[i] = one ? (int16_t)frame_base_of(ops0, &fb_off[i]) :
			has_fb && loc_at(&at0, w->v[i].addr, &ops0) ?
			(int16_t)frame_base_of(ops0, &fb_off[i]) : -2;
	}
	for (size_t k = 0; k < w->nr_vars && !err; k++) {
		struct var *v = &w->vars[k];
		Dwarf_Attribute at;
		Dwarf_Addr base, lo, hi;
		Dwarf_Op *ops;
		size_t len;
		ptrdiff_t it = 0;
		int got;

		if (!v->has_type || !dwarf_attr(&v->die, DW_AT_location, &at))
			continue;
		/* the list read from its bytes (dwarf_locs.h); libdw's reader where that does not */
		got = loc_read(w->locs, &v->die, &at);
		if (got == -ENOMEM) {
			err = got;
			break;
		}
		for (size_t e = 0; !got && e < w->locs->n && !err; e++) {
			const struct loc_entry *le = &w->locs->v[e];

			if (le->lo == 0 && le->hi == UINT64_MAX) {
				ptrdiff_t r = 0;
				Dwarf_Addr rb, rlo, rhi;

				while (!err && (r = dwarf_ranges(&v->scope, r, &rb, &rlo, &rhi)) > 0)
					err = place(w, &p, (uint32_t)k, &le->op, le->one, rlo, rhi);
			} else {
				err = place(w, &p, (uint32_t)k, &le->op, le->one, le->lo, le->hi);
			}
		}
		while (got && !err &&
		       (it = dwarf_getlocations(&at, it, &base, &lo, &hi, &ops, &len)) > 0) {
			if (lo == 0 && hi == (Dwarf_Addr)-1) {
				/* one expression: wherever the variable's scope is */
				ptrdiff_t r = 0;
				Dwarf_Addr rb, rlo, rhi;

				while (!err && (r = dwarf_ranges(&v->scope, r, &rb, &rlo, &rhi)) > 0)
					err = place(w, &p, (uint32_t)k, ops, len, rlo, rhi);
			} else {
				err = place(w, &p, (uint32_t)k, ops, len, lo, hi);
			}
		}
	}
	if (err || !p.nr)
		goto out;
	for (size_t k = 0; k < p.nr; k++)
		any_fb |= p.v[k].fbreg;
	sort_array(p.v, p.nr, sizeof(*p.v), placed_by_from);
	act = malloc(p.nr * sizeof(*act));
	list = malloc(w->n * sizeof(*list));
	w->fact_once = calloc(w->n, sizeof(*w->fact_once));
	if (!act || !list || !w->fact_once) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * A sweep: the ranges open at each instruction, a new list where they
	 * change.  ENDS: where the first of the open ones ends.
	 */
	for (size_t i = 0, next = 0, ends = SIZE_MAX; i < w->n; i++) {
		bool changed = !i || (any_fb && (fb[i] != fb[i - 1] || fb_off[i] != fb_off[i - 1]));

		/* (the open ranges kept in the order they were found: an instruction's facts') */
		if (i >= ends) {
			size_t o = 0;

			ends = SIZE_MAX;
			for (size_t a = 0; a < nact; a++)
				if (act[a]->to > i) {
					act[o++] = act[a];
					if (act[a]->to < ends)
						ends = act[a]->to;
				}
			changed |= o < nact;
			nact = o;
		}
		for (; next < p.nr && p.v[next].from == i; next++) {
			size_t a = nact++;

			while (a && act[a - 1]->seq > p.v[next].seq) {
				act[a] = act[a - 1];
				a--;
			}
			act[a] = &p.v[next];
			if (p.v[next].to < ends)
				ends = p.v[next].to;
			changed = true;
		}
		if (!changed) {
			list[i] = list[i - 1];
			w->fact_once[i] = w->fact_once[i - 1];
			continue;
		}
		list[i] = SIZE_MAX;
		if (!nact)
			continue;
		if (ARRAY_GROW(w->fact_pool, cap, used + nact + 1)) {
			err = -ENOMEM;
			goto out;
		}
		list[i] = used;
		w->fact_once[i] = true;
		regs = 0;
		for (size_t a = 0; a < nact; a++) {
			struct fact f = act[a]->f;

			if (f.reg >= 0) {
				w->fact_once[i] &= !(regs & (1ull << f.reg));
				regs |= 1ull << f.reg;
			}
			if (act[a]->fbreg) {
				if (fb[i] < -1)
					continue;
				f.base = fb[i];
				f.off = fb_off[i] + act[a]->f.off;
			}
			w->fact_pool[used++] = f;
		}
		if (used == list[i]) {
			list[i] = SIZE_MAX;	/* (only frame places, and no frame base here) */
			continue;
		}
		w->fact_pool[used++] = (struct fact){ .var = UINT32_MAX };
	}
	for (size_t i = 0; i < w->n; i++)
		w->facts[i] = list[i] == SIZE_MAX ? NULL : &w->fact_pool[list[i]];
out:
	free(p.v);
	free(act);
	free(list);
	free(fb);
	free(fb_off);
	return err;
}

/* A frame variable's address minus the CFA, under state S; false when not known. */
static bool fact_cfa(const struct fact *f, const struct state *s, int64_t *cfa_off)
{
	if (f->base == -1) {
		*cfa_off = f->off;
		return true;
	}
	if (f->base < 0 || f->base >= NR_REGS || s->r[f->base].kind != R_CFA)
		return false;
	*cfa_off = s->r[f->base].off + f->off;
	return true;
}

/* A register holding a pointer variable: what it points to. */
static struct rv ptr_of(struct walk *w, Dwarf_Off type, const char *expr, uint8_t where)
{
	struct memo_ptr *m = w->memo && type ? &w->memo->ptr[memo_hash(type)] : NULL;
	Dwarf_Off pointee = 0;
	Dwarf_Die t, p;

	if (m && m->key == type) {
		pointee = m->pointee;
	} else {
		if (dwarf_offdie(w->dw, type, &t) && inline_strip_type(&t) && is_pointer(&t) &&
		    die_type(&t, &p))
			pointee = dwarf_dieoffset(&p);
		if (m)
			*m = (struct memo_ptr){ .key = type, .pointee = pointee };
	}
	if (!pointee)
		return (struct rv){ .kind = R_UNKNOWN, .name = -1 };
	return (struct rv){ .kind = R_PTR, .where = where, .name = name_id(w, expr),
			    .type = pointee };
}

/*
 * Whether a member at byte OFF of TYPE (or TYPE itself, at 0) has the type
 * WANT: the object a register points into is the one a variable names.
 */
static bool type_within_dwarf(struct walk *w, Dwarf_Off type, int64_t off, Dwarf_Off want);

static bool type_within(struct walk *w, Dwarf_Off type, int64_t off, Dwarf_Off want)
{
	struct memo_within *m;
	bool yes;

	if (!w->memo || !type)
		return type_within_dwarf(w, type, off, want);
	m = &w->memo->within[memo_hash(type ^ (want << 24) ^ ((uint64_t)off << 44) ^ (uint64_t)off)];
	if (m->type == type && m->want == want && m->off == off)
		return m->yes;
	yes = type_within_dwarf(w, type, off, want);
	*m = (struct memo_within){ .type = type, .want = want, .off = off, .yes = yes };
	return yes;
}

static bool type_within_dwarf(struct walk *w, Dwarf_Off type, int64_t off, Dwarf_Off want)
{
	Dwarf_Die t, u, c;

	if (!dwarf_offdie(w->dw, want, &u) || !inline_strip_type(&u) || !dwarf_offdie(w->dw, type, &t))
		return false;
	for (int depth = 0; depth < 12 && inline_strip_type(&t); depth++) {
		int tag = dwarf_tag(&t);
		bool in = false;

		if (!off && dwarf_dieoffset(&t) == dwarf_dieoffset(&u))
			return true;
		if (tag == DW_TAG_array_type && die_type(&t, &c)) {
			uint64_t es = type_size(&c);

			if (!es || off < 0)
				return false;
			off %= (int64_t)es;
			t = c;
			continue;
		}
		if ((tag != DW_TAG_structure_type && tag != DW_TAG_class_type) || off < 0 ||
		    dwarf_child(&t, &c) != 0)
			return false;
		do {
			Dwarf_Word mo;
			Dwarf_Die ct;
			uint64_t ms;

			if ((dwarf_tag(&c) != DW_TAG_member && dwarf_tag(&c) != DW_TAG_inheritance) ||
			    dwarf_hasattr(&c, DW_AT_external) || !member_offset(&c, &mo) ||
			    !die_type(&c, &ct))
				continue;
			ms = type_size(&ct);
			if ((uint64_t)off >= mo && (uint64_t)off < mo + ms) {
				off -= (int64_t)mo;
				t = ct;
				in = true;
				break;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
		if (!in)
			return false;
	}
	return false;
}

/*
 * The registers DWARF describes at instruction I.  A parameter of an
 * inlined function (its "this") names less than the caller's expression
 * the code brought there (p->latch.word), and a local pointer less than the
 * global it points into (a macro's __atomic_load_ptr to
 * io_threads_pending[1].value): those are kept when they point at an object
 * of the variable's type.
 */
#define ALL_REGS ((1ull << NR_REGS) - 1)

static void apply_facts(struct walk *w, size_t i, struct state *s, uint64_t regs)
{
	for (const struct fact *f = w->facts[i]; f && f->var != UINT32_MAX; f++) {
		struct var *v = &w->vars[f->var];
		struct rv *r;
		struct rv dw;

		if (f->reg < 0 || !(regs & (1ull << f->reg)))
			continue;
		r = &s->r[f->reg];
		if (!v->held_known) {
			v->held = ptr_of(w, v->type, v->name, DT_HEAP);
			v->held_known = true;
		}
		dw = v->held;
		if ((v->inlined || r->where == DT_GLOBAL) &&
		    r->kind == R_PTR && r->name >= 0 && dw.kind == R_PTR &&
		    (!r->indexed || r->where == DT_GLOBAL) && type_within(w, r->type, r->off, dw.type))
			continue;
		/* (what the flow knew of the object DWARF now names: where it came from) */
		if (r->kind == R_PTR && dw.kind == R_PTR && r->type == dw.type && !r->obj) {
			dw.elem = r->indexed || r->elem;
			dw.groot = r->groot;
		}
		*r = dw;
	}
}

/*
 * The registers whose facts instruction I must apply, the instruction
 * before it in the same pass having written WROTE: where I has the same
 * facts as it (one list) and no register twice, the others hold what those
 * facts left them (applying one again changes nothing).  FIRST: I starts
 * the pass through a block.
 */
static uint64_t facts_due(const struct walk *w, size_t i, bool first, uint64_t wrote)
{
	return first || !w->facts[i] || w->facts[i] != w->facts[i - 1] || !w->fact_once[i] ?
	       ALL_REGS : wrote;
}

/* ---- naming an access ---- */

/* "c->st" + ".lookups" -> "c->st->lookups"; "slots" indexed + ".served" -> "slots[i].served". */
static const char *expr_of(struct walk *w, const struct rv *b, const char *path)
{
	const char *n = name_of(w, b->name);
	char *s = NULL;

	if (!n)
		return NULL;
	if (n[0] == '*' && !b->obj) {
		/* *ref->st_other reads as *(ref->st_other): (*ref)->st_other */
		char *p = str_printf("(%s)", n);
		const char *e;
		struct rv pb = *b;

		if (!p)
			return NULL;
		pb.name = name_id(w, p);
		free(p);
		if (pb.name < 0)
			return NULL;
		e = expr_of(w, &pb, path);
		return e;
	}
	if (b->obj)
		s = str_printf("%s%s", n, path);
	else if (b->indexed)
		s = str_printf("%s[i]%s", n, path);
	else if (path[0] == '.')
		s = str_printf("%s->%s", n, path + 1);
	else if (!path[0])
		s = str_printf("*%s", n);
	else
		s = str_printf("(*%s)%s", n, path);
	return keep(w->out, s);
}

static uint64_t array_at(struct walk *w, Dwarf_Die *type, int64_t off);

/* The type entry at OFF, its size and whether it has members or elements: false when none. */
static bool memo_type_at(struct walk *w, Dwarf_Off off, Dwarf_Die *t, uint64_t *size, bool *aggr)
{
	struct memo_type *m = w->memo && off ? &w->memo->type[memo_hash(off)] : NULL;

	if (m && m->key == off) {
		*t = m->die;
		*size = m->size;
		*aggr = m->aggr;
		return m->ok;
	}
	if (!dwarf_offdie(w->dw, off, t)) {
		if (m) {
			free(m->name);
			*m = (struct memo_type){ .key = off, .ok = false };
		}
		return false;
	}
	*size = type_size(t);
	*aggr = aggregate(t);
	if (m) {
		free(m->name);
		*m = (struct memo_type){ .key = off, .ok = true, .die = *t, .size = *size,
					 .aggr = *aggr };
	}
	return true;
}

/* path_at from the top of TYPE, through the memo. */
static void memo_path_at(struct walk *w, Dwarf_Die *type, int64_t off, uint64_t size, bool *indexed,
			 char *buf, size_t len, size_t *used, Dwarf_Die *mt, int64_t *moff,
			 uint64_t *msize)
{
	Dwarf_Off key = dwarf_dieoffset(type);
	struct memo_path *m = NULL;

	if (w->memo && key) {
		m = &w->memo->path[memo_hash(key ^ ((uint64_t)off << 20) ^ ((uint64_t)size << 8) ^
					     *indexed)];
		if (m->key == key && m->off == off && m->size == size && m->ix == *indexed &&
		    m->path) {
			*used = copy_str(buf, len, m->path);
			if (*used >= len)
				*used = len - 1;
			*mt = m->mt;
			*moff = m->moff;
			*msize = m->msize;
			*indexed = m->ix_out;
			return;
		}
	}
	{
		bool ix_in = *indexed;

		path_at(w->memo, type, off, size, indexed, buf, len, used, mt, 0, moff, msize, 0);
		if (m) {
			free(m->path);
			*m = (struct memo_path){ .key = key, .off = off, .size = (uint8_t)size,
						 .ix = ix_in, .ix_out = *indexed, .mt = *mt,
						 .moff = *moff, .msize = *msize, .path = strdup(buf) };
		}
	}
}

/* Whether member type MT is a pointer (typedefs and qualifiers taken off). */
static bool pointer_member(Dwarf_Die *mt)
{
	Dwarf_Die s = *mt;

	return inline_strip_type(&s) && is_pointer(&s);
}

/* What a load of pointer member type MT, named EXPR, puts in its register: the pointee. */
static void loaded_member(struct walk *w, Dwarf_Die *mt, const char *expr, bool groot,
			  struct rv *loaded)
{
	*loaded = ptr_of(w, dwarf_dieoffset(mt), expr, DT_HEAP);
	loaded->groot = groot && loaded->kind == R_PTR;
	if (loaded->kind == R_PTR && !expr)
		loaded->name = -1;
}

/*
 * Names the access of instruction IN at byte OFF (plus an index when
 * INDEXED) of the object B points to; the loaded value in *LOADED when it is
 * a pointer.
 */
static void name_in(struct walk *w, const struct insn *in, const struct rv *b, int64_t off,
		    bool indexed, struct dt_access *a, struct rv *loaded)
{
	Dwarf_Die t, mt;
	char path[256];
	size_t used = 0;
	int64_t moff = 0;
	uint64_t msize;
	bool ix = indexed || b->indexed, aggr;
	bool groot = b->groot || b->where == DT_GLOBAL;
	bool load = loaded && (in->ty_op == TY_LOAD || in->ty_op == TY_ADD_LOAD) && in->ty_wide;
	struct rv base = *b;

	/* (the walk's own passes want only what a load puts in its register) */
	if (!w->naming && !load)
		return;
	path[0] = '\0';
	a->via_global = groot;
	a->element = b->elem;
	if (!memo_type_at(w, b->type, &t, &msize, &aggr)) {
		a->unknown = "the pointer's type is not in the debug info";
		return;
	}
	mt = t;
	/*
	 * An element of an array the pointer walks: p[i] of its own type; unless
	 * the offset falls in an array member, the index stepping through it
	 * (b->items[i] of a flexible array).
	 */
	if (b->indexed && !b->obj && off >= 0 && array_at(w, &t, off)) {
		ix = true;
		base.indexed = false;
	} else if (b->indexed && !b->obj) {
		uint64_t es = msize;

		a->element = true;

		if (es && (off < 0 || (uint64_t)off >= es))
			off = ((off % (int64_t)es) + (int64_t)es) % (int64_t)es;
		ix = indexed;
	} else if (b->indexed) {
		base.indexed = false;
	}
	if (!aggr && msize == 1 && in->ty_size > 1) {
		/* a char buffer (PostgreSQL's Page) read wider: a struct the code casts it to */
		a->unknown = "a char buffer read as a wider type: a cast";
		return;
	}
	if (aggr && msize && (off < 0 || (uint64_t)off >= msize) && !array_at(w, &t, off)) {
		a->unknown = "an offset past the pointer's type: a container's member";
		return;
	}
	if (!aggr) {
		/* A pointer to a scalar: *p, p[1], p[i]. */
		int64_t k = msize ? off / (int64_t)msize : 0;

		a->where = b->where ? b->where : DT_HEAP;
		a->type = !w->naming ? NULL : w->lean ? "" : type_str(w, &t);
		a->member_type = a->type;
		a->offset = off;
		a->size = msize;
		if (!name_of(w, b->name) || (!w->naming && !load) ||
		    (w->lean && !load && a->access == ACC_READ))
			return;
		if (b->obj && !off)
			a->expr = keep(w->out, strdup(name_of(w, b->name)));
		else if (!b->obj && !off && !ix && !b->indexed)
			a->expr = keep(w->out, str_printf("*%s", name_of(w, b->name)));
		else if (ix || b->indexed)
			a->expr = keep(w->out, str_printf("%s[i]", name_of(w, b->name)));
		else if (msize && !(off % (int64_t)msize) && !b->obj)
			a->expr = keep(w->out, str_printf("%s[%" PRId64 "]", name_of(w, b->name), k));
		else
			a->expr = keep(w->out, str_printf("%s+%" PRId64, name_of(w, b->name), off));
		if (load) {
			*loaded = ptr_of(w, dwarf_dieoffset(&t), a->expr, DT_HEAP);
			loaded->groot = groot && loaded->kind == R_PTR;
		}
		return;
	}
	memo_path_at(w, &t, off, in->ty_size, &ix, path, sizeof(path), &used, &mt, &moff, &msize);
	if (ix && !b->obj && !b->indexed) {
		/* An index into what the pointer points to: it is an array's element. */
		base.indexed = true;
		a->element = true;
	}
	if (!w->naming) {
		/* (the walk's own passes: only what a load puts in its register) */
		if (load && pointer_member(&mt))
			loaded_member(w, &mt, expr_of(w, &base, path), groot, loaded);
		return;
	}
	a->where = b->where ? b->where : DT_HEAP;
	a->type = w->lean ? "" : type_str(w, &t);
	a->type_die = dwarf_dieoffset(&t);
	a->member = path[0] && !w->lean ? keep(w->out, strdup(path[0] == '.' ? path + 1 : path)) :
		    NULL;
	a->member_type = w->lean ? "" : type_str(w, &mt);
	a->offset = path[0] ? moff : off;
	a->size = msize;
	a->expr = !w->lean || a->access != ACC_READ || (load && pointer_member(&mt)) ?
		  expr_of(w, &base, path) : NULL;
	{
		/*
		 * An array object (a global table of per-thread slots): its element
		 * is the type, so every element's member is one row of the type view.
		 */
		Dwarf_Die st = t, et;
		uint64_t es;
		const char *close = path[0] == '[' ? strchr(path, ']') : NULL;

		if (inline_strip_type(&st) && dwarf_tag(&st) == DW_TAG_array_type && die_type(&st, &et) &&
		    (es = type_size(&et)) && close) {
			a->type = w->lean ? "" : type_str(w, &et);
			a->type_die = dwarf_dieoffset(&et);
			a->element = true;
			a->member = close[1] && !w->lean ? keep(w->out, strdup(close[1] == '.' ?
									   close + 2 : close + 1)) :
				    NULL;
			a->offset = a->offset % (int64_t)es;
		}
	}
	if (load && pointer_member(&mt))
		loaded_member(w, &mt, a->expr, groot, loaded);
}

static bool global_var(struct walk *w, uint64_t addr, struct var *g, uint64_t *start)
{
	const struct sym *s = symtab_find(&w->d->data_syms, addr);
	struct memo_global *m = w->memo && s && s->start ? &w->memo->global[memo_hash(s->start)] :
				NULL;
	Dwarf_Attribute at;
	Dwarf_Die t;

	if (!s)
		return false;
	if (m && m->key == s->start) {
		if (!m->ok)
			return false;
		*start = s->start;
		g->die = m->die;
		g->name = m->name;
		g->has_type = m->has_type;
		g->type = m->type;
		return g->has_type;
	}
	if (inline_global_at(w->d, w->have_fn ? &w->cu : NULL, s->start, &g->die)) {
		if (m)
			*m = (struct memo_global){ .key = s->start, .ok = false };
		return false;
	}
	*start = s->start;
	g->name = dwarf_attr_integrate(&g->die, DW_AT_name, &at) ? dwarf_formstring(&at) : NULL;
	if (!g->name)
		g->name = s->name;
	g->has_type = die_type(&g->die, &t);
	g->type = g->has_type ? dwarf_dieoffset(&t) : 0;
	if (m)
		*m = (struct memo_global){ .key = s->start, .ok = true, .has_type = g->has_type,
					   .die = g->die, .name = g->name, .type = g->type };
	return g->has_type;
}

/*
 * The global at IN's address, named into *A; lea and a load of its address
 * from the GOT are no access: *DST then points into it (named g, g.member).
 */
static void name_global(struct walk *w, const struct insn *in, struct dt_access *a, struct rv *dst)
{
	struct var g;
	uint64_t start;
	struct rv obj;

	if (!global_var(w, in->data, &g, &start)) {
		if (in->access == ACC_ADDR)
			a->where = DT_NONE;
		else
			a->unknown = "a global the debug info does not describe";
		a->where = in->access == ACC_ADDR ? DT_NONE : DT_GLOBAL;
		return;
	}
	obj = (struct rv){ .kind = R_PTR, .where = DT_GLOBAL, .obj = true, .name = name_id(w, g.name),
			   .off = (int64_t)(in->data - start), .type = g.type };
	if (in->access == ACC_ADDR) {
		a->where = DT_NONE;
		*dst = obj;
		return;
	}
	name_in(w, in, &obj, obj.off, in->indexed || in->ty_index, a, dst);
	a->where = DT_GLOBAL;
}

/* The frame variable at CFA+OFF under S, and OFF's offset inside it. */
static const struct var *frame_var(struct walk *w, size_t i, const struct state *s, int64_t off,
				   int64_t *inside)
{
	for (const struct fact *f = w->facts[i]; f && f->var != UINT32_MAX; f++) {
		const struct var *v = &w->vars[f->var];
		Dwarf_Die t;
		int64_t at;
		uint64_t sz;
		bool aggr;

		if (f->reg >= 0 || !fact_cfa(f, s, &at) || !memo_type_at(w, v->type, &t, &sz, &aggr))
			continue;
		if (off >= at && (uint64_t)(off - at) < (sz ? sz : 1)) {
			*inside = off - at;
			return v;
		}
	}
	return NULL;
}

static struct rv *slot_of(struct state *s, int64_t off, bool make)
{
	for (uint8_t k = 0; k < s->nr_slots; k++)
		if (s->slot[k].off == off)
			return &s->slot[k].v;
	if (!make || s->nr_slots >= NR_SLOTS)
		return NULL;
	s->slot[s->nr_slots].off = off;
	s->slot[s->nr_slots].v = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
	return &s->slot[s->nr_slots++].v;
}

/*
 * Names the memory operand of instruction I under state S into *A; *DST: what a
 * load or lea puts in its register (unknown when nothing is known).
 */
static void access_of(struct walk *w, size_t i, const struct insn *in, struct state *s,
		      struct dt_access *a, struct rv *dst)
{
	const struct rv *b;
	bool has_mem = in->ty_op == TY_LOAD || in->ty_op == TY_STORE || in->ty_op == TY_MEM ||
		       in->ty_op == TY_LEA || in->ty_op == TY_ADD_LOAD ||
		       (in->data && in->access == ACC_ADDR && in->ty_dst);	/* aarch64's add :lo12: */

	memset(a, 0, sizeof(*a));
	*dst = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
	if (!has_mem)
		return;
	a->where = DT_HEAP;
	a->access = in->ty_access ? in->ty_access : in->access;
	if (in->data) {
		name_global(w, in, a, dst);
		return;
	}
	if (!in->ty_base) {
		a->unknown = "no base register (a thread-local or a fixed address)";
		return;
	}
	b = &s->r[in->ty_base - 1];
	if (b->kind == R_CFA) {
		int64_t off = b->off + in->ty_disp, inside;
		const struct var *v;
		struct rv *sl;

		if (in->ty_op == TY_LEA) {
			memset(a, 0, sizeof(*a));
			if (!in->ty_index) {
				*dst = (struct rv){ .kind = R_CFA, .off = off, .name = -1 };
				/* &local: a pointer to the local, named as the local */
				if ((v = frame_var(w, i, s, off, &inside)) && !inside)
					*dst = (struct rv){ .kind = R_PTR, .where = DT_STACK, .obj = true,
							    .name = name_id(w, v->name),
							    .type = v->type };
			}
			return;
		}
		a->where = DT_STACK;
		if ((v = frame_var(w, i, s, off, &inside))) {
			struct rv obj = { .kind = R_PTR, .where = DT_STACK, .obj = true,
					  .name = name_id(w, v->name), .type = v->type };

			name_in(w, in, &obj, inside, in->ty_index != 0, a, dst);
			a->where = DT_STACK;
			/*
			 * (a pointer variable in memory, -O0's: what the flow stored
			 * there this function, an array's element, stays one loaded)
			 */
			if (in->ty_op == TY_LOAD && in->ty_wide && !in->ty_index && !inside &&
			    dst->kind == R_PTR && (sl = slot_of(s, off, false)) &&
			    sl->kind == R_PTR && !sl->obj && (sl->indexed || sl->elem) &&
			    sl->type == dst->type) {
				dst->elem = true;
				dst->groot |= sl->groot;
			}
			return;
		}
		if ((in->ty_op == TY_LOAD || in->ty_op == TY_ADD_LOAD) && in->ty_wide && !in->ty_index &&
		    (sl = slot_of(s, off, false)))
			*dst = *sl;
		/*
		 * A frame slot no variable names: the compiler's own (a spill, a
		 * saved register), no object of the program's; a sample there is
		 * read as the instruction before's, as after any instruction
		 * without data.
		 */
		memset(a, 0, sizeof(*a));
		return;
	}
	if (b->kind != R_PTR) {
		a->unknown = w->have_fn ? "the base register's origin is not known" :
					  "no debug info describes this function";
		return;
	}
	if (in->ty_op == TY_LEA) {
		memset(a, 0, sizeof(*a));
		*dst = *b;
		dst->off += in->ty_disp;
		dst->indexed |= in->ty_index != 0;
		return;
	}
	name_in(w, in, b, b->off + in->ty_disp, in->ty_index != 0, a, dst);
	/* (through a parameter as it came in: a caller may hand it an array's element) */
	for (int k = 0; k < 6 && b->name >= 0 && !b->obj && !b->indexed && !b->elem; k++)
		if (w->param_id[k] == b->name) {
			a->param = (uint8_t)(k + 1);
			break;
		}
}

/*
 * Call (or tail call) I's arguments that point to an array's element
 * reached by index, under S: bit K for argument K.  The element's start
 * only (&slots[i], not &slots[i].cv: a member of an element is no element
 * of the member's type).
 */
static uint8_t element_args(const struct walk *w, const struct insn *in, const struct state *s,
			    uint64_t *type)
{
	static const int x86_64[6] = { 5, 4, 1, 2, 8, 9 };	/* rdi, rsi, rdx, rcx, r8, r9 */
	uint8_t mask = 0;

	*type = 0;
	if (!in->call && !(in->jump && in->target))
		return 0;
	for (int k = 0; k < 6; k++) {
		int r = w->machine == EM_AARCH64_ ? k : x86_64[k];
		const struct rv *v = &s->r[r];

		if (v->kind != R_PTR || v->obj || !(v->indexed || v->elem) || v->off || !v->type ||
		    (v->where != DT_HEAP && v->where != DT_GLOBAL) || (*type && v->type != *type))
			continue;
		mask |= (uint8_t)(1u << k);
		*type = v->type;
	}
	return mask;
}

/* ---- the walk ---- */

static bool rv_eq(const struct rv *a, const struct rv *b)
{
	return a->kind == b->kind && (a->kind == R_UNKNOWN ||
	       (a->off == b->off && a->type == b->type && a->name == b->name &&
		a->obj == b->obj && a->indexed == b->indexed && a->where == b->where &&
		a->groot == b->groot && a->elem == b->elem));
}

/* Whether bytes A and B of TYPE are elements of one array member (a flexible one too). */
static bool same_array_es(Dwarf_Die *type, int64_t a, int64_t b, uint64_t *esize)
{
	Dwarf_Die t = *type, c, ct;

	for (int depth = 0; depth < 12 && inline_strip_type(&t); depth++) {
		int tag = dwarf_tag(&t);
		bool in = false;

		if (tag == DW_TAG_array_type && die_type(&t, &ct)) {
			uint64_t es = type_size(&ct);

			*esize = es;
			return depth && es && !((a - b) % (int64_t)es);
		}
		if ((tag != DW_TAG_structure_type && tag != DW_TAG_class_type) || a < 0 || b < 0 ||
		    dwarf_child(&t, &c) != 0)
			return false;
		do {
			Dwarf_Word mo;
			uint64_t ms;
			bool flexible;

			if (dwarf_tag(&c) != DW_TAG_member || !member_offset(&c, &mo) ||
			    !die_type(&c, &ct))
				continue;
			ms = type_size(&ct);
			flexible = !ms && dwarf_tag(&ct) == DW_TAG_array_type;
			if ((uint64_t)a < mo || (!flexible && (uint64_t)a >= mo + ms))
				continue;
			if ((uint64_t)b < mo || (!flexible && (uint64_t)b >= mo + ms))
				return false;
			a -= (int64_t)mo;
			b -= (int64_t)mo;
			t = ct;
			in = true;
			break;
		} while (dwarf_siblingof(&c, &c) == 0);
		if (!in)
			return false;
	}
	return false;
}

static bool same_array(Dwarf_Die *type, int64_t a, int64_t b)
{
	uint64_t es;

	return same_array_es(type, a, b, &es);
}

/* Whether byte OFF of TYPE is in an array member (a flexible one too): its element size. */
static uint64_t array_at(struct walk *w, Dwarf_Die *type, int64_t off)
{
	Dwarf_Off key = dwarf_dieoffset(type);
	struct memo_array *m = w->memo && key ?
			       &w->memo->array[memo_hash(key ^ ((uint64_t)off << 24))] : NULL;
	uint64_t es = 0;

	if (m && m->key == key && m->off == off)
		return m->es;
	/* (one walk of the members: whether, and the element's size) */
	es = same_array_es(type, off, off, &es) ? es : 0;
	if (m)
		*m = (struct memo_array){ .key = key, .off = off, .es = es };
	return es;
}

/* What A and B agree on. */
static struct rv meet(struct walk *w, const struct rv *a, const struct rv *b)
{
	struct rv r = *a;
	Dwarf_Die t;
	uint64_t sz;

	if (rv_eq(a, b))
		return r;
	r = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
	if (a->kind != b->kind || a->kind == R_CFA || a->type != b->type || a->obj != b->obj)
		return r;
	r = *a;
	if (a->name != b->name)
		r.name = -1;
	r.indexed |= b->indexed;
	r.groot = a->groot && b->groot;
	r.elem = a->elem && b->elem;
	if (a->off != b->off) {
		int64_t lo = a->off < b->off ? a->off : b->off;

		if (!dwarf_offdie(w->dw, a->type, &t))
			return (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		uint64_t es = array_at(w, &t, a->off > b->off ? a->off : b->off);

		if (same_array(&t, a->off, b->off) ||
		    (es && !((a->off - b->off) % (int64_t)es))) {
			/* stepping through an array inside the object: items[i] */
			r.off = lo;
			r.indexed = true;
		} else if ((sz = type_size(&t)) && !((a->off - b->off) % (int64_t)sz)) {
			/* the same type at offsets a whole element apart: an array of them walked */
			r.off = ((a->off % (int64_t)sz) + (int64_t)sz) % (int64_t)sz;
			r.indexed = true;
		} else {
			return (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		}
	}
	if (a->where != b->where)
		r.where = DT_HEAP;
	return r;
}

/* Merges S into the state at the entry of block I: whether it changed. */
static bool merge(struct walk *w, size_t i, const struct state *s)
{
	struct state *d = &w->in[i];
	bool changed = false;

	if (!d->seen) {
		uint16_t visits = d->visits;

		state_copy(d, s);
		d->visits = visits;
		d->seen = true;
		w->named[i] = false;
		return true;
	}
	for (int r = 0; r < NR_REGS; r++) {
		struct rv m;

		/* (what nothing is known of stays so whatever meets it) */
		if (d->r[r].kind == R_UNKNOWN)
			continue;
		m = meet(w, &d->r[r], &s->r[r]);
		if (!rv_eq(&m, &d->r[r])) {
			d->r[r] = m;
			changed = true;
		}
	}
	for (uint8_t k = 0; k < d->nr_slots;) {
		struct rv *o = slot_of((struct state *)s, d->slot[k].off, false);
		struct rv m = o ? meet(w, &d->slot[k].v, o) : (struct rv){ .kind = R_UNKNOWN };

		if (m.kind == R_UNKNOWN) {
			d->slot[k] = d->slot[--d->nr_slots];
			changed = true;
			continue;
		}
		if (!rv_eq(&m, &d->slot[k].v)) {
			d->slot[k].v = m;
			changed = true;
		}
		k++;
	}
	if (changed)
		w->named[i] = false;
	return changed;
}

/*
 * What a call changes that code after it may read: the result registers.
 * The others a call may clobber are not read again before they are written,
 * unless the callee keeps them (gcc's -fipa-ra knows its callees' registers),
 * so what they held is kept.
 */
static uint64_t call_results(uint16_t machine)
{
	if (machine == EM_AARCH64_)
		return 0xffull;				/* x0-x7 */
	return 1ull << 0 | 1ull << 1;			/* rax, rdx */
}

static void clobber(struct state *s, uint64_t mask)
{
	for (mask &= ALL_REGS; mask; mask &= mask - 1)
		s->r[__builtin_ctzll(mask)] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
}

/*
 * The state after instruction I, from the state before it (facts applied);
 * DST: what its memory operand puts in a register (access_of's, under S).
 * The registers it may have written.
 */
static uint64_t transfer_with(struct walk *w, size_t i, struct state *s, struct rv dst)
{
	const struct insn *in = &w->v[i];
	int sp = w->machine == EM_AARCH64_ ? 31 : 7;
	int d = in->ty_dst ? in->ty_dst - 1 : -1;
	int src = in->ty_src ? in->ty_src - 1 : -1;
	uint64_t wrote = (in->ty_clobbers & ALL_REGS) | 1ull << sp | 1ull << 6 |
			 (in->call ? call_results(w->machine) : 0);

	if (d >= 0 && d < NR_REGS)
		wrote |= 1ull << d;
	if (in->ty_src2 && in->ty_src2 - 1 < NR_REGS)
		wrote |= 1ull << (in->ty_src2 - 1);
	if (in->ty_base && in->ty_base - 1 < NR_REGS)
		wrote |= 1ull << (in->ty_base - 1);

	/* A store to the frame: the slot now holds the register (a spill), or something else. */
	if ((in->ty_op == TY_STORE || in->ty_op == TY_MEM) && in->ty_base &&
	    s->r[in->ty_base - 1].kind == R_CFA && !in->ty_index) {
		int64_t off = s->r[in->ty_base - 1].off + in->ty_disp;
		struct rv *sl = slot_of(s, off, in->ty_op == TY_STORE && in->ty_wide && src >= 0);

		if (sl)
			*sl = in->ty_op == TY_STORE && in->ty_wide && src >= 0 ? s->r[src] :
			      (struct rv){ .kind = R_UNKNOWN, .name = -1 };
	}
	clobber(s, in->ty_clobbers & ((1ull << NR_REGS) - 1));
	if (in->call)
		clobber(s, call_results(w->machine));
	if (d >= NR_REGS)
		return wrote;
	if (in->data && in->access == ACC_ADDR && d >= 0 && in->ty_op != TY_LOAD &&
	    in->ty_op != TY_LEA) {
		/* adrp and add :lo12: (aarch64): the register points into the global */
		s->r[d] = dst;
		return wrote;
	}
	switch (in->ty_op) {
	case TY_LOAD:
	case TY_LEA:
		if (d >= 0)
			s->r[d] = in->ty_wide ? dst : (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		if (in->ty_op == TY_LOAD && in->ty_src2 && in->ty_src2 - 1 < NR_REGS) {
			/* aarch64 ldp: the second register from the next word */
			struct insn second = *in;
			struct dt_access a2;
			struct rv dst2;

			second.ty_disp += in->ty_size;
			second.ty_dst = in->ty_src2;
			second.ty_src2 = 0;
			second.data = in->data ? in->data + in->ty_size : 0;
			access_of(w, i, &second, s, &a2, &dst2);
			s->r[in->ty_src2 - 1] = in->ty_wide ? dst2 :
						(struct rv){ .kind = R_UNKNOWN, .name = -1 };
		}
		break;
	case TY_MOVE:
		if (d >= 0)
			s->r[d] = in->ty_wide && src >= 0 && src < NR_REGS ? s->r[src] :
				  (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		break;
	case TY_ADD_IMM:
		if (d >= 0 && src >= 0 && src < NR_REGS)
			s->r[d] = s->r[src];		/* aarch64: add xd, xn, #imm */
		if (d >= 0 && in->ty_wide && (s->r[d].kind == R_PTR || s->r[d].kind == R_CFA))
			s->r[d].off += in->ty_imm;
		else if (d >= 0)
			s->r[d] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		break;
	case TY_ADD_REG:
		if (d >= 0 && in->ty_src2 && in->ty_src2 - 1 < NR_REGS && src >= 0 && src < NR_REGS) {
			/* aarch64: add xd, xn, xm: a pointer plus an index, either way round */
			const struct rv *p = s->r[src].kind == R_PTR ? &s->r[src] :
					     s->r[in->ty_src2 - 1].kind == R_PTR ?
					     &s->r[in->ty_src2 - 1] : NULL;
			bool both = s->r[src].kind == R_PTR && s->r[in->ty_src2 - 1].kind == R_PTR;

			if (p && !both && in->ty_wide) {
				s->r[d] = *p;
				s->r[d].indexed = true;
			} else {
				s->r[d] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
			}
			break;
		}
		if (d < 0 || src < 0 || src >= NR_REGS || !in->ty_wide) {
			if (d >= 0)
				s->r[d] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		} else if (s->r[d].kind == R_PTR && s->r[src].kind != R_PTR) {
			s->r[d].indexed = true;		/* p + i: an element */
		} else if (s->r[src].kind == R_PTR && s->r[d].kind == R_UNKNOWN) {
			s->r[d] = s->r[src];
			s->r[d].indexed = true;		/* i + p */
		} else {
			s->r[d] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		}
		break;
	case TY_ADD_LOAD:
		if (d < 0 || !in->ty_wide)
			break;
		if (s->r[d].kind == R_PTR && dst.kind != R_PTR) {
			s->r[d].indexed = true;
		} else if (dst.kind == R_PTR && s->r[d].kind == R_UNKNOWN) {
			s->r[d] = dst;			/* i + p, p loaded */
			s->r[d].indexed = true;
		} else {
			s->r[d] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		}
		break;
	case TY_PUSH:
		if (s->r[sp].kind == R_CFA) {
			struct rv *sl;

			s->r[sp].off -= in->ty_size;
			if ((sl = slot_of(s, s->r[sp].off, false)))
				*sl = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		}
		break;
	case TY_POP:
		if (d >= 0)
			s->r[d] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		if (s->r[sp].kind == R_CFA && d != sp)
			s->r[sp].off += in->ty_size;
		break;
	case TY_LEAVE:
		s->r[sp] = s->r[6];
		if (s->r[sp].kind == R_CFA)
			s->r[sp].off += 8;
		else
			s->r[sp] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		s->r[6] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		break;
	default:
		if (d >= 0)
			s->r[d] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		break;
	}
	/* aarch64's pre- and post-indexed forms move the base. */
	if (in->ty_writeback && in->ty_base && in->ty_base - 1 < NR_REGS) {
		struct rv *b = &s->r[in->ty_base - 1];

		if (b->kind == R_PTR || b->kind == R_CFA)
			b->off += in->ty_imm;
	}
	return wrote;
}

/* The state after instruction I, from the state before it (facts applied). */
static uint64_t transfer(struct walk *w, size_t i, struct state *s)
{
	struct dt_access a;
	struct rv dst;

	access_of(w, i, &w->v[i], s, &a, &dst);
	return transfer_with(w, i, s, dst);
}

static size_t index_of(const struct walk *w, uint64_t addr)
{
	size_t i = first_at(w, addr);

	return i < w->n && w->v[i].addr == addr ? i : SIZE_MAX;
}

/*
 * Basic blocks: an instruction starts one when a branch of the function
 * targets it or the instruction before branches or returns.  States are
 * kept per block and carried through its instructions.
 */
static int blocks(struct walk *w)
{
	w->block_of = malloc(w->n * sizeof(*w->block_of));
	w->starts = malloc((w->n + 1) * sizeof(*w->starts));
	if (!w->block_of || !w->starts)
		return -ENOMEM;
	memset(w->block_of, 0, w->n * sizeof(*w->block_of));
	/* (block_of as a mark first: 1 where a block starts) */
	w->block_of[0] = 1;
	for (size_t i = 0; i < w->n; i++) {
		const struct insn *in = &w->v[i];
		size_t t;

		if ((in->branch && !in->call) || in->ret || in->jump) {
			if (i + 1 < w->n)
				w->block_of[i + 1] = 1;
			if (!in->call && in->target && (t = index_of(w, in->target)) != SIZE_MAX)
				w->block_of[t] = 1;
		}
	}
	w->nr_blocks = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (w->block_of[i])
			w->starts[w->nr_blocks++] = i;
		w->block_of[i] = (uint32_t)(w->nr_blocks - 1);
	}
	w->starts[w->nr_blocks] = w->n;
	w->jumps_to = malloc(w->nr_blocks * sizeof(*w->jumps_to));
	if (!w->jumps_to)
		return -ENOMEM;
	for (size_t b = 0; b < w->nr_blocks; b++) {
		const struct insn *in = &w->v[w->starts[b + 1] - 1];
		size_t t;

		w->jumps_to[b] = in->branch && !in->call && in->target &&
				 (t = index_of(w, in->target)) != SIZE_MAX ? w->block_of[t] : UINT32_MAX;
	}
	/* (a block's state is written whole when first reached: only that mark cleared) */
	w->in = malloc(w->nr_blocks * sizeof(*w->in));
	w->named = calloc(w->nr_blocks, sizeof(*w->named));
	if (!w->in || !w->named)
		return -ENOMEM;
	for (size_t b = 0; b < w->nr_blocks; b++) {
		w->in[b].seen = false;
		w->in[b].visits = 0;
	}
	return 0;
}

/* The state at the end of block B, from its entry. */
static void through(struct walk *w, size_t b, struct state *s)
{
	uint64_t wrote = ALL_REGS;

	for (size_t i = w->starts[b]; i < w->starts[b + 1]; i++) {
		apply_facts(w, i, s, facts_due(w, i, i == w->starts[b], wrote));
		wrote = transfer(w, i, s);
	}
}

/*
 * The same, naming each access on the way into the result (the flow's
 * visits name as they go: a block's last visit is under its final entry
 * state, unless the visits ran out).
 */
static void name_through(struct walk *w, size_t b, struct state *s)
{
	uint64_t wrote = ALL_REGS;

	for (size_t i = w->starts[b]; i < w->starts[b + 1]; i++) {
		struct dt_access *a = &w->out->v[i];
		struct rv dst;

		apply_facts(w, i, s, facts_due(w, i, i == w->starts[b], wrote));
		access_of(w, i, &w->v[i], s, a, &dst);
		a->elem_args = element_args(w, &w->v[i], s, &a->elem_type);
		if (!w->have_fn && a->where == DT_HEAP && !a->expr && !a->type)
			a->unknown = "no debug info describes this function";
		wrote = transfer_with(w, i, s, dst);
	}
	w->named[b] = true;
}

/*
 * Code the walk did not reach starts where an indirect jump lands (a
 * switch's table): from the state every indirect jump reached agrees on.
 * Whether a block was seeded so.
 */
static bool seed_unreached(struct walk *w, size_t *stack, size_t *top, bool *queued)
{
	struct state *at = NULL, s;
	bool seeded = false;

	for (size_t b = 0; b < w->nr_blocks; b++) {
		const struct insn *last = &w->v[w->starts[b + 1] - 1];

		if (!last->jump || last->target || !w->in[b].seen)
			continue;
		state_copy(&s, &w->in[b]);
		through(w, b, &s);
		if (!at) {
			at = malloc(sizeof(*at));
			if (!at)
				return false;
			state_copy(at, &s);
		} else {
			for (int r = 0; r < NR_REGS; r++)
				at->r[r] = meet(w, &at->r[r], &s.r[r]);
			at->nr_slots = 0;
		}
	}
	for (size_t b = 1; at && b < w->nr_blocks; b++) {
		const struct insn *p = &w->v[w->starts[b] - 1];

		if (w->in[b].seen || !(p->jump || p->ret))
			continue;
		merge(w, b, at);
		stack[(*top)++] = b;
		queued[b] = true;
		seeded = true;
	}
	free(at);
	return seeded;
}

static int run(struct walk *w)
{
	size_t *stack, top = 0;
	bool *queued, seeded = false;
	struct state s;
	int err = 0;

	stack = malloc(w->nr_blocks * sizeof(*stack));
	queued = calloc(w->nr_blocks, sizeof(*queued));
	if (!stack || !queued) {
		err = -ENOMEM;
		goto out;
	}
	memset(&s, 0, sizeof(s));
	for (int r = 0; r < NR_REGS; r++)
		s.r[r] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
	/* At the entry the stack pointer is the CFA less the return address (x86_64). */
	if (w->machine == EM_AARCH64_)
		s.r[31] = (struct rv){ .kind = R_CFA, .off = 0, .name = -1 };
	else
		s.r[7] = (struct rv){ .kind = R_CFA, .off = -8, .name = -1 };
	merge(w, 0, &s);
	stack[top++] = 0;
	queued[0] = true;
again:
	while (top) {
		size_t b = stack[--top], end, t;
		const struct insn *in;

		queued[b] = false;
		if (++w->in[b].visits > MAX_VISITS)
			continue;
		state_copy(&s, &w->in[b]);
		w->naming = true;
		name_through(w, b, &s);
		w->naming = false;
		end = w->starts[b + 1];
		in = &w->v[end - 1];
		if (!in->ret && !in->jump && end < w->n && merge(w, w->block_of[end], &s) &&
		    !queued[w->block_of[end]]) {
			stack[top++] = w->block_of[end];
			queued[w->block_of[end]] = true;
		}
		if ((t = w->jumps_to[b]) != UINT32_MAX && merge(w, t, &s) && !queued[t]) {
			stack[top++] = t;
			queued[t] = true;
		}
	}
	if (!seeded) {
		seeded = true;
		if (seed_unreached(w, stack, &top, queued))
			goto again;
	}
out:
	free(stack);
	free(queued);
	return err;
}

int datatype_walk(struct dso *d, uint16_t e_machine, const struct insn *v, size_t n,
		  struct dt_result *out)
{
	return datatype_walk_memo(d, e_machine, v, n, out, NULL);
}

/* Whether CU is C++ (its types are named without "struct"). */
static bool cu_is_cxx(Dwarf_Die *cu)
{
	Dwarf_Attribute at;
	Dwarf_Word lang;

	return dwarf_attr(cu, DW_AT_language, &at) && dwarf_formudata(&at, &lang) == 0 &&
	       (lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_11 ||
		lang == DW_LANG_C_plus_plus_14 || lang == 0x21 /* C++17 */ ||
		lang == 0x2a /* C++20 */);
}

int datatype_walk_memo(struct dso *d, uint16_t e_machine, const struct insn *v, size_t n,
		       struct dt_result *out, struct dt_memo *memo)
{
	struct walk w = { .d = d, .machine = e_machine, .v = v, .n = n, .out = out, .memo = memo,
			  .lean = memo && memo->lean };
	struct loc_reader locs = { 0 };
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->v = calloc(n ? n : 1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	out->n = n;
	if (!n)
		return 0;
	w.dw = inline_dwarf(d);
	if (!w.dw || n > MAX_INSNS || (e_machine != EM_X86_64_ && e_machine != EM_AARCH64_)) {
		const char *why = !w.dw ? "no debug info for the binary" :
				  n > MAX_INSNS ? "the function is too long to follow" :
				  "data types are followed on x86_64 and aarch64 only";

		for (size_t i = 0; i < n; i++)
			if (v[i].ty_op == TY_LOAD || v[i].ty_op == TY_STORE || v[i].ty_op == TY_MEM ||
			    (v[i].mem && v[i].access != ACC_ADDR) ||
			    (v[i].data && v[i].access && v[i].access != ACC_ADDR))
				out->v[i] = (struct dt_access){ .where = DT_HEAP, .unknown = why };
		return 0;
	}
	w.locs = memo ? &memo->locs : &locs;
	if (w.locs->dw != w.dw) {
		loc_reader_free(w.locs);
		w.locs->dw = w.dw;
	}
	w.have_fn = inline_function_at(d, v[0].addr, &w.cu, &w.fn) == 0;
	if (!w.have_fn)
		memset(&w.cu, 0, sizeof(w.cu));
	w.cxx = w.have_fn && cu_is_cxx(&w.cu);
	w.facts = calloc(n, sizeof(*w.facts));
	w.addrs = malloc(n * sizeof(*w.addrs));
	if (!w.facts || !w.addrs) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		w.addrs[i] = v[i].addr;
	for (int k = 0; k < 6; k++)
		w.param_id[k] = -1;
	if (w.have_fn)
		collect_vars(&w, &w.fn, 0);
	if (w.oom) {
		err = -ENOMEM;
		goto out;
	}
	err = build_facts(&w);
	if (!err)
		err = blocks(&w);
	if (!err)
		err = run(&w);
	/*
	 * The names of the blocks whose last visit was not under their final
	 * state (the visits ran out) or that the walk did not reach (their
	 * facts alone).
	 */
	w.naming = true;
	for (size_t b = 0; b < w.nr_blocks && !err; b++) {
		struct state s;

		if (w.named[b])
			continue;
		if (w.in[b].seen) {
			state_copy(&s, &w.in[b]);
		} else {
			memset(&s, 0, offsetof(struct state, slot));
			for (int r = 0; r < NR_REGS; r++)
				s.r[r] = (struct rv){ .kind = R_UNKNOWN, .name = -1 };
		}
		name_through(&w, b, &s);
	}
out:
	free(w.addrs);
	free(w.fact_pool);
	free(w.fact_once);
	free(w.facts);
	free(w.in);
	free(w.named);
	free(w.block_of);
	free(w.jumps_to);
	free(w.starts);
	free(w.vars);
	for (size_t i = 0; i < w.nr_names; i++)
		free(w.names[i]);
	free(w.names);
	free(w.name_first);
	itable_free(&w.name_index);
	loc_reader_free(&locs);
	if (err)
		datatype_free(out);
	return err;
}

int datatype_name_data(struct dso *d, uint64_t vaddr, const struct insn *in, struct dt_result *out,
		       struct dt_memo *memo)
{
	struct walk w = { .d = d, .out = out, .memo = memo, .naming = true };
	struct insn at = *in;
	const struct sym *sym;
	Dwarf_Die g, cu;
	struct rv dst;

	memset(out, 0, sizeof(*out));
	out->v = calloc(1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	out->n = 1;
	w.dw = inline_dwarf(d);
	if (!w.dw) {
		out->v[0] = (struct dt_access){ .where = DT_GLOBAL,
						 .unknown = "no debug info for the binary" };
		return 0;
	}
	/* named as the variable's own unit names its types (C++: without "struct") */
	sym = symtab_find(&d->data_syms, vaddr);
	if (sym && !inline_global_at(d, NULL, sym->start, &g) && dwarf_diecu(&g, &cu, NULL, NULL))
		w.cxx = cu_is_cxx(&cu);
	/* (the instruction's width and what it does, at the sampled address) */
	at.data = vaddr;
	at.indexed = false;
	at.ty_index = 0;
	if (at.access == ACC_NONE || at.access == ACC_ADDR)
		at.access = ACC_READ;
	name_global(&w, &at, &out->v[0], &dst);
	if (out->v[0].element || (out->v[0].member && strchr(out->v[0].member, '['))) {
		/* an element: named as the code names it, every element one member ("[i]") */
		at.indexed = true;
		out->v[0] = (struct dt_access){ 0 };
		name_global(&w, &at, &out->v[0], &dst);
	}
	for (size_t i = 0; i < w.nr_names; i++)
		free(w.names[i]);
	free(w.names);
	free(w.name_first);
	itable_free(&w.name_index);
	return 0;
}

void datatype_free(struct dt_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_strs; i++)
		free(r->strs[i]);
	free(r->strs);
	free(r->v);
	memset(r, 0, sizeof(*r));
}
