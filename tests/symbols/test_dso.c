/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where a map puts a binary: a map starts at its segment's file offset
 * rounded down to a page, and that page may hold the previous segment's
 * bytes.  rustc's and lld's layouts put the text 0x1000 above its offset
 * (offset 0x13eb0, address 0x14eb0, mapped from 0x13000): its map's bias
 * comes from the text segment, not from the read-only one whose bytes fill
 * the map's first page.  gcc/ld layouts (address = offset) and maps inside a
 * segment give what they gave.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "dso.h"

static struct dso *with_segs(const struct seg *segs, size_t n)
{
	struct dso *d = dso_new("/bin/x", false);

	assert_non_null(d);
	d->segs = calloc(n, sizeof(*segs));
	assert_non_null(d->segs);
	for (size_t i = 0; i < n; i++)
		d->segs[i] = segs[i];
	d->nr_segs = n;
	return d;
}

static void rustc_layout(void **state)
{
	/* rustc 1.95's hashing example: R at 0, R E at 0x13eb0 (0x14eb0), RW at 0x53950 (0x55950) */
	const struct seg segs[] = { { 0, 0, 0x13ea4 }, { 0x13eb0, 0x14eb0, 0x3faa0 },
				    { 0x53950, 0x55950, 0x36b0 } };
	struct dso *d = with_segs(segs, 3);

	(void)state;
	/* r-xp at 0x55c0d48a6000 from offset 0x13000: address 0x14000 is there */
	assert_int_equal(dso_map_bias(d, 0x55c0d48a6000, 0x13000), 0x55c0d48a6000 - 0x14000);
	/* r--p at 0x55c0d4892000 from 0: the same bias, as it must be */
	assert_int_equal(dso_map_bias(d, 0x55c0d4892000, 0), 0x55c0d4892000);
	/* rw-p from 0x53000: address 0x55000 */
	assert_int_equal(dso_map_bias(d, 0x55c0d48e7000, 0x53000), 0x55c0d48e7000 - 0x55000);
	/* a map from inside the text, in the page before the data segment (mprotect splits maps) */
	assert_int_equal(dso_map_bias(d, 0x55c0d48e0000, 0x50000), 0x55c0d48e0000 - 0x51000);
	assert_int_equal(dso_map_bias(d, 0x55c0d48c0000, 0x30000), 0x55c0d48c0000 - 0x31000);
	/* an address inside the text converts as before */
	assert_int_equal(dso_offset_to_vaddr(d, 0x13f00), 0x14f00);
	dso_free(d);
}

static void ld_layout(void **state)
{
	const struct seg segs[] = { { 0, 0, 0x1000 }, { 0x1000, 0x1000, 0x5000 },
				    { 0x6000, 0x6000, 0x2000 } };
	struct dso *d = with_segs(segs, 3);

	(void)state;
	assert_int_equal(dso_map_bias(d, 0x7f0000001000, 0x1000), 0x7f0000000000);
	assert_int_equal(dso_map_bias(d, 0x7f0000000000, 0), 0x7f0000000000);
	/* a map from inside a segment (mapped again from the middle) */
	assert_int_equal(dso_map_bias(d, 0x7f0000102000, 0x2000), 0x7f0000100000);
	/* no segments known (not loaded): the offset is the address */
	dso_free(d);
	d = with_segs(segs, 0);
	assert_int_equal(dso_map_bias(d, 0x400000, 0x1000), 0x3ff000);
	dso_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rustc_layout),
		cmocka_unit_test(ld_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
