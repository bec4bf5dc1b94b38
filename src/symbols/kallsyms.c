/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel symbols from a kallsyms file: "ffffffff81000000 T _text [module]". */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Reads the whole file: /proc files do not report a size, so grow as needed. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 20, n = 0;
	char *buf = NULL;

	if (!f)
		return NULL;
	for (;;) {
		char *nb = realloc(buf, cap + 1);

		if (!nb) {
			free(buf);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		buf = nb;
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		cap *= 2;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int kallsyms_load(const char *path, struct dso *d, struct logger *lg)
{
	size_t len, lines = 0, nonzero = 0;
	char *buf = read_all(path, &len), *p, *end;
	uint64_t max_addr = 0;
	int err = 0;

	if (!buf)
		return -errno;
	for (p = buf, end = buf + len; p < end && !err; ) {
		char *eol = memchr(p, '\n', (size_t)(end - p)), *name;
		uint64_t addr = 0;
		int v, digits = 0;
		char type;

		if (!eol)
			eol = end;
		*eol = '\0';
		while ((v = hexval((unsigned char)*p)) >= 0) {
			addr = addr << 4 | (uint64_t)v;
			p++;
			digits++;
		}
		/* "ADDR T name[\t[module]]" */
		if (digits && p[0] == ' ' && p[1] && p[2] == ' ') {
			lines++;
			type = p[1];
			name = p + 3;
			name[strcspn(name, "\t")] = '\0';
			if (addr)
				nonzero++;
			if (addr > max_addr)
				max_addr = addr;
			if (!strcmp(name, "_text"))
				d->kernel_text = addr;
			d->syms.last_alias_wins = true;
			if (addr && (type == 't' || type == 'T' || type == 'w' || type == 'W'))
				/* perf's kallsyms2elf_binding: only 'W' is weak. */
				err = symtab_add(&d->syms, addr, 0, name,
						 type == 'W' ? SYMB_WEAK : type == 'T' ? SYMB_GLOBAL :
						 SYMB_LOCAL, false);
		}
		p = eol + 1;
	}
	free(buf);
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
