/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

char *read_text_file(const char *path)
{
	FILE *f = fopen(path, "r");
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
