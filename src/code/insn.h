/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One decoded instruction as the analyses see it: where it goes, the memory
 * it touches and how, what its call passes.  Filled by the disassembler
 * (disasm.h), read by the lock and call-graph analyses and mycl-share.
 */
#ifndef MYCL_INSN_H
#define MYCL_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum insn_access {
	ACC_NONE = 0,
	ACC_READ = 1,			/* a load, or a compare with memory */
	ACC_WRITE = 2,			/* a store */
	ACC_RMW = 3,			/* read-modify-write (inc, add to memory, xchg, CAS) */
	ACC_ADDR = 4,			/* only the address is taken (lea, adrp+add, larl) */
};

struct insn {
	uint64_t addr;
	uint8_t size;
	bool branch, call, ret;
	bool jump;			/* an unconditional branch (x86_64, aarch64) */
	bool cond_ret;			/* returns when its condition holds (ppc64 beqlr, s390x ber %r14) */
	uint64_t target;		/* branch or call target, when direct */
	uint64_t data;			/* the address read/written/taken, when known; else 0 */
	/* mycl-share: a plain store of a constant (x86_64, aarch64, ppc64): its value. */
	bool store_const;
	uint64_t store_val;
	uint8_t access;			/* enum insn_access, for data */
	bool atomic;			/* lock prefix, ldxr/stxr, larx/stcx, CAS... */
	bool may_fail;			/* ... a CAS or store-conditional: retried when it fails */
	bool exchange;			/* an unconditional exchange: a test-and-set (x86 xchg,
					 * aarch64 swp, or a call of an outline helper that swaps) */
	uint8_t on_zero;		/* a conditional branch taken when zero (1: je, cbz, b.eq)
					 * or when not (2: jne, cbnz, b.ne); else 0 */
	bool spin_hint;			/* pause, yield, isb, wfe, or 27,27,27... */
	/* x86_64 and aarch64 only, with disasm_set_lock_facts (lockcode.c); jump always: */
	uint8_t atomic_op;		/* enum atomic_op, when atomic */
	bool new_const;			/* xchg/CAS/store-exclusive storing a constant */
	bool mem;			/* has a memory operand */
	bool stack_mem;			/* ... addressed from the stack or frame pointer */
	uint16_t mem_base;		/* ... its base register (0: none or PC-relative) */
	int64_t mem_disp;		/* ... and displacement */
	bool mem_param;			/* ... its base holds the function's first argument (x86_64),
					 * plus mem_prm_off (without mycl-share's facts) */
	uint32_t regs_read, regs_written;	/* x86_64: register families (bit 1 << family; with
						 * mycl-share's facts: operands, not implicit reads) */
	uint8_t val_reg;		/* x86_64 atomics: the family of the register operand */
	bool plain_store;		/* writes memory, not atomically */
	bool syscall;			/* syscall, svc */
	int32_t sysno;			/* the system call's number when known, else -1 */
	uint64_t arg0;			/* call: the address the first argument holds, or 0 */
	bool arg0_param;		/* call (x86_64): the first argument is the function's own */
	int64_t arg0_off;		/* ... first argument plus this */
	uint64_t arg0_deref;		/* call (x86_64): the first argument is the pointer this */
	int64_t arg0_deref_off;		/* ... global holds, plus this (buf_pool->mutex) */
	/* x86_64, with disasm_set_share_facts (mycl-share): */
	bool indexed;			/* data is where an indexed access starts: an array's element */
	bool counter_op;		/* a read-modify-write that adds or subtracts (a counter) */
	bool decrement;			/* ... that subtracts (x86_64: sub, dec, a negative add) */
	bool store_self;		/* a store of what was loaded there, plus or minus something */
	bool sets_flags;		/* x86_64, mycl-share: writes the flags a branch tests */
	uint16_t scale;			/* ... the index's scale (x86: times what it was multiplied by) */
	uint8_t mem_prm;		/* 1 + the argument of the function a memory operand is based on
					 * (also aarch64's with lock facts) */
	uint8_t mem_prm_access;		/* ... enum insn_access */
	int64_t mem_prm_off;		/* ... the offset from that argument */
	/*
	 * mycl-share (x86_64): 1 + the argument a memory operand with an index
	 * register is based on, written (or read-modified-written) at a computed
	 * offset from it, at least MEM_PRM_OFF (this->n[k & 1]++)
	 */
	uint8_t mem_prm_ix;
	uint64_t imm;			/* an immediate that may be an address (non-PIE code) */
	uint64_t stored;		/* a store to memory off the stack: the address it stores */
	bool stored_indexed;		/* ... somewhere in an array from it */
	uint64_t stored_stack;		/* a store to a stack slot: the address it stores */
	uint64_t stored_pair;		/* aarch64 stp: the address the second register stores (+8) */
	uint8_t stored_prm;		/* a store off the stack of 1 + the function's own argument
					 * (aarch64, lock facts: an atomic's stored value) */
	uint8_t stored_prm_stack;	/* ... and onto the stack (a lambda's [this] captured there) */
	/*
	 * mycl-share (x86_64; aarch64 without TLS): a memory operand based on a
	 * register holding the value of pointer variable VIA (a global's
	 * address, INSN_TLS_KEY of a thread-local's %fs offset, or INSN_ARG_KEY:
	 * a pointer loaded from what the function's first argument points to),
	 * plus VIA_OFF; how it is accessed.
	 */
	uint64_t via;
	int64_t via_off;
	uint8_t via_access;
	uint64_t tls;			/* a %fs:off operand (local-exec TLS): INSN_TLS_KEY(off) */
	uint64_t call_arg[6];		/* call: the address or constant each argument register holds */
	/*
	 * mycl-share (x86_64, aarch64): a second address argument CALL_ALT_ARG
	 * may hold (one of two the code chose: a conditional move, an if's two
	 * arms), or 0; and the same for a memory operand's address (data)
	 */
	uint64_t call_alt;
	uint8_t call_alt_arg;
	uint64_t data_alt;
	uint8_t call_arg_prm[6];	/* call: 1 + the function's own argument each one passes on */
	uint8_t call_arg_indexed;	/* call: bit k: argument k points somewhere in an array */
	uint8_t call_arg_zero;		/* call: bit k: argument k is the constant 0 */
	uint8_t call_arg_imm;		/* call (aarch64, lock facts): bit k: argument k is a
					 * constant; call_arg[k]: the address it holds */
	uint8_t call_arg_member;	/* call (x86_64): bit k: argument k was loaded from the
					 * memory the function's first argument points to (p->fn) */
	uint8_t call_arg_argptr;	/* call (x86_64, aarch64; mycl-share): bit k: argument k is a
					 * pointer loaded from what the function's first argument
					 * points to (arg->slot) */
	uint8_t call_arg_pass[6];	/* call: 1 + the function's own argument plus an offset */
	int32_t call_arg_pass_off[6];	/* ... that offset (this->member handed on) */
	/* ret: the address the result register holds, when known (a function returning &g[i]). */
	uint64_t ret_value;
	uint64_t ret_alt;		/* ... or this one (one of two the code chose), or 0 */
	bool ret_indexed;
	/* x86 indirect jumps through a switch's table: its address, entries relative or not. */
	uint64_t table;
	bool table_rel;			/* 32-bit offsets from the table (PIC); else addresses */
	/*
	 * x86_64 and aarch64, mycl-share: an indirect call through a table of
	 * functions in the program's data at a computed index
	 * (handlers[i].fn(...)): the address of its slot for index 0, and the
	 * table's element size when known (else 0).  Any function the table
	 * holds there may be called.
	 */
	uint64_t call_slot;
	uint16_t call_stride;
	/*
	 * With disasm_set_type_facts (data types; x86_64 and aarch64): what
	 * the instruction does with registers and its memory operand, registers
	 * as DWARF numbers plus 1 (0: none).
	 */
	uint8_t ty_op;			/* enum ty_op */
	uint8_t ty_dst;			/* the register a load, move, lea or addition writes */
	uint8_t ty_src;			/* a move's or an addition's source register */
	uint8_t ty_src2;		/* aarch64: an addition's second source register */
	uint8_t ty_base, ty_index;	/* the memory operand's (base 0 and data set: PC-relative) */
	uint8_t ty_scale;		/* ... the index's scale */
	uint8_t ty_size;		/* ... the bytes it accesses */
	uint8_t ty_access;		/* the memory operand's enum insn_access */
	bool ty_wide;			/* ty_dst written whole (a pointer's width) */
	bool ty_writeback;		/* aarch64: the base is updated by ty_imm (pre/post-index) */
	int64_t ty_disp;		/* the memory operand's displacement */
	int64_t ty_imm;			/* TY_ADD_IMM: the constant added */
	uint64_t ty_clobbers;		/* bit r: DWARF register r written, beyond ty_dst */
	/* last: a walk without text (disasm_set_text) clears only what is before it */
	char text[200];			/* "mnemonic operands" */
};

/* The bytes of an instruction a walk without text fills: all but the text, whose first byte is 0. */
#define INSN_NO_TEXT_SIZE (offsetof(struct insn, text) + 1)

/* A thread-local's %fs offset as a key no data address is (x86_64 local-exec TLS). */
#define INSN_TLS_KEY(off) (0xfff0000000000000ULL | (uint32_t)(off))
/* x86_64: "a value loaded from what the function's first argument points to", as a pointer key. */
#define INSN_ARG_KEY 0xffe0000000000000ULL

enum ty_op {
	TY_NONE = 0,
	TY_LOAD,			/* ty_dst = memory */
	TY_STORE,			/* memory = ty_src (0: a constant or another register kind) */
	TY_MEM,				/* another access to memory (read-modify-write, compare) */
	TY_LEA,				/* ty_dst = the memory operand's address */
	TY_MOVE,			/* ty_dst = ty_src */
	TY_ADD_IMM,			/* ty_dst = (ty_src, or ty_dst when 0) + ty_imm */
	TY_ADD_REG,			/* ty_dst += ty_src (an index, scaled or not); aarch64:
					 * ty_dst = ty_src + ty_src2 */
	TY_ADD_LOAD,			/* ty_dst += memory (a pointer loaded and added to an index) */
	TY_PUSH,			/* x86: the stack pointer moves down by ty_size */
	TY_POP,				/* x86: ty_dst = the stack's top, the stack pointer moves up */
	TY_LEAVE,			/* x86: rsp = rbp, then pop rbp */
};

/* The ty_clobbers bit of a register as the ty_ fields number it (DWARF's plus 1; 0: none). */
#define TY_REG_BIT(r) ((r) ? 1ull << ((r) - 1) : 0)

enum atomic_op {
	ATOM_NONE = 0,
	ATOM_XCHG,			/* exchange, test-and-set bit, swap */
	ATOM_CAS,			/* compare-and-swap */
	ATOM_ARITH,			/* add, sub, inc, dec, and, or, xor, fetch-and-op */
	ATOM_LL,			/* load-exclusive (the value of a LL/SC pair) */
	ATOM_SC,			/* store-exclusive */
};

/*
 * After the call at AT, the result register holds VALUE (the address the
 * callee returns; INDEXED: somewhere in an array from it).
 */
struct call_result {
	uint64_t at, value;
	bool indexed;
	uint64_t alt;			/* ... or this address (one of two the callee returns), or 0 */
};

#endif
