/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capstone's decoding of long code ranges (a whole .text, or thousands of
 * functions walked one after the other) done ahead, on threads of their own
 * (one fewer than the CPUs, at most 3), while the caller's thread follows
 * the registers through what is already decoded: the walk of disasm_iter
 * (an instruction, or, where none decodes, a fixed number of bytes
 * skipped), in chunks decoded side by side, handed over in order.
 */
#ifndef MYCL_DISASM_AHEAD_H
#define MYCL_DISASM_AHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <capstone/capstone.h>

struct dis_ahead;

/* A code range to decode: LEN bytes at CODE, at address ADDR. */
struct dis_span {
	const uint8_t *code;
	size_t len;
	uint64_t addr;
};

/* No such span (dis_ahead_find). */
#define DIS_AHEAD_NONE ((size_t)-1)

/* Code ranges shorter than this in all are decoded in the caller: threads would not pay. */
#define DIS_AHEAD_MIN (64 * 1024)

/*
 * Starts decoding the N spans of V (copied), in the order the caller will
 * walk them, with decoders of ARCH and MODE (details on; AT&T syntax when
 * ATT), SKIP bytes passed over where nothing decodes.  NULL when it would
 * not pay or cannot (one CPU, no memory, no thread, the decode_ahead switch
 * off; on starts a helper even on one CPU): the caller decodes itself.
 */
struct dis_ahead *dis_ahead_start(cs_arch arch, cs_mode mode, bool att, const struct dis_span *v,
				  size_t n, size_t skip);

/* The span of CODE, LEN, ADDR (the one the walk is on, or after it, if twice), or DIS_AHEAD_NONE. */
size_t dis_ahead_find(const struct dis_ahead *a, const uint8_t *code, size_t len, uint64_t addr);

/* The caller's walk of span I begins: dis_ahead_next() asks for its instructions. */
void dis_ahead_span(struct dis_ahead *a, size_t i);

/*
 * The walk's next step, at PC of the span begun (never before the last one
 * asked): true with *CI the instruction there (valid until the next call),
 * or NULL when none decodes there; false when PC is not where a decoder's
 * walk went (the first instructions of a piece, a span walked again, past
 * the span): the caller decodes that one itself and asks again for the next.
 */
bool dis_ahead_next(struct dis_ahead *a, uint64_t pc, const cs_insn **ci);

/* Stops the threads (wherever they are) and frees all. */
void dis_ahead_stop(struct dis_ahead *a);

#endif
