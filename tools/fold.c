/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stream that keeps a text report within a width (100 columns unless
 * --wide): comment lines ("# ...": headers, warnings, summaries) are folded
 * at spaces under their indent, a word longer than a line (a path to copy)
 * whole on a line of its own; an annotated instruction's note ("  # ...") is
 * folded under itself; other lines (rows, call-graph branches,
 * annotated code) keep their columns and have their name - the text after a
 * "[.] " level mark, after a graph branch's "--", or after the indent -
 * shortened in the middle.  Tabs are expanded first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

struct fold {
	FILE *to;
	unsigned int width;
	char *line;
	size_t len, cap;
};

static void put_short(FILE *to, const char *s, size_t n, size_t room)
{
	size_t head, tail;

	if (n <= room || room < 8) {
		fwrite(s, 1, n, to);
		return;
	}
	head = (room - 3) / 2;
	tail = room - 3 - head;
	fwrite(s, 1, head, to);
	fputs("...", to);
	fwrite(s + n - tail, 1, tail, to);
}

/* The last space in S[LO+1..FROM], or 0. */
static size_t last_space(const char *s, size_t from, size_t lo)
{
	for (size_t i = from; i > lo; i--)
		if (s[i] == ' ')
			return i;
	return 0;
}

/* Past the spaces at *S. */
static void skip_spaces(const char **s, size_t *n)
{
	while (*n && **s == ' ') {
		(*s)++;
		(*n)--;
	}
}

static void fold_comment(struct fold *fd, const char *s, size_t n)
{
	size_t w = fd->width, ind = 1;
	bool first = true;

	while (ind < n && s[ind] == ' ')
		ind++;
	/* "# LABEL: text": continuation lines under the text; else four under the indent. */
	for (size_t i = ind; i + 1 < n && i < ind + 32; i++) {
		if (s[i] == ':' && s[i + 1] == ' ') {
			ind = i + 2 - 4;
			break;
		}
	}
	if (ind > w / 2)
		ind = w / 2;
	while (n) {
		size_t lead = first ? 0 : ind + 4, avail = w - lead, brk = 0;

		if (!first) {
			fputc('#', fd->to);
			fprintf(fd->to, "%*s", (int)(lead - 1), "");
		}
		if (n <= avail) {
			fwrite(s, 1, n, fd->to);
			break;
		}
		brk = last_space(s, avail, first ? ind : 0);
		if (!brk) {
			/*
			 * A word longer than the line (a path to copy, a long name):
			 * whole, on a line of its own, past the width.
			 */
			size_t from = first ? ind : 0, tok = from;

			while (tok < n && s[tok] != ' ')
				tok++;
			if (first && from > 1 && tok - from > avail - from) {
				/* the label on its line, the word under it */
				brk = from;
				while (brk > 1 && s[brk - 1] == ' ')
					brk--;
				if (brk > 1) {
					fwrite(s, 1, brk, fd->to);
					goto next;
				}
			}
			fwrite(s, 1, tok, fd->to);
			brk = tok;
		} else {
			fwrite(s, 1, brk, fd->to);
		}
next:
		s += brk;
		n -= brk;
		skip_spaces(&s, &n);
		if (n)
			fputc('\n', fd->to);
		first = false;
	}
	fputc('\n', fd->to);
}

/* Where the name of a row or branch starts: after "[.] ", after the last "--", after the indent. */
static size_t name_start(const char *s, size_t n)
{
	size_t i, dash = 0;

	for (i = 0; i + 3 < n && i < 120; i++)
		if (s[i] == '[' && s[i + 2] == ']' && s[i + 3] == ' ' && s[i + 1] != ' ')
			return i + 4;
	for (i = 0; i + 1 < n; i++)
		if (s[i] == '-' && s[i + 1] == '-')
			dash = i + 2;
	if (dash)
		return dash;
	for (i = 0; i < n && (s[i] == ' ' || s[i] == '|'); i++)
		;
	return i;
}

/* Where an annotated instruction's note ("  # c->hits rmw ...") starts, or 0. */
static size_t find_note(const char *s, size_t n)
{
	for (size_t i = 1; i + 3 < n; i++)
		if (s[i] == ':' && s[i + 1] == ' ' && s[i + 2] == ' ') {
			for (size_t k = i + 3; k + 3 < n; k++)
				if (s[k] == ' ' && s[k + 1] == ' ' && s[k + 2] == '#' && s[k + 3] == ' ')
					return k + 2;
			return 0;
		}
	return 0;
}

/* An annotated instruction whose note does not fit: the note folded at spaces under itself. */
static void fold_note(struct fold *fd, const char *s, size_t n, size_t note)
{
	size_t avail = fd->width - note - 2;

	fwrite(s, 1, note + 2, fd->to);
	s += note + 2;
	n -= note + 2;
	while (n) {
		size_t brk = 0;

		if (n <= avail) {
			fwrite(s, 1, n, fd->to);
			break;
		}
		brk = last_space(s, avail, 0);
		if (!brk)
			for (brk = avail; brk < n && s[brk] != ' '; brk++)
				;
		fwrite(s, 1, brk, fd->to);
		s += brk;
		n -= brk;
		skip_spaces(&s, &n);
		if (n)
			fprintf(fd->to, "\n%*s# ", (int)note, "");
	}
	fputc('\n', fd->to);
}

static void emit(struct fold *fd)
{
	char *s = fd->line;
	size_t n = fd->len, start, note;

	if (n <= fd->width) {
		fwrite(s, 1, n, fd->to);
		fputc('\n', fd->to);
		return;
	}
	if (s[0] == '#') {
		fold_comment(fd, s, n);
		return;
	}
	note = find_note(s, n);
	if (note && note + 24 < fd->width) {
		fold_note(fd, s, n, note);
		return;
	}
	start = name_start(s, n);
	if (start + 12 > fd->width) {
		/* Too deep to shorten: as it is. */
		fwrite(s, 1, n, fd->to);
	} else {
		fwrite(s, 1, start, fd->to);
		put_short(fd->to, s + start, n - start, fd->width - start);
	}
	fputc('\n', fd->to);
}

static int grow(struct fold *fd, size_t need)
{
	if (need <= fd->cap)
		return 0;
	while (fd->cap < need)
		fd->cap = fd->cap ? fd->cap * 2 : 256;
	fd->line = realloc(fd->line, fd->cap);
	return fd->line ? 0 : -1;
}

static ssize_t fold_write(void *cookie, const char *buf, size_t size)
{
	struct fold *fd = cookie;

	for (size_t i = 0; i < size; i++) {
		char c = buf[i];

		if (c == '\n') {
			emit(fd);
			fd->len = 0;
			continue;
		}
		if (grow(fd, fd->len + 9))
			return -1;
		if (c == '\t') {
			do
				fd->line[fd->len++] = ' ';
			while (fd->len % 8);
		} else {
			fd->line[fd->len++] = c;
		}
	}
	return (ssize_t)size;
}

static int fold_close(void *cookie)
{
	struct fold *fd = cookie;
	int err = 0;

	if (fd->len) {
		fwrite(fd->line, 1, fd->len, fd->to);
		fd->len = 0;
	}
	if (fflush(fd->to))
		err = -1;
	free(fd->line);
	free(fd);
	return err;
}

FILE *cli_folding(FILE *to, unsigned int width)
{
	cookie_io_functions_t io = { .write = fold_write, .close = fold_close };
	struct fold *fd = calloc(1, sizeof(*fd));
	FILE *f;

	if (!fd)
		return NULL;
	fd->to = to;
	fd->width = width;
	f = fopencookie(fd, "w", io);
	if (!f)
		free(fd);
	return f;
}
