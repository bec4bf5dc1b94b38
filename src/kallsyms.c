/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel symbols from a kallsyms file: "ffffffff81000000 T _text [module]". */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"

int kallsyms_load(const char *path, struct dso *d, struct logger *lg)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	uint64_t max_addr = 0;
	size_t nonzero = 0, lines = 0;
	int err = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char type, *name, *end;
		uint64_t addr;

		addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		lines++;
		type = end[1];
		name = end + 3;
		name[strcspn(name, "\t\n")] = '\0';
		if (addr)
			nonzero++;
		if (addr > max_addr)
			max_addr = addr;
		if (!strcmp(name, "_text"))
			d->kernel_text = addr;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (!addr)
			continue;
		err = symtab_add(&d->syms, addr, 0, name,
				 type == 'T' ? SYMB_GLOBAL : type == 'W' || type == 'w' ? SYMB_WEAK : SYMB_LOCAL,
				 false);
		if (err)
			break;
	}
	fclose(f);
	if (!err && lines && !nonzero) {
		mycl_log(lg, MYCL_WARN, "%s: all addresses are 0 (kptr_restrict): no kernel symbols",
			 path);
		symtab_free(&d->syms);
		return -EPERM;
	}
	if (!err && !d->syms.nr)
		return -ENOENT;
	if (!err)
		symtab_finish(&d->syms, max_addr + 1);
	return err;
}
