/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Function symbols from ELF files (.symtab, .dynsym and the PLT) through libelf. */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include "dso.h"
#include "elfimage.h"

static Elf *open_elf(const char *path, int *fd)
{
	Elf *e;

	elf_library_init();
	*fd = open_regular(path);
	if (*fd < 0)
		return NULL;
	e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return e;
}

static Elf_Scn *find_section(Elf *e, Elf64_Word type, const char *name, GElf_Shdr *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (type && sh.sh_type != type)
			continue;
		n = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && (!n || strcmp(n, name)))
			continue;
		*out = sh;
		return scn;
	}
	return NULL;
}

/* True when the file holds code bytes (not a separate debug file, whose code is NOBITS). */
static bool has_code(Elf *e)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_type == SHT_PROGBITS && sh.sh_size)
			return true;
	}
	return false;
}

/* A separate debug file: its .text is there, but as NOBITS (objcopy --only-keep-debug). */
static bool debug_only(Elf *e)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const char *name;

	if (elf_getshdrstrndx(e, &shstrndx))
		return false;
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".text"))
			return sh.sh_type == SHT_NOBITS;
	return false;
}

int elf_header_problem(const char *path, char *buf, size_t len)
{
	int kind = 0;
	uint64_t size, end;
	size_t shnum = 0;
	GElf_Ehdr eh;
	struct stat st;
	int fd;
	Elf *e = open_elf(path, &fd);

	if (!e)
		return -ENOENT;
	if (fstat(fd, &st) || !gelf_getehdr(e, &eh)) {
		snprintf(buf, len, "its ELF header cannot be read");
	} else {
		size = (uint64_t)st.st_size;
		if (elf_getshdrnum(e, &shnum) || !shnum)
			shnum = eh.e_shnum;
		end = eh.e_shoff + (uint64_t)shnum * eh.e_shentsize;
		if (eh.e_shoff > size || end > size || end < eh.e_shoff)
			snprintf(buf, len, "its section header table (offset 0x%" PRIx64 ", %zu entries) "
				 "lies past the end of the file (%" PRIu64 " bytes)",
				 (uint64_t)eh.e_shoff, shnum, size);
		else if (eh.e_phoff > size)
			snprintf(buf, len, "its program headers (offset 0x%" PRIx64 ") lie past the end "
				 "of the file (%" PRIu64 " bytes)", (uint64_t)eh.e_phoff, size);
		else
			buf[0] = 0;
		if (!buf[0] && eh.e_type == ET_CORE) {
			snprintf(buf, len, "a core dump, not a program or library: give the program "
				 "that dumped it");
			kind = 1;
		} else if (!buf[0] && debug_only(e)) {
			snprintf(buf, len, "a separate debug file (its code sections are empty): give "
				 "the program or library it belongs to");
			kind = 1;
		}
	}
	elf_end(e);
	close(fd);
	return buf[0] ? kind : -ENOENT;
}

int elf_probe(const char *path, struct elf_found *f)
{
	struct stat st;
	const void *bid;
	GElf_Word crc;
	GElf_Shdr sh;
	const char *link;
	int fd, n;
	Elf *e;

	memset(f, 0, sizeof(*f));
	if (access(path, R_OK))
		return -errno;
	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		f->special = true;	/* a FIFO, a device, a socket or a directory: not read */
		return 0;
	}
	e = open_elf(path, &fd);
	if (!e)
		return 0;
	f->is_elf = true;
	n = dwelf_elf_gnu_build_id(e, &bid);
	if (n > 0) {
		f->build_id_size = n > 20 ? 20 : n;
		memcpy(f->build_id, bid, (size_t)f->build_id_size);
	}
	f->has_symtab = find_section(e, SHT_SYMTAB, NULL, &sh) && sh.sh_size > 0;
	f->has_code = has_code(e);
	f->has_dynsym = find_section(e, SHT_DYNSYM, NULL, &sh) && sh.sh_size > 0;
	f->has_dwarf = (find_section(e, SHT_PROGBITS, ".debug_info", &sh) && sh.sh_size > 0) ||
		       (find_section(e, SHT_PROGBITS, ".zdebug_info", &sh) && sh.sh_size > 0);
	link = dwelf_elf_gnu_debuglink(e, &crc);
	if (link)
		snprintf(f->debuglink, sizeof(f->debuglink), "%s", link);
	elf_end(e);
	close(fd);
	return 0;
}

/*
 * Program headers map file offsets to addresses, but only in the file that
 * was mapped: a debug file's copies describe offsets it does not have.
 */
static void load_segments(Elf *e, struct dso *d)
{
	size_t nph;

	if (d->nr_segs || elf_getphdrnum(e, &nph) || !has_code(e))
		return;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		struct seg *n;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		n = realloc(d->segs, (d->nr_segs + 1) * sizeof(*n));
		if (!n)
			return;
		d->segs = n;
		d->segs[d->nr_segs++] = (struct seg){ ph.p_offset, ph.p_vaddr,
						      ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz };
	}
}

/*
 * The string table of section NDX in place (*STRS, *N bytes at file offset
 * *OFF), when it ends in a NUL so that every offset inside names a terminated
 * string; else NULL.
 */
static void str_table(Elf *e, size_t ndx, const char **strs, size_t *n, uint64_t *off)
{
	Elf_Scn *scn = elf_getscn(e, ndx);
	Elf_Data *d;
	GElf_Shdr sh;

	*strs = NULL;
	*n = 0;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB ||
	    (sh.sh_flags & SHF_COMPRESSED) || !(d = elf_getdata(scn, NULL)) || !d->d_buf ||
	    !d->d_size || ((const char *)d->d_buf)[d->d_size - 1])
		return;
	*strs = d->d_buf;
	*n = d->d_size;
	*off = sh.sh_offset;
}

/* The name at OFF: from the table in place when there is one, else libelf's look-up. */
static const char *sym_name(Elf *e, size_t ndx, const char *strs, size_t n, size_t off)
{
	if (strs)
		return off < n ? strs + off : NULL;
	return elf_strptr(e, ndx, off);
}

/*
 * The string table STRS (N bytes at file offset OFF of FD, as str_table()
 * found it) mapped for T to keep: its names are then T's without a copy
 * (symtab_keep_text).  NULL when T keeps a text already or it cannot be mapped.
 */
static const char *keep_str_table(int fd, uint64_t off, const char *strs, size_t n,
				  struct symtab *t)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), delta;
	struct stat st;
	char *m;

	if (!strs || t->text || fd < 0 || fstat(fd, &st) || off > (uint64_t)st.st_size ||
	    n > (uint64_t)st.st_size - off || !page || (page & (page - 1)))
		return NULL;
	delta = (size_t)(off & (page - 1));
	m = mmap(NULL, n + delta, PROT_READ, MAP_PRIVATE, fd, (off_t)(off - delta));
	if (m == MAP_FAILED)
		return NULL;
	if (m[delta + n - 1]) {		/* not the bytes libelf read */
		munmap(m, n + delta);
		return NULL;
	}
	symtab_keep_text(t, m, n + delta, true);
	return m + delta;
}

/* Functions (and data objects) of .symtab, else .dynsym. */
static int load_symbols(Elf *e, int fd, struct dso *d, bool demangle)
{
	const Elf64_Sym *syms64 = NULL;
	const char *strs, *fstrs, *dstrs;
	size_t nstrs, nsyms;
	uint64_t stroff = 0;
	GElf_Shdr sh;
	GElf_Ehdr eh;
	Elf_Scn *scn;
	Elf_Data *data;
	int err = 0;

	gelf_getehdr(e, &eh);
	scn = find_section(e, SHT_SYMTAB, NULL, &sh);
	if (!scn)
		scn = find_section(e, SHT_DYNSYM, NULL, &sh);
	if (!scn || !(data = elf_getdata(scn, NULL)) || !sh.sh_entsize)
		return MYCL_ERR_ELF;
	if (gelf_getclass(e) == ELFCLASS64 && data->d_type == ELF_T_SYM &&
	    sh.sh_entsize == sizeof(Elf64_Sym))
		syms64 = data->d_buf;
	d->symtab_full = sh.sh_type == SHT_SYMTAB;
	str_table(e, sh.sh_link, &strs, &nstrs, &stroff);
	/* The names where the file has them (mapped), and room for every symbol at once. */
	fstrs = keep_str_table(fd, stroff, strs, nstrs, &d->syms);
	dstrs = NULL;
	if (fstrs && !d->data_syms.text) {
		/* one mapping for both tables: the functions' owns it */
		symtab_share_text(&d->data_syms, &d->syms);
		dstrs = fstrs;
	}
	nsyms = sh.sh_size / sh.sh_entsize;
	if (ARRAY_GROW(d->syms.syms, d->syms.cap, d->syms.nr + nsyms))
		return -ENOMEM;
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym s;
		const char *name;
		int type, bind;

		/* 64-bit tables read in place, else through gelf's copy. */
		if (syms64 && (i + 1) * sizeof(Elf64_Sym) <= data->d_size)
			s = syms64[i];
		else if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		bind = GELF_ST_BIND(s.st_info);
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE || !s.st_value)
			continue;
		if (type == STT_OBJECT) {
			name = sym_name(e, sh.sh_link, dstrs ? dstrs : strs, nstrs, s.st_name);
			if (name && *name)
				err = symtab_add(&d->data_syms, s.st_value, s.st_size, name,
						 bind == STB_GLOBAL ? SYMB_GLOBAL : bind == STB_WEAK ?
						 SYMB_WEAK : SYMB_LOCAL, demangle);
			if (err)
				break;
			continue;
		}
		/* Functions, and untyped labels in code (_start), as perf takes them. */
		if (type == STT_NOTYPE) {
			GElf_Shdr ts;
			Elf_Scn *tscn = elf_getscn(e, s.st_shndx);

			if (!tscn || !gelf_getshdr(tscn, &ts) || !(ts.sh_flags & SHF_EXECINSTR))
				continue;
		} else if (type != STT_FUNC && type != STT_GNU_IFUNC) {
			continue;
		}
		name = sym_name(e, sh.sh_link, fstrs ? fstrs : strs, nstrs, s.st_name);
		if (!name || !*name || (name[0] == '$' && strchr("adtx", name[1]) &&
					(!name[2] || name[2] == '.')))
			continue;
		if (eh.e_machine == EM_ARM)
			s.st_value &= ~1ULL;
		err = symtab_add(&d->syms, s.st_value, s.st_size, name,
				 bind == STB_GLOBAL ? SYMB_GLOBAL : bind == STB_WEAK ? SYMB_WEAK : SYMB_LOCAL,
				 demangle);
		if (err)
			break;
	}
	return err;
}

static uint32_t arm_imm(uint32_t w)
{
	uint32_t v = w & 0xff, r = ((w >> 8) & 0xf) * 2;

	return r ? (v >> r) | (v << (32 - r)) : v;
}

/*
 * arm: the GOT slot of the PLT entry at CODE + *POS (ADDR there), which is
 * "add ip, pc, #a; add ip, ip, #b; ldr pc, [ip, #c]!", after a Thumb
 * caller's "bx pc; nop" (or "bx pc; b.n .-2") when it has one (entries
 * differ in size); *POS and *SIZE the entry's.  0 when the code is not
 * such an entry.
 */
static uint64_t arm_plt_slot(const uint8_t *code, size_t len, size_t *pos, uint64_t addr,
			     uint64_t *size)
{
	size_t p = *pos, stub = 0;
	uint32_t w[3];

	/* bx pc, then nop (mov r8, r8) or b.n back */
	if (len - p >= 4 && code[p] == 0x78 && code[p + 1] == 0x47 &&
	    ((code[p + 2] == 0xc0 && code[p + 3] == 0x46) || (code[p + 2] == 0xfd && code[p + 3] == 0xe7)))
		stub = 4;
	if (len - p < stub + 12)
		return 0;
	for (int k = 0; k < 3; k++)
		w[k] = (uint32_t)code[p + stub + 4 * k] | (uint32_t)code[p + stub + 4 * k + 1] << 8 |
		       (uint32_t)code[p + stub + 4 * k + 2] << 16 |
		       (uint32_t)code[p + stub + 4 * k + 3] << 24;
	if ((w[0] & 0xfffff000) != 0xe28fc000 || (w[1] & 0xfffff000) != 0xe28cc000 ||
	    (w[2] & 0xfffff000) != 0xe5bcf000)
		return 0;
	*size = stub + 12;
	*pos = p + stub + 12;
	return addr + stub + 8 + arm_imm(w[0]) + arm_imm(w[1]) + (w[2] & 0xfff);
}

/*
 * arm's PLT entries, each named by the relocation of the GOT slot its code
 * loads from: 0, 1 when the section holds entries of another kind, or an
 * error.
 */
/* A PLT entry's name, as perf writes it: the import's name demangled (without parameters), then "@plt". */
static void plt_name(char *buf, size_t len, const char *name, bool demangle)
{
	char *dem = demangle && name && is_mangled(name) ? demangle_name_as_perf(name) : NULL;

	snprintf(buf, len, "%s@plt", dem ? dem : name ? name : "");
	free(dem);
}

static int arm_plt_symbols(Elf *e, struct dso *d, Elf_Scn *scn, const GElf_Shdr *plt,
			   uint64_t hdr, Elf_Data *rdata, const GElf_Shdr *relsh, Elf_Data *ddata,
			   const GElf_Shdr *dynsh, bool demangle)
{
	Elf_Data *code = scn ? elf_getdata(scn, NULL) : NULL;
	size_t pos = hdr, k = 0, nrel = relsh->sh_size / relsh->sh_entsize;

	if (!code || !code->d_buf || code->d_size < hdr)
		return 1;
	while (pos < code->d_size) {
		uint64_t at = plt->sh_addr + pos, size = 0;
		uint64_t slot = arm_plt_slot(code->d_buf, code->d_size, &pos, at, &size);
		const char *name = NULL;
		char buf[512];
		GElf_Rel rl;
		GElf_Sym s;

		if (!slot)
			return at == plt->sh_addr + hdr ? 1 : 0;
		/* The n-th entry's slot is the n-th relocation's, as the linkers lay them out; else search. */
		for (size_t i = 0; i <= nrel && !name; i++) {
			size_t r = i ? i - 1 : k;

			if (r < nrel && gelf_getrel(rdata, (int)r, &rl) && rl.r_offset == slot &&
			    gelf_getsym(ddata, (int)GELF_R_SYM(rl.r_info), &s))
				name = elf_strptr(e, dynsh->sh_link, s.st_name);
		}
		k++;
		plt_name(buf, sizeof(buf), name, demangle);
		if (symtab_add(&d->syms, at, size, buf, SYMB_GLOBAL, false))
			return -ENOMEM;
	}
	return 0;
}

/*
 * PLT entries named as perf names them ("strcmp@plt"): the n-th JUMP_SLOT
 * relocation of .rela.plt belongs to the n-th PLT entry, which sits after
 * the PLT header in .plt, or with no header in .plt.sec (x86 IBT).  The
 * header and entry sizes are the linkers' (GNU ld and lld agree on these).
 */
static int add_plt_symbols(Elf *e, struct dso *d, bool demangle)
{
	GElf_Shdr plt, relsh, dynsh, sec;
	Elf_Scn *rscn, *dscn;
	Elf_Data *rdata, *ddata;
	uint64_t base, hdr = 0, entsz = 16;
	GElf_Ehdr eh;
	bool rela = true;
	int err = 0;

	gelf_getehdr(e, &eh);
	switch (eh.e_machine) {
	case EM_X86_64: case EM_386:
		hdr = 16;
		break;
	case EM_AARCH64:
		hdr = 32;
		break;
	case EM_ARM:
		hdr = 20, entsz = 12;
		break;
	case EM_S390:
		hdr = 32, entsz = 32;
		break;
	case 243:	/* EM_RISCV */
		hdr = 32;
		break;
	default:
		goto out;
	}
	if (!find_section(e, SHT_PROGBITS, ".plt", &plt))
		goto out;
	rscn = find_section(e, SHT_RELA, ".rela.plt", &relsh);
	if (!rscn) {
		rscn = find_section(e, SHT_REL, ".rel.plt", &relsh);
		rela = false;
	}
	if (!rscn || !relsh.sh_entsize || !(rdata = elf_getdata(rscn, NULL)))
		goto out;
	dscn = elf_getscn(e, relsh.sh_link);
	if (!dscn || !gelf_getshdr(dscn, &dynsh) || !(ddata = elf_getdata(dscn, NULL)))
		goto out;
	base = plt.sh_addr + hdr;
	if (find_section(e, SHT_PROGBITS, ".plt.sec", &sec))
		base = sec.sh_addr;
	if (eh.e_machine == EM_ARM && eh.e_ident[EI_DATA] == ELFDATA2LSB) {
		err = arm_plt_symbols(e, d, find_section(e, SHT_PROGBITS, ".plt", &plt), &plt, hdr,
				      rdata, &relsh, ddata, &dynsh, demangle);
		if (err <= 0)
			goto out;
		err = 0;	/* not entries of the usual kind: by their size */
	}
	for (size_t i = 0; i < relsh.sh_size / relsh.sh_entsize; i++) {
		GElf_Rela r;
		GElf_Rel rl;
		GElf_Sym s;
		uint64_t info;
		const char *name;
		char buf[512];

		if (rela) {
			if (!gelf_getrela(rdata, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			if (!gelf_getrel(rdata, (int)i, &rl))
				break;
			info = rl.r_info;
		}
		if (!gelf_getsym(ddata, (int)GELF_R_SYM(info), &s))
			continue;
		name = elf_strptr(e, dynsh.sh_link, s.st_name);
		/* IRELATIVE slots have no name: perf calls them "@plt" too. */
		plt_name(buf, sizeof(buf), name, demangle);
		err = symtab_add(&d->syms, base + i * entsz, entsz, buf, SYMB_GLOBAL, false);
		if (err)
			break;
	}
out:
	return err;
}

void elf_load_segments(const char *runtime, struct dso *d)
{
	int fd = -1;
	Elf *run = open_elf(runtime, &fd);

	if (!run)
		return;
	load_segments(run, d);
	elf_end(run);
	close(fd);
}

int elf_load(const char *runtime, const char *use, struct dso *d, bool demangle)
{
	int fd_run = -1, fd_use = -1, err;
	Elf *run = runtime ? open_elf(runtime, &fd_run) : NULL;
	Elf *sym = run && !strcmp(runtime, use) ? run : open_elf(use, &fd_use);

	/* The mapped file's segments first: a separate debug file's may differ. */
	if (run)
		load_segments(run, d);
	err = sym ? load_symbols(sym, sym == run ? fd_run : fd_use, d, demangle) : MYCL_ERR_ELF;
	if (!err && sym)
		load_segments(sym, d);
	if (!err && run)
		add_plt_symbols(run, d, demangle);	/* best effort: the names perf gives PLT slots */
	if (sym && sym != run) {
		elf_end(sym);
		close(fd_use);
	}
	if (run) {
		elf_end(run);
		close(fd_run);
	}
	return err;
}
