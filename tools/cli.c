/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include "cli.h"

void cli_print(enum mycl_print_level level, const char *msg, void *ctx)
{
	const struct cli_log *lg = ctx;

	if ((int)level > lg->verbose)
		return;
	fprintf(stderr, "%s: %s%s\n", lg->prog, level == MYCL_WARN ? "warning: " : "", msg);
}

int cli_exit_code(int err)
{
	switch (err) {
	case 0:
		return EXIT_OK;
	case -ENOMEM:
		return EXIT_INTERNAL;
	case MYCL_ERR_NO_EVENT:
	case MYCL_ERR_NO_SAMPLES:
		return EXIT_NOTHING;
	case MYCL_ERR_NOT_PERF_DATA:
	case MYCL_ERR_LEGACY_FORMAT:
	case MYCL_ERR_TRUNCATED:
	case MYCL_ERR_CORRUPT:
	case MYCL_ERR_UNSUPPORTED:
	case MYCL_ERR_DECOMPRESS:
	case MYCL_ERR_SIMPLEPERF:
	case -EISDIR:
		return EXIT_BAD_INPUT;
	default:
		return EXIT_IO;
	}
}
