/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Streams that escape control characters on their way out.  Names in a
 * recording (comm, file names, symbols, DWARF strings) are the recording's
 * bytes: an ESC or a CSI in one must not reach the terminal.  Every byte
 * below 0x20 but newline and tab, DEL, and the C1 controls as UTF-8
 * (U+0080-U+009F, 0xc2 0x80-0x9f) are written as \xNN or \u00NN; the reports'
 * own output has none, and JSON strings already escape them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

struct esc {
	FILE *to;
	bool close_to;
	bool held_c2;		/* a 0xc2 ended the last write */
};

static bool plain(unsigned char c)
{
	return (c >= 0x20 && c != 0x7f && c != 0xc2) || c == '\n' || c == '\t';
}

static ssize_t esc_write(void *cookie, const char *buf, size_t size)
{
	struct esc *e = cookie;
	const unsigned char *p = (const unsigned char *)buf, *end = p + size;

	while (p < end) {
		const unsigned char *q = p;

		if (e->held_c2) {
			e->held_c2 = false;
			if (*p >= 0x80 && *p <= 0x9f) {
				fprintf(e->to, "\\u%04x", *p++);
				continue;
			}
			fputc(0xc2, e->to);
		}
		while (q < end && plain(*q))
			q++;
		if (q > p && fwrite(p, 1, (size_t)(q - p), e->to) != (size_t)(q - p))
			return -1;
		p = q;
		if (p == end)
			break;
		if (*p == 0xc2) {
			if (p + 1 == end) {
				e->held_c2 = true;
				p++;
			} else if (p[1] >= 0x80 && p[1] <= 0x9f) {
				fprintf(e->to, "\\u%04x", p[1]);
				p += 2;
			} else {
				fputc(*p++, e->to);
			}
		} else {
			fprintf(e->to, "\\x%02x", *p++);
		}
	}
	/* Passed on at once: a failed write shows in the caller's fflush. */
	return fflush(e->to) || ferror(e->to) ? -1 : (ssize_t)size;
}

static int esc_close(void *cookie)
{
	struct esc *e = cookie;
	int rc;

	if (e->held_c2)
		fputc(0xc2, e->to);
	rc = fflush(e->to);
	if (e->close_to && fclose(e->to))
		rc = EOF;
	free(e);
	return rc ? EOF : 0;
}

FILE *cli_escaping(FILE *to, bool close_to)
{
	struct esc *e = calloc(1, sizeof(*e));
	FILE *f;

	if (!e)
		return NULL;
	e->to = to;
	e->close_to = close_to;
	f = fopencookie(e, "w", (cookie_io_functions_t){ .write = esc_write, .close = esc_close });
	if (!f) {
		free(e);
		return NULL;
	}
	return f;
}

static FILE *std_out, *std_err;

static void close_std(void)
{
	if (std_out)
		fclose(std_out);
	if (std_err)
		fclose(std_err);
	std_out = std_err = NULL;
}

void cli_escape_std(void)
{
	FILE *o = cli_escaping(stdout, false), *e = cli_escaping(stderr, false);

	if (o) {
		std_out = stdout = o;
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	}
	if (e) {
		std_err = stderr = e;
		setvbuf(stderr, NULL, _IOLBF, 1024);
	}
	atexit(close_std);
}

FILE *cli_open_output(const char *path)
{
	FILE *f = fopen(path, "w"), *e;

	if (!f)
		return NULL;
	e = cli_escaping(f, true);
	if (!e)
		fclose(f);
	return e;
}
