/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names for events whose recording does not name them (no EVENT_DESC). */
#include <inttypes.h>
#include <stdio.h>
#include "perf_abi.h"
#include "perf_data_priv.h"

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

/* Returns a static name, or BUF filled with a generic one. */
const char *pd_event_default_name(uint32_t type, uint64_t config, char *buf, size_t len)
{
	switch (type) {
	case PT_HARDWARE:
		if (config < ARRAY_SIZE(hw_names))
			return hw_names[config];
		break;
	case PT_SOFTWARE:
		if (config < ARRAY_SIZE(sw_names))
			return sw_names[config];
		break;
	case PT_TRACEPOINT:
		snprintf(buf, len, "tracepoint:%" PRIu64, config);
		return buf;
	case PT_RAW:
		snprintf(buf, len, "r%" PRIx64, config);
		return buf;
	case PT_BREAKPOINT:
		return "breakpoint";
	default:
		break;
	}
	snprintf(buf, len, "type%" PRIu32 ":0x%" PRIx64, type, config);
	return buf;
}
