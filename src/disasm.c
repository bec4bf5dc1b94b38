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
};

struct disasm {
	csh cs;
	uint16_t machine;
	bool big_endian;
	uint64_t toc;
	struct regval regs[NREGS];
};

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
	if (arch == CS_ARCH_X86)
		cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);	/* as perf and objdump show it */
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

static void x86(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;

	(void)d;
	in->atomic = x->prefix[0] == X86_PREFIX_LOCK || ci->id == X86_INS_XCHG;
	in->spin_hint = ci->id == X86_INS_PAUSE;
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_IMM && (in->branch || in->call))
			in->target = (uint64_t)op->imm;
		if (op->type != X86_OP_MEM || op->mem.base != X86_REG_RIP)
			continue;
		in->data = ci->address + ci->size + (uint64_t)op->mem.disp;
		if (ci->id == X86_INS_LEA)
			in->access = ACC_ADDR;
		else if ((op->access & CS_AC_READ) && (op->access & CS_AC_WRITE))
			in->access = ACC_RMW;
		else if (op->access & CS_AC_WRITE)
			in->access = ACC_WRITE;
		else
			in->access = ACC_READ;
		if (in->atomic && in->access != ACC_ADDR)
			in->access = ACC_RMW;
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

static void arm64(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_arm64 *a = &ci->detail->arm64;
	bool atomic;
	uint8_t acc = arm64_access(ci->mnemonic, &atomic);
	int dst = a->op_count > 0 && a->operands[0].type == ARM64_OP_REG ? (int)a->operands[0].reg : -1;

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
			in->data = d->regs[op->mem.base].v + (uint64_t)(int64_t)op->mem.disp;
			in->access = acc ? acc : ACC_READ;
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
				in->data = (toc ? d->toc : d->regs[op->mem.base].v) + (uint64_t)(int64_t)op->mem.disp;
				in->access = acc ? acc : ACC_READ;
			}
		}
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

static void s390(struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const cs_sysz *z = &ci->detail->sysz;
	const char *m = ci->mnemonic;
	size_t ml = strlen(m);
	bool rl = ml > 2 && !strcmp(m + ml - 2, "rl") && strcmp(m, "brasl") && strcmp(m, "brcl");

	(void)d;
	in->atomic = !strcmp(m, "cs") || !strcmp(m, "csg") || !strcmp(m, "csy") || starts(m, "laa") ||
		     starts(m, "lan") || starts(m, "lao") || starts(m, "lax");
	for (int i = 0; i < z->op_count; i++) {
		const cs_sysz_op *op = &z->operands[i];

		if (op->type != SYSZ_OP_IMM)
			continue;
		if (in->branch || in->call) {
			in->target = (uint64_t)op->imm;
		} else if (!strcmp(m, "larl") || rl) {
			in->data = (uint64_t)op->imm;
			in->access = !strcmp(m, "larl") ? ACC_ADDR : starts(m, "st") ? ACC_WRITE : ACC_READ;
		}
	}
	if (in->atomic && !in->access)
		in->access = ACC_RMW;
}

int disasm_range(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		 struct insn **out, size_t *n)
{
	cs_insn *ci = NULL;
	size_t count;
	struct insn *v;

	*out = NULL;
	*n = 0;
	memset(d->regs, 0, sizeof(d->regs));
	count = cs_disasm(d->cs, code, len, addr, 0, &ci);
	v = calloc(count ? count : 1, sizeof(*v));
	if (!v) {
		cs_free(ci, count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		struct insn *in = &v[i];

		in->addr = ci[i].address;
		in->size = (uint8_t)ci[i].size;
		snprintf(in->text, sizeof(in->text), "%-7s %s", ci[i].mnemonic, ci[i].op_str);
		in->branch = cs_insn_group(d->cs, &ci[i], CS_GRP_JUMP);
		in->call = cs_insn_group(d->cs, &ci[i], CS_GRP_CALL);
		in->ret = cs_insn_group(d->cs, &ci[i], CS_GRP_RET);
		if (d->machine == EM_PPC64 || d->machine == EM_S390) {
			/* capstone does not group every call of these: by mnemonic. */
			const char *m = ci[i].mnemonic;

			if (!strcmp(m, "bl") || !strcmp(m, "bla") || !strcmp(m, "brasl") ||
			    !strcmp(m, "bras"))
				in->call = true;
		}
		switch (d->machine) {
		case EM_X86_64: x86(d, &ci[i], in); break;
		case EM_AARCH64: arm64(d, &ci[i], in); break;
		case EM_PPC64: ppc(d, &ci[i], in, code + (ci[i].address - addr)); break;
		case EM_S390: s390(d, &ci[i], in); break;
		default: break;
		}
		/* A call clobbers what registers held. */
		if (in->call)
			memset(d->regs, 0, sizeof(d->regs));
	}
	cs_free(ci, count);
	*out = v;
	*n = count;
	return 0;
}
