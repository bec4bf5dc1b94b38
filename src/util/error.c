/* SPDX-License-Identifier: LGPL-2.1-or-later */
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
