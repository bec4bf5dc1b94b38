/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <inttypes.h>
#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void key(struct json *j, const char *k)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
	if (k) {
		put_str(j->f, k);
		fputc(':', j->f);
	}
}

static void open_(struct json *j, const char *k, char c)
{
	key(j, k);
	fputc(c, j->f);
	if (j->depth < 63)
		j->depth++;
	j->need_comma[j->depth] = false;
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
	j->depth--;
	fputc('}', j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_end_arr(struct json *j)
{
	j->depth--;
	fputc(']', j->f);
}

void json_str(struct json *j, const char *k, const char *v)
{
	key(j, k);
	if (v)
		put_str(j->f, v);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *k, int64_t v)
{
	key(j, k);
	fprintf(j->f, "%" PRId64, v);
}

void json_dbl(struct json *j, const char *k, double v, int decimals)
{
	key(j, k);
	fprintf(j->f, "%.*f", decimals, v);
}

void json_bool(struct json *j, const char *k, bool v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

void json_hex(struct json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->f, "\"0x%" PRIx64 "\"", v);
}
