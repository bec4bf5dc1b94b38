/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
