/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* str_has_ctl (eight bytes at a time) answers as a byte-by-byte look does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"

static bool slow_has_ctl(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
			return true;
	return false;
}

/* Every byte value at every position of every length up to 40, among printable neighbours. */
static void each_byte_each_place(void **state)
{
	char buf[48];

	(void)state;
	for (size_t len = 1; len <= 40; len++)
		for (size_t at = 0; at < len; at++)
			for (int c = 0; c < 256; c++) {
				memset(buf, 'a', sizeof(buf));
				buf[at] = (char)c;
				assert_int_equal(str_has_ctl(buf, len), slow_has_ctl(buf, len));
				/* unaligned starts */
				assert_int_equal(str_has_ctl(buf + at, len - at),
						 slow_has_ctl(buf + at, len - at));
			}
}

/* Random strings of high bytes, 0x20 and 0x7f's neighbours (borrows between bytes). */
static void random_strings(void **state)
{
	static const unsigned char pick[] = { 0x00, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0x9f,
					      0xa0, 0xff, 0x01, 0x41 };
	char buf[64];

	(void)state;
	srand(1);
	for (int n = 0; n < 200000; n++) {
		size_t len = (size_t)rand() % sizeof(buf);

		for (size_t i = 0; i < len; i++)
			/* mostly printable or high bytes, now and then any of PICK */
			buf[i] = (char)(rand() % 8 ? pick[2 + rand() % 8] : pick[rand() % sizeof(pick)]);
		assert_int_equal(str_has_ctl(buf, len), slow_has_ctl(buf, len));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_byte_each_place),
		cmocka_unit_test(random_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
