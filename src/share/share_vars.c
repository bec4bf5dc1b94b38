/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The variables of the symbol tables (.symtab, or .dynsym when stripped) in
 * writable data, and the kind of each: plain, declared read-mostly, or a
 * library's object copied in.  share_dwarf.c adds the ones only DWARF names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "elfimage.h"
#include "share_state.h"

/*
 * Objects mycl-share reports apart: in a section the program declares
 * read-mostly (written at start-up only, by the program's own rule), and a
 * library's objects copied into the program (stderr, environ: the library
 * writes them, not this code).
 */
enum mycl_share_kind var_kind(const struct elf_image *img, const struct elf_section *sec,
			      uint64_t addr)
{
	if (sec && (strstr(sec->name, "read_mostly") || strstr(sec->name, "ro_after_init") ||
		    strstr(sec->name, "read-mostly")))
		return MYCL_SHARE_VAR_READ_MOSTLY;
	if (elf_image_copied(img, addr))
		return MYCL_SHARE_VAR_LIBRARY;
	return MYCL_SHARE_VAR_PLAIN;
}

int share_symbol_vars(struct mycl_share *s, struct elf_image *img, bool readonly)
{
	const struct symtab *t = &s->dso->data_syms;
	const char *origin = s->dso->symtab_full ? "symtab" : "dynsym";

	for (size_t i = 0; i < t->nr; i++) {
		const struct sym *sy = &t->syms[i];
		const struct elf_section *sec = elf_image_section_at(img, sy->start);

		/* (what the loader makes read-only after relocating it is read-only data too) */
		if (!sec || sec->exec ||
		    ((!sec->write || elf_image_relro(img, sy->start)) && !readonly))
			continue;
		if (ARRAY_GROW(s->vars, s->vars_cap, s->nr_vars + 1))
			return -ENOMEM;
		s->vars[s->nr_vars++] = (struct mycl_share_var){
			.name = sy->name, .origin = origin, .addr = sy->start,
			.size = sy->end - sy->start, .section = sec->name,
			.kind = var_kind(img, sec, sy->start),
		};
	}
	return 0;
}

long share_find_var(const struct mycl_share *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr_vars;

	lo = PARTITION_POINT(lo, hi, mid, s->vars[mid].addr <= addr);
	if (lo && addr < s->vars[lo - 1].addr + (s->vars[lo - 1].size ? s->vars[lo - 1].size : 1))
		return (long)lo - 1;
	return -1;
}

const char *share_relro_name(const struct mycl_share *s, uint64_t addr)
{
	const struct elf_image *img = dso_image(s->dso);
	const struct sym *sy;

	if (!img || !elf_image_relro(img, addr) || !(sy = symtab_find(&s->dso->data_syms, addr)))
		return NULL;
	return sy->name;
}
