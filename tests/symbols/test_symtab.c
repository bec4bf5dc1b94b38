/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "symtab.h"

static void aliases_resolve_to_the_preferred_name(void **state)
{
	struct symtab t = { 0 };

	(void)state;
	assert_int_equal(symtab_add(&t, 0x100, 0x10, "__GI_memcpy", SYMB_LOCAL, false), 0);
	assert_int_equal(symtab_add(&t, 0x100, 0x10, "memcpy", SYMB_WEAK, false), 0);
	assert_int_equal(symtab_add(&t, 0x100, 0x10, "__memcpy", SYMB_GLOBAL, false), 0);
	assert_int_equal(symtab_add(&t, 0x100, 0, "memcpy_label", SYMB_GLOBAL, false), 0);
	symtab_finish(&t, 0);
	assert_int_equal(t.nr, 1);
	/* Sized beats zero-sized, global beats weak and local. */
	assert_string_equal(symtab_find(&t, 0x108)->name, "__memcpy");
	symtab_free(&t);
}

/*
 * glibc's debug symtab names recv four times at one address; perf keeps
 * non-weak over weak, then, all else equal (underscores, length), the one
 * the table lists first.  Two versions of one name tie the same way.
 */
static void alias_ties_keep_the_table_order(void **state)
{
	static const char *const orders[2][2] = {
		{ "__libc_recv", "__GI___recv" }, { "__GI___recv", "__libc_recv" },
	};

	(void)state;
	for (int o = 0; o < 2; o++) {
		struct symtab t = { 0 };

		/* Something at a lower address after them forces the sort. */
		symtab_add(&t, 0x500, 0x20, "later", SYMB_GLOBAL, false);
		symtab_add(&t, 0x100, 0xb5, orders[o][0], SYMB_LOCAL, false);
		symtab_add(&t, 0x100, 0xb5, orders[o][1], SYMB_LOCAL, false);
		symtab_add(&t, 0x100, 0xb5, "__recv", SYMB_WEAK, false);
		symtab_add(&t, 0x100, 0xb5, "recv", SYMB_WEAK, false);
		for (int i = 0; i < 64; i++)
			symtab_add(&t, 0x1000 + (uint64_t)i * 0x10, 0x10, "filler", SYMB_GLOBAL, false);
		symtab_add(&t, 0x40, 0x10, "first", SYMB_GLOBAL, false);
		symtab_add(&t, 0x600, 0x10, "pthread_create@GLIBC_2.2.5", SYMB_GLOBAL, false);
		symtab_add(&t, 0x600, 0x10, "pthread_create@@GLIBC_2.34", SYMB_GLOBAL, false);
		symtab_finish(&t, 0);
		assert_string_equal(symtab_find(&t, 0x150)->name, orders[o][0]);
		assert_string_equal(symtab_find(&t, 0x608)->name, "pthread_create@GLIBC_2.2.5");
		symtab_free(&t);
	}
}

/* kallsyms lists memset, __memset, __pi_memset at one address: perf shows the last. */
static void kallsyms_aliases_keep_the_last(void **state)
{
	struct symtab t = { .last_alias_wins = true };

	(void)state;
	symtab_add(&t, 0x200, 0, "after", SYMB_GLOBAL, false);
	symtab_add(&t, 0x100, 0, "memset", SYMB_GLOBAL, false);
	symtab_add(&t, 0x100, 0, "__memset", SYMB_GLOBAL, false);
	symtab_add(&t, 0x100, 0, "__pi_memset", SYMB_GLOBAL, false);
	symtab_finish(&t, 0x300);
	assert_string_equal(symtab_find(&t, 0x1f0)->name, "__pi_memset");
	symtab_free(&t);
}

static void zero_sized_symbols_reach_the_next(void **state)
{
	struct symtab t = { 0 };

	(void)state;
	symtab_add(&t, 0x300, 0, "c", SYMB_GLOBAL, false);
	symtab_add(&t, 0x100, 0, "a", SYMB_GLOBAL, false);
	symtab_add(&t, 0x200, 0x20, "b", SYMB_GLOBAL, false);
	symtab_finish(&t, 0x400);
	assert_null(symtab_find(&t, 0xff));
	assert_string_equal(symtab_find(&t, 0x1ff)->name, "a");
	assert_string_equal(symtab_find(&t, 0x21f)->name, "b");
	assert_null(symtab_find(&t, 0x220));	/* a gap after a sized symbol */
	assert_string_equal(symtab_find(&t, 0x3ff)->name, "c");
	assert_null(symtab_find(&t, 0x400));
	symtab_free(&t);
}

static void demangles_like_perf(void **state)
{
	struct { const char *in, *out; } cases[] = {
		{ "_ZN11PolicyMutexI14TTASEventMutexI13GenericPolicyEE5enterEjjPKcj",
		  "PolicyMutex<TTASEventMutex<GenericPolicy> >::enter" },
		{ "_ZN4MVCC9view_openERP8ReadViewP5trx_t", "MVCC::view_open" },
		{ "_ZNK3Foo3getEv", "Foo::get" },
		{ "_Z3maxIiET_S0_S0_", "max<int>" },
		{ "_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo" },
		{ "_ZN3FooclEv", "Foo::operator()" },
		/* a clone: its return type, parameters, const and [clone ...] all cut, as perf's */
		{ "_ZNK2v88internal11StringTable4Data9FindEntryINS0_7IsolateENS0_19SequentialStringKeyIhEEEE"
		  "NS0_13InternalIndexEPT_PT0_j.isra.0",
		  "v8::internal::StringTable::Data::FindEntry<v8::internal::Isolate, "
		  "v8::internal::SequentialStringKey<unsigned char> >" },
		{ "_ZN3Foo3barEi.cold", "Foo::bar" },
		{ "_ZN3Foo3barEi.part.0.cold", "Foo::bar" },
		/* a variable clang split into parts, a function-static one's: the suffix kept */
		{ "_ZL8prod_pos.0", "prod_pos.0" },
		{ "_ZZL5statsvE1s.1", "stats()::s.1" },
		{ "_ZL6g_opts.lto_priv.0", "g_opts.lto_priv.0" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = demangle_name_as_perf(cases[i].in);

		assert_non_null(d);
		assert_string_equal(d, cases[i].out);
		free(d);
	}
	assert_null(demangle_name("not_mangled"));
	assert_null(demangle_name("_Zbad.0"));
	/* (the code analyses' names keep a split-off part apart from its function) */
	{
		char *d = demangle_name("_ZN3Foo3barEi.part.0.cold");

		assert_non_null(d);
		assert_string_equal(d, "Foo::bar(int) [clone .part.0] [clone .cold]");
		free(d);
	}
}

/*
 * Tables added in any order come out sorted by start, and of aliases that tie
 * by every rule the first added stays: random starts over all 64 bits (the
 * radix sort's passes) and over a binary's few low bytes, with ties.
 */
static void random_tables_sort_stably(void **state)
{
	(void)state;
	srand(7);
	for (int round = 0; round < 200; round++) {
		struct symtab t = { 0 };
		size_t n = 1 + (size_t)rand() % 3000;
		uint64_t *starts = malloc(n * sizeof(*starts));
		int wide = round % 2;
		char name[32];

		assert_non_null(starts);
		for (size_t i = 0; i < n; i++) {
			uint64_t a = (uint64_t)rand() << 33 ^ (uint64_t)rand() << 11 ^ (uint64_t)rand();

			starts[i] = wide ? a : 0x400000 + (a % 5000) * 0x10;
			/* Names of one length and no underscores: ties go by order. */
			snprintf(name, sizeof(name), "f%08zu", i);
			assert_int_equal(symtab_add(&t, starts[i], 0x10, name, SYMB_GLOBAL, false), 0);
		}
		symtab_finish(&t, 0);
		for (size_t i = 1; i < t.nr; i++)
			assert_true(t.syms[i - 1].start < t.syms[i].start);
		for (size_t i = 0; i < n; i++) {
			size_t first = i;
			const struct sym *s = symtab_find(&t, starts[i]);

			for (size_t k = 0; k < i; k++)
				if (starts[k] == starts[i]) {
					first = k;
					break;
				}
			snprintf(name, sizeof(name), "f%08zu", first);
			assert_non_null(s);
			assert_string_equal(s->name, name);
		}
		symtab_free(&t);
		free(starts);
	}
}

/* Demangled when first found, the same names and the same alias chosen as at once. */
static void lazy_demangling_finds_the_same(void **state)
{
	static const char *const names[] = {
		"_ZN4MVCC9view_openERP8ReadViewP5trx_t", "_ZN3Foo3getEv", "plain_c_name",
		"_Zbad", "_ZN3FooclEv",
	};

	(void)state;
	for (int lazy = 0; lazy < 2; lazy++) {
		struct symtab t = { .lazy_demangle = lazy };

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			symtab_add(&t, 0x1000 - i * 0x100, 0x20, names[i], SYMB_GLOBAL, true);
		/* Aliases told apart by the shown names' lengths: the longer shown wins. */
		symtab_add(&t, 0x2000, 0x20, "_ZN1A1fEv", SYMB_GLOBAL, true);
		symtab_add(&t, 0x2000, 0x20, "_ZN2BB1fEv", SYMB_GLOBAL, true);
		symtab_finish(&t, 0);
		assert_string_equal(symtab_find(&t, 0x1000)->name, "MVCC::view_open");
		assert_string_equal(symtab_find(&t, 0xf10)->name, "Foo::get");
		assert_string_equal(symtab_find(&t, 0xe00)->name, "plain_c_name");
		assert_string_equal(symtab_find(&t, 0xd00)->name, "_Zbad");
		assert_string_equal(symtab_find(&t, 0xc00)->name, "Foo::operator()");
		assert_string_equal(symtab_find(&t, 0x2008)->name, "BB::f");
		symtab_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aliases_resolve_to_the_preferred_name),
		cmocka_unit_test(alias_ties_keep_the_table_order),
		cmocka_unit_test(kallsyms_aliases_keep_the_last),
		cmocka_unit_test(zero_sized_symbols_reach_the_next),
		cmocka_unit_test(demangles_like_perf),
		cmocka_unit_test(random_tables_sort_stably),
		cmocka_unit_test(lazy_demangling_finds_the_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
