/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86_64's common instructions (moves, lea, arithmetic and compares,
 * push and pop, calls, jumps, returns, zero/sign extension, shifts,
 * set/cmov on a condition, nops) decoded here, as capstone 4 decodes them
 * in AT&T syntax with details on, for the analyses that need no text.
 * Capstone spends ~1 µs an instruction decoding, printing its operands and
 * filling every detail; mycl-share walks a whole .text (mariadbd: 2.2
 * million instructions, nine in ten of these forms).
 *
 * What is filled: the instruction's id, address, size, bytes and mnemonic
 * (op_str is empty), and in DET the implicit registers read and written,
 * the groups, and of cs_x86 the prefixes, REX byte, address size and
 * operands (type, register or immediate or memory, size, access), the rest
 * zero: every field mycl reads, each as capstone gives it
 * (tests/code/test_x86quick.c compares them on the fixtures' code, random
 * bytes and, with MYCL_X86LEN_FILES, any binary).  Anything else (lock,
 * rep and segment prefixes, SSE, x87, string operations...) is left to
 * capstone: the answer is 0.
 */
#ifndef MYCL_X86QUICK_H
#define MYCL_X86QUICK_H

#include <stddef.h>
#include <stdint.h>
#include <capstone/capstone.h>

/*
 * The size of the x86_64 instruction at CODE (LEN bytes there) at address
 * PC, with CI and DET filled (CI->detail is set to DET); 0 when it is not
 * one decoded here (CI and DET then undefined).
 */
size_t x86_quick(const uint8_t *code, size_t len, uint64_t pc, cs_insn *ci, cs_detail *det);

#endif
