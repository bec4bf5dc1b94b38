/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->cap = sizeof(j->need_inline) / sizeof(j->need_inline[0]);
	j->need_comma = j->need_inline;
	j->need_comma[0] = false;
	j->err = 0;
}

int json_finish(struct json *j)
{
	if (j->need_comma != j->need_inline)
		free(j->need_comma);
	j->need_comma = j->need_inline;
	return j->err ? j->err : ferror(j->f) ? -EIO : 0;
}

static bool json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/*
 * S quoted and escaped; runs of plain characters go out in one write.  Bytes
 * that are no UTF-8 (a comm or a symbol of another encoding, a damaged name)
 * become U+FFFD: a JSON text is UTF-8, and a reader refuses the document.
 */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	while (*s) {
		const char *run = s;

		while (json_plain((unsigned char)*s))
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (!*s)
			break;
		if ((unsigned char)*s >= 0x80) {
			s += str_put_utf8(f, s, "\\ufffd");
			continue;
		}
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else
			fprintf(f, "\\u%04x", (unsigned char)*s);
		s++;
	}
	fputc('"', f);
}

/* Writes the comma and key of a new value; false when the writer has failed. */
static bool key(struct json *j, const char *k)
{
	if (j->err)
		return false;
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
	if (k) {
		put_str(j->f, k);
		fputc(':', j->f);
	}
	return true;
}

static bool grow(struct json *j)
{
	size_t ncap = j->cap * 2;
	bool *n = j->need_comma == j->need_inline ? malloc(ncap * sizeof(*n)) :
		  realloc(j->need_comma, ncap * sizeof(*n));

	if (!n) {
		j->err = -ENOMEM;
		return false;
	}
	if (j->need_comma == j->need_inline)
		memcpy(n, j->need_inline, sizeof(j->need_inline));
	j->need_comma = n;
	j->cap = ncap;
	return true;
}

static void open_(struct json *j, const char *k, char c)
{
	if (!key(j, k) || (j->depth + 1 >= j->cap && !grow(j)))
		return;
	fputc(c, j->f);
	j->need_comma[++j->depth] = false;
}

void json_begin_obj(struct json *j, const char *k)
{
	open_(j, k, '{');
}

void json_begin_arr(struct json *j, const char *k)
{
	open_(j, k, '[');
}

void json_end_obj(struct json *j)
{
	if (j->err || !j->depth)
		return;
	j->depth--;
	fputc('}', j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_end_arr(struct json *j)
{
	if (j->err || !j->depth)
		return;
	j->depth--;
	fputc(']', j->f);
}

void json_str(struct json *j, const char *k, const char *v)
{
	if (!key(j, k))
		return;
	if (v)
		put_str(j->f, v);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *k, uint64_t v)
{
	if (!key(j, k))
		return;
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *k, int64_t v)
{
	if (!key(j, k))
		return;
	fprintf(j->f, "%" PRId64, v);
}

void json_dbl(struct json *j, const char *k, double v, int decimals)
{
	if (!key(j, k))
		return;
	fprintf(j->f, "%.*f", decimals, v);
}

void json_bool(struct json *j, const char *k, bool v)
{
	if (!key(j, k))
		return;
	fputs(v ? "true" : "false", j->f);
}

void json_hex(struct json *j, const char *k, uint64_t v)
{
	if (!key(j, k))
		return;
	fprintf(j->f, "\"0x%" PRIx64 "\"", v);
}
