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
#include "dwarf_walk.h"

struct tally {
	size_t decls, named;
};

struct one_file {
	struct unit_files *f;
	const char *path;
	struct tally t;
};

static void on_die(Dwarf_Die *die, void *ctx)
{
	struct one_file *o = ctx;
	const char *ours, *libdw;

	if (!dwarf_hasattr_integrate(die, DW_AT_decl_file))
		return;
	ours = unit_decl_file(o->f, die);
	libdw = dwarf_decl_file(die);
	o->t.decls++;
	o->t.named += ours != NULL;
	if ((ours == NULL) != (libdw == NULL) || (ours && strcmp(ours, libdw))) {
		fprintf(stderr, "%s: DIE %#lx: ours '%s', libdw '%s'\n", o->path,
			(unsigned long)dwarf_dieoffset(die), ours ? ours : "(none)",
			libdw ? libdw : "(none)");
		fail();
	}
}

static void check_file(const char *path, void *ctx)
{
	struct tally *all = ctx;
	struct one_file o = { .path = path };
	int fd = open(path, O_RDONLY);
	Dwarf *dw;

	assert_true(fd >= 0);
	dw = dwarf_begin(fd, DWARF_C_READ);
	assert_non_null(dw);
	o.f = unit_files_new(dw);
	assert_non_null(o.f);
	dwarf_walk(dw, on_die, &o);
	unit_files_free(o.f);
	dwarf_end(dw);
	close(fd);
	printf("%s: %zu entries with a declaration file, %zu named\n", path, o.t.decls,
	       o.t.named);
	all->decls += o.t.decls;
	all->named += o.t.named;
}

static void fixtures(void **state)
{
	struct tally t = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(dwarf_fixtures) / sizeof(dwarf_fixtures[0]); i++)
		if (access(fixture(dwarf_fixtures[i]), R_OK) == 0)
			check_file(fixture(dwarf_fixtures[i]), &t);
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
