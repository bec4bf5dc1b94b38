/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Disassembly with capstone (x86_64, i386, aarch64, arm, ppc64/ppc64le, s390x;
 * riscv64 by a decoder of its own, capstone 4 has none), and for
 * each instruction: where it branches, and which memory address it reads or
 * writes when the address is known statically (RIP-relative, ADRP pairs,
 * TOC-relative, PC-relative *RL forms) — the global it touches.
 */
#ifndef MYCL_DISASM_H
#define MYCL_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "insn.h"

struct elf_image;

struct disasm;

/*
 * A disassembler for ELF machine E_MACHINE (EM_*).  TOC: the ppc64 TOC pointer
 * value (r2) when known, else 0.  -ENOTSUP for other machines.
 */
int disasm_open(struct disasm **out, uint16_t e_machine, bool big_endian, uint64_t toc);
void disasm_close(struct disasm *d);
/* A disassembler for IMG's code: its machine, TOC or gp, GOT slots and Thumb functions. */
int disasm_for_image(struct disasm **out, const struct elf_image *img);
/* Disassembles CODE (LEN bytes at ADDR) into *OUT (caller frees), *N instructions. */
int disasm_range(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		 struct insn **out, size_t *n);
/*
 * The same into the caller's array *V of capacity *CAP, grown as needed and
 * kept for the next range (a walk of every function allocates once).
 */
int disasm_range_into(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		      struct insn **v, size_t *cap, size_t *n);
/*
 * x86: the size of the one instruction at CODE (LEN bytes at ADDR) as
 * disasm_iter() decodes it; 0 when it cannot (disasm_iter skips a byte).
 * *FACTS (x86len.h): X86_FACT_LOCK when it is an exchange, compare-and-swap,
 * pause, system call or interrupt, or has a lock prefix byte; X86_FACT_BRANCH
 * when it moves control (jump, call, return, loop, interrupt).
 */
size_t disasm_insn_size(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
			unsigned int *facts);
/*
 * The N spans of V (code ranges, struct dis_span of disasm_ahead.h) the
 * caller will disassemble next, in this order (disasm_range or disasm_iter
 * of each): capstone decodes them ahead on other threads, when that pays.
 * Spans asked for in another order, or not in V, are decoded as before.
 */
struct dis_span;
void disasm_decode_ahead(struct disasm *d, const struct dis_span *v, size_t n);
/* Stops the decoding of disasm_decode_ahead() (disasm_close does too). */
void disasm_decode_ahead_end(struct disasm *d);
/* Calls FN for each instruction of CODE in order; stops on non-zero. */
int disasm_iter(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		int (*fn)(const struct insn *in, void *arg), void *arg);
/*
 * disasm_iter with the walk (decoding, the register flow) on a thread of its
 * own and FN on the caller's, when the code is x86_64, at least
 * DIS_PIPE_MIN bytes and a second CPU may run it (the scan_thread switch, off|on
 * decides): FN gets the same instructions in the same order.  FN must not
 * use D, and nothing the walk reads may change meanwhile (the image's
 * relocations read first: elf_image_read_relocs).
 */
#define DIS_PIPE_MIN (64 * 1024)
int disasm_iter_piped(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		      int (*fn)(const struct insn *in, void *arg), void *arg);
const char *disasm_arch_name(uint16_t e_machine);
/* FN(CTX, SLOT): the address a GOT/TOC slot holds, or 0 (for loads through the GOT). */
/* arm: FN(CTX, ADDR) tells whether the function starting at ADDR is Thumb code. */
void disasm_set_thumb(struct disasm *d, bool (*fn)(void *ctx, uint64_t addr), void *ctx);
void disasm_set_got(struct disasm *d, uint64_t (*fn)(void *ctx, uint64_t slot), void *ctx);
/* Whether to format ->text (on by default; scans of whole binaries turn it off). */
void disasm_set_text(struct disasm *d, bool text);
/*
 * Whether to fill the fields after spin_hint (off by default: the constants,
 * arguments and frame slots they follow cost a scan of a whole binary time).
 */
void disasm_set_lock_facts(struct disasm *d, bool on);
/* Whether to fill the fields after arg0_deref_off (mycl-share's address and argument flow). */
void disasm_set_share_facts(struct disasm *d, bool on);
/* Whether to fill the ty_ fields (data types: registers and memory operands as DWARF sees them). */
void disasm_set_type_facts(struct disasm *d, bool on);
/*
 * Function starts (sorted; kept by the caller): what registers hold is
 * forgotten at each, and the arguments are known there.
 */
void disasm_set_starts(struct disasm *d, const uint64_t *starts, size_t n);

/* N call results sorted by AT (kept by the caller; NULL: none). */
void disasm_set_call_results(struct disasm *d, const struct call_result *v, size_t n);

#endif
