/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A sorted table of function symbols with binary-search look-up. */
#ifndef MYCL_SYMTAB_H
#define MYCL_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sym_binding { SYMB_LOCAL, SYMB_GLOBAL, SYMB_WEAK };

struct sym {
	uint64_t start, end;		/* [start, end) in the table's address space */
	const char *name;		/* owned by the table's string pool */
	uint8_t binding;
	uint8_t frame;			/* 0 not looked at; 1 sets up a frame pointer; 2 not; 3 cannot tell */
	uint8_t mangled;		/* NAME is still the mangled one (lazy_demangle) */
	/*
	 * NAME points into the table's TEXT, not terminated: it ends at its first
	 * byte below 0x20 (kallsyms' tab or newline); copied when symtab_find()
	 * first finds it (symtab_add_raw).
	 */
	uint8_t raw;
	uint32_t seq;			/* order of addition: perf's tie-break among aliases */
};

struct symtab {
	struct sym *syms;
	size_t nr, cap;
	char **chunks;			/* the names, packed into a few large blocks */
	size_t nr_chunks, chunks_cap;
	size_t chunk_used, chunk_cap;	/* in the newest block */
	bool sorted;
	const struct sym *last;		/* look-up cache (mutable) */
	bool keep_sizes;		/* data: zero-sized symbols stay one byte, not extended */
	/*
	 * kallsyms: of the names at one address, the last listed.  perf gives
	 * kallsyms their ends before it drops aliases, so every alias but the
	 * last is zero-sized there, and the sized one wins.
	 */
	bool last_alias_wins;
	/*
	 * C++ names demangled when a look-up first finds them, not when added:
	 * a profile shows a few hundred of a binary's hundred thousand names.
	 * Only for tables read through symtab_find() (not walked by index).
	 */
	bool lazy_demangle;
	/* The text raw names point into (symtab_keep_text), freed with the table. */
	char *text;
	size_t text_len;
	bool text_mapped;
	bool text_borrowed;		/* another table's (symtab_share_text): not freed here */
};

/*
 * Adds a symbol; NAME is copied (demangled first when DEMANGLE, or when
 * symtab_find() first returns it when the table is lazy_demangle). 0 or -ENOMEM.
 */
int symtab_add(struct symtab *t, uint64_t start, uint64_t size, const char *name,
	       enum sym_binding b, bool demangle);
/* The same for the LEN bytes at NAME (not NUL-terminated), as they are. */
int symtab_add_len(struct symtab *t, uint64_t start, uint64_t size, const char *name, size_t len,
		   enum sym_binding b);
/*
 * Adds a zero-sized symbol whose name is at NAME in the table's text (given
 * with symtab_keep_text), ended by a tab or a newline with no byte below 0x20
 * or 0x7f before it: nothing to escape, copied only when symtab_find() first
 * finds it.  Only for tables read through symtab_find(). 0 or -ENOMEM.
 */
int symtab_add_raw(struct symtab *t, uint64_t start, const char *name, enum sym_binding b);
/*
 * TEXT (LEN bytes, mapped or malloc'd) is the table's, to keep until
 * symtab_free(); a name added from inside it, terminated there, is not copied.
 */
void symtab_keep_text(struct symtab *t, char *text, size_t len, bool mapped);
/*
 * The table is made: a mapped text leaves the process's resident memory (the
 * few names looked up later come back from the page cache).
 */
void symtab_rest_text(struct symtab *t);
/* FROM's text is T's too, for names added to T (FROM keeps it: free T first or together). */
void symtab_share_text(struct symtab *t, const struct symtab *from);
/*
 * Sorts, keeps one symbol per address (the one perf would choose, as
 * symbols__fixup_duplicate does: sized over zero-sized, non-weak over weak,
 * then global over local, fewer leading underscores, the longer name, and
 * on a tie the one added first) and gives zero-sized symbols the extent up to the next one.
 * LAST_END bounds the last zero-sized symbol (0: leave it one byte long).
 */
void symtab_finish(struct symtab *t, uint64_t last_end);
const struct sym *symtab_find(const struct symtab *t, uint64_t addr);
/* Every name of T as symtab_find() would leave it: T then changes only its look-up cache. */
void symtab_settle_all(struct symtab *t);
void symtab_free(struct symtab *t);

/* demangle_rust.c: a Rust name (legacy "_ZN...17h<hash>E" or v0 "_R...") as perf shows it, or NULL. */
char *demangle_rust(const char *mangled);
/* True for a name one of the demanglers may read ("_Z...", "_R..."). */
static inline bool is_mangled(const char *name)
{
	return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}
/* demangle.c: C++ (or Rust) name for MANGLED without parameters, or NULL (caller frees). */
char *demangle_name(const char *mangled);
/*
 * The same without a clone's suffixes, as perf shows it: "Foo::bar" of
 * _ZN3Foo3barEi.isra.0 (demangle_name keeps "Foo::bar(int) [clone .isra.0]":
 * the code analyses tell a split-off part from its function by it).
 */
char *demangle_name_as_perf(const char *mangled);
/* Cuts a demangled name's "(params) const" and leading return type off S, in place. */
void demangle_strip_signature(char *s);

#endif
