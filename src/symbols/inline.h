/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Inlined functions at an address, from DWARF (DW_TAG_inlined_subroutine
 * scopes), innermost first, cached per (binary, address).
 */
#ifndef MYCL_INLINE_H
#define MYCL_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct dso;

/* Where the names of inlined functions are kept: INTERN(CTX, S) returns a lasting copy. */
struct inline_names {
	const char *(*intern)(void *ctx, const char *s);
	void *ctx;
};

/*
 * Fills NAMES with the functions inlined at VADDR of D ("ut_rnd_gen_ulint
 * (inlined)"), innermost first, at most MAX; names are kept by IN.
 * BASE is the symbol VADDR resolves to.  *REPLACES: the last name is the
 * source name of BASE itself (a clone such as foo.constprop.0 is "foo").
 */
int inline_frames(const struct inline_names *in, struct dso *d, uint64_t vaddr, const char *base,
		  const char **names, size_t max, size_t *n, bool *replaces);
/* Opens D's DWARF now (libdw inflates its compressed sections then), for look-ups later. */
void inline_prepare(struct dso *d);
/* The source file and line of VADDR in D (file NULL when unknown); strings live with D. */
int inline_srcline(struct dso *d, uint64_t vaddr, const char **file, int *line);
/* The build directory (DW_AT_comp_dir) of the unit holding VADDR, or NULL. */
const char *inline_comp_dir(struct dso *d, uint64_t vaddr);

/*
 * D's DWARF, or NULL; with the location lists of local variables when its
 * line table is read too (annotation: sym_opts' no_line_table clear).
 */
Dwarf *inline_dwarf(struct dso *d);
/* T with typedefs and qualifiers taken off; false when nothing is under them (void). */
bool inline_strip_type(Dwarf_Die *t);
/* The unit and the concrete function (DW_TAG_subprogram) holding VADDR: 0, or -ENOENT. */
int inline_function_at(struct dso *d, uint64_t vaddr, Dwarf_Die *cu, Dwarf_Die *fn);
/*
 * D for another thread's reading of its DWARF (a libdw handle is one
 * thread's): a dso sharing D's symbol tables, read only (their names
 * settled here first), with a DWARF handle and caches of its own over the
 * same file.  For inline_function_at, inline_dwarf and symtab_find of its
 * data_syms, while D's symbol tables are not changed elsewhere; for
 * inline_global_at once it has D's index of the globals
 * (inline_twin_globals).  NULL without DWARF or memory; freed with
 * inline_twin_free before D.
 */
struct dso *inline_twin(struct dso *d);
/*
 * D's index of the globals read (when not yet) and lent to its twin T: on
 * T's thread, while nothing else reads D's DWARF.
 */
void inline_twin_globals(struct dso *t, struct dso *d);
void inline_twin_free(struct dso *t);

/* The DIE of the global variable at START: in unit CU first (when not NULL), then in any. */
int inline_global_at(struct dso *d, Dwarf_Die *cu, uint64_t start, Dwarf_Die *out);

/*
 * The member path of byte OFF inside the global VAR at START of D, from
 * DWARF: "journal.append_mutex", "slots[3].lock".  0, or -ENOENT without
 * DWARF for it.
 */
int inline_member_path(struct dso *d, const char *var, uint64_t start, uint64_t off, char *buf,
		       size_t len);
/*
 * The top-level member (or base class) of the struct, class or union global
 * at START holding byte OFF: its bytes [*LO, *HI) inside the global (a
 * union's members overlapping there: all of them).  0, or -ENOENT when the
 * debug info does not say.
 */
int inline_member_extent(struct dso *d, uint64_t start, uint64_t off, uint64_t *lo, uint64_t *hi);
/* Whether byte OFF of the global at START of D lies in a pointer, as its debug info says. */
bool inline_member_pointer(struct dso *d, uint64_t start, uint64_t off);
/*
 * The same inside what the global pointer VAR points to: "buf_pool->mutex";
 * past the first object, an element of the array it points into:
 * "MainLWLockArray[8]", "slots[4].note".
 */
int inline_pointee_path(struct dso *d, const char *var, uint64_t start, uint64_t off, char *buf,
			size_t len);

#endif
