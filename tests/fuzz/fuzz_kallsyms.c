/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for kernel symbols read from a kallsyms file (--kallsyms,
 * perf's build-id cache, an archive's member): the bytes are the file, read
 * into an allocation of their exact size (ASan sees a byte read past them).
 * What kallsyms_parse() makes of them is checked against a plain reading
 * here, a line at a time: each function's address names the last one listed
 * there, escaped; _text; the kptr_restrict and no-symbol answers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"

struct ref {
	uint64_t addr;
	size_t seq;
	const char *name;
	size_t len;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *end = text + size, *p = text;
	struct ref *refs = calloc(size / 4 + 1, sizeof(*refs));
	size_t nr = 0, lines = 0, nonzero = 0;
	uint64_t text_addr = 0;
	char *buf = malloc(size ? size : 1);
	struct dso *d = dso_new("[kernel.kallsyms]", true);
	int err;

	if (!refs || !buf || !d)
		abort();
	memcpy(buf, data, size);
	/* The plain reading: "ADDR T name[\t...]" a line */
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p, *tab;
		uint64_t addr = 0;
		int digits = 0, v;

		if (!eol)
			eol = end;
		while (q < eol && (v = hexval((unsigned char)*q)) >= 0) {
			addr = addr << 4 | (uint64_t)v;
			q++;
			digits++;
		}
		if (digits && eol - q >= 3 && q[0] == ' ' && q[2] == ' ') {
			char type = q[1];
			const char *name = q + 3;

			lines++;
			nonzero += addr != 0;
			tab = memchr(name, '\t', (size_t)(eol - name));
			if (!tab)
				tab = eol;
			if ((size_t)(tab - name) == 5 && !memcmp(name, "_text", 5))
				text_addr = addr;
			if (addr && strchr("tTwW", type) && type) {
				refs[nr] = (struct ref){ addr, nr, name, (size_t)(tab - name) };
				nr++;
			}
		}
		p = eol + 1;
	}
	err = kallsyms_parse(buf, size, false, "fuzz", d, NULL);
	if (lines && !nonzero) {
		if (err != -EPERM)
			abort();
	} else if (!nr) {
		if (err != -ENOENT)
			abort();
	} else {
		if (err || d->kernel_text != text_addr)
			abort();
		qsort(refs, nr, sizeof(*refs), ref_cmp);
		for (size_t i = 0; i < nr; i++) {
			const struct sym *s;
			char *want;

			if (i + 1 < nr && refs[i + 1].addr == refs[i].addr)
				continue;	/* the last listed at an address is its name */
			/* [start, end): a function at the last address holds none */
			if (refs[i].addr == UINT64_MAX)
				continue;
			s = symtab_find(&d->syms, refs[i].addr);
			want = str_escape_ctl(refs[i].name, refs[i].len);
			if (!s || s->start != refs[i].addr || !want || strcmp(s->name, want))
				abort();
			free(want);
		}
	}
	dso_free(d);
	free(refs);
	return 0;
}
