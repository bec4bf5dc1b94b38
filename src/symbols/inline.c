/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include "dso.h"
#include "itable.h"
#include "dwarf_scopes.h"
#include "elfimage.h"
#include "inline.h"
#include "internal.h"
#include "machine.h"

#define MAX_INLINE 64

struct inl_ent {
	uint64_t vaddr;
	uint32_t off, n;		/* names[off..off+n) */
	bool replaces;			/* the last name stands for the symbol itself */
};

struct inline_cache {
	Dwarf *dw;
	Elf *elf;			/* dw's (dwarf_begin_elf: libelf's version global left alone) */
	int fd;
	struct inl_ent *ents;		/* found through index, by address */
	size_t nr, cap;
	struct itable index;
	const char **names;
	size_t nr_names, names_cap;
	/* The units' address ranges, read when .debug_aranges does not answer (clang emits none). */
	struct die_ranges cus;
	bool cus_read;
	struct unit_scopes *units;	/* functions inside namespaces (rustc's), indexed per unit */
	bool units_borrowed;		/* a twin's: its dso's (inline_twin), not freed here */
	struct die_range *globals;	/* global variables by address (lo), for inline_global_at */
	size_t nr_globals, globals_cap;
	bool globals_read;
	bool globals_borrowed;		/* a twin's: its dso's index (inline_twin), not freed here */
};

static void inline_cache_free(struct dso *d);

/*
 * Sections nothing here reads shown to libdw as empty (SHT_NOBITS, which it
 * skips) in this process's private copy of E's section headers: libdw
 * inflates every compressed debug section when it opens a file.  When
 * NO_LINES (no annotation, the only reader of source lines and of the
 * locations of local variables, for data types): the line table
 * (.debug_line) and the location lists (.debug_loclists, DWARF 4's
 * .debug_loc; a global's location is an expression in its DIE).
 * libc6-dbg's libc: 1.3 and 1.4 of the 10 MB inflated.
 */
static void hide_unread(Elf *e, bool no_lines)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx))
		return;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (no_lines && (!strcmp(name, ".debug_loclists") || !strcmp(name, ".debug_loc") ||
				 !strcmp(name, ".debug_line"))) {
			sh.sh_type = SHT_NOBITS;
			gelf_update_shdr(scn, &sh);
		}
	}
}

static struct inline_cache *cache_of(struct dso *d)
{
	struct inline_cache *c = d->inlines;

	if (c || d->inlines_tried)
		return c;
	d->inlines_tried = true;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->fd = -1;
	/* The file symbols came from carries .debug_info when there is any. */
	if (d->sym_path) {
		c->fd = open_regular(d->sym_path);
		elf_library_init();
		/* (a private mapping: the section headers are changed in memory only) */
		if (c->fd >= 0 && (c->elf = elf_begin(c->fd, ELF_C_READ_MMAP_PRIVATE, NULL))) {
			hide_unread(c->elf, d->no_line_table);
			c->dw = dwarf_begin_elf(c->elf, DWARF_C_READ, NULL);
		}
	}
	d->inlines = c;
	d->inlines_free = inline_cache_free;
	return c;
}

void inline_prepare(struct dso *d)
{
	cache_of(d);
}

static void inline_cache_free(struct dso *d)
{
	struct inline_cache *c = d->inlines;

	if (!c)
		return;
	if (c->dw)
		dwarf_end(c->dw);
	if (c->elf)
		elf_end(c->elf);
	if (c->fd >= 0)
		close(c->fd);
	free(c->ents);
	itable_free(&c->index);
	free(c->names);
	free(c->cus.v);
	if (!c->globals_borrowed)
		free(c->globals);
	if (!c->units_borrowed)
		unit_scopes_free(c->units);
	free(c);
	d->inlines = NULL;
}

/* C->cus from every unit's DW_AT_low_pc/high_pc or DW_AT_ranges, sorted. */
static void read_cu_ranges(struct inline_cache *c)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	c->cus_read = true;
	while (dwarf_nextcu(c->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(c->dw, off + hsize, &cu) && die_ranges_add(&c->cus, &cu))
			break;
		off = next;
	}
	die_ranges_sort(&c->cus);
}

/*
 * The unit holding VADDR into *CUDIE: by .debug_aranges, else by the units'
 * own ranges (clang writes no .debug_aranges; addr2line reads the units too).
 */
static bool cu_die_at(struct inline_cache *c, uint64_t vaddr, Dwarf_Die *cudie)
{
	const struct die_range *r;

	if (!c->dw)
		return false;
	if (dwarf_addrdie(c->dw, vaddr, cudie))
		return true;
	if (!c->cus_read)
		read_cu_ranges(c);
	/* (the last range starting at or below it; overlapping ones looked back over) */
	r = die_ranges_find(&c->cus, vaddr, 8);
	return r && dwarf_offdie(c->dw, r->die, cudie) != NULL;
}

static uint64_t vaddr_hash(uint64_t vaddr)
{
	return (vaddr * 0x9E3779B97F4A7C15ULL) >> 20;
}

static bool hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = vaddr_hash(((const struct inline_cache *)ctx)->ents[i].vaddr);
	return true;
}

static const char *scope_name(const struct inline_names *in, Dwarf_Die *scope, const char *base)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin, *d = scope;
	const char *name = NULL;
	char *dem = NULL, buf[1024];

	if (dwarf_attr(scope, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &origin))
		d = &origin;
	if (dwarf_attr_integrate(d, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(d, DW_AT_MIPS_linkage_name, &attr)) {
		const char *link = dwarf_formstring(&attr);

		/*
		 * A linkage name no demangler reads is the function's assembler
		 * name (glibc's hidden aliases: __poll is "__GI___poll"), as perf
		 * and addr2line show it.
		 */
		if (link && !(dem = demangle_name(link)))
			name = link;
	}
	if (!dem && !name) {
		if (dwarf_attr_integrate(d, DW_AT_name, &attr))
			name = dwarf_formstring(&attr);
		if (!name)
			return NULL;
	}
	/* The function the symbol is: no frame of its own (perf's rule too). */
	if (base && !strcmp(base, dem ? dem : name)) {
		free(dem);
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%s (inlined)", dem ? dem : name);
	free(dem);
	return in->intern(in->ctx, buf);
}

/*
 * The inlined subroutines at VADDR, innermost first, then the function they
 * sit in when its source name is not BASE (a .constprop/.part clone, a
 * versioned alias): perf lists those as "(inlined)" too.
 */
static int lookup(const struct inline_names *in, struct inline_cache *c, uint64_t vaddr,
		  const char *base,
		  const char **names, size_t max, size_t *n, bool *replaces)
{
	Dwarf_Die cudie, *scopes = NULL;
	bool sub_differs = false;
	int nscopes;

	*n = 0;
	*replaces = false;
	if (!cu_die_at(c, vaddr, &cudie))
		return 0;
	/*
	 * The function holding VADDR and the inlined subroutines nested in it
	 * there, from an index of the unit's functions: dwarf_getscopes() goes
	 * from an inlined instance to its abstract origin's scopes, so it gives
	 * the innermost inlined function alone, and it does not enter namespaces
	 * (rustc's functions).
	 */
	nscopes = unit_scopes_at(&c->units, c->dw, &cudie, vaddr, &scopes);
	if (nscopes < 0)
		return nscopes;
	for (int i = 0; i < nscopes && *n < max; i++) {
		const char *name;

		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name = scope_name(in, &scopes[i], base);
		if (name)
			names[(*n)++] = name;
		if (tag == DW_TAG_subprogram) {
			sub_differs = name != NULL;
			break;
		}
	}
	free(scopes);
	/*
	 * The function as the source knows it, when its name is not the symbol's
	 * (foo.constprop.0 is "foo"), stands for the symbol, as in perf.  When no
	 * enclosing function is described, the symbol keeps its frame.
	 */
	*replaces = sub_differs;
	return 0;
}

int inline_frames(const struct inline_names *in, struct dso *d, uint64_t vaddr, const char *base,
		  const char **names, size_t max, size_t *n, bool *replaces)
{
	struct inline_cache *c = cache_of(d);
	const char *found[MAX_INLINE];
	size_t h, nf = 0;
	bool repl = false;
	int err;

	*n = 0;
	*replaces = false;
	if (!c || !c->dw)
		return 0;
	if (c->index.cap) {
		itable_each(&c->index, vaddr_hash(vaddr), h) {
			const struct inl_ent *e = &c->ents[c->index.slot[h]];

			if (e->vaddr == vaddr) {
				*n = e->n < max ? e->n : max;
				*replaces = e->replaces && *n == e->n;
				memcpy(names, c->names + e->off, *n * sizeof(*names));
				return 0;
			}
		}
	}
	err = lookup(in, c, vaddr, base, found, MAX_INLINE, &nf, &repl);
	if (err)
		return err;
	if ((itable_full(&c->index, c->nr) && itable_grow(&c->index, c->nr, 1024, hash_at, c)) ||
	    ARRAY_GROW(c->ents, c->cap, c->nr + 1) ||
	    ARRAY_GROW(c->names, c->names_cap, c->nr_names + nf + 1))
		return -ENOMEM;
	memcpy(c->names + c->nr_names, found, nf * sizeof(*found));
	itable_each(&c->index, vaddr_hash(vaddr), h)
		;
	c->ents[c->nr] = (struct inl_ent){ .vaddr = vaddr, .off = (uint32_t)c->nr_names,
					   .n = (uint32_t)nf, .replaces = repl };
	itable_put(&c->index, h, c->nr++);
	c->nr_names += nf;
	*n = nf < max ? nf : max;
	*replaces = repl && *n == nf;
	memcpy(names, found, *n * sizeof(*names));
	return 0;
}

int inline_srcline(struct dso *d, uint64_t vaddr, const char **file, int *line)
{
	struct inline_cache *c = cache_of(d);
	Dwarf_Die cudie;
	Dwarf_Line *l;

	*file = NULL;
	*line = 0;
	if (!c || !cu_die_at(c, vaddr, &cudie))
		return 0;
	l = dwarf_getsrc_die(&cudie, vaddr);
	if (!l)
		return 0;
	dwarf_lineno(l, line);
	/* Line 0: code the compiler made that no source line wrote (clang marks it so). */
	*file = *line > 0 ? dwarf_linesrc(l, NULL, NULL) : NULL;
	return 0;
}

const char *inline_comp_dir(struct dso *d, uint64_t vaddr)
{
	struct inline_cache *c = cache_of(d);
	Dwarf_Attribute at;
	Dwarf_Die cudie;

	if (!c || !cu_die_at(c, vaddr, &cudie))
		return NULL;
	return dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &at));
}

Dwarf *inline_dwarf(struct dso *d)
{
	struct inline_cache *c = cache_of(d);

	return c ? c->dw : NULL;
}

int inline_function_at(struct dso *d, uint64_t vaddr, Dwarf_Die *cu, Dwarf_Die *fn)
{
	struct inline_cache *c = cache_of(d);
	int n;

	if (!c || !cu_die_at(c, vaddr, cu))
		return -ENOENT;
	n = unit_function_at(&c->units, c->dw, cu, vaddr, fn);
	return n < 0 ? n : n ? 0 : -ENOENT;
}

struct dso *inline_twin(struct dso *d)
{
	struct inline_cache *pc = cache_of(d), *c;
	struct dso *t;

	if (!pc || !pc->dw)
		return NULL;
	/* what the twins share, made read only: the names settled (the globals' index later) */
	symtab_settle_all(&d->data_syms);
	t = malloc(sizeof(*t));
	if (!t)
		return NULL;
	*t = *d;
	t->inlines = NULL;
	t->inlines_free = NULL;
	t->inlines_tried = false;
	t->spins = NULL;
	t->spins_free = NULL;
	t->syms.last = NULL;
	t->data_syms.last = NULL;
	c = cache_of(t);
	/* (and the units' indexes, each read once by whichever thread needs it first) */
	if (!pc->units)
		pc->units = unit_scopes_new();
	if (!c || !c->dw || !pc->units) {
		inline_twin_free(t);
		return NULL;
	}
	c->units = pc->units;
	c->units_borrowed = true;
	return t;
}

void inline_twin_globals(struct dso *t, struct dso *d)
{
	struct inline_cache *pc = cache_of(d), *c = cache_of(t);
	Dwarf_Die die;

	if (!pc || !c)
		return;
	if (!pc->globals_read)
		inline_global_at(d, NULL, 0, &die);
	c->globals = pc->globals;
	c->nr_globals = pc->nr_globals;
	c->globals_read = true;
	c->globals_borrowed = true;
}

void inline_twin_free(struct dso *t)
{
	if (!t)
		return;
	if (t->inlines_free)
		t->inlines_free(t);
	free(t);
}

/* ---- where in a global an address falls: journal.append_mutex ---- */

static int member_path_of(struct dso *d, const char *var, uint64_t start, uint64_t off, bool deref,
			  char *buf, size_t len);

bool inline_strip_type(Dwarf_Die *t)
{
	Dwarf_Attribute at;

	/* typedef, const, volatile, atomic, restrict: the type under them. */
	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(t);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_atomic_type && tag != DW_TAG_restrict_type)
			return true;
		if (!dwarf_attr_integrate(t, DW_AT_type, &at) || !dwarf_formref_die(&at, t))
			return false;
	}
	return false;
}

static Dwarf_Die *type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute at;

	if (!dwarf_attr_integrate(die, DW_AT_type, &at) || !dwarf_formref_die(&at, out))
		return NULL;
	return inline_strip_type(out) ? out : NULL;
}

static void put(char *buf, size_t len, size_t *used, const char *s)
{
	int n = snprintf(buf + *used, len - *used, "%s", s);

	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

/* Appends the member path of OFF inside an object of type TYPE. */
static void member_path(Dwarf_Die *type, uint64_t off, char *buf, size_t len, size_t *used, int depth)
{
	Dwarf_Die child, mt;
	int tag = dwarf_tag(type);
	char tmp[64];

	if (depth > 8 || (!off && depth)) {
		return;		/* at a member's start: that member */
	} else if (!off && tag != DW_TAG_structure_type && tag != DW_TAG_class_type) {
		return;		/* the start of the global itself */
	} else if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
		Dwarf_Die best, bt;
		Dwarf_Word best_off = 0;
		bool found = false;
		const char *name;

		if (dwarf_child(type, &child) != 0)
			goto rest;
		/*
		 * The member holding OFF; of several, the last starting: a class's
		 * members may lie in its base's tail padding (a base with a virtual
		 * table: 12 bytes of data, 16 of size).
		 */
		do {
			Dwarf_Attribute at;
			Dwarf_Word moff = 0;
			Dwarf_Word size;
			int ct = dwarf_tag(&child);

			if (ct != DW_TAG_member && ct != DW_TAG_inheritance)
				continue;
			if (dwarf_attr(&child, DW_AT_data_member_location, &at) &&
			    dwarf_formudata(&at, &moff) != 0)
				continue;
			if (!type_of(&child, &mt) || dwarf_aggregate_size(&mt, &size) != 0)
				continue;
			if (off < moff || off >= moff + size || (found && moff <= best_off))
				continue;
			best = child;
			bt = mt;
			best_off = moff;
			found = true;
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			goto rest;
		name = dwarf_tag(&best) == DW_TAG_member ? dwarf_diename(&best) : NULL;
		if (name) {
			put(buf, len, used, ".");
			put(buf, len, used, name);
		}
		member_path(&bt, off - best_off, buf, len, used, depth + 1);
		return;
	} else if (tag == DW_TAG_array_type) {
		Dwarf_Word esize;

		if (type_of(type, &mt) && dwarf_aggregate_size(&mt, &esize) == 0 && esize) {
			snprintf(tmp, sizeof(tmp), "[%" PRIu64 "]", (uint64_t)(off / esize));
			put(buf, len, used, tmp);
			member_path(&mt, off % esize, buf, len, used, depth + 1);
			return;
		}
	}
rest:
	if (off) {
		snprintf(tmp, sizeof(tmp), "+%#" PRIx64, off);
		put(buf, len, used, tmp);
	}
}

/* The address a global's location names (DW_OP_addr, DWARF 5's DW_OP_addrx), or 0. */
static uint64_t var_addr(Dwarf_Die *die)
{
	Dwarf_Attribute at, res;
	Dwarf_Op *ops;
	Dwarf_Addr a;
	size_t n;

	if (!dwarf_attr(die, DW_AT_location, &at) || dwarf_getlocation(&at, &ops, &n) != 0 || n != 1)
		return 0;
	if (ops[0].atom == DW_OP_addr)
		return ops[0].number;
	if ((ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index) &&
	    dwarf_getlocation_attr(&at, ops, &res) == 0 && dwarf_formaddr(&res, &a) == 0)
		return a;
	return 0;
}

static void index_vars(struct inline_cache *c, Dwarf_Die *parent, int depth)
{
	Dwarf_Die k;

	if (depth > 4 || dwarf_child(parent, &k) != 0)
		return;
	do {
		int tag = dwarf_tag(&k);
		uint64_t a;

		if (tag == DW_TAG_variable && (a = var_addr(&k))) {
			if (ARRAY_GROW(c->globals, c->globals_cap, c->nr_globals + 1))
				return;
			c->globals[c->nr_globals++] = (struct die_range){ .lo = a, .hi = a,
									  .die = dwarf_dieoffset(&k) };
		} else if (tag == DW_TAG_namespace) {
			index_vars(c, &k, depth + 1);
		}
	} while (dwarf_siblingof(&k, &k) == 0);
}

static int by_lo(const void *a, const void *b)
{
	const struct die_range *x = a, *y = b;

	/* (at one address, the first unit's: the order a walk of the units meets them) */
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->die < y->die ? -1 : x->die > y->die;
}

/*
 * Every unit's global variables by address, read once: data types look up a
 * global for each access to one (walking the units each time cost a
 * PostgreSQL profile minutes).
 */
int inline_global_at(struct dso *d, Dwarf_Die *cu, uint64_t start, Dwarf_Die *out)
{
	struct inline_cache *c = cache_of(d);
	size_t lo = 0, hi;

	(void)cu;
	if (!c || !c->dw)
		return -ENOENT;
	if (!c->globals_read) {
		Dwarf_Off off = 0, next;
		size_t hsize;
		Dwarf_Die die;

		c->globals_read = true;
		while (dwarf_nextcu(c->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			if (dwarf_offdie(c->dw, off + hsize, &die))
				index_vars(c, &die, 0);
			off = next;
		}
		if (c->nr_globals)
			qsort(c->globals, c->nr_globals, sizeof(*c->globals), by_lo);
	}
	hi = c->nr_globals;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->globals[mid].lo < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nr_globals && c->globals[lo].lo == start &&
	    dwarf_offdie(c->dw, c->globals[lo].die, out))
		return 0;
	return -ENOENT;
}

/*
 * Whether entry CHILD of a struct, class or union is a member (or a base
 * class) holding byte OFF: its type *MT, its offset *MOFF and size *SIZE.
 */
static bool member_holding(Dwarf_Die *child, uint64_t off, Dwarf_Die *mt, Dwarf_Word *moff,
			   Dwarf_Word *size)
{
	Dwarf_Attribute at;
	int ct = dwarf_tag(child);

	*moff = 0;
	return (ct == DW_TAG_member || ct == DW_TAG_inheritance) &&
	       !(dwarf_attr(child, DW_AT_data_member_location, &at) &&
		 dwarf_formudata(&at, moff) != 0) &&
	       type_of(child, mt) && dwarf_aggregate_size(mt, size) == 0 &&
	       off >= *moff && off - *moff < *size;
}

/* The type of the global at START of D, typedefs and qualifiers taken off, into *TYPE. */
static bool global_type(struct dso *d, uint64_t start, Dwarf_Die *type)
{
	struct inline_cache *c = cache_of(d);
	Dwarf_Die var_die;

	return c && c->dw && inline_global_at(d, NULL, start, &var_die) == 0 &&
	       type_of(&var_die, type);
}

bool inline_member_pointer(struct dso *d, uint64_t start, uint64_t off)
{
	Dwarf_Die type, child, mt;

	if (!global_type(d, start, &type))
		return false;
	for (int depth = 0; depth < 16; depth++) {
		int tag = dwarf_tag(&type);
		Dwarf_Word best_off = 0;
		Dwarf_Die best;
		bool in = false;

		if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
		    tag == DW_TAG_rvalue_reference_type)
			return true;
		if (tag == DW_TAG_array_type) {
			Dwarf_Word esize;

			if (!type_of(&type, &mt) || dwarf_aggregate_size(&mt, &esize) != 0 || !esize)
				return false;
			off %= esize;
			type = mt;
			continue;
		}
		if ((tag != DW_TAG_structure_type && tag != DW_TAG_class_type &&
		     tag != DW_TAG_union_type) || dwarf_child(&type, &child) != 0)
			return false;
		/* (of several holding it, the last starting: members in a base's tail padding) */
		do {
			Dwarf_Word moff, size;

			if (!member_holding(&child, off, &mt, &moff, &size) || (in && moff <= best_off))
				continue;
			best_off = moff;
			best = mt;
			in = true;
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!in)
			return false;
		off -= best_off;
		type = best;
	}
	return false;
}

int inline_member_extent(struct dso *d, uint64_t start, uint64_t off, uint64_t *lo, uint64_t *hi)
{
	Dwarf_Die type, child, mt;
	bool found = false;
	int tag;

	if (!global_type(d, start, &type))
		return -ENOENT;
	tag = dwarf_tag(&type);
	if ((tag != DW_TAG_structure_type && tag != DW_TAG_class_type && tag != DW_TAG_union_type) ||
	    dwarf_child(&type, &child) != 0)
		return -ENOENT;
	/* (every member holding it: a union's overlap, the widest extent of them) */
	do {
		Dwarf_Word moff, size;

		if (!member_holding(&child, off, &mt, &moff, &size))
			continue;
		if (!found || moff < *lo)
			*lo = moff;
		if (!found || moff + size > *hi)
			*hi = moff + size;
		found = true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return found ? 0 : -ENOENT;
}

int inline_member_path(struct dso *d, const char *var, uint64_t start, uint64_t off, char *buf,
		       size_t len)
{
	return member_path_of(d, var, start, off, false, buf, len);
}

int inline_pointee_path(struct dso *d, const char *var, uint64_t start, uint64_t off, char *buf,
			size_t len)
{
	return member_path_of(d, var, start, off, true, buf, len);
}

static int member_path_of(struct dso *d, const char *var, uint64_t start, uint64_t off, bool deref,
			  char *buf, size_t len)
{
	struct inline_cache *c = cache_of(d);
	size_t used = 0;
	Dwarf_Die var_die, type;

	if (!c || !c->dw || !len)
		return -ENOENT;
	/* (the globals' index: the first unit's variable at START, as a walk of the units finds) */
	if (inline_global_at(d, NULL, start, &var_die) != 0)
		return -ENOENT;
	put(buf, len, &used, var);
	if (!type_of(&var_die, &type))
		return off || deref ? -ENOENT : 0;
	if (deref) {
		/* var->member: the type var points to. */
		Dwarf_Die pointee;
		Dwarf_Word esize;
		size_t at = used;

		if (dwarf_tag(&type) != DW_TAG_pointer_type || !type_of(&type, &pointee))
			return -ENOENT;
		if (dwarf_aggregate_size(&pointee, &esize) == 0 && esize && off >= esize) {
			/* past the first element: var points into an array of them, var[i] */
			char tmp[32];

			snprintf(tmp, sizeof(tmp), "[%" PRIu64 "]", (uint64_t)(off / esize));
			put(buf, len, &used, tmp);
			member_path(&pointee, off % esize, buf, len, &used, 0);
			return 0;
		}
		put(buf, len, &used, "->");
		member_path(&pointee, off, buf, len, &used, 0);
		/* "->.mutex" reads "->mutex". */
		if (used > at + 2 && buf[at + 2] == '.') {
			memmove(buf + at + 2, buf + at + 3, used - at - 2);
			used--;
		}
		if (used == at + 2 && !off) {
			buf[at] = '\0';
			memmove(buf + 1, buf, at + 1);
			buf[0] = '*';
		}
		return 0;
	}
	member_path(&type, off, buf, len, &used, 0);
	return 0;
}
