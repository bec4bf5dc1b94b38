/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

void mycl_log(const struct logger *lg, enum mycl_print_level level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!lg || !lg->print)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lg->print(level, buf, lg->ctx);
}

#define HUGE_PAGE (2u << 20)

bool opts_valid(const void *opts, size_t known)
{
	size_t sz;

	if (!opts)
		return true;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(sz))
		return false;
	for (size_t i = known; i < sz; i++)
		if (((const unsigned char *)opts)[i])
			return false;
	return true;
}

void mem_hint_large(void *p, size_t len)
{
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)(HUGE_PAGE - 1);

	/* Page faults are most of the cost of filling a fresh table: fewer, larger pages. */
	if (p && len >= 2 * HUGE_PAGE && e > a)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
}

int grow_array(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -ENOMEM;
	mem_hint_large(p, ncap * elem);
	*arr = p;
	*cap = ncap;
	return 0;
}

int grow_array_zeroed(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t old = *cap;
	int err = grow_array(arr, cap, need, elem);

	if (!err && *cap > old)
		memset((char *)*arr + old * elem, 0, (*cap - old) * elem);
	return err;
}

int cpus_available(void)
{
	cpu_set_t cpus;

	return sched_getaffinity(0, sizeof(cpus), &cpus) ? 1 : CPU_COUNT(&cpus);
}

int open_regular(const char *path)
{
	/* O_NONBLOCK: a FIFO's open returns at once (no writer needed); nothing else changes */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	int e = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st))
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	else if (fcntl(fd, F_SETFL, O_RDONLY))	/* blocking again, as open() makes it */
		e = errno;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

FILE *fopen_regular(const char *path)
{
	int fd = open_regular(path);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

bool path_inside(const char *root, const char *path)
{
	/* The path first: most candidates do not exist, and then the root need not be resolved. */
	char *p = realpath(path, NULL), *r = p ? realpath(root, NULL) : NULL;
	size_t n = r ? strlen(r) : 0;
	bool in = r && !strncmp(p, r, n) && (p[n] == '/' || (n == 1 && r[0] == '/'));

	free(r);
	free(p);
	return in;
}

char *path_normal(const char *path)
{
	char *out = malloc(strlen(path) + 2);
	size_t n = 0;

	if (!out)
		return NULL;
	for (const char *p = path; *p;) {
		const char *e = strchrnul(p, '/');
		size_t len = (size_t)(e - p);

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n && out[n - 1] != '/')	/* back over the last component */
				n--;
			if (n > 1 || (n == 1 && path[0] != '/'))
				n--;
		} else if (len && !(len == 1 && p[0] == '.')) {
			if (n && out[n - 1] != '/')
				out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		} else if (!n && p == path && path[0] == '/') {
			out[n++] = '/';
		}
		p = *e ? e + 1 : e;
	}
	out[n] = '\0';
	return out;
}

char *read_text_file(const char *path)
{
	FILE *f = fopen_regular(path);
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = feof(f) ? strdup("") : NULL;
	}
	fclose(f);
	return buf;
}

char *str_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

bool str_has_ctl(const char *s, size_t len)
{
	return str_ctl_at(s, len) < len;
}

/* Writes the escaped form of S (LEN bytes) into OUT (room for LEN * 4 + 1). */
static void escape_into(const char *s, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			*out++ = '\\';
			*out++ = 'x';
			*out++ = hex[c >> 4];
			*out++ = hex[c & 15];
		} else {
			*out++ = (char)c;
		}
	}
	*out = 0;
}

char *str_escape_ctl(const char *s, size_t len)
{
	char *out = malloc(len * 4 + 1);

	if (out)
		escape_into(s, len, out);
	return out;
}

const char *str_escape_ctl_buf(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (!str_has_ctl(s, n) || !len)
		return s;
	if (n * 4 + 1 > len)
		n = (len - 1) / 4;
	escape_into(s, n, buf);
	return buf;
}

#define SORT_MAX_RUNS 64

/* Merges the sorted runs [a, m) and [m, b) of BASE through TMP, the left one first on ties. */
static void merge_runs(char *base, char *tmp, size_t a, size_t m, size_t b, size_t size,
		       int (*cmp)(const void *, const void *))
{
	size_t i = a, j = m, o = 0;

	while (i < m && j < b) {
		size_t k = cmp(base + j * size, base + i * size) < 0 ? j++ : i++;

		memcpy(tmp + o++ * size, base + k * size, size);
	}
	memcpy(tmp + o * size, base + i * size, (m - i) * size);
	o += m - i;
	memcpy(tmp + o * size, base + j * size, (b - j) * size);
	o += b - j;
	memcpy(base + a * size, tmp, o * size);
}

int u64_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

void sort_array(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	size_t starts[SORT_MAX_RUNS + 1], nr = 1;
	char *p = base, *tmp;

	if (n < 2)
		return;
	starts[0] = 0;
	for (size_t i = 1; i < n; i++) {
		if (cmp(p + (i - 1) * size, p + i * size) <= 0)
			continue;
		if (nr == SORT_MAX_RUNS) {
			qsort(base, n, size, cmp);	/* glibc's is a stable merge sort */
			return;
		}
		starts[nr++] = i;
	}
	if (nr == 1)
		return;
	tmp = malloc(n * size);
	if (!tmp) {
		qsort(base, n, size, cmp);
		return;
	}
	starts[nr] = n;
	while (nr > 1) {
		size_t out = 0;

		for (size_t r = 0; r < nr; r += 2) {
			if (r + 1 < nr)
				merge_runs(p, tmp, starts[r], starts[r + 1], starts[r + 2], size, cmp);
			starts[out++] = starts[r];
		}
		starts[out] = n;
		nr = out;
	}
	free(tmp);
}

size_t str_utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	uint32_t cp;

	if (!n || s[0] > 0xf4)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

char *str_utf8_fixed(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t bad = 0, u;
	char *out, *o;

	for (size_t i = 0; p[i]; i += u ? u : 1) {
		u = p[i] < 0x80 ? 1 : str_utf8_len(p + i);
		bad += !u;
	}
	if (!bad || !(out = malloc(strlen(s) + 2 * bad + 1)))
		return NULL;
	o = out;
	for (size_t i = 0; p[i]; i += u ? u : 1) {
		u = p[i] < 0x80 ? 1 : str_utf8_len(p + i);
		if (u) {
			memcpy(o, p + i, u);
			o += u;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);	/* U+FFFD */
			o += 3;
		}
	}
	*o = '\0';
	return out;
}

size_t str_put_utf8(FILE *f, const char *s, const char *replacement)
{
	size_t u = (unsigned char)*s >= 0x80 ? str_utf8_len((const unsigned char *)s) : 0;

	if (u)
		fwrite(s, 1, u, f);
	else
		fputs(replacement, f);
	return u ? u : 1;
}
