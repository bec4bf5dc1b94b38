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
#include "test_util.h"
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
		"symfs/mycl-fixtures/locks/members", "symfs/mycl-fixtures/locks/queue", "locks/queue.clang",
	};
	size_t fns = 0, prims = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		check_file(fixture(files[i]), &fns, &prims);
	print_message("%zu functions, %zu primitives or delays\n", fns, prims);
	/* the static glibc has its mutexes, spin locks and futex calls: something to tell */
	assert_true(fns > 1000 && prims >= 10);
}

struct counts {
	size_t fns, prims;
};

static void check_listed(const char *path, void *ctx)
{
	struct counts *c = ctx;

	check_file(path, &c->fns, &c->prims);
}

static void more(void **state)
{
	struct counts c = { 0 };

	(void)state;
	if (!for_each_listed("MYCL_LOCKSCAN_FILES", check_listed, &c))
		skip();
	print_message("%zu functions, %zu primitives or delays\n", c.fns, c.prims);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
		cmocka_unit_test(more),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
