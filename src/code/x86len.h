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
 * known here OTHER measures (its size, *LOCKY: whether it may be one of those
 * instructions), 0 when the decoder cannot read it, and one byte is skipped
 * then, as disasm_iter() does (capstone 4 knows no AVX-512 mask move and
 * reads on from the next byte).  True as soon as one may be.
 */
bool x86_64_may_touch_locks_with(const uint8_t *code, size_t len,
				 size_t (*other)(const uint8_t *insn, size_t left, bool *locky,
						 void *arg),
				 void *arg);
/* The length of the instruction at CODE, or 0 when it is not known here. */
size_t x86_64_insn_len(const uint8_t *code, size_t len);

#endif
