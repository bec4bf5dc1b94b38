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

/*
 * With opts.call_sites: calls FN for each place of a binary the samples'
 * user-mode call chains pass (the sampled instruction; the call a return
 * address comes back from), with the samples passing it.
 */
int mycl_profile_for_each_site(const struct mycl_profile *p,
			       int (*fn)(struct dso *d, uint64_t vaddr, uint64_t samples, void *ctx),
			       void *ctx);

#endif
