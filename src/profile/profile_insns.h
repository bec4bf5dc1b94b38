/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The profile's samples per instruction (built with opts.annotate), for the
 * analyses above it (mycl-share weighs variables by the code that touches
 * them): the one way into them from outside profile/.
 */
#ifndef MYCL_PROFILE_INSNS_H
#define MYCL_PROFILE_INSNS_H

#include <stdint.h>

struct dso;
struct mycl_profile;

/* Calls FN for each instruction with samples: its binary, its address there, its samples. */
int mycl_profile_for_each_insn(const struct mycl_profile *p,
			       int (*fn)(struct dso *d, uint64_t vaddr, uint64_t samples, void *ctx),
			       void *ctx);

#endif
