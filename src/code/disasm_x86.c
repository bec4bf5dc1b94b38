/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* x86_64 and i386: the operands capstone decodes, the registers followed. */
#include "disasm_regs.h"
#include "elfimage.h"

/* x86: the 64-bit register a register id is part of (eax, ax, al -> rax). */
void x86_families(struct disasm *d)
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

/* ---- x86_64 ---- */

static uint8_t x86_access(const cs_insn *ci, const cs_x86_op *op, bool atomic)
{
	if (ci->id == X86_INS_LEA)
		return ACC_ADDR;
	/* capstone 4 marks some of these read-write: they only read memory. */
	if (ci->id == X86_INS_TEST || ci->id == X86_INS_CMP || ci->id == X86_INS_BT ||
	    ci->id == X86_INS_PUSH || ci->id == X86_INS_UCOMISD || ci->id == X86_INS_UCOMISS ||
	    ci->id == X86_INS_COMISD || ci->id == X86_INS_COMISS || ci->id == X86_INS_PTEST)
		return ACC_READ;
	if (atomic || ((op->access & CS_AC_READ) && (op->access & CS_AC_WRITE)))
		return ACC_RMW;
	/*
	 * ... and marks the memory an SSE or AVX move stores to (movups %xmm0,
	 * (%rax); vmovdqu) read: a move's last operand is where it goes.
	 */
	if (op->type == X86_OP_MEM && !(op->access & CS_AC_WRITE) && ci->detail->x86.op_count >= 2 &&
	    op == &ci->detail->x86.operands[ci->detail->x86.op_count - 1] &&
	    (!strncmp(ci->mnemonic, "mov", 3) || !strncmp(ci->mnemonic, "vmov", 4)))
		return ACC_WRITE;
	return op->access & CS_AC_WRITE ? ACC_WRITE : ACC_READ;
}

static unsigned int x86_fam(const struct disasm *d, unsigned int reg)
{
	return reg < NREGS ? d->x86_family[reg] : 0;
}

/*
 * Whether add, sub, inc, dec or xadd CI subtracts: sub and dec, an add of a
 * negative immediate, or of a register holding one (fetch_sub's
 * mov $-1, %eax; lock xadd %eax, (%rdi)).
 */
static bool x86_decrement(const struct disasm *d, const cs_insn *ci)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *src = &x->operands[0];
	uint64_t v;

	if (ci->id == X86_INS_SUB || ci->id == X86_INS_DEC)
		return true;
	if ((ci->id != X86_INS_ADD && ci->id != X86_INS_XADD) || x->op_count != 2 ||
	    src->size < 1 || src->size > 8)
		return false;
	if (src->type == X86_OP_IMM)
		v = (uint64_t)src->imm;
	else if (src->type == X86_OP_REG && x86_fam(d, src->reg) && d->imm[x86_fam(d, src->reg)].known)
		v = d->imm[x86_fam(d, src->reg)].v;
	else
		return false;
	return (v >> (8 * src->size - 1)) & 1;
}

/* The kind of atomic instruction ID is (x86 locked, or xchg with memory). */
static uint8_t x86_atomic_op(unsigned int id)
{
	switch (id) {
	case X86_INS_XCHG:
	case X86_INS_BTS:
		return ATOM_XCHG;
	case X86_INS_CMPXCHG:
	case X86_INS_CMPXCHG8B:
	case X86_INS_CMPXCHG16B:
		return ATOM_CAS;
	default:
		return ATOM_ARITH;
	}
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
		if (in->mem_param && !d->share_facts)
			in->mem_prm_off = (int64_t)d->prm[in->mem_base].v + op->mem.disp;
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
		in->atomic_op = x86_atomic_op(ci->id);
		/* (what it stores is a constant: a test-and-set's) */
		if (ci->id == X86_INS_BTS)
			in->new_const = true;
		else if (ci->id == X86_INS_XCHG || ci->id == X86_INS_CMPXCHG)
			in->new_const = val > 0 && d->imm[val].known;
	}
	if (ci->id == X86_INS_SYSCALL) {
		in->syscall = true;
		in->sysno = d->imm[X86_RAX].known ? (int32_t)d->imm[X86_RAX].v : -1;
	}
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) && d->regs[X86_RDI].known)
		in->arg0 = d->regs[X86_RDI].v;
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) && d->ld[X86_RDI].known &&
	    d->ld[X86_RDI].g != INSN_ARG_KEY) {
		in->arg0_deref = d->ld[X86_RDI].g;
		in->arg0_deref_off = d->ld[X86_RDI].off;
	}
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL) && d->prm[X86_RDI].known && !d->prm[X86_RDI].idx) {
		in->arg0_param = true;
		in->arg0_off = (int64_t)d->prm[X86_RDI].v;
	}
}

static void x86_slots(struct disasm *d, const cs_insn *ci);
static void x86_slots_rsp(struct disasm *d);
static void i386_stack(struct disasm *d, const cs_insn *ci, const struct insn *in);
static void i386_call(struct disasm *d, const cs_insn *ci, struct insn *in);

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
	if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_MEM && x->operands[1].size == d->ptr_size &&
	    in->data && in->access == ACC_READ)
		nv = (typeof(nv)){ in->data, 0, true };
	else if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_MEM &&
		 x->operands[1].size == d->ptr_size && in->tls)
		nv = (typeof(nv)){ in->tls, 0, true };
	else if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_MEM &&
		 x->operands[1].size == d->ptr_size && !in->data &&
		 x->operands[0].mem.index == X86_REG_INVALID &&
		 x->operands[0].mem.segment == X86_REG_INVALID &&
		 d->prm[x86_fam(d, x->operands[0].mem.base)].known &&
		 !d->prm[x86_fam(d, x->operands[0].mem.base)].idx)
		nv = (typeof(nv)){ INSN_ARG_KEY, 0, true };	/* p->fn: a member of *arg0 */
	else if (ci->id == X86_INS_MOV && x->operands[0].type == X86_OP_REG &&
		 x->operands[0].size == d->ptr_size && x86_fam(d, x->operands[0].reg))
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
		    x->operands[0].size == d->ptr_size)
			nv = d->prm[x86_fam(d, x->operands[0].reg)];
		else if (ci->id == X86_INS_LEA && x->operands[0].mem.index == X86_REG_INVALID &&
			 x->operands[0].mem.segment == X86_REG_INVALID &&
			 d->prm[x86_fam(d, x->operands[0].mem.base)].known) {
			nv = d->prm[x86_fam(d, x->operands[0].mem.base)];
			nv.v += (uint64_t)x->operands[0].mem.disp;
		} else if ((ci->id == X86_INS_ADD || ci->id == X86_INS_SUB) &&
			   x->operands[0].type == X86_OP_IMM && x->operands[1].size == d->ptr_size &&
			   dst && d->prm[dst].known) {
			/* add $off, %reg: a member's address (-O0's this + off) */
			nv = d->prm[dst];
			nv.v += ci->id == X86_INS_ADD ? (uint64_t)x->operands[0].imm :
							-(uint64_t)x->operands[0].imm;
		}
	}
	for (uint8_t i = 0; i < nwr; i++)
		if (wr[i] < NREGS && d->x86_family[wr[i]])
			d->prm[d->x86_family[wr[i]]].known = false;
	if (dst)
		d->prm[dst] = nv;
}

/*
 * Plain counters in registers: mov D, %r; add, sub, inc, dec or lea on %r;
 * mov %r, D -- the store is an increment of D (-O0's x++).
 */
static void x86_counter(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *o0 = &x->operands[0], *o1 = &x->operands[1];
	uint64_t key;

	switch (ci->id) {
	case X86_INS_MOV: case X86_INS_MOVSXD: case X86_INS_MOVSX: case X86_INS_MOVZX:
		if (x->op_count != 2 || in->indexed)
			return;
		if (o0->type == X86_OP_MEM && o1->type == X86_OP_REG && (key = dis_cnt_key(in, ACC_READ)))
			dis_cnt_load(d, x86_fam(d, o1->reg), key);
		else if (o0->type == X86_OP_REG && o1->type == X86_OP_MEM &&
			 (key = dis_cnt_key(in, ACC_WRITE))) {
			in->counter_op |= dis_cnt_store(d, x86_fam(d, o0->reg), key);
			in->store_self = d->slf[x86_fam(d, o0->reg)] == key;
		} else if (o0->type == X86_OP_REG && o1->type == X86_OP_REG && x86_fam(d, o1->reg)) {
			if (d->cnt[x86_fam(d, o0->reg)].data) {
				d->cnt_dst = x86_fam(d, o1->reg);
				d->cnt_next = d->cnt[x86_fam(d, o0->reg)];
			}
			if (d->slf[x86_fam(d, o0->reg)]) {
				d->slf_dst = x86_fam(d, o1->reg);
				d->slf_next = d->slf[x86_fam(d, o0->reg)];
			}
		}
		return;
	case X86_INS_ADD: case X86_INS_SUB:
		if (x->op_count == 2 && o1->type == X86_OP_REG && o0->type != X86_OP_MEM)
			dis_cnt_arith(d, x86_fam(d, o1->reg),
				      o0->type == X86_OP_REG ? x86_fam(d, o0->reg) : 0, x86_fam(d, o1->reg));
		return;
	case X86_INS_INC: case X86_INS_DEC:
		if (x->op_count == 1 && o0->type == X86_OP_REG)
			dis_cnt_arith(d, x86_fam(d, o0->reg), 0, x86_fam(d, o0->reg));
		return;
	case X86_INS_LEA:
		if (x->op_count == 2 && o0->type == X86_OP_MEM && o0->mem.index == X86_REG_INVALID &&
		    o1->type == X86_OP_REG)
			dis_cnt_arith(d, x86_fam(d, o0->mem.base), 0, x86_fam(d, o1->reg));
		return;
	default:
		return;
	}
}

/*
 * mycl-share: an element of an array somewhere from a known start (base
 * register known, or an absolute address in non-PIE code, with an index
 * register): the access is credited to the object at the start.
 */
/* An index register's multiplier, clamped: how far apart its elements are. */
static uint16_t mult_of(const struct disasm *d, unsigned int f, uint64_t times)
{
	uint64_t m = times * (f && d->mult[f] ? d->mult[f] : 1);

	return m > 0xffff ? 0 : (uint16_t)m;
}

/*
 * What the instruction makes of an index register's multiplier: shl $k,
 * imul $c, lea (,%i,s) and lea (%i,%i,s), copies; *DST gets it (0: none).
 */
static uint16_t x86_mult(struct disasm *d, const cs_insn *ci, unsigned int *dst)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *o = x->operands;

	*dst = 0;
	switch (ci->id) {
	case X86_INS_SHL: case X86_INS_SAL:
		if (x->op_count != 2 || o[0].type != X86_OP_IMM || o[1].type != X86_OP_REG ||
		    o[0].imm < 1 || o[0].imm > 15)
			return 0;
		*dst = x86_fam(d, o[1].reg);
		return mult_of(d, *dst, 1ULL << o[0].imm);
	case X86_INS_IMUL:
		if (x->op_count != 3 || o[0].type != X86_OP_IMM || o[1].type != X86_OP_REG ||
		    o[2].type != X86_OP_REG || o[0].imm < 2 || o[0].imm > 0xffff)
			return 0;
		*dst = x86_fam(d, o[2].reg);
		return mult_of(d, x86_fam(d, o[1].reg), (uint64_t)o[0].imm);
	case X86_INS_LEA:
		if (x->op_count != 2 || o[1].type != X86_OP_REG || o[0].mem.index == X86_REG_INVALID ||
		    o[0].mem.disp)
			return 0;
		*dst = x86_fam(d, o[1].reg);
		if (o[0].mem.base == X86_REG_INVALID)
			return mult_of(d, x86_fam(d, o[0].mem.index), (uint64_t)o[0].mem.scale);
		if (o[0].mem.base == o[0].mem.index)
			return mult_of(d, x86_fam(d, o[0].mem.index), (uint64_t)o[0].mem.scale + 1);
		return 0;
	case X86_INS_MOV: case X86_INS_MOVSXD: case X86_INS_MOVSX: case X86_INS_MOVZX:
		if (x->op_count != 2 || o[0].type != X86_OP_REG || o[1].type != X86_OP_REG)
			return 0;
		*dst = x86_fam(d, o[1].reg);
		return d->mult[x86_fam(d, o[0].reg)];
	default:
		return 0;
	}
}

static void x86_share_mem(struct disasm *d, const cs_insn *ci, const cs_x86_op *op, struct insn *in,
			  unsigned int fam, uint64_t *set_val, bool *set_indexed)
{
	uint64_t a;

	unsigned int ix = op->mem.index != X86_REG_INVALID ? x86_fam(d, op->mem.index) : 0;

	if (fam && d->regs[fam].known)
		a = d->regs[fam].v + (uint64_t)op->mem.disp;
	else if (op->mem.base == X86_REG_INVALID && op->mem.disp >= 0x1000)
		a = (uint64_t)op->mem.disp;
	else if (ix && op->mem.scale == 1 && d->regs[ix].known)
		a = d->regs[ix].v + (uint64_t)op->mem.disp;	/* (%off, %start): -O0's a[i] */
	else
		return;
	in->data = a;
	in->access = x86_access(ci, op, in->atomic);
	in->indexed = op->mem.index != X86_REG_INVALID || (fam && d->regs[fam].indexed);
	/* (,%i,s) with %i an index times m: elements s * m apart; else the register's own */
	in->scale = ix && d->mult[ix] ? mult_of(d, ix, (uint64_t)op->mem.scale) :
		    op->mem.index == X86_REG_INVALID && fam && d->regs[fam].scale ? d->regs[fam].scale :
		    (uint16_t)op->mem.scale;
	if (ci->id == X86_INS_LEA) {
		*set_val = a;
		*set_indexed = in->indexed;
	}
}

/*
 * disp(%reg) with reg not an address and disp a slot of the program's data
 * holding a function (non-PIE code: a table of functions at an offset in
 * reg): the slot, else 0.
 */
static uint64_t x86_abs_fn_slot(struct disasm *d, const cs_x86_op *op)
{
	unsigned int fam;

	if (op->type != X86_OP_MEM || op->mem.segment != X86_REG_INVALID ||
	    op->mem.index != X86_REG_INVALID || op->mem.disp < 0x1000 || d->ptr_size != 8)
		return 0;
	fam = x86_fam(d, op->mem.base);
	if (!fam || fam == X86_RSP || fam == X86_RBP || d->regs[fam].known)
		return 0;
	return dis_code_pointer(d, (uint64_t)op->mem.disp) ? (uint64_t)op->mem.disp : 0;
}

/* i386: the outgoing argument slot at OFF (from the entry's %esp), made if new. */
static struct out_slot *i386_slot(struct disasm *d, int32_t off, bool make)
{
	int free_k = -1;

	for (int k = 0; k < 8; k++) {
		if (d->out[k].used && d->out[k].off == off)
			return &d->out[k];
		if (!d->out[k].used && free_k < 0)
			free_k = k;
	}
	if (!make)
		return NULL;
	if (free_k < 0)
		free_k = (int)((uint32_t)off / 4 % 8);
	memset(&d->out[free_k], 0, sizeof(d->out[free_k]));
	d->out[free_k].used = true;
	d->out[free_k].off = off;
	return &d->out[free_k];
}

/* i386 cdecl: arguments are the words at 0(%esp), 4(%esp)... when the call is made. */
static void i386_call(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const uint8_t *t;

	for (int k = 0; k < 6; k++) {
		struct out_slot *sl = i386_slot(d, d->sp_off + 4 * k, false);
		/* gcc passes a static function's first three in eax, edx, ecx (regparm). */
		static const uint8_t regparm[3] = { X86_RAX, 4, 3 };
		struct out_slot r;

		/* A slot that holds nothing known may be a saved register: then the register. */
		if ((!sl || !(sl->addr.known || sl->imm.known || sl->prm.known)) && k < 3 &&
		    (d->regs[regparm[k]].known || d->imm[regparm[k]].known ||
		     d->prm[regparm[k]].known)) {
			r.addr = d->regs[regparm[k]];
			r.imm = d->imm[regparm[k]];
			r.prm = d->prm[regparm[k]];
			sl = &r;
		}
		if (!sl)
			continue;
		in->call_arg[k] = sl->addr.known ? sl->addr.v : sl->imm.known ? sl->imm.v : 0;
		if (sl->addr.known && sl->addr.indexed)
			in->call_arg_indexed |= (uint8_t)(1u << k);
		if (!sl->addr.known && sl->imm.known && !sl->imm.v)
			in->call_arg_zero |= (uint8_t)(1u << k);
		if (sl->prm.known && !sl->prm.v)
			in->call_arg_prm[k] = (uint8_t)(sl->prm.idx + 1);
		if (k == 0 && sl->addr.known)
			in->arg0 = sl->addr.v;
	}
	/* call __x86.get_pc_thunk.REG (mov (%esp), %REG; ret): REG = the return address. */
	if (in->target && (t = code_at(d, in->target, 4)) && t[0] == 0x8b && t[2] == 0x24 &&
	    t[3] == 0xc3 && (t[1] & 0xc7) == 0x04) {
		static const uint8_t fam[8] = { X86_RAX, 3, 4, X86_RBX, 0, 7, 5, X86_RDI };

		d->post_reg = fam[(t[1] >> 3) & 7];
		d->post_val = ci->address + ci->size;
	}
}

/*
 * i386: %esp followed from the function's entry (push, pop, sub, add), and
 * %ebp once it copies it; what is stored in outgoing argument slots; the
 * function's own arguments (4(%esp) at entry, 8(%ebp) after the prologue)
 * loaded into registers.
 */
static void i386_stack(struct disasm *d, const cs_insn *ci, const struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *a = &x->operands[0], *b = &x->operands[1];
	int32_t entry;

	(void)in;
	if (ci->id == X86_INS_PUSH && x->op_count == 1) {
		d->sp_off -= 4;
		if (a->type == X86_OP_IMM || a->type == X86_OP_REG) {
			struct out_slot *sl = i386_slot(d, d->sp_off, true);

			if (a->type == X86_OP_IMM) {
				sl->imm = (struct regval){ .v = (uint32_t)a->imm, .known = true };
			} else if (x86_fam(d, a->reg)) {
				sl->addr = d->regs[x86_fam(d, a->reg)];
				sl->imm = d->imm[x86_fam(d, a->reg)];
				sl->prm = d->prm[x86_fam(d, a->reg)];
			}
		} else {
			struct out_slot *sl = i386_slot(d, d->sp_off, true);

			/* push D(%ebp): what the frame slot holds. */
			for (int k = 0; a->type == X86_OP_MEM && k < 8; k++)
				if (d->slots[k].used && d->slots[k].disp == a->mem.disp &&
				    a->mem.index == X86_REG_INVALID && a->mem.base != X86_REG_INVALID &&
				    x86_fam(d, a->mem.base) == X86_RBP) {
					sl->addr = d->slots[k].addr;
					sl->imm = d->slots[k].imm;
					sl->prm = d->slots[k].prm;
				}
		}
		return;
	}
	if (ci->id == X86_INS_POP) {
		d->sp_off += 4;
		if (x->op_count == 1 && a->type == X86_OP_REG && x86_fam(d, a->reg) == X86_RBP)
			d->fp_known = false;
		return;
	}
	if (ci->id == X86_INS_LEAVE) {
		d->sp_off = d->fp_known ? d->fp_off + 4 : d->sp_off;
		d->fp_known = false;
		return;
	}
	if (x->op_count != 2)
		return;
	if (b->type == X86_OP_REG && x86_fam(d, b->reg) == X86_RSP) {
		if (ci->id == X86_INS_SUB && a->type == X86_OP_IMM)
			d->sp_off -= (int32_t)a->imm;
		else if (ci->id == X86_INS_ADD && a->type == X86_OP_IMM)
			d->sp_off += (int32_t)a->imm;
		else if (ci->id == X86_INS_LEA && a->mem.base != X86_REG_INVALID &&
			 x86_fam(d, a->mem.base) == X86_RSP && a->mem.index == X86_REG_INVALID)
			d->sp_off += (int32_t)a->mem.disp;
		else
			d->sp_lost = true;	/* and $-16, %esp; mov %ecx, %esp... */
		return;
	}
	/* mov %esp, %ebp */
	if (ci->id == X86_INS_MOV && a->type == X86_OP_REG && b->type == X86_OP_REG &&
	    x86_fam(d, a->reg) == X86_RSP && x86_fam(d, b->reg) == X86_RBP) {
		d->fp_off = d->sp_off;
		d->fp_known = true;
		return;
	}
	/* mov SRC, D(%esp): an outgoing argument. */
	if (ci->id == X86_INS_MOV && b->type == X86_OP_MEM && b->mem.index == X86_REG_INVALID &&
	    b->mem.base != X86_REG_INVALID && x86_fam(d, b->mem.base) == X86_RSP && b->size == 4) {
		struct out_slot *sl = i386_slot(d, d->sp_off + (int32_t)b->mem.disp, true);

		if (a->type == X86_OP_IMM) {
			sl->imm = (struct regval){ .v = (uint32_t)a->imm, .known = true };
		} else if (a->type == X86_OP_REG && x86_fam(d, a->reg)) {
			sl->addr = d->regs[x86_fam(d, a->reg)];
			sl->imm = d->imm[x86_fam(d, a->reg)];
			sl->prm = d->prm[x86_fam(d, a->reg)];
		}
		return;
	}
	/* mov D(%esp or %ebp), %reg: the function's argument k when at 4 + 4k from the entry's %esp. */
	if (ci->id == X86_INS_MOV && a->type == X86_OP_MEM && b->type == X86_OP_REG &&
	    a->mem.index == X86_REG_INVALID && a->mem.base != X86_REG_INVALID && b->size == 4 &&
	    x86_fam(d, b->reg)) {
		unsigned int base = x86_fam(d, a->mem.base);

		if (base == X86_RSP && !d->sp_lost)
			entry = d->sp_off + (int32_t)a->mem.disp;
		else if (base == X86_RBP && d->fp_known && !d->sp_lost)
			entry = d->fp_off + (int32_t)a->mem.disp;
		else
			return;
		if (entry >= 4 && entry < 4 + 4 * 6 && !(entry & 3)) {
			unsigned int f = x86_fam(d, b->reg);

			d->prm[f] = (struct regval){ .known = true, .idx = (uint8_t)((entry - 4) / 4) };
		}
	}
}

static const unsigned int x86_args[6] = { 6, 5, 4, 3, 9, 10 };	/* rdi rsi rdx rcx r8 r9 */

/* A tail call's arguments that are the constant 0 (call_arg_zero). */
static void x86_zero_args(struct disasm *d, struct insn *in)
{
	uint64_t v;

	for (int k = 0; k < 6; k++)
		if (dis_const(d, x86_args[k], &v) && !v)
			in->call_arg_zero |= (uint8_t)(1u << k);
}

/* A conditional move (cmovCC). */
static bool x86_cmov(unsigned int id)
{
	switch (id) {
	case X86_INS_CMOVA: case X86_INS_CMOVAE: case X86_INS_CMOVB: case X86_INS_CMOVBE:
	case X86_INS_CMOVE: case X86_INS_CMOVG: case X86_INS_CMOVGE: case X86_INS_CMOVL:
	case X86_INS_CMOVLE: case X86_INS_CMOVNE: case X86_INS_CMOVNO: case X86_INS_CMOVNP:
	case X86_INS_CMOVNS: case X86_INS_CMOVO: case X86_INS_CMOVP: case X86_INS_CMOVS:
		return true;
	default:
		return false;
	}
}

/* mycl-share: what each argument register holds at a call. */
static void x86_call_args(struct disasm *d, struct insn *in)
{
	for (int k = 0; k < 6; k++) {
		const unsigned int r = x86_args[k];

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
		if (d->ld[r].known && d->ld[r].g == INSN_ARG_KEY)
			in->call_arg_member |= (uint8_t)(1u << k);
		if (d->ld[r].known && d->ld[r].g == INSN_ARG_KEY && !d->ld[r].off)
			in->call_arg_argptr |= (uint8_t)(1u << k);
	}
	x86_zero_args(d, in);
}

/*
 * RIP-relative operands name their address directly; registers loaded with
 * an address (lea, or a load from a GOT slot) are followed until something
 * else writes them, so (%reg) accesses are named too.
 */
static void x86_member_slots(struct disasm *d, const cs_insn *ci, const struct insn *in);

/* x86_64 register families (x86_families) as DWARF numbers plus 1 (rax 0, rdx 1, rcx 2, rbx 3...). */
static uint8_t x86_dwarf(const struct disasm *d, unsigned int reg)
{
	static const uint8_t dw[17] = { 0, 1, 4, 3, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	unsigned int f = x86_fam(d, reg);

	return f < 17 ? dw[f] : 0;
}

/* The ty_ fields: registers moved, loaded, stored and added, and the memory operand, as DWARF sees them. */
static void x86_type_facts(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *mem = NULL, *rd = NULL, *wr = NULL, *imm = NULL;

	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_MEM)
			mem = op;
		else if (op->type == X86_OP_IMM)
			imm = op;
		else if (op->type == X86_OP_REG && (op->access & CS_AC_WRITE) && !wr)
			wr = op;
		else if (op->type == X86_OP_REG && (op->access & CS_AC_READ))
			rd = op;
	}
	/* (a register both read and written, add %rsi, %rdi: the written one is the destination) */
	if (wr && !rd)
		for (int i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_REG && &x->operands[i] != wr &&
			    (x->operands[i].access & CS_AC_READ))
				rd = &x->operands[i];
	if (mem && (mem->mem.segment == X86_REG_INVALID || ci->id == X86_INS_LEA)) {
		in->ty_base = mem->mem.base == X86_REG_RIP ? 0 : x86_dwarf(d, mem->mem.base);
		in->ty_index = x86_dwarf(d, mem->mem.index);
		in->ty_scale = (uint8_t)mem->mem.scale;
		in->ty_disp = mem->mem.disp;
		in->ty_size = mem->size;
		in->ty_access = x86_access(ci, mem, in->atomic);
		/* an add to memory: a counter (mycl-share's types) */
		in->counter_op |= in->ty_access == ACC_RMW &&
				  (ci->id == X86_INS_ADD || ci->id == X86_INS_SUB ||
				   ci->id == X86_INS_INC || ci->id == X86_INS_DEC ||
				   ci->id == X86_INS_XADD);
	} else if (mem) {
		mem = NULL;	/* %fs: and %gs: are thread-locals, not objects a register points to */
	}
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_REG && (x->operands[i].access & CS_AC_WRITE))
			in->ty_clobbers |= TY_REG_BIT(x86_dwarf(d, x->operands[i].reg));
	for (int i = 0; i < ci->detail->regs_write_count; i++)
		in->ty_clobbers |= TY_REG_BIT(x86_dwarf(d, ci->detail->regs_write[i]));
	switch (ci->id) {
	case X86_INS_MOV: case X86_INS_MOVABS: case X86_INS_MOVZX: case X86_INS_MOVSX:
	case X86_INS_MOVSXD:
		if (mem && wr) {
			in->ty_op = TY_LOAD;
		} else if (mem) {
			in->ty_op = TY_STORE;
			in->ty_src = rd ? x86_dwarf(d, rd->reg) : 0;
			in->ty_wide = rd && rd->size == 8;
		} else if (wr && rd && ci->id == X86_INS_MOV) {
			in->ty_op = TY_MOVE;
			in->ty_src = x86_dwarf(d, rd->reg);
		}
		break;
	case X86_INS_LEA:
		in->ty_op = mem && wr ? TY_LEA : TY_NONE;
		break;
	case X86_INS_ADD: case X86_INS_SUB:
		if (mem && wr && ci->id == X86_INS_ADD)
			in->ty_op = TY_ADD_LOAD;
		else if (mem)
			in->ty_op = TY_MEM;
		else if (wr && imm) {
			in->ty_op = TY_ADD_IMM;
			in->ty_imm = ci->id == X86_INS_SUB ? -imm->imm : imm->imm;
		} else if (wr && rd && ci->id == X86_INS_ADD) {
			in->ty_op = TY_ADD_REG;
			in->ty_src = x86_dwarf(d, rd->reg);
		}
		break;
	case X86_INS_PUSH:
		in->ty_op = TY_PUSH;
		in->ty_size = 8;
		in->ty_base = in->ty_index = 0;
		in->ty_clobbers &= ~(1ull << 7);
		break;
	case X86_INS_POP:
		in->ty_op = wr ? TY_POP : TY_NONE;
		in->ty_size = 8;
		in->ty_clobbers &= ~(1ull << 7);
		break;
	case X86_INS_LEAVE:
		in->ty_op = TY_LEAVE;
		in->ty_clobbers = 0;
		break;
	default:
		if (mem && ci->id != X86_INS_NOP)
			in->ty_op = TY_MEM;
		break;
	}
	if (in->ty_op == TY_LOAD || in->ty_op == TY_MOVE || in->ty_op == TY_LEA || in->ty_op == TY_POP ||
	    in->ty_op == TY_ADD_IMM || in->ty_op == TY_ADD_REG || in->ty_op == TY_ADD_LOAD) {
		in->ty_dst = wr ? x86_dwarf(d, wr->reg) : 0;
		in->ty_wide = wr && wr->size == 8;
		if (in->ty_dst)
			in->ty_clobbers &= ~TY_REG_BIT(in->ty_dst);
		if (in->ty_op == TY_MOVE && rd && rd->size != 8)
			in->ty_wide = false;
	}
}

void x86(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	int set_reg = -1;
	uint64_t set_val = 0, set_alt = 0;
	bool set_indexed = false;
	uint16_t set_scale = 0, mult = 0;
	unsigned int mult_dst = 0;
	struct regval was = { 0 };
	uint64_t fslot = 0;		/* a function loaded from a table of them: its slot */
	uint16_t fslot_stride = 0;

	if (ci->id == X86_INS_ADD && x->op_count == 2 && x->operands[1].type == X86_OP_REG &&
	    x86_fam(d, x->operands[1].reg))
		was = d->regs[x86_fam(d, x->operands[1].reg)];
	in->atomic = x->prefix[0] == X86_PREFIX_LOCK ||
		     (ci->id == X86_INS_XCHG && x->op_count == 2 &&
		      (x->operands[0].type == X86_OP_MEM || x->operands[1].type == X86_OP_MEM));
	in->exchange = in->atomic && ci->id == X86_INS_XCHG;
	/* (x86_lock_facts says it with what it stores; mycl-share's counters, which kind) */
	if (in->atomic && d->share_facts && !d->lock_facts)
		in->atomic_op = x86_atomic_op(ci->id);
	in->on_zero = ci->id == X86_INS_JE ? 1 : ci->id == X86_INS_JNE ? 2 : 0;
	in->spin_hint = ci->id == X86_INS_PAUSE;
	in->jump = ci->id == X86_INS_JMP;
	if (d->type_facts && d->machine == EM_X86_64)
		x86_type_facts(d, ci, in);
	/*
	 * A switch: jmp *%reg with reg = table + its 32-bit entry (PIC, lea
	 * table, movslq, add), or jmp *table(,%reg,8) at a fixed address.
	 */
	if (in->jump && x->op_count == 1) {
		const cs_x86_op *t = &x->operands[0];
		unsigned int f = t->type == X86_OP_REG ? x86_fam(d, t->reg) : 0;

		if (f && d->regs[f].known && d->regs[f].indexed) {
			in->table = d->regs[f].v;
			in->table_rel = true;
		} else if (t->type == X86_OP_MEM && t->mem.base == X86_REG_INVALID &&
			   t->mem.index != X86_REG_INVALID && t->mem.scale == d->ptr_size &&
			   t->mem.disp >= 0x1000) {
			in->table = (uint64_t)(d->ptr_size == 4 ? (uint32_t)t->mem.disp : t->mem.disp);
		}
	}
	if (d->lock_facts) {
		if (cs_regs_access(d->cs, ci, rd, &nrd, wr, &nwr))
			nrd = nwr = 0;
	} else {
		/* Only what it writes: the written operands, and the implicit writes. */
		const cs_detail *det = ci->detail;

		for (int i = 0; i < x->op_count && nwr < sizeof(cs_regs) / sizeof(uint16_t); i++)
			if (x->operands[i].type == X86_OP_REG && (x->operands[i].access & CS_AC_WRITE))
				wr[nwr++] = (uint16_t)x->operands[i].reg;
		for (int i = 0; i < det->regs_write_count && nwr < sizeof(cs_regs) / sizeof(uint16_t); i++)
			wr[nwr++] = det->regs_write[i];
	}
	if (d->lock_facts)
		x86_lock_facts(d, ci, in, rd, nrd, wr, nwr);
	for (uint8_t i = 0; d->share_facts && i < nwr; i++) {
		d->cur_written |= 1u << x86_fam(d, wr[i]);
		if (!d->lock_facts && x86_fam(d, wr[i]))
			in->regs_written |= 1u << x86_fam(d, wr[i]);
		in->sets_flags |= wr[i] == X86_REG_EFLAGS;
	}
	if (d->share_facts && !d->lock_facts) {
		/* What it reads: register operands, a memory operand's base and index. */
		for (int i = 0; i < x->op_count; i++) {
			const cs_x86_op *op = &x->operands[i];

			if (op->type == X86_OP_REG && (op->access & CS_AC_READ))
				in->regs_read |= 1u << x86_fam(d, op->reg);
			else if (op->type == X86_OP_MEM)
				in->regs_read |= 1u << x86_fam(d, op->mem.base) |
						 1u << x86_fam(d, op->mem.index);
		}
		in->regs_read &= ~1u;	/* (family 0: none) */
	}
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		unsigned int fam;

		if (op->type == X86_OP_IMM && (in->branch || in->call))
			in->target = (uint64_t)op->imm;
		/* call *%reg with a function's address in reg (a vtable's slot loaded): direct. */
		else if (op->type == X86_OP_REG && in->call && d->share_facts && x86_fam(d, op->reg) &&
			 d->regs[x86_fam(d, op->reg)].known && d->img &&
			 elf_image_code(d->img, d->regs[x86_fam(d, op->reg)].v, 1))
			in->target = d->regs[x86_fam(d, op->reg)].v;
		else if (op->type == X86_OP_IMM && d->share_facts && op->imm >= 0x1000)
			in->imm = (uint64_t)op->imm;
		/* %fs:off (x86_64 local-exec TLS): a thread-local, keyed by its offset. */
		if (op->type == X86_OP_MEM && op->mem.segment == X86_REG_FS && d->share_facts &&
		    d->machine == EM_X86_64 && op->mem.base == X86_REG_INVALID &&
		    op->mem.index == X86_REG_INVALID && ci->id == X86_INS_MOV)
			in->tls = INSN_TLS_KEY(op->mem.disp);
		if (op->type != X86_OP_MEM || op->mem.segment != X86_REG_INVALID)
			continue;
		if (op->mem.base == X86_REG_RIP) {
			uint64_t a = ci->address + ci->size + (uint64_t)op->mem.disp, t;

			in->data = a;
			in->access = x86_access(ci, op, in->atomic);
			/* mov ptr(%rip), %reg, ptr = &foo in the program's data: reg holds &foo. */
			if (ci->id == X86_INS_MOV && in->access == ACC_READ && ci->size >= 7 &&
			    op->size == d->ptr_size && (t = dis_data_pointer(d, a))) {
				set_val = t;
			/* mov foo@GOTPCREL(%rip), %reg: reg holds &foo. */
			} else if (ci->id == X86_INS_MOV && in->access == ACC_READ && ci->size >= 7 &&
			    (t = dis_got(d, a))) {
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
			uint64_t t;

			in->data = d->regs[fam].v + (uint64_t)op->mem.disp;
			in->access = x86_access(ci, op, in->atomic);
			in->indexed = d->regs[fam].indexed;
			in->scale = d->regs[fam].scale;
			if (d->regs[fam].alt && ci->id != X86_INS_LEA)
				in->data_alt = d->regs[fam].alt + (uint64_t)op->mem.disp;
			if (ci->id == X86_INS_LEA) {
				set_val = in->data;
				set_alt = d->regs[fam].alt ? d->regs[fam].alt + (uint64_t)op->mem.disp : 0;
				set_indexed = in->indexed;
				set_scale = in->scale;
			} else if (d->machine == EM_386 && ci->id == X86_INS_MOV &&
				   in->access == ACC_READ && (t = dis_got(d, in->data))) {
				/* mov foo@GOT(%ebx), %reg: reg holds &foo. */
				in->data = t;
				in->access = ACC_ADDR;
				set_val = t;
			} else if (d->share_facts && ci->id == X86_INS_MOV && in->access == ACC_READ &&
				   op->size == d->ptr_size && !in->indexed &&
				   (t = dis_any_pointer(d, in->data))) {
				/*
				 * mov (%reg), %reg2 from a global object whose data holds a
				 * pointer: its vtable, then the vtable's slot (a virtual
				 * call on a global object, devirtualized).
				 */
				set_val = t;
			}
		} else if (d->machine == EM_386 && op->mem.base == X86_REG_INVALID &&
			   op->mem.index == X86_REG_INVALID && op->mem.disp >= 0x1000) {
			/* i386 code at a fixed address names globals by their absolute address. */
			in->data = (uint64_t)(uint32_t)op->mem.disp;
			in->access = x86_access(ci, op, in->atomic);
			if (ci->id == X86_INS_LEA)
				set_val = in->data;
		} else if (d->share_facts) {
			x86_share_mem(d, ci, op, in, fam, &set_val, &set_indexed);
			if (ci->id == X86_INS_LEA && set_indexed)
				set_scale = in->scale;
		} else if (!d->lock_facts && ci->id != X86_INS_LEA && op->mem.index != X86_REG_INVALID) {
			/*
			 * (annotation) a global's address plus an offset computed in
			 * the other register (base + index * scale, or 8(%rax,%rdx)
			 * with rdx = &g): an element of it
			 */
			unsigned int ix = op->mem.index < NREGS ? d->x86_family[op->mem.index] : 0;
			bool b = fam && d->regs[fam].known, xk = ix && op->mem.scale == 1 &&
								d->regs[ix].known;

			if (b != xk) {
				in->data = d->regs[b ? fam : ix].v + (uint64_t)op->mem.disp;
				in->access = x86_access(ci, op, in->atomic);
				in->indexed = true;
			}
		}
		/*
		 * (%reg) with reg = what pointer variable g holds, plus off: an
		 * access through g (INSN_ARG_KEY: through a pointer the function's
		 * first argument points to, arg->slot->n).
		 */
		if (d->share_facts && fam && op->mem.index == X86_REG_INVALID && !in->data &&
		    d->ld[fam].known && ci->id != X86_INS_LEA) {
			in->via = d->ld[fam].g;
			in->via_off = d->ld[fam].off + op->mem.disp;
			in->via_access = x86_access(ci, op, in->atomic);
		}
		if (d->share_facts && fam && d->prm[fam].known && op->mem.index == X86_REG_INVALID &&
		    ci->id != X86_INS_LEA && fam != X86_RSP) {
			in->mem_prm = (uint8_t)(d->prm[fam].idx + 1);
			in->mem_prm_off = (int64_t)d->prm[fam].v + op->mem.disp;
			in->mem_prm_access = x86_access(ci, op, in->atomic);
		} else if (d->share_facts && fam && d->prm[fam].known && ci->id != X86_INS_LEA &&
			   fam != X86_RSP && !in->data && op->mem.disp >= 0 &&
			   (x86_access(ci, op, in->atomic) | ACC_READ) == ACC_RMW) {	/* written */
			in->mem_prm_ix = (uint8_t)(d->prm[fam].idx + 1);
			in->mem_prm_off = (int64_t)d->prm[fam].v + op->mem.disp;
		}
	}
	/* call *off(%reg) through a vtable slot of the program's data: direct. */
	if (d->share_facts && in->call && !in->target && in->data && in->access == ACC_READ) {
		uint64_t t = dis_code_pointer(d, in->data);

		if (t && !in->indexed)
			in->target = t;
		else if (t)
			in->call_slot = in->data, in->call_stride = in->scale;
	}
	/* call *table(%reg), a table of functions at a fixed address (non-PIE). */
	if (d->share_facts && in->call && !in->target && !in->call_slot && x->op_count == 1 &&
	    (in->call_slot = x86_abs_fn_slot(d, &x->operands[0])))
		in->call_stride = d->mult[x86_fam(d, x->operands[0].mem.base)];
	/* call *%reg with reg loaded from a table of functions at a computed index. */
	if (d->share_facts && in->call && !in->target && x->op_count == 1 &&
	    x->operands[0].type == X86_OP_REG && d->fslot_reg &&
	    x86_fam(d, x->operands[0].reg) == d->fslot_reg) {
		in->call_slot = d->fslot;
		in->call_stride = d->fslot_stride;
	}
	/* mov %reg, mem: an address or the function's own argument kept there (dis_stored). */
	if (d->share_facts && ci->id == X86_INS_MOV && x->op_count == 2 &&
	    x->operands[0].type == X86_OP_REG && x->operands[1].type == X86_OP_MEM &&
	    x86_fam(d, x->operands[0].reg)) {
		unsigned int base = x86_fam(d, x->operands[1].mem.base);

		dis_stored(d, in, x86_fam(d, x->operands[0].reg), base == X86_RSP || base == X86_RBP);
		if (x->operands[0].size != d->ptr_size)
			in->stored_prm = in->stored_prm_stack = 0;	/* (part of one: no pointer) */
	}
	/* mov $imm, mem, or mov %reg, mem with a constant in reg: a constant stored. */
	if (d->share_facts && ci->id == X86_INS_MOV && x->op_count == 2 &&
	    x->operands[1].type == X86_OP_MEM && !in->atomic) {
		unsigned int f = x->operands[0].type == X86_OP_REG ? x86_fam(d, x->operands[0].reg) : 0;

		if (x->operands[0].type == X86_OP_IMM)
			in->store_const = true, in->store_val = (uint64_t)x->operands[0].imm;
		else if (f)
			in->store_const = dis_const(d, f, &in->store_val);
		if (in->store_const && x->operands[1].size < 8)
			in->store_val &= (1ULL << (8 * x->operands[1].size)) - 1;
	}
	if (d->share_facts && in->call && d->machine == EM_X86_64)
		x86_call_args(d, in);
	else if (d->share_facts && in->jump && in->target && d->machine == EM_X86_64)
		x86_call_args(d, in);	/* a tail call's, when it is one (mycl-share decides) */
	if (d->machine == EM_386 && in->call)
		i386_call(d, ci, in);
	if (d->share_facts && (in->access == ACC_RMW || in->mem_prm_access == ACC_RMW ||
			       in->via_access == ACC_RMW)) {
		in->counter_op = ci->id == X86_INS_ADD || ci->id == X86_INS_SUB ||
				 ci->id == X86_INS_INC || ci->id == X86_INS_DEC || ci->id == X86_INS_XADD;
		in->decrement = x86_decrement(d, ci);
	}
	if (d->share_facts)
		x86_counter(d, ci, in);
	if (set_val && x->op_count == 2 && x->operands[1].type == X86_OP_REG &&
	    x->operands[1].reg < NREGS)
		set_reg = d->x86_family[x->operands[1].reg];
	if (d->lock_facts || d->share_facts)
		x86_loads(d, ci, in);
	/* mov %reg, %reg2: reg2 holds what reg held. */
	if (ci->id == X86_INS_MOV && x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	    x->operands[1].type == X86_OP_REG && x86_fam(d, x->operands[0].reg) &&
	    d->regs[x86_fam(d, x->operands[0].reg)].known && x->operands[1].reg < NREGS) {
		set_val = d->regs[x86_fam(d, x->operands[0].reg)].v;
		set_alt = d->regs[x86_fam(d, x->operands[0].reg)].alt;
		set_indexed = d->regs[x86_fam(d, x->operands[0].reg)].indexed;
		set_scale = d->regs[x86_fam(d, x->operands[0].reg)].scale;
		set_reg = d->x86_family[x->operands[1].reg];
	}
	/*
	 * cmovCC %reg, %reg2 with an address in each: reg2 holds one of the
	 * two (mine = id & 1 ? &hits_b : &hits_a).
	 */
	if (d->share_facts && x86_cmov(ci->id) && x->op_count == 2 &&
	    x->operands[0].type == X86_OP_REG && x->operands[1].type == X86_OP_REG &&
	    x->operands[1].size == d->ptr_size && x86_fam(d, x->operands[0].reg) &&
	    x86_fam(d, x->operands[1].reg)) {
		const struct regval *src = &d->regs[x86_fam(d, x->operands[0].reg)];
		const struct regval *dst = &d->regs[x86_fam(d, x->operands[1].reg)];

		if (plain_addr(src) && plain_addr(dst) && src->v != dst->v) {
			set_val = dst->v;
			set_alt = src->v;
			set_reg = d->x86_family[x->operands[1].reg];
		}
	}
	/* add %idx, %reg with an address in one of them: somewhere in that object. */
	if (d->share_facts && ci->id == X86_INS_ADD && x->op_count == 2 &&
	    x->operands[0].type == X86_OP_REG && x->operands[1].type == X86_OP_REG &&
	    x->operands[1].size == d->ptr_size && x86_fam(d, x->operands[0].reg) &&
	    x86_fam(d, x->operands[1].reg)) {
		const struct regval *a = &d->regs[x86_fam(d, x->operands[1].reg)];
		const struct regval *b = &d->regs[x86_fam(d, x->operands[0].reg)];

		if (a->known != b->known) {
			set_val = a->known ? a->v : b->v;
			set_indexed = true;
			set_reg = d->x86_family[x->operands[1].reg];
			/* the index: the register without the address */
			set_scale = d->mult[x86_fam(d, x->operands[a->known ? 0 : 1].reg)];
		}
	}
	if (d->share_facts)
		mult = x86_mult(d, ci, &mult_dst);
	/*
	 * mov slot(%reg), %reg2 from a table of functions at a computed index
	 * (non-PIE: table(%reg)), before the written registers are forgotten.
	 */
	if (d->share_facts && ci->id == X86_INS_MOV && x->op_count == 2 &&
	    x->operands[0].type == X86_OP_MEM && x->operands[0].size == d->ptr_size &&
	    x->operands[1].type == X86_OP_REG && x86_fam(d, x->operands[1].reg)) {
		if (in->data && in->indexed && in->access == ACC_READ && dis_code_pointer(d, in->data))
			fslot = in->data, fslot_stride = in->scale;
		else if (!in->data && (fslot = x86_abs_fn_slot(d, &x->operands[0])))
			fslot_stride = d->mult[x86_fam(d, x->operands[0].mem.base)];
	}
	/* Whatever this instruction writes is no longer a known address or constant. */
	if (d->lock_facts || d->share_facts)
		x86_params(d, ci, wr, nwr);
	for (uint8_t i = 0; i < nwr; i++)
			if (wr[i] < NREGS && d->x86_family[wr[i]]) {
				d->regs[d->x86_family[wr[i]]].known = false;
				d->imm[d->x86_family[wr[i]]].known = false;
				d->ld[d->x86_family[wr[i]]].known = false;
				d->cnt[d->x86_family[wr[i]]].data = 0;
				d->slf[d->x86_family[wr[i]]] = 0;
				d->mult[d->x86_family[wr[i]]] = 0;
				if (d->fslot_reg == d->x86_family[wr[i]])
					d->fslot_reg = 0;
			}
	if (fslot) {
		d->fslot_reg = x86_fam(d, x->operands[1].reg);
		d->fslot = fslot;
		d->fslot_stride = fslot_stride;
	}
	if (mult_dst)
		d->mult[mult_dst] = mult;
	if (d->ld_dst) {
		d->ld[d->ld_dst] = d->ld_next;
		d->ld_dst = 0;
	}
	if (set_reg > 0) {
		d->regs[set_reg].v = set_val;
		d->regs[set_reg].alt = set_alt;
		d->regs[set_reg].known = true;
		d->regs[set_reg].indexed = set_indexed;
		d->regs[set_reg].scale = set_indexed ? set_scale : 0;
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
	/* add $imm, %reg with an address in reg (i386: the GOT from get_pc_thunk). */
	if (ci->id == X86_INS_ADD && x->op_count == 2 && x->operands[0].type == X86_OP_IMM &&
	    x->operands[1].type == X86_OP_REG && x86_fam(d, x->operands[1].reg) &&
	    x86_fam(d, x->operands[1].reg) != X86_RSP && set_reg < 0) {
		unsigned int f = x86_fam(d, x->operands[1].reg);

		if (was.known) {
			d->regs[f] = was;
			d->regs[f].v += (uint64_t)x->operands[0].imm;
			if (d->ptr_size == 4)
				d->regs[f].v &= 0xffffffffu;
		}
	}
	/* Addresses spilled to frame slots (-O0) are followed for every scan. */
	for (uint8_t i = 0; i < nwr && !in->call && !in->ret; i++)
		if (wr[i] < NREGS && d->x86_family[wr[i]] == X86_RSP)
			x86_slots_rsp(d);
	x86_slots(d, ci);
	if (d->share_facts)
		x86_member_slots(d, ci, in);
	if (d->machine == EM_386)
		i386_stack(d, ci, in);
}

/*
 * -O0 C++ keeps an argument in a member of another and loads it back (a
 * lock_guard's constructor: this->_M_device = &m, then _M_device->lock()):
 * a store through the function's argument plus an offset, then a load from
 * the same place, hands the value on.  A call, or a store to memory off the
 * stack anywhere else (it may be the same member), forgets them.
 */
/* The member slot of argument IDX plus OFF, or 4. */
static int member_slot_of(const struct disasm *d, unsigned int idx, int64_t off)
{
	int k = 0;

	while (k < 4 && !(d->mslots[k].used && d->mslots[k].idx == idx && d->mslots[k].off == off))
		k++;
	return k;
}

static void x86_member_slots(struct disasm *d, const cs_insn *ci, const struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *src = &x->operands[0], *dst = &x->operands[1];
	bool member = in->mem_prm && x->op_count == 2 && ci->id == X86_INS_MOV;
	struct member_slot *sl = NULL;

	if (in->call) {
		memset(d->mslots, 0, sizeof(d->mslots));
		return;
	}
	if (member && in->mem_prm_access == ACC_WRITE && src->type == X86_OP_REG &&
	    src->size == d->ptr_size && x86_fam(d, src->reg)) {
		unsigned int f = x86_fam(d, src->reg);
		int k = member_slot_of(d, in->mem_prm - 1, in->mem_prm_off), free_k = -1;

		/* (another member of the same object may be the same memory: forget it) */
		for (int j = 0; j < 4; j++) {
			if (j != k && d->mslots[j].used && d->mslots[j].idx == in->mem_prm - 1)
				d->mslots[j].used = false;
			if (!d->mslots[j].used && free_k < 0)
				free_k = j;
		}
		sl = &d->mslots[k < 4 ? k : free_k >= 0 ? free_k : (int)(in->addr & 3)];
		*sl = (struct member_slot){ .idx = (uint8_t)(in->mem_prm - 1), .off = in->mem_prm_off,
					    .used = true, .imm = d->imm[f], .addr = d->regs[f],
					    .prm = d->prm[f] };
		return;
	}
	if (member && in->mem_prm_access == ACC_READ && dst->type == X86_OP_REG &&
	    dst->size == d->ptr_size && x86_fam(d, dst->reg)) {
		unsigned int f = x86_fam(d, dst->reg);
		int k = member_slot_of(d, in->mem_prm - 1, in->mem_prm_off);

		if (k < 4) {
			d->imm[f] = d->mslots[k].imm;
			d->regs[f] = d->mslots[k].addr;
			d->prm[f] = d->mslots[k].prm;
		}
		return;
	}
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		unsigned int base = op->type == X86_OP_MEM ? x86_fam(d, op->mem.base) : 0;

		if (op->type == X86_OP_MEM && (op->access & CS_AC_WRITE) && base != X86_RSP &&
		    base != X86_RBP && ci->id != X86_INS_LEA)
			memset(d->mslots, 0, sizeof(d->mslots));
	}
}

/* -O0 code keeps everything in frame slots: values stored there and loaded back. */
/* OP is a frame slot (disp off %rbp, or off %rsp in x86_64 code): its base family, else 0. */
static unsigned int frame_base(const struct disasm *d, const cs_x86_op *op)
{
	unsigned int base = op->type == X86_OP_MEM ? x86_fam(d, op->mem.base) : 0;

	return (base == X86_RBP || (base == X86_RSP && d->ptr_size == 8)) &&
	       op->mem.index == X86_REG_INVALID ? base : 0;
}

static void x86_slots(struct disasm *d, const cs_insn *ci)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *src = &x->operands[0], *dst = &x->operands[1];
	struct frame_slot *sl = NULL;
	unsigned int base;
	int k;

	if (x->op_count != 2 || (ci->id != X86_INS_MOV && ci->id != X86_INS_MOVZX))
		return;
	/*
	 * Slots off %rbp (-O0's frame), and off %rsp in x86_64 code that keeps
	 * %rsp still after its prologue (-O2: a struct built on the stack, its
	 * members loaded back in a loop); those off %rsp are dropped whenever
	 * %rsp moves (x86_slots_rsp).
	 */
	base = frame_base(d, dst);
	if (base) {
		int free_k = -1;

		for (k = 0; k < 8 && !(d->slots[k].used && d->slots[k].disp == dst->mem.disp &&
				       d->slots[k].base == base); k++)
			if (!d->slots[k].used && free_k < 0)
				free_k = k;
		if (k == 8)
			k = free_k >= 0 ? free_k : (int)(dst->mem.disp & 7);
		sl = &d->slots[k];
		memset(sl, 0, sizeof(*sl));
		sl->used = true;
		sl->disp = dst->mem.disp;
		sl->base = base;
		if (src->type == X86_OP_IMM) {
			sl->imm.v = (uint64_t)src->imm;
			sl->imm.known = true;
		} else if (src->type == X86_OP_REG && x86_fam(d, src->reg)) {
			unsigned int f = x86_fam(d, src->reg);

			sl->imm = d->imm[f];
			if (src->size == d->ptr_size) {
				sl->addr = d->regs[f];
				sl->prm = d->prm[f];
			}
		}
		return;
	}
	base = frame_base(d, src);
	if (base && dst->type == X86_OP_REG && x86_fam(d, dst->reg)) {
		unsigned int f = x86_fam(d, dst->reg);

		for (k = 0; k < 8; k++)
			if (d->slots[k].used && d->slots[k].disp == src->mem.disp &&
			    d->slots[k].base == base) {
				d->imm[f] = d->slots[k].imm;
				if (dst->size == d->ptr_size) {
					d->regs[f] = d->slots[k].addr;
					d->prm[f] = d->slots[k].prm;
				}
			}
	}
}

/* %rsp moved (push, pop, sub, alloca; not a call, which puts it back): its slots are gone. */
static void x86_slots_rsp(struct disasm *d)
{
	for (int k = 0; k < 8; k++)
		if (d->slots[k].used && d->slots[k].base == X86_RSP)
			d->slots[k].used = false;
}

