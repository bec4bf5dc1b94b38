/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The disassembler's common part: opening it for a machine, the calling
 * conventions, the register flow every architecture shares, the walk over
 * a code range.  Per architecture: disasm_x86.c (x86_64, i386),
 * disasm_arm64.c, disasm_arm.c, disasm_ppc.c, disasm_s390.c, disasm_riscv.c.
 */
#include "mycl/tuning.h"
#include "disasm.h"
#include "disasm_ahead.h"
#include "x86len.h"
#include "x86quick.h"
#include "disasm_regs.h"
#include "elfimage.h"

void disasm_set_got(struct disasm *d, uint64_t (*fn)(void *ctx, uint64_t slot), void *ctx)
{
	d->got = fn;
	d->got_ctx = ctx;
}

void disasm_set_thumb(struct disasm *d, bool (*fn)(void *ctx, uint64_t addr), void *ctx)
{
	d->is_thumb = fn;
	d->thumb_ctx = ctx;
}

const char *disasm_arch_name(uint16_t m)
{
	switch (m) {
	case EM_X86_64: return "x86_64";
	case EM_386: return "i386";
	case EM_AARCH64: return "aarch64";
	case EM_ARM: return "arm";
	case EM_PPC64: return "ppc64";
	case EM_S390: return "s390x";
	case EM_RISCV: return "riscv64";
	default: return "unknown";
	}
}

/* Argument registers and the registers a call keeps, per ELF machine (the psABIs). */
static void set_abi(struct disasm *d)
{
	struct disasm_abi *a = &d->abi;
	unsigned int k = 0;

	switch (d->machine) {
	case EM_X86_64: case EM_386: a->ret = X86_RAX; break;
	case EM_AARCH64: a->ret = ARM64_REG_X0; break;
	case EM_PPC64: a->ret = PPC_REG_R3; break;
	case EM_S390: a->ret = SYSZ_REG_2; break;
	case EM_ARM: a->ret = ARM_REG_R0; break;
	case EM_RISCV: a->ret = 1 + 10; break;
	default: break;
	}
	switch (d->machine) {
	case EM_AARCH64:
		for (unsigned int i = 0; i < 8; i++)
			a->args[i] = (uint16_t)(ARM64_REG_X0 + i);
		a->nr_args = 8;
		for (unsigned int r = ARM64_REG_X0; r <= ARM64_REG_X18; r++)
			a->scratch[a->nr_scratch++] = (uint16_t)r;
		for (unsigned int r = ARM64_REG_X19; r <= ARM64_REG_X28; r++)
			a->kept[k++] = (uint16_t)r;
		a->kept[k++] = ARM64_REG_X29;
		a->kept[k++] = ARM64_REG_SP;
		break;
	case EM_PPC64:
		for (unsigned int i = 0; i < 8; i++)
			a->args[i] = (uint16_t)(PPC_REG_R3 + i);
		a->nr_args = 8;
		a->scratch[a->nr_scratch++] = PPC_REG_R0;
		for (unsigned int r = PPC_REG_R3; r <= PPC_REG_R12; r++)
			a->scratch[a->nr_scratch++] = (uint16_t)r;
		a->kept[k++] = PPC_REG_R1;
		a->kept[k++] = PPC_REG_R2;
		for (unsigned int r = PPC_REG_R14; r <= PPC_REG_R31; r++)
			a->kept[k++] = (uint16_t)r;
		break;
	case EM_S390:
		for (unsigned int i = 0; i < 5; i++)
			a->args[i] = (uint16_t)(SYSZ_REG_2 + i);
		a->nr_args = 5;
		for (unsigned int r = SYSZ_REG_0; r <= SYSZ_REG_5; r++)
			a->scratch[a->nr_scratch++] = (uint16_t)r;
		for (unsigned int r = SYSZ_REG_6; r <= SYSZ_REG_13; r++)
			a->kept[k++] = (uint16_t)r;
		a->kept[k++] = SYSZ_REG_15;
		break;
	case EM_ARM:
		for (unsigned int i = 0; i < 4; i++)
			a->args[i] = (uint16_t)(ARM_REG_R0 + i);
		a->nr_args = 4;
		for (unsigned int r = ARM_REG_R0; r <= ARM_REG_R3; r++)
			a->scratch[a->nr_scratch++] = (uint16_t)r;
		a->scratch[a->nr_scratch++] = ARM_REG_R12;
		for (unsigned int r = ARM_REG_R4; r <= ARM_REG_R11; r++)
			a->kept[k++] = (uint16_t)r;
		a->kept[k++] = ARM_REG_SP;
		break;
	case EM_RISCV:
		/* Registers x0..x31 are ids 1..32: a0-a7 are x10-x17; s0-s11, sp, gp, tp kept. */
		for (unsigned int i = 0; i < 8; i++)
			a->args[i] = (uint16_t)(1 + 10 + i);
		a->nr_args = 8;
		/* t0-t2 (x5-x7), a0-a7 (x10-x17), t3-t6 (x28-x31) */
		for (unsigned int r = 5; r <= 7; r++)
			a->scratch[a->nr_scratch++] = (uint16_t)(1 + r);
		for (unsigned int r = 10; r <= 17; r++)
			a->scratch[a->nr_scratch++] = (uint16_t)(1 + r);
		for (unsigned int r = 28; r <= 31; r++)
			a->scratch[a->nr_scratch++] = (uint16_t)(1 + r);
		for (unsigned int r = 2; r <= 4; r++)
			a->kept[k++] = (uint16_t)(1 + r);
		a->kept[k++] = 1 + 8;
		a->kept[k++] = 1 + 9;
		for (unsigned int r = 18; r <= 27; r++)
			a->kept[k++] = (uint16_t)(1 + r);
		break;
	case EM_X86_64: {
		/* rbx rbp rsp r12-r15 kept, rax rcx rdx rsi rdi r8-r11 not (x86 families). */
		static const uint8_t scratch[] = { 1, 3, 4, 5, 6, 9, 10, 11, 12 };

		a->kept[k++] = 2;
		a->kept[k++] = 7;
		a->kept[k++] = 8;
		for (unsigned int r = 13; r <= 16; r++)
			a->kept[k++] = (uint16_t)r;
		for (size_t i = 0; i < sizeof(scratch); i++)
			a->scratch[a->nr_scratch++] = scratch[i];
		break;
	}
	case EM_386:
		/* cdecl: arguments on the stack; ebx esi edi ebp esp kept, eax ecx edx not. */
		a->kept[k++] = 2;
		a->kept[k++] = 5;
		a->kept[k++] = 6;
		a->kept[k++] = 7;
		a->kept[k++] = 8;
		a->scratch[a->nr_scratch++] = 1;
		a->scratch[a->nr_scratch++] = 3;
		a->scratch[a->nr_scratch++] = 4;
		break;
	default:
		break;
	}
	a->nr_kept = (uint8_t)k;
}

int disasm_open(struct disasm **out, uint16_t machine, bool big_endian, uint64_t toc)
{
	struct disasm *d;
	cs_arch arch;
	cs_mode mode = big_endian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN;

	*out = NULL;
	switch (machine) {
	case EM_X86_64: arch = CS_ARCH_X86; mode = CS_MODE_64; break;
	case EM_386: arch = CS_ARCH_X86; mode = CS_MODE_32; break;
	case EM_AARCH64: arch = CS_ARCH_ARM64; break;
	case EM_ARM: arch = CS_ARCH_ARM; mode |= CS_MODE_ARM; break;
	case EM_PPC64: arch = CS_ARCH_PPC; mode |= CS_MODE_64; break;
	case EM_S390: arch = CS_ARCH_SYSZ; mode = CS_MODE_BIG_ENDIAN; break;
	case EM_RISCV: arch = CS_ARCH_MAX; break;	/* decoded in disasm_riscv.c */
	default: return -ENOTSUP;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	if (arch != CS_ARCH_MAX && cs_open(arch, mode, &d->cs) != CS_ERR_OK) {
		free(d);
		return -ENOTSUP;
	}
	if (machine == EM_ARM &&
	    cs_open(arch, (cs_mode)((mode & ~CS_MODE_ARM) | CS_MODE_THUMB), &d->cs_thumb) != CS_ERR_OK) {
		cs_close(&d->cs);
		free(d);
		return -ENOTSUP;
	}
	d->cs_arch = arch;
	d->cs_mode = mode;
	d->no_quick = tuning_get()->x86_quick == MYCL_SWITCH_OFF;
	if (d->cs)
		cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (d->cs_thumb)
		cs_option(d->cs_thumb, CS_OPT_DETAIL, CS_OPT_ON);
	/* Capstone's register ids stay below its ENDING (riscv's decoder: 1 + x0..x32). */
	switch (arch) {
	case CS_ARCH_ARM64: d->nr_regs = ARM64_REG_ENDING; break;
	case CS_ARCH_ARM: d->nr_regs = ARM_REG_ENDING; break;
	case CS_ARCH_PPC: d->nr_regs = PPC_REG_ENDING; break;
	case CS_ARCH_SYSZ: d->nr_regs = SYSZ_REG_ENDING; break;
	case CS_ARCH_MAX: d->nr_regs = 64; break;
	default: d->nr_regs = NREGS; break;
	}
	if (arch == CS_ARCH_X86) {
		cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);	/* as perf and objdump show it */
		x86_families(d);
		d->nr_regs = X86_NR_FAMILIES + 1;	/* the state is kept by family, 1..16 */
	}
	d->machine = machine;
	d->big_endian = big_endian;
	d->toc = toc;
	d->ptr_size = machine == EM_386 || machine == EM_ARM ? 4 : 8;
	set_abi(d);
	*out = d;
	return 0;
}

/* Whether capstone's x86 instruction ID moves control: a jump, call, return, loop or interrupt. */
static bool x86_transfer(unsigned int id)
{
	switch (id) {
	case X86_INS_JAE: case X86_INS_JA: case X86_INS_JBE: case X86_INS_JB: case X86_INS_JCXZ:
	case X86_INS_JECXZ: case X86_INS_JE: case X86_INS_JGE: case X86_INS_JG: case X86_INS_JLE:
	case X86_INS_JL: case X86_INS_JMP: case X86_INS_JNE: case X86_INS_JNO: case X86_INS_JNP:
	case X86_INS_JNS: case X86_INS_JO: case X86_INS_JP: case X86_INS_JRCXZ: case X86_INS_JS:
	case X86_INS_LJMP: case X86_INS_CALL: case X86_INS_LCALL: case X86_INS_RET:
	case X86_INS_RETF: case X86_INS_RETFQ: case X86_INS_LOOP: case X86_INS_LOOPE:
	case X86_INS_LOOPNE: case X86_INS_INT: case X86_INS_INT3: case X86_INS_INTO:
	case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ: case X86_INS_SYSCALL:
	case X86_INS_SYSENTER: case X86_INS_SYSEXIT: case X86_INS_SYSRET:
		return true;
	}
	return false;
}

size_t disasm_insn_size(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
			unsigned int *facts)
{
	bool lock;
	const uint8_t *p = code;
	uint64_t pc = addr;
	const cs_insn *c;

	if ((d->machine != EM_X86_64 && d->machine != EM_386) || !d->cs)
		return 0;
	if (!d->cs_size) {
		if (cs_open(CS_ARCH_X86, d->machine == EM_X86_64 ? CS_MODE_64 : CS_MODE_32,
			    &d->cs_size) != CS_ERR_OK)
			return 0;
		/* as disasm_iter decodes: the same syntax, no details (they decide nothing here) */
		cs_option(d->cs_size, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
		d->ci_size = cs_malloc(d->cs_size);
	}
	*facts = 0;
	if (!d->ci_size || !cs_disasm_iter(d->cs_size, &p, &len, &pc, d->ci_size))
		return 0;
	c = d->ci_size;
	/* An exchange, a compare-and-swap, a pause, a syscall, or anything with a lock prefix. */
	lock = c->id == X86_INS_XCHG || c->id == X86_INS_CMPXCHG ||
	       c->id == X86_INS_CMPXCHG8B || c->id == X86_INS_CMPXCHG16B ||
	       c->id == X86_INS_BTS || c->id == X86_INS_PAUSE || c->id == X86_INS_SYSCALL ||
	       c->id == X86_INS_SYSENTER || c->id == X86_INS_INT ||
	       x86_64_lock_prefixed(c->bytes, c->size < sizeof(c->bytes) ? c->size : sizeof(c->bytes));
	*facts = (lock ? X86_FACT_LOCK : 0) | (x86_transfer(c->id) ? X86_FACT_BRANCH : 0);
	return (size_t)(p - code);
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	disasm_decode_ahead_end(d);
	if (d->ci_size)
		cs_free(d->ci_size, 1);
	if (d->cs_size)
		cs_close(&d->cs_size);
	if (d->cs)
		cs_close(&d->cs);
	if (d->cs_thumb)
		cs_close(&d->cs_thumb);
	free(d->clob);
	free(d);
}

static bool image_thumb(void *ctx, uint64_t addr)
{
	return elf_image_thumb(ctx, addr);
}

/*
 * An atomic that may fail and be tried again: compare-and-swap (x86
 * cmpxchg, aarch64 cas, s390 cs/cds) or store-conditional (stxr, strex,
 * stwcx./stdcx.); not an atomic add or exchange, which always succeed.
 */
static bool may_fail(const char *m)
{
	static const char *const starts_with[] = {
		"cmpxchg", "lock cmpxchg", "cas", "stxr", "stlxr", "stxp", "stlxp", "strex",
		"cs", "cds",
	};
	size_t n = strlen(m);

	for (size_t i = 0; i < sizeof(starts_with) / sizeof(starts_with[0]); i++) {
		size_t k = strlen(starts_with[i]);

		if (!strncmp(m, starts_with[i], k) && (k > 3 || n == k || m[k] == 'g' || m[k] == 'y' ||
						      m[k] == 'a' || m[k] == 'l' || m[k] == 'b' ||
						      m[k] == 'h' || m[k] == 'p'))
			return true;
	}
	return n > 3 && !strcmp(m + n - 3, "cx.");
}

int disasm_for_image(struct disasm **out, const struct elf_image *img)
{
	int err = disasm_open(out, elf_image_machine(img), elf_image_big_endian(img),
			      elf_image_toc(img));

	if (err)
		return err;
	disasm_set_got(*out, elf_image_got_target, (void *)img);
	disasm_set_thumb(*out, image_thumb, (void *)img);
	(*out)->img = img;
	return 0;
}

/*
 * The registers a call to TARGET writes (x86_64: bit per family; aarch64:
 * bit N for xN; arm: for rN), when known (a leaf read before); else all.
 */
static uint32_t callee_writes(const struct disasm *d, uint64_t target)
{
	size_t lo = 0, hi = d->nr_clob;

	if (!target || !d->share_facts)
		return UINT32_MAX;
	lo = PARTITION_POINT(lo, hi, mid, d->clob[mid].start < target);
	return lo < d->nr_clob && d->clob[lo].start == target ? d->clob[lo].written : UINT32_MAX;
}

/* Ends the function being read: its writes, kept when it calls nothing. */
static void end_function(struct disasm *d)
{
	const struct elf_section *sec;

	/* (a PLT entry jumps to another module's function, which writes what it likes) */
	if (d->cur_fn && !d->cur_calls && d->share_facts &&
	    (d->machine == EM_X86_64 || d->machine == EM_AARCH64 || d->machine == EM_ARM) &&
	    (!d->nr_clob || d->clob[d->nr_clob - 1].start < d->cur_fn) &&
	    (!d->img || !(sec = elf_image_section_at(d->img, d->cur_fn)) ||
	     strncmp(sec->name, ".plt", 4)) &&
	    !ARRAY_GROW(d->clob, d->clob_cap, d->nr_clob + 1))
		d->clob[d->nr_clob++] = (struct fn_clobber){ d->cur_fn, d->cur_written };
	d->cur_fn = 0;
	d->cur_written = 0;
	d->cur_calls = false;
}

/* A call: what the callee may change is no longer known. */
static void call_clobbers(struct disasm *d, const struct insn *in)
{
	struct regval keep[3][24];
	const struct disasm_abi *a = &d->abi;

	if (d->machine == EM_X86_64) {
		uint32_t w = callee_writes(d, in->target);

		/* x86_64: only the scratch registers lose what they held (the callee's, when known). */
		for (size_t k = 0; k < a->nr_scratch; k++) {
			if (!(w & (1u << a->scratch[k])) && a->scratch[k] != X86_RAX)
				continue;
			d->regs[a->scratch[k]].known = false;
			d->imm[a->scratch[k]].known = false;
			d->prm[a->scratch[k]].known = false;
			d->ld[a->scratch[k]].known = false;
			d->mult[a->scratch[k]] = 0;
		}
		return;
	}
	uint32_t w = d->machine == EM_AARCH64 || d->machine == EM_ARM ?
		     callee_writes(d, in->target) : UINT32_MAX;
	/* aarch64 x1-x18, arm r1-r3 and r12: the scratch registers a leaf may not write */
	unsigned int r0 = d->machine == EM_AARCH64 ? ARM64_REG_X0 : ARM_REG_R0;
	unsigned int nr = d->machine == EM_AARCH64 ? 19 : 13;
	struct regval args[3][18];

	/* ... which keep what they held when the leaf, read before, does not write them. */
	for (unsigned int r = 1; r < nr && w != UINT32_MAX; r++) {
		args[0][r - 1] = d->regs[r0 + r];
		args[1][r - 1] = d->imm[r0 + r];
		args[2][r - 1] = d->prm[r0 + r];
	}
	for (unsigned int k = 0; k < a->nr_kept; k++) {
		keep[0][k] = d->regs[a->kept[k]];
		keep[1][k] = d->imm[a->kept[k]];
		keep[2][k] = d->prm[a->kept[k]];
	}
	memset(d->regs, 0, d->nr_regs * sizeof(d->regs[0]));
	memset(d->imm, 0, d->nr_regs * sizeof(d->imm[0]));
	memset(d->prm, 0, d->nr_regs * sizeof(d->prm[0]));
	memset(d->ld, 0, d->nr_regs * sizeof(d->ld[0]));
	memset(d->out, 0, sizeof(d->out));
	for (unsigned int k = 0; k < a->nr_kept; k++) {
		d->regs[a->kept[k]] = keep[0][k];
		d->imm[a->kept[k]] = keep[1][k];
		d->prm[a->kept[k]] = keep[2][k];
	}
	for (unsigned int r = 1; r < nr && w != UINT32_MAX; r++) {
		if ((w & (1u << r)) || (d->machine == EM_ARM && r > 3 && r < 12))
			continue;	/* (arm r4-r11: kept by every call) */
		d->regs[r0 + r] = args[0][r - 1];
		d->imm[r0 + r] = args[1][r - 1];
		d->prm[r0 + r] = args[2][r - 1];
	}
}

static unsigned int snap_bucket(uint64_t target)
{
	return (unsigned int)((target * 0x9e3779b97f4a7c15ULL) >> 56) % SNAP_GONE;
}

/* Register I of the snapshots' order: the kept ones, then the scratch ones. */
static unsigned int snap_reg(const struct disasm *d, unsigned int i)
{
	return i < d->abi.nr_kept ? d->abi.kept[i] : d->abi.scratch[i - d->abi.nr_kept];
}

/* The join ring's next entry, for code where TARGET is reached another way (nothing known yet). */
static struct dis_join *join_new(struct disasm *d, uint64_t target)
{
	struct dis_join *j = &d->join[d->nr_join++ % NR_JOIN];

	j->target = target;
	j->known = 0;
	return j;
}

/* The registers of the join ring's order (the kept, then the scratch ones; at most 48). */
static unsigned int join_regs(const struct disasm *d)
{
	unsigned int n = d->abi.nr_kept + d->abi.nr_scratch;

	return n < 48 ? n : 48;
}

/* mycl-share: a forward jump: the addresses the registers hold where it goes. */
static void join_jump(struct disasm *d, const struct insn *in)
{
	struct dis_join *j = join_new(d, in->target);

	for (unsigned int i = 0; i < join_regs(d); i++) {
		const struct regval *r = &d->regs[snap_reg(d, i)];

		if (plain_addr(r)) {
			j->known |= 1ULL << i;
			j->v[i] = r->v;
		}
	}
}

/*
 * aarch64: a forward conditional branch to a block placed out of line that
 * only sets addresses (adrp, add, mov) and jumps back to code after the
 * branch (gcc -O2 moves an if's other arm past the return so): what the
 * block sets is what the registers hold there on that way, a join for
 * join_fall() where the jump goes.  Read from the bytes, nothing decoded.
 */
static void join_ahead(struct disasm *d, const struct insn *in)
{
	uint64_t val[29];
	uint32_t set = 0;

	for (unsigned int k = 0; k < 8; k++) {
		uint64_t pc = in->target + 4 * k;
		uint32_t w, rd, rn;

		if (!code_word(d, pc, &w))
			return;
		rd = w & 31;
		rn = (w >> 5) & 31;
		if ((w & 0x9f000000u) == 0x90000000u && rd < 29) {		/* adrp xD, page */
			int64_t imm = (int64_t)(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3));

			imm = (imm << 43) >> 43;	/* 21 bits, signed */
			val[rd] = (pc & ~(uint64_t)0xfff) + (uint64_t)(imm * 4096);
			set |= 1u << rd;
		} else if ((w & 0xff800000u) == 0x91000000u && rd < 29 && rn < 29) {	/* add xD, xN, #i */
			uint64_t base, imm = ((w >> 10) & 0xfff) << ((w >> 22) & 1 ? 12 : 0);
			const struct regval *r = &d->regs[ARM64_REG_X0 + rn];

			if (set & 1u << rn)
				base = val[rn];
			else if (plain_addr(r))
				base = r->v;
			else
				return;
			val[rd] = base + imm;
			set |= 1u << rd;
		} else if ((w & 0xffe0ffe0u) == 0xaa0003e0u && rd < 29 && ((w >> 16) & 31) < 29) {
			uint32_t rm = (w >> 16) & 31;		/* mov xD, xM */
			const struct regval *r = &d->regs[ARM64_REG_X0 + rm];

			if (set & 1u << rm)
				val[rd] = val[rm];
			else if (plain_addr(r))
				val[rd] = r->v;
			else
				return;
			set |= 1u << rd;
		} else if ((w & 0xfc000000u) == 0x14000000u) {		/* b back */
			int64_t off = (int64_t)((uint64_t)(w & 0x3ffffff) << 38) >> 36;
			uint64_t to = pc + (uint64_t)off;
			struct dis_join *j;

			if (!set || to <= in->addr || to >= in->target)
				return;
			j = join_new(d, to);
			for (unsigned int i = 0; i < join_regs(d); i++) {
				unsigned int r = snap_reg(d, i);

				if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28 &&
				    (set >> (r - ARM64_REG_X0) & 1)) {
					j->known |= 1ULL << i;
					j->v[i] = val[r - ARM64_REG_X0];
				}
			}
			return;
		} else {
			return;
		}
	}
}

/*
 * Falling into PC where a forward jump goes: a register holding an address
 * here and another there holds one of the two (p = c ? &b : &a at -O0).
 */
static void join_fall(struct disasm *d, uint64_t pc)
{
	for (unsigned int k = 0; k < NR_JOIN && k < d->nr_join; k++) {
		if (d->join[k].target != pc)
			continue;
		for (unsigned int i = 0; i < join_regs(d); i++) {
			struct regval *r = &d->regs[snap_reg(d, i)];

			if ((d->join[k].known >> i & 1) && plain_addr(r) && r->v != d->join[k].v[i])
				r->alt = d->join[k].v[i];
		}
		d->join[k].target = 0;
	}
}

/* A forward conditional branch: what the kept and scratch registers hold where it goes. */
static void snap_branch(struct disasm *d, const struct insn *in)
{
	unsigned int k = d->nr_snap++ % NR_SNAP;

	if (d->nr_snap > NR_SNAP)
		d->snap_gone[snap_bucket(d->snap[k].target)] = true;
	d->snap[k].target = in->target;
	d->snap[k].known = 0;
	for (unsigned int i = 0; i < d->abi.nr_kept + d->abi.nr_scratch; i++) {
		unsigned int r = snap_reg(d, i);

		if (!d->regs[r].known && !d->imm[r].known && !d->prm[r].known)
			continue;
		d->snap[k].known |= 1ULL << i;
		d->snap[k].r[i][0] = d->regs[r];
		d->snap[k].r[i][1] = d->imm[r];
		d->snap[k].r[i][2] = d->prm[r];
	}
}

/* A no-op compilers pad with between functions' blocks (x86 nop forms, int3; aarch64, ppc64le nop). */
static bool padding(const struct disasm *d, const uint8_t *p, size_t len)
{
	size_t k = 0;

	switch (d->machine) {
	case EM_X86_64:
	case EM_386:
		while (k < len && k < 4 && (p[k] == 0x66 || p[k] == 0x2e))
			k++;
		return k < len && (p[k] == 0x90 || p[k] == 0xcc ||
				   (p[k] == 0x0f && k + 1 < len && p[k + 1] == 0x1f));
	case EM_AARCH64:
		return len >= 4 && p[0] == 0x1f && p[1] == 0x20 && p[2] == 0x03 && p[3] == 0xd5;
	case EM_PPC64: {
		/* nop (ori 0,0,0) and ori 2,2,0, the alignment gcc pads with after a branch */
		uint32_t w;

		if (len < 4)
			return false;
		w = d->big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
				    (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
		return w == 0x60000000 || w == 0x60420000;
	}
	default:
		return false;
	}
}

static bool same_regval(const struct regval *a, const struct regval *b)
{
	return a->known == b->known && (!a->known || (a->v == b->v && a->indexed == b->indexed &&
						       a->idx == b->idx && a->alt == b->alt));
}

/* R keeps only what it held at the function's first branch (FIRST: its regs, imm, prm then). */
static void keep_first(struct disasm *d, unsigned int r, const struct regval first[3])
{
	if (!same_regval(&d->regs[r], &first[0]))
		d->regs[r].known = false;
	if (!same_regval(&d->imm[r], &first[1]))
		d->imm[r].known = false;
	if (!same_regval(&d->prm[r], &first[2]))
		d->prm[r].known = false;
}

/*
 * After a return or a jump back, the scratch registers (x86's: the
 * snapshots hold only kept ones) hold what the block before set (lea table,
 * %r8 in the arm that returned), not this code's, unless the function's
 * first branch saw them so (its arguments).
 */
static void scratch_restore(struct disasm *d)
{
	for (unsigned int i = 0; d->out_of_line && d->first_seen && i < d->abi.nr_scratch; i++)
		keep_first(d, d->abi.scratch[i], d->first[d->abi.nr_kept + i]);
}

/*
 * Code only branches reach (after a return or jump): what every one of the
 * branches to it held, kept and scratch registers (a value one branch's path
 * set and another's did not is no value), when all of them are in the ring.
 */
static void snap_restore(struct disasm *d, uint64_t pc)
{
	unsigned int n = d->nr_snap < NR_SNAP ? d->nr_snap : NR_SNAP, first = NR_SNAP;
	uint64_t known = 0;

	d->dirty = true;
	for (unsigned int k = 0; k < n && !d->snap_gone[snap_bucket(pc)]; k++) {
		if (d->snap[k].target != pc)
			continue;
		if (first == NR_SNAP) {
			first = k;
			known = d->snap[k].known;
			continue;
		}
		known &= d->snap[k].known;
		for (unsigned int i = 0; i < d->abi.nr_kept + d->abi.nr_scratch; i++)
			if ((known >> i & 1) && (!same_regval(&d->snap[k].r[i][0], &d->snap[first].r[i][0]) ||
						 !same_regval(&d->snap[k].r[i][1], &d->snap[first].r[i][1]) ||
						 !same_regval(&d->snap[k].r[i][2], &d->snap[first].r[i][2])))
				known &= ~(1ULL << i);
	}
	if (first < NR_SNAP) {
		for (unsigned int i = 0; i < d->abi.nr_kept + d->abi.nr_scratch; i++) {
			unsigned int r = snap_reg(d, i);

			if (!(known >> i & 1)) {
				d->regs[r].known = d->imm[r].known = d->prm[r].known = false;
				continue;
			}
			d->regs[r] = d->snap[first].r[i][0];
			d->imm[r] = d->snap[first].r[i][1];
			d->prm[r] = d->snap[first].r[i][2];
		}
		return;
	}
	scratch_restore(d);
	/*
	 * No branch seen to get here: after a forward jump (over a loop's body
	 * to its test) the body runs from the loop's back edge, with what was
	 * set before the loop.  After a return or a jump back, it is a block of
	 * its own that some branch whose snapshot is gone reaches: keep only what
	 * the registers held at the function's first branch, set on every path;
	 * a value one path set (lea in one arm, then jmp back) is not this code's.
	 */
	for (unsigned int i = 0; d->out_of_line && d->first_seen && i < d->abi.nr_kept; i++)
		keep_first(d, d->abi.kept[i], d->first[i]);
}

/* The register a plain counter's load or add filled; a branch or call ends the block. */
static void counters_after(struct disasm *d, const struct insn *in)
{
	if (d->cnt_dst) {
		d->cnt[d->cnt_dst] = d->cnt_next;
		d->cnt_dst = 0;
		d->cnt_any = true;
	}
	if (d->slf_dst) {
		d->slf[d->slf_dst] = d->slf_next;
		d->slf_dst = 0;
	}
	if ((in->branch || in->call || in->ret) && d->cnt_any) {
		memset(d->cnt, 0, d->nr_regs * sizeof(d->cnt[0]));
		d->cnt_any = false;
	}
	/* (what a value was computed from lasts past a conditional branch's fall-through) */
	if ((in->branch && (in->jump || !in->target)) || in->call || in->ret)
		memset(d->slf, 0, d->nr_regs * sizeof(d->slf[0]));
	if (in->branch || in->call || in->ret)
		d->fslot_reg = 0;
}

/* What is known at a function's entry: its arguments, nothing else. */
static void reset_state(struct disasm *d, uint64_t pc)
{
	memset(d->regs, 0, d->nr_regs * sizeof(d->regs[0]));
	memset(d->imm, 0, d->nr_regs * sizeof(d->imm[0]));
	memset(d->slots, 0, sizeof(d->slots));
	memset(d->mslots, 0, sizeof(d->mslots));
	memset(d->prm, 0, d->nr_regs * sizeof(d->prm[0]));
	memset(d->ld, 0, d->nr_regs * sizeof(d->ld[0]));
	memset(d->out, 0, sizeof(d->out));
	memset(d->cnt, 0, d->nr_regs * sizeof(d->cnt[0]));
	memset(d->slf, 0, d->nr_regs * sizeof(d->slf[0]));
	memset(d->mult, 0, d->nr_regs * sizeof(d->mult[0]));
	d->ld_dst = 0;
	d->cnt_dst = 0;
	d->slf_dst = 0;
	d->fslot_reg = 0;
	d->cnt_any = false;
	d->nr_snap = 0;
	d->nr_join = 0;
	memset(d->snap_gone, 0, sizeof(d->snap_gone));
	d->first_seen = false;
	d->no_fallthrough = false;
	d->pad = false;
	d->sp_off = 0;
	d->fp_off = 0;
	d->fp_known = false;
	d->sp_lost = false;
	d->post_reg = 0;
	d->dirty = true;
	if (d->machine == EM_ARM)
		d->thumb = d->is_thumb ? d->is_thumb(d->thumb_ctx, pc) : false;
	if (d->machine == EM_RISCV && d->toc)
		d->regs[1 + 3] = (struct regval){ .v = d->toc, .known = true };	/* gp */
	if (d->machine == EM_386) {
		/* regparm (static functions at -O2): eax, edx, ecx; cdecl ones read the stack. */
		static const unsigned int regparm[3] = { X86_RAX, 4, 3 };

		for (uint8_t k = 0; k < 3 && (k == 0 || d->share_facts); k++)
			d->prm[regparm[k]] = (struct regval){ .known = true, .idx = k };
		return;
	}
	if (d->machine == EM_X86_64) {
		static const unsigned int args[6] = { 6, 5, 4, 3, 9, 10 };

		d->prm[X86_RDI].known = true;	/* the first argument, at the function's entry */
		for (uint8_t k = 1; d->share_facts && k < 6; k++) {
			d->prm[args[k]].known = true;
			d->prm[args[k]].idx = k;
		}
		return;
	}
	/* (aarch64's atomic helpers, __aarch64_swp4_acq(v, p): every argument, for locks too) */
	for (uint8_t k = 0; k < d->abi.nr_args && (k == 0 || d->share_facts ||
						   (d->lock_facts && d->machine == EM_AARCH64)); k++) {
		d->prm[d->abi.args[k]].known = true;
		d->prm[d->abi.args[k]].idx = k;
	}
}

/* Calls, branches and returns that capstone does not group, by mnemonic. */
static void control(const struct disasm *d, const cs_insn *ci, struct insn *in)
{
	const char *m = ci->mnemonic;

	if (d->machine == EM_AARCH64 && (!strcmp(m, "bl") || !strcmp(m, "blr")))
		in->call = true;
	if ((d->machine == EM_PPC64 || d->machine == EM_S390) &&
	    (!strcmp(m, "bl") || !strcmp(m, "bla") || !strcmp(m, "brasl") || !strcmp(m, "bras")))
		in->call = true;
	if (d->machine == EM_ARM && (!strcmp(m, "bl") || !strcmp(m, "blx")))
		in->call = true, in->branch = false;
	/* Unconditional branches: b (ppc64), j, jg (s390x). */
	if ((d->machine == EM_PPC64 && (!strcmp(m, "b") || !strcmp(m, "ba") || !strcmp(m, "bctr"))) ||
	    (d->machine == EM_S390 && (!strcmp(m, "j") || !strcmp(m, "jg"))))
		in->jump = in->branch = true;
	/*
	 * ppc64: capstone 4 groups neither conditional branches (beq, bdnz+...)
	 * nor returns: blr returns, b<cond> with a target branches.
	 */
	/* s390x: j<cond>, jg<cond>, brc, brct are branches; br %r14 returns. */
	if (d->machine == EM_S390) {
		if (m[0] == 'j' || !strcmp(m, "brc") || !strcmp(m, "brcl") || starts(m, "brct"))
			in->branch = true;
		bool r14 = ci->detail->sysz.op_count == 1 &&
			   ci->detail->sysz.operands[0].type == SYSZ_OP_REG &&
			   ci->detail->sysz.operands[0].reg == SYSZ_REG_14;
		size_t l = strlen(m);

		if (!strcmp(m, "br") && r14)
			in->ret = true, in->branch = false;
		else if (!strcmp(m, "br"))
			in->jump = in->branch = true;
		else if (r14 && m[0] == 'b' && l >= 3 && m[l - 1] == 'r' && strcmp(m, "basr"))
			in->cond_ret = true;	/* ber %r14: returns when equal */
	}
	if (d->machine == EM_PPC64 && m[0] == 'b') {
		size_t l = strlen(m);

		/* (a branch hint's + or - left out) */
		while (l > 1 && (m[l - 1] == '+' || m[l - 1] == '-'))
			l--;
		if (!strcmp(m, "blr"))
			in->ret = true;
		else if (l >= 4 && m[l - 2] == 'l' && m[l - 1] == 'r')
			in->cond_ret = true;	/* beqlr, bdnzlr: returns when the condition holds */
		else if (!strcmp(m, "bctrl"))
			in->call = true;
		else if (!in->call && !in->jump && l >= 2 && m[l - 1] != 'l' &&
			 (m[l - 1] != 'r' || m[l - 2] != 'l') && strcmp(m, "bctr"))
			in->branch = true;
	}
}

static const struct call_result *call_result_at(const struct disasm *d, uint64_t at)
{
	size_t lo = 0, hi = d->nr_cr;

	lo = PARTITION_POINT(lo, hi, mid, d->cr[mid].at < at);
	return lo < d->nr_cr && d->cr[lo].at == at ? &d->cr[lo] : NULL;
}

/* The kept and scratch registers as the function's first branch finds them. */
static void save_first(struct disasm *d)
{
	for (unsigned int i = 0; i < d->abi.nr_kept + d->abi.nr_scratch; i++) {
		unsigned int r = i < d->abi.nr_kept ? d->abi.kept[i] : d->abi.scratch[i - d->abi.nr_kept];

		d->first[i][0] = d->regs[r];
		d->first[i][1] = d->imm[r];
		d->first[i][2] = d->prm[r];
	}
	d->first_seen = true;
}

/* After an instruction: the branch snapshots, and whether the next one is reached by falling in. */
static void after(struct disasm *d, struct insn *in)
{
	const struct regval *r = d->abi.ret ? &d->regs[d->abi.ret] : NULL;

	if (in->ret && r && r->known) {
		in->ret_value = r->v;
		in->ret_alt = r->alt;
		in->ret_indexed = r->indexed;
	}
	const struct call_result *c;

	if (in->call && d->nr_cr && d->abi.ret && (c = call_result_at(d, in->addr))) {
		dis_set_addr(d, d->abi.ret, c->value, c->indexed);
		d->regs[d->abi.ret].alt = c->alt;
	}
	if (!d->first_seen && (in->branch || in->jump || in->ret) && !in->call)
		save_first(d);
	if (in->branch && !in->jump && !in->call && in->target > in->addr)
		snap_branch(d, in);
	if (d->share_facts && in->jump && !in->call && in->target > in->addr)
		join_jump(d, in);
	if (d->share_facts && d->machine == EM_AARCH64 && !d->big_endian && in->branch && !in->jump &&
	    !in->call && in->target > in->addr)
		join_ahead(d, in);
	if (d->pad) {
		d->pad = false;		/* still after the jump */
		return;
	}
	d->no_fallthrough = in->ret || (in->jump && !in->call);
	d->out_of_line = in->ret || (in->jump && !in->call && (!in->target || in->target <= in->addr));
}

/* Bytes passed over where no instruction decodes (data in code, padding). */
static size_t skip_bytes(const struct disasm *d)
{
	return d->machine == EM_X86_64 || d->machine == EM_386 ? 1 :
	       d->machine == EM_S390 || (d->machine == EM_ARM && d->thumb) ? 2 : 4;
}

/* x86_64's common instructions decoded by x86_quick(): its walks need no text. */
static bool quick(const struct disasm *d)
{
	return d->machine == EM_X86_64 && d->no_text && !d->no_quick;
}

/*
 * The next instruction at *P (*PC, *LEN advanced past it, as capstone's
 * iterator does): from the decoders ahead where their walk went, else
 * decoded here into CI.  NULL where none decodes.
 */
static const cs_insn *decode(struct disasm *d, struct dis_ahead *ahead, const uint8_t **p,
			     size_t *len, uint64_t *pc, cs_insn *ci, cs_insn *ct, cs_insn *qi,
			     cs_detail *qdet)
{
	const cs_insn *c;
	size_t n;

	if (ahead && dis_ahead_next(ahead, *pc, &c)) {
		if (c) {
			*p += c->size;
			*pc += c->size;
			*len -= c->size;
		}
		return c;
	}
	if (quick(d) && (n = x86_quick(*p, *len, *pc, qi, qdet))) {
		*p += n;
		*pc += n;
		*len -= n;
		return qi;
	}
	c = d->machine == EM_ARM && d->thumb ? ct : ci;
	return cs_disasm_iter(d->machine == EM_ARM && d->thumb ? d->cs_thumb : d->cs, p, len, pc,
			      (cs_insn *)c) ? c : NULL;
}

/*
 * Decoders ahead of the N spans of V, or NULL (not for ARM's two modes; nor
 * where x86_quick decodes nine instructions in ten, in a twentieth of
 * capstone's time: the threads' hand-over would cost more than the
 * capstone decoding left, mariadbd's mycl-share 1.71 s against 1.43 s).
 */
static struct dis_ahead *start_ahead(const struct disasm *d, const struct dis_span *v, size_t n)
{
	return d->cs && d->machine != EM_ARM && !quick(d) ?
		dis_ahead_start((cs_arch)d->cs_arch, (cs_mode)d->cs_mode,
				d->machine == EM_X86_64 || d->machine == EM_386, v, n, skip_bytes(d)) :
		NULL;
}

void disasm_decode_ahead(struct disasm *d, const struct dis_span *v, size_t n)
{
	disasm_decode_ahead_end(d);
	d->ahead = start_ahead(d, v, n);
}

void disasm_decode_ahead_end(struct disasm *d)
{
	dis_ahead_stop(d->ahead);
	d->ahead = NULL;
}

int disasm_iter(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		int (*fn)(const struct insn *in, void *arg), void *arg)
{
	cs_insn *ci = d->cs ? cs_malloc(d->cs) : NULL;
	cs_insn *ct = d->cs_thumb ? cs_malloc(d->cs_thumb) : NULL;
	const uint8_t *p = code;
	uint64_t pc = addr;
	size_t next = 0;
	int err = 0;
	struct dis_ahead *own = NULL, *ahead = NULL;
	size_t span;
	cs_insn qi;			/* what x86_quick decodes */
	cs_detail qdet;

	/*
	 * One of the spans disasm_decode_ahead() set going, or a long range of
	 * its own (a whole .text): capstone's part on other threads.
	 */
	if (d->ahead && (span = dis_ahead_find(d->ahead, code, len, addr)) != DIS_AHEAD_NONE) {
		ahead = d->ahead;
		dis_ahead_span(ahead, span);
	} else if ((own = start_ahead(d, &(struct dis_span){ code, len, addr }, 1))) {
		ahead = own;
		dis_ahead_span(ahead, 0);
	}

	if ((d->cs && !ci) || (d->cs_thumb && !ct)) {
		err = -ENOMEM;
		goto out;
	}
	d->code = code;
	d->code_len = len;
	d->code_addr = addr;
	reset_state(d, pc);
	while (next < d->nr_starts && d->starts[next] < pc)
		next++;
	while (len && !err) {
		struct insn in;
		const cs_insn *c;
		size_t skip, here;
		bool unknown;

		memset(&in, 0, d->no_text ? INSN_NO_TEXT_SIZE : sizeof(in));
		in.sysno = -1;
		/* A function starts here: nothing known from the code before it. */
		if (next < d->nr_starts && d->starts[next] <= pc) {
			if (d->starts[next] == pc) {
				end_function(d);
				reset_state(d, pc);
				d->cur_fn = pc;
			}
			while (next < d->nr_starts && d->starts[next] <= pc)
				next++;
		}
		/* Padding after a jump belongs to no block: the code after it does. */
		if (d->no_fallthrough && padding(d, p, len)) {
			d->pad = true;
		} else if (d->no_fallthrough) {
			snap_restore(d, pc);
			d->no_fallthrough = false;
		} else if (d->nr_join) {
			join_fall(d, pc);
		}
		/*
		 * Decoded here, not by capstone: riscv64 (capstone 4 has none),
		 * aarch64's ARMv8.1 atomics (capstone 4 skips them).
		 */
		here = d->machine == EM_RISCV ? riscv(d, p, len, pc, &in) : 0;
		c = here || d->machine == EM_RISCV ? NULL :
		    decode(d, ahead, &p, &len, &pc, ci, ct, &qi, &qdet);
		if (!c && !here && d->machine == EM_AARCH64)
			here = arm64_lse(d, p, len, pc, &in);
		if (here) {
			d->dirty = true;
			p += here, pc += here, len -= here;
			if (in.call)
				call_clobbers(d, &in);
			counters_after(d, &in);
			after(d, &in);
			err = fn(&in, arg);
			continue;
		}
		if (!c && d->machine == EM_RISCV) {
			skip = 2;
			goto skip;
		}
		if (!c) {
			/* Not an instruction (data in code, padding): skip its bytes. */
			skip = skip_bytes(d);
skip:
			if (skip > len)
				break;
			/* ppc64: an instruction capstone 4 does not know forgets what it may write. */
			unknown = d->machine == EM_PPC64 && skip == 4 &&
				  ppc_unknown(d, p);
			p += skip;
			pc += skip;
			len -= skip;
			if (d->dirty && !unknown) {
				memset(d->regs, 0, d->nr_regs * sizeof(d->regs[0]));
				memset(d->imm, 0, d->nr_regs * sizeof(d->imm[0]));
				memset(d->cnt, 0, d->nr_regs * sizeof(d->cnt[0]));
				memset(d->slf, 0, d->nr_regs * sizeof(d->slf[0]));
				memset(d->mult, 0, d->nr_regs * sizeof(d->mult[0]));
				d->fslot_reg = 0;
				d->dirty = false;
			}
			d->pad = false;
			continue;
		}
		d->dirty = true;
		in.addr = c->address;
		in.size = (uint8_t)c->size;
		if (!d->no_text)
			snprintf(in.text, sizeof(in.text), "%-7s %s", c->mnemonic, c->op_str);
		/* Its groups, read once (cs_insn_group per group would walk them three times). */
		for (uint8_t g = 0; g < c->detail->groups_count; g++) {
			in.branch |= c->detail->groups[g] == CS_GRP_JUMP;
			in.call |= c->detail->groups[g] == CS_GRP_CALL;
			in.ret |= c->detail->groups[g] == CS_GRP_RET;
		}
		control(d, c, &in);
		switch (d->machine) {
		case EM_X86_64: case EM_386: x86(d, c, &in); break;
		case EM_AARCH64: arm64(d, c, &in); break;
		case EM_PPC64: ppc(d, c, &in, p - c->size); break;
		case EM_S390: s390(d, c, &in); break;
		case EM_ARM: arm(d, c, &in); break;
		default: break;
		}
		if (in.atomic)
			in.may_fail = may_fail(c->mnemonic);
		/* A call, or a jump out of the function (a tail call): its callees' writes unknown. */
		if (d->cur_fn && (in.call || ((in.jump || in.branch) &&
					      (!in.target || in.target < d->cur_fn ||
					       (next < d->nr_starts && in.target >= d->starts[next])))))
			d->cur_calls = true;
		if (in.call)
			call_clobbers(d, &in);
		counters_after(d, &in);
		if (d->post_reg) {
			dis_set_addr(d, d->post_reg, d->post_val, false);
			d->post_reg = 0;
		}
		after(d, &in);
		err = fn(&in, arg);
	}
out:
	dis_ahead_stop(own);
	if (ci)
		cs_free(ci, 1);
	if (ct)
		cs_free(ct, 1);
	return err;
}

struct collect {
	struct insn *v;
	size_t n, cap;
	bool no_text;
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
	if (c->no_text) {
		/* (a third of an instruction is its text: not copied when there is none) */
		memcpy(&c->v[c->n], in, offsetof(struct insn, text));
		c->v[c->n++].text[0] = '\0';
	} else {
		c->v[c->n++] = *in;
	}
	return 0;
}

int disasm_range_into(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		      struct insn **v, size_t *cap, size_t *n)
{
	struct collect c = { .v = *v, .cap = *cap, .no_text = d->no_text };
	int err = disasm_iter(d, code, len, addr, collect_one, &c);

	*v = c.v;
	*cap = c.cap;
	*n = err ? 0 : c.n;
	return err;
}

int disasm_range(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		 struct insn **out, size_t *n)
{
	size_t cap = 0;
	int err;

	*out = NULL;
	err = disasm_range_into(d, code, len, addr, out, &cap, n);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
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

void disasm_set_type_facts(struct disasm *d, bool on)
{
	d->type_facts = on;
}

void disasm_set_call_results(struct disasm *d, const struct call_result *v, size_t n)
{
	d->cr = v;
	d->nr_cr = n;
}

void disasm_set_starts(struct disasm *d, const uint64_t *starts, size_t n)
{
	d->starts = starts;
	d->nr_starts = n;
}

