/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A libdw handle's debug sections as bytes (dwarf_raw.h). */
#include <gelf.h>
#include <string.h>
#include "dwarf_raw.h"

void dwarf_raw_sections(Dwarf *dw, const char *const *names, size_t n, const uint8_t **buf,
			size_t *len)
{
	Elf *e = dwarf_getelf(dw);
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	for (size_t k = 0; k < n; k++) {
		buf[k] = NULL;
		len[k] = 0;
	}
	if (!e || elf_getshdrstrndx(e, &shstrndx))
		return;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    (sh.sh_flags & SHF_COMPRESSED) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		for (size_t k = 0; k < n; k++) {
			if (strcmp(name, names[k]) || buf[k] || !(d = elf_getdata(scn, NULL)) ||
			    !d->d_buf)
				continue;
			buf[k] = d->d_buf;
			len[k] = d->d_size;
		}
	}
}
