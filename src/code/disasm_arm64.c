/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>
#include <string.h>
#include "disasm_regs.h"
#include "elfimage.h"

/* ---- aarch64: ADRP page, then ADD/LDR/STR with the low 12 bits ---- */

static uint8_t arm64_access(const char *m, bool *atomic)
{
	*atomic = starts(m, "ldx") || starts(m, "stx") || starts(m, "ldax") || starts(m, "stlx") ||
		  starts(m, "cas") || starts(m, "swp") || starts(m, "ldadd") || starts(m, "ldclr") ||
		  starts(m, "ldeor") || starts(m, "ldset") || starts(m, "stadd") || starts(m, "ldsmax") ||
		  starts(m, "ldumax");
	if (starts(m, "cas") || starts(m, "swp") || (starts(m, "ld") && *atomic && !starts(m, "ldx") &&
						       !starts(m, "ldax")))
		return ACC_RMW;
	if (starts(m, "st"))
		return ACC_WRITE;
	if (starts(m, "ld"))
		return ACC_READ;
	return ACC_NONE;
}

/* w0 and x0 are one register. */
static unsigned int arm64_xreg(unsigned int r)
{
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return r - ARM64_REG_W0 + ARM64_REG_X0;
	return r;
}

/* An aarch64 register as DWARF numbers it, plus 1: x0-x30 0-30, sp 31; 0 for others (xzr). */
static uint8_t arm64_dwarf(unsigned int r)
{
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28)
		return (uint8_t)(r - ARM64_REG_X0 + 1);
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return (uint8_t)(r - ARM64_REG_W0 + 1);
	if (r == ARM64_REG_X29)
		return 30;
	if (r == ARM64_REG_X30)
		return 31;
	if (r == ARM64_REG_SP || r == ARM64_REG_WSP)
		return 32;
	return 0;
}

static bool arm64_is_x(unsigned int r)
{
	return (r >= ARM64_REG_X0 && r <= ARM64_REG_X28) || r == ARM64_REG_X29 ||
	       r == ARM64_REG_X30 || r == ARM64_REG_SP;
}

/* The ty_ fields: loads, stores, moves and additions of registers, as DWARF sees them. */
static void arm64_type_facts(const cs_insn *ci, struct insn *in, bool atomic)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const cs_arm64_op *mem = NULL, *imm = NULL;
	const cs_arm64_op *r0 = NULL, *r1 = NULL, *r2 = NULL, *r3 = NULL;
	const char *m = ci->mnemonic;
	int nreg = 0;

	/* (capstone 4 marks a compare's first register written: it writes the flags alone) */
	if (!strncmp(m, "cmp", 3) || !strncmp(m, "cmn", 3) || !strncmp(m, "tst", 3) ||
	    !strncmp(m, "ccmp", 4) || !strncmp(m, "ccmn", 4) || !strncmp(m, "fcmp", 4))
		return;

	for (int i = 0; i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];

		if (op->type == ARM64_OP_MEM)
			mem = op;
		else if (op->type == ARM64_OP_IMM || op->type == ARM64_OP_CIMM)
			imm = op;
		else if (op->type == ARM64_OP_REG && nreg < 4) {
			if (nreg == 0)
				r0 = op;
			else if (nreg == 1)
				r1 = op;
			else if (nreg == 2)
				r2 = op;
			else
				r3 = op;
			nreg++;
		}
		if (op->type == ARM64_OP_REG && (op->access & CS_AC_WRITE))
			in->ty_clobbers |= TY_REG_BIT(arm64_dwarf(op->reg));
	}
	if (mem) {
		in->ty_base = arm64_dwarf(mem->mem.base);
		in->ty_index = arm64_dwarf(mem->mem.index);
		in->ty_scale = mem->mem.index == ARM64_REG_INVALID ? 0 :
			       mem->shift.type == ARM64_SFT_LSL && mem->shift.value < 8 ?
			       (uint8_t)(1u << mem->shift.value) : 1;
		in->ty_disp = mem->mem.disp;
		in->ty_writeback = a->writeback;
		/* [xN], #imm: after the access; [xN, #d]!: the displacement */
		in->ty_imm = a->writeback ? (imm ? imm->imm : mem->mem.disp) : 0;
		in->ty_size = r0 && arm64_is_x(r0->reg) ? 8 : 4;
		if (!strncmp(m, "ldrb", 4) || !strncmp(m, "strb", 4) || !strncmp(m, "ldurb", 5) ||
		    !strncmp(m, "sturb", 5) || !strncmp(m, "ldrsb", 5) || !strncmp(m, "ldursb", 6))
			in->ty_size = 1;
		else if (!strncmp(m, "ldrh", 4) || !strncmp(m, "strh", 4) || !strncmp(m, "ldurh", 5) ||
			 !strncmp(m, "sturh", 5) || !strncmp(m, "ldrsh", 5) || !strncmp(m, "ldursh", 6))
			in->ty_size = 2;
		in->ty_access = !strncmp(m, "st", 2) && strncmp(m, "stadd", 5) ? ACC_WRITE :
				!strncmp(m, "ld", 2) && (m[2] == 'r' || m[2] == 'u' || m[2] == 'p' ||
							  m[2] == 'x' || m[2] == 'a') ? ACC_READ :
				ACC_RMW;
		if (atomic && in->ty_access == ACC_READ && strncmp(m, "ldx", 3) &&
		    strncmp(m, "ldax", 4) && strncmp(m, "ldar", 4) && strncmp(m, "ldapr", 5))
			in->ty_access = ACC_RMW;
		if (in->ty_access == ACC_READ && r0 && !atomic &&
		    (!strncmp(m, "ldr", 3) || !strncmp(m, "ldur", 4) || !strncmp(m, "ldp", 3))) {
			in->ty_op = TY_LOAD;
			in->ty_dst = arm64_dwarf(r0->reg);
			in->ty_wide = arm64_is_x(r0->reg) && in->ty_size == 8 && strncmp(m, "ldrs", 4);
			if (!strncmp(m, "ldp", 3) && r1) {
				in->ty_src2 = arm64_dwarf(r1->reg);	/* the pair's second */
				in->ty_clobbers &= ~TY_REG_BIT(in->ty_src2);
			}
		} else if (in->ty_access == ACC_WRITE && r0 && !atomic) {
			in->ty_op = TY_STORE;
			in->ty_src = arm64_dwarf(r0->reg);
			in->ty_wide = arm64_is_x(r0->reg) && in->ty_size == 8;
		} else {
			in->ty_op = TY_MEM;
		}
	} else if (r0 && (r0->access & CS_AC_WRITE)) {
		in->ty_dst = arm64_dwarf(r0->reg);
		in->ty_wide = arm64_is_x(r0->reg);
		if (ci->id == ARM64_INS_MOV && r1 && !imm && !r2) {
			in->ty_op = TY_MOVE;
			in->ty_src = arm64_dwarf(r1->reg);
		} else if ((ci->id == ARM64_INS_ADD || ci->id == ARM64_INS_SUB) && r1 && imm && !r2 &&
			   imm->shift.type == ARM64_SFT_INVALID) {
			in->ty_op = TY_ADD_IMM;
			in->ty_src = arm64_dwarf(r1->reg);
			in->ty_imm = ci->id == ARM64_INS_SUB ? -imm->imm : imm->imm;
		} else if ((ci->id == ARM64_INS_ADD || ci->id == ARM64_INS_SUB) && r1 && imm && !r2) {
			in->ty_op = TY_ADD_IMM;
			in->ty_src = arm64_dwarf(r1->reg);
			in->ty_imm = (ci->id == ARM64_INS_SUB ? -imm->imm : imm->imm) *
				     (int64_t)(1u << (imm->shift.value & 31));
		} else if (ci->id == ARM64_INS_ADD && r1 && r2) {
			in->ty_op = TY_ADD_REG;
			in->ty_src = arm64_dwarf(r1->reg);
			in->ty_src2 = arm64_dwarf(r2->reg);
		} else if ((ci->id == ARM64_INS_MADD || ci->id == ARM64_INS_SMADDL ||
			    ci->id == ARM64_INS_UMADDL) && r1 && r3) {
			/* madd xd, xn, xm, xa: xa plus a product, &base[i] of an element's size */
			in->ty_op = TY_ADD_REG;
			in->ty_src = arm64_dwarf(r3->reg);
			in->ty_src2 = arm64_dwarf(r1->reg);
		}
	}
	if (in->ty_op == TY_LOAD && in->ty_dst)
		in->ty_clobbers &= ~TY_REG_BIT(in->ty_dst);
	/* ldp: the second register loaded is not followed */
	if (in->ty_writeback && in->ty_base)
		in->ty_clobbers &= ~TY_REG_BIT(in->ty_base);
	if (in->ty_op != TY_LOAD && in->ty_op != TY_STORE && in->ty_op != TY_MEM && in->ty_dst)
		in->ty_clobbers &= ~TY_REG_BIT(in->ty_dst);
}

/*
 * Lock facts: a memory operand based on the function's argument k (mem_prm
 * 1 + k, mem_prm_off): an atomic helper's (__aarch64_cas4_acq(e, v, p)) word.
 */
static void arm64_lock_prm(struct disasm *d, struct insn *in, unsigned int base, int64_t disp)
{
	if (d->share_facts || base >= NREGS || !d->prm[base].known)
		return;
	in->mem_prm = (uint8_t)(d->prm[base].idx + 1);
	in->mem_prm_off = (int64_t)d->prm[base].v + disp;
}

/* Lock facts: an atomic storing register VAL, the function's own argument (a helper's value). */
static void arm64_stored_prm(struct disasm *d, struct insn *in, unsigned int val)
{
	if (!d->share_facts && val < NREGS && d->prm[val].known && !d->prm[val].v)
		in->stored_prm = (uint8_t)(d->prm[val].idx + 1);
}

/* What an atomic instruction does, by its mnemonic (the exclusive pair, CAS, swap, or arithmetic). */
static uint8_t arm64_atomic_op(const char *m)
{
	return starts(m, "ldx") || starts(m, "ldax") ? ATOM_LL :
	       starts(m, "stx") || starts(m, "stlx") ? ATOM_SC :
	       starts(m, "cas") ? ATOM_CAS : starts(m, "swp") ? ATOM_XCHG : ATOM_ARITH;
}

/* Lock facts at a call: the addresses and constants its argument registers hold. */
static void arm64_call_consts(struct disasm *d, struct insn *in)
{
	for (unsigned int k = 0; k < 6; k++) {
		if (d->regs[ARM64_REG_X0 + k].known)
			in->call_arg[k] = d->regs[ARM64_REG_X0 + k].v;
		if (d->imm[ARM64_REG_X0 + k].known)
			in->call_arg_imm |= (uint8_t)(1u << k);
	}
}

static void arm64_lock_facts(struct disasm *d, const cs_insn *ci, struct insn *in, bool atomic)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const char *m = ci->mnemonic;
	int vals[3], nv = 0;

	for (int i = 0; i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];

		if (op->type == ARM64_OP_REG && nv < 3)
			vals[nv++] = (int)arm64_xreg(op->reg);
		if (op->type != ARM64_OP_MEM)
			continue;
		in->mem = true;
		in->mem_base = (uint16_t)arm64_xreg(op->mem.base);
		in->mem_disp = op->mem.disp;
		in->stack_mem = op->mem.base == ARM64_REG_SP || op->mem.base == ARM64_REG_X29;
		if (starts(m, "st") && !atomic)
			in->plain_store = true;
		arm64_lock_prm(d, in, in->mem_base, op->mem.disp);
	}
	if (atomic) {
		/*
		 * The register it stores: stxr ws, wt, [xn] and cas ws, wt, [xn]
		 * (when [xn] == ws) wt; swp and ld<op> ws, wt, [xn] ws.
		 */
		int k = in->atomic_op == ATOM_SC || in->atomic_op == ATOM_CAS ? 1 : 0;
		unsigned int val = nv > k && vals[k] < NREGS ? (unsigned int)vals[k] : 0;

		if (val && in->atomic_op != ATOM_LL && in->atomic_op != ATOM_ARITH)
			in->new_const = d->imm[val].known;
		if (val && in->atomic_op != ATOM_LL && nv >= 2)
			arm64_stored_prm(d, in, val);
	}
	if (ci->id == ARM64_INS_SVC) {
		in->syscall = true;
		in->sysno = d->imm[ARM64_REG_X8].known ? (int32_t)d->imm[ARM64_REG_X8].v : -1;
	}
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) || !strcmp(m, "bl"))
		arm64_call_consts(d, in);
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) && d->regs[ARM64_REG_X0].known)
		in->arg0 = d->regs[ARM64_REG_X0].v;
	/* mov wN, #imm / movz: a constant; anything else writing the register: not. */
	if (nv >= 1 && vals[0] < NREGS && !starts(m, "st") && !starts(m, "cb") && !starts(m, "tb") &&
	    !starts(m, "cmp") && !starts(m, "tst")) {
		bool imm = (ci->id == ARM64_INS_MOV || ci->id == ARM64_INS_MOVZ) && a->op_count == 2 &&
			   a->operands[1].type == ARM64_OP_IMM;

		d->imm[vals[0]].known = imm;
		d->imm[vals[0]].v = imm ? (uint64_t)a->operands[1].imm : 0;
		if (!imm && ci->id == ARM64_INS_MOV && a->op_count == 2 &&
		    a->operands[1].type == ARM64_OP_REG &&
		    (a->operands[1].reg == ARM64_REG_WZR || a->operands[1].reg == ARM64_REG_XZR))
			d->imm[vals[0]].known = true;
	}
	/* stxr's status register is written too. */
	if (in->atomic_op == ATOM_SC && nv >= 1 && vals[0] < NREGS)
		d->imm[vals[0]].known = false;
}

/*
 * A call to a small function that swaps (an LSE swp in its first words: the
 * outline atomics gcc calls, __aarch64_swp4_acq) is an exchange: its result
 * the old value.  Read from the bytes.
 */
static bool swap_helper(const struct disasm *d, uint64_t fn)
{
	uint32_t w;

	for (unsigned int k = 0; k < 8 && code_word(d, fn + 4 * k, &w); k++) {
		if ((w & 0x3f20fc00u) == 0x38208000u)	/* swp{a,l,al}{b,h,} */
			return true;
		if (w == 0xd65f03c0u)			/* ret */
			return false;
	}
	return false;
}

void arm64(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_arm64 *a = &ci->detail->arm64;
	bool atomic;
	uint8_t acc = arm64_access(ci->mnemonic, &atomic);
	int dst = a->op_count > 0 && a->operands[0].type == ARM64_OP_REG ?
		  (int)arm64_xreg(a->operands[0].reg) : -1;
	const cs_arm64_op *o1 = a->op_count > 1 ? &a->operands[1] : NULL;
	const cs_arm64_op *o2 = a->op_count > 2 ? &a->operands[2] : NULL;

	in->jump = ci->id == ARM64_INS_B && (a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL);
	if (d->type_facts)
		arm64_type_facts(ci, in, atomic);
	/* The registers it writes (a leaf's, for its callers: disasm.c's clobbers). */
	for (int i = 0; d->share_facts && i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];
		unsigned int r = op->type == ARM64_OP_REG && (op->access & CS_AC_WRITE) ?
				 arm64_xreg(op->reg) :
				 op->type == ARM64_OP_MEM && a->writeback ? arm64_xreg(op->mem.base) : 0;

		if (r >= ARM64_REG_X0 && r < ARM64_REG_X0 + 29)
			d->cur_written |= 1u << (r - ARM64_REG_X0);
		if (r && r == d->fslot_reg)
			d->fslot_reg = 0;
	}
	/* (mycl-share tells a store-exclusive from an LSE update by it: an outline atomic's two ways) */
	if (atomic)
		in->atomic_op = arm64_atomic_op(ci->mnemonic);
	if (d->lock_facts)
		arm64_lock_facts(d, ci, in, atomic);

	in->spin_hint = ci->id == ARM64_INS_YIELD || ci->id == ARM64_INS_ISB ||
			ci->id == ARM64_INS_WFE;
	in->atomic = atomic;
	in->exchange = (atomic && starts(ci->mnemonic, "swp")) ||
		       (d->share_facts && ci->id == ARM64_INS_BL && a->op_count == 1 &&
			a->operands[0].type == ARM64_OP_IMM &&
			swap_helper(d, (uint64_t)a->operands[0].imm));
	in->on_zero = !strcmp(ci->mnemonic, "cbz") || !strcmp(ci->mnemonic, "b.eq") ? 1 :
		      !strcmp(ci->mnemonic, "cbnz") || !strcmp(ci->mnemonic, "b.ne") ? 2 : 0;
	/* blr xN with a function's address in xN (a vtable's slot loaded): direct. */
	if (in->call && !in->target && d->share_facts && ci->id == ARM64_INS_BLR && dst > 0 &&
	    dst < NREGS && d->regs[dst].known && d->img && elf_image_code(d->img, d->regs[dst].v, 1))
		in->target = d->regs[dst].v;
	/* blr xN with xN loaded from a table of functions at a computed index. */
	if (in->call && !in->target && d->share_facts && ci->id == ARM64_INS_BLR && dst > 0 &&
	    (unsigned int)dst == d->fslot_reg) {
		in->call_slot = d->fslot;
		in->call_stride = d->fslot_stride;
	}
	if (in->call && d->share_facts)
		dis_call_args(d, in);
	else if (in->jump && d->share_facts)
		dis_call_args(d, in);	/* a tail call's, when it is one (mycl-share decides) */
	/* str wzr / str wN with a constant in wN: a constant stored. */
	if (d->share_facts && (ci->id == ARM64_INS_STR || ci->id == ARM64_INS_STUR ||
			       ci->id == ARM64_INS_STRB || ci->id == ARM64_INS_STRH ||
			       ci->id == ARM64_INS_STURB || ci->id == ARM64_INS_STURH) &&
	    a->op_count == 2 && a->operands[0].type == ARM64_OP_REG) {
		arm64_reg r = a->operands[0].reg;

		if (r == ARM64_REG_WZR || r == ARM64_REG_XZR)
			in->store_const = true, in->store_val = 0;
		else if (dst > 0 && dst < NREGS)
			in->store_const = dis_const(d, (unsigned int)dst, &in->store_val);
	}
	/* str xN, [sp|x29, #d] (-O0 spills): what the slot holds. */
	if ((ci->id == ARM64_INS_STR || ci->id == ARM64_INS_STUR) && a->op_count == 2 && dst > 0 &&
	    o1->type == ARM64_OP_MEM && o1->mem.index == ARM64_REG_INVALID &&
	    (o1->mem.base == ARM64_REG_SP || o1->mem.base == ARM64_REG_X29) && !a->writeback)
		dis_slot(d, true, (unsigned int)dst, o1->mem.base, o1->mem.disp,
			 a->operands[0].reg == arm64_xreg(a->operands[0].reg));
	/* str xN, [xM] with an address in xN: kept there (a stack slot: a local's member). */
	if ((ci->id == ARM64_INS_STR || ci->id == ARM64_INS_STUR) && a->op_count == 2 && dst > 0 &&
	    o1->type == ARM64_OP_MEM)
		dis_stored(d, in, (unsigned int)dst, o1->mem.base == ARM64_REG_SP ||
			   o1->mem.base == ARM64_REG_X29);
	/* stp xA, xB, [xM]: xA kept at the address, xB 8 bytes on. */
	if (ci->id == ARM64_INS_STP && a->op_count == 3 && o2->type == ARM64_OP_MEM &&
	    a->operands[0].type == ARM64_OP_REG && o1->type == ARM64_OP_REG) {
		bool stack = o2->mem.base == ARM64_REG_SP || o2->mem.base == ARM64_REG_X29;
		struct insn second = { 0 };

		dis_stored(d, in, arm64_xreg(a->operands[0].reg), stack);
		dis_stored(d, &second, arm64_xreg(o1->reg), stack);
		in->stored_pair = second.stored;
		if (!in->stored_stack)
			in->stored_stack = second.stored_stack;
		if (!in->stored_prm)
			in->stored_prm = second.stored_prm;
	}
	/* mrs xN, tpidr_el0: the thread pointer, thread-locals at offsets from it (local-exec TLS). */
	if (ci->id == ARM64_INS_MRS && d->share_facts && dst > 0 && dst < NREGS &&
	    strstr(ci->op_str, "tpidr_el0")) {
		dis_set_addr(d, (unsigned int)dst, INSN_TLS_KEY(0), false);
		return;
	}
	if ((ci->id == ARM64_INS_ADRP || ci->id == ARM64_INS_ADR) && a->op_count == 2) {
		dis_set_addr(d, (unsigned int)dst, (uint64_t)o1->imm, false);
		if (ci->id == ARM64_INS_ADR) {
			in->data = (uint64_t)o1->imm;
			in->access = ACC_ADDR;
		}
		return;
	}
	for (int i = 0; i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];
		unsigned int base;

		if (op->type == ARM64_OP_IMM && (in->branch || in->call))
			in->target = (uint64_t)op->imm;
		/* ldr xN, <literal>: the address is the immediate itself. */
		if (op->type == ARM64_OP_IMM && acc == ACC_READ && i == 1 && !in->branch)
			in->data = (uint64_t)op->imm, in->access = ACC_READ;
		if (op->type != ARM64_OP_MEM || op->mem.base <= 0)
			continue;
		base = arm64_xreg(op->mem.base);
		if (base >= NREGS)
			continue;
		if (op->mem.index == ARM64_REG_INVALID)
			dis_mem_prm(d, in, base, op->mem.disp, acc ? acc : ACC_READ);
		/* [xN] with xN = what pointer variable g holds, plus off: an access through g. */
		if (d->share_facts && op->mem.index == ARM64_REG_INVALID && !d->regs[base].known &&
		    d->ld[base].known) {
			in->via = d->ld[base].g;
			in->via_off = d->ld[base].off + op->mem.disp;
			in->via_access = acc ? acc : ACC_READ;
		}
		if (d->regs[base].known && (op->mem.index == ARM64_REG_INVALID || d->share_facts)) {
			uint64_t t;

			in->data = d->regs[base].v + (uint64_t)(int64_t)op->mem.disp;
			if (d->regs[base].alt && op->mem.index == ARM64_REG_INVALID)
				in->data_alt = d->regs[base].alt + (uint64_t)(int64_t)op->mem.disp;
			in->access = acc ? acc : ACC_READ;
			in->indexed = op->mem.index != ARM64_REG_INVALID || d->regs[base].indexed;
			/* [xBase, xIdx, lsl #k], or a base built of one: the elements' distance */
			in->scale = op->mem.index != ARM64_REG_INVALID ?
				    (op->shift.type == ARM64_SFT_LSL && op->shift.value < 16 ?
				     (uint16_t)(1u << op->shift.value) : 1) : d->regs[base].scale;
			/* ldr xN, [ptr], ptr = &foo in the program's data: xN holds &foo. */
			if (ci->id == ARM64_INS_LDR && dst > 0 && !in->indexed &&
			    a->operands[0].reg == arm64_xreg(a->operands[0].reg) &&
			    (t = dis_any_pointer(d, in->data))) {
				/* (a global object's vtable, then the vtable's slot: a virtual call) */
				dis_set_addr(d, (unsigned int)dst, t, false);
				return;
			}
			/* ldr xN, [table + i * size + off]: a function of a table of them. */
			if (d->share_facts && ci->id == ARM64_INS_LDR && dst > 0 && in->indexed &&
			    a->operands[0].reg == arm64_xreg(a->operands[0].reg) &&
			    dis_code_pointer(d, in->data)) {
				d->fslot_reg = (unsigned int)dst;
				d->fslot = in->data;
				d->fslot_stride = in->scale;
			}
			/* ldr xN, [xM, :got_lo12:foo]: xN now holds &foo. */
			if (ci->id == ARM64_INS_LDR && dst > 0 && !in->indexed &&
			    (t = dis_got(d, in->data))) {
				in->data = t;
				in->access = ACC_ADDR;
				dis_set_addr(d, (unsigned int)dst, t, false);
				return;
			}
		}
		if (a->writeback && base != ARM64_REG_SP && base != ARM64_REG_X29)
			dis_forget(d, base);
	}
	if (d->share_facts && (in->access == ACC_RMW || in->mem_prm_access == ACC_RMW ||
			       in->via_access == ACC_RMW))
		in->counter_op = strstr(ci->mnemonic, "add") || strstr(ci->mnemonic, "sub");
	/* ldr xN, [var]; add xN, xN, #1; str xN, [var]: a plain counter. */
	if (dst > 0 && a->op_count == 2 && o1->type == ARM64_OP_MEM)
		dis_cnt_mem(d, in, (unsigned int)dst, acc);
	if (starts(ci->mnemonic, "ldx") || starts(ci->mnemonic, "ldax")) {
		dis_ll(d, (unsigned int)dst);
	} else if (starts(ci->mnemonic, "stx") || starts(ci->mnemonic, "stlx")) {
		/* stxr: the store of a read-modify-write; an add in between: a counter. */
		in->counter_op = dis_sc(d) && d->share_facts;
		if (in->access == ACC_WRITE)
			in->access = ACC_RMW;
		if (in->mem_prm_access == ACC_WRITE)
			in->mem_prm_access = ACC_RMW;
	} else if ((ci->id == ARM64_INS_ADD || ci->id == ARM64_INS_SUB) && a->op_count == 3 && dst > 0) {
		dis_ll_arith(d, o1->type == ARM64_OP_REG ? arm64_xreg(o1->reg) : 0,
			     o2->type == ARM64_OP_REG ? arm64_xreg(o2->reg) : 0, (unsigned int)dst);
	}
	if (dst <= 0 || dst >= NREGS || acc == ACC_WRITE || in->call || in->branch)
		return;
	/* ldp xA, xB, [..]: both written. */
	if (acc == ACC_READ && o1 && o1->type == ARM64_OP_REG)
		dis_forget(d, arm64_xreg(o1->reg));
	if (ci->id == ARM64_INS_ADD && a->op_count == 3 && o1->type == ARM64_OP_REG &&
	    arm64_xreg(o1->reg) < NREGS) {
		unsigned int src = arm64_xreg(o1->reg);

		uint64_t imm = o2->type == ARM64_OP_IMM ?
			       (o2->shift.type == ARM64_SFT_LSL && o2->shift.value < 32 ?
				(uint64_t)o2->imm << o2->shift.value : (uint64_t)o2->imm) : 0;

		if (o2->type == ARM64_OP_IMM && d->regs[src].known) {
			uint64_t v = d->regs[src].v + imm;

			in->data = v;
			in->access = ACC_ADDR;
			dis_set_addr(d, (unsigned int)dst, v, d->regs[src].indexed);
			return;
		}
		if (o2->type == ARM64_OP_IMM && d->ld[src].known && d->share_facts) {
			typeof(d->ld[0]) l = d->ld[src];

			l.off += (int64_t)imm;
			dis_forget(d, (unsigned int)dst);
			d->ld[dst] = l;
			return;
		}
		if (o2->type == ARM64_OP_IMM && d->prm[src].known) {
			struct regval p = d->prm[src];

			p.v += imm;
			dis_forget(d, (unsigned int)dst);
			d->prm[dst] = p;
			return;
		}
		/* add xD, xBase, xIdx (lsl #k): somewhere in the object at xBase. */
		if (o2->type == ARM64_OP_REG && arm64_xreg(o2->reg) < NREGS &&
		    d->regs[src].known != d->regs[arm64_xreg(o2->reg)].known) {
			uint64_t v = d->regs[src].known ? d->regs[src].v : d->regs[arm64_xreg(o2->reg)].v;

			dis_set_addr(d, (unsigned int)dst, v, true);
			/* xIdx shifted left by k: elements 1 << k bytes apart */
			if (d->regs[src].known && o2->shift.type == ARM64_SFT_LSL && o2->shift.value < 16)
				d->regs[dst].scale = (uint16_t)(1u << o2->shift.value);
			return;
		}
	}
	if (ci->id == ARM64_INS_MOV && a->op_count == 2 && o1->type == ARM64_OP_REG &&
	    o1->reg != ARM64_REG_XZR && o1->reg != ARM64_REG_WZR) {
		dis_copy(d, (unsigned int)dst, arm64_xreg(o1->reg));
		return;
	}
	/* csel xD, xA, xB, cond with an address in each: xD holds one of the two (mycl-share). */
	if (d->share_facts && ci->id == ARM64_INS_CSEL && a->op_count == 3 &&
	    o1->type == ARM64_OP_REG && o2->type == ARM64_OP_REG &&
	    arm64_xreg(o1->reg) < NREGS && arm64_xreg(o2->reg) < NREGS) {
		struct regval x = d->regs[arm64_xreg(o1->reg)], y = d->regs[arm64_xreg(o2->reg)];

		if (plain_addr(&x) && plain_addr(&y) && x.v != y.v) {
			dis_set_addr(d, (unsigned int)dst, x.v, false);
			d->regs[dst].alt = y.v;
			return;
		}
	}
	if ((ci->id == ARM64_INS_MOV || ci->id == ARM64_INS_MOVZ) && a->op_count == 2 &&
	    o1->type == ARM64_OP_IMM) {
		dis_set_imm(d, (unsigned int)dst, (uint64_t)o1->imm);
		return;
	}
	if (ci->id == ARM64_INS_MOV && a->op_count == 2 && o1->type == ARM64_OP_REG) {
		dis_set_imm(d, (unsigned int)dst, 0);	/* mov xN, xzr */
		return;
	}
	/* A compare or test writes only the flags: its first register is read. */
	if (ci->id == ARM64_INS_CMP || ci->id == ARM64_INS_CMN || ci->id == ARM64_INS_TST ||
	    ci->id == ARM64_INS_CCMP || ci->id == ARM64_INS_CCMN || ci->id == ARM64_INS_FCMP ||
	    ci->id == ARM64_INS_FCMPE || ci->id == ARM64_INS_FCCMP || ci->id == ARM64_INS_FCCMPE)
		return;
	/* Anything else that writes its first register makes it unknown. */
	dis_forget(d, (unsigned int)dst);
	/* ldr xN, [g]: xN holds what pointer variable g (a global, a thread-local) holds. */
	if (d->share_facts && (ci->id == ARM64_INS_LDR || ci->id == ARM64_INS_LDUR) &&
	    a->op_count == 2 && in->data && in->access == ACC_READ && !in->indexed &&
	    a->operands[0].reg == (unsigned int)dst)
		d->ld[dst] = (typeof(d->ld[0])){ in->data, 0, true };
	/* ldr xN, [x0, #off]: a pointer the function's first argument points to (arg->slot). */
	else if (d->share_facts && (ci->id == ARM64_INS_LDR || ci->id == ARM64_INS_LDUR) &&
		 a->op_count == 2 && !in->data && in->mem_prm == 1 &&
		 in->mem_prm_access == ACC_READ && a->operands[0].reg == (unsigned int)dst)
		d->ld[dst] = (typeof(d->ld[0])){ INSN_ARG_KEY, 0, true };
	/* ldp xA, xB, [g]: both, xB from 8 on. */
	if (d->share_facts && ci->id == ARM64_INS_LDP && a->op_count == 3 && in->data &&
	    in->access == ACC_READ && !in->indexed && a->operands[0].reg == (unsigned int)dst &&
	    o1->type == ARM64_OP_REG && o1->reg == arm64_xreg(o1->reg) && o1->reg < NREGS) {
		d->ld[dst] = (typeof(d->ld[0])){ in->data, 0, true };
		d->ld[o1->reg] = (typeof(d->ld[0])){ in->data + 8, 0, true };
	}
	if ((ci->id == ARM64_INS_LDR || ci->id == ARM64_INS_LDUR) && a->op_count == 2 &&
	    o1->type == ARM64_OP_MEM && o1->mem.index == ARM64_REG_INVALID &&
	    (o1->mem.base == ARM64_REG_SP || o1->mem.base == ARM64_REG_X29) && !a->writeback)
		dis_slot(d, false, (unsigned int)dst, o1->mem.base, o1->mem.disp,
			 a->operands[0].reg == (unsigned int)dst);
}

/* Register N of an instruction's field (31: SP as a base, XZR otherwise) as capstone names it. */
static unsigned int arm64_field_reg(uint32_t n, bool base)
{
	return n < 29 ? ARM64_REG_X0 + n : n == 29 ? ARM64_REG_X29 : n == 30 ? ARM64_REG_X30 :
	       base ? ARM64_REG_SP : ARM64_REG_XZR;
}

size_t arm64_lse(struct disasm *d, const uint8_t *p, size_t len, uint64_t pc, struct insn *in)
{
	static const char *const ops[] = { "add", "clr", "eor", "set", "smax", "smin", "umax", "umin" };
	static const char *const sizes[] = { "b", "h", "", "" };
	uint32_t w, sz, rs, rn, rt;
	unsigned int base, val = 0, old[2] = { 0, 0 };
	char name[16];
	bool x;

	if (len < 4)
		return 0;
	w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	sz = w >> 30;
	rs = (w >> 16) & 31;
	rn = (w >> 5) & 31;
	rt = w & 31;
	x = sz == 3;
	if ((w & 0x3f200c00) == 0x38200000) {
		/* LD<op>/SWP: size 111000 A R 1 Rs o3 opc 00 Rn Rt; Rt gets the old value. */
		uint32_t o3 = (w >> 15) & 1, opc = (w >> 12) & 7;
		bool acq = (w >> 23) & 1, rel = (w >> 22) & 1;

		if (o3 && opc)
			return 0;	/* LDAPR (a load) and what is unallocated */
		snprintf(name, sizeof(name), "%s%s%s%s", o3 ? "swp" : "ld", o3 ? "" : ops[opc],
			 acq ? "a" : "", rel ? "l" : "");
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s", sizes[sz]);
		in->atomic_op = o3 ? ATOM_XCHG : ATOM_ARITH;
		val = arm64_field_reg(rs, false);
		old[0] = arm64_field_reg(rt, false);
		in->counter_op = d->share_facts && !o3 && opc == 0;
	} else if ((w & 0x3fa07c00) == 0x08a07c00 || (w & 0xbfa07c00) == 0x08207c00) {
		/* CAS: size 0010001 L 1 Rs o0 11111 Rn Rt; CASP: 0 sz 0010000 L 1 ...; Rs gets the old value. */
		bool pair = !(w & 0x00800000), acq = (w >> 22) & 1, rel = (w >> 15) & 1;

		if (pair && ((rs | rt) & 1))
			return 0;
		snprintf(name, sizeof(name), "cas%s%s%s%s", pair ? "p" : "", acq ? "a" : "",
			 rel ? "l" : "", pair ? "" : sizes[sz]);
		if (pair)
			x = (w >> 30) & 1;
		in->atomic_op = ATOM_CAS;
		val = arm64_field_reg(rt, false);
		old[0] = arm64_field_reg(rs, false);
		old[1] = pair ? arm64_field_reg(rs + 1, false) : 0;
	} else {
		return 0;
	}
	base = arm64_field_reg(rn, true);
	in->addr = pc;
	in->size = 4;
	if (!d->no_text)
		snprintf(in->text, sizeof(in->text), "%-7s %c%u, %c%u, [%s%u]", name, x ? 'x' : 'w',
			 rs, x ? 'x' : 'w', rt, rn == 31 ? "sp" : "x", rn == 31 ? 0 : rn);
	in->atomic = true;
	in->may_fail = in->atomic_op == ATOM_CAS;
	in->mem = true;
	in->mem_base = (uint16_t)base;
	in->stack_mem = base == ARM64_REG_SP || base == ARM64_REG_X29;
	in->new_const = val != ARM64_REG_XZR && val < NREGS ? d->imm[val].known :
			val == ARM64_REG_XZR;
	dis_mem_prm(d, in, base, 0, ACC_RMW);
	if (d->lock_facts) {
		arm64_lock_prm(d, in, base, 0);
		arm64_stored_prm(d, in, val);
	}
	if (d->share_facts && !d->regs[base].known && d->ld[base].known) {
		in->via = d->ld[base].g;
		in->via_off = d->ld[base].off;
		in->via_access = ACC_RMW;
	}
	if (d->regs[base].known) {
		in->data = d->regs[base].v;
		in->data_alt = d->regs[base].alt;
		in->access = ACC_RMW;
		in->indexed = d->regs[base].indexed;
		in->scale = d->regs[base].scale;
	}
	if (!d->share_facts)
		in->counter_op = false;
	for (int i = 0; i < 2; i++)
		if (old[i] && old[i] != ARM64_REG_XZR && old[i] < NREGS)
			dis_forget(d, old[i]);
	return 4;
}
