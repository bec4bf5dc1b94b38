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

/* DWARF's LEB128 numbers: the spec's examples, sign extension, and the ends. */
static void leb128(void **state)
{
	static const uint8_t u[] = { 2, 127, 0x80, 1, 0xe5, 0x8e, 0x26 };
	static const uint8_t sv[] = { 2, 0x7e, 0xff, 0, 0x81, 0x7f, 0x80, 0x7f };
	static const uint8_t cut[] = { 0x80, 0x80 };
	static const uint8_t longer[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0x01 };
	struct cursor c;

	(void)state;
	cursor_init(&c, u, sizeof(u), false);
	assert_int_equal(cursor_uleb128(&c), 2);
	assert_int_equal(cursor_uleb128(&c), 127);
	assert_int_equal(cursor_uleb128(&c), 128);
	assert_int_equal(cursor_uleb128(&c), 624485);
	assert_false(c.bad);
	assert_int_equal(cursor_left(&c), 0);
	cursor_init(&c, sv, sizeof(sv), false);
	assert_int_equal(cursor_sleb128(&c), 2);
	assert_int_equal(cursor_sleb128(&c), -2);
	assert_int_equal(cursor_sleb128(&c), 127);
	assert_int_equal(cursor_sleb128(&c), -127);
	assert_int_equal(cursor_sleb128(&c), -128);
	assert_false(c.bad);
	/* a number cut by the end, and one past 64 bits: bad, 0 */
	cursor_init(&c, cut, sizeof(cut), false);
	assert_int_equal(cursor_uleb128(&c), 0);
	assert_true(c.bad);
	cursor_init(&c, longer, sizeof(longer), false);
	assert_int_equal(cursor_uleb128(&c), 0);
	assert_true(c.bad);
	cursor_init(&c, cut, sizeof(cut), false);
	assert_int_equal(cursor_sleb128(&c), 0);
	assert_true(c.bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_in_order),
		cmocka_unit_test(swaps_when_asked),
		cmocka_unit_test(overrun_sets_bad_and_stops),
		cmocka_unit_test(strings_must_be_terminated),
		cmocka_unit_test(leb128),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
