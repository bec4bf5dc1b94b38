/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>
#include "disasm.h"
#include "dso.h"
#include "elfimage.h"
#include "internal.h"
#include "spinloops.h"

#define MAX_LOOP_BYTES 512		/* "short" loops only */

struct loop {
	uint64_t from, to;
	const char *lock_word, *seed;
};

struct fn_loops {
	uint64_t start;
	struct loop *loops;
	size_t nr;
};

struct spin_cache {
	struct fn_loops *fns;
	size_t nr, cap;
};

static const char *var_name(struct dso *d, uint64_t addr)
{
	const struct sym *s = addr ? symtab_find(&d->data_syms, addr) : NULL;

	return s ? s->name : NULL;
}

static void analyse(struct dso *d, const struct sym *fn, struct fn_loops *out)
{
	struct elf_image *img = dso_image(d);
	struct disasm *dis = NULL;
	struct insn *v = NULL;
	size_t n = 0, cap = 0;
	const uint8_t *code;

	out->start = fn->start;
	if (!img || !(code = elf_image_code(img, fn->start, fn->end - fn->start)) ||
	    disasm_open(&dis, elf_image_machine(img), elf_image_big_endian(img), elf_image_toc(img)))
		return;
	disasm_set_text(dis, false);
	disasm_set_got(dis, elf_image_got_target, img);
	disasm_range(dis, code, fn->end - fn->start, fn->start, &v, &n);
	disasm_close(dis);
	for (size_t i = 0; i < n; i++) {
		struct loop lp = { 0 };
		bool spin = false;

		if (!v[i].branch || !v[i].target || v[i].target >= v[i].addr ||
		    v[i].addr - v[i].target > MAX_LOOP_BYTES)
			continue;
		lp.from = v[i].target;
		lp.to = v[i].addr;
		for (size_t k = 0; k < n; k++) {
			if (v[k].addr < lp.from || v[k].addr > lp.to)
				continue;
			spin |= v[k].spin_hint || v[k].atomic;
			if (v[k].atomic && v[k].data && !lp.lock_word)
				lp.lock_word = var_name(d, v[k].data);
			else if (!v[k].atomic && v[k].data &&
				 (v[k].access == ACC_WRITE || v[k].access == ACC_RMW) && !lp.seed)
				lp.seed = var_name(d, v[k].data);
		}
		if (!spin)
			continue;
		if (!ARRAY_GROW(out->loops, cap, out->nr + 1))
			out->loops[out->nr++] = lp;
	}
	free(v);
}

static void spinloops_free(struct dso *d);

static struct fn_loops *loops_of(struct dso *d, const struct sym *fn)
{
	struct spin_cache *c = d->spins;

	if (!c) {
		c = d->spins = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		d->spins_free = spinloops_free;
	}
	for (size_t i = 0; i < c->nr; i++)
		if (c->fns[i].start == fn->start)
			return &c->fns[i];
	if (ARRAY_GROW(c->fns, c->cap, c->nr + 1))
		return NULL;
	memset(&c->fns[c->nr], 0, sizeof(c->fns[c->nr]));
	analyse(d, fn, &c->fns[c->nr]);
	return &c->fns[c->nr++];
}

void spin_loop_at(struct dso *d, const struct sym *fn, uint64_t vaddr, struct spin_info *out)
{
	struct fn_loops *f = loops_of(d, fn);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; f && i < f->nr; i++)
		if (vaddr >= f->loops[i].from && vaddr <= f->loops[i].to) {
			out->in_loop = true;
			out->lock_word = f->loops[i].lock_word;
			out->seed = f->loops[i].seed;
			return;
		}
}

void spin_loop_globals(struct dso *d, const struct sym *fn, struct spin_info *out)
{
	struct fn_loops *f = loops_of(d, fn);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; f && i < f->nr; i++) {
		if (!out->lock_word)
			out->lock_word = f->loops[i].lock_word;
		if (!out->seed)
			out->seed = f->loops[i].seed;
	}
}

static void spinloops_free(struct dso *d)
{
	struct spin_cache *c = d->spins;

	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++)
		free(c->fns[i].loops);
	free(c->fns);
	free(c);
	d->spins = NULL;
}
