/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * arm (32-bit), ARM and Thumb-2: globals are reached through literal pools
 * (ldr rN, [pc, #off] loads the address, or in PIC code an offset that a
 * following add rN, pc turns into one), movw/movt pairs, or GOT slots.
 */
#include "disasm_regs.h"

static uint8_t arm_access(const char *m, bool *atomic)
{
	*atomic = starts(m, "ldrex") || starts(m, "strex") || starts(m, "ldaex") ||
		  starts(m, "stlex");
	if (starts(m, "str") || starts(m, "stm") || starts(m, "stl") || starts(m, "push"))
		return ACC_WRITE;
	if (starts(m, "ldr") || starts(m, "ldm") || starts(m, "lda") || starts(m, "pop"))
		return ACC_READ;
	return ACC_NONE;
}

/* What the PC reads as in the instruction at ADDR: 8 bytes on in ARM, 4 in Thumb. */
static uint64_t pc_value(const struct disasm *d, uint64_t addr)
{
	return addr + (d->thumb ? 4 : 8);
}

static uint32_t word(const struct disasm *d, const uint8_t *p)
{
	return d->big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
			       (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static bool gpr(int r)
{
	return r > 0 && r < NREGS && r != ARM_REG_PC;
}

void arm(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_arm *a = &ci->detail->arm;
	const char *m = ci->mnemonic;
	bool atomic;
	uint8_t acc = arm_access(m, &atomic);
	int dst = a->op_count > 0 && a->operands[0].type == ARM_OP_REG ? a->operands[0].reg : -1;
	const cs_arm_op *o1 = a->op_count > 1 ? &a->operands[1] : NULL;
	const cs_arm_op *o2 = a->op_count > 2 ? &a->operands[2] : NULL;
	struct regval nv = { 0 }, ni = { 0 }, np = { 0 };
	bool set = false;

	in->atomic = atomic;
	in->spin_hint = ci->id == ARM_INS_YIELD || ci->id == ARM_INS_WFE;

	in->jump = ci->id == ARM_INS_B && a->cc == ARM_CC_AL;
	if (ci->id == ARM_INS_SVC) {
		in->syscall = true;
		in->sysno = d->imm[ARM_REG_R7].known ? (int32_t)d->imm[ARM_REG_R7].v : -1;
	}
	/* bx lr, pop {..., pc}, ldr pc, [sp], #4: returns. */
	if ((ci->id == ARM_INS_BX && dst == ARM_REG_LR) ||
	    (ci->id == ARM_INS_POP && a->op_count && a->operands[a->op_count - 1].type == ARM_OP_REG &&
	     a->operands[a->op_count - 1].reg == ARM_REG_PC))
		in->ret = true, in->branch = false;
	/* The registers it writes (a leaf's, for its callers: disasm.c's clobbers). */
	for (int i = 0; d->share_facts && i < a->op_count; i++) {
		const cs_arm_op *op = &a->operands[i];
		int r = op->type == ARM_OP_REG && (op->access & CS_AC_WRITE) ? (int)op->reg :
			op->type == ARM_OP_MEM && a->writeback ? (int)op->mem.base : 0;

		if (r >= ARM_REG_R0 && r <= ARM_REG_R12)
			d->cur_written |= 1u << (r - ARM_REG_R0);
		else if (r == ARM_REG_PC && !in->ret)
			d->cur_calls = true;	/* ldr pc, [ip, #x]!: a PLT entry's jump out */
	}
	if (in->call && d->share_facts)
		dis_call_args(d, in);
	else if (in->jump && d->share_facts)
		dis_zero_args(d, in);	/* a tail call: its constant zeros (select(0, ...)) */
	if (in->call && d->lock_facts && d->regs[ARM_REG_R0].known)
		in->arg0 = d->regs[ARM_REG_R0].v;
	for (int i = 0; i < a->op_count; i++) {
		const cs_arm_op *op = &a->operands[i];
		uint64_t at;
		const uint8_t *lit;

		if (op->type == ARM_OP_IMM && (in->branch || in->call) && !in->ret)
			in->target = (uint64_t)(uint32_t)op->imm;
		if (op->type != ARM_OP_MEM)
			continue;
		in->mem = true;
		if (op->mem.base == ARM_REG_PC) {
			/* A literal: ldr rN, [pc, #off] (Thumb: from the PC aligned down to 4). */
			if (op->mem.index == ARM_REG_INVALID) {
				at = (pc_value(d, ci->address) & ~3ULL) +
				     (uint64_t)(int64_t)(op->subtracted ? -op->mem.disp : op->mem.disp);
				if (starts(m, "ldr") && !starts(m, "ldrb") && !starts(m, "ldrh") &&
				    !starts(m, "ldrd") && gpr(dst) && (lit = const_at(d, at, 4))) {
					uint32_t w = word(d, lit);

					/* The word may be an address or an offset: both kept. */
					ni = (struct regval){ .v = w, .known = true };
					nv = (struct regval){ .v = w, .known = true };
					set = true;
				}
			} else if (gpr(op->mem.index) && d->imm[op->mem.index].known) {
				/* ldr rN, [pc, rM]: PIC, rM an offset from the PC. */
				at = pc_value(d, ci->address) + d->imm[op->mem.index].v;
				in->data = at & 0xffffffffu;
				in->access = acc ? acc : ACC_READ;
			}
			continue;
		}
		if (!gpr(op->mem.base))
			continue;
		if (op->mem.index == ARM_REG_INVALID)
			dis_mem_prm(d, in, (unsigned int)op->mem.base,
				    op->subtracted ? -(int64_t)op->mem.disp : op->mem.disp,
				    atomic && acc == ACC_WRITE ? ACC_RMW : acc ? acc : ACC_READ);
		if (d->regs[op->mem.base].known &&
		    (op->mem.index == ARM_REG_INVALID || d->share_facts)) {
			uint64_t t;

			in->data = (d->regs[op->mem.base].v + (uint64_t)(int64_t)op->mem.disp) &
				   0xffffffffu;
			in->access = acc ? acc : ACC_READ;
			in->indexed = op->mem.index != ARM_REG_INVALID || d->regs[op->mem.base].indexed;
			/* ldr rN, [rGOT]: rN holds &foo. */
			if (ci->id == ARM_INS_LDR && gpr(dst) && !in->indexed &&
			    (t = dis_got(d, in->data))) {
				in->data = t;
				in->access = ACC_ADDR;
				nv = (struct regval){ .v = t, .known = true };
				set = true;
			}
		}
	}
	/* str rS, [rB]: a pointer kept in memory (not in the frame). */
	if (ci->id == ARM_INS_STR && !atomic && gpr(dst) && o1 && o1->type == ARM_OP_MEM)
		dis_stored(d, in, (unsigned int)dst, o1->mem.base == ARM_REG_SP ||
			   o1->mem.base == ARM_REG_R7 || o1->mem.base == ARM_REG_R11);
	if (atomic && acc == ACC_WRITE) {
		/* strex: the store of a read-modify-write; an add in between: a counter. */
		in->counter_op = dis_sc(d) && d->share_facts;
		if (in->access == ACC_WRITE)
			in->access = ACC_RMW;
		if (in->mem_prm_access == ACC_WRITE)
			in->mem_prm_access = ACC_RMW;
	} else if (atomic && gpr(dst)) {
		dis_ll(d, (unsigned int)dst);
	} else if ((ci->id == ARM_INS_ADD || ci->id == ARM_INS_SUB) && gpr(dst) && o1) {
		dis_ll_arith(d, o1->type == ARM_OP_REG ? (unsigned int)o1->reg : 0,
			     a->op_count == 2 ? (unsigned int)dst :
			     o2 && o2->type == ARM_OP_REG ? (unsigned int)o2->reg : 0, (unsigned int)dst);
	}
	/* ldr rN, [var]; adds rN, #1; str rN, [var]: a plain counter. */
	if (gpr(dst) && (ci->id == ARM_INS_LDR || ci->id == ARM_INS_STR))
		dis_cnt_mem(d, in, (unsigned int)dst, ci->id == ARM_INS_LDR ? ACC_READ : ACC_WRITE);
	if (!set && gpr(dst) && o1 && !in->call && !in->branch && acc != ACC_WRITE) {
		if ((ci->id == ARM_INS_ADD || ci->id == ARM_INS_ADDW) &&
		    (o1->type == ARM_OP_REG || a->op_count == 2)) {
			/* add rD, pc (Thumb) / add rD, pc, rD (ARM): the PIC literal was an offset. */
			int other = a->op_count == 2 ? dst : o2 && o2->type == ARM_OP_REG ? o2->reg : -1;
			int src = a->op_count == 2 ? dst : o1->reg;

			if (a->op_count == 2 && o1->type == ARM_OP_IMM) {
				other = -1;
			} else if (o1->reg == ARM_REG_PC && gpr(other) && d->imm[other].known) {
				nv = (struct regval){ .v = (pc_value(d, ci->address) + d->imm[other].v) &
						      0xffffffffu, .known = true };
				set = true;
			} else if (a->op_count == 2 && o1->type == ARM_OP_REG && o1->reg == ARM_REG_PC &&
				   d->imm[dst].known) {
				nv = (struct regval){ .v = (pc_value(d, ci->address) + d->imm[dst].v) &
						      0xffffffffu, .known = true };
				set = true;
			} else if (a->op_count == 2 && o1->type == ARM_OP_REG && gpr(o1->reg)) {
				/* add rD, rM: rD += rM. */
				src = dst, other = o1->reg;
			}
			if (!set && gpr(src)) {
				const cs_arm_op *add = a->op_count == 2 ? o1 : o2;

				if (add && add->type == ARM_OP_IMM && d->regs[src].known) {
					nv = d->regs[src];
					nv.v = (nv.v + (uint64_t)(uint32_t)add->imm) & 0xffffffffu;
					set = true;
				} else if (add && add->type == ARM_OP_IMM && d->prm[src].known) {
					np = d->prm[src];
					np.v += (uint64_t)(int64_t)add->imm;
					set = true;
				} else if (gpr(other) && d->regs[src].known != d->regs[other].known) {
					nv = d->regs[src].known ? d->regs[src] : d->regs[other];
					nv.indexed = true;
					set = true;
				}
			}
			if (nv.known) {
				in->data = nv.v;
				in->access = ACC_ADDR;
			}
		} else if (ci->id == ARM_INS_MOV && a->op_count == 2 && o1->type == ARM_OP_REG &&
			   gpr(o1->reg)) {
			nv = d->regs[o1->reg], ni = d->imm[o1->reg], np = d->prm[o1->reg];
			set = true;
		} else if ((ci->id == ARM_INS_MOV || ci->id == ARM_INS_MOVW) && a->op_count == 2 &&
			   o1->type == ARM_OP_IMM) {
			ni = (struct regval){ .v = (uint32_t)o1->imm, .known = true };
			if (ci->id == ARM_INS_MOVW)
				nv = ni;
			set = true;
		} else if (ci->id == ARM_INS_MOVT && a->op_count == 2 && o1->type == ARM_OP_IMM &&
			   d->imm[dst].known) {
			/* movw rD, #:lower16:x; movt rD, #:upper16:x: rD = &x. */
			ni = (struct regval){ .v = (d->imm[dst].v & 0xffff) |
						   ((uint64_t)(uint32_t)o1->imm << 16), .known = true };
			nv = ni;
			in->data = ni.v;
			in->access = ACC_ADDR;
			set = true;
		}
	}
	/* Every register the instruction writes (ldm/pop lists, writeback bases) is unknown. */
	for (int i = 0; i < a->op_count; i++) {
		const cs_arm_op *op = &a->operands[i];

		if (op->type == ARM_OP_REG && (op->access & CS_AC_WRITE) && gpr(op->reg))
			dis_forget(d, (unsigned int)op->reg);
		if (op->type == ARM_OP_MEM && a->writeback && gpr(op->mem.base) &&
		    op->mem.base != ARM_REG_SP)
			dis_forget(d, (unsigned int)op->mem.base);
	}
	if (acc == ACC_READ && gpr(dst))
		dis_forget(d, (unsigned int)dst);
	if (set && gpr(dst)) {
		dis_forget(d, (unsigned int)dst);
		d->regs[dst] = nv;
		d->imm[dst] = ni;
		d->prm[dst] = np;
	}
	/* str/ldr rN, [sp|r7|r11, #d] (-O0 spills): what the frame slot holds. */
	if ((ci->id == ARM_INS_STR || ci->id == ARM_INS_LDR) && a->op_count == 2 && gpr(dst) && !set &&
	    o1->type == ARM_OP_MEM && o1->mem.index == ARM_REG_INVALID && !a->writeback &&
	    (o1->mem.base == ARM_REG_SP || o1->mem.base == ARM_REG_R7 || o1->mem.base == ARM_REG_R11))
		dis_slot(d, ci->id == ARM_INS_STR, (unsigned int)dst, (unsigned int)o1->mem.base,
			 o1->subtracted ? -(int64_t)o1->mem.disp : o1->mem.disp, true);
}
