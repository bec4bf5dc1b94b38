/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel symbols from a kallsyms file: "ffffffff81000000 T _text [module]". */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dso.h"

/* 1 + each byte's value as a hex digit, 0: none (122,000 addresses a kernel: a table). */
static const uint8_t hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/*
 * The whole file: mapped when it is a regular file (perf's build-id cache), else read as it
 * comes (/proc files report no size).  *MAPPED says which; kallsyms_unload() gives it back.
 */
static char *load_text(const char *path, size_t *len, bool *mapped)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 20, n = 0;
	struct stat st;
	char *buf = NULL;
	ssize_t r;

	*mapped = false;
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		buf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (buf != MAP_FAILED) {
			close(fd);
			madvise(buf, (size_t)st.st_size, MADV_SEQUENTIAL | MADV_WILLNEED);
			*mapped = true;
			*len = (size_t)st.st_size;
			return buf;
		}
		buf = NULL;
	}
	for (;;) {
		if (n == cap || !buf) {
			char *nb = realloc(buf, buf ? cap *= 2 : cap);

			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

int kallsyms_load(const char *path, struct dso *d, struct logger *lg)
{
	size_t len, lines = 0, nonzero = 0;
	bool mapped;
	const char *buf = load_text(path, &len, &mapped), *p, *end;
	uint64_t max_addr = 0;
	int err = 0;

	if (!buf)
		return -errno;
	/* Room for every line at once: about 40 bytes a line. */
	if (ARRAY_GROW(d->syms.syms, d->syms.cap, d->syms.nr + len / 40 + 1))
		err = -ENOMEM;
	d->syms.last_alias_wins = true;
	for (p = buf, end = buf + len; p < end && !err; ) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *name, *tab;
		uint64_t addr = 0;
		unsigned int v;
		int digits = 0;
		size_t nlen;
		char type;

		if (!eol)
			eol = end;
		while (p < eol && (v = hex1[(unsigned char)*p])) {
			addr = addr << 4 | (v - 1);
			p++;
			digits++;
		}
		/* "ADDR T name[\t[module]]" */
		if (digits && eol - p >= 3 && p[0] == ' ' && p[2] == ' ' && p[1] != '\n') {
			lines++;
			type = p[1];
			name = p + 3;
			tab = memchr(name, '\t', (size_t)(eol - name));	/* "\t[module]" */
			nlen = (size_t)((tab ? tab : eol) - name);
			if (addr)
				nonzero++;
			if (addr > max_addr)
				max_addr = addr;
			if (nlen == 5 && !memcmp(name, "_text", 5))
				d->kernel_text = addr;
			if (addr && (type == 't' || type == 'T' || type == 'w' || type == 'W'))
				/* perf's kallsyms2elf_binding: only 'W' is weak. */
				err = symtab_add_len(&d->syms, addr, 0, name, nlen,
						     type == 'W' ? SYMB_WEAK : type == 'T' ? SYMB_GLOBAL :
						     SYMB_LOCAL);
		}
		p = eol + 1;
	}
	if (mapped)
		munmap((void *)buf, len);
	else
		free((void *)buf);
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
