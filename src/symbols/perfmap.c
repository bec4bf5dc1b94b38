/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JIT symbol maps, /tmp/perf-PID.map: one "START SIZE name" line (hex) per symbol. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"

int perfmap_load(const char *path, struct dso *d)
{
	FILE *f = fopen_regular(path);
	char line[4096];
	int err = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		uint64_t start, size;

		start = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		size = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		end[1 + strcspn(end + 1, "\n")] = '\0';
		err = symtab_add(&d->syms, start, size, end + 1, SYMB_GLOBAL, true);
		if (err)
			break;
	}
	fclose(f);
	return err;
}
