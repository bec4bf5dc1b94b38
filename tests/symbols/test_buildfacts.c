/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Build facts read from mycl-share's ground-truth binaries (tests/data/share,
 * built by its gen.sh with gcc and clang, -O0 and -O2, PIE, non-PIE, static,
 * and for aarch64): what each build command chose must come back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <elf.h>
#include "mycl/build.h"

static struct mycl_build_facts facts(const char *name)
{
	struct mycl_build_facts bf;
	char path[4096];

	snprintf(path, sizeof(path), "%s/share/%s", getenv("MYCL_TEST_DATA"), name);
	assert_int_equal(mycl_build_facts(path, NULL, &bf), 0);
	return bf;
}

static void gcc_builds(void **state)
{
	struct mycl_build_facts o0 = facts("truth.gcc-O0"), o2 = facts("truth.gcc-O2");

	(void)state;
	assert_string_equal(o0.compiler, "GCC 12.2.0 (C17)");
	assert_non_null(strstr(o0.flags, "-O0"));
	assert_non_null(strstr(o2.flags, "-O2"));
	assert_string_equal(o2.march, "x86-64");
	assert_true(o0.debug_info);
	/* gcc keeps the frame pointer at -O0 and drops it at -O2: read from the code. */
	assert_true(o0.fp_from_code && o0.fp_share >= 0.8);
	assert_int_equal(o0.frame_pointers, 1);
	assert_true(o2.fp_from_code && o2.fp_share <= 0.2);
	assert_int_equal(o2.frame_pointers, 0);
	assert_int_equal(o2.pie, 1);
	assert_int_equal(o2.static_linked, 0);
	assert_int_equal(o2.lto, 0);
}

static void clang_builds(void **state)
{
	struct mycl_build_facts o0 = facts("truth.clang-O0"), o2 = facts("truth.clang-O2");

	(void)state;
	assert_string_equal(o2.compiler, "clang 14.0.6");
	assert_int_equal(o0.frame_pointers, 1);
	assert_int_equal(o2.frame_pointers, 0);
}

static void linking(void **state)
{
	struct mycl_build_facts nopie = facts("truth.nopie"), st = facts("truth.static");

	(void)state;
	assert_int_equal(nopie.pie, 0);
	assert_int_equal(nopie.static_linked, 0);
	assert_non_null(strstr(nopie.flags, "-fno-pie"));
	assert_int_equal(st.static_linked, 1);
	assert_int_equal(st.pie, 0);
	/* Its DWARF was stripped: the compiler comes from .comment. */
	assert_false(st.debug_info);
	assert_non_null(strstr(st.compiler, "GCC"));
}

static void other_architectures(void **state)
{
	struct mycl_build_facts a = facts("truth.aarch64");

	(void)state;
	assert_int_equal(a.machine, EM_AARCH64);
	assert_string_equal(a.compiler, "GCC 12.2.0 (C17)");
	assert_non_null(strstr(a.flags, "-mabi=lp64"));
}

static void not_elf(void **state)
{
	struct mycl_build_facts bf;
	char path[4096];

	(void)state;
	assert_int_equal(mycl_build_facts("/nonexistent/binary", NULL, &bf), -ENOENT);
	snprintf(path, sizeof(path), "%s/share/gen.sh", getenv("MYCL_TEST_DATA"));
	assert_int_equal(mycl_build_facts(path, NULL, &bf), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gcc_builds),
		cmocka_unit_test(clang_builds),
		cmocka_unit_test(linking),
		cmocka_unit_test(other_architectures),
		cmocka_unit_test(not_elf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
