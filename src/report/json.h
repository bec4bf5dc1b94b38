/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A minimal streaming JSON writer: it tracks commas, the caller the structure. */
#ifndef MYCL_JSON_H
#define MYCL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	size_t depth, cap;		/* nesting is as deep as the data: call trees */
	bool *need_comma;		/* per open level; need_inline until it outgrows it */
	bool need_inline[64];
	int err;			/* -ENOMEM: nothing more is written */
};

void json_init(struct json *j, FILE *f);
/* Frees the nesting stack; 0, -ENOMEM when the writer ran out, -EIO on a write error. */
int json_finish(struct json *j);
void json_begin_obj(struct json *j, const char *key);	/* key NULL inside arrays */
void json_end_obj(struct json *j);
void json_begin_arr(struct json *j, const char *key);
void json_end_arr(struct json *j);
void json_str(struct json *j, const char *key, const char *v);	/* NULL -> null */
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_dbl(struct json *j, const char *key, double v, int decimals);
void json_bool(struct json *j, const char *key, bool v);
void json_hex(struct json *j, const char *key, uint64_t v);	/* "0x..." string */

#endif
