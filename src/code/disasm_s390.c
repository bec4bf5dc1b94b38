/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "disasm_regs.h"

/* ---- s390x: larl and the PC-relative *RL loads and stores ---- */

static uint8_t s390_access(const char *m)
{
	if (starts(m, "st") || starts(m, "mvi") || starts(m, "mvhi") || starts(m, "mvghi") ||
	    starts(m, "mvhhi") || !strcmp(m, "mvc") || starts(m, "xc"))
		return ACC_WRITE;
	if (!strcmp(m, "ni") || !strcmp(m, "oi") || !strcmp(m, "xi") || !strcmp(m, "niy") ||
	    !strcmp(m, "oiy") || !strcmp(m, "xiy") || starts(m, "asi") || starts(m, "agsi") ||
	    starts(m, "alsi") || starts(m, "algsi") || starts(m, "laa") || starts(m, "lan") ||
	    starts(m, "lao") || starts(m, "lax") || !strcmp(m, "cs") || !strcmp(m, "csg") ||
	    !strcmp(m, "csy"))
		return ACC_RMW;
	if (starts(m, "la") && strcmp(m, "larl"))
		return ACC_ADDR;
	return ACC_READ;
}

/* lg rN, var (or lgrl); aghi rN, 1 (agr, agfi, aghik...); stg rN, var: a plain counter. */
static void s390_counter(struct disasm *d, const cs_insn *ci, struct insn *in, int dst)
{
	const cs_sysz *z = &ci->detail->sysz;
	const char *m = ci->mnemonic;
	static const char *const imm2[] = { "aghi", "ahi", "agfi", "afi", "algfi", "alfi",
					    "slgfi", "slfi" };
	static const char *const reg2[] = { "agr", "ar", "algr", "alr", "sgr", "sr", "slgr", "slr" };

	if (dst <= 0 || dst >= NREGS)
		return;
	if (in->data && z->op_count == 2) {
		dis_cnt_mem(d, in, (unsigned int)dst, m[0] == 'l' && !starts(m, "la") ? ACC_READ :
				  starts(m, "st") ? ACC_WRITE : ACC_NONE);
		return;
	}
	for (size_t k = 0; k < sizeof(imm2) / sizeof(imm2[0]); k++)
		if (!strcmp(m, imm2[k]) && z->op_count == 2)
			dis_cnt_arith(d, (unsigned int)dst, 0, (unsigned int)dst);
	for (size_t k = 0; k < sizeof(reg2) / sizeof(reg2[0]); k++)
		if (!strcmp(m, reg2[k]) && z->op_count == 2 && z->operands[1].type == SYSZ_OP_REG)
			dis_cnt_arith(d, (unsigned int)dst, z->operands[1].reg, (unsigned int)dst);
	if ((!strcmp(m, "aghik") || !strcmp(m, "ahik")) && z->op_count == 3 &&
	    z->operands[1].type == SYSZ_OP_REG)
		dis_cnt_arith(d, z->operands[1].reg, 0, (unsigned int)dst);
}

/* s390x: larl and the PC-relative *RL forms; larl'd registers used as bases. */
void s390(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_sysz *z = &ci->detail->sysz;
	const char *m = ci->mnemonic;
	size_t ml = strlen(m);
	bool rl = ml > 2 && !strcmp(m + ml - 2, "rl") && strcmp(m, "brasl") && strcmp(m, "brcl");
	int dst = z->op_count > 0 && z->operands[0].type == SYSZ_OP_REG ? (int)z->operands[0].reg : -1;

	in->atomic = !strcmp(m, "cs") || !strcmp(m, "csg") || !strcmp(m, "csy") || starts(m, "laa") ||
		     starts(m, "lan") || starts(m, "lao") || starts(m, "lax");
	if (in->call && d->share_facts)
		dis_call_args(d, in);
	else if (in->jump && d->share_facts)
		dis_zero_args(d, in);	/* a tail call: its constant zeros (select(0, ...)) */
	for (int i = 0; i < z->op_count; i++) {
		const cs_sysz_op *op = &z->operands[i];

		if (op->type == SYSZ_OP_MEM && op->mem.base > 0 &&
		    !op->mem.index)
			dis_mem_prm(d, in, op->mem.base, op->mem.disp, s390_access(m) == ACC_ADDR ? 0 :
				    in->atomic ? ACC_RMW : s390_access(m));

		if (op->type == SYSZ_OP_MEM && op->mem.base > 0 &&
		    d->regs[op->mem.base].known && !op->mem.index) {
			in->data = d->regs[op->mem.base].v + (uint64_t)op->mem.disp;
			in->access = s390_access(m);
			/* (a base somewhere in an array: an element of it, at a computed index) */
			in->indexed = d->regs[op->mem.base].indexed;
			continue;
		}
		if (op->type != SYSZ_OP_IMM)
			continue;
		if (in->branch || in->call) {
			in->target = (uint64_t)op->imm;
		} else if (!strcmp(m, "larl") || rl) {
			in->data = (uint64_t)op->imm;
			in->access = !strcmp(m, "larl") ? ACC_ADDR : starts(m, "st") ? ACC_WRITE : ACC_READ;
		}
	}
	if (in->atomic && in->access && in->access != ACC_ADDR)
		in->access = ACC_RMW;
	if (in->call || in->branch)
		return;
	/* stg rS, d(rB): a pointer kept in memory (r15 is the stack pointer). */
	if ((!strcmp(m, "stg") || !strcmp(m, "st")) && z->op_count == 2 && dst > 0 &&
	    z->operands[1].type == SYSZ_OP_MEM)
		dis_stored(d, in, (unsigned int)dst, z->operands[1].mem.base == SYSZ_REG_15);
	/*
	 * lg/ag rN, d(rPool) with rPool at a literal pool in the code: the
	 * word there is a constant, often a global's address (non-PIE code).
	 */
	if (dst > 0 && dst < NREGS && (!strcmp(m, "lg") || !strcmp(m, "ag")) && in->data &&
	    in->access == ACC_READ && z->op_count == 2) {
		const uint8_t *w = const_at(d, in->data, 8);

		if (w) {
			uint64_t v = 0;

			for (int k = 0; k < 8; k++)
				v = v << 8 | w[k];
			in->data = 0;
			in->access = ACC_NONE;
			if (!strcmp(m, "lg"))
				dis_set_addr(d, (unsigned int)dst, v, false);
			else if (!d->regs[dst].known)
				dis_set_addr(d, (unsigned int)dst, v, true);
			else
				dis_forget(d, (unsigned int)dst);
			return;
		}
	}
	/* laa, laag (load and add), asi, agsi (add to storage): counters. */
	if (d->share_facts && (in->access == ACC_RMW || in->mem_prm_access == ACC_RMW))
		in->counter_op = starts(m, "laa") || starts(m, "asi") || starts(m, "agsi") ||
				 starts(m, "alsi") || starts(m, "algsi");
	if (d->share_facts)
		s390_counter(d, ci, in, dst);
	if (dst > 0 && dst < NREGS && (!strcmp(m, "agr") || !strcmp(m, "algr")) &&
	    z->op_count == 2 && z->operands[1].type == SYSZ_OP_REG &&
	    d->regs[dst].known != d->regs[z->operands[1].reg].known) {
		/* agr rD, rS with an address in one: somewhere in that object. */
		uint64_t v = d->regs[dst].known ? d->regs[dst].v : d->regs[z->operands[1].reg].v;

		dis_set_addr(d, (unsigned int)dst, v, true);
		return;
	}
	if (!strcmp(m, "larl") && dst > 0 && dst < NREGS) {
		dis_set_addr(d, (unsigned int)dst, in->data, false);
	} else if (dst > 0 && dst < NREGS && (!strcmp(m, "lgrl") || !strcmp(m, "lg")) &&
		   in->data && in->access == ACC_READ && !in->indexed && dis_data_pointer(d, in->data)) {
		/* lgrl rN, ptr, ptr = &foo in the program's data: rN holds &foo. */
		dis_set_addr(d, (unsigned int)dst, dis_data_pointer(d, in->data), false);
	} else if (dst > 0 && dst < NREGS && (!strcmp(m, "lgr") || !strcmp(m, "lr")) &&
		   z->op_count == 2 && z->operands[1].type == SYSZ_OP_REG) {
		dis_copy(d, (unsigned int)dst, z->operands[1].reg);
	} else if (dst > 0 && dst < NREGS && (!strcmp(m, "lghi") || !strcmp(m, "lhi") ||
					      !strcmp(m, "lgfi") || !strcmp(m, "llilf")) &&
		   z->op_count == 2 && z->operands[1].type == SYSZ_OP_IMM) {
		dis_set_imm(d, (unsigned int)dst, (uint64_t)z->operands[1].imm);
	} else if (dst > 0 && dst < NREGS && (!strcmp(m, "la") || !strcmp(m, "lay")) &&
		   z->op_count == 2 && z->operands[1].type == SYSZ_OP_MEM &&
		   z->operands[1].mem.base > 0 &&
		   !z->operands[1].mem.index && d->prm[z->operands[1].mem.base].known) {
		struct regval pv = d->prm[z->operands[1].mem.base];

		pv.v += (uint64_t)z->operands[1].mem.disp;
		dis_forget(d, (unsigned int)dst);
		d->prm[dst] = pv;
	} else if (dst > 0 && dst < NREGS && !starts(m, "st") && !starts(m, "c")) {
		dis_forget(d, (unsigned int)dst);
	}
	/* stg/lg rN, d(r15|r11) (-O0 spills): what the frame slot holds. */
	if (dst > 0 && dst < NREGS && z->op_count == 2 && z->operands[1].type == SYSZ_OP_MEM &&
	    !z->operands[1].mem.index &&
	    (z->operands[1].mem.base == SYSZ_REG_15 || z->operands[1].mem.base == SYSZ_REG_11) &&
	    (!strcmp(m, "stg") || !strcmp(m, "st") || !strcmp(m, "lg") || !strcmp(m, "l") ||
	     !strcmp(m, "lgf")))
		dis_slot(d, m[0] == 's', (unsigned int)dst, z->operands[1].mem.base,
			 z->operands[1].mem.disp, !strcmp(m, "stg") || !strcmp(m, "lg"));
}
