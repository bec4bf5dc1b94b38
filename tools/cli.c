/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"

int cli_size(const char *prog, const char *opt, const char *arg, size_t min, size_t max,
	     size_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = isdigit((unsigned char)arg[0]) ? strtoull(arg, &end, 10) : 0;
	if (!isdigit((unsigned char)arg[0]) || *end || errno || v < min || v > max) {
		fprintf(stderr, "%s: %s takes a whole number from %zu to %zu, not '%s'\n", prog, opt,
			min, max, arg);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

int cli_double(const char *prog, const char *opt, const char *arg, double min, double max,
	       double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || isspace((unsigned char)arg[0]) || *end || errno || !isfinite(v) || v < min ||
	    v > max) {
		fprintf(stderr, "%s: %s takes a number from %g to %g, not '%s'\n", prog, opt, min, max,
			arg);
		return -1;
	}
	*out = v;
	return 0;
}

bool cli_is_dir(const char *prog, const char *opt, const char *path)
{
	struct stat sb;

	if (stat(path, &sb)) {
		fprintf(stderr, "%s: %s %s: %s\n", prog, opt, path, strerror(errno));
		return false;
	}
	if (!S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "%s: %s %s: not a directory\n", prog, opt, path);
		return false;
	}
	return true;
}

int cli_check_kallsyms(const char *prog, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0, good = 0;

	if (!f) {
		fprintf(stderr, "%s: --kallsyms %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char type, name[512];
		unsigned long long addr;
		int used = 0;

		n++;
		if (line[0] == '\n')
			continue;
		if (sscanf(line, "%llx %c %511s%n", &addr, &type, name, &used) != 3 ||
		    !isalpha((unsigned char)type) || !strchr(" \t", line[strspn(line, "0123456789abcdefABCDEF")])) {
			fprintf(stderr, "%s: %s:%d: not a kallsyms line (ADDRESS TYPE NAME): %.60s%s",
				prog, path, n, line, strchr(line, '\n') ? "" : "\n");
			fclose(f);
			return -1;
		}
		good++;
	}
	fclose(f);
	if (!good) {
		fprintf(stderr, "%s: --kallsyms %s: no symbols in it\n", prog, path);
		return -1;
	}
	return 0;
}

int cli_conflict(const char *prog, bool a, const char *na, bool b, const char *nb, const char *why)
{
	if (!a || !b)
		return 0;
	fprintf(stderr, "%s: %s and %s do not go together: %s\n", prog, na, nb, why);
	return -1;
}

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
