/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Names shown as perf shows them.  Rust: every name in tests/data/rust/names.tsv
 * (two programs built in both of rustc's schemes, with their standard library,
 * and crafted ones) demangled as perf's demangler does (gen.sh records it);
 * hostile names (nesting, back-references pointing forward or at themselves,
 * lengths past the end, overflowing numbers) give no name, quickly; a char
 * past Unicode and a lifetime no binder bound give libiberty's reading of
 * them, as perf shows it.  C++ names
 * are unchanged by the Rust schemes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "test_util.h"
#include "symtab.h"

static void rust_names_as_perf(void **state)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	int n = 0, v0 = 0, legacy = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s", fixture("rust/names.tsv"));
	f = fopen(path, "r");
	assert_non_null(f);
	while (getline(&line, &cap, f) > 0) {
		char *tab = strchr(line, '\t'), *want, *got;

		assert_non_null(tab);
		*tab = '\0';
		want = tab + 1;
		want[strcspn(want, "\n")] = '\0';
		got = demangle_name_as_perf(line);
		if (!got || strcmp(got, want))
			fail_msg("%s: got '%s', perf shows '%s'", line, got ? got : "(none)", want);
		free(got);
		n++;
		v0 += line[1] == 'R';
		legacy += line[1] == 'Z';
	}
	free(line);
	fclose(f);
	print_message("%d names (%d v0, %d legacy) as perf shows them\n", n, v0, legacy);
	assert_true(v0 > 500 && legacy > 100);
}

static void hostile_rust_names(void **state)
{
	static const char *const bad[] = {
		"_R", "_RN", "_RC", "_RCs_", "_RC3ab", "_RC99999999999999999999999abc",
		"_RNvB_3foo",			/* back-reference to itself */
		"_RNvB9_3foo",			/* forward */
		"_RINvCs_3foo3barBzzzzzzzzzzzzzzzzzzzzz_E",
		"_RINvCs_3foo3barKjzz_E", "_RINvCs_3foo3barKb2_E",
		"_RNvCs_3foou1A",		/* bad punycode */
		"_RC3fo.", "_R0C3foo",
		"_ZN3foo17h0123456789abcdeE", "_ZN3foo0bar17h0123456789abcdefE",
		"_ZN03foo17h0123456789abcdefE",
	};
	char *deep = malloc(100000);
	char *got;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		got = demangle_rust(bad[i]);
		if (got)
			fail_msg("%s: demangled to '%s'", bad[i], got);
	}
	/* names libiberty reads leniently, as perf shows them: a name, whatever it is */
	free(demangle_rust("_RINvCs_3foo3barKc110000_E"));
	free(demangle_rust("_RINvCs_3foo3barFG_RL5_hEhE"));
	/* nesting far past any program's: refused, not a stack overflow */
	assert_non_null(deep);
	strcpy(deep, "_R");
	for (int i = 0; i < 30000; i++)
		strcat(deep + 2 + i * 3, "INv");
	strcat(deep, "Cs_3foo");
	assert_null(demangle_rust(deep));
	/* a name longer than 64 KiB shown: refused (back-references can double it each time) */
	strcpy(deep, "_RINvCs_3foo3barT");
	memset(deep + strlen(deep), 'u', 30000);
	strcpy(deep + 17 + 30000, "EE");
	assert_null(demangle_rust(deep));
	deep[17 + 100] = '\0';
	strcat(deep, "EE");
	got = demangle_rust(deep);
	assert_non_null(got);
	assert_int_equal(strncmp(got, "test::foo", 0), 0);
	free(got);
	free(deep);
}

static void cxx_names_unchanged(void **state)
{
	char *a, *b;

	(void)state;
	a = demangle_name_as_perf("_ZN5mysql4lockEv");
	assert_non_null(a);
	assert_string_equal(a, "mysql::lock");
	free(a);
	assert_null(demangle_rust("_ZN5mysql4lockEv"));
	/* a hash-like last component in upper case is no Rust hash: C++ as before */
	b = demangle_name_as_perf("_ZN3foo3bar17h0123456789ABCDEFE");
	assert_non_null(b);
	assert_string_equal(b, "foo::bar::h0123456789ABCDEF");
	free(b);
	assert_null(demangle_rust("main"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rust_names_as_perf),
		cmocka_unit_test(hostile_rust_names),
		cmocka_unit_test(cxx_names_unchanged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
