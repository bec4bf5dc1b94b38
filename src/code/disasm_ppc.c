/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "disasm_regs.h"

/* ---- ppc64: addis rX,r2,hi then addi/ld/st with lo(rX); or lo(r2) directly ---- */

static uint8_t ppc_access(const char *m, bool *atomic)
{
	*atomic = strstr(m, "arx") || strstr(m, "cx.");
	if (*atomic)
		return starts(m, "st") ? ACC_WRITE : ACC_READ;
	if (starts(m, "st"))
		return ACC_WRITE;
	if (starts(m, "l") && !starts(m, "li") && !starts(m, "lis"))
		return ACC_READ;
	return ACC_NONE;
}

bool ppc_unknown(struct disasm *d, const uint8_t *bytes)
{
	uint32_t word;

	memcpy(&word, bytes, 4);
	if (d->big_endian)
		word = __builtin_bswap32(word);
	if (!(word >> 26))
		return false;		/* primary opcode 0: no instruction */
	/* RT/RS/VRT/XT (bits 6-10) and RA (11-15, written back by update forms) */
	dis_forget(d, PPC_REG_R0 + ((word >> 21) & 31));
	dis_forget(d, PPC_REG_R0 + ((word >> 16) & 31));
	return true;
}

void ppc(struct disasm *d, const cs_insn *ci, struct insn *in, const uint8_t *bytes)
{
	const cs_ppc *p = &ci->detail->ppc;
	bool atomic;
	uint8_t acc = ppc_access(ci->mnemonic, &atomic);
	int dst = p->op_count > 0 && p->operands[0].type == PPC_OP_REG ? (int)p->operands[0].reg : -1;
	uint32_t word;

	memcpy(&word, bytes, 4);
	if (d->big_endian)
		word = __builtin_bswap32(word);
	/* or 1,1,1 / or 27,27,27 / or 31,31,31: SMT priority hints used in spin loops. */
	in->spin_hint = word == 0x7c210b78 || word == 0x7f7bdb78 || word == 0x7ffffb78;
	in->atomic = atomic;
	if (in->call && d->share_facts)
		dis_call_args(d, in);
	else if (in->jump && d->share_facts)
		dis_zero_args(d, in);	/* a tail call: its constant zeros (select(0, ...)) */
	for (int i = 0; i < p->op_count; i++) {
		const cs_ppc_op *op = &p->operands[i];

		if (op->type == PPC_OP_IMM && (in->branch || in->call))
			in->target = (uint64_t)op->imm;
		if (op->type == PPC_OP_MEM && op->mem.base > 0 && op->mem.base < NREGS)
			dis_mem_prm(d, in, op->mem.base, op->mem.disp, acc ? acc : ACC_READ);
		if (op->type == PPC_OP_MEM && op->mem.base > 0 && op->mem.base < NREGS) {
			bool toc = op->mem.base == PPC_REG_R2 && d->toc;

			if (toc || d->regs[op->mem.base].known) {
				uint64_t t;

				in->data = (toc ? d->toc : d->regs[op->mem.base].v) + (uint64_t)(int64_t)op->mem.disp;
				in->access = acc ? acc : ACC_READ;
				/* (a base somewhere in an array: an element of it, at a computed index) */
				in->indexed = !toc && d->regs[op->mem.base].indexed;
				/* ld rN, ptr, ptr = &foo in the program's data: rN holds &foo. */
				if (!strcmp(ci->mnemonic, "ld") && dst > 0 && !in->indexed &&
				    (t = dis_data_pointer(d, in->data))) {
					dis_set_addr(d, (unsigned int)dst, t, false);
					return;
				}
				/* ld rN, foo@got(r2): rN now holds &foo. */
				if (!strcmp(ci->mnemonic, "ld") && dst > 0 && !in->indexed &&
				    (t = dis_got(d, in->data))) {
					in->data = t;
					in->access = ACC_ADDR;
					dis_set_addr(d, (unsigned int)dst, t, false);
					return;
				}
			}
		}
	}
	/* std rS, d(rA): a pointer kept in memory. */
	if (acc == ACC_WRITE && !atomic && p->op_count == 2 && dst > 0 &&
	    p->operands[1].type == PPC_OP_MEM && (!strcmp(ci->mnemonic, "std") ||
						  !strcmp(ci->mnemonic, "stw")))
		dis_stored(d, in, (unsigned int)dst, p->operands[1].mem.base == PPC_REG_R1);
	/* X-form: lwarx rT, rA|0, rB; stdcx.; ldx; stdx: the address is rA + rB. */
	if (acc && p->op_count == 3 && p->operands[2].type == PPC_OP_REG &&
	    (p->operands[1].type == PPC_OP_REG || p->operands[1].type == PPC_OP_IMM)) {
		int ra = p->operands[1].type == PPC_OP_REG ? p->operands[1].reg : 0;
		int rb = p->operands[2].reg;
		bool ka = !ra || ra == PPC_REG_R0 || (ra < NREGS && d->regs[ra].known);
		bool kb = rb > 0 && rb < NREGS && d->regs[rb].known;
		uint64_t va = ra && ra != PPC_REG_R0 && ra < NREGS ? d->regs[ra].v : 0;

		if (ka && kb && (!ra || ra == PPC_REG_R0)) {
			in->data = d->regs[rb].v;
			in->indexed = d->regs[rb].indexed;
		} else if (ka != kb || (ka && kb)) {
			in->data = ka && ra && ra != PPC_REG_R0 ? va : kb ? d->regs[rb].v : 0;
			in->indexed = true;
		}
		if (in->data)
			in->access = atomic && acc == ACC_WRITE ? ACC_RMW : acc;
		if (!ra || ra == PPC_REG_R0)
			dis_mem_prm(d, in, (unsigned int)rb, 0, atomic && acc == ACC_WRITE ? ACC_RMW : acc);
	}
	if (atomic && acc == ACC_WRITE) {
		in->counter_op = dis_sc(d) && d->share_facts;
		if (in->access == ACC_WRITE)
			in->access = ACC_RMW;
	} else if (atomic && dst > 0) {
		dis_ll(d, (unsigned int)dst);
	} else if ((!strcmp(ci->mnemonic, "add") || !strcmp(ci->mnemonic, "addi") ||
		    !strcmp(ci->mnemonic, "subf")) && p->op_count == 3 && dst > 0) {
		dis_ll_arith(d, p->operands[1].type == PPC_OP_REG ? (unsigned int)p->operands[1].reg : 0,
			     p->operands[2].type == PPC_OP_REG ? (unsigned int)p->operands[2].reg : 0,
			     (unsigned int)dst);
	}
	/* ld rN, var; addi rN, rN, 1; std rN, var: a plain counter. */
	if (dst > 0 && p->op_count == 2 && p->operands[1].type == PPC_OP_MEM)
		dis_cnt_mem(d, in, (unsigned int)dst, acc);
	if (acc == ACC_READ && p->op_count == 3 && p->operands[2].type == PPC_OP_REG && dst > 0 &&
	    dst < NREGS) {
		dis_forget(d, (unsigned int)dst);
		return;
	}
	/* add rD, rA, rB with an address in one: somewhere in that object. */
	if (!strcmp(ci->mnemonic, "add") && p->op_count == 3 && dst > 0 && dst < NREGS &&
	    p->operands[1].type == PPC_OP_REG && p->operands[2].type == PPC_OP_REG &&
	    p->operands[1].reg < NREGS && p->operands[2].reg < NREGS &&
	    d->regs[p->operands[1].reg].known != d->regs[p->operands[2].reg].known) {
		const struct regval *k = d->regs[p->operands[1].reg].known ? &d->regs[p->operands[1].reg] :
					 &d->regs[p->operands[2].reg];

		dis_set_addr(d, (unsigned int)dst, k->v, true);
		return;
	}
	if (dst == PPC_REG_R2) {
		/* Setting up the TOC pointer itself (lis r2 / addi r2): not data. */
		in->data = 0;
		in->access = ACC_NONE;
		return;
	}
	if (p->op_count == 3 && p->operands[1].type == PPC_OP_REG && p->operands[2].type == PPC_OP_IMM) {
		int src = p->operands[1].reg;
		bool known = src == PPC_REG_R2 ? d->toc != 0 : (src > 0 && src < NREGS && d->regs[src].known);
		uint64_t base = src == PPC_REG_R2 ? d->toc : (known ? d->regs[src].v : 0);

		bool ix = known && src != PPC_REG_R2 && d->regs[src].indexed;

		if (known && !strcmp(ci->mnemonic, "addis")) {
			dis_set_addr(d, (unsigned int)dst,
				     base + ((uint64_t)(int64_t)(int16_t)p->operands[2].imm << 16), ix);
			return;
		}
		if (known && (!strcmp(ci->mnemonic, "addi") || !strcmp(ci->mnemonic, "la"))) {
			in->data = base + (uint64_t)(int64_t)(int16_t)p->operands[2].imm;
			in->access = ACC_ADDR;
			in->indexed = ix;
			dis_set_addr(d, (unsigned int)dst, in->data, ix);
			return;
		}
		if (!known && src > 0 && src < NREGS && d->prm[src].known && dst > 0 && dst < NREGS &&
		    !strcmp(ci->mnemonic, "addi")) {
			struct regval pv = d->prm[src];

			pv.v += (uint64_t)(int64_t)(int16_t)p->operands[2].imm;
			dis_forget(d, (unsigned int)dst);
			d->prm[dst] = pv;
			return;
		}
	}
	if (in->call || in->branch)
		return;
	/* stw/stb/sth/std rS, d(rB) with a constant in rS (li): a constant stored. */
	if (d->share_facts && acc == ACC_WRITE && !atomic && dst > 0 && dst < NREGS &&
	    p->op_count == 2 && p->operands[1].type == PPC_OP_MEM)
		in->store_const = dis_const(d, (unsigned int)dst, &in->store_val);
	/* mr rD, rS: a copy; li rD, imm: a constant; anything else written: unknown. */
	if (dst > 0 && dst < NREGS && !strcmp(ci->mnemonic, "mr") && p->op_count == 2 &&
	    p->operands[1].type == PPC_OP_REG) {
		dis_copy(d, (unsigned int)dst, p->operands[1].reg);
		return;
	}
	if (dst > 0 && dst < NREGS && !strcmp(ci->mnemonic, "li") && p->op_count == 2 &&
	    p->operands[1].type == PPC_OP_IMM) {
		dis_set_imm(d, (unsigned int)dst, (uint64_t)p->operands[1].imm);
		return;
	}
	if (dst > 0 && dst < NREGS && acc != ACC_WRITE && !starts(ci->mnemonic, "cmp"))
		dis_forget(d, (unsigned int)dst);
	/* std/ld rN, d(r1|r31) (-O0 spills): what the frame slot holds. */
	if (dst > 0 && dst < NREGS && p->op_count == 2 && p->operands[1].type == PPC_OP_MEM &&
	    (p->operands[1].mem.base == PPC_REG_R1 || p->operands[1].mem.base == PPC_REG_R31) &&
	    (!strcmp(ci->mnemonic, "std") || !strcmp(ci->mnemonic, "stw") ||
	     !strcmp(ci->mnemonic, "ld") || !strcmp(ci->mnemonic, "lwz") ||
	     !strcmp(ci->mnemonic, "lwa")))
		dis_slot(d, ci->mnemonic[0] == 's', (unsigned int)dst, p->operands[1].mem.base,
			 p->operands[1].mem.disp, !strcmp(ci->mnemonic, "std") || !strcmp(ci->mnemonic, "ld"));
}

