/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lock section's quick look (lock_code_kind_shallow) answers most x86_64
 * functions from instruction lengths alone: no exchange, CAS, pause or syscall,
 * or no short loop around an exchange that could make an acquire loop.  Every
 * function of the fixtures (a statically linked glibc among them, its mutexes,
 * malloc, stdio and AVX-512 string functions) must be told the same primitive
 * as when each is decoded whole; MYCL_LOCKSCAN_FILES (colon-separated) adds
 * binaries (libc, mariadbd).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dso.h"
#include "lockcode.h"

/* What the flat profile's lock section makes of a kind: a primitive, a delay, or nothing. */
static uint8_t shown(uint8_t k)
{
	return lock_kind_strong(k) || k == LK_DELAY ? k : LK_UNKNOWN;
}

static void check_file(const char *path, size_t *nr_fns, size_t *nr_prims)
{
	struct sym_opts o = { .debug_dir = "" };
	struct dso *d = dso_new(path, false);
	size_t wrong = 0;

	assert_non_null(d);
	dso_load(d, &o);
	assert_int_equal(d->status, DSO_OK);
	for (size_t i = 0; i < d->syms.nr; i++) {
		struct sym *fn = &d->syms.syms[i];
		uint8_t quick, whole;

		if (fn->end <= fn->start)
			continue;
		quick = shown(lock_code_kind_shallow(d, fn));
		whole = shown(lock_code_kind_decoded(d, fn));
		(*nr_fns)++;
		*nr_prims += whole != LK_UNKNOWN;
		if (quick != whole && wrong++ < 20)
			print_error("%s: %s: %s at a quick look, %s decoded whole\n", path, fn->name,
				    lock_kind_name(quick), lock_kind_name(whole));
	}
	dso_free(d);
	assert_int_equal(wrong, 0);
}

static void fixtures(void **state)
{
	static const char *const files[] = {
		"share/truth.static", "symfs/mycl-fixtures/ttas_mutex",
		"symfs/mycl-fixtures/hotloop", "share/server.gcc", "share/truth.clang-O0",
		/* lock shapes of every kind, backoff delays among them, gcc -O2 and clang -O0 */
		"symfs/mycl-fixtures/locks/zoo", "symfs/mycl-fixtures/locks/zoo-clang-O0",
		"symfs/mycl-fixtures/locks/members",
	};
	const char *dir = getenv("MYCL_TEST_DATA");
	size_t fns = 0, prims = 0;
	char path[4096];

	(void)state;
	assert_non_null(dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		check_file(path, &fns, &prims);
	}
	print_message("%zu functions, %zu primitives or delays\n", fns, prims);
	/* the static glibc has its mutexes, spin locks and futex calls: something to tell */
	assert_true(fns > 1000 && prims >= 10);
}

static void more(void **state)
{
	const char *more = getenv("MYCL_LOCKSCAN_FILES");
	size_t fns = 0, prims = 0;
	char *list, *save = NULL;

	(void)state;
	if (!more)
		skip();
	list = strdup(more);
	for (char *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save))
		check_file(f, &fns, &prims);
	free(list);
	print_message("%zu functions, %zu primitives or delays\n", fns, prims);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
		cmocka_unit_test(more),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
