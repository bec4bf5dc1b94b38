/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Variables the symbol tables do not name (file- and function-static ones
 * when only .dynsym is there), and the types of all, from DWARF: every
 * DW_TAG_variable whose location is a fixed address.
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include "dwarf_files.h"
#include "elfimage.h"
#include "share_state.h"

struct dctx {
	struct mycl_share *s;
	size_t described_cap;
	struct elf_image *img;
	bool readonly;
	size_t nr_symbols;		/* the variables from symbol tables, sorted */
	size_t vtypes_cap, marks_cap;
	size_t marks_from;		/* the marks of the variable being marked */
	struct unit_files *files;	/* the names of declaration files */
	bool dropped;			/* some were const: taken out after the walk */
};

static struct mycl_share_var *by_addr(struct dctx *c, uint64_t addr)
{
	size_t lo = 0, hi = c->nr_symbols;

	lo = PARTITION_POINT(lo, hi, mid, c->s->vars[mid].addr < addr);
	return lo < c->nr_symbols && c->s->vars[lo].addr == addr ? &c->s->vars[lo] : NULL;
}

/*
 * The distance between the elements of array type ARRAY (its first index):
 * the element's size times the counts of any further dimensions; 0 unknown.
 * NAME gets the type's name as the element's and the count ("Slot[8]") when
 * the array is TOTAL bytes.
 */
static uint64_t array_stride(Dwarf_Die *array, char *name, size_t len, uint64_t total)
{
	Dwarf_Attribute attr;
	Dwarf_Die elem, peeled, sub;
	Dwarf_Word size, n;
	bool first = true;
	const char *en;

	if (!dwarf_attr_integrate(array, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &elem) ||
	    dwarf_peel_type(&elem, &peeled) || dwarf_aggregate_size(&peeled, &size))
		return 0;
	en = dwarf_diename(&elem) ? dwarf_diename(&elem) : dwarf_diename(&peeled);
	if (en && size && total)
		snprintf(name, len, "%s[%" PRIu64 "]", en, (uint64_t)(total / size));
	if (dwarf_child(array, &sub) != 0)
		return size;
	do {
		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		if (first) {
			first = false;
			continue;
		}
		if (dwarf_attr(&sub, DW_AT_count, &attr) && !dwarf_formudata(&attr, &n))
			size *= n;
		else if (dwarf_attr(&sub, DW_AT_upper_bound, &attr) && !dwarf_formudata(&attr, &n))
			size *= n + 1;
		else
			return 0;
	} while (dwarf_siblingof(&sub, &sub) == 0);
	return size;
}

/*
 * A location that is one fixed address: DW_OP_addr, or DWARF 5's index into
 * .debug_addr (DW_OP_addrx, clang's default; DW_OP_GNU_addr_index).
 */
static bool fixed_address(Dwarf_Attribute *loc, Dwarf_Op *op, Dwarf_Addr *addr)
{
	Dwarf_Attribute a;

	if (op->atom == DW_OP_addr) {
		*addr = op->number;
		return true;
	}
	if (op->atom != DW_OP_addrx && op->atom != DW_OP_GNU_addr_index)
		return false;
	return dwarf_getlocation_attr(loc, op, &a) == 0 && dwarf_formaddr(&a, addr) == 0;
}

/* Kinds of struct share_mark. */
enum { MARK_PTR = 1, MARK_LIB = 2 };
#define MARK_BUDGET 4096	/* DIEs looked at per variable: past it, nothing is known */
#define MARK_MAX 256		/* marks per variable: past it, nothing is known */
#define MARK_UNROLL 64		/* elements of an array inside a variable looked at */

static bool add_mark(struct dctx *c, uint64_t off, uint64_t size, uint8_t kind)
{
	struct mycl_share *s = c->s;

	if (off > UINT32_MAX || size > UINT32_MAX || s->nr_marks - c->marks_from >= MARK_MAX ||
	    ARRAY_GROW(s->marks, c->marks_cap, s->nr_marks + 1))
		return false;
	s->marks[s->nr_marks++] = (struct share_mark){ (uint32_t)off, (uint32_t)size, kind };
	return true;
}

/*
 * The pointers and the objects of a library's type inside an object of
 * TYPE at OFF (IN_LIB: inside one already), as marks; false when past the
 * budget (nothing is known then).
 */
static bool mark_type(struct dctx *c, Dwarf_Die *type, uint64_t off, bool in_lib, int depth,
		      unsigned int *budget)
{
	Dwarf_Die peeled, child, mt;
	Dwarf_Attribute at;
	Dwarf_Word size, esize;
	int tag;

	if (!*budget || depth > 16)
		return false;
	--*budget;
	if (dwarf_peel_type(type, &peeled) || dwarf_aggregate_size(&peeled, &size))
		return true;	/* (no size: nothing inside it is asked of) */
	tag = dwarf_tag(&peeled);
	if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	    tag == DW_TAG_rvalue_reference_type)
		return add_mark(c, off, size, MARK_PTR);
	if (tag == DW_TAG_array_type) {
		if (!dwarf_attr_integrate(&peeled, DW_AT_type, &at) || !dwarf_formref_die(&at, &mt) ||
		    dwarf_aggregate_size(&mt, &esize) || !esize)
			return true;
		for (uint64_t k = 0; k < size / esize; k++)
			if (k == MARK_UNROLL || !mark_type(c, &mt, off + k * esize, in_lib, depth + 1, budget))
				return false;
		return true;
	}
	if (tag != DW_TAG_structure_type && tag != DW_TAG_class_type && tag != DW_TAG_union_type)
		return true;
	if (!in_lib && share_library_type(c->files, &peeled)) {
		if (!add_mark(c, off, size, MARK_LIB))
			return false;
		in_lib = true;
	}
	if (dwarf_child(&peeled, &child) != 0)
		return true;
	do {
		Dwarf_Word moff = 0;
		int ct = dwarf_tag(&child);

		if (ct != DW_TAG_member && ct != DW_TAG_inheritance)
			continue;
		if (dwarf_attr(&child, DW_AT_data_member_location, &at) &&
		    dwarf_formudata(&at, &moff) != 0)
			continue;	/* (a location expression: a virtual base) */
		if (dwarf_attr_integrate(&child, DW_AT_type, &at) && dwarf_formref_die(&at, &mt) &&
		    !mark_type(c, &mt, off + moff, in_lib, depth + 1, budget))
			return false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return true;
}

/*
 * The marks of the variable at ADDR of type TYPE (DIE): an array's for one
 * element, with the element's size as the stride.  A failure only leaves the
 * variable with nothing known.
 */
static void mark_var(struct dctx *c, uint64_t addr, Dwarf_Die *die)
{
	struct mycl_share *s = c->s;
	Dwarf_Attribute attr;
	Dwarf_Die type, peeled, elem;
	Dwarf_Word esize = 0;
	unsigned int budget = MARK_BUDGET;
	bool ok;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type) ||
	    dwarf_peel_type(&type, &peeled))
		return;
	c->marks_from = s->nr_marks;
	if (dwarf_tag(&peeled) == DW_TAG_array_type && dwarf_attr_integrate(&peeled, DW_AT_type, &attr) &&
	    dwarf_formref_die(&attr, &elem) && !dwarf_aggregate_size(&elem, &esize) && esize &&
	    esize <= UINT32_MAX)
		ok = mark_type(c, &elem, 0, false, 1, &budget);
	else
		ok = mark_type(c, &type, 0, false, 0, &budget), esize = 0;
	if (!ok || s->nr_marks == c->marks_from ||
	    ARRAY_GROW(s->vtypes, c->vtypes_cap, s->nr_vtypes + 1)) {
		s->nr_marks = c->marks_from;
		return;
	}
	s->vtypes[s->nr_vtypes++] = (struct share_vtype){ addr, (uint32_t)esize,
							  (uint32_t)c->marks_from,
							  (uint32_t)(s->nr_marks - c->marks_from) };
}

static void variable(struct dctx *c, Dwarf_Die *die, const char *scope)
{
	Dwarf_Addr addr;
	Dwarf_Attribute attr;
	Dwarf_Op *expr;
	size_t nexpr;
	Dwarf_Die type;
	Dwarf_Word size = 0;
	uint64_t stride = 0;
	char tname_buf[128] = "";	/* an array's: "Slot[8]" */
	const struct elf_section *sec;
	struct mycl_share_var *v;
	const char *name = dwarf_diename(die), *tname = NULL;
	bool is_const = false;
	char *full;

	if (!name || !dwarf_attr(die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &expr, &nexpr) || nexpr != 1 || !fixed_address(&attr, expr, &addr))
		return;
	if (dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, &type)) {
		Dwarf_Die peeled;

		tname = dwarf_diename(&type);
		is_const = dwarf_tag(&type) == DW_TAG_const_type;
		if (dwarf_peel_type(&type, &peeled) == 0) {
			if (!tname)
				tname = dwarf_diename(&peeled);
			if (dwarf_aggregate_size(&peeled, &size))
				size = 0;
			if (dwarf_tag(&peeled) == DW_TAG_array_type)
				stride = array_stride(&peeled, tname_buf, sizeof(tname_buf), size);
			if (!tname && tname_buf[0])
				tname = tname_buf;
		}
	}
	if (size)
		mark_var(c, addr, die);
	v = by_addr(c, addr);
	/*
	 * const in the source but in a writable section (riscv's .srodata goes
	 * into .sdata in programs at a fixed address): read-only all the same.
	 */
	if (v && is_const && !c->readonly) {
		v->size = UINT64_MAX;
		c->dropped = true;
		return;
	}
	if (!ARRAY_GROW(c->s->described, c->described_cap, c->s->nr_described + 1))
		c->s->described[c->s->nr_described++] = addr;
	if (v) {
		if (!v->type && tname)
			v->type = share_keep(c->s, strdup(tname));
		if (!v->stride && stride <= UINT32_MAX)
			v->stride = (uint32_t)stride;
		return;
	}
	sec = elf_image_section_at(c->img, addr);
	if (!sec || sec->exec || ((!sec->write || elf_image_relro(c->img, addr)) && !c->readonly) ||
	    (is_const && !c->readonly))
		return;
	if (ARRAY_GROW(c->s->vars, c->s->vars_cap, c->s->nr_vars + 1))
		return;
	if (scope ? asprintf(&full, "%s::%s", scope, name) < 0 : !(full = strdup(name)))
		return;
	c->s->vars[c->s->nr_vars++] = (struct mycl_share_var){
		.name = share_keep(c->s, full), .type = tname ? share_keep(c->s, strdup(tname)) : NULL,
		.origin = "dwarf", .addr = addr, .size = size, .section = sec->name,
		.stride = stride <= UINT32_MAX ? (uint32_t)stride : 0,
		.kind = var_kind(c->img, sec, addr),
	};
}

static void walk(struct dctx *c, Dwarf_Die *parent, const char *scope, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_variable)
			variable(c, &child, scope);
		else if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
			 tag == DW_TAG_namespace)
			walk(c, &child, tag == DW_TAG_subprogram ? dwarf_diename(&child) : scope,
			     depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int range_cmp(const void *a, const void *b)
{
	const struct share_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Whether the debug info describes the code at ADDR (ranges sorted, merged). */
static bool described_code(const struct mycl_share *s, uint64_t addr)
{
	size_t lo = PARTITION_POINT(0, s->nr_dcode, mid, s->dcode[mid].start <= addr);

	return lo && addr < s->dcode[lo - 1].end;
}

void share_mark_linked(struct mycl_share *s)
{
	uint8_t *seen;			/* per variable: 1 touched, 2 touched by described code */

	if (!s->nr_dcode) {
		/* no debug info, or none for code: nothing to tell apart */
		s->static_blind = dso_image(s->dso) && elf_image_static(dso_image(s->dso));
		return;
	}
	seen = calloc(s->nr_vars ? s->nr_vars : 1, 1);
	if (!seen)
		return;		/* out of memory: everything stays the program's */
	for (size_t k = 0; k < s->nr_refs; k++)
		seen[s->refs[k].var] |= described_code(s, s->refs[k].addr) ? 3 : 1;
	for (size_t k = 0; k < s->nr_vars; k++) {
		struct mycl_share_var *v = &s->vars[k];
		size_t lo = PARTITION_POINT(0, s->nr_described, mid, s->described[mid] < v->addr);

		if (v->kind == MYCL_SHARE_VAR_PLAIN && seen[k] == 1 &&
		    !(lo < s->nr_described && s->described[lo] == v->addr))
			v->kind = MYCL_SHARE_VAR_LINKED;
	}
	free(seen);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct mycl_share_var *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int vtype_cmp(const void *a, const void *b)
{
	const struct share_vtype *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct share_dwarf {
	Dwarf *dw;
	int fd;
};

void share_dwarf_close(struct share_dwarf *h)
{
	if (!h)
		return;
	dwarf_end(h->dw);
	close(h->fd);
	free(h);
}

int share_dwarf_open(struct mycl_share *s, const char *file, struct share_dwarf **out)
{
	struct share_dwarf *h;
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	int fd;

	*out = NULL;
	if (!dso_image(s->dso) || (fd = open_regular(file)) < 0)
		return 0;
	h = calloc(1, sizeof(*h));
	if (!h) {
		close(fd);
		return -ENOMEM;
	}
	h->fd = fd;
	h->dw = dwarf_begin(fd, DWARF_C_READ);
	if (!h->dw) {
		share_dwarf_close(h);
		return 0;	/* no DWARF: the symbol tables are all there is */
	}
	while (dwarf_nextcu(h->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, start, end;
		ptrdiff_t r = 0;

		if (dwarf_offdie(h->dw, off + hsize, &cu))
			while ((r = dwarf_ranges(&cu, r, &base, &start, &end)) > 0)
				if (end > start && !ARRAY_GROW(s->dcode, cap, s->nr_dcode + 1))
					s->dcode[s->nr_dcode++] = (struct share_range){ start, end };
		off = next;
	}
	sort_array(s->dcode, s->nr_dcode, sizeof(*s->dcode), range_cmp);
	if (s->nr_dcode) {
		size_t k = 0;

		for (size_t i = 1; i < s->nr_dcode; i++) {
			if (s->dcode[i].start <= s->dcode[k].end) {
				if (s->dcode[i].end > s->dcode[k].end)
					s->dcode[k].end = s->dcode[i].end;
			} else {
				s->dcode[++k] = s->dcode[i];
			}
		}
		s->nr_dcode = k + 1;
	}
	*out = h;
	return 0;
}

int share_dwarf_vars(struct mycl_share *s, struct share_dwarf *h, bool readonly)
{
	struct dctx c = { .s = s, .img = dso_image(s->dso), .readonly = readonly };
	Dwarf_Off off = 0, next;
	size_t hsize;

	sort_array(s->vars, s->nr_vars, sizeof(*s->vars), sym_cmp);
	c.nr_symbols = s->nr_vars;
	c.files = unit_files_new(h->dw);	/* (none: libdw names the files) */
	while (dwarf_nextcu(h->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(h->dw, off + hsize, &cu))
			walk(&c, &cu, NULL, 0);
		off = next;
	}
	unit_files_free(c.files);
	sort_array(s->vtypes, s->nr_vtypes, sizeof(*s->vtypes), vtype_cmp);
	sort_array(s->described, s->nr_described, sizeof(*s->described), u64_cmp);
	if (c.dropped) {
		size_t k = 0;

		for (size_t i = 0; i < s->nr_vars; i++)
			if (s->vars[i].size != UINT64_MAX)
				s->vars[k++] = s->vars[i];
		s->nr_vars = k;
	}
	return 0;
}

void share_dwarf_end(struct mycl_share *s)
{
	free(s->vtypes);
	free(s->marks);
	s->vtypes = NULL;
	s->marks = NULL;
	s->nr_vtypes = s->nr_marks = 0;
}

/* V's marks, with OFF made an offset into one element; NULL when nothing is known. */
static const struct share_vtype *vtype_of(const struct mycl_share *s,
					  const struct mycl_share_var *v)
{
	size_t lo = PARTITION_POINT(0, s->nr_vtypes, mid, s->vtypes[mid].addr < v->addr);

	return lo < s->nr_vtypes && s->vtypes[lo].addr == v->addr ? &s->vtypes[lo] : NULL;
}

/* The first mark of KIND of type T holding both offsets A and B, or NULL. */
static const struct share_mark *marked(const struct mycl_share *s, const struct share_vtype *t,
				       uint64_t a, uint64_t b, uint8_t kind)
{
	for (uint32_t k = t->first; k < t->first + t->nr; k++) {
		const struct share_mark *m = &s->marks[k];

		if (m->kind == kind && a >= m->off && a - m->off < m->size && b >= m->off &&
		    b - m->off < m->size)
			return m;
	}
	return NULL;
}

bool share_pointer_at(struct mycl_share *s, const struct mycl_share_var *v, uint64_t off)
{
	const struct share_vtype *t = vtype_of(s, v);

	if (!t)
		return false;
	if (t->stride)
		off %= t->stride;
	return marked(s, t, off, off, MARK_PTR);
}

bool share_library_at(struct mycl_share *s, const struct mycl_share_var *v, uint64_t off,
		      uint64_t *start, uint64_t *size)
{
	const struct share_vtype *t = vtype_of(s, v);
	const struct share_mark *m;
	uint64_t base = 0;

	if (!t)
		return false;
	if (t->stride) {
		base = off - off % t->stride;
		off %= t->stride;
	}
	if (!(m = marked(s, t, off, off, MARK_LIB)))
		return false;
	*start = base + m->off;
	*size = m->size;
	return true;
}

bool share_library_part(struct mycl_share *s, const struct mycl_share_var *v, uint64_t a,
			uint64_t b)
{
	const struct share_vtype *t = vtype_of(s, v);

	if (!t)
		return false;
	if (t->stride) {
		if (a / t->stride != b / t->stride)
			return false;	/* (two elements of an array: the program's layout) */
		a %= t->stride;
		b %= t->stride;
	}
	return marked(s, t, a, b, MARK_LIB);
}
