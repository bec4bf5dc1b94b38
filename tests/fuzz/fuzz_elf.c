/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for what mycl-hot reads of a binary, on any bytes as an
 * ELF file: the symbol tables (.symtab, .dynsym, demangling, PLT names),
 * segments and file offsets, DWARF source lines and inlined frames at the
 * symbols' addresses, data symbols and member paths, and the lock-code
 * classification (disassembly and data references) of the first functions.
 * Seeded with the fixtures' binaries.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dso.h"
#include "fuzz_input.h"
#include "inline.h"
#include "lockcode.h"

struct pool {
	char **s;
	size_t n, cap;
};

static const char *pool_intern(void *ctx, const char *s)
{
	struct pool *p = ctx;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		char **n = realloc(p->s, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->s = n;
		p->cap = cap;
	}
	return p->s[p->n++] = strdup(s);
}

static int named(void *ctx, const char *name)
{
	(void)ctx;
	/* A rule of each answer, so that both paths of the classifier run. */
	if (strstr(name, "lock"))
		return 1;
	if (strstr(name, "sched"))
		return -1;
	return 0;
}

static uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts so = { .debug_dir = NULL, .demangle = true };
	struct pool pool = { 0 };
	struct inline_names in = { pool_intern, &pool };
	char path[64], buf[256];
	struct dso *d;

	if (fuzz_file("elf", data, size, path, sizeof(path)))
		return 0;
	d = dso_new(path, false);
	if (!d)
		return 0;
	dso_load(d, &so);
	sink += d->status + d->syms.nr + d->data_syms.nr;
	for (size_t i = 0; i < d->syms.nr && i < 24; i++) {
		const struct sym *s = &d->syms.syms[i];
		const char *names[16], *file;
		size_t n = 0;
		bool replaces;
		int line;

		sink += strlen(s->name) + dso_offset_to_vaddr(d, s->start);
		if (!symtab_find(&d->syms, s->start + (s->end - s->start) / 2))
			sink++;
		if (!inline_frames(&in, d, s->start, s->name, names, 16, &n, &replaces))
			sink += n + replaces;
		if (!inline_srcline(d, s->start, &file, &line) && file)
			sink += strlen(file) + line;
		if (i < 6) {
			const struct lock_code *c = lock_code_of(d, s, named, NULL);

			sink += lock_code_kind_shallow(d, s) + (c != NULL);
		}
	}
	for (size_t i = 0; i < d->data_syms.nr && i < 8; i++) {
		const struct sym *v = &d->data_syms.syms[i];

		if (!inline_member_path(d, v->name, v->start, 0, buf, sizeof(buf)))
			sink += strlen(buf);
		if (!inline_pointee_path(d, v->name, v->start, 8, buf, sizeof(buf)))
			sink += strlen(buf);
	}
	dso_free(d);
	for (size_t i = 0; i < pool.n; i++)
		free(pool.s[i]);
	free(pool.s);
	return 0;
}
