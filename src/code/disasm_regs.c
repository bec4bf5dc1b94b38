/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The register flow every architecture's decoder shares: what a register
 * holds (an address, a constant, the function's own argument plus an
 * offset), copies and frame-slot spills, the arguments a call passes, and
 * the bytes of the code and constant pools an instruction reads.  The
 * per-architecture files call these; disasm.c calls them.
 */
#include "disasm_regs.h"
#include "elfimage.h"

bool code_word(const struct disasm *d, uint64_t addr, uint32_t *w)
{
	const uint8_t *b = d->big_endian ? NULL : code_at(d, addr, 4);

	if (!b)
		return false;
	*w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return true;
}

const uint8_t *code_at(const struct disasm *d, uint64_t addr, size_t len)
{
	if (addr >= d->code_addr && addr - d->code_addr <= d->code_len &&
	    d->code_len - (addr - d->code_addr) >= len)
		return d->code + (addr - d->code_addr);
	return d->img ? elf_image_code(d->img, addr, len) : NULL;
}

const uint8_t *const_at(const struct disasm *d, uint64_t addr, size_t len)
{
	const uint8_t *p = code_at(d, addr, len);

	return p ? p : d->img ? elf_image_rodata(d->img, addr, len) : NULL;
}

void dis_forget(struct disasm *d, unsigned int r)
{
	if (r >= NREGS)
		return;
	d->regs[r].known = false;
	d->imm[r].known = false;
	d->prm[r].known = false;
	d->ld[r].known = false;
	d->cnt[r].data = 0;
	d->slf[r] = 0;
}

void dis_copy(struct disasm *d, unsigned int dst, unsigned int src)
{
	if (dst >= NREGS || src >= NREGS)
		return;
	d->regs[dst] = d->regs[src];
	d->imm[dst] = d->imm[src];
	d->prm[dst] = d->prm[src];
	d->ld[dst] = d->ld[src];
}

void dis_set_addr(struct disasm *d, unsigned int r, uint64_t v, bool indexed)
{
	if (r >= NREGS)
		return;
	dis_forget(d, r);
	d->regs[r] = (struct regval){ .v = v, .known = true, .indexed = indexed };
}

void dis_set_imm(struct disasm *d, unsigned int r, uint64_t v)
{
	if (r >= NREGS)
		return;
	dis_forget(d, r);
	d->imm[r] = (struct regval){ .v = v, .known = true };
}

void dis_mem_prm(struct disasm *d, struct insn *in, unsigned int base, int64_t disp, uint8_t acc)
{
	if (!d->share_facts || base >= NREGS || !d->prm[base].known || !acc || acc == ACC_ADDR)
		return;
	in->mem_prm = (uint8_t)(d->prm[base].idx + 1);
	in->mem_prm_off = (int64_t)d->prm[base].v + disp;
	in->mem_prm_access = acc;
}

void dis_slot(struct disasm *d, bool store, unsigned int reg, unsigned int base, int64_t disp,
	      bool full)
{
	struct frame_slot *sl = NULL;
	int free_k = -1;

	if (reg >= NREGS || !base)
		return;
	for (int k = 0; k < 8 && !sl; k++) {
		if (d->slots[k].used && d->slots[k].base == base && d->slots[k].disp == disp)
			sl = &d->slots[k];
		else if (!d->slots[k].used && free_k < 0)
			free_k = k;
	}
	if (!store) {
		if (sl) {
			d->imm[reg] = sl->imm;
			d->regs[reg] = full ? sl->addr : (struct regval){ 0 };
			d->prm[reg] = full ? sl->prm : (struct regval){ 0 };
		}
		return;
	}
	if (!sl)
		sl = &d->slots[free_k >= 0 ? free_k : (int)((uint64_t)disp / 8 % 8)];
	memset(sl, 0, sizeof(*sl));
	sl->used = true;
	sl->base = base;
	sl->disp = disp;
	sl->imm = d->imm[reg];
	if (full) {
		sl->addr = d->regs[reg];
		sl->prm = d->prm[reg];
	}
}

void dis_zero_args(struct disasm *d, struct insn *in)
{
	uint64_t v;

	for (unsigned int k = 0; k < d->abi.nr_args && k < 6; k++)
		if (dis_const(d, d->abi.args[k], &v) && !v)
			in->call_arg_zero |= (uint8_t)(1u << k);
}

void dis_call_args(struct disasm *d, struct insn *in)
{
	for (unsigned int k = 0; k < d->abi.nr_args && k < 6; k++) {
		const unsigned int r = d->abi.args[k];

		in->call_arg[k] = d->regs[r].known ? d->regs[r].v : d->imm[r].known ? d->imm[r].v : 0;
		if (d->regs[r].known && d->regs[r].alt && !in->call_alt) {
			in->call_alt = d->regs[r].alt;
			in->call_alt_arg = (uint8_t)k;
		}
		if (d->regs[r].known && d->regs[r].indexed)
			in->call_arg_indexed |= (uint8_t)(1u << k);
		if (d->prm[r].known && !d->prm[r].v)
			in->call_arg_prm[k] = (uint8_t)(d->prm[r].idx + 1);
		if (d->prm[r].known && (int64_t)d->prm[r].v == (int32_t)d->prm[r].v) {
			in->call_arg_pass[k] = (uint8_t)(d->prm[r].idx + 1);
			in->call_arg_pass_off[k] = (int32_t)d->prm[r].v;
		}
		if (d->share_facts && d->ld[r].known && d->ld[r].g == INSN_ARG_KEY && !d->ld[r].off)
			in->call_arg_argptr |= (uint8_t)(1u << k);
	}
	dis_zero_args(d, in);
}

/* SLOT is a word of the program's own data a pointer may be kept in (no GOT, no TOC). */
static bool pointer_slot(const struct disasm *d, uint64_t slot)
{
	const struct elf_section *sec;

	if (!d->share_facts || !d->img)
		return false;
	sec = elf_image_section_at(d->img, slot);
	return sec && !sec->exec && !sec->nobits && !sec->tls && strncmp(sec->name, ".got", 4) &&
	       strcmp(sec->name, ".toc");
}

uint64_t dis_data_pointer(struct disasm *d, uint64_t slot)
{
	return pointer_slot(d, slot) ? elf_image_data_pointer(d->img, slot) : 0;
}

uint64_t dis_code_pointer(struct disasm *d, uint64_t slot)
{
	return pointer_slot(d, slot) ? elf_image_code_pointer(d->img, slot) : 0;
}

uint64_t dis_any_pointer(struct disasm *d, uint64_t slot)
{
	return pointer_slot(d, slot) ? elf_image_any_pointer(d->img, slot) : 0;
}

void dis_stored(struct disasm *d, struct insn *in, unsigned int src, bool stack)
{
	if (!d->share_facts || src >= NREGS)
		return;
	if (!stack && d->prm[src].known && !d->prm[src].v)
		in->stored_prm = (uint8_t)(d->prm[src].idx + 1);
	else if (d->prm[src].known && !d->prm[src].v)
		in->stored_prm_stack = (uint8_t)(d->prm[src].idx + 1);
	if (!d->regs[src].known)
		return;
	if (stack) {
		in->stored_stack = d->regs[src].v;
		return;
	}
	in->stored = d->regs[src].v;
	in->stored_indexed = d->regs[src].indexed;
}
