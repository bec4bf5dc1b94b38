/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the tests that compare a reader of the DWARF's bytes with libdw on
 * every entry of a binary: the fixtures they read (gcc and clang, C and
 * C++, DWARF 4 and 5, -O0 and -O2, x86_64 and aarch64, a split unit) and a
 * walk of every entry.
 */
#ifndef MYCL_TEST_DWARF_WALK_H
#define MYCL_TEST_DWARF_WALK_H

#include <stddef.h>
#include <elfutils/libdw.h>

static const char *const dwarf_fixtures[] = {
	"types/inventory.gcc-O2", "types/inventory.gcc-O0", "types/inventory.clang-O2",
	"types/inventory.aarch64-O2", "types/depot.g++-O2", "types/depot.clang++-O0",
	"types/faults.gcc-O2", "types/inventory.gcc-O2-dwarf4", "types/depot.clang++-O2-dwarf4",
	"typeshare/kiosk.gcc-O2", "typeshare/kiosk.clang-O2",
	"typeshare/kiosk.clang-O0", "typeshare/kiosk.split-O2", "typeshare/relay.clang++-O2",
	"typeshare/relay.g++-O2", "typeshare/ledger.aarch64-O2", "locks/queue.clang",
	"locks/backoff.gcc", "locks/backoff.clang-O0",
};

static inline void dwarf_walk_children(Dwarf_Die *parent, int depth,
				       void (*fn)(Dwarf_Die *die, void *ctx), void *ctx)
{
	Dwarf_Die c;

	if (depth > 64 || dwarf_child(parent, &c) != 0)
		return;
	do {
		fn(&c, ctx);
		dwarf_walk_children(&c, depth + 1, fn, ctx);
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* FN on every entry below every unit of DW, depth first. */
static inline void dwarf_walk(Dwarf *dw, void (*fn)(Dwarf_Die *die, void *ctx), void *ctx)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu))
			dwarf_walk_children(&cu, 0, fn, ctx);
		off = next;
	}
}

#endif
