/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The profile's samples per instruction (built with opts.annotate), for the
 * analyses above it (mycl-share weighs variables by the code that touches
 * them): the one way into them from outside profile/.
 */
#ifndef MYCL_PROFILE_INSNS_H
#define MYCL_PROFILE_INSNS_H

#include <stdbool.h>
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

/*
 * With opts.data_addresses: calls FN for each data address the samples
 * carry (8-byte aligned, in the order first sampled), with its samples and
 * whether those were HITMs.
 */
int mycl_profile_for_each_data_addr(const struct mycl_profile *p,
				    int (*fn)(uint64_t addr, uint64_t samples, bool hitm, void *ctx),
				    void *ctx);
/* With opts.data_addresses: the first executable mapping of a file named BASE; false: none. */
bool mycl_profile_first_map(const struct mycl_profile *p, const char *base, uint64_t *start,
			    uint64_t *pgoff);

#endif
