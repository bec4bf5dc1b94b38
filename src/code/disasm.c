/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>
#include "disasm.h"

#define NREGS 512

/* What a register is known to hold, from the instructions just before. */
struct regval {
	uint64_t v;
	bool known;
	bool indexed;			/* v is the start of an object indexed by a register */
	uint8_t idx;			/* prm: which argument of the function (0: the first) */
};

struct disasm {
	csh cs;
	uint16_t machine;
	bool big_endian;
	uint64_t toc;
	bool no_text;
	bool lock_facts;		/* fill the fields lockcode.c reads (disasm_set_lock_facts) */
	bool share_facts;		/* fill the fields mycl-share reads (disasm_set_share_facts) */
	const uint64_t *starts;		/* function starts: the state is reset at each */
	size_t nr_starts;
	uint64_t (*got)(void *ctx, uint64_t slot);	/* what a GOT/TOC slot points to */
	void *got_ctx;
	struct regval regs[NREGS];
	struct regval imm[NREGS];	/* registers holding a constant (mov $imm) */
	struct regval prm[NREGS];	/* x86: registers holding argument idx plus v */
	struct { uint64_t g; int64_t off; bool known; } ld[NREGS], ld_next;	/* x86: *g + off */
	unsigned int ld_dst;		/* the register ld_next goes to, after the writes */
	/* x86 -O0: what frame slots (disp(%rbp)) hold: a constant, an address, the argument. */
	struct slot {
		int64_t disp;
		bool used;
		struct regval imm, addr, prm;
	} slots[8];
	uint8_t x86_family[NREGS];	/* x86: register id -> 1 + its 64-bit register, 0: none */
};

/* x86: the 64-bit register a register id is part of (eax, ax, al -> rax). */
static void x86_families(struct disasm *d)
{
	static const char *const fam[16][4] = {
		{ "rax", "eax", "ax", "al" }, { "rbx", "ebx", "bx", "bl" }, { "rcx", "ecx", "cx", "cl" },
		{ "rdx", "edx", "dx", "dl" }, { "rsi", "esi", "si", "sil" }, { "rdi", "edi", "di", "dil" },
		{ "rbp", "ebp", "bp", "bpl" }, { "rsp", "esp", "sp", "spl" }, { "r8", "r8d", "r8w", "r8b" },
		{ "r9", "r9d", "r9w", "r9b" }, { "r10", "r10d", "r10w", "r10b" },
		{ "r11", "r11d", "r11w", "r11b" }, { "r12", "r12d", "r12w", "r12b" },
		{ "r13", "r13d", "r13w", "r13b" }, { "r14", "r14d", "r14w", "r14b" },
		{ "r15", "r15d", "r15w", "r15b" },
	};

	for (unsigned int r = 1; r < NREGS; r++) {
		const char *n = cs_reg_name(d->cs, r);

		for (int f = 0; n && f < 16 && !d->x86_family[r]; f++)
			for (int k = 0; k < 4; k++)
				if (!strcmp(n, fam[f][k]))
					d->x86_family[r] = (uint8_t)(f + 1);
	}
}

void disasm_set_got(struct disasm *d, uint64_t (*fn)(void *ctx, uint64_t slot), void *ctx)
{
	d->got = fn;
	d->got_ctx = ctx;
}

static uint64_t got_target(struct disasm *d, uint64_t slot)
{
	return d->got ? d->got(d->got_ctx, slot) : 0;
}

const char *disasm_arch_name(uint16_t m)
{
	switch (m) {
	case EM_X86_64: return "x86_64";
	case EM_AARCH64: return "aarch64";
	case EM_PPC64: return "ppc64";
	case EM_S390: return "s390x";
	default: return "unknown";
	}
}

int disasm_open(struct disasm **out, uint16_t machine, bool big_endian, uint64_t toc)
{
	struct disasm *d;
	cs_arch arch;
	cs_mode mode = big_endian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN;

	*out = NULL;
	switch (machine) {
	case EM_X86_64: arch = CS_ARCH_X86; mode = CS_MODE_64; break;
	case EM_AARCH64: arch = CS_ARCH_ARM64; break;
	case EM_PPC64: arch = CS_ARCH_PPC; mode |= CS_MODE_64; break;
	case EM_S390: arch = CS_ARCH_SYSZ; mode = CS_MODE_BIG_ENDIAN; break;
	default: return -ENOTSUP;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	if (cs_open(arch, mode, &d->cs) != CS_ERR_OK) {
		free(d);
		return -ENOTSUP;
	}
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (arch == CS_ARCH_X86) {
		cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);	/* as perf and objdump show it */
		x86_families(d);
	}
	d->machine = machine;
	d->big_endian = big_endian;
	d->toc = toc;
	*out = d;
	return 0;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	cs_close(&d->cs);
	free(d);
}

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* ---- x86_64 ---- */

static uint8_t x86_access(const cs_insn *ci, const cs_x86_op *op, bool atomic)
{
	if (ci->id == X86_INS_LEA)
		return ACC_ADDR;
	if (atomic || ((op->access & CS_AC_READ) && (op->access & CS_AC_WRITE)))
		return ACC_RMW;
	return op->access & CS_AC_WRITE ? ACC_WRITE : ACC_READ;
}

#define X86_RAX 1			/* register families, as x86_families numbers them */
#define X86_RDI 6
#define X86_RBP 7
#define X86_RSP 8

static unsigned int x86_fam(const struct disasm *d, unsigned int reg)
{
	return reg < NREGS ? d->x86_family[reg] : 0;
}

/* What an instruction does that matters to locks: atomics, stores, system calls, arguments. */
static void x86_lock_facts(struct disasm *d, const cs_insn *ci, struct insn *in, const uint16_t *rd,
			   uint8_t nrd, const uint16_t *wr, uint8_t nwr)
{
	const cs_x86 *x = &ci->detail->x86;
	bool locked = x->prefix[0] == X86_PREFIX_LOCK;
	int val = -1;			/* the register operand: the value an atomic stores */

	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_REG && val < 0)
			val = (int)x86_fam(d, op->reg);
		if (op->type != X86_OP_MEM || op->mem.segment != X86_REG_INVALID)
			continue;
		in->mem = ci->id != X86_INS_LEA && ci->id != X86_INS_NOP;
		in->mem_base = (uint16_t)(op->mem.base == X86_REG_RIP ? 0 : x86_fam(d, op->mem.base));
		in->mem_disp = op->mem.disp;
		in->mem_param = in->mem_base && d->prm[in->mem_base].known && !d->prm[in->mem_base].idx;
		in->stack_mem = in->mem_base == X86_RSP || in->mem_base == X86_RBP;
		if (in->mem && (op->access & CS_AC_WRITE) && !in->atomic && !locked)
			in->plain_store = true;
	}
	in->val_reg = val > 0 ? (uint8_t)val : 0;
	for (uint8_t i = 0; i < nrd; i++)
		if (x86_fam(d, rd[i]))
			in->regs_read |= 1u << x86_fam(d, rd[i]);
	for (uint8_t i = 0; i < nwr; i++)
		if (x86_fam(d, wr[i]))
			in->regs_written |= 1u << x86_fam(d, wr[i]);
	if (in->atomic) {
		switch (ci->id) {
		case X86_INS_XCHG:
			in->atomic_op = ATOM_XCHG;
			in->new_const = val > 0 && d->imm[val].known;
			break;
		case X86_INS_CMPXCHG:
		case X86_INS_CMPXCHG8B:
		case X86_INS_CMPXCHG16B:
			in->atomic_op = ATOM_CAS;
			in->new_const = ci->id == X86_INS_CMPXCHG && val > 0 && d->imm[val].known;
			break;
		case X86_INS_BTS:
			in->atomic_op = ATOM_XCHG;
			in->new_const = true;
			break;
		default:
			in->atomic_op = ATOM_ARITH;
			break;
		}
	}
	if (ci->id == X86_INS_SYSCALL) {
		in->syscall = true;
		in->sysno = d->imm[X86_RAX].known ? (int32_t)d->imm[X86_RAX].v : -1;
	}
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) && d->regs[X86_RDI].known)
		in->arg0 = d->regs[X86_RDI].v;
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) && d->ld[X86_RDI].known) {
		in->arg0_deref = d->ld[X86_RDI].g;
		in->arg0_deref_off = d->ld[X86_RDI].off;
	}
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) && d->prm[X86_RDI].known && !d->prm[X86_RDI].idx) {
		in->arg0_param = true;
		in->arg0_off = (int64_t)d->prm[X86_RDI].v;
	}
}

static void x86_slots(struct disasm *d, const cs_insn *ci);

/*
 * Registers holding the value of a global pointer (mov ptr(%rip), %reg, or
 * through its GOT address), plus an offset: lea off(%reg) of it is a member
 * of what the global points to.  Must run before the written registers are
 * forgotten: it reads the source operands.
 */
static void x86_loads(struct disasm *d, const cs_insn *ci, const struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	typeof(d->ld[0]) nv = { 0 };
	unsigned int dst;

	if (x->op_count != 2 || x->operands[1].type != X86_OP_REG ||
	    !(dst = x86_fam(d, x->operands[1].reg)))
		return;
	if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_MEM && x->operands[1].size == 8 &&
	    in->data && in->access == ACC_READ)
		nv = (typeof(nv)){ in->data, 0, true };
	else if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_REG &&
		 x->operands[0].size == 8 && x86_fam(d, x->operands[0].reg))
		nv = d->ld[x86_fam(d, x->operands[0].reg)];
	else if (ci->id == X86_INS_LEA && x->operands[0].mem.index == X86_REG_INVALID &&
		 x->operands[0].mem.base != X86_REG_RIP && x86_fam(d, x->operands[0].mem.base) &&
		 d->ld[x86_fam(d, x->operands[0].mem.base)].known) {
		nv = d->ld[x86_fam(d, x->operands[0].mem.base)];
		nv.off += x->operands[0].mem.disp;
	}
	d->ld_next = nv;
	d->ld_dst = dst;
}

/* Registers holding the function's first argument (plus an offset): lea off(%rdi), mov. */
static void x86_params(struct disasm *d, const cs_insn *ci, const cs_regs wr, uint8_t nwr)
{
	const cs_x86 *x = &ci->detail->x86;
	struct regval nv = { 0 };
	unsigned int dst = 0;

	if (x->op_count == 2 && x->operands[1].type == X86_OP_REG) {
		dst = x86_fam(d, x->operands[1].reg);
		if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_REG &&
		    x->operands[0].size == 8)
			nv = d->prm[x86_fam(d, x->operands[0].reg)];
		else if (ci->id == X86_INS_LEA && x->operands[0].mem.index == X86_REG_INVALID &&
			 x->operands[0].mem.segment == X86_REG_INVALID &&
			 d->prm[x86_fam(d, x->operands[0].mem.base)].known) {
			nv = d->prm[x86_fam(d, x->operands[0].mem.base)];
			nv.v += (uint64_t)x->operands[0].mem.disp;
		}
	}
	for (uint8_t i = 0; i < nwr; i++)
		if (wr[i] < NREGS && d->x86_family[wr[i]])
			d->prm[d->x86_family[wr[i]]].known = false;
	if (dst)
		d->prm[dst] = nv;
}

/*
 * mycl-share: an element of an array somewhere from a known start (base
 * register known, or an absolute address in non-PIE code, with an index
 * register): the access is credited to the object at the start.
 */
static void x86_share_mem(struct disasm *d, const cs_insn *ci, const cs_x86_op *op, struct insn *in,
			  unsigned int fam, uint64_t *set_val, bool *set_indexed)
{
	uint64_t a;

	if (fam && d->regs[fam].known)
		a = d->regs[fam].v + (uint64_t)op->mem.disp;
	else if (op->mem.base == X86_REG_INVALID && op->mem.disp >= 0x1000)
		a = (uint64_t)op->mem.disp;
	else
		return;
	in->data = a;
	in->access = x86_access(ci, op, in->atomic);
	in->indexed = op->mem.index != X86_REG_INVALID || (fam && d->regs[fam].indexed);
	in->scale = (uint8_t)op->mem.scale;
	if (ci->id == X86_INS_LEA) {
		*set_val = a;
		*set_indexed = in->indexed;
	}
}

/* mycl-share: what each argument register holds at a call. */
static void x86_call_args(struct disasm *d, struct insn *in)
{
	static const unsigned int args[6] = { 6, 5, 4, 3, 9, 10 };	/* rdi rsi rdx rcx r8 r9 */

	for (int k = 0; k < 6; k++) {
		const unsigned int r = args[k];

		in->call_arg[k] = d->regs[r].known ? d->regs[r].v : d->imm[r].known ? d->imm[r].v : 0;
		if (d->regs[r].known && d->regs[r].indexed)
			in->call_arg_indexed |= (uint8_t)(1u << k);
		if (d->prm[r].known && !d->prm[r].v)
			in->call_arg_prm[k] = (uint8_t)(d->prm[r].idx + 1);
	}
}

/*
 * RIP-relative operands name their address directly; registers loaded with
 * an address (lea, or a load from a GOT slot) are followed until something
 * else writes them, so (%reg) accesses are named too.
 */
static void x86(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	int set_reg = -1;
	uint64_t set_val = 0;
	bool set_indexed = false;

	in->atomic = x->prefix[0] == X86_PREFIX_LOCK ||
		     (ci->id == X86_INS_XCHG && x->op_count == 2 &&
		      (x->operands[0].type == X86_OP_MEM || x->operands[1].type == X86_OP_MEM));
	in->spin_hint = ci->id == X86_INS_PAUSE;
	in->jump = ci->id == X86_INS_JMP;
	if (cs_regs_access(d->cs, ci, rd, &nrd, wr, &nwr))
		nrd = nwr = 0;
	if (d->lock_facts)
		x86_lock_facts(d, ci, in, rd, nrd, wr, nwr);
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		unsigned int fam;

		if (op->type == X86_OP_IMM && (in->branch || in->call))
			in->target = (uint64_t)op->imm;
		else if (op->type == X86_OP_IMM && d->share_facts && op->imm >= 0x1000)
			in->imm = (uint64_t)op->imm;
		if (op->type != X86_OP_MEM || op->mem.segment != X86_REG_INVALID)
			continue;
		if (op->mem.base == X86_REG_RIP) {
			uint64_t a = ci->address + ci->size + (uint64_t)op->mem.disp, t;

			in->data = a;
			in->access = x86_access(ci, op, in->atomic);
			/* mov foo@GOTPCREL(%rip), %reg: reg holds &foo. */
			if (ci->id == X86_INS_MOV && in->access == ACC_READ && ci->size >= 7 &&
			    (t = got_target(d, a))) {
				in->data = t;
				in->access = ACC_ADDR;
				set_val = t;
			} else if (ci->id == X86_INS_LEA) {
				set_val = a;
			}
			continue;
		}
		fam = op->mem.base < NREGS ? d->x86_family[op->mem.base] : 0;
		if (fam && op->mem.index == X86_REG_INVALID && d->regs[fam].known) {
			in->data = d->regs[fam].v + (uint64_t)op->mem.disp;
			in->access = x86_access(ci, op, in->atomic);
			in->indexed = d->regs[fam].indexed;
			if (ci->id == X86_INS_LEA) {
				set_val = in->data;
				set_indexed = in->indexed;
			}
		} else if (d->share_facts) {
			x86_share_mem(d, ci, op, in, fam, &set_val, &set_indexed);
		}
		if (d->share_facts && fam && d->prm[fam].known && op->mem.index == X86_REG_INVALID &&
		    ci->id != X86_INS_LEA && fam != X86_RSP) {
			in->mem_prm = (uint8_t)(d->prm[fam].idx + 1);
			in->mem_prm_off = (int64_t)d->prm[fam].v + op->mem.disp;
			in->mem_prm_access = x86_access(ci, op, in->atomic);
		}
	}
	if (d->share_facts && in->call)
		x86_call_args(d, in);
	if (d->share_facts && (in->access == ACC_RMW || in->mem_prm_access == ACC_RMW))
		in->counter_op = ci->id == X86_INS_ADD || ci->id == X86_INS_SUB ||
				 ci->id == X86_INS_INC || ci->id == X86_INS_DEC || ci->id == X86_INS_XADD;
	if (set_val && x->op_count == 2 && x->operands[1].type == X86_OP_REG &&
	    x->operands[1].reg < NREGS)
		set_reg = d->x86_family[x->operands[1].reg];
	if (d->lock_facts)
		x86_loads(d, ci, in);
	/* mov %reg, %reg2: reg2 holds what reg held. */
	if (ci->id == X86_INS_MOV && x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	    x->operands[1].type == X86_OP_REG && x86_fam(d, x->operands[0].reg) &&
	    d->regs[x86_fam(d, x->operands[0].reg)].known && x->operands[1].reg < NREGS) {
		set_val = d->regs[x86_fam(d, x->operands[0].reg)].v;
		set_indexed = d->regs[x86_fam(d, x->operands[0].reg)].indexed;
		set_reg = d->x86_family[x->operands[1].reg];
	}
	/* add %idx, %reg with an address in one of them: somewhere in that object. */
	if (d->share_facts && ci->id == X86_INS_ADD && x->op_count == 2 &&
	    x->operands[0].type == X86_OP_REG && x->operands[1].type == X86_OP_REG &&
	    x->operands[1].size == 8 && x86_fam(d, x->operands[0].reg) &&
	    x86_fam(d, x->operands[1].reg)) {
		const struct regval *a = &d->regs[x86_fam(d, x->operands[1].reg)];
		const struct regval *b = &d->regs[x86_fam(d, x->operands[0].reg)];

		if (a->known != b->known) {
			set_val = a->known ? a->v : b->v;
			set_indexed = true;
			set_reg = d->x86_family[x->operands[1].reg];
		}
	}
	/* Whatever this instruction writes is no longer a known address or constant. */
	if (d->lock_facts || d->share_facts)
		x86_params(d, ci, wr, nwr);
	for (uint8_t i = 0; i < nwr; i++)
			if (wr[i] < NREGS && d->x86_family[wr[i]]) {
				d->regs[d->x86_family[wr[i]]].known = false;
				d->imm[d->x86_family[wr[i]]].known = false;
				d->ld[d->x86_family[wr[i]]].known = false;
			}
	if (d->ld_dst) {
		d->ld[d->ld_dst] = d->ld_next;
		d->ld_dst = 0;
	}
	if (set_reg > 0) {
		d->regs[set_reg].v = set_val;
		d->regs[set_reg].known = true;
		d->regs[set_reg].indexed = set_indexed;
	}
	/* mov $imm, %reg and xor %reg, %reg: the register holds a constant. */
	if ((d->lock_facts || d->share_facts) && x->op_count == 2 && x->operands[1].type == X86_OP_REG &&
	    x->operands[1].reg < NREGS &&
	    d->x86_family[x->operands[1].reg]) {
		unsigned int f = d->x86_family[x->operands[1].reg];

		if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_IMM) {
			d->imm[f].v = (uint64_t)x->operands[0].imm;
			d->imm[f].known = true;
		} else if ((ci->id == X86_INS_XOR || ci->id == X86_INS_SUB) &&
			   x->operands[0].type == X86_OP_REG && x->operands[0].reg == x->operands[1].reg) {
			d->imm[f].v = 0;
			d->imm[f].known = true;
		} else if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_REG &&
			   x86_fam(d, x->operands[0].reg)) {
			d->imm[f] = d->imm[x86_fam(d, x->operands[0].reg)];
		}
	}
	/* Addresses spilled to frame slots (-O0) are followed for every scan. */
	x86_slots(d, ci);
}

/* -O0 code keeps everything in frame slots: values stored there and loaded back. */
static void x86_slots(struct disasm *d, const cs_insn *ci)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *src = &x->operands[0], *dst = &x->operands[1];
	struct slot *sl = NULL;
	int k;

	if (x->op_count != 2 || (ci->id != X86_INS_MOV && ci->id != X86_INS_MOVZX))
		return;
	if (dst->type == X86_OP_MEM && x86_fam(d, dst->mem.base) == X86_RBP &&
	    dst->mem.index == X86_REG_INVALID) {
		int free_k = -1;

		for (k = 0; k < 8 && !(d->slots[k].used && d->slots[k].disp == dst->mem.disp); k++)
			if (!d->slots[k].used && free_k < 0)
				free_k = k;
		if (k == 8)
			k = free_k >= 0 ? free_k : (int)(dst->mem.disp & 7);
		sl = &d->slots[k];
		memset(sl, 0, sizeof(*sl));
		sl->used = true;
		sl->disp = dst->mem.disp;
		if (src->type == X86_OP_IMM) {
			sl->imm.v = (uint64_t)src->imm;
			sl->imm.known = true;
		} else if (src->type == X86_OP_REG && x86_fam(d, src->reg)) {
			unsigned int f = x86_fam(d, src->reg);

			sl->imm = d->imm[f];
			if (src->size == 8) {
				sl->addr = d->regs[f];
				sl->prm = d->prm[f];
			}
		}
		return;
	}
	if (src->type == X86_OP_MEM && x86_fam(d, src->mem.base) == X86_RBP &&
	    src->mem.index == X86_REG_INVALID && dst->type == X86_OP_REG && x86_fam(d, dst->reg)) {
		unsigned int f = x86_fam(d, dst->reg);

		for (k = 0; k < 8; k++)
			if (d->slots[k].used && d->slots[k].disp == src->mem.disp) {
				d->imm[f] = d->slots[k].imm;
				if (dst->size == 8) {
					d->regs[f] = d->slots[k].addr;
					d->prm[f] = d->slots[k].prm;
				}
			}
	}
}

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
	}
	if (atomic) {
		if (starts(m, "ldx") || starts(m, "ldax")) {
			in->atomic_op = ATOM_LL;
		} else if (starts(m, "stx") || starts(m, "stlx")) {
			/* stxr ws, wt, [xn]: wt is stored. */
			in->atomic_op = ATOM_SC;
			in->new_const = nv >= 2 && vals[1] < NREGS && d->imm[vals[1]].known;
		} else if (starts(m, "cas")) {
			/* cas ws, wt, [xn]: wt is stored when [xn] == ws. */
			in->atomic_op = ATOM_CAS;
			in->new_const = nv >= 2 && vals[1] < NREGS && d->imm[vals[1]].known;
		} else if (starts(m, "swp")) {
			in->atomic_op = ATOM_XCHG;
			in->new_const = nv >= 1 && vals[0] < NREGS && d->imm[vals[0]].known;
		} else {
			in->atomic_op = ATOM_ARITH;
		}
	}
	if (ci->id == ARM64_INS_SVC) {
		in->syscall = true;
		in->sysno = d->imm[ARM64_REG_X8].known ? (int32_t)d->imm[ARM64_REG_X8].v : -1;
	}
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

static void arm64(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_arm64 *a = &ci->detail->arm64;
	bool atomic;
	uint8_t acc = arm64_access(ci->mnemonic, &atomic);
	int dst = a->op_count > 0 && a->operands[0].type == ARM64_OP_REG ? (int)a->operands[0].reg : -1;

	in->jump = ci->id == ARM64_INS_B && (a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL);
	if (d->lock_facts)
		arm64_lock_facts(d, ci, in, atomic);

	in->spin_hint = ci->id == ARM64_INS_YIELD || ci->id == ARM64_INS_ISB ||
			ci->id == ARM64_INS_WFE;
	in->atomic = atomic;
	if ((ci->id == ARM64_INS_ADRP || ci->id == ARM64_INS_ADR) && a->op_count == 2) {
		d->regs[dst].v = (uint64_t)a->operands[1].imm;
		d->regs[dst].known = true;
		if (ci->id == ARM64_INS_ADR) {
			in->data = (uint64_t)a->operands[1].imm;
			in->access = ACC_ADDR;
		}
		return;
	}
	for (int i = 0; i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];

		if (op->type == ARM64_OP_IMM && (in->branch || in->call))
			in->target = (uint64_t)op->imm;
		if (op->type == ARM64_OP_MEM && op->mem.base > 0 && op->mem.base < NREGS &&
		    d->regs[op->mem.base].known && op->mem.index == ARM64_REG_INVALID) {
			uint64_t t;

			in->data = d->regs[op->mem.base].v + (uint64_t)(int64_t)op->mem.disp;
			in->access = acc ? acc : ACC_READ;
			/* ldr xN, [xM, :got_lo12:foo]: xN now holds &foo. */
			if (ci->id == ARM64_INS_LDR && dst > 0 && (t = got_target(d, in->data))) {
				in->data = t;
				in->access = ACC_ADDR;
				d->regs[dst].v = t;
				d->regs[dst].known = true;
				return;
			}
		}
		/* ldr xN, <literal>: the address is the immediate itself. */
		if (op->type == ARM64_OP_IMM && acc == ACC_READ && i == 1 && !in->branch)
			in->data = (uint64_t)op->imm, in->access = ACC_READ;
	}
	if (ci->id == ARM64_INS_ADD && a->op_count == 3 && a->operands[1].type == ARM64_OP_REG &&
	    a->operands[2].type == ARM64_OP_IMM && a->operands[1].reg < NREGS &&
	    d->regs[a->operands[1].reg].known) {
		uint64_t v = d->regs[a->operands[1].reg].v + (uint64_t)a->operands[2].imm;

		in->data = v;
		in->access = ACC_ADDR;
		d->regs[dst].v = v;
		d->regs[dst].known = true;
		return;
	}
	/* Anything else that writes its first register makes it unknown. */
	if (dst > 0 && dst < NREGS && acc != ACC_WRITE)
		d->regs[dst].known = false;
}

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

static void ppc(struct disasm *d, const cs_insn *ci, struct insn *in, const uint8_t *bytes)
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
	for (int i = 0; i < p->op_count; i++) {
		const cs_ppc_op *op = &p->operands[i];

		if (op->type == PPC_OP_IMM && (in->branch || in->call))
			in->target = (uint64_t)op->imm;
		if (op->type == PPC_OP_MEM && op->mem.base > 0 && op->mem.base < NREGS) {
			bool toc = op->mem.base == PPC_REG_R2 && d->toc;

			if (toc || d->regs[op->mem.base].known) {
				uint64_t t;

				in->data = (toc ? d->toc : d->regs[op->mem.base].v) + (uint64_t)(int64_t)op->mem.disp;
				in->access = acc ? acc : ACC_READ;
				/* ld rN, foo@got(r2): rN now holds &foo. */
				if (!strcmp(ci->mnemonic, "ld") && dst > 0 && (t = got_target(d, in->data))) {
					in->data = t;
					in->access = ACC_ADDR;
					d->regs[dst].v = t;
					d->regs[dst].known = true;
					return;
				}
			}
		}
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

		if (known && !strcmp(ci->mnemonic, "addis")) {
			d->regs[dst].v = base + ((uint64_t)(int64_t)(int16_t)p->operands[2].imm << 16);
			d->regs[dst].known = true;
			return;
		}
		if (known && (!strcmp(ci->mnemonic, "addi") || !strcmp(ci->mnemonic, "la"))) {
			in->data = base + (uint64_t)(int64_t)(int16_t)p->operands[2].imm;
			in->access = ACC_ADDR;
			d->regs[dst].v = in->data;
			d->regs[dst].known = true;
			return;
		}
	}
	if (dst > 0 && dst < NREGS && acc != ACC_WRITE)
		d->regs[dst].known = false;
}

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

/* s390x: larl and the PC-relative *RL forms; larl'd registers used as bases. */
static void s390(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_sysz *z = &ci->detail->sysz;
	const char *m = ci->mnemonic;
	size_t ml = strlen(m);
	bool rl = ml > 2 && !strcmp(m + ml - 2, "rl") && strcmp(m, "brasl") && strcmp(m, "brcl");
	int dst = z->op_count > 0 && z->operands[0].type == SYSZ_OP_REG ? (int)z->operands[0].reg : -1;

	in->atomic = !strcmp(m, "cs") || !strcmp(m, "csg") || !strcmp(m, "csy") || starts(m, "laa") ||
		     starts(m, "lan") || starts(m, "lao") || starts(m, "lax");
	for (int i = 0; i < z->op_count; i++) {
		const cs_sysz_op *op = &z->operands[i];

		if (op->type == SYSZ_OP_MEM && op->mem.base > 0 &&
		    d->regs[op->mem.base].known && !op->mem.index) {
			in->data = d->regs[op->mem.base].v + (uint64_t)op->mem.disp;
			in->access = s390_access(m);
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
	if (!strcmp(m, "larl") && dst > 0 && dst < NREGS) {
		d->regs[dst].v = in->data;
		d->regs[dst].known = true;
	} else if (dst > 0 && dst < NREGS && !starts(m, "st") && !starts(m, "c")) {
		d->regs[dst].known = false;
	}
}

/* What is known at a function's entry: its arguments, nothing else. */
static void reset_state(struct disasm *d)
{
	memset(d->regs, 0, sizeof(d->regs));
	memset(d->imm, 0, sizeof(d->imm));
	memset(d->slots, 0, sizeof(d->slots));
	memset(d->prm, 0, sizeof(d->prm));
	memset(d->ld, 0, sizeof(d->ld));
	d->ld_dst = 0;
	if (d->machine != EM_X86_64)
		return;
	d->prm[X86_RDI].known = true;	/* the first argument, at the function's entry */
	if (d->share_facts) {
		static const unsigned int args[6] = { 6, 5, 4, 3, 9, 10 };

		for (uint8_t k = 1; k < 6; k++) {
			d->prm[args[k]].known = true;
			d->prm[args[k]].idx = k;
		}
	}
}

int disasm_iter(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		int (*fn)(const struct insn *in, void *arg), void *arg)
{
	cs_insn *ci = cs_malloc(d->cs);
	const uint8_t *p = code;
	uint64_t pc = addr;
	int err = 0;

	if (!ci)
		return -ENOMEM;
	size_t next = 0;

	reset_state(d);
	while (next < d->nr_starts && d->starts[next] < pc)
		next++;
	while (len && !err) {
		struct insn in = { .sysno = -1 };

		/* A function starts here: nothing known from the code before it. */
		if (next < d->nr_starts && d->starts[next] <= pc) {
			if (d->starts[next] == pc)
				reset_state(d);
			while (next < d->nr_starts && d->starts[next] <= pc)
				next++;
		}

		if (!cs_disasm_iter(d->cs, &p, &len, &pc, ci)) {
			/* Not an instruction (data in code, padding): skip its bytes. */
			size_t skip = d->machine == EM_X86_64 ? 1 : d->machine == EM_S390 ? 2 : 4;

			if (skip > len)
				break;
			p += skip;
			pc += skip;
			len -= skip;
			memset(d->regs, 0, sizeof(d->regs));
			memset(d->imm, 0, sizeof(d->imm));
			continue;
		}
		in.addr = ci->address;
		in.size = (uint8_t)ci->size;
		if (!d->no_text)
			snprintf(in.text, sizeof(in.text), "%-7s %s", ci->mnemonic, ci->op_str);
		in.branch = cs_insn_group(d->cs, ci, CS_GRP_JUMP);
		in.call = cs_insn_group(d->cs, ci, CS_GRP_CALL);
		in.ret = cs_insn_group(d->cs, ci, CS_GRP_RET);
		if (d->machine == EM_AARCH64 && (!strcmp(ci->mnemonic, "bl") ||
						 !strcmp(ci->mnemonic, "blr")))
			in.call = true;
		if (d->machine == EM_PPC64 || d->machine == EM_S390) {
			/* capstone does not group every call of these: by mnemonic. */
			const char *m = ci->mnemonic;

			if (!strcmp(m, "bl") || !strcmp(m, "bla") || !strcmp(m, "brasl") ||
			    !strcmp(m, "bras"))
				in.call = true;
		}
		switch (d->machine) {
		case EM_X86_64: x86(d, ci, &in); break;
		case EM_AARCH64: arm64(d, ci, &in); break;
		case EM_PPC64: ppc(d, ci, &in, p - ci->size); break;
		case EM_S390: s390(d, ci, &in); break;
		default: break;
		}
		/* A call clobbers what registers held. */
		if (in.call && d->machine == EM_X86_64) {
			/* x86_64: rax rcx rdx rsi rdi r8-r11 do not survive a call; the rest do. */
			static const int clobbered[] = { 1, 3, 4, 5, 6, 9, 10, 11, 12 };

			for (size_t k = 0; k < sizeof(clobbered) / sizeof(clobbered[0]); k++) {
				d->regs[clobbered[k]].known = false;
				d->imm[clobbered[k]].known = false;
				d->prm[clobbered[k]].known = false;
				d->ld[clobbered[k]].known = false;
			}
		} else if (in.call) {
			memset(d->regs, 0, sizeof(d->regs));
			memset(d->imm, 0, sizeof(d->imm));
		}
		err = fn(&in, arg);
	}
	cs_free(ci, 1);
	return err;
}

struct collect {
	struct insn *v;
	size_t n, cap;
};

static int collect_one(const struct insn *in, void *arg)
{
	struct collect *c = arg;

	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 64;
		struct insn *nv = realloc(c->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		c->v = nv;
		c->cap = ncap;
	}
	c->v[c->n++] = *in;
	return 0;
}

int disasm_range(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		 struct insn **out, size_t *n)
{
	struct collect c = { 0 };
	int err = disasm_iter(d, code, len, addr, collect_one, &c);

	if (err) {
		free(c.v);
		return err;
	}
	*out = c.v;
	*n = c.n;
	return 0;
}

void disasm_set_text(struct disasm *d, bool text)
{
	d->no_text = !text;
}

void disasm_set_lock_facts(struct disasm *d, bool on)
{
	d->lock_facts = on;
}

void disasm_set_share_facts(struct disasm *d, bool on)
{
	d->share_facts = on;
}

void disasm_set_starts(struct disasm *d, const uint64_t *starts, size_t n)
{
	d->starts = starts;
	d->nr_starts = n;
}
