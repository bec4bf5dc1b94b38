/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names for events whose recording does not name them (no EVENT_DESC). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

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

static bool flag(uint64_t flags, int bit)
{
	return (flags >> bit) & 1;
}

/*
 * Appends perf's modifier suffix (":u", ":ppp", ":uH"...) for an event named
 * from its type and config, so names match what perf shows for the same
 * attr: the privilege levels counted when any is excluded, the precise level,
 * and host/guest when exclude_guest differs from perf's default.
 */
void pd_event_add_modifiers(uint64_t flags, char *buf, size_t len)
{
	char mod[16];
	size_t n = 0;
	bool guest_default = false;
	unsigned int precise = (flags >> AF_PRECISE_LO) & 3;

	if (flag(flags, AF_EXCLUDE_KERNEL) || flag(flags, AF_EXCLUDE_USER) ||
	    flag(flags, AF_EXCLUDE_HV)) {
		if (!flag(flags, AF_EXCLUDE_KERNEL))
			mod[n++] = 'k';
		if (!flag(flags, AF_EXCLUDE_USER))
			mod[n++] = 'u';
		if (!flag(flags, AF_EXCLUDE_HV))
			mod[n++] = 'h';
		guest_default = true;
	}
	for (unsigned int i = 0; i < precise; i++)
		mod[n++] = 'p';
	if (precise)
		guest_default = true;
	if (flag(flags, AF_EXCLUDE_HOST) || flag(flags, AF_EXCLUDE_GUEST) == guest_default) {
		if (!flag(flags, AF_EXCLUDE_HOST))
			mod[n++] = 'H';
		if (!flag(flags, AF_EXCLUDE_GUEST))
			mod[n++] = 'G';
	}
	mod[n] = '\0';
	if (n) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, ":%s", mod);
	}
}
