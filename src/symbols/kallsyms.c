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

/* Per byte of W, 0x80 when it is at least LO (every byte below 0x80). */
#define BYTES_GE(w, lo) (((w) + (0x80 - (lo)) * 0x0101010101010101ULL) & 0x8080808080808080ULL)

/*
 * The 8 hex digits at P as a number, or -1 when one is none: eight at a time
 * (a 64-bit kernel's addresses are 16 digits, two such halves).
 */
static inline int64_t hex8(const char *p)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t w, low, digit, letter, v;

	memcpy(&w, p, 8);
	if (w & highs)
		return -1;
	low = w | 0x20 * ones;
	digit = BYTES_GE(w, 0x30) & ~BYTES_GE(w, 0x3a);
	letter = BYTES_GE(low, 0x61) & ~BYTES_GE(low, 0x67);
	if ((digit | letter) != highs)
		return -1;
	/* '0'-'9' are 0x30-0x39, 'a'-'f' and 'A'-'F' 0x41-0x46 and 0x61-0x66 (bit 6 set) */
	v = (w & 0x0f * ones) + 9 * ((w >> 6) & ones);
	/* the first character (lowest byte) is the most significant digit */
	v = ((v << 4) + (v >> 8)) & 0x00ff00ff00ff00ffULL;
	v = ((v << 8) + (v >> 16)) & 0x0000ffff0000ffffULL;
	v = ((v << 16) + (v >> 32)) & 0xffffffffULL;
	return (int64_t)v;
}

int kallsyms_parse(char *buf, size_t len, bool mapped, const char *path, struct dso *d,
		   struct logger *lg)
{
	size_t lines = 0, nonzero = 0;
	bool kept = false;
	const char *p, *end;
	uint64_t max_addr = 0;
	int err = 0;

	/* What an earlier, failed reading left (its text with it). */
	if (d->syms.text)
		symtab_free(&d->syms);
	/* Room for every line at once: about 40 bytes a line. */
	if (ARRAY_GROW(d->syms.syms, d->syms.cap, d->syms.nr + len / 40 + 1))
		err = -ENOMEM;
	d->syms.last_alias_wins = true;
	for (p = buf, end = buf + len; p < end && !err; ) {
		const char *eol, *name, *stop;
		enum sym_binding b;
		uint64_t addr = 0;
		unsigned int v;
		int digits = 0;
		bool fast = false;
		size_t nlen;
		char type;

		if (end - p >= 17 && p[16] == ' ') {
			int64_t hi = hex8(p), lo = hi < 0 ? -1 : hex8(p + 8);

			if (lo >= 0) {
				addr = (uint64_t)hi << 32 | (uint64_t)lo;
				p += 16;
				digits = 16;
				fast = true;
			}
		}
		while (!fast && p < end && (v = hex1[(unsigned char)*p])) {
			addr = addr << 4 | (v - 1);
			p++;
			digits++;
		}
		/* "ADDR T name[\t[module]]" */
		if (!digits || end - p < 3 || p[0] != ' ' || p[1] == '\n' || p[2] != ' ') {
			eol = memchr(p, '\n', (size_t)(end - p));
			p = eol ? eol + 1 : end;
			continue;
		}
		lines++;
		type = p[1];
		name = p + 3;
		/*
		 * The name ends at a tab ("\t[module]") or the newline; a name with
		 * a control character in it, or the file's last line without a
		 * newline, is copied (escaped), the others kept in place.
		 */
		stop = name + str_ctl_at(name, (size_t)(end - name));
		nlen = (size_t)(stop - name);
		if (stop < end && *stop == '\n')
			eol = stop;
		else if (stop < end && *stop == '\t')
			eol = memchr(stop, '\n', (size_t)(end - stop));
		else if (stop == end)
			eol = end;
		else {
			const char *tab;

			eol = memchr(name, '\n', (size_t)(end - name));
			tab = memchr(name, '\t', (size_t)((eol ? eol : end) - name));
			nlen = (size_t)((tab ? tab : eol ? eol : end) - name);
			stop = NULL;
		}
		if (!eol)
			eol = end;
		if (addr)
			nonzero++;
		if (addr > max_addr)
			max_addr = addr;
		if (nlen == 5 && !memcmp(name, "_text", 5))
			d->kernel_text = addr;
		if (addr && (type == 't' || type == 'T' || type == 'w' || type == 'W')) {
			/* perf's kallsyms2elf_binding: only 'W' is weak. */
			b = type == 'W' ? SYMB_WEAK : type == 'T' ? SYMB_GLOBAL : SYMB_LOCAL;
			if (stop && stop < end) {
				err = symtab_add_raw(&d->syms, addr, name, b);
				kept = true;
			} else {
				err = symtab_add_len(&d->syms, addr, 0, name, nlen, b);
			}
		}
		p = eol + 1;
	}
	/* Raw names point into it: the table keeps it (a failed reading's too). */
	if (kept) {
		symtab_keep_text(&d->syms, buf, len, mapped);
		buf = NULL;
	}
	if (buf && mapped)
		munmap(buf, len);
	else
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
	symtab_rest_text(&d->syms);
	return err;
}

int kallsyms_load(const char *path, struct dso *d, struct logger *lg)
{
	size_t len;
	bool mapped;
	char *buf = load_text(path, &len, &mapped);

	if (!buf)
		return -errno;
	return kallsyms_parse(buf, len, mapped, path, d, lg);
}
