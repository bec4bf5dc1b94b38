/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elfimage.h"
#include "internal.h"

struct code_sec {
	uint64_t addr, size;
	const uint8_t *bytes;
	int64_t off;			/* in the file, -1 when not stored as is (compressed) */
};

struct elf_image {
	int fd;
	Elf *e;
	uint16_t machine;
	bool big_endian;
	uint64_t toc;
	struct code_sec *code;
	size_t nr_code, code_cap;
	struct got_slot *got;		/* sorted by slot */
	size_t nr_got, got_cap;
	struct elf_section *secs;	/* allocated sections */
	size_t nr_secs, secs_cap;
	struct code_sec *data;		/* allocated non-code sections with bytes */
	size_t nr_data, data_cap;
	uint64_t *copies;		/* addresses of COPY relocations, sorted */
	size_t nr_copies, copies_cap;
	/*
	 * The relocation sections, read into GOT and COPIES the first time every slot is asked
	 * for (mycl-share); single slots are looked up in the sections as they are, through their
	 * runs of rising addresses (one or a few per section): a look at a few functions (the lock
	 * kinds of a profile's rows) copies and sorts none of mariadbd's 190,000.
	 */
	struct rel_sec {
		Elf_Data *data, *symdata;
		size_t strndx, nr;
		bool rela;
	} *rsecs;
	size_t nr_rsecs, rsecs_cap;
	bool relocs_read;
	int relocs_err;
	struct rel_run {
		size_t sec, lo, hi;
	} *runs;
	size_t nr_runs, runs_cap;
	bool runs_made;
	struct got_slot found;		/* what elf_image_got() returned last */
	struct code_mode { uint64_t addr; uint8_t mode; } *modes;	/* arm: 0 ARM, 1 Thumb, 2 data */
	size_t nr_modes, modes_cap;
	uint64_t entry;
	bool executable;		/* a program (ET_EXEC, or with an interpreter) */
	bool interp;			/* ... with an interpreter: linked dynamically */
	uint64_t relro, relro_end;	/* PT_GNU_RELRO: read-only once relocated, [relro, relro_end) */
	bool elf64;
};

/* The COPY relocation type of a machine (an object of a library copied into a program). */
static uint32_t copy_type(uint16_t m)
{
	switch (m) {
	case EM_X86_64: return R_X86_64_COPY;
	case EM_AARCH64: return R_AARCH64_COPY;
	case EM_PPC64: return R_PPC64_COPY;
	case EM_S390: return R_390_COPY;
	case EM_386: return R_386_COPY;
	case EM_ARM: return R_ARM_COPY;
	case 243: return 4;		/* R_RISCV_COPY */
	default: return 0;
	}
}

static int slot_cmp(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* What a relocation is to the look-ups: a GOT-like slot (by symbol or relative), a COPY, other. */
enum { REL_OTHER, REL_NAMED, REL_RELATIVE, REL_COPY };

/* GLOB_DAT, ADDR64/64 (REL_NAMED) and RELATIVE relocation types, per machine. */
static int reloc_kind(uint16_t m, uint32_t type)
{
	enum { OTHER = REL_OTHER, NAMED = REL_NAMED, RELATIVE = REL_RELATIVE };

	switch (m) {
	case EM_X86_64:
		return type == R_X86_64_GLOB_DAT || type == R_X86_64_64 ? NAMED :
		       type == R_X86_64_RELATIVE ? RELATIVE : OTHER;
	case EM_AARCH64:
		return type == R_AARCH64_GLOB_DAT || type == R_AARCH64_ABS64 ? NAMED :
		       type == R_AARCH64_RELATIVE ? RELATIVE : OTHER;
	case EM_PPC64:
		return type == R_PPC64_GLOB_DAT || type == R_PPC64_ADDR64 ? NAMED :
		       type == R_PPC64_RELATIVE ? RELATIVE : OTHER;
	case EM_S390:
		return type == R_390_GLOB_DAT || type == R_390_64 ? NAMED :
		       type == R_390_RELATIVE ? RELATIVE : OTHER;
	case EM_386:
		return type == R_386_GLOB_DAT || type == R_386_32 ? NAMED :
		       type == R_386_RELATIVE ? RELATIVE : OTHER;
	case EM_ARM:
		return type == R_ARM_GLOB_DAT || type == R_ARM_ABS32 ? NAMED :
		       type == R_ARM_RELATIVE ? RELATIVE : OTHER;
	case 243:	/* EM_RISCV: R_RISCV_32, R_RISCV_64 (GOT slots too), R_RISCV_RELATIVE */
		return type == 1 || type == 2 ? NAMED : type == 3 ? RELATIVE : OTHER;
	default:
		return OTHER;
	}
}

/* Entry I of a relocation section, from libelf's memory form of it (the file's class, host order). */
static bool reloc_at(const struct elf_image *img, const Elf_Data *data, bool rela, size_t i,
		     GElf_Rela *r)
{
	if (img->elf64 && rela && data->d_type == ELF_T_RELA && (i + 1) * sizeof(Elf64_Rela) <= data->d_size) {
		const Elf64_Rela *e = (const Elf64_Rela *)data->d_buf + i;

		*r = (GElf_Rela){ e->r_offset, e->r_info, e->r_addend };
		return true;
	}
	if (rela)
		return gelf_getrela((Elf_Data *)data, (int)i, r) != NULL;
	if (!gelf_getrel((Elf_Data *)data, (int)i, (GElf_Rel *)r))
		return false;
	r->r_addend = 0;
	return true;
}

/* Where a section's relocations are and how to read them; false when they cannot be read. */
static bool rel_sec_init(struct elf_image *img, Elf_Scn *scn, struct rel_sec *rs)
{
	Elf_Scn *symscn;
	GElf_Shdr sh, symsh;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize || !(rs->data = elf_getdata(scn, NULL)) ||
	    !(symscn = elf_getscn(img->e, sh.sh_link)) || !gelf_getshdr(symscn, &symsh) ||
	    !(rs->symdata = elf_getdata(symscn, NULL)))
		return false;
	rs->strndx = symsh.sh_link;
	rs->nr = sh.sh_size / sh.sh_entsize;
	rs->rela = sh.sh_type == SHT_RELA;
	return true;
}

/* What relocation R of RS is; for a GOT-like one, the slot it fills (REL addends not yet added). */
static int rel_slot(const struct elf_image *img, const struct rel_sec *rs, const GElf_Rela *r,
		    struct got_slot *g)
{
	uint32_t type = (uint32_t)GELF_R_TYPE(r->r_info);
	GElf_Sym s;
	int kind;

	if (copy_type(img->machine) && type == copy_type(img->machine))
		return REL_COPY;
	kind = reloc_kind(img->machine, type);
	if (kind == REL_OTHER)
		return REL_OTHER;
	*g = (struct got_slot){ .slot = r->r_offset, .implicit = !rs->rela };
	if (kind == REL_RELATIVE) {
		g->target = (uint64_t)r->r_addend;
		return REL_RELATIVE;
	}
	if (gelf_getsym(rs->symdata, (int)GELF_R_SYM(r->r_info), &s)) {
		g->name = elf_strptr(img->e, rs->strndx, s.st_name);
		g->target = s.st_value ? s.st_value + (uint64_t)r->r_addend : 0;
	}
	return REL_NAMED;
}

static int load_relocs(struct elf_image *img, const struct rel_sec *rs)
{
	for (size_t i = 0; i < rs->nr; i++) {
		struct got_slot g;
		GElf_Rela r;
		int kind;

		if (!reloc_at(img, rs->data, rs->rela, i, &r))
			break;
		kind = rel_slot(img, rs, &r, &g);
		if (kind == REL_COPY) {
			if (ARRAY_GROW(img->copies, img->copies_cap, img->nr_copies + 1))
				return -ENOMEM;
			img->copies[img->nr_copies++] = r.r_offset;
		} else if (kind != REL_OTHER) {
			if (ARRAY_GROW(img->got, img->got_cap, img->nr_got + 1))
				return -ENOMEM;
			img->got[img->nr_got++] = g;
		}
	}
	return 0;
}

/*
 * arm: where Thumb and ARM code start, from the mapping symbols ($t, $a, $d)
 * and the low bit of function symbols.
 */
static int arm_mode_symbol(struct elf_image *img, const GElf_Sym *s, const char *n)
{
	int mode;

	if (n[0] == '$' && strchr("atd", n[1]) && (!n[2] || n[2] == '.'))
		mode = n[1] == 't' ? 1 : n[1] == 'a' ? 0 : 2;
	else if (GELF_ST_TYPE(s->st_info) == STT_FUNC && s->st_value)
		mode = (s->st_value & 1) ? 1 : 0;
	else
		return 0;
	if (ARRAY_GROW(img->modes, img->modes_cap, img->nr_modes + 1))
		return -ENOMEM;
	img->modes[img->nr_modes++] = (struct code_mode){ s->st_value & ~1ULL, (uint8_t)mode };
	return 0;
}

static int mode_cmp(const void *a, const void *b)
{
	const struct code_mode *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->mode == 2) - (y->mode == 2);	/* code before data at one address */
}

static uint64_t word_at(const struct elf_image *img, const uint8_t *p);

/* REL relocations keep their addend in the word they patch. */
static void rel_addend(const struct elf_image *img, struct got_slot *g)
{
	unsigned int w = img->elf64 ? 8 : 4;
	const uint8_t *p = NULL;

	if (!g->implicit)
		return;
	for (size_t k = 0; k < img->nr_data && !p; k++)
		if (g->slot >= img->data[k].addr && g->slot + w <= img->data[k].addr + img->data[k].size)
			p = img->data[k].bytes + (g->slot - img->data[k].addr);
	if (!p)
		return;
	if (g->name && g->target)
		g->target += word_at(img, p);
	else if (!g->name)
		g->target = word_at(img, p);
}

static void rel_addends(struct elf_image *img)
{
	for (size_t i = 0; i < img->nr_got; i++)
		rel_addend(img, &img->got[i]);
}

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;

static void elf_once_init(void)
{
	elf_version(EV_CURRENT);
}

void elf_library_init(void)
{
	pthread_once(&elf_once, elf_once_init);
}

int elf_image_open(const char *path, struct elf_image **out)
{
	struct elf_image *img;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	uint64_t got_addr = 0;
	int err = 0;

	*out = NULL;
	img = calloc(1, sizeof(*img));
	if (!img)
		return -ENOMEM;
	elf_library_init();
	img->fd = open_regular(path);
	if (img->fd < 0) {
		err = -errno;
		free(img);
		return err;
	}
	img->e = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	if (!img->e || !gelf_getehdr(img->e, &eh) || elf_getshdrstrndx(img->e, &shstrndx)) {
		elf_image_close(img);
		return MYCL_ERR_ELF;
	}
	img->machine = eh.e_machine;
	img->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	img->entry = eh.e_entry;
	img->elf64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	img->executable = eh.e_type == ET_EXEC;
	for (size_t i = 0, n; !elf_getphdrnum(img->e, &n) && i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(img->e, (int)i, &ph))
			continue;
		if (ph.p_type == PT_INTERP)
			img->executable = img->interp = true;
		if (ph.p_type == PT_GNU_RELRO && ph.p_memsz && ph.p_vaddr + ph.p_memsz > ph.p_vaddr) {
			img->relro = ph.p_vaddr;
			img->relro_end = ph.p_vaddr + ph.p_memsz;
		}
	}
	while ((scn = elf_nextscn(img->e, scn)) && !err) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(img->e, shstrndx, sh.sh_name);
		if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size &&
		    !ARRAY_GROW(img->secs, img->secs_cap, img->nr_secs + 1))
			img->secs[img->nr_secs++] = (struct elf_section){
				.name = name ? name : "?", .addr = sh.sh_addr, .size = sh.sh_size,
				.write = sh.sh_flags & SHF_WRITE, .exec = sh.sh_flags & SHF_EXECINSTR,
				.tls = sh.sh_flags & SHF_TLS, .nobits = sh.sh_type == SHT_NOBITS };
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size) {
			Elf_Data *data = elf_getdata(scn, NULL);

			if (data && data->d_size == sh.sh_size &&
			    !ARRAY_GROW(img->code, img->code_cap, img->nr_code + 1))
				img->code[img->nr_code++] = (struct code_sec){ sh.sh_addr, sh.sh_size,
					data->d_buf, sh.sh_flags & SHF_COMPRESSED ? -1 : (int64_t)sh.sh_offset };
		} else if ((sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_ALLOC) &&
			    !(sh.sh_flags & SHF_TLS) && sh.sh_size) ||
			   sh.sh_type == SHT_INIT_ARRAY || sh.sh_type == SHT_FINI_ARRAY ||
			   sh.sh_type == SHT_PREINIT_ARRAY) {
			/* Data bytes: the words that may hold code addresses, .eh_frame_hdr. */
			Elf_Data *data = elf_getdata(scn, NULL);

			if (data && data->d_size == sh.sh_size &&
			    !ARRAY_GROW(img->data, img->data_cap, img->nr_data + 1))
				img->data[img->nr_data++] = (struct code_sec){ sh.sh_addr, sh.sh_size,
									      data->d_buf, -1 };
		} else if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) {
			if (ARRAY_GROW(img->rsecs, img->rsecs_cap, img->nr_rsecs + 1))
				err = -ENOMEM;
			else if (rel_sec_init(img, scn, &img->rsecs[img->nr_rsecs]))
				img->nr_rsecs++;
		} else if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
			   (img->machine == EM_PPC64 || img->machine == 243 || img->machine == EM_ARM)) {
			/*
			 * ppc64: r2 holds .TOC. (the .got section + 0x8000); riscv: gp holds
			 * __global_pointer$; arm: $a/$t/$d mark the instruction set.  Other
			 * machines need nothing of the symbols here (and their pages stay unread).
			 */
			Elf_Data *data = elf_getdata(scn, NULL);

			for (size_t i = 0; data && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym s;
				const char *n;

				if (!gelf_getsym(data, (int)i, &s))
					break;
				n = elf_strptr(img->e, sh.sh_link, s.st_name);
				if (n && !strcmp(n, img->machine == 243 ? "__global_pointer$" : ".TOC.") &&
				    s.st_value)
					img->toc = s.st_value;
				if (n && img->machine == EM_ARM)
					err = arm_mode_symbol(img, &s, n);
			}
		}
		if (name && !strcmp(name, ".got"))
			got_addr = sh.sh_addr;
	}
	if (!img->toc && img->machine == EM_PPC64 && got_addr)
		img->toc = got_addr + 0x8000;
	sort_array(img->modes, img->nr_modes, sizeof(*img->modes), mode_cmp);
	if (err) {
		elf_image_close(img);
		return err;
	}
	*out = img;
	return 0;
}

/* The relocations, read once (the image is a cache behind its const pointer). */
static int read_relocs(const struct elf_image *cimg)
{
	struct elf_image *img = (struct elf_image *)cimg;

	if (img->relocs_read)
		return img->relocs_err;
	img->relocs_read = true;
	for (size_t i = 0; i < img->nr_rsecs && !img->relocs_err; i++)
		img->relocs_err = load_relocs(img, &img->rsecs[i]);
	rel_addends(img);
	/* Linkers write relocations in address order, a run per kind: merged, not sorted. */
	sort_array(img->got, img->nr_got, sizeof(*img->got), slot_cmp);
	sort_array(img->copies, img->nr_copies, sizeof(*img->copies), u64_cmp);
	return img->relocs_err;
}

int elf_image_read_relocs(const struct elf_image *img)
{
	return read_relocs(img);
}

/* The runs of rising addresses in the relocation sections, found once. */
static void make_runs(const struct elf_image *cimg)
{
	struct elf_image *img = (struct elf_image *)cimg;

	if (img->runs_made)
		return;
	img->runs_made = true;
	for (size_t i = 0; i < img->nr_rsecs; i++) {
		const struct rel_sec *rs = &img->rsecs[i];
		uint64_t prev = 0;
		size_t lo = 0;

		for (size_t k = 0; k <= rs->nr; k++) {
			GElf_Rela r;
			bool ok = k < rs->nr && reloc_at(img, rs->data, rs->rela, k, &r);

			if (ok && (k == lo || r.r_offset >= prev)) {
				prev = r.r_offset;
				continue;
			}
			if (k > lo && !ARRAY_GROW(img->runs, img->runs_cap, img->nr_runs + 1))
				img->runs[img->nr_runs++] = (struct rel_run){ i, lo, k };
			if (!ok)
				break;
			lo = k;
			prev = r.r_offset;
		}
	}
}

/* The first relocation at ADDR that is a COPY (COPY) or a GOT-like slot (else), in the sections' order. */
static bool find_reloc(const struct elf_image *img, uint64_t addr, bool copy, struct got_slot *g)
{
	make_runs(img);
	for (size_t i = 0; i < img->nr_runs; i++) {
		const struct rel_run *run = &img->runs[i];
		const struct rel_sec *rs = &img->rsecs[run->sec];
		GElf_Rela r;
		size_t k;

		k = PARTITION_POINT(run->lo, run->hi, mid,
				    reloc_at(img, rs->data, rs->rela, mid, &r) && r.r_offset < addr);
		for (; k < run->hi && reloc_at(img, rs->data, rs->rela, k, &r) && r.r_offset == addr; k++) {
			int kind = rel_slot(img, rs, &r, g);

			if (copy ? kind == REL_COPY : kind == REL_NAMED || kind == REL_RELATIVE) {
				if (!copy)
					rel_addend(img, g);
				return true;
			}
		}
	}
	return false;
}

void elf_image_close(struct elf_image *img)
{
	if (!img)
		return;
	if (img->e)
		elf_end(img->e);
	if (img->fd >= 0)
		close(img->fd);
	free(img->code);
	free(img->got);
	free(img->secs);
	free(img->data);
	free(img->copies);
	free(img->modes);
	free(img->rsecs);
	free(img->runs);
	free(img);
}

uint16_t elf_image_machine(const struct elf_image *img)
{
	return img->machine;
}

bool elf_image_big_endian(const struct elf_image *img)
{
	return img->big_endian;
}

unsigned int elf_image_ptr_size(const struct elf_image *img)
{
	return img->elf64 ? 8 : 4;
}

uint64_t elf_image_toc(const struct elf_image *img)
{
	return img->toc;
}

const uint8_t *elf_image_code(const struct elf_image *img, uint64_t vaddr, size_t len)
{
	for (size_t i = 0; i < img->nr_code; i++) {
		const struct code_sec *c = &img->code[i];

		if (vaddr >= c->addr && vaddr - c->addr <= c->size && len <= c->size - (vaddr - c->addr))
			return c->bytes + (vaddr - c->addr);
	}
	return NULL;
}

int elf_image_read_code(const struct elf_image *img, uint64_t vaddr, size_t len, uint8_t *buf)
{
	for (size_t i = 0; i < img->nr_code; i++) {
		const struct code_sec *c = &img->code[i];

		if (vaddr >= c->addr && vaddr - c->addr <= c->size &&
		    len <= c->size - (vaddr - c->addr)) {
			off_t at = (off_t)(c->off + (int64_t)(vaddr - c->addr));

			return c->off >= 0 && img->fd >= 0 && pread(img->fd, buf, len, at) == (ssize_t)len
				? 0 : -1;
		}
	}
	return -1;
}

const struct got_slot *elf_image_got(const struct elf_image *img, uint64_t addr)
{
	struct got_slot key = { .slot = addr };
	struct elf_image *w = (struct elf_image *)img;	/* FOUND is a cache */

	if (img->relocs_read)
		return img->nr_got ? bsearch(&key, img->got, img->nr_got, sizeof(*img->got),
					     slot_cmp) : NULL;
	return find_reloc(img, addr, false, &w->found) ? &w->found : NULL;
}

int elf_image_for_each_code(const struct elf_image *img,
			    int (*fn)(uint64_t addr, const uint8_t *bytes, size_t len, void *arg),
			    void *arg)
{
	for (size_t i = 0; i < img->nr_code; i++) {
		int err = fn(img->code[i].addr, img->code[i].bytes, img->code[i].size, arg);

		if (err)
			return err;
	}
	return 0;
}

const struct elf_section *elf_image_section_at(const struct elf_image *img, uint64_t addr)
{
	for (size_t i = 0; i < img->nr_secs; i++)
		if (!img->secs[i].tls && addr >= img->secs[i].addr &&
		    addr - img->secs[i].addr < img->secs[i].size)
			return &img->secs[i];
	return NULL;
}

/* A section whose words the program never writes once relocated: GOT, TOC, RELRO data. */
static bool constant_slots(const char *name)
{
	return name[0] == '.' && ((name[1] == 'g' && !strncmp(name, ".got", 4)) ||
				  (name[1] == 't' && !strncmp(name, ".toc", 4)) ||
				  (name[1] == 'd' && !strncmp(name, ".data.rel.ro", 12)));
}

uint64_t elf_image_got_target(void *arg, uint64_t slot)
{
	const struct got_slot *g = elf_image_got(arg, slot);
	const struct elf_section *sec;

	if (!g)
		return 0;
	/*
	 * A slot the program never writes: the GOT, the TOC, relocated
	 * constants (RELRO).  A pointer variable initialised to an address
	 * (dlist_head list = { &list.head, ... } in .data) holds it only until
	 * the program changes it.  (No section headers: taken as a slot.)
	 */
	sec = elf_image_section_at(arg, slot);
	if (sec && sec->name && !constant_slots(sec->name))
		return 0;
	return g->target;
}

uint64_t elf_image_entry(const struct elf_image *img)
{
	return img->entry;
}

bool elf_image_executable(const struct elf_image *img)
{
	return img->executable;
}

bool elf_image_relro(const struct elf_image *img, uint64_t addr)
{
	return addr >= img->relro && addr < img->relro_end;
}

bool elf_image_static(const struct elf_image *img)
{
	return img->executable && !img->interp;
}

const uint8_t *elf_image_rodata(const struct elf_image *img, uint64_t vaddr, size_t len)
{
	const struct elf_section *sec = elf_image_section_at(img, vaddr);

	if (!sec || sec->write || sec->nobits)
		return NULL;
	for (size_t i = 0; i < img->nr_data; i++) {
		const struct code_sec *c = &img->data[i];

		if (vaddr >= c->addr && vaddr - c->addr <= c->size && c->size - (vaddr - c->addr) >= len)
			return c->bytes + (vaddr - c->addr);
	}
	return NULL;
}

/* What the aligned word at VADDR in the file's data points to, by relocation or as it is. */
static uint64_t data_word_target(const struct elf_image *img, uint64_t vaddr)
{
	unsigned int w = img->elf64 ? 8 : 4;
	uint64_t t;

	if (vaddr & (w - 1))
		return 0;
	const struct got_slot *g = elf_image_got(img, vaddr);

	if (g && (t = g->target))
		return t;
	for (size_t i = 0; i < img->nr_data; i++) {
		const struct code_sec *c = &img->data[i];

		if (vaddr >= c->addr && vaddr - c->addr <= c->size && c->size - (vaddr - c->addr) >= w)
			return word_at(img, c->bytes + (vaddr - c->addr));
	}
	return 0;
}

uint64_t elf_image_any_pointer(const struct elf_image *img, uint64_t vaddr)
{
	uint64_t t = data_word_target(img, vaddr);
	const struct elf_section *sec = t ? elf_image_section_at(img, t) : NULL;

	if (!sec)
		return 0;
	return sec->exec ? (elf_image_code(img, t, 1) ? t : 0) :
	       sec->write && !sec->tls ? t : 0;
}

int elf_image_string_at(const struct elf_image *img, uint64_t vaddr, char *buf, size_t len)
{
	uint64_t t = data_word_target(img, vaddr);
	const struct elf_section *sec = t ? elf_image_section_at(img, t) : NULL;
	size_t n = 0;

	if (!len || !sec || sec->write || sec->exec || sec->nobits)
		return -ENOENT;
	/* (byte by byte: the string may end where its section does) */
	for (const uint8_t *c; n + 1 < len && (c = elf_image_rodata(img, t + n, 1)) && *c; n++) {
		if (*c < 0x20 || *c >= 0x7f)
			return -ENOENT;	/* not a name */
		buf[n] = (char)*c;
	}
	buf[n] = '\0';
	return n ? 0 : -ENOENT;
}

uint64_t elf_image_code_pointer(const struct elf_image *img, uint64_t vaddr)
{
	uint64_t t = data_word_target(img, vaddr);

	return t && elf_image_code(img, t, 1) ? t : 0;
}

uint64_t elf_image_data_pointer(const struct elf_image *img, uint64_t vaddr)
{
	uint64_t t = data_word_target(img, vaddr);
	const struct elf_section *sec = t ? elf_image_section_at(img, t) : NULL;

	return sec && sec->write && !sec->exec && !sec->tls ? t : 0;
}

bool elf_image_thumb(const struct elf_image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->nr_modes;

	if (img->machine != EM_ARM)
		return false;
	lo = PARTITION_POINT(lo, hi, mid, img->modes[mid].addr <= addr);
	/* Past every code mark, or with none (stripped): as the entry point is. */
	for (size_t i = lo; i-- > 0;)
		if (img->modes[i].mode != 2)
			return img->modes[i].mode == 1;
	return img->entry & 1;
}

bool elf_image_copied(const struct elf_image *img, uint64_t addr)
{
	struct got_slot g;

	if (!img->relocs_read)
		return find_reloc(img, addr, true, &g);
	return img->nr_copies &&
	       bsearch(&addr, img->copies, img->nr_copies, sizeof(*img->copies), u64_cmp);
}

static uint64_t word_at(const struct elf_image *img, const uint8_t *p)
{
	uint64_t v = 0;
	unsigned int n = img->elf64 ? 8 : 4;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * (img->big_endian ? n - 1 - i : i));
	return v;
}

int elf_image_for_each_pointer(const struct elf_image *img,
			       int (*fn)(uint64_t slot, uint64_t target, void *arg), void *arg)
{
	unsigned int w = img->elf64 ? 8 : 4;
	int err = read_relocs(img);

	/* Relocated words (PIE and libraries): the relocation says what they hold. */
	for (size_t i = 0; i < img->nr_got && !err; i++)
		if (img->got[i].target && !elf_image_code(img, img->got[i].slot, 1))
			err = fn(img->got[i].slot, img->got[i].target, arg);
	/* Words as the file has them (programs at fixed addresses). */
	for (size_t i = 0; i < img->nr_data && !err; i++) {
		const struct code_sec *c = &img->data[i];
		uint64_t a = (c->addr + w - 1) & ~(uint64_t)(w - 1);

		for (; !err && a + w <= c->addr + c->size; a += w) {
			uint64_t v = word_at(img, c->bytes + (a - c->addr));

			if (v && elf_image_code(img, v, 1))
				err = fn(a, v, arg);
		}
	}
	return err;
}

/* A DWARF exception-header encoded value at *P (advanced), or false when unknown. */
static bool eh_value(const struct elf_image *img, const uint8_t **p, const uint8_t *end,
		     uint8_t enc, uint64_t here, uint64_t datarel, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int n;
	bool sign = false;

	switch (enc & 0x0f) {
	case 0x02: n = 2; break;
	case 0x03: n = 4; break;
	case 0x04: n = 8; break;
	case 0x0a: n = 2; sign = true; break;
	case 0x0b: n = 4; sign = true; break;
	case 0x0c: n = 8; sign = true; break;
	default: return false;
	}
	if ((size_t)(end - *p) < n)
		return false;
	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)(*p)[i] << (8 * (img->big_endian ? n - 1 - i : i));
	if (sign && n < 8 && (v >> (8 * n - 1)))
		v |= ~(uint64_t)0 << (8 * n);
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: v += here; break;
	case 0x30: v += datarel; break;
	default: return false;
	}
	*p += n;
	*out = v;
	return true;
}

int elf_image_fde_starts(const struct elf_image *img, uint64_t **out, size_t *nr)
{
	const struct code_sec *h = NULL;
	const uint8_t *p, *end;
	uint64_t ehf, count, *v;

	*out = NULL;
	*nr = 0;
	for (size_t i = 0; i < img->nr_secs && !h; i++)
		if (!strcmp(img->secs[i].name, ".eh_frame_hdr"))
			for (size_t k = 0; k < img->nr_data; k++)
				if (img->data[k].addr == img->secs[i].addr)
					h = &img->data[k];
	if (!h || h->size < 4 || h->bytes[0] != 1)
		return 0;
	p = h->bytes + 4;
	end = h->bytes + h->size;
	if (!eh_value(img, &p, end, h->bytes[1], h->addr + (uint64_t)(p - h->bytes), h->addr, &ehf) ||
	    !eh_value(img, &p, end, h->bytes[2], h->addr + (uint64_t)(p - h->bytes), h->addr, &count))
		return 0;
	if (count > (uint64_t)(end - p) / 2)
		return 0;
	v = malloc((count ? count : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t start, fde;

		if (!eh_value(img, &p, end, h->bytes[3], h->addr + (uint64_t)(p - h->bytes), h->addr,
			      &start) ||
		    !eh_value(img, &p, end, h->bytes[3], h->addr + (uint64_t)(p - h->bytes), h->addr,
			      &fde))
			break;
		if (elf_image_code(img, start, 1))
			v[(*nr)++] = start;
	}
	*out = v;
	return 0;
}
