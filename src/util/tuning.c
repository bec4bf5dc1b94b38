/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The process's switches (mycl/tuning.h): set once by the caller, read anywhere. */
#include <string.h>
#include "internal.h"
#include "mycl/tuning.h"

static struct mycl_tuning tuning;

MYCL_API int mycl_tuning__set(const struct mycl_tuning *t)
{
	if (!OPTS_VALID(t, mycl_tuning))
		return MYCL_ERR_OPTS;
	memset(&tuning, 0, sizeof(tuning));
	if (!t)
		return 0;
	tuning.read_ahead = OPTS_GET(t, read_ahead, MYCL_SWITCH_AUTO);
	tuning.decode_ahead = OPTS_GET(t, decode_ahead, MYCL_SWITCH_AUTO);
	tuning.scan_thread = OPTS_GET(t, scan_thread, MYCL_SWITCH_AUTO);
	tuning.x86_quick = OPTS_GET(t, x86_quick, MYCL_SWITCH_AUTO);
	tuning.chain_cache = OPTS_GET(t, chain_cache, MYCL_SWITCH_AUTO);
	tuning.type_threads = OPTS_GET(t, type_threads, MYCL_SWITCH_AUTO);
	return 0;
}

const struct mycl_tuning *tuning_get(void)
{
	return &tuning;
}
