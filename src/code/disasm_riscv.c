/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * riscv64 (RV64GC): capstone 4 has no RISC-V, so the instructions that move
 * addresses, touch memory and change control flow are decoded here from the
 * ISA manual's encodings; anything else only forgets the register it writes.
 * Globals are reached by auipc + addi/ld/sd pairs, or from gp
 * (__global_pointer$) in programs at a fixed address.  Register xN is id N+1.
 */
#include "disasm_regs.h"

#define X(n) ((unsigned int)(n) + 1)

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
	"a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
	"t5", "t6",
};

static int64_t sext(uint64_t v, unsigned int bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* A decoded instruction, in the few shapes the analyses need. */
struct rv {
	char mn[12];
	unsigned int rd, rs1, rs2;	/* x numbers; rd 32: none */
	int64_t imm;
	enum { K_OTHER, K_LUI, K_AUIPC, K_ADDI, K_ADD, K_MV, K_LI, K_LOAD, K_STORE, K_AMO, K_LR,
	       K_SC, K_JAL, K_JALR, K_BRANCH, K_ECALL, K_FLOAD, K_FSTORE, K_FP } k;
	bool counter;			/* amoadd */
	bool addiw;			/* addiw, c.addiw: rd = rs1 + imm, 32 bits */
};

static void decode32(uint32_t w, struct rv *r)
{
	static const char *const ld[8] = { "lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", NULL };
	static const char *const st[4] = { "sb", "sh", "sw", "sd" };
	static const char *const br[8] = { "beq", "bne", NULL, NULL, "blt", "bge", "bltu", "bgeu" };
	static const char *const opi[8] = { "addi", "slli", "slti", "sltiu", "xori", "srli", "ori",
					     "andi" };
	static const char *const op[8] = { "add", "sll", "slt", "sltu", "xor", "srl", "or", "and" };
	unsigned int opc = w & 0x7f, f3 = (w >> 12) & 7, f7 = w >> 25;
	int64_t immi = sext(w >> 20, 12);

	r->rd = (w >> 7) & 31;
	r->rs1 = (w >> 15) & 31;
	r->rs2 = (w >> 20) & 31;
	switch (opc) {
	case 0x37: case 0x17:
		r->k = opc == 0x37 ? K_LUI : K_AUIPC;
		r->imm = sext(w & 0xfffff000u, 32);
		strcpy(r->mn, opc == 0x37 ? "lui" : "auipc");
		break;
	case 0x6f:
		r->k = K_JAL;
		r->imm = sext(((w >> 31) & 1) << 20 | ((w >> 12) & 0xff) << 12 | ((w >> 20) & 1) << 11 |
			      ((w >> 21) & 0x3ff) << 1, 21);
		strcpy(r->mn, "jal");
		break;
	case 0x67:
		r->k = K_JALR;
		r->imm = immi;
		strcpy(r->mn, "jalr");
		break;
	case 0x63:
		r->k = K_BRANCH;
		r->rd = 32;
		r->imm = sext(((w >> 31) & 1) << 12 | ((w >> 7) & 1) << 11 | ((w >> 25) & 0x3f) << 5 |
			      ((w >> 8) & 0xf) << 1, 13);
		snprintf(r->mn, sizeof(r->mn), "%s", br[f3] ? br[f3] : "b?");
		break;
	case 0x03:
		r->k = ld[f3] ? K_LOAD : K_OTHER;
		r->imm = immi;
		snprintf(r->mn, sizeof(r->mn), "%s", ld[f3] ? ld[f3] : "l?");
		break;
	case 0x07: case 0x27:
		r->k = opc == 0x07 ? K_FLOAD : K_FSTORE;
		r->imm = opc == 0x07 ? immi : sext((w >> 25) << 5 | ((w >> 7) & 31), 12);
		snprintf(r->mn, sizeof(r->mn), "%s", opc == 0x07 ? (f3 == 3 ? "fld" : "flw") :
								    (f3 == 3 ? "fsd" : "fsw"));
		r->rd = 32;
		break;
	case 0x23:
		r->k = f3 < 4 ? K_STORE : K_OTHER;
		r->rd = 32;
		r->imm = sext((w >> 25) << 5 | ((w >> 7) & 31), 12);
		snprintf(r->mn, sizeof(r->mn), "%s", f3 < 4 ? st[f3] : "s?");
		break;
	case 0x13:
		r->imm = f3 == 1 || f3 == 5 ? (int64_t)((w >> 20) & 63) : immi;
		snprintf(r->mn, sizeof(r->mn), "%s", f3 == 5 && (w >> 30) ? "srai" : opi[f3]);
		if (f3 == 0)
			r->k = r->rs1 == 0 ? K_LI : r->imm == 0 ? K_MV : K_ADDI;
		break;
	case 0x1b:
		r->imm = immi;
		strcpy(r->mn, f3 == 0 ? "addiw" : "opimm32");
		r->addiw = f3 == 0;
		break;
	case 0x33:
		snprintf(r->mn, sizeof(r->mn), "%s", f7 == 1 ? "mul" : f3 == 0 && f7 == 0x20 ? "sub" :
						       op[f3]);
		r->k = f3 == 0 && f7 == 0 ? K_ADD : K_OTHER;
		break;
	case 0x3b:
		strcpy(r->mn, "op32");
		break;
	case 0x2f: {
		unsigned int f5 = w >> 27;
		static const char *const amo[32] = {
			[0] = "amoadd", [1] = "amoswap", [2] = "lr", [3] = "sc", [4] = "amoxor",
			[8] = "amoor", [12] = "amoand", [16] = "amomin", [20] = "amomax",
			[24] = "amominu", [28] = "amomaxu",
		};

		snprintf(r->mn, sizeof(r->mn), "%s.%c", amo[f5] ? amo[f5] : "amo?", f3 == 3 ? 'd' : 'w');
		r->k = f5 == 2 ? K_LR : f5 == 3 ? K_SC : K_AMO;
		r->counter = f5 == 0;
		r->imm = 0;
		break;
	}
	case 0x73:
		r->k = w == 0x73 ? K_ECALL : K_OTHER;
		strcpy(r->mn, w == 0x73 ? "ecall" : "system");
		if (w == 0x73)
			r->rd = 32;
		break;
	case 0x0f:
		strcpy(r->mn, "fence");
		r->rd = 32;
		break;
	case 0x43: case 0x47: case 0x4b: case 0x4f: case 0x53:
		strcpy(r->mn, "fp");
		r->k = K_FP;	/* writes an FP register, or an integer one (fmv.x, fcvt, feq) */
		break;
	default:
		strcpy(r->mn, ".word");
		r->rd = 32;
		break;
	}
}

static void decode16(uint16_t h, struct rv *r)
{
	unsigned int q = h & 3, f3 = h >> 13;
	unsigned int rdp = ((h >> 2) & 7) + 8, rs1p = ((h >> 7) & 7) + 8;
	unsigned int rd = (h >> 7) & 31, rs2 = (h >> 2) & 31;
	int64_t imm6 = sext(((h >> 12) & 1) << 5 | ((h >> 2) & 31), 6);

	r->rd = 32;
	strcpy(r->mn, "c.?");
	if (q == 0) {
		uint64_t u8 = ((h >> 10) & 7) << 3 | ((h >> 5) & 3) << 6;	/* c.ld, c.sd */
		uint64_t u4 = ((h >> 10) & 7) << 3 | ((h >> 6) & 1) << 2 | ((h >> 5) & 1) << 6;

		r->rs1 = rs1p;
		r->rs2 = rdp;
		switch (f3) {
		case 0: r->rd = rdp; strcpy(r->mn, "c.addi4spn"); break;
		case 1: r->k = K_FLOAD; r->imm = (int64_t)u8; strcpy(r->mn, "c.fld"); break;
		case 2: r->k = K_LOAD; r->rd = rdp; r->imm = (int64_t)u4; strcpy(r->mn, "c.lw"); break;
		case 3: r->k = K_LOAD; r->rd = rdp; r->imm = (int64_t)u8; strcpy(r->mn, "c.ld"); break;
		case 5: r->k = K_FSTORE; r->imm = (int64_t)u8; strcpy(r->mn, "c.fsd"); break;
		case 6: r->k = K_STORE; r->imm = (int64_t)u4; strcpy(r->mn, "c.sw"); break;
		case 7: r->k = K_STORE; r->imm = (int64_t)u8; strcpy(r->mn, "c.sd"); break;
		default: break;
		}
		return;
	}
	if (q == 1) {
		switch (f3) {
		case 0:
			r->k = rd ? K_ADDI : K_OTHER, r->rd = rd, r->rs1 = rd, r->imm = imm6;
			strcpy(r->mn, "c.addi");
			break;
		case 1: r->rd = rd, r->rs1 = rd, r->addiw = rd != 0; strcpy(r->mn, "c.addiw"); break;
		case 2: r->k = K_LI, r->rd = rd, r->rs1 = 0, r->imm = imm6; strcpy(r->mn, "c.li"); break;
		case 3:
			if (rd == 2) {
				r->rd = 2;
				strcpy(r->mn, "c.addi16sp");
			} else {
				r->k = K_LUI, r->rd = rd, r->imm = imm6 * 4096;
				strcpy(r->mn, "c.lui");
			}
			break;
		case 4: r->rd = rs1p; strcpy(r->mn, "c.alu"); break;
		case 5:
			r->k = K_JAL, r->rd = 0;
			r->imm = sext(((h >> 12) & 1) << 11 | ((h >> 11) & 1) << 4 | ((h >> 9) & 3) << 8 |
				      ((h >> 8) & 1) << 10 | ((h >> 7) & 1) << 6 | ((h >> 6) & 1) << 7 |
				      ((h >> 3) & 7) << 1 | ((h >> 2) & 1) << 5, 12);
			strcpy(r->mn, "c.j");
			break;
		default:
			r->k = K_BRANCH, r->rs1 = rs1p, r->rs2 = 0;
			r->imm = sext(((h >> 12) & 1) << 8 | ((h >> 10) & 3) << 3 | ((h >> 5) & 3) << 6 |
				      ((h >> 3) & 3) << 1 | ((h >> 2) & 1) << 5, 9);
			strcpy(r->mn, f3 == 6 ? "c.beqz" : "c.bnez");
			break;
		}
		return;
	}
	if (q == 2) {
		switch (f3) {
		case 0: r->rd = rd; strcpy(r->mn, "c.slli"); break;
		case 2: case 3: r->rd = rd; strcpy(r->mn, f3 == 2 ? "c.lwsp" : "c.ldsp"); break;
		case 4:
			if (!((h >> 12) & 1)) {
				if (!rs2) {
					r->k = K_JALR, r->rd = 0, r->rs1 = rd, r->imm = 0;
					strcpy(r->mn, "c.jr");
				} else {
					r->k = K_MV, r->rd = rd, r->rs1 = rs2, r->imm = 0;
					strcpy(r->mn, "c.mv");
				}
			} else if (!rs2 && rd) {
				r->k = K_JALR, r->rd = 1, r->rs1 = rd, r->imm = 0;
				strcpy(r->mn, "c.jalr");
			} else if (rs2) {
				r->k = K_ADD, r->rd = rd, r->rs1 = rd, r->rs2 = rs2;
				strcpy(r->mn, "c.add");
			} else {
				strcpy(r->mn, "c.ebreak");
			}
			break;
		default:
			strcpy(r->mn, f3 == 1 ? "c.fldsp" : "c.sdsp");	/* stores to the stack */
			break;
		}
		return;
	}
}

static void text(const struct rv *r, uint64_t pc, struct insn *in, uint32_t raw, bool c)
{
	const char *rd = r->rd < 32 ? reg_names[r->rd] : "";

	switch (r->k) {
	case K_LOAD: case K_FLOAD:
		snprintf(in->text, sizeof(in->text), "%-7s %s, %lld(%s)", r->mn, rd, (long long)r->imm,
			 reg_names[r->rs1]);
		break;
	case K_STORE: case K_FSTORE:
		snprintf(in->text, sizeof(in->text), "%-7s %s, %lld(%s)", r->mn, reg_names[r->rs2],
			 (long long)r->imm, reg_names[r->rs1]);
		break;
	case K_LUI: case K_AUIPC:
		snprintf(in->text, sizeof(in->text), "%-7s %s, 0x%llx", r->mn, rd,
			 (unsigned long long)((uint64_t)r->imm >> 12) & 0xfffff);
		break;
	case K_JAL: case K_BRANCH:
		snprintf(in->text, sizeof(in->text), "%-7s 0x%llx", r->mn,
			 (unsigned long long)(pc + (uint64_t)r->imm));
		break;
	case K_JALR:
		snprintf(in->text, sizeof(in->text), "%-7s %lld(%s)", r->mn, (long long)r->imm,
			 reg_names[r->rs1]);
		break;
	case K_AMO: case K_LR: case K_SC:
		snprintf(in->text, sizeof(in->text), "%-7s %s, %s, (%s)", r->mn, rd, reg_names[r->rs2],
			 reg_names[r->rs1]);
		break;
	case K_ADDI: case K_LI: case K_MV:
		snprintf(in->text, sizeof(in->text), "%-7s %s, %s, %lld", r->mn, rd, reg_names[r->rs1],
			 (long long)r->imm);
		break;
	case K_ADD:
		snprintf(in->text, sizeof(in->text), "%-7s %s, %s, %s", r->mn, rd, reg_names[r->rs1],
			 reg_names[r->rs2]);
		break;
	default:
		snprintf(in->text, sizeof(in->text), "%-7s 0x%0*x", r->mn, c ? 4 : 8, raw);
		break;
	}
}

size_t riscv(struct disasm *d, const uint8_t *p, size_t len, uint64_t pc, struct insn *in)
{
	struct rv r = { .rd = 32 };
	size_t n = len >= 2 && (p[0] & 3) != 3 ? 2 : 4;
	uint32_t raw;
	unsigned int rd;
	struct regval base;
	uint8_t acc = ACC_NONE;

	if (len < n || len < 2)
		return 0;
	raw = n == 2 ? (uint32_t)(p[0] | p[1] << 8) :
		       (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if (n == 2 && !raw)
		return 0;		/* c.unimp: padding */
	if (n == 2)
		decode16((uint16_t)raw, &r);
	else
		decode32(raw, &r);
	in->addr = pc;
	in->size = (uint8_t)n;
	if (!d->no_text)
		text(&r, pc, in, raw, n == 2);
	rd = r.rd < 32 && r.rd ? X(r.rd) : 0;
	base = r.rs1 ? d->regs[X(r.rs1)] : (struct regval){ .v = 0, .known = true };
	switch (r.k) {
	case K_JAL:
		in->target = pc + (uint64_t)r.imm;
		if (r.rd == 1)
			in->call = true;
		else if (!r.rd)
			in->branch = in->jump = true;
		break;
	case K_JALR:
		if (r.rd == 1)
			in->call = true;
		else if (!r.rd && r.rs1 == 1 && !r.imm)
			in->ret = true;
		else if (!r.rd)
			in->branch = in->jump = true;
		if (base.known)
			in->target = base.v + (uint64_t)r.imm;
		break;
	case K_BRANCH:
		in->branch = true;
		in->target = pc + (uint64_t)r.imm;
		break;
	case K_ECALL:
		in->syscall = true;
		in->sysno = d->imm[X(17)].known ? (int32_t)d->imm[X(17)].v : -1;
		break;
	case K_LOAD: case K_FLOAD:
		acc = ACC_READ;
		break;
	case K_STORE: case K_FSTORE:
		acc = ACC_WRITE;
		break;
	case K_AMO:
		acc = ACC_RMW;
		in->atomic = true;
		in->atomic_op = r.counter ? ATOM_ARITH : ATOM_XCHG;
		in->counter_op = r.counter;
		break;
	case K_LR:
		acc = ACC_READ;
		in->atomic = true;
		in->atomic_op = ATOM_LL;
		dis_ll(d, rd);
		break;
	case K_SC:
		acc = ACC_RMW;
		in->atomic = true;
		in->atomic_op = ATOM_SC;
		in->may_fail = true;
		in->counter_op = dis_sc(d) && d->share_facts;
		break;
	case K_OTHER:
		if (r.addiw && rd && d->share_facts)
			dis_cnt_arith(d, X(r.rs1), 0, rd);
		break;
	case K_ADD: case K_ADDI:
		if (rd)
			dis_ll_arith(d, X(r.rs1), r.k == K_ADD ? X(r.rs2) : 0, rd);
		break;
	default:
		break;
	}
	if (in->call && d->share_facts)
		dis_call_args(d, in);
	else if (in->jump && d->share_facts)
		dis_zero_args(d, in);	/* a tail call: its constant zeros (select(0, ...)) */
	if (in->call && d->regs[X(10)].known)
		in->arg0 = d->regs[X(10)].v;
	if (acc) {
		in->mem = true;
		in->mem_base = (uint16_t)X(r.rs1);
		in->mem_disp = r.imm;
		in->stack_mem = r.rs1 == 2 || r.rs1 == 8;
		in->plain_store = acc == ACC_WRITE;
		if (r.rs1)
			dis_mem_prm(d, in, X(r.rs1), r.imm, acc);
		if (base.known && r.rs1) {
			uint64_t t;

			in->data = base.v + (uint64_t)r.imm;
			in->access = acc;
			in->indexed = base.indexed;
			/* ld rN, var; addi rN, rN, 1; sd rN, var: a plain counter. */
			if (r.k == K_LOAD && rd)
				dis_cnt_mem(d, in, rd, ACC_READ);
			else if (r.k == K_STORE && r.rs2)
				dis_cnt_mem(d, in, X(r.rs2), ACC_WRITE);
			/* ld rd, ptr, ptr = &foo in the program's data: rd holds &foo. */
			if (r.k == K_LOAD && rd && !in->indexed && !strcmp(r.mn, "ld") &&
			    (t = dis_data_pointer(d, in->data))) {
				dis_set_addr(d, rd, t, false);
				return n;
			}
			/* ld rd, slot: rd holds what the GOT slot points to. */
			if (r.k == K_LOAD && rd && !in->indexed && (t = dis_got(d, in->data))) {
				in->data = t;
				in->access = ACC_ADDR;
				dis_set_addr(d, rd, t, false);
				return n;
			}
		}
	}
	/* sd rS, d(rB): a pointer kept in memory (not in the frame). */
	if (r.k == K_STORE && r.rs2 && (!strcmp(r.mn, "sd") || !strcmp(r.mn, "c.sd")))
		dis_stored(d, in, X(r.rs2), r.rs1 == 2 || r.rs1 == 8);
	/* sd/ld rN, d(sp|s0) (-O0 spills): what the frame slot holds. */
	if (r.k == K_STORE && (r.rs1 == 2 || r.rs1 == 8) && r.rs2)
		dis_slot(d, true, X(r.rs2), X(r.rs1), r.imm, !strcmp(r.mn, "sd") || !strcmp(r.mn, "c.sd"));
	if (!rd || r.k == K_FLOAD || r.k == K_FSTORE || r.k == K_STORE)
		return n;
	if (r.k == K_LOAD && (r.rs1 == 2 || r.rs1 == 8)) {
		dis_forget(d, rd);
		dis_slot(d, false, rd, X(r.rs1), r.imm, !strcmp(r.mn, "ld") || !strcmp(r.mn, "c.ld"));
		return n;
	}
	switch (r.k) {
	case K_LUI:
		dis_set_imm(d, rd, (uint64_t)r.imm);
		d->regs[rd] = (struct regval){ .v = (uint64_t)r.imm, .known = true };
		break;
	case K_AUIPC:
		dis_set_addr(d, rd, pc + (uint64_t)r.imm, false);
		break;
	case K_LI:
		dis_set_imm(d, rd, (uint64_t)r.imm);
		break;
	case K_MV:
		dis_copy(d, rd, X(r.rs1));
		break;
	case K_ADDI:
		if (base.known) {
			in->data = base.v + (uint64_t)r.imm;
			in->access = ACC_ADDR;
			dis_set_addr(d, rd, in->data, base.indexed);
		} else if (d->prm[X(r.rs1)].known) {
			struct regval pv = d->prm[X(r.rs1)];

			pv.v += (uint64_t)r.imm;
			dis_forget(d, rd);
			d->prm[rd] = pv;
		} else {
			dis_forget(d, rd);
		}
		break;
	case K_ADD: {
		struct regval a = d->regs[X(r.rs1)], b = d->regs[X(r.rs2)];

		if (r.rs1 && r.rs2 && a.known != b.known)
			dis_set_addr(d, rd, a.known ? a.v : b.v, true);
		else
			dis_forget(d, rd);
		break;
	}
	default:
		dis_forget(d, rd);
		break;
	}
	return n;
}
