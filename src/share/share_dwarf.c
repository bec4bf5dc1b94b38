/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Variables the symbol tables do not name (file- and function-static ones
 * when only .dynsym is there), and the types of all, from DWARF: every
 * DW_TAG_variable whose location is a fixed address (DW_OP_addr).
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include "elfimage.h"
#include "share_state.h"

struct dctx {
	struct mycl_share *s;
	struct elf_image *img;
	bool readonly;
	size_t nr_symbols;		/* the variables from symbol tables, sorted */
	bool dropped;			/* some were const: taken out after the walk */
};

static struct mycl_share_var *by_addr(struct dctx *c, uint64_t addr)
{
	size_t lo = 0, hi = c->nr_symbols;

	lo = PARTITION_POINT(lo, hi, mid, c->s->vars[mid].addr < addr);
	return lo < c->nr_symbols && c->s->vars[lo].addr == addr ? &c->s->vars[lo] : NULL;
}

static void variable(struct dctx *c, Dwarf_Die *die, const char *scope)
{
	Dwarf_Attribute attr;
	Dwarf_Op *expr;
	size_t nexpr;
	Dwarf_Die type;
	Dwarf_Word size = 0;
	const struct elf_section *sec;
	struct mycl_share_var *v;
	const char *name = dwarf_diename(die), *tname = NULL;
	bool is_const = false;
	char *full;

	if (!name || !dwarf_attr(die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &expr, &nexpr) || nexpr != 1 || expr[0].atom != DW_OP_addr)
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
		}
	}
	v = by_addr(c, expr[0].number);
	/*
	 * const in the source but in a writable section (riscv's .srodata goes
	 * into .sdata in programs at a fixed address): read-only all the same.
	 */
	if (v && is_const && !c->readonly) {
		v->size = UINT64_MAX;
		c->dropped = true;
		return;
	}
	if (v) {
		if (!v->type && tname)
			v->type = share_keep(c->s, strdup(tname));
		return;
	}
	sec = elf_image_section_at(c->img, expr[0].number);
	if (!sec || sec->exec || (!sec->write && !c->readonly) || (is_const && !c->readonly))
		return;
	if (ARRAY_GROW(c->s->vars, c->s->vars_cap, c->s->nr_vars + 1))
		return;
	if (scope ? asprintf(&full, "%s::%s", scope, name) < 0 : !(full = strdup(name)))
		return;
	c->s->vars[c->s->nr_vars++] = (struct mycl_share_var){
		.name = share_keep(c->s, full), .type = tname ? share_keep(c->s, strdup(tname)) : NULL,
		.origin = "dwarf", .addr = expr[0].number, .size = size, .section = sec->name,
		.kind = var_kind(c->img, sec, expr[0].number),
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

static int sym_cmp(const void *a, const void *b)
{
	const struct mycl_share_var *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int share_dwarf_vars(struct mycl_share *s, const char *file, bool readonly)
{
	struct dctx c = { .s = s, .img = dso_image(s->dso), .readonly = readonly };
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf *dw;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !c.img)
		return fd < 0 ? 0 : 0;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return 0;	/* no DWARF: the symbol tables are all there is */
	}
	sort_array(s->vars, s->nr_vars, sizeof(*s->vars), sym_cmp);
	c.nr_symbols = s->nr_vars;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu))
			walk(&c, &cu, NULL, 0);
		off = next;
	}
	dwarf_end(dw);
	close(fd);
	if (c.dropped) {
		size_t k = 0;

		for (size_t i = 0; i < s->nr_vars; i++)
			if (s->vars[i].size != UINT64_MAX)
				s->vars[k++] = s->vars[i];
		s->nr_vars = k;
	}
	return 0;
}
