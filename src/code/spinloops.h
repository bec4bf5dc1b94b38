/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Spin loops in code no rule names (a mutex inlined into its caller): short
 * backward loops holding a spin hint (pause, yield, isb, wfe, or 27,27,27)
 * or an atomic read-modify-write, found by disassembling the function.
 */
#ifndef MYCL_SPINLOOPS_H
#define MYCL_SPINLOOPS_H

#include <stdbool.h>
#include <stdint.h>

struct dso;
struct sym;

struct spin_info {
	bool in_loop;			/* VADDR is inside a spin loop of FN */
	const char *lock_word;		/* the global an atomic in the loop targets */
	const char *seed;		/* a global written non-atomically in the loop */
};

/* Looks VADDR up among FN's spin loops (FN is a symbol of D); cached per function. */
void spin_loop_at(struct dso *d, const struct sym *fn, uint64_t vaddr, struct spin_info *out);
/* The globals FN's spin loops touch, anywhere in FN. */
void spin_loop_globals(struct dso *d, const struct sym *fn, struct spin_info *out);

#endif
