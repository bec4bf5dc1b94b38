/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef MYCL_OFFCPU_H
#define MYCL_OFFCPU_H

#include <stdint.h>
#include "mycl/perf_data.h"

struct mycl_profile;

/*
 * A tracepoint sample (sched_switch, futex syscalls, lock contention); LEAF
 * its call-tree node.  Waits are credited where profile_wait_site() says.
 */
int offcpu_sample(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf);
/* Every sample, kept by the filters or not, first: the waits it ends (see offcpu.c). */
int offcpu_observe(struct mycl_profile *p, const struct mycl_sample *s);
void offcpu_free(struct mycl_profile *p);

#endif
