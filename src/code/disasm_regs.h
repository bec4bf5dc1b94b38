/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The disassembler's state, shared by its per-architecture files: what each
 * register is known to hold, the calling convention, the code being read.
 */
#ifndef MYCL_DISASM_REGS_H
#define MYCL_DISASM_REGS_H

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>
#include "insn.h"
#include "internal.h"

#define NREGS 512

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#define X86_RAX 1			/* register families, as x86_families numbers them */
#define X86_RBX 2
#define X86_RDI 6
#define X86_RBP 7
#define X86_RSP 8
#define X86_NR_FAMILIES 16		/* rax ... r15 */

/* What a register is known to hold, from the instructions just before. */
struct regval {
	uint64_t v;
	/*
	 * regs (x86_64, aarch64, mycl-share): a second address the register
	 * may hold instead of V (a conditional move or select between two), or 0
	 */
	uint64_t alt;
	bool known;
	bool indexed;			/* v is the start of an object indexed by a register */
	uint16_t scale;			/* ... x86: by a register times this (0: unknown) */
	uint8_t idx;			/* prm: which argument of the function (0: the first) */
};

/* A calling convention: where arguments go, which registers a call keeps. */
struct disasm_abi {
	uint16_t args[8];		/* argument registers, in order (0: passed on the stack) */
	uint8_t nr_args;
	uint16_t kept[24];		/* registers a call preserves */
	uint8_t nr_kept;
	uint16_t scratch[24];		/* the registers a call does not preserve */
	uint8_t nr_scratch;
	uint16_t ret;			/* where a function's result is */
};

struct disasm {
	csh cs;
	csh cs_thumb;			/* arm: the Thumb-2 decoder beside the ARM one */
	csh cs_size;			/* x86: the same decoder without details (disasm_insn_size) */
	int cs_arch, cs_mode;		/* how CS was opened (for a decoder ahead: disasm_ahead.c) */
	struct dis_ahead *ahead;	/* disasm_decode_ahead()'s spans, or NULL */
	cs_insn *ci_size;
	uint16_t machine;
	bool big_endian;
	bool thumb;			/* arm: the code being read is Thumb */
	uint64_t toc;			/* ppc64: r2; riscv: gp (__global_pointer$) */
	bool no_text;
	bool no_quick;			/* x86_quick switched off: capstone decodes everything */
	bool lock_facts;		/* fill the fields lockcode.c reads (disasm_set_lock_facts) */
	bool share_facts;		/* fill the fields mycl-share reads (disasm_set_share_facts) */
	bool type_facts;		/* fill the ty_ fields (disasm_set_type_facts) */
	const uint64_t *starts;		/* function starts: the state is reset at each */
	size_t nr_starts;
	bool (*is_thumb)(void *ctx, uint64_t addr);	/* arm: whether code at addr is Thumb */
	void *thumb_ctx;
	uint64_t (*got)(void *ctx, uint64_t slot);	/* what a GOT/TOC slot points to */
	void *got_ctx;
	const struct elf_image *img;	/* disasm_for_image's: code outside the range read */
	const uint8_t *code;		/* the bytes disasm_iter reads, for literal pools */
	size_t code_len;
	uint64_t code_addr;
	struct disasm_abi abi;
	/*
	 * What the kept and scratch registers held at the last few forward
	 * branches: code placed after a return (a loop body past the epilogue, a
	 * cold block moved to the function's end) starts from the branches that
	 * reach it, not from the epilogue's restores.  A target whose snapshot
	 * left the ring marks its bucket of SNAP_GONE: code there trusts none.
	 */
#define NR_SNAP 16
#define SNAP_GONE 256
	struct { uint64_t target; uint64_t known; struct regval r[24 + 24][3]; } snap[NR_SNAP];
	unsigned int nr_snap;
	bool snap_gone[SNAP_GONE];
	/*
	 * The kept registers as the function's first branch found them: what
	 * was set before it holds on every path; what was set after it, on one
	 * path, does not hold in code only another branch reaches.
	 */
	struct regval first[24 + 24][3];	/* abi.kept's, then abi.scratch's */
	bool first_seen;
	/*
	 * mycl-share: the addresses the kept and scratch registers held at the
	 * last few forward jumps (the end of an if's arm): where the code falls
	 * into their target, a register holding another address holds one of
	 * the two (regval.alt).
	 */
#define NR_JOIN 4
	struct dis_join { uint64_t target; uint64_t known; uint64_t v[24 + 24]; } join[NR_JOIN];
	unsigned int nr_join;
	bool no_fallthrough;		/* the previous instruction returned or jumped */
	bool out_of_line;		/* ... returned or jumped back: what follows is reached from elsewhere */
	bool pad;			/* the instruction is padding after such a jump */
	/*
	 * regs, imm, cnt and mult may hold something: set by every decoded
	 * instruction and every reset or restore, cleared when a skipped byte
	 * clears them (the bytes after it skipped too find them clear).
	 */
	bool dirty;
	unsigned int nr_regs;		/* the registers the state uses: NREGS, x86's 16 families + 1 */
	struct regval regs[NREGS];
	struct regval imm[NREGS];	/* registers holding a constant (mov $imm) */
	struct regval prm[NREGS];	/* registers holding argument idx plus v */
	struct { uint64_t g; int64_t off; bool known; } ld[NREGS], ld_next;	/* x86: *g + off */
	unsigned int ld_dst;		/* the register ld_next goes to, after the writes */
	/*
	 * Plain counters built of a load, an add and a store (-O0 code, load/store
	 * machines): what each register holds was loaded from DATA, plus or minus
	 * something since (ARITH).  Within a block: branches and calls forget it.
	 */
	struct cnt { uint64_t data; bool arith; } cnt[NREGS], cnt_next;
	unsigned int cnt_dst;		/* the register cnt_next goes to, after the instruction */
	/*
	 * The variable each register's value was computed from (a load of it,
	 * plus or minus something), kept past conditional branches: a store
	 * back of it is no new value ("if (n < max) n++").
	 */
	uint64_t slf[NREGS], slf_next;
	unsigned int slf_dst;
	/*
	 * x86_64, aarch64: the register a function's address was last loaded
	 * into from a table of functions at a computed index (0: none), the slot
	 * of index 0 and the element size (insn.call_slot).  Within a block.
	 */
	unsigned int fslot_reg;
	uint64_t fslot;
	uint16_t fslot_stride;
	bool cnt_any;			/* some cnt[] set since they were last cleared */
	/*
	 * x86: what a register holding an index was multiplied by (shl, imul,
	 * lea (,%i,8)): an array's element size, when it is added to its start.
	 */
	uint16_t mult[NREGS];
	/* x86 -O0: what frame slots (disp(%rbp)) hold: a constant, an address, the argument. */
	struct frame_slot {
		int64_t disp;
		unsigned int base;	/* the register it is addressed from (0: x86 %rbp) */
		bool used;
		struct regval imm, addr, prm;
	} slots[8];
	/*
	 * x86_64, mycl-share: values stored through the function's own argument
	 * plus an offset (a member of *this), for the loads back from there.
	 */
	struct member_slot {
		uint8_t idx;
		int64_t off;
		bool used;
		struct regval imm, addr, prm;
	} mslots[4];
	/* i386: the stack pointer from its value at entry; the frame pointer's, when set. */
	int32_t sp_off, fp_off;
	bool fp_known, sp_lost;		/* sp_lost: aligned (and $-16, %esp): entry offsets unknown */
	unsigned int post_reg;		/* set after the call's clobbers (i386 get_pc_thunk) */
	uint64_t post_val;
	uint8_t ptr_size;		/* 8, or 4 for i386 and arm */
	const struct call_result *cr;	/* disasm_set_call_results */
	size_t nr_cr;
	/* The register a load-linked filled, and whether an add or sub used it since. */
	unsigned int ll_reg;
	bool ll_arith;
	/* i386: what the outgoing argument slots hold, by their offset from the entry's %esp. */
	struct out_slot { int32_t off; bool used; struct regval addr, imm, prm; } out[8];
	uint8_t x86_family[NREGS];	/* x86: register id -> 1 + its 64-bit register, 0: none */
	/*
	 * x86_64, aarch64 and arm, mycl-share: the registers each function read
	 * so far writes (x86: bit per family; aarch64, arm: bit N for xN, rN) when it calls
	 * nothing: a call to it keeps the other scratch registers (gcc's
	 * -fipa-ra relies on that).  By start, sorted.
	 */
	struct fn_clobber { uint64_t start; uint32_t written; } *clob;
	size_t nr_clob, clob_cap;
	uint64_t cur_fn;		/* the function being read (its start), 0: none */
	uint32_t cur_written;		/* ... the families it writes */
	bool cur_calls;			/* ... it calls or jumps out (its callees' writes unknown) */
};

static inline bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static inline uint64_t dis_got(struct disasm *d, uint64_t slot)
{
	return d->got ? d->got(d->got_ctx, slot) : 0;
}

/*
 * mycl-share: a load of a pointer variable of the program's own (not a GOT
 * slot) that points to data of the image (struct stats *cur = &stats_a):
 * the address the loaded register holds, the load staying a read; else 0.
 */
uint64_t dis_data_pointer(struct disasm *d, uint64_t slot);
/* mycl-share: the same for a word of the program's data pointing to its code (a vtable's slot). */
uint64_t dis_code_pointer(struct disasm *d, uint64_t slot);
/* Either of the two, looked up once. */
uint64_t dis_any_pointer(struct disasm *d, uint64_t slot);
/*
 * mycl-share: a store of register SRC to memory: the address SRC holds, kept
 * there (STACK: its base is the stack or frame pointer, a local's member).
 */
void dis_stored(struct disasm *d, struct insn *in, unsigned int src, bool stack);

/* The LEN bytes at ADDR of the code being read or the image's, or NULL (literal pools, thunks). */
const uint8_t *code_at(const struct disasm *d, uint64_t addr, size_t len);
/* The little-endian 32-bit instruction word at ADDR into *W (aarch64), false when not there. */
bool code_word(const struct disasm *d, uint64_t addr, uint32_t *w);

/* R holds one address, exactly (no index added, not one of two): what a join or a select compares. */
static inline bool plain_addr(const struct regval *r)
{
	return r->known && !r->indexed && !r->alt;
}
/* ... or in read-only data (constant pools). */
const uint8_t *const_at(const struct disasm *d, uint64_t addr, size_t len);

/* Generic register flow for the architectures with a struct disasm_abi. */
void dis_forget(struct disasm *d, unsigned int r);
void dis_copy(struct disasm *d, unsigned int dst, unsigned int src);
void dis_set_addr(struct disasm *d, unsigned int r, uint64_t v, bool indexed);
void dis_set_imm(struct disasm *d, unsigned int r, uint64_t v);

/* Register R holds a known constant, not an address: *V (arguments of 0, constants stored). */
static inline bool dis_const(const struct disasm *d, unsigned int r, uint64_t *v)
{
	*v = d->imm[r].v;
	return !d->regs[r].known && d->imm[r].known;
}
/* A memory operand based on register BASE + DISP: the argument it is based on. */
void dis_mem_prm(struct disasm *d, struct insn *in, unsigned int base, int64_t disp, uint8_t acc);
/* Register R is loaded from DATA (a plain load of a variable). */
static inline void dis_cnt_load(struct disasm *d, unsigned int r, uint64_t data)
{
	if (r && r < NREGS && data) {
		d->cnt_dst = r;
		d->cnt_next = (struct cnt){ data, false };
		d->slf_dst = r;
		d->slf_next = data;
	}
}

/* DST = SRC1 +/- SRC2 (0: an immediate): a loaded value plus something. */
static inline void dis_cnt_arith(struct disasm *d, unsigned int src1, unsigned int src2,
				 unsigned int dst)
{
	uint64_t a = src1 && src1 < NREGS ? d->cnt[src1].data : 0;
	uint64_t b = src2 && src2 < NREGS ? d->cnt[src2].data : 0;

	if (dst && dst < NREGS && (a != 0) != (b != 0)) {
		d->cnt_dst = dst;
		d->cnt_next = (struct cnt){ a ? a : b, true };
	}
	a = src1 && src1 < NREGS ? d->slf[src1] : 0;
	b = src2 && src2 < NREGS ? d->slf[src2] : 0;
	if (dst && dst < NREGS && (a != 0) != (b != 0)) {
		d->slf_dst = dst;
		d->slf_next = a ? a : b;
	}
}

/* Register R stored to DATA: whether it is what was loaded there, plus something. */
static inline bool dis_cnt_store(const struct disasm *d, unsigned int r, uint64_t data)
{
	return r && r < NREGS && data && d->cnt[r].data == data && d->cnt[r].arith;
}

/*
 * What a plain counter's load and store (access ACC) are keyed by: the
 * address; through a pointer variable, the variable and the offset (the top
 * bit set: no address); 0 for neither.
 */
static inline uint64_t dis_cnt_key(const struct insn *in, uint8_t acc)
{
	if (in->data)
		return in->access == acc ? in->data : 0;
	if (in->via && in->via_access == acc)
		return (in->via ^ ((uint64_t)in->via_off * 0x9E3779B97F4A7C15ULL)) | 1ULL << 63;
	return 0;
}

/*
 * A plain load (ACC_READ) into register R, or store (ACC_WRITE) of it, at
 * IN's data (mycl-share's instructions): a counter's load, or its store back.
 */

static inline void dis_cnt_mem(struct disasm *d, struct insn *in, unsigned int r, uint8_t acc)
{
	uint64_t key = dis_cnt_key(in, acc);

	if (!d->share_facts || !key || in->indexed || in->atomic)
		return;
	if (acc == ACC_READ) {
		dis_cnt_load(d, r, key);
	} else if (acc == ACC_WRITE) {
		in->counter_op |= dis_cnt_store(d, r, key);
		in->store_self |= r < NREGS && d->slf[r] == key;
	}
}

/*
 * Load-linked/store-conditional: LL filled register R; an add or sub read
 * register R; SC: whether the pair is an atomic add (a counter).
 */
static inline void dis_ll(struct disasm *d, unsigned int r)
{
	d->ll_reg = r;
	d->ll_arith = false;
}

static inline void dis_ll_arith(struct disasm *d, unsigned int r1, unsigned int r2,
				unsigned int dst)
{
	if (d->share_facts)
		dis_cnt_arith(d, r1, r2, dst);		/* the plain counters' add too */
	if (d->ll_reg && (r1 == d->ll_reg || r2 == d->ll_reg)) {
		d->ll_arith = true;
		d->ll_reg = dst;	/* the sum is what the SC stores */
	}
}

static inline bool dis_sc(struct disasm *d)
{
	bool c = d->ll_arith;

	d->ll_reg = 0;
	d->ll_arith = false;
	return c;
}

/*
 * -O0 code: register REG stored to (STORE) or loaded from the frame slot at
 * BASE + DISP (BASE the stack or frame pointer); FULL: a whole pointer-sized
 * register, so an address or argument survives the trip.
 */
void dis_slot(struct disasm *d, bool store, unsigned int reg, unsigned int base, int64_t disp,
	      bool full);
/* call: what the argument registers hold. */
void dis_call_args(struct disasm *d, struct insn *in);
/* A jump's (a tail call's): which argument registers hold the constant 0 (call_arg_zero). */
void dis_zero_args(struct disasm *d, struct insn *in);

void x86_families(struct disasm *d);
void x86(struct disasm *d, const cs_insn *ci, struct insn *in);
void arm64(struct disasm *d, const cs_insn *ci, struct insn *in);
/*
 * aarch64: an ARMv8.1 atomic capstone 4 does not decode (LDADD and the other
 * LD<op>, SWP, CAS, CASP and their ST<op> aliases) decoded here; 4, or 0 for
 * anything else.
 */
size_t arm64_lse(struct disasm *d, const uint8_t *p, size_t len, uint64_t pc, struct insn *in);
void ppc(struct disasm *d, const cs_insn *ci, struct insn *in, const uint8_t *bytes);
/*
 * ppc64: a word capstone cannot decode (a newer vector or VSX instruction:
 * POWER8's lxsiwax, vupklsw) forgets only the registers its target and
 * address fields name; false for what is no instruction (a zero word: data).
 */
bool ppc_unknown(struct disasm *d, const uint8_t *bytes);
void s390(struct disasm *d, const cs_insn *ci, struct insn *in);
void arm(struct disasm *d, const cs_insn *ci, struct insn *in);
/* riscv: capstone 4 has none; one instruction decoded here, its length returned (0: none). */
size_t riscv(struct disasm *d, const uint8_t *p, size_t len, uint64_t pc, struct insn *in);

#endif
