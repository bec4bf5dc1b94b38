/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Instruction lengths of x86_64 code without a full decoder: legacy and REX
 * prefixes, the one-, two- and three-byte opcode maps, ModRM, SIB,
 * displacements and immediates, from the Intel SDM's opcode tables (vol. 2,
 * appendix A); VEX, EVEX and x87 are left to capstone.  Only what a scan for
 * lock facts needs: it says "maybe" for anything it does not know or capstone 4
 * reads otherwise, so an answer of "none" is one capstone would give.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "x86len.h"

/* One-byte map: how an opcode goes on. */
enum {
	X_BAD,			/* invalid in 64-bit mode, a prefix handled before, or not known */
	X_NONE,			/* no operand bytes */
	X_M,			/* ModRM */
	X_M_I8,			/* ModRM and imm8 */
	X_M_IZ,			/* ModRM and imm16/32 */
	X_I8,			/* imm8 (or rel8) */
	X_IZ,			/* imm16/32 */
	X_I16,			/* imm16 */
	X_REL32,		/* rel32: call, jmp (66 is read differently by vendors) */
	X_MOFFS,		/* a 64-bit address (32-bit with 67) */
	X_MOV_IMM,		/* B8+r: imm16/32, imm64 with REX.W */
	X_ENTER,		/* imm16 and imm8 */
	X_GRP3_8,		/* F6: ModRM, imm8 for /0 and /1 */
	X_GRP3_Z,		/* F7: ModRM, immz for /0 and /1 */
	X_POP_RM,		/* 8F: ModRM /0; XOP otherwise */
};

static const uint8_t one_byte[256] = {
	/* 00-3f: ALU ops, 6 forms each; segment pushes and BCD ops are invalid in 64-bit mode */
	[0x00] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	[0x08] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	[0x10] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	[0x18] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	[0x20] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	[0x28] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	[0x30] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	[0x38] = X_M, X_M, X_M, X_M, X_I8, X_IZ, X_BAD, X_BAD,
	/* 40-4f REX (handled as prefixes); 50-5f push, pop */
	[0x50] = X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE,
	[0x58] = X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE,
	[0x63] = X_M,
	[0x68] = X_IZ, X_M_IZ, X_I8, X_M_I8, X_NONE, X_NONE, X_NONE, X_NONE,
	[0x70] = X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8,
	[0x78] = X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8,
	[0x80] = X_M_I8, X_M_IZ, X_BAD, X_M_I8, X_M, X_M, X_M, X_M,
	[0x88] = X_M, X_M, X_M, X_M, X_M, X_M, X_M, X_POP_RM,
	[0x90] = X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE,
	[0x98] = X_NONE, X_NONE, X_BAD, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE,
	[0xa0] = X_MOFFS, X_MOFFS, X_MOFFS, X_MOFFS, X_NONE, X_NONE, X_NONE, X_NONE,
	[0xa8] = X_I8, X_IZ, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE,
	[0xb0] = X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8,
	[0xb8] = X_MOV_IMM, X_MOV_IMM, X_MOV_IMM, X_MOV_IMM,
	[0xbc] = X_MOV_IMM, X_MOV_IMM, X_MOV_IMM, X_MOV_IMM,
	/* c4, c5: VEX (handled apart); c6, c7 /7 are xabort, xbegin */
	[0xc0] = X_M_I8, X_M_I8, X_I16, X_NONE, X_BAD, X_BAD, X_M_I8, X_M_IZ,
	[0xc8] = X_ENTER, X_NONE, X_I16, X_NONE, X_NONE, X_I8, X_BAD, X_NONE,
	[0xd0] = X_M, X_M, X_M, X_M, X_BAD, X_BAD, X_BAD, X_NONE,
	/* d8-df x87, with holes in every form: capstone's */
	[0xe0] = X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8, X_I8,
	[0xe8] = X_REL32, X_REL32, X_BAD, X_I8, X_NONE, X_NONE, X_NONE, X_NONE,
	[0xf0] = X_BAD, X_NONE, X_BAD, X_BAD, X_NONE, X_NONE, X_GRP3_8, X_GRP3_Z,
	[0xf8] = X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_NONE, X_M, X_M,
};

/*
 * Two-byte map (0F xx): 1 no ModRM, 2 ModRM, 3 ModRM and imm8, 4 rel32, 0 not
 * known here (system, 3DNow!, reserved).  0F 38 and 0F 3A are escapes.
 */
static const uint8_t two_byte[256] = {
	[0x00] = 2, 2, 2, 2, 0, 1, 1, 1, 1, 1, 0, 1, 0, 2, 0, 0,
	[0x10] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	[0x20] = 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2,
	[0x30] = 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	[0x40] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	[0x50] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	[0x60] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	[0x70] = 3, 3, 3, 3, 2, 2, 2, 1, 0, 0, 0, 0, 2, 2, 2, 2,
	[0x80] = 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	[0x90] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	[0xa0] = 1, 1, 1, 2, 3, 2, 0, 0, 1, 1, 0, 2, 3, 2, 2, 2,
	[0xb0] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 3, 2, 2, 2, 2, 2,
	[0xc0] = 2, 2, 3, 2, 3, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1,
	[0xd0] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	[0xe0] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	[0xf0] = 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0,
};

/*
 * The opcodes of the three-byte maps compilers emit (SSSE3, SSE4, AES,
 * PCLMUL, SHA, MOVBE, CRC32, ADX), a bit each, low bit first (0F 38 00-0B,
 * 10, 14, 15, 17, 1C-1E, 20-25, 28-2B, 30-35, 37-41, C8-CD, DB-DF, F0, F1,
 * F6; 0F 3A 08-0F, 14-17, 20-22, 40-42, 44, 60-63, CC, DF); the rest is
 * left to capstone.
 */
static const uint32_t known_0f38[8] = {
	0x70b10fff,
	0xffbf0f3f,
	0x00000003,
	0x00000000,
	0x00000000,
	0x00000000,
	0xf8003f00,
	0x00430000,
};
static const uint32_t known_0f3a[8] = {
	0x00f0ff00,
	0x00000007,
	0x00000017,
	0x0000000f,
	0x00000000,
	0x00000000,
	0x80001000,
	0x00000000,
};

/* Whether 0F OP is an SSE opcode, which a 66, F2 or F3 selects among forms. */
static bool sse_op(uint8_t op)
{
	return (op >= 0x10 && op <= 0x17) || (op >= 0x28 && op <= 0x2f) || op == 0x38 ||
	       op == 0x3a || (op >= 0x50 && op <= 0x7f) || op == 0xb8 || op == 0xbc || op == 0xbd ||
	       (op >= 0xc2 && op <= 0xc6) || op >= 0xd0 || op == 0x1e;
}

/*
 * Whether the three-byte opcode 0F MAP OP exists with the prefixes given (M:
 * the ModRM byte): SSE4 and AES need a 66, SSSE3 and palignr have MMX forms
 * without one, movbe/crc32, adcx/adox and SHA have theirs.
 */
static bool three_byte_prefix_ok(uint8_t map, uint8_t op, bool o16, bool rep, bool repne, uint8_t m)
{
	if (map == 0x3a)
		return op == 0x0f ? !rep && !repne : op == 0xcc ? !o16 && !rep && !repne :
		       o16 && !rep && !repne;
	if (op <= 0x0b || (op >= 0x1c && op <= 0x1e))
		return !rep && !repne;
	if (op == 0xf0 || op == 0xf1)
		return repne ? !rep : !rep && m < 0xc0;	/* crc32; movbe needs memory */
	if (op == 0xf6)
		return (o16 != rep) && !repne;		/* adcx, adox */
	if (op >= 0xc8 && op <= 0xcd)
		return !o16 && !rep && !repne;		/* SHA */
	if (op == 0x2a)
		return o16 && !rep && !repne && m < 0xc0;	/* movntdqa: memory only */
	return o16 && !rep && !repne;
}

/*
 * Whether the ModRM byte M is a form capstone decodes for a group opcode OP
 * (0x100 | OP in the two-byte map): the other /reg values are unused.
 */
static bool group_reg_ok(unsigned op, uint8_t m)
{
	unsigned reg = (m >> 3) & 7;
	bool regform = m >= 0xc0;

	switch (op) {
	case 0xc6: case 0xc7:
		return reg == 0 || m == 0xf8;		/* mov; xabort, xbegin */
	case 0x8f:
		return reg == 0;			/* pop; XOP otherwise */
	case 0xfe:
		return reg <= 1;
	case 0xff:
		return reg != 7 && !(regform && (reg == 3 || reg == 5));	/* far call, jmp */
	case 0x8c: case 0x8e:				/* segment register moves */
		return false;
	case 0x11f:
		return !regform;			/* nopl; capstone 4 knows no register form */
	case 0x8d:					/* lea */
	case 0x113: case 0x117: case 0x12b: case 0x1b2: case 0x1b4: case 0x1b5:
	case 0x1c3: case 0x1e7:				/* movlps ... movntq stores and loads */
		return !regform;
	case 0x150: case 0x1c5: case 0x1d7: case 0x1f7:	/* movmskps, pextrw, pmovmskb, maskmovq */
		return regform;
	case 0xf6: case 0xf7:
		return reg != 1;
	case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
		return reg != 6;
	case 0x100: case 0x101:
		return false;				/* system groups */
	case 0x10d:
		return false;				/* prefetchw: capstone 4 knows none */
	case 0x118:
		return reg <= 3 && !regform;		/* prefetchnta ... t2 */
	case 0x171: case 0x172:
		return regform && (reg == 2 || reg == 4 || reg == 6);
	case 0x173:			/* psrldq, pslldq (/3, /7) exist with 66 only: insn_len */
		return regform && (reg == 2 || reg == 3 || reg == 6 || reg == 7);
	case 0x1ae:
		/* lfence, mfence, sfence; fxsave ... stmxcsr, clflush */
		return regform ? m == 0xe8 || m == 0xf0 || m == 0xf8 : reg <= 3 || reg == 7;
	case 0x1ba:
		return reg >= 4;
	case 0x1c7:
		return regform ? reg >= 6 : reg == 1;	/* rdrand, rdseed; cmpxchg8b/16b */
	default:
		return true;
	}
}

/* The length of a ModRM byte at P and what follows it (SIB, displacement); 0 past END. */
static size_t modrm_len(const uint8_t *p, const uint8_t *end)
{
	uint8_t m, mod, rm;
	size_t n = 1;

	if (p >= end)
		return 0;
	m = *p;
	mod = m >> 6;
	rm = m & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (p + 1 >= end)
			return 0;
		n++;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4;
	} else if (mod == 0 && rm == 5) {
		n += 4;			/* RIP-relative */
	}
	n += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return p + n <= end ? n : 0;
}

/*
 * What a lock prefix makes of the instruction whose opcode is at Q: 1 an
 * exchange or compare-and-swap (cmpxchg, cmpxchg8b/16b, xchg, bts), 0 an
 * arithmetic update (add ... xor, inc, dec, not, neg, xadd, btr, btc), -1
 * something a lock prefix is invalid on (a register destination, cmp, mov).
 */
static int lock_form(const uint8_t *q, const uint8_t *end)
{
	bool two = false;
	unsigned reg;
	uint8_t op;

	if (q >= end)
		return -1;
	op = *q++;
	if (op == 0x0f) {
		if (q >= end)
			return -1;
		op = *q++;
		two = true;
	}
	if (q >= end || *q >= 0xc0)
		return -1;
	reg = (*q >> 3) & 7;
	if (!two) {
		if (op <= 0x31 && !(op & 6))
			return 0;			/* add, or, adc, sbb, and, sub, xor to memory */
		switch (op) {
		case 0x80: case 0x81: case 0x83:
			return reg == 7 ? -1 : 0;	/* cmp is no update */
		case 0x86: case 0x87:
			return 1;
		case 0xf6: case 0xf7:
			return reg == 2 || reg == 3 ? 0 : -1;
		case 0xfe: case 0xff:
			return reg <= 1 ? 0 : -1;
		}
		return -1;
	}
	switch (op) {
	case 0xab: case 0xb0: case 0xb1:
		return 1;
	case 0xb3: case 0xbb: case 0xc0: case 0xc1:
		return 0;
	case 0xba:
		return reg == 5 ? 1 : reg >= 6 ? 0 : -1;
	case 0xc7:
		return reg == 1 ? 1 : -1;
	}
	return -1;
}

/*
 * The instruction at P: its length, or 0 when it is not known here.  *LOCKY:
 * whether it is an exchange or compare-and-swap with memory, a pause or a
 * syscall (a locked add or inc is none: an update makes no lock primitive).
 */
static size_t insn_len(const uint8_t *p, const uint8_t *end, bool *locky)
{
	const uint8_t *s = p;
	bool o16 = false, a32 = false, rexw = false, rep = false, repne = false, lock = false;
	size_t imm = 0, n;
	uint8_t op, kind, last = 0;

	*locky = false;
	for (;; last = *p++) {
		if (p >= end || p - s >= 14)
			return 0;
		switch (*p) {
		case 0xf0: lock = true; continue;
		case 0xf3: rep = true; continue;
		case 0xf2: repne = true; continue;
		case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65:
			continue;
		case 0x66: o16 = true; continue;
		case 0x67: a32 = true; continue;
		}
		break;
	}
	if ((*p & 0xf0) == 0x40) {
		rexw = *p & 8;
		if (++p >= end || (*p & 0xf0) == 0x40)
			return 0;	/* a REX then another prefix: left to capstone */
		switch (*p) {
		case 0xf0: case 0xf2: case 0xf3: case 0x2e: case 0x36: case 0x3e: case 0x26:
		case 0x64: case 0x65: case 0x66: case 0x67:
			return 0;
		}
	}
	/* 66 with F2 or F3, or both of these: which one counts depends on the opcode; capstone's. */
	if ((o16 && (rep || repne)) || (rep && repne))
		return 0;
	if (lock) {
		int f = lock_form(p, end);

		if (f < 0)
			return 0;
		*locky = f > 0;
	}
	op = *p++;
	/*
	 * VEX and EVEX (AVX and later): capstone 4 knows some of them only (not
	 * AVX-512's mask moves, VPCLMULQDQ, GFNI): left to it.
	 */
	if (op == 0xc4 || op == 0xc5 || op == 0x62)
		return 0;
	if (op == 0x0f) {
		/*
		 * SSE opcodes whose 66, F2 or F3 is mandatory and not last before
		 * them: capstone's reading (a 66 before a nopw's 2E is no such case).
		 */
		if (p >= end || ((o16 || rep || repne) && last != 0x66 && last != 0xf2 &&
				 last != 0xf3 && sse_op(*p)))
			return 0;
		op = *p++;
		if (op == 0x38 || op == 0x3a) {
			if (p >= end || !(op == 0x38 ? known_0f38 : known_0f3a)[*p >> 5] ||
			    !((op == 0x38 ? known_0f38 : known_0f3a)[*p >> 5] >> (*p & 31) & 1) ||
			    !three_byte_prefix_ok(op, *p, o16, rep, repne, p + 1 < end ? p[1] : 0))
				return 0;
			p++;
			if (!(n = modrm_len(p, end)))
				return 0;
			p += n;
			imm = op == 0x3a;
			return p + imm <= end ? (size_t)(p + imm - s) : 0;
		}
		if (op == 0x05)
			*locky = true;		/* syscall */
		if (op == 0xb8 && !rep)
			return 0;		/* jmpe; popcnt is F3 0F B8 */
		/* SSE forms that exist with a 66 (punpcklqdq, movq) or F2 (haddps) only */
		if (((op == 0x6c || op == 0x6d) && !o16) ||
		    ((op == 0x7c || op == 0x7d || op == 0xd0) && !o16 && !repne) ||
		    ((op == 0xd6 || op == 0xe6) && !o16 && !repne && !rep) ||
		    (op == 0xd6 && (rep || repne) && p < end && *p < 0xc0))
			return 0;		/* movq2dq, movdq2q: registers only */
		/*
		 * Hint nops 0F 19-1E and CET's forms (rdssp, incssp) but endbr64/32,
		 * F3 0F AE and F3 0F C7: capstone's.
		 */
		if ((op >= 0x19 && op <= 0x1e &&
		     !(op == 0x1e && rep && p < end && (p[0] == 0xfa || p[0] == 0xfb))) ||
		    (rep && (op == 0xae || op == 0xc7)))
			return 0;
		if (op == 0x73 && !o16 && p < end && (((*p >> 3) & 7) == 3 || ((*p >> 3) & 7) == 7))
			return 0;
		switch (two_byte[op]) {
		case 1:
			break;
		case 2:
		case 3:
			if (!(n = modrm_len(p, end)) || !group_reg_ok(0x100 | op, *p))
				return 0;
			p += n;
			imm = two_byte[op] == 3;
			break;
		case 4:
			if (o16 || a32)
				return 0;
			imm = 4;
			break;
		default:
			return 0;
		}
		return p + imm <= end ? (size_t)(p + imm - s) : 0;
	}
	kind = one_byte[op];
	/* Branches and returns with an operand- or address-size prefix: capstone's reading. */
	if ((o16 || a32) && ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) ||
			     op == 0xc2 || op == 0xc3 || op == 0xca || op == 0xcb || op == 0xcf ||
			     op == 0xc8 || op == 0xc9 || op == 0xe8 || op == 0xe9 || op == 0xeb ||
			     (op == 0xff && p < end && (((*p >> 3) & 7) == 2 || ((*p >> 3) & 7) == 4))))
		return 0;
	if (op == 0x90 && rep)
		*locky = true;			/* pause */
	switch (kind) {
	case X_NONE:
		break;
	case X_M:
	case X_M_I8:
	case X_M_IZ:
	case X_GRP3_8:
	case X_GRP3_Z:
	case X_POP_RM:
		if (!(n = modrm_len(p, end)))
			return 0;
		if (!group_reg_ok(op, *p))
			return 0;		/* an unused /reg of a group, or XOP (8F) */
		if ((op == 0x86 || op == 0x87) && *p < 0xc0)
			*locky = true;		/* xchg with memory: locked by itself */
		if (kind == X_M_I8 || (kind == X_GRP3_8 && !(*p & 0x30)))
			imm = 1;
		else if (kind == X_M_IZ || (kind == X_GRP3_Z && !(*p & 0x30)))
			imm = o16 && !rexw ? 2 : 4;
		if (op == 0xc7 && (*p & 0x38) == 0x38 && o16)
			return 0;		/* xbegin rel16 */
		p += n;
		break;
	case X_I8:
		imm = 1;
		break;
	case X_IZ:
		imm = o16 && !rexw ? 2 : 4;
		break;
	case X_I16:
		imm = 2;
		break;
	case X_REL32:
		if (o16)
			return 0;
		imm = 4;
		break;
	case X_MOFFS:
		return 0;			/* rare in compiled code: capstone's */
	case X_MOV_IMM:
		imm = rexw ? 8 : o16 ? 2 : 4;
		break;
	case X_ENTER:
		imm = 3;
		break;
	default:
		return 0;
	}
	return p + imm <= end ? (size_t)(p + imm - s) : 0;
}

/*
 * The opcode of the N-byte instruction at P: past its legacy and REX prefixes
 * (in any order: what the decoder took as one instruction); *LOCK: an F0 among them.
 */
static const uint8_t *opcode_of(const uint8_t *p, size_t n, bool *lock)
{
	const uint8_t *end = p + n;

	*lock = false;
	while (p < end && (*p == 0xf0 || *p == 0xf2 || *p == 0xf3 || *p == 0x2e || *p == 0x36 ||
			   *p == 0x3e || *p == 0x26 || *p == 0x64 || *p == 0x65 || *p == 0x66 ||
			   *p == 0x67 || (*p & 0xf0) == 0x40))
		*lock |= *p++ == 0xf0;
	return p < end ? p : NULL;
}

bool x86_64_lock_prefixed(const uint8_t *insn, size_t n)
{
	bool lock;

	opcode_of(insn, n, &lock);
	return lock;
}

/*
 * A direct branch or call of N bytes at P (jcc, jmp, loop, jrcxz, call with an
 * 8- or 32-bit displacement, its last bytes): true and *REL.
 */
static bool direct_branch(const uint8_t *p, size_t n, int64_t *rel)
{
	bool lock;
	const uint8_t *op = opcode_of(p, n, &lock);
	size_t w;

	if (!op)
		return false;
	if ((*op >= 0x70 && *op <= 0x7f) || *op == 0xeb || (*op >= 0xe0 && *op <= 0xe3))
		w = 1;
	else if (*op == 0xe9 || *op == 0xe8 || (*op == 0x0f && op + 1 < p + n && op[1] >= 0x80 &&
						    op[1] <= 0x8f))
		w = 4;
	else
		return false;
	if (n < w)
		return false;
	*rel = w == 1 ? (int8_t)p[n - 1] :
	       (int32_t)((uint32_t)p[n - 4] | (uint32_t)p[n - 3] << 8 | (uint32_t)p[n - 2] << 16 |
			 (uint32_t)p[n - 1] << 24);
	return true;
}

/*
 * LOOP_BOUND of x86_64_lock_scan: a second walk, for code that holds the
 * exchanges at ATOMS (offsets, in order); false when an instruction is not
 * known here (a branch among what only the decoder measures: no bound).
 */
static bool loop_bound(const uint8_t *code, size_t len, uint64_t max_span, const size_t *atoms,
		       size_t nr_atoms,
		       size_t (*other)(const uint8_t *insn, size_t left, unsigned int *facts, void *arg),
		       void *arg, uint64_t *bound)
{
	const uint8_t *p = code, *end = code + len;

	*bound = 0;
	while (p < end) {
		bool locky;
		size_t n = insn_len(p, end, &locky), at = (size_t)(p - code), from, a = 0;
		int64_t rel;

		if (!n && other) {
			unsigned int facts = 0;

			n = other(p, (size_t)(end - p), &facts, arg);
			if (facts & X86_FACT_BRANCH)
				return false;
			p += n ? n : 1;
			continue;
		}
		if (!n)
			return false;
		/* backward, inside CODE, short: from its target to itself, around an exchange */
		if (direct_branch(p, n, &rel) && rel < -(int64_t)n &&
		    (uint64_t)(-rel - (int64_t)n) <= at && (uint64_t)(-rel - (int64_t)n) <= max_span) {
			from = at - (size_t)(-rel - (int64_t)n);
			while (a < nr_atoms && atoms[a] < from)
				a++;
			if (a < nr_atoms && atoms[a] <= at)
				*bound += at - from + 1;
		}
		p += n;
	}
	return true;
}

int x86_64_lock_scan(const uint8_t *code, size_t len, uint64_t max_span,
		     size_t (*other)(const uint8_t *insn, size_t left, unsigned int *facts, void *arg),
		     void *arg, struct x86_lock_scan *out)
{
	const uint8_t *p = code, *end = code + len;
	size_t *atoms = NULL, cap_atoms = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	/* Walked as the decoder will read it, up to a fact that sends the code to it. */
	while (p < end && !err && !out->pause && !out->syscall) {
		bool locky, lock;
		size_t n = insn_len(p, end, &locky);

		if (!n && other) {
			unsigned int facts = 0;

			/* measured by the decoder; what it cannot read, it skips a byte of */
			n = other(p, (size_t)(end - p), &facts, arg);
			out->pause = (facts & X86_FACT_LOCK) != 0;	/* some lock fact: as if a pause */
			out->branch_unknown |= (facts & X86_FACT_BRANCH) != 0;
			p += n ? n : 1;
			continue;
		}
		if (!n) {
			out->unknown = true;
			break;
		}
		if (locky) {
			const uint8_t *op = opcode_of(p, n, &lock);

			if (op && *op == 0x90)
				out->pause = true;
			else if (op && *op == 0x0f && op + 1 < p + n && op[1] == 0x05)
				out->syscall = true;
			else if (ARRAY_GROW(atoms, cap_atoms, out->atomics + 1))
				err = -1;
			else
				atoms[out->atomics++] = (size_t)(p - code);
		}
		p += n;
	}
	/* The loops around the exchanges: only where there are some, and a bound is asked for. */
	if (!err && out->atomics && max_span && !out->unknown && !out->branch_unknown &&
	    !out->pause && !out->syscall &&
	    !loop_bound(code, len, max_span, atoms, out->atomics, other, arg, &out->loop_bound))
		out->branch_unknown = true;
	free(atoms);
	return err;
}

bool x86_64_may_touch_locks_with(const uint8_t *code, size_t len,
				 size_t (*other)(const uint8_t *insn, size_t left, unsigned int *facts,
						 void *arg),
				 void *arg)
{
	struct x86_lock_scan sc;

	return x86_64_lock_scan(code, len, 0, other, arg, &sc) || sc.unknown || sc.pause ||
	       sc.syscall || sc.atomics;
}

bool x86_64_may_touch_locks(const uint8_t *code, size_t len)
{
	return x86_64_may_touch_locks_with(code, len, NULL, NULL);
}

size_t x86_64_insn_len(const uint8_t *code, size_t len)
{
	bool locky;

	return insn_len(code, code + len, &locky);
}
