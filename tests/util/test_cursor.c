/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "cursor.h"

static void reads_in_order(void **state)
{
	const uint8_t b[] = { 1, 2, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0 };
	struct cursor c;

	(void)state;
	cursor_init(&c, b, sizeof(b), false);
	assert_int_equal(cursor_u8(&c), 1);
	assert_int_equal(cursor_u16(&c), 2);
	assert_int_equal(cursor_u32(&c), 3);
	assert_int_equal(cursor_u64(&c), 4);
	assert_false(c.bad);
	assert_int_equal(cursor_left(&c), 0);
}

static void swaps_when_asked(void **state)
{
	const uint8_t b[] = { 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 5 };
	struct cursor c;

	(void)state;
	cursor_init(&c, b, sizeof(b), true);
	assert_int_equal(cursor_u64(&c), 0x0102);
	assert_int_equal(cursor_u32(&c), 5);
	assert_false(c.bad);
}

static void overrun_sets_bad_and_stops(void **state)
{
	const uint8_t b[6] = { 0 };
	uint64_t arr[4];
	struct cursor c;

	(void)state;
	cursor_init(&c, b, sizeof(b), false);
	assert_int_equal(cursor_u64(&c), 0);
	assert_true(c.bad);
	assert_int_equal(cursor_left(&c), 0);
	cursor_init(&c, b, sizeof(b), false);
	cursor_u64_array(&c, arr, 4);
	assert_true(c.bad);
	cursor_init(&c, b, sizeof(b), false);
	assert_null(cursor_bytes(&c, 7));
	assert_true(c.bad);
}

static void strings_must_be_terminated(void **state)
{
	const char ok[8] = "abc";
	const char bad[4] = { 'a', 'b', 'c', 'd' };
	struct cursor c;

	(void)state;
	cursor_init(&c, ok, sizeof(ok), false);
	assert_string_equal(cursor_str(&c, sizeof(ok)), "abc");
	cursor_init(&c, bad, sizeof(bad), false);
	assert_null(cursor_str(&c, sizeof(bad)));
	assert_true(c.bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_in_order),
		cmocka_unit_test(swaps_when_asked),
		cmocka_unit_test(overrun_sets_bad_and_stops),
		cmocka_unit_test(strings_must_be_terminated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
