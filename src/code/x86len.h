/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* x86_64 instruction lengths, for scans that need no full decoding (x86len.c). */
#ifndef MYCL_X86LEN_H
#define MYCL_X86LEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * False only when CODE (LEN bytes of x86_64 instructions) certainly has no
 * exchange or compare-and-swap with memory (xchg, lock cmpxchg, cmpxchg8b/16b,
 * bts), no pause and no syscall: every instruction was measured and none is
 * one (locked arithmetic such as lock add may be there).  True when one is,
 * or when an instruction is not known here (then a full decoder must look).
 */
bool x86_64_may_touch_locks(const uint8_t *code, size_t len);
/*
 * The same, walking CODE as the decoder that will read it does: what is not
 * known here OTHER measures (its size, *FACTS below), 0 when the decoder
 * cannot read it, and one byte is skipped then, as disasm_iter() does
 * (capstone 4 knows no AVX-512 mask move and reads on from the next byte).
 */
bool x86_64_may_touch_locks_with(const uint8_t *code, size_t len,
				 size_t (*other)(const uint8_t *insn, size_t left, unsigned int *facts,
						 void *arg),
				 void *arg);
/* What OTHER says of an instruction it measured. */
#define X86_FACT_LOCK 1u		/* may be an exchange, CAS, pause or syscall */
#define X86_FACT_BRANCH 2u		/* a jump, call, loop or return */
/*
 * What a function's code (LEN bytes at CODE, walked as may_touch_locks_with()
 * does; a lock fact OTHER sees counts as a pause) holds for a lock analysis
 * that sees no callee, up to its first pause or syscall: how many exchanges,
 * CAS and bts with memory, and LOOP_BOUND, the bytes of every backward
 * direct branch (or call) of at most MAX_SPAN bytes that has one of those
 * exchanges between its target and itself, summed: no retry loop the
 * analysis can find spans more (counted only for code with such an
 * exchange, with no pause or syscall).  UNKNOWN: an instruction is not known
 * and no OTHER measures it (nothing after it is read); BRANCH_UNKNOWN: OTHER
 * measured a branch, whose target is not read: LOOP_BOUND says nothing.
 * 0, or -1 when memory runs out.
 */
struct x86_lock_scan {
	bool unknown, pause, syscall, branch_unknown;
	size_t atomics;
	uint64_t loop_bound;
};
int x86_64_lock_scan(const uint8_t *code, size_t len, uint64_t max_span,
		     size_t (*other)(const uint8_t *insn, size_t left, unsigned int *facts, void *arg),
		     void *arg, struct x86_lock_scan *out);
/* Whether the N-byte instruction at INSN has a lock prefix (F0 among its prefixes). */
bool x86_64_lock_prefixed(const uint8_t *insn, size_t n);
/* The length of the instruction at CODE, or 0 when it is not known here. */
size_t x86_64_insn_len(const uint8_t *code, size_t len);

#endif
