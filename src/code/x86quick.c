/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* x86_64's common instructions decoded as capstone 4 does (x86quick.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "x86quick.h"

static const uint16_t reg64[16] = {
	X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX, X86_REG_RSP, X86_REG_RBP, X86_REG_RSI,
	X86_REG_RDI, X86_REG_R8, X86_REG_R9, X86_REG_R10, X86_REG_R11, X86_REG_R12, X86_REG_R13,
	X86_REG_R14, X86_REG_R15,
};
static const uint16_t reg32[16] = {
	X86_REG_EAX, X86_REG_ECX, X86_REG_EDX, X86_REG_EBX, X86_REG_ESP, X86_REG_EBP, X86_REG_ESI,
	X86_REG_EDI, X86_REG_R8D, X86_REG_R9D, X86_REG_R10D, X86_REG_R11D, X86_REG_R12D,
	X86_REG_R13D, X86_REG_R14D, X86_REG_R15D,
};
static const uint16_t reg16[16] = {
	X86_REG_AX, X86_REG_CX, X86_REG_DX, X86_REG_BX, X86_REG_SP, X86_REG_BP, X86_REG_SI,
	X86_REG_DI, X86_REG_R8W, X86_REG_R9W, X86_REG_R10W, X86_REG_R11W, X86_REG_R12W,
	X86_REG_R13W, X86_REG_R14W, X86_REG_R15W,
};
static const uint16_t reg8[16] = {	/* with a REX prefix */
	X86_REG_AL, X86_REG_CL, X86_REG_DL, X86_REG_BL, X86_REG_SPL, X86_REG_BPL, X86_REG_SIL,
	X86_REG_DIL, X86_REG_R8B, X86_REG_R9B, X86_REG_R10B, X86_REG_R11B, X86_REG_R12B,
	X86_REG_R13B, X86_REG_R14B, X86_REG_R15B,
};
static const uint16_t reg8_legacy[8] = {
	X86_REG_AL, X86_REG_CL, X86_REG_DL, X86_REG_BL, X86_REG_AH, X86_REG_CH, X86_REG_DH,
	X86_REG_BH,
};

/* The condition codes of jcc, setcc and cmovcc (the opcode's low nibble). */
static const char *const cond[16] = {
	"o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g",
};
static const uint16_t jcc_id[16] = {
	X86_INS_JO, X86_INS_JNO, X86_INS_JB, X86_INS_JAE, X86_INS_JE, X86_INS_JNE, X86_INS_JBE,
	X86_INS_JA, X86_INS_JS, X86_INS_JNS, X86_INS_JP, X86_INS_JNP, X86_INS_JL, X86_INS_JGE,
	X86_INS_JLE, X86_INS_JG,
};
static const uint16_t setcc_id[16] = {
	X86_INS_SETO, X86_INS_SETNO, X86_INS_SETB, X86_INS_SETAE, X86_INS_SETE, X86_INS_SETNE,
	X86_INS_SETBE, X86_INS_SETA, X86_INS_SETS, X86_INS_SETNS, X86_INS_SETP, X86_INS_SETNP,
	X86_INS_SETL, X86_INS_SETGE, X86_INS_SETLE, X86_INS_SETG,
};
static const uint16_t cmov_id[16] = {
	X86_INS_CMOVO, X86_INS_CMOVNO, X86_INS_CMOVB, X86_INS_CMOVAE, X86_INS_CMOVE,
	X86_INS_CMOVNE, X86_INS_CMOVBE, X86_INS_CMOVA, X86_INS_CMOVS, X86_INS_CMOVNS,
	X86_INS_CMOVP, X86_INS_CMOVNP, X86_INS_CMOVL, X86_INS_CMOVGE, X86_INS_CMOVLE,
	X86_INS_CMOVG,
};

/* The arithmetic of opcodes 00-3f and of 80/81/83 by their reg field (adc, sbb: capstone's). */
static const struct {
	uint16_t id;
	const char *name;
} alu[8] = {
	{ X86_INS_ADD, "add" }, { X86_INS_OR, "or" }, { 0, NULL }, { 0, NULL },
	{ X86_INS_AND, "and" }, { X86_INS_SUB, "sub" }, { X86_INS_XOR, "xor" },
	{ X86_INS_CMP, "cmp" },
};

struct qd {
	const uint8_t *p;
	size_t len, at;			/* the next byte */
	uint8_t rex;
	bool o16;			/* 0x66 */
	uint8_t seg;			/* 0x2e, 0x64, 0x65 */
	bool mem;			/* a memory operand decoded */
	uint8_t modrm;
	cs_insn *ci;
	cs_detail *det;
	cs_x86 *x;
};

static inline bool have(const struct qd *q, size_t n)
{
	return q->at + n <= q->len;
}

static inline int64_t get(struct qd *q, unsigned int n)
{
	const uint8_t *b = q->p + q->at;
	int64_t v;

	q->at += n;
	switch (n) {
	case 1: return (int8_t)b[0];
	case 2: return (int16_t)(b[0] | b[1] << 8);
	case 4: return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			      (uint32_t)b[3] << 24);
	default:
		memcpy(&v, b, 8);
		return v;
	}
}

static uint16_t reg_of(const struct qd *q, unsigned int n, unsigned int size)
{
	switch (size) {
	case 8: return reg64[n];
	case 4: return reg32[n];
	case 2: return reg16[n];
	default: return q->rex ? reg8[n] : n < 8 ? reg8_legacy[n] : X86_REG_INVALID;
	}
}

static cs_x86_op *op_next(struct qd *q)
{
	cs_x86_op *o = &q->x->operands[q->x->op_count++];

	memset(o, 0, sizeof(*o));
	return o;
}

static void op_reg(struct qd *q, uint16_t reg, unsigned int size, uint8_t acc)
{
	cs_x86_op *o = op_next(q);

	o->type = X86_OP_REG;
	o->reg = reg;
	o->size = (uint8_t)size;
	o->access = acc;
}

static void op_imm(struct qd *q, int64_t v, unsigned int size)
{
	cs_x86_op *o = op_next(q);

	o->type = X86_OP_IMM;
	o->imm = v;
	o->size = (uint8_t)size;
}

/* An immediate of N bytes for an operation of SIZE: sign-extended, then cut to SIZE (as capstone). */
static bool imm_of(struct qd *q, unsigned int n, unsigned int size, int64_t *v)
{
	if (!have(q, n))
		return false;
	*v = get(q, n);
	if (size < 8)
		*v = (int64_t)((uint64_t)*v & ((1ULL << (8 * size)) - 1));
	return true;
}

/* The ModRM byte (kept in q->modrm); false past the end. */
static bool modrm(struct qd *q)
{
	if (!have(q, 1))
		return false;
	q->modrm = q->p[q->at++];
	return true;
}

static inline unsigned int reg_field(const struct qd *q)
{
	return (q->modrm >> 3 & 7) | (q->rex & 4 ? 8 : 0);
}

/* The r/m operand (register of SIZE, or memory of SIZE) with ACC; false past the end. */
static bool op_rm(struct qd *q, unsigned int size, uint8_t acc)
{
	unsigned int mod = q->modrm >> 6, rm = q->modrm & 7;
	cs_x86_op *o;

	if (mod == 3) {
		uint16_t r = reg_of(q, rm | (q->rex & 1 ? 8 : 0), size);

		if (r == X86_REG_INVALID)
			return false;
		op_reg(q, r, size, acc);
		return true;
	}
	o = op_next(q);
	o->type = X86_OP_MEM;
	o->mem.segment = q->seg == 0x64 ? X86_REG_FS : q->seg == 0x65 ? X86_REG_GS :
			 q->seg ? X86_REG_CS : X86_REG_INVALID;
	q->mem = true;
	o->size = (uint8_t)size;
	o->access = acc;
	o->mem.scale = 1;
	if (rm == 4) {
		unsigned int sib, base, index;

		if (!have(q, 1))
			return false;
		sib = q->p[q->at++];
		base = (sib & 7) | (q->rex & 1 ? 8 : 0);
		index = (sib >> 3 & 7) | (q->rex & 2 ? 8 : 0);
		if (index != 4) {
			o->mem.index = reg64[index];
			o->mem.scale = 1 << (sib >> 6);
		}
		if ((sib & 7) == 5 && mod == 0) {
			if (!have(q, 4))
				return false;
			o->mem.disp = get(q, 4);
			return true;
		}
		o->mem.base = reg64[base];
	} else if (rm == 5 && mod == 0) {
		o->mem.base = X86_REG_RIP;
		if (!have(q, 4))
			return false;
		o->mem.disp = get(q, 4);
		return true;
	} else {
		o->mem.base = reg64[rm | (q->rex & 1 ? 8 : 0)];
	}
	if (mod == 1 || mod == 2) {
		if (!have(q, mod == 1 ? 1 : 4))
			return false;
		o->mem.disp = get(q, mod == 1 ? 1 : 4);
	}
	return true;
}

static const char suffix[9] = { 0, 'b', 'w', 0, 'l', 0, 0, 0, 'q' };

/* Mnemonic NAME, plus the size suffixes S1 and S2 when not 0. */
static void name(struct qd *q, const char *n, unsigned int s1, unsigned int s2)
{
	size_t l = strlen(n);
	char *m = q->ci->mnemonic;

	memcpy(m, n, l);
	if (s1)
		m[l++] = suffix[s1];
	if (s2)
		m[l++] = suffix[s2];
	m[l] = '\0';
}

/* Mnemonic BASE, the condition of opcode OP's low nibble, and SIZE's suffix when not 0 (cmovnel). */
static void name_cc(struct qd *q, const char *base, unsigned int op, unsigned int size)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%s%s", base, cond[op & 15]);
	name(q, buf, size, 0);
}

static void implicit(struct qd *q, uint16_t rd1, uint16_t rd2, uint16_t wr1, uint16_t wr2)
{
	cs_detail *d = q->det;

	if (rd1)
		d->regs_read[d->regs_read_count++] = rd1;
	if (rd2)
		d->regs_read[d->regs_read_count++] = rd2;
	if (wr1)
		d->regs_write[d->regs_write_count++] = wr1;
	if (wr2)
		d->regs_write[d->regs_write_count++] = wr2;
}

static void group(struct qd *q, uint8_t g1, uint8_t g2, uint8_t g3)
{
	cs_detail *d = q->det;

	if (g1)
		d->groups[d->groups_count++] = g1;
	if (g2)
		d->groups[d->groups_count++] = g2;
	if (g3)
		d->groups[d->groups_count++] = g3;
}

/*
 * The immediate, after the operand's bytes, is the first operand (AT&T):
 * the operand decoded first moves up.
 */
static void imm_first(struct qd *q, int64_t v, unsigned int size)
{
	q->x->operands[1] = q->x->operands[0];
	q->x->operands[0] = (cs_x86_op){ .type = X86_OP_IMM, .imm = v, .size = (uint8_t)size };
	q->x->op_count = 2;
}

/* A relative branch's target, of N displacement bytes. */
static bool rel(struct qd *q, unsigned int n)
{
	if (!have(q, n))
		return false;
	int64_t d = get(q, n);

	op_imm(q, (int64_t)(q->ci->address + q->at + (uint64_t)d), 8);
	return true;
}

/* The instruction at q->at (prefixes taken): false when not one decoded here. */
static bool one(struct qd *q, unsigned int op)
{
	unsigned int osz = q->rex & 8 ? 8 : q->o16 ? 2 : 4;
	unsigned int r;
	int64_t v;

	/* add, or, and, sub, xor, cmp: r/m op r, r op r/m, al/eax op imm */
	if (op < 0x40 && (op & 7) < 6 && alu[op >> 3].name) {
		const unsigned int k = op >> 3;
		const bool cmp = alu[k].id == X86_INS_CMP;
		unsigned int size = op & 1 ? osz : 1;

		q->ci->id = alu[k].id;
		implicit(q, 0, 0, X86_REG_EFLAGS, 0);
		name(q, alu[k].name, size, 0);
		switch (op & 7) {
		case 0: case 1:
			if (!modrm(q))
				return false;
			op_reg(q, reg_of(q, reg_field(q), size), size, CS_AC_READ);
			return q->x->operands[0].reg && op_rm(q, size, cmp ? CS_AC_READ :
							       CS_AC_READ | CS_AC_WRITE);
		case 2: case 3:
			if (!modrm(q) || !op_rm(q, size, CS_AC_READ))
				return false;
			r = reg_of(q, reg_field(q), size);
			op_reg(q, r, size, cmp ? CS_AC_READ : CS_AC_READ | CS_AC_WRITE);
			return r != X86_REG_INVALID;
		default:
			if (!imm_of(q, size == 1 ? 1 : size == 2 ? 2 : 4, size, &v))
				return false;
			op_imm(q, v, size);
			op_reg(q, reg_of(q, 0, size), size, cmp ? CS_AC_READ : CS_AC_READ | CS_AC_WRITE);
			return true;
		}
	}
	if (op >= 0x50 && op <= 0x5f) {		/* push, pop */
		bool push = op < 0x58;

		if (q->o16)
			return false;
		q->ci->id = push ? X86_INS_PUSH : X86_INS_POP;
		name(q, push ? "push" : "pop", 8, 0);
		implicit(q, X86_REG_RSP, 0, X86_REG_RSP, 0);
		group(q, X86_GRP_MODE64, 0, 0);
		op_reg(q, reg64[(op & 7) | (q->rex & 1 ? 8 : 0)], 8, push ? CS_AC_READ : CS_AC_WRITE);
		return true;
	}
	if (op >= 0x70 && op <= 0x7f) {		/* jcc rel8 */
		if (q->o16 || q->rex)
			return false;
		q->ci->id = jcc_id[op & 15];
		name_cc(q, "j", op, 0);
		implicit(q, X86_REG_EFLAGS, 0, 0, 0);
		group(q, X86_GRP_BRANCH_RELATIVE, CS_GRP_JUMP, 0);
		return rel(q, 1);
	}
	if (op >= 0xb0 && op <= 0xbf) {		/* mov $imm, %reg */
		unsigned int size = op < 0xb8 ? 1 : osz;

		r = reg_of(q, (op & 7) | (q->rex & 1 ? 8 : 0), size);
		if (r == X86_REG_INVALID || !imm_of(q, size, size, &v))
			return false;
		q->ci->id = size == 8 ? X86_INS_MOVABS : X86_INS_MOV;
		name(q, size == 8 ? "movabs" : "mov", size, 0);
		op_imm(q, v, size);
		op_reg(q, r, size, CS_AC_WRITE);
		return true;
	}
	switch (op) {
	case 0x63:				/* movslq */
		if (!(q->rex & 8) || !modrm(q) || !op_rm(q, 4, CS_AC_READ))
			return false;
		q->ci->id = X86_INS_MOVSXD;
		name(q, "movslq", 0, 0);
		group(q, X86_GRP_MODE64, 0, 0);
		op_reg(q, reg64[reg_field(q)], 8, CS_AC_WRITE);
		return true;
	case 0x80: case 0x81: case 0x83: {	/* arithmetic with an immediate */
		unsigned int size = op == 0x80 ? 1 : osz, k;

		if (!modrm(q) || !alu[k = q->modrm >> 3 & 7].name)
			return false;
		q->ci->id = alu[k].id;
		name(q, alu[k].name, size, 0);
		implicit(q, 0, 0, X86_REG_EFLAGS, 0);
		if (!op_rm(q, size, alu[k].id == X86_INS_CMP ? CS_AC_READ : CS_AC_READ | CS_AC_WRITE) ||
		    !imm_of(q, op == 0x81 ? (size == 2 ? 2 : 4) : 1, size, &v))
			return false;
		/* (capstone keeps add's, sub's and cmp's byte sign-extended to 64 bits) */
		if (op == 0x83 && (k == 0 || k == 5 || k == 7))
			v = (int8_t)v;
		imm_first(q, v, size);
		return true;
	}
	case 0x84: case 0x85: {			/* test r/m, r */
		unsigned int size = op & 1 ? osz : 1;

		if (!modrm(q))
			return false;
		q->ci->id = X86_INS_TEST;
		name(q, "test", size, 0);
		implicit(q, 0, 0, X86_REG_EFLAGS, 0);
		r = reg_of(q, reg_field(q), size);
		op_reg(q, r, size, CS_AC_READ);
		return r != X86_REG_INVALID && op_rm(q, size, CS_AC_READ);
	}
	case 0x88: case 0x89: case 0x8a: case 0x8b: {	/* mov */
		unsigned int size = op & 1 ? osz : 1;

		if (!modrm(q))
			return false;
		q->ci->id = X86_INS_MOV;
		name(q, "mov", size, 0);
		r = reg_of(q, reg_field(q), size);
		if (r == X86_REG_INVALID)
			return false;
		if (op < 0x8a) {
			op_reg(q, r, size, CS_AC_READ);
			return op_rm(q, size, CS_AC_WRITE);
		}
		if (!op_rm(q, size, CS_AC_READ))
			return false;
		op_reg(q, r, size, CS_AC_WRITE);
		return true;
	}
	case 0x8d:				/* lea */
		if (q->o16 || !modrm(q) || q->modrm >> 6 == 3 || !op_rm(q, osz, CS_AC_READ))
			return false;
		q->ci->id = X86_INS_LEA;
		name(q, "lea", osz, 0);
		if (osz == 4)
			group(q, X86_GRP_MODE64, 0, 0);
		op_reg(q, reg_of(q, reg_field(q), osz), osz, CS_AC_WRITE);
		return true;
	case 0x90:
		if (q->rex)
			return false;
		q->ci->id = X86_INS_NOP;
		name(q, "nop", 0, 0);
		return true;
	case 0xc3:
		if (q->rex || q->o16)
			return false;
		q->ci->id = X86_INS_RET;
		name(q, "retq", 0, 0);
		implicit(q, X86_REG_RSP, 0, X86_REG_RSP, 0);
		group(q, CS_GRP_RET, X86_GRP_MODE64, 0);
		return true;
	case 0xc9:
		if (q->rex || q->o16)
			return false;
		q->ci->id = X86_INS_LEAVE;
		name(q, "leave", 0, 0);
		implicit(q, X86_REG_RBP, X86_REG_RSP, X86_REG_RBP, X86_REG_RSP);
		group(q, X86_GRP_MODE64, 0, 0);
		return true;
	case 0xc6: case 0xc7: {			/* mov $imm, r/m */
		unsigned int size = op == 0xc6 ? 1 : osz;
		if (!modrm(q) || (q->modrm >> 3 & 7))
			return false;
		q->ci->id = X86_INS_MOV;
		name(q, "mov", size, 0);
		if (!op_rm(q, size, CS_AC_WRITE) || !imm_of(q, size == 8 ? 4 : size, size, &v))
			return false;
		imm_first(q, v, size);
		return true;
	}
	case 0x68: case 0x6a:			/* push $imm */
		if (q->o16 || q->rex || !have(q, op == 0x68 ? 4 : 1))
			return false;
		q->ci->id = X86_INS_PUSH;
		name(q, "push", 8, 0);
		implicit(q, X86_REG_RSP, 0, X86_REG_RSP, 0);
		group(q, X86_GRP_MODE64, 0, 0);
		op_imm(q, get(q, op == 0x68 ? 4 : 1), 8);
		return true;
	case 0x69: case 0x6b:			/* imul $imm, r/m, r */
		if (!modrm(q) || !op_rm(q, osz, CS_AC_READ) ||
		    !imm_of(q, op == 0x6b ? 1 : osz == 2 ? 2 : 4, osz, &v))
			return false;
		if (op == 0x6b)
			v = (int8_t)v;
		q->ci->id = X86_INS_IMUL;
		name(q, "imul", osz, 0);
		implicit(q, 0, 0, X86_REG_EFLAGS, 0);
		imm_first(q, v, osz);
		op_reg(q, reg_of(q, reg_field(q), osz), osz, CS_AC_WRITE);
		return true;
	case 0xc1: case 0xd1: case 0xd3: {	/* shl, shr, sar */
		static const uint16_t ids[8] = { [4] = X86_INS_SHL, [5] = X86_INS_SHR, [7] = X86_INS_SAR };
		static const char *const names[8] = { [4] = "shl", [5] = "shr", [7] = "sar" };
		unsigned int k;

		/* (capstone 4 leaves %cl out of a shift of memory by it: left to capstone) */
		if (!modrm(q) || !ids[k = q->modrm >> 3 & 7] || (op == 0xd3 && q->modrm >> 6 != 3) ||
		    !op_rm(q, osz, CS_AC_READ | CS_AC_WRITE))
			return false;
		q->ci->id = ids[k];
		name(q, names[k], osz, 0);
		if (op == 0xd3) {
			implicit(q, X86_REG_CL, 0, X86_REG_EFLAGS, 0);
			q->x->operands[1] = q->x->operands[0];
			q->x->operands[0] = (cs_x86_op){ .type = X86_OP_REG, .reg = X86_REG_CL, .size = 1,
							 .access = CS_AC_READ };
			q->x->op_count = 2;
			return true;
		}
		implicit(q, 0, 0, X86_REG_EFLAGS, 0);
		if (op == 0xd1) {
			imm_first(q, 1, 1);
			return true;
		}
		if (!have(q, 1))
			return false;
		imm_first(q, q->p[q->at++], osz);
		return true;
	}
	case 0xf6: case 0xf7: {			/* test $imm, not, neg */
		unsigned int size = op == 0xf6 ? 1 : osz, k;

		if (!modrm(q))
			return false;
		switch (k = q->modrm >> 3 & 7) {
		case 0:
			/* (capstone 4 marks the memory a test reads read-write) */
			if (!op_rm(q, size, q->modrm >> 6 == 3 ? CS_AC_READ : CS_AC_READ | CS_AC_WRITE) ||
			    !imm_of(q, size == 8 ? 4 : size, size, &v))
				return false;
			q->ci->id = X86_INS_TEST;
			name(q, "test", size, 0);
			implicit(q, 0, 0, X86_REG_EFLAGS, 0);
			imm_first(q, v, size);
			return true;
		case 2: case 3:
			q->ci->id = k == 2 ? X86_INS_NOT : X86_INS_NEG;
			name(q, k == 2 ? "not" : "neg", size, 0);
			if (k == 3)
				implicit(q, 0, 0, X86_REG_EFLAGS, 0);
			return op_rm(q, size, CS_AC_READ | CS_AC_WRITE);
		default:
			return false;
		}
	}
	case 0xfe:				/* inc, dec of a byte */
		if (!modrm(q) || (q->modrm >> 3 & 7) > 1)
			return false;
		q->ci->id = q->modrm & 8 ? X86_INS_DEC : X86_INS_INC;
		name(q, q->modrm & 8 ? "dec" : "inc", 1, 0);
		implicit(q, 0, 0, X86_REG_EFLAGS, 0);
		return op_rm(q, 1, CS_AC_READ | CS_AC_WRITE);
	case 0xe8:				/* call rel32 */
		if (q->o16 || q->rex)
			return false;
		q->ci->id = X86_INS_CALL;
		name(q, "callq", 0, 0);
		implicit(q, X86_REG_RSP, X86_REG_RIP, X86_REG_RSP, 0);
		group(q, CS_GRP_CALL, X86_GRP_BRANCH_RELATIVE, X86_GRP_MODE64);
		return rel(q, 4);
	case 0xe9: case 0xeb:			/* jmp rel */
		if (q->o16 || q->rex)
			return false;
		q->ci->id = X86_INS_JMP;
		name(q, "jmp", 0, 0);
		group(q, X86_GRP_BRANCH_RELATIVE, CS_GRP_JUMP, 0);
		return rel(q, op == 0xe9 ? 4 : 1);
	case 0xff:				/* inc, dec, call, jmp, push */
		if (!modrm(q))
			return false;
		switch (q->modrm >> 3 & 7) {
		case 0: case 1:
			q->ci->id = q->modrm & 8 ? X86_INS_DEC : X86_INS_INC;
			name(q, q->modrm & 8 ? "dec" : "inc", osz, 0);
			implicit(q, 0, 0, X86_REG_EFLAGS, 0);
			return op_rm(q, osz, CS_AC_READ | CS_AC_WRITE);
		case 2:
			if (q->o16 || (q->rex & 8))
				return false;
			q->ci->id = X86_INS_CALL;
			name(q, "callq", 0, 0);
			implicit(q, X86_REG_RSP, 0, X86_REG_RSP, 0);
			group(q, CS_GRP_CALL, X86_GRP_MODE64, 0);
			return op_rm(q, 8, CS_AC_READ);
		case 4:
			if (q->o16 || (q->rex & 8))
				return false;
			q->ci->id = X86_INS_JMP;
			name(q, "jmpq", 0, 0);
			group(q, X86_GRP_MODE64, CS_GRP_JUMP, 0);
			return op_rm(q, 8, CS_AC_READ);
		case 6:
			if (q->o16 || (q->rex & 8))
				return false;
			q->ci->id = X86_INS_PUSH;
			name(q, "push", 8, 0);
			implicit(q, X86_REG_RSP, 0, X86_REG_RSP, 0);
			group(q, X86_GRP_MODE64, 0, 0);
			return op_rm(q, 8, CS_AC_READ);
		default:
			return false;
		}
	case 0x0f:
		break;
	default:
		return false;
	}
	/* 0f xx */
	if (!have(q, 1))
		return false;
	op = q->p[q->at++];
	if (op >= 0x80 && op <= 0x8f) {		/* jcc rel32 */
		if (q->o16 || q->rex)
			return false;
		q->ci->id = jcc_id[op & 15];
		name_cc(q, "j", op, 0);
		implicit(q, X86_REG_EFLAGS, 0, 0, 0);
		group(q, X86_GRP_BRANCH_RELATIVE, CS_GRP_JUMP, 0);
		return rel(q, 4);
	}
	if (op >= 0x90 && op <= 0x9f) {		/* setcc */
		if (q->o16 || !modrm(q) || (q->modrm >> 3 & 7))
			return false;
		q->ci->id = setcc_id[op & 15];
		name_cc(q, "set", op, 0);
		implicit(q, X86_REG_EFLAGS, 0, 0, 0);
		/* (capstone 4 marks the memory every set but sete and setne stores to read) */
		return op_rm(q, 1, q->modrm >> 6 != 3 && (op & 15) != 4 && (op & 15) != 5 ?
				   CS_AC_READ : CS_AC_WRITE);
	}
	if (op >= 0x40 && op <= 0x4f) {		/* cmovcc */
		if (!modrm(q) || !op_rm(q, osz, CS_AC_READ))
			return false;
		q->ci->id = cmov_id[op & 15];
		name_cc(q, "cmov", op, osz);
		implicit(q, X86_REG_EFLAGS, 0, 0, 0);
		group(q, X86_GRP_CMOV, 0, 0);
		op_reg(q, reg_of(q, reg_field(q), osz), osz, CS_AC_READ | CS_AC_WRITE);
		return true;
	}
	switch (op) {
	case 0xb6: case 0xb7: case 0xbe: case 0xbf: {	/* movz, movs */
		unsigned int from = op & 1 ? 2 : 1;

		/* (a 16-bit one capstone 4 names oddly: movswl ..., %cx) */
		if (q->o16 || !modrm(q) || !op_rm(q, from, CS_AC_READ))
			return false;
		r = reg_of(q, reg_field(q), osz);
		q->ci->id = op < 0xb8 ? X86_INS_MOVZX : X86_INS_MOVSX;
		name(q, op < 0xb8 ? "movz" : "movs", from, osz);
		op_reg(q, r, osz, CS_AC_WRITE);
		return true;
	}
	case 0xaf:				/* imul r/m, r */
		if (!modrm(q) || !op_rm(q, osz, CS_AC_READ))
			return false;
		q->ci->id = X86_INS_IMUL;
		name(q, "imul", osz, 0);
		implicit(q, 0, 0, X86_REG_EFLAGS, 0);
		op_reg(q, reg_of(q, reg_field(q), osz), osz, CS_AC_READ | CS_AC_WRITE);
		return true;
	case 0x1f:				/* nopl, nopw */
		if (!modrm(q) || (q->modrm >> 3 & 7) || q->modrm >> 6 == 3 ||
		    !op_rm(q, q->o16 ? 2 : 4, CS_AC_READ))
			return false;
		q->ci->id = X86_INS_NOP;
		name(q, "nop", q->o16 ? 2 : 4, 0);
		return true;
	default:
		return false;
	}
}

size_t x86_quick(const uint8_t *code, size_t len, uint64_t pc, cs_insn *ci, cs_detail *det)
{
	struct qd q = { .p = code, .len = len > 15 ? 15 : len, .ci = ci, .det = det, .x = &det->x86 };
	unsigned int op;

	ci->detail = det;
	ci->address = pc;
	ci->op_str[0] = '\0';
	det->regs_read_count = det->regs_write_count = det->groups_count = 0;
	memset(&det->x86, 0, offsetof(cs_x86, operands));
	/* 0x66 and the segments cs, fs, gs (repeated, in any order); lock, rep and the rest: capstone's */
	for (;; q.at++) {
		if (!have(&q, 1))
			return 0;
		if (code[q.at] == 0x66) {
			q.o16 = true;
			det->x86.prefix[2] = 0x66;
		} else if (code[q.at] == 0x2e || code[q.at] == 0x64 || code[q.at] == 0x65) {
			if (q.seg && q.seg != code[q.at])
				return 0;
			q.seg = code[q.at];
			det->x86.prefix[1] = code[q.at];
		} else {
			break;
		}
	}
	if (have(&q, 1) && (code[q.at] & 0xf0) == 0x40)
		q.rex = code[q.at++];
	if (!have(&q, 1))
		return 0;
	op = code[q.at++];
	if (!one(&q, op) || (q.seg && !q.mem))
		return 0;		/* (a segment on no memory operand: a branch hint, or junk) */
	det->x86.rex = q.rex;
	det->x86.addr_size = 8;
	ci->size = (uint16_t)q.at;
	memcpy(ci->bytes, code, q.at);
	return q.at;
}
