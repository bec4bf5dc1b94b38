/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tracepoint samples decoded with libtraceevent, from the event formats in
 * the recording's tracing data (not from the running kernel).
 */
#ifndef MYCL_TRACEPOINT_H
#define MYCL_TRACEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tracepoints;

/* Parses perf's tracing data.  NULL when there is none or it does not parse. */
struct tracepoints *tracepoints_open(const void *data, size_t len);
void tracepoints_close(struct tracepoints *t);
/* "sched:sched_switch" for the tracepoint ID, or NULL. */
const char *tracepoints_name(struct tracepoints *t, uint64_t id);
/* Field NAME of a sample of tracepoint ID from its RAW data. */
bool tracepoints_field(struct tracepoints *t, uint64_t id, const char *name, const void *raw,
		       size_t raw_size, uint64_t *val);

#endif
