/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A declaration's file read from its unit's line table header
 * (dwarf_files.c) against libdw's dwarf_decl_file, for every entry with a
 * DW_AT_decl_file in binaries by gcc and clang, C and C++, DWARF 4 and 5,
 * -O0 and -O2, x86_64 and aarch64, a split unit: the same name, or both
 * none.  More binaries: MYCL_TEST_FILES=path:path (postgres, mariadbd).
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <elfutils/libdw.h>
#include "test_util.h"
#include "dwarf_files.h"

struct tally {
	size_t decls, named;
};

static void walk(struct unit_files *f, Dwarf_Die *parent, const char *path, struct tally *t,
		 int depth)
{
	Dwarf_Die c;

	if (depth > 64 || dwarf_child(parent, &c) != 0)
		return;
	do {
		if (dwarf_hasattr_integrate(&c, DW_AT_decl_file)) {
			const char *ours = unit_decl_file(f, &c), *libdw = dwarf_decl_file(&c);

			t->decls++;
			t->named += ours != NULL;
			if ((ours == NULL) != (libdw == NULL) || (ours && strcmp(ours, libdw))) {
				fprintf(stderr, "%s: DIE %#lx: ours '%s', libdw '%s'\n", path,
					(unsigned long)dwarf_dieoffset(&c), ours ? ours : "(none)",
					libdw ? libdw : "(none)");
				fail();
			}
		}
		walk(f, &c, path, t, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
}

static void check_file(const char *path, void *ctx)
{
	struct tally *all = ctx, t = { 0 };
	int fd = open(path, O_RDONLY);
	Dwarf *dw;
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct unit_files *f;

	assert_true(fd >= 0);
	dw = dwarf_begin(fd, DWARF_C_READ);
	assert_non_null(dw);
	f = unit_files_new(dw);
	assert_non_null(f);
	while (dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu))
			walk(f, &cu, path, &t, 0);
		off = next;
	}
	unit_files_free(f);
	dwarf_end(dw);
	close(fd);
	printf("%s: %zu entries with a declaration file, %zu named\n", path, t.decls, t.named);
	all->decls += t.decls;
	all->named += t.named;
}

static void fixtures(void **state)
{
	static const char *const names[] = {
		"types/inventory.gcc-O2", "types/inventory.gcc-O0", "types/inventory.clang-O2",
		"types/inventory.aarch64-O2", "types/depot.g++-O2", "types/depot.clang++-O0",
		"types/faults.gcc-O2", "types/inventory.gcc-O2-dwarf4", "types/depot.clang++-O2-dwarf4",
		"typeshare/kiosk.gcc-O2", "typeshare/kiosk.clang-O2",
		"typeshare/kiosk.clang-O0", "typeshare/kiosk.split-O2", "typeshare/relay.clang++-O2",
		"typeshare/relay.g++-O2", "typeshare/ledger.aarch64-O2", "locks/queue.clang",
		"locks/backoff.gcc", "locks/backoff.clang-O0",
	};
	struct tally t = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (access(fixture(names[i]), R_OK) == 0)
			check_file(fixture(names[i]), &t);
	assert_true(t.named > 100);
	for_each_listed("MYCL_TEST_FILES", check_file, &t);
}

/* No reader: libdw's answer. */
static void without_reader(void **state)
{
	int fd = open(fixture("types/inventory.gcc-O2"), O_RDONLY);
	Dwarf *dw;
	Dwarf_Die cu, c;
	Dwarf_Off next;
	size_t hsize;

	(void)state;
	assert_true(fd >= 0);
	dw = dwarf_begin(fd, DWARF_C_READ);
	assert_non_null(dw);
	assert_int_equal(dwarf_next_unit(dw, 0, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL), 0);
	assert_non_null(dwarf_offdie(dw, hsize, &cu));
	assert_int_equal(dwarf_child(&cu, &c), 0);
	while (!dwarf_hasattr(&c, DW_AT_decl_file))
		assert_int_equal(dwarf_siblingof(&c, &c), 0);
	assert_string_equal(unit_decl_file(NULL, &c), dwarf_decl_file(&c));
	dwarf_end(dw);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
		cmocka_unit_test(without_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
