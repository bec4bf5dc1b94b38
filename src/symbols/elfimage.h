/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A binary's code and data layout, for disassembly: code bytes by address,
 * the GOT (or TOC) slot -> symbol map from dynamic relocations, the ppc64 TOC
 * pointer, the machine and byte order.  Opened from the mapped file.
 */
#ifndef MYCL_ELFIMAGE_H
#define MYCL_ELFIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_image;

struct got_slot {
	uint64_t slot;
	uint64_t target;		/* RELATIVE: the address stored; else 0 */
	const char *name;		/* GLOB_DAT/ADDR64/JUMP_SLOT: the symbol; else NULL */
	bool implicit;			/* REL: the addend is the word at slot */
};

struct elf_section {
	const char *name;
	uint64_t addr, size;
	bool write, exec, tls, nobits;
};

/*
 * libelf's version handshake, made once for the process: the binaries are
 * read on more than one thread (dso_prefetch.c), and elf_version() sets a
 * global.  Every opening of an ELF file in symbols/ calls it first.
 */
void elf_library_init(void);
int elf_image_open(const char *path, struct elf_image **out);
/* The allocated section holding ADDR, or NULL. */
const struct elf_section *elf_image_section_at(const struct elf_image *img, uint64_t addr);
void elf_image_close(struct elf_image *img);
uint16_t elf_image_machine(const struct elf_image *img);
bool elf_image_big_endian(const struct elf_image *img);
/* The size of a pointer in the file's data: 8 (ELFCLASS64) or 4. */
unsigned int elf_image_ptr_size(const struct elf_image *img);
uint64_t elf_image_toc(const struct elf_image *img);
/* LEN code bytes at VADDR, or NULL when they are not all in one code section. */
const uint8_t *elf_image_code(const struct elf_image *img, uint64_t vaddr, size_t len);
/*
 * The same LEN bytes copied into BUF with pread: code read once (an analysis
 * over thousands of functions) costs no resident file pages.  0, or -1 when
 * the file does not hold them as they are (use elf_image_code).
 */
int elf_image_read_code(const struct elf_image *img, uint64_t vaddr, size_t len, uint8_t *buf);
/* What the GOT/TOC slot at ADDR points to, or NULL. */
const struct got_slot *elf_image_got(const struct elf_image *img, uint64_t addr);
/*
 * Reads every relocation now (else they are looked up in place until
 * something needs them all): after it the image is only read, by any
 * number of threads.  0 or -errno.
 */
int elf_image_read_relocs(const struct elf_image *img);
/* For disasm_set_got: the address the slot holds (RELATIVE target, or symbol value). */
uint64_t elf_image_got_target(void *img, uint64_t slot);
/* Calls FN for each code section: [addr, addr+len) with its bytes. */
int elf_image_for_each_code(const struct elf_image *img,
			    int (*fn)(uint64_t addr, const uint8_t *bytes, size_t len, void *arg),
			    void *arg);

/* The entry point; whether it is a program (not a library); whether ADDR is a COPY relocation's. */
uint64_t elf_image_entry(const struct elf_image *img);
bool elf_image_executable(const struct elf_image *img);
/* A program linked statically (no interpreter): its libraries' code is in it. */
bool elf_image_static(const struct elf_image *img);
/*
 * Whether ADDR lies in the part the loader makes read-only once it has
 * relocated it (PT_GNU_RELRO: vtables, .data.rel.ro): no code writes it.
 */
bool elf_image_relro(const struct elf_image *img, uint64_t addr);
/* arm: whether the code at ADDR is Thumb (mapping and function symbols, else the entry's). */
/* LEN bytes at VADDR of a read-only data section (constant pools), or NULL. */
const uint8_t *elf_image_rodata(const struct elf_image *img, uint64_t vaddr, size_t len);
/*
 * The address the aligned pointer-sized word at VADDR (in data the file
 * holds, writable or not) points to in the image's writable data, by its
 * relocation or as the file has it; else 0.
 */
uint64_t elf_image_data_pointer(const struct elf_image *img, uint64_t vaddr);
/* The same for a word pointing into the image's code (a vtable's slot): the address, or 0. */
uint64_t elf_image_code_pointer(const struct elf_image *img, uint64_t vaddr);
/*
 * The string the pointer-sized word at VADDR points to in read-only data (a
 * table of names: const char *const names[]), printable ASCII, in BUF (LEN
 * bytes, cut short there).  0, or -ENOENT.
 */
int elf_image_string_at(const struct elf_image *img, uint64_t vaddr, char *buf, size_t len);
/* Either: what the word points to in writable data or in code, or 0. */
uint64_t elf_image_any_pointer(const struct elf_image *img, uint64_t vaddr);
bool elf_image_thumb(const struct elf_image *img, uint64_t addr);
bool elf_image_copied(const struct elf_image *img, uint64_t addr);
/*
 * Calls FN for each pointer-sized word in data that holds a code address:
 * by its relocation, or as the file holds it.  A word may come twice.
 */
int elf_image_for_each_pointer(const struct elf_image *img,
			       int (*fn)(uint64_t slot, uint64_t target, void *arg), void *arg);
/*
 * The starts of the functions .eh_frame_hdr describes (every function with
 * unwind information, named or not), sorted as the table is.  *OUT: caller frees.
 */
int elf_image_fde_starts(const struct elf_image *img, uint64_t **out, size_t *nr);

#endif
