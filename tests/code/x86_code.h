/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the x86_64 decoders' tests (test_x86len, test_x86quick): the
 * fixtures' x86_64 binaries, and each code section of a file.
 */
#ifndef MYCL_TEST_X86_CODE_H
#define MYCL_TEST_X86_CODE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <gelf.h>

/* Compiled x86_64 programs of the fixtures, relative to MYCL_TEST_DATA. */
static const char *const x86_fixtures[] = {
	"symfs/mycl-fixtures/hotloop", "symfs/mycl-fixtures/ttas_mutex",
	"symfs/mycl-fixtures/diff-new/blockcodec", "share/truth.gcc-O2",
	"share/truth.clang-O2", "share/truth.gcc-O0", "share/truth.clang-O0",
	"share/truth.static", "share/server.gcc", "share/server.clang",
};
#define NR_X86_FIXTURES (sizeof(x86_fixtures) / sizeof(x86_fixtures[0]))

/*
 * FN(CODE, LEN, ADDR, CTX) for each executable section of the ELF file at
 * PATH; false (FN never called) when it is no x86_64 file or cannot be read.
 */
static inline bool x86_code_sections(const char *path,
				     void (*fn)(const uint8_t *code, size_t len, uint64_t addr,
						void *ctx),
				     void *ctx)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	bool ok;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ok = e && gelf_getehdr(e, &eh) && eh.e_machine == EM_X86_64;
	while (ok && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			continue;
		fn(d->d_buf, d->d_size, sh.sh_addr, ctx);
	}
	if (e)
		elf_end(e);
	close(fd);
	return ok;
}

#endif
