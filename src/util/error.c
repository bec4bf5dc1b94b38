/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mycl/error.h"
#include "internal.h"

MYCL_API const char *mycl_strerror(int err)
{
	switch (err) {
#define MYCL_ERR_CASE(name, value, msg) case name: return msg;
	MYCL_ERRORS(MYCL_ERR_CASE)
#undef MYCL_ERR_CASE
	case 0:
		return "success";
	default:
		break;
	}
	if (err < 0 && err > -4096)
		return strerror(-err);
	return "unknown error";
}

/* The calling thread's last failure: its code and its words. */
static __thread struct {
	int err;
	char msg[1024];
} last;

void error_clear(void)
{
	last.err = 0;
	last.msg[0] = '\0';
}

void error_set(int err, const char *fmt, ...)
{
	va_list ap;

	last.err = err;
	va_start(ap, fmt);
	vsnprintf(last.msg, sizeof(last.msg), fmt, ap);
	va_end(ap);
}

MYCL_API const char *mycl_errmsg(int err)
{
	return err && err == last.err && last.msg[0] ? last.msg : mycl_strerror(err);
}
