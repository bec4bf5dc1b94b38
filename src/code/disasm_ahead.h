/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capstone's decoding of a long code range done ahead, on threads of their
 * own (one fewer than the CPUs, at most 3), while the caller's thread
 * follows the registers through what is already decoded: the walk of
 * disasm_iter (an instruction, or, where none decodes, a fixed number of
 * bytes skipped), in chunks decoded side by side, handed over in order.
 */
#ifndef MYCL_DISASM_AHEAD_H
#define MYCL_DISASM_AHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <capstone/capstone.h>

struct dis_ahead;

/* Code ranges shorter than this are decoded in the caller: a thread would not pay. */
#define DIS_AHEAD_MIN (256 * 1024)

/*
 * Starts decoding [CODE, CODE + LEN) at ADDR with decoders of ARCH and MODE
 * (details on; AT&T syntax when ATT), SKIP bytes passed over where nothing
 * decodes.  NULL when it would not pay or cannot (one CPU, no memory, no
 * thread, MYCL_DECODE_AHEAD=off in the environment; =on starts a helper
 * even on one CPU): the caller decodes itself.
 */
struct dis_ahead *dis_ahead_start(cs_arch arch, cs_mode mode, bool att, const uint8_t *code,
				  size_t len, uint64_t addr, size_t skip);

/*
 * The walk's next step, at PC (never before the last one asked): true with
 * *CI the instruction there (valid until the next call), or NULL when none
 * decodes there; false when PC is not where a decoder's walk went (the
 * first instructions of a chunk, past the range): the caller decodes that
 * one itself and asks again for the next.
 */
bool dis_ahead_next(struct dis_ahead *a, uint64_t pc, const cs_insn **ci);

/* Stops the thread (wherever it is) and frees all. */
void dis_ahead_stop(struct dis_ahead *a);

#endif
