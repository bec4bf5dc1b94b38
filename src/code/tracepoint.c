/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "cursor.h"
#include "internal.h"
#include "tracepoint.h"

struct tp_name {
	uint64_t id;
	char *name;
};

struct tracepoints {
	struct tep_handle *tep;
	struct tp_name *names;
	size_t nr, cap;
};

/*
 * perf's tracing data: "\027\010\104tracing", a version string, the file's
 * endianness (1 byte: 1 big), the size of a long (1 byte), the page size
 * (u32); then header_page and header_event (a NUL-terminated tag and a u64
 * size each), ftrace formats (u32 count, each u64 size + text), the event
 * systems (u32 count; each: NUL-terminated name, u32 count, each u64 size +
 * text), then kallsyms, printk formats and saved cmdlines, unused here.
 */
/* Skips the literal LIT at *P (within END); false when it is not there. */
static bool take(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

/* Skips one or more decimal digits. */
static bool take_number(const char **p, const char *end)
{
	const char *s = *p;

	while (*p < end && **p >= '0' && **p <= '9')
		(*p)++;
	return *p > s && *p - s < 20;
}

/*
 * Whether the event format TEXT (LEN bytes, its "print fmt:" cut off) has the
 * shape the kernel writes: "name: NAME", "ID: N", "format:", then lines of
 * "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" and empty lines, DECL made of
 * C identifiers, spaces, stars and [N].  libtraceevent 1.7 crashes on some
 * damaged field lines (fuzz_tracepoint); a format that is not of this shape
 * is not given to it, and its event stays unnamed.
 */
static bool format_ok(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	if (!take(&p, end, "name: "))
		return false;
	while (p < end && *p != '\n')
		if ((unsigned char)*p++ < 0x20)
			return false;
	if (!take(&p, end, "\nID: ") || !take_number(&p, end) || !take(&p, end, "\nformat:\n"))
		return false;
	while (p < end) {
		if (*p == '\n') {
			p++;
			continue;
		}
		if (!take(&p, end, "\tfield:"))
			return false;
		while (p < end && *p != ';') {
			char ch = *p++;

			if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			      (ch >= '0' && ch <= '9') || ch == '_' || ch == ' ' || ch == '*' ||
			      ch == '[' || ch == ']'))
				return false;
		}
		if (!take(&p, end, ";\toffset:") || !take_number(&p, end) ||
		    !take(&p, end, ";\tsize:") || !take_number(&p, end) ||
		    !take(&p, end, ";\tsigned:") || !take_number(&p, end) || !take(&p, end, ";"))
			return false;
		if (p < end && !take(&p, end, "\n"))
			return false;
	}
	return true;
}

/*
 * One event's format to libtraceevent, without its "print fmt:" part: only
 * fields are read here, and the print format's expression parser is where
 * libtraceevent 1.7 crashes on damaged text (fuzz_tracepoint).  FMT is LEN
 * bytes, not NUL-terminated.
 */
static void parse_event(struct tep_handle *tep, const char *fmt, size_t len, const char *sys)
{
	static const char print[] = "\nprint fmt:", empty[] = "\nprint fmt: \"\"\n";
	const char *p = memmem(fmt, len, print, sizeof(print) - 1);
	size_t keep = p ? (size_t)(p - fmt) : len;
	char *copy;

	if (!format_ok(fmt, keep))
		return;
	copy = malloc(keep + sizeof(empty));
	if (!copy)
		return;
	memcpy(copy, fmt, keep);
	memcpy(copy + keep, empty, sizeof(empty));
	tep_parse_event(tep, copy, keep + sizeof(empty) - 1, sys);
	free(copy);
}

struct tracepoints *tracepoints_open(const void *data, size_t len)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tracepoints *t;
	struct cursor c;
	const char *ver;
	uint8_t big, longsz;
	uint32_t pagesz, n;
	bool swap;

	if (!data || len < sizeof(magic) + 8 || memcmp(data, magic, sizeof(magic)))
		return NULL;
	cursor_init(&c, (const uint8_t *)data + sizeof(magic), len - sizeof(magic), false);
	ver = (const char *)c.p;
	if (!memchr(ver, '\0', cursor_left(&c)))
		return NULL;
	cursor_skip(&c, strlen(ver) + 1);
	big = cursor_u8(&c);
	longsz = cursor_u8(&c);
	swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	c.swap = swap;
	pagesz = cursor_u32(&c);
	t = calloc(1, sizeof(*t));
	if (!t || !(t->tep = tep_alloc())) {
		free(t);
		return NULL;
	}
	tep_set_file_bigendian(t->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, longsz);
	tep_set_page_size(t->tep, (int)pagesz);
	for (int i = 0; i < 2 && !c.bad; i++) {
		/* "header_page\0" u64 size, data; "header_event\0" u64 size, data */
		const char *tag = (const char *)c.p;
		uint64_t sz;
		const void *p;

		if (!memchr(tag, '\0', cursor_left(&c)))
			goto bad;
		cursor_skip(&c, strlen(tag) + 1);
		sz = cursor_u64(&c);
		p = cursor_bytes(&c, sz > cursor_left(&c) ? cursor_left(&c) + 1 : sz);
		if (p && i == 0)
			tep_parse_header_page(t->tep, (char *)p, (unsigned long)sz, longsz);
	}
	n = cursor_u32(&c);
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		uint64_t sz = cursor_u64(&c);

		cursor_skip(&c, sz > cursor_left(&c) ? cursor_left(&c) + 1 : sz);
	}
	n = cursor_u32(&c);
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		const char *sys = (const char *)c.p;
		uint32_t ne;

		if (!memchr(sys, '\0', cursor_left(&c)))
			goto bad;
		cursor_skip(&c, strlen(sys) + 1);
		ne = cursor_u32(&c);
		for (uint32_t k = 0; k < ne && !c.bad; k++) {
			uint64_t sz = cursor_u64(&c);
			const char *fmt = cursor_bytes(&c, sz > cursor_left(&c) ? cursor_left(&c) + 1 : sz);

			if (fmt)
				parse_event(t->tep, fmt, (size_t)sz, sys);
		}
	}
	if (c.bad && !n)
		goto bad;
	return t;
bad:
	tracepoints_close(t);
	return NULL;
}

void tracepoints_close(struct tracepoints *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		free(t->names[i].name);
	free(t->names);
	tep_free(t->tep);
	free(t);
}

const char *tracepoints_name(struct tracepoints *t, uint64_t id)
{
	struct tep_event *e;
	char *name;

	for (size_t i = 0; i < t->nr; i++)
		if (t->names[i].id == id)
			return t->names[i].name;
	e = tep_find_event(t->tep, (int)id);
	if (!e || asprintf(&name, "%s:%s", e->system, e->name) < 0)
		return NULL;
	if (ARRAY_GROW(t->names, t->cap, t->nr + 1)) {
		free(name);
		return NULL;
	}
	t->names[t->nr++] = (struct tp_name){ id, name };
	return name;
}

bool tracepoints_field(struct tracepoints *t, uint64_t id, const char *name, const void *raw,
		       size_t raw_size, uint64_t *val)
{
	struct tep_event *e = tep_find_event(t->tep, (int)id);
	struct tep_format_field *f = e ? tep_find_field(e, name) : NULL;
	unsigned long long v;

	if (!f || (size_t)f->offset + (size_t)f->size > raw_size ||
	    tep_read_number_field(f, raw, &v))
		return false;
	*val = v;
	return true;
}
