/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DWARF unwinding of --call-graph dwarf samples with libdwfl: the sample's
 * user registers start the walk and its copy of the user stack is the memory
 * the unwinder reads; .eh_frame and .debug_frame of the mapped binaries give
 * the rules.  One Dwfl per process, kept while its maps stay the same.
 */
#ifndef MYCL_UNWIND_H
#define MYCL_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include "mycl/perf_data.h"

struct machine;
struct unwinder;

enum unwind_end {
	UNWIND_COMPLETE,		/* the unwinder found no caller: outermost frame */
	UNWIND_NO_CFI,			/* a frame had no unwind rule (no .eh_frame/.debug_frame) */
	UNWIND_STACK_END,		/* the stack copy ended (perf's dump size) */
	UNWIND_NOT_SUPPORTED,		/* no registers or stack, or an architecture libdw cannot do */
	UNWIND_MAX_DEPTH,
};

/* ARCH: the recording's (uname -m), deciding the register layout. */
struct unwinder *unwinder_new(struct machine *m, const char *arch);
void unwinder_free(struct unwinder *u);
/*
 * Unwinds sample S's user stack into IPS (innermost first, callers as
 * return address - 1 as perf does), at most MAX.  *END says why it stopped.
 */
int unwinder_unwind(struct unwinder *u, const struct mycl_sample *s, uint64_t *ips, size_t max,
		    size_t *n, enum unwind_end *end);
const char *unwind_end_str(enum unwind_end e);

#endif
