/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Source lines and inlined functions from DWARF, for gcc's binaries and
 * clang's: clang writes no .debug_aranges, so the unit holding an address is
 * found from the units' own ranges (tests/data/locks/queue.c, whose deposit()
 * has ticket_take() inlined, built by gcc -O2 static and by clang -O2).
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
#include "inline.h"

/* The names inline_frames keeps: the test's own bag, emptied after each binary. */
static char *kept[4096];
static size_t nkept;

static const char *keep(void *ctx, const char *s)
{
	(void)ctx;
	if (nkept == sizeof(kept) / sizeof(kept[0]))
		return NULL;
	return kept[nkept++] = strdup(s);
}

static void drop_kept(void)
{
	while (nkept)
		free(kept[--nkept]);
}

static void check_binary(const char *name)
{
	struct sym_opts o = { .debug_dir = "" };
	struct dso *d = dso_new(fixture(name), false);
	const struct sym *fn = NULL;
	bool inlined = false, lines = false;

	assert_non_null(d);
	dso_load(d, &o);
	assert_int_equal(d->status, DSO_OK);
	for (size_t i = 0; i < d->syms.nr && !fn; i++)
		if (d->syms.syms[i].name && !strncmp(d->syms.syms[i].name, "deposit", 7))
			fn = &d->syms.syms[i];
	assert_non_null(fn);
	for (uint64_t a = fn->start; a < fn->end; a++) {
		const char *names[8], *file;
		size_t n = 0;
		bool repl;
		int line;

		assert_int_equal(inline_srcline(d, a, &file, &line), 0);
		if (file) {
			lines = true;
			assert_true(line > 0);
			assert_non_null(strstr(file, "queue.c"));
		}
		assert_int_equal(inline_frames(&(struct inline_names){ keep, NULL }, d, a, fn->name,
					       names, 8, &n, &repl), 0);
		for (size_t k = 0; k < n; k++)
			inlined |= names[k] && !strcmp(names[k], "ticket_take (inlined)");
	}
	print_message("%s: %s: source lines %s, ticket_take inlined %s\n", name, fn->name,
		      lines ? "yes" : "no", inlined ? "yes" : "no");
	dso_free(d);
	drop_kept();
	assert_true(lines);
	assert_true(inlined);
}

static void gcc_static(void **state)
{
	(void)state;
	check_binary("symfs/mycl-fixtures/locks/queue");
}

static void clang_no_aranges(void **state)
{
	(void)state;
	check_binary("locks/queue.clang");
}

/*
 * What a global pointer points to, by offset: its object's members, then
 * elements of the array it points into (inventory.c's struct tally_slot
 * *slots, 16 bytes: an unsigned long, then char note[8]).
 */
static void pointee_elements(void **state)
{
	struct sym_opts o = { .debug_dir = "" };
	struct dso *d = dso_new(fixture("types/inventory.gcc-O2"), false);
	const struct sym *v = NULL;
	char buf[128];

	(void)state;
	assert_non_null(d);
	dso_load(d, &o);
	for (size_t i = 0; i < d->data_syms.nr && !v; i++)
		if (d->data_syms.syms[i].name && !strncmp(d->data_syms.syms[i].name, "slots", 5) &&
		    (d->data_syms.syms[i].name[5] < ' '))
			v = &d->data_syms.syms[i];
	assert_non_null(v);
	assert_int_equal(inline_pointee_path(d, "slots", v->start, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "slots->served");
	assert_int_equal(inline_pointee_path(d, "slots", v->start, 8, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "slots->note");
	assert_int_equal(inline_pointee_path(d, "slots", v->start, 0x40, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "slots[4].served");
	assert_int_equal(inline_pointee_path(d, "slots", v->start, 0x4a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "slots[4].note[2]");
	dso_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gcc_static),
		cmocka_unit_test(clang_no_aranges),
		cmocka_unit_test(pointee_elements),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
