/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Relocated slots looked up in place (through the relocation sections' runs)
 * answer as the sorted table of every relocation does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "elfimage.h"
#include "internal.h"

struct slots {
	uint64_t *v;
	size_t nr, cap;
};

static int note_slot(uint64_t slot, uint64_t target, void *arg)
{
	struct slots *s = arg;

	(void)target;
	if (ARRAY_GROW(s->v, s->cap, s->nr + 1))
		return -1;
	s->v[s->nr++] = slot;
	return 0;
}

static void check_binary(const char *path)
{
	struct elf_image *lazy, *full;
	struct slots s = { 0 };
	size_t named = 0;

	assert_int_equal(elf_image_open(path, &lazy), 0);
	assert_int_equal(elf_image_open(path, &full), 0);
	/* Walking every pointer reads the whole table into FULL. */
	assert_int_equal(elf_image_for_each_pointer(full, note_slot, &s), 0);
	for (size_t i = 0; i < s.nr; i++) {
		const struct got_slot *f = elf_image_got(full, s.v[i]);
		struct got_slot a, b;
		const struct got_slot *l;

		if (!f)
			continue;
		a = *f;
		l = elf_image_got(lazy, s.v[i]);
		assert_non_null(l);
		b = *l;
		assert_int_equal(a.slot, b.slot);
		assert_int_equal(a.target, b.target);
		assert_true(a.name == b.name || (a.name && b.name && !strcmp(a.name, b.name)));
		named += a.name != NULL;
		/* Not a slot: both say so. */
		if (!elf_image_got(full, s.v[i] + 1))
			assert_null(elf_image_got(lazy, s.v[i] + 1));
	}
	assert_true(s.nr > 0);
	free(s.v);
	elf_image_close(lazy);
	elf_image_close(full);
	(void)named;
}

static void lazy_lookups_match_the_table(void **state)
{
	(void)state;
	check_binary("/proc/self/exe");		/* this PIE test program */
	if (access("/lib/x86_64-linux-gnu/libc.so.6", R_OK) == 0)
		check_binary("/lib/x86_64-linux-gnu/libc.so.6");	/* a library: GLOB_DAT too */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lazy_lookups_match_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
