/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How a binary was built, from the binary itself: the compiler and its flags
 * (DW_AT_producer of the compile units, else the .comment section), PIE or
 * static (ELF type and program headers), LTO (producer, .gnu.lto sections),
 * -march, debug info present or not, and whether functions set up frame
 * pointers - from the flags when they say so, else from the code: how many
 * function entries push the frame pointer and point it at the stack.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include "elfimage.h"
#include "internal.h"
#include "mycl/build.h"

#define MAX_CUS 4096		/* compile units whose producer is read */
#define MAX_PRODUCERS 32	/* distinct producers counted */
#define FP_SAMPLE 2000		/* function entries looked at */

struct producer_count {
	char *text;
	size_t n;
};

/* The most common DW_AT_producer among the first MAX_CUS units; NULL if none. */
static char *main_producer(Elf *elf, size_t *nr_cus)
{
	struct producer_count pc[MAX_PRODUCERS];
	size_t npc = 0, best = 0;
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize;
	char *out = NULL;

	*nr_cus = 0;
	if (!dw)
		return NULL;
	while (*nr_cus < MAX_CUS && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die die;
		Dwarf_Attribute at;
		const char *prod;

		if (dwarf_offdie(dw, off + hsize, &die) &&
		    (prod = dwarf_formstring(dwarf_attr(&die, DW_AT_producer, &at)))) {
			size_t i;

			(*nr_cus)++;
			for (i = 0; i < npc && strcmp(pc[i].text, prod); i++)
				;
			if (i == npc && npc < MAX_PRODUCERS) {
				pc[npc].text = strdup(prod);
				pc[npc].n = 0;
				if (pc[npc].text)
					npc++;
			}
			if (i < npc)
				pc[i].n++;
		}
		off = next;
	}
	for (size_t i = 0; i < npc; i++)
		if (pc[i].n > pc[best].n)
			best = i;
	if (npc)
		out = pc[best].text;
	for (size_t i = 0; i < npc; i++)
		if (i != best)
			free(pc[i].text);
	dwarf_end(dw);
	return out;
}

/* The flag of PRODUCER starting with PREFIX ("-march="), copied to BUF; false if none. */
static bool flag_value(const char *producer, const char *prefix, char *buf, size_t len)
{
	const char *p = producer;

	while ((p = strstr(p, prefix))) {
		if (p == producer || p[-1] == ' ') {
			size_t n = strcspn(p, " ");

			snprintf(buf, len, "%.*s", (int)n, p);
			return true;
		}
		p++;
	}
	return false;
}

static bool has_flag(const char *producer, const char *flag)
{
	char buf[128];

	return flag_value(producer, flag, buf, sizeof(buf)) && (!strcmp(buf, flag) ||
		buf[strlen(flag)] == '=' || flag[strlen(flag) - 1] == '=');
}

/* The compiler's name and version from a producer ("GNU C17 12.2.0 -O2" -> "GCC 12.2.0"). */
static void compiler_of(const char *producer, char *buf, size_t len)
{
	const char *v;

	if (!strncmp(producer, "GNU ", 4)) {
		/* "GNU C17 12.2.0 -mtune=..." / "GNU C++17 12.2.0 ..." / "GNU GIMPLE 12.2.0" */
		const char *lang = producer + 4, *sp = strchr(lang, ' ');

		if (sp) {
			size_t n = strcspn(sp + 1, " ");

			snprintf(buf, len, "GCC %.*s (%.*s)", (int)n, sp + 1, (int)(sp - lang), lang);
			return;
		}
	}
	if ((v = strstr(producer, "clang version "))) {
		size_t n = strcspn(v + 14, " ");

		snprintf(buf, len, "clang %.*s", (int)n, v + 14);
		return;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(producer, "-"), producer);
	/* trim the space before the first flag */
	for (size_t n = strlen(buf); n && buf[n - 1] == ' '; n--)
		buf[n - 1] = 0;
}

/* The producer's -f, -m, -O, -g flags, space-separated (no paths, no -I/-D). */
static void flags_of(const char *producer, char *buf, size_t len)
{
	const char *p = strchr(producer, '-');
	size_t used = 0;

	buf[0] = 0;
	while (p && *p) {
		size_t n = strcspn(p, " ");

		if (n > 1 && p[0] == '-' && strchr("fmOgs", p[1]) && !memchr(p, '/', n) &&
		    used + n + 2 < len) {
			used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? " " : "",
						 (int)n, p);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* The section named NAME (or, with PREFIX, the first whose name starts with it). */
static Elf_Scn *section(Elf *elf, const char *name, bool prefix)
{
	size_t shstrndx, len = strlen(name);
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    (prefix ? !strncmp(n, name, len) : !strcmp(n, name)))
			return scn;
	}
	return NULL;
}

/* The first line of .comment ("GCC: (Debian 12.2.0-14) 12.2.0"). */
static void comment_of(Elf *elf, char *buf, size_t len)
{
	Elf_Scn *scn = section(elf, ".comment", false);
	Elf_Data *d;

	buf[0] = 0;
	if (!scn || !(d = elf_getdata(scn, NULL)) || !d->d_buf || !d->d_size)
		return;
	snprintf(buf, len, "%.*s", (int)strnlen(d->d_buf, d->d_size), (const char *)d->d_buf);
}

/* Whether the code of the function at VADDR (file bytes P, N) sets up a frame pointer. */
static int fp_prologue(uint16_t machine, const uint8_t *p, size_t n)
{
	if (machine == EM_X86_64) {
		if (n >= 4 && p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa) {
			p += 4;		/* endbr64 */
			n -= 4;
		}
		/* push %rbp; mov %rsp,%rbp */
		return n >= 4 && p[0] == 0x55 && p[1] == 0x48 && (p[2] == 0x89 && p[3] == 0xe5);
	}
	if (machine == EM_AARCH64) {
		/* stp x29, x30, [sp, #-N]! ... mov x29, sp within the first 4 instructions */
		for (size_t i = 0; i + 4 <= n && i < 16; i += 4) {
			uint32_t w = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
				     (uint32_t)p[i + 3] << 24;

			if (w == 0x910003fd)
				return 1;
		}
		return 0;
	}
	return -1;
}

/* Share of sampled function entries (of the symbol table) that set up a frame pointer. */
static int fp_from_code(Elf *elf, uint16_t machine, double *share, size_t *nr)
{
	Elf_Scn *scn = NULL;
	size_t seen = 0, with = 0;

	while ((scn = elf_nextscn(elf, scn)) && seen < FP_SAMPLE) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t nsym;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		nsym = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < nsym && seen < FP_SAMPLE; i++) {
			GElf_Sym s;
			Elf_Scn *ts;
			GElf_Shdr tsh;
			Elf_Data *td;
			uint64_t off;
			int r;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    s.st_size < 16 || s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
				continue;
			ts = elf_getscn(elf, s.st_shndx);
			if (!ts || !gelf_getshdr(ts, &tsh) || tsh.sh_type != SHT_PROGBITS ||
			    s.st_value < tsh.sh_addr || s.st_value - tsh.sh_addr + 16 > tsh.sh_size ||
			    !(td = elf_getdata(ts, NULL)) || !td->d_buf || td->d_size < tsh.sh_size)
				continue;
			off = s.st_value - tsh.sh_addr;
			r = fp_prologue(machine, (const uint8_t *)td->d_buf + off, 16);
			if (r < 0)
				return -1;
			seen++;
			with += (size_t)r;
		}
	}
	if (seen < 3)
		return -1;
	*share = (double)with / (double)seen;
	*nr = seen;
	return 0;
}

/* DT_FLAGS_1 of the dynamic section (0 without one); *SONAME when it has a DT_SONAME. */
static uint64_t dyn_flags1(Elf *elf, bool *soname)
{
	uint64_t flags = 0;

	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;

			if (!gelf_getdyn(d, (int)i, &dyn))
				continue;
			if (dyn.d_tag == DT_FLAGS_1)
				flags = dyn.d_un.d_val;
			*soname |= dyn.d_tag == DT_SONAME;
		}
	}
	return flags;
}

static void facts_of(Elf *elf, struct mycl_build_facts *bf, bool code)
{
	GElf_Ehdr eh;
	size_t nph = 0, ncus;
	bool interp = false, pie_flag = false, soname = false;
	char *prod;
	double fp;

	if (!gelf_getehdr(elf, &eh))
		return;
	bf->machine = eh.e_machine;
	if (!elf_getphdrnum(elf, &nph)) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph))
				continue;
			interp |= ph.p_type == PT_INTERP;
		}
	}
	pie_flag = dyn_flags1(elf, &soname) & DF_1_PIE;
	if (nph && eh.e_type == ET_EXEC) {
		bf->pie = 0;
		bf->static_linked = !interp;
	} else if (nph && eh.e_type == ET_DYN) {
		/*
		 * An executable (DF_1_PIE, or an interpreter and no soname), else a
		 * shared library (libc.so.6 has an interpreter too: it runs).
		 */
		bf->pie = pie_flag || (interp && !soname) ? 1 : -1;
		bf->static_linked = interp ? 0 : pie_flag ? 1 : -1;
	}
	bf->debug_info = section(elf, ".debug_info", false) || section(elf, ".zdebug_info", false);
	bf->lto = section(elf, ".gnu.lto", true) ? 1 : bf->lto;
	if (!bf->comment[0])
		comment_of(elf, bf->comment, sizeof(bf->comment));
	if (!bf->producer[0] && bf->debug_info) {
		prod = main_producer(elf, &ncus);
		if (prod) {
			snprintf(bf->producer, sizeof(bf->producer), "%s", prod);
			bf->nr_cus = ncus;
			free(prod);
		}
	}
	if (code && bf->frame_pointers < 0 &&
	    fp_from_code(elf, eh.e_machine, &fp, &bf->fp_functions) == 0) {
		bf->fp_share = fp;
		bf->frame_pointers = fp >= 0.8 ? 1 : fp <= 0.2 ? 0 : -1;
		bf->fp_from_code = true;
	}
}

static Elf *open_elf(const char *path, int *fd)
{
	Elf *elf;

	*fd = open_regular(path);
	if (*fd < 0)
		return NULL;
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return elf;
}

MYCL_API int mycl_build_facts(const char *binary, const char *debug_file,
			      struct mycl_build_facts *bf)
{
	int fd = -1, dfd = -1;
	Elf *elf, *delf = NULL;

	memset(bf, 0, sizeof(*bf));
	bf->pie = bf->static_linked = bf->lto = bf->frame_pointers = -1;
	elf_library_init();
	elf = binary ? open_elf(binary, &fd) : NULL;
	if (debug_file && (!binary || strcmp(debug_file, binary)))
		delf = open_elf(debug_file, &dfd);
	if (!elf && !delf)
		return -ENOENT;
	/* The debug file first: its DWARF and .comment; the binary: its code. */
	if (delf)
		facts_of(delf, bf, false);
	if (elf) {
		bool dbg = bf->debug_info;

		facts_of(elf, bf, true);
		bf->debug_info |= dbg;
	}
	if (bf->producer[0]) {
		char buf[64];

		compiler_of(bf->producer, bf->compiler, sizeof(bf->compiler));
		flags_of(bf->producer, bf->flags, sizeof(bf->flags));
		if (flag_value(bf->producer, "-march=", buf, sizeof(buf)))
			snprintf(bf->march, sizeof(bf->march), "%s", buf + 7);
		if (has_flag(bf->producer, "-flto") || strstr(bf->producer, "GNU GIMPLE"))
			bf->lto = 1;
		if (has_flag(bf->producer, "-fno-omit-frame-pointer")) {
			bf->frame_pointers = 1;
			bf->fp_from_code = false;
		} else if (has_flag(bf->producer, "-fomit-frame-pointer")) {
			bf->frame_pointers = 0;
			bf->fp_from_code = false;
		}
	} else if (bf->comment[0]) {
		snprintf(bf->compiler, sizeof(bf->compiler), "%s", bf->comment);
	}
	if (bf->lto < 0 && bf->producer[0])
		bf->lto = 0;
	if (delf) {
		elf_end(delf);
		close(dfd);
	}
	if (elf) {
		elf_end(elf);
		close(fd);
	}
	return 0;
}
