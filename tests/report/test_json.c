/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "json.h"

/* Writes a tree DEPTH levels deep, as call graphs do: { "c": [ { "c": [ ... ] } ] }. */
static char *nested(int depth, int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	assert_non_null(f);
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	for (int i = 0; i < depth; i++) {
		json_u64(&j, "n", (uint64_t)i);
		json_begin_arr(&j, "c");
		json_begin_obj(&j, NULL);
	}
	json_str(&j, "leaf", "a\"b");
	for (int i = 0; i < depth; i++) {
		json_end_obj(&j);
		json_end_arr(&j);
	}
	json_end_obj(&j);
	*err = json_finish(&j);
	fclose(f);
	return buf;
}

static void deep_trees_stay_well_formed(void **state)
{
	int err;
	char *s = nested(1000, &err);
	size_t opens = 0, closes = 0;

	(void)state;
	assert_int_equal(err, 0);
	for (const char *p = s; *p; p++) {
		opens += *p == '{' || *p == '[';
		closes += *p == '}' || *p == ']';
	}
	assert_int_equal(opens, 2001);
	assert_int_equal(closes, 2001);
	/* Commas only between siblings: {"n":0,"c":[{"n":1,"c":[... */
	assert_true(!strncmp(s, "{\"n\":0,\"c\":[{\"n\":1,\"c\":[{", 25));
	assert_non_null(strstr(s, "{\"n\":999,\"c\":[{\"leaf\":\"a\\\"b\"}]}]"));
	assert_null(strstr(s, ",,"));
	assert_null(strstr(s, "[,"));
	assert_null(strstr(s, "{,"));
	free(s);
}

static void siblings_are_separated(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	(void)state;
	json_init(&j, f);
	json_begin_arr(&j, NULL);
	for (int i = 0; i < 3; i++) {
		json_begin_obj(&j, NULL);
		json_bool(&j, "b", i & 1);
		json_str(&j, "s", NULL);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	assert_int_equal(json_finish(&j), 0);
	fclose(f);
	assert_string_equal(buf, "[{\"b\":false,\"s\":null},{\"b\":true,\"s\":null},"
			    "{\"b\":false,\"s\":null}]");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deep_trees_stay_well_formed),
		cmocka_unit_test(siblings_are_separated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
