/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Switches for tests and measurements: which of two equal ways the library
 * takes where it would otherwise decide by itself (a thread or not, a fast
 * path or not).  Results never depend on them.  The tools set them from
 * MYCL_READ_AHEAD, MYCL_DECODE_AHEAD, MYCL_SCAN_THREAD, MYCL_X86_QUICK,
 * MYCL_CHAIN_CACHE and MYCL_TYPE_THREADS (on or off); the library reads no
 * environment.
 */
#ifndef MYCL_TUNING_H
#define MYCL_TUNING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum mycl_switch {
	MYCL_SWITCH_AUTO = 0,		/* the library decides (CPUs, sizes) */
	MYCL_SWITCH_OFF,
	MYCL_SWITCH_ON,
};

struct mycl_tuning {
	size_t sz;			/* sizeof(struct mycl_tuning) */
	int read_ahead;			/* a thread reads perf.data ahead (AUTO: mycl_perf_data_opts) */
	int decode_ahead;		/* threads decode instructions ahead of the caller */
	int scan_thread;		/* a second thread walks a binary's code while it is decoded */
	int x86_quick;			/* x86's length decoder before capstone's */
	int chain_cache;		/* call chains resolved once per distinct chain */
	int type_threads;		/* mycl-share --types walks functions on threads beside the
					 * globals' scan */
};

/*
 * Sets the switches for the whole process (NULL: every one AUTO).  Call it
 * before any other function of the library, from one thread.  0, or
 * MYCL_ERR_OPTS (nothing set) when T sets fields this library does not know.
 */
int mycl_tuning__set(const struct mycl_tuning *t);

#ifdef __cplusplus
}
#endif
#endif
