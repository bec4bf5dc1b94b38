/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The location lists read from their bytes (dwarf_locs.c) against libdw's
 * dwarf_getlocations, for every variable and parameter of binaries by gcc
 * and clang, DWARF 4 and 5, -O0 and -O2, x86_64 and aarch64: the same
 * non-empty ranges, and where libdw's expression is one operation of the
 * decoded kinds, the same operation.  A split unit's lists are left to
 * libdw.  More binaries: MYCL_TEST_LOCS=path:path (libc's debug file,
 * postgres).
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
#include "dwarf_locs.h"
#include "dwarf_walk.h"

struct tally {
	size_t vars, ours, libdws, entries, stopped;
};

static bool decoded(const Dwarf_Op *op)
{
	return (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31) || op->atom == DW_OP_regx ||
	       (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) || op->atom == DW_OP_bregx ||
	       op->atom == DW_OP_fbreg;
}

static void compare_var(struct loc_reader *r, Dwarf_Die *die, const char *path, struct tally *t)
{
	Dwarf_Attribute at;
	Dwarf_Addr base, lo, hi;
	Dwarf_Op *ops;
	size_t len, k = 0;
	ptrdiff_t it = 0;
	int got;

	if (!dwarf_attr(die, DW_AT_location, &at))
		return;
	t->vars++;
	got = loc_read(r, die, &at);
	assert_true(got == 0 || got == -ENOTSUP);
	if (got) {
		t->libdws++;
		return;
	}
	t->ours++;
	while ((it = dwarf_getlocations(&at, it, &base, &lo, &hi, &ops, &len)) > 0) {
		const struct loc_entry *e;

		if (lo == hi)
			continue;
		/* (ours keeps empty ranges, which nothing places) */
		while (k < r->n && r->v[k].lo == r->v[k].hi && !(r->v[k].lo == 0 && r->v[k].hi == UINT64_MAX))
			k++;
		if (k >= r->n) {
			fprintf(stderr, "%s: DIE %#lx: libdw has [%#lx, %#lx) past ours\n", path,
				(unsigned long)dwarf_dieoffset(die), (unsigned long)lo, (unsigned long)hi);
			fail();
		}
		e = &r->v[k++];
		if (e->lo != lo || e->hi != (hi == (Dwarf_Addr)-1 ? UINT64_MAX : hi) ||
		    e->one != (len == 1 && decoded(&ops[0])) ||
		    (e->one && (e->op.atom != ops[0].atom || e->op.number != ops[0].number ||
				e->op.number2 != ops[0].number2))) {
			fprintf(stderr, "%s: DIE %#lx: ours [%#lx, %#lx) one %d atom %#x %lu, libdw "
				"[%#lx, %#lx) len %zu atom %#x %lu\n", path,
				(unsigned long)dwarf_dieoffset(die), (unsigned long)e->lo,
				(unsigned long)e->hi, e->one, e->op.atom, (unsigned long)e->op.number,
				(unsigned long)lo, (unsigned long)hi, len, len ? ops[0].atom : 0,
				len ? (unsigned long)ops[0].number : 0);
			fail();
		}
		t->entries++;
	}
	while (k < r->n && r->v[k].lo == r->v[k].hi)
		k++;
	/*
	 * libdw stops at an expression with an operation it does not know
	 * (gcc's DW_OP_GNU_uninit, 0.188): the rest of the list is read here.
	 */
	if (it < 0) {
		t->stopped++;
		return;
	}
	if (k != r->n)
		fprintf(stderr, "%s: DIE %#lx: ours has %zu ranges more, from [%#lx, %#lx)\n", path,
			(unsigned long)dwarf_dieoffset(die), r->n - k, (unsigned long)r->v[k].lo,
			(unsigned long)r->v[k].hi);
	assert_int_equal(k, r->n);
}

struct one_file {
	struct loc_reader r;
	const char *path;
	struct tally t;
};

static void on_die(Dwarf_Die *die, void *ctx)
{
	struct one_file *f = ctx;
	int tag = dwarf_tag(die);

	if (tag == DW_TAG_variable || tag == DW_TAG_formal_parameter)
		compare_var(&f->r, die, f->path, &f->t);
}

static void check_file(const char *path, void *ctx)
{
	struct tally *all = ctx;
	struct one_file f = { .path = path };
	int fd = open(path, O_RDONLY);
	Dwarf *dw;

	assert_true(fd >= 0);
	dw = dwarf_begin(fd, DWARF_C_READ);
	assert_non_null(dw);
	f.r.dw = dw;
	dwarf_walk(dw, on_die, &f);
	loc_reader_free(&f.r);
	dwarf_end(dw);
	close(fd);
	printf("%s: %zu variables with a location, %zu read here (%zu ranges), %zu by libdw; "
	       "%zu lists libdw stops in\n", path, f.t.vars, f.t.ours, f.t.entries, f.t.libdws,
	       f.t.stopped);
	all->vars += f.t.vars;
	all->ours += f.t.ours;
	all->entries += f.t.entries;
	all->libdws += f.t.libdws;
}

static void fixtures(void **state)
{
	struct tally t = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(dwarf_fixtures) / sizeof(dwarf_fixtures[0]); i++)
		if (access(fixture(dwarf_fixtures[i]), R_OK) == 0)
			check_file(fixture(dwarf_fixtures[i]), &t);
	/* (the lists of optimized code, read here for the most part) */
	assert_true(t.ours > t.libdws && t.entries > 100);
	for_each_listed("MYCL_TEST_LOCS", check_file, &t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
