/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A binary that code was mapped from (DSO, in perf's words): where its
 * symbols were found, or why they were not.
 */
#ifndef MYCL_DSO_H
#define MYCL_DSO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "internal.h"
#include "symtab.h"

enum dso_status {
	DSO_PENDING,			/* symbols not looked for yet */
	DSO_OK,				/* symbols loaded */
	DSO_MISSING,			/* no file found */
	DSO_NO_SYMBOLS,			/* file found, no symbol table in it */
	DSO_BUILD_ID_MISMATCH,		/* only files with another build-id were found */
	DSO_NOT_ELF,			/* file found but not a readable ELF file */
	DSO_NO_FILE,			/* anonymous or special memory: no file to read */
	DSO_KALLSYMS_MISSING,		/* kernel: no kallsyms for the recorded kernel */
};

struct seg {
	uint64_t off, vaddr, size;
};

struct probed;

struct dso {
	char *path;			/* as recorded (anon: /tmp/perf-PID.map) */
	const char *short_name;		/* as shown: basename, [kernel.kallsyms], [vdso] */
	char *short_buf;
	bool kernel;			/* kernel or module: addresses are absolute */
	bool identity;			/* anon/JIT memory: the ip is the address */
	uint8_t build_id[20];
	uint8_t build_id_size;
	enum dso_status status;
	char *sym_path;			/* the file symbols came from */
	char *runtime_path;		/* the mapped file itself (for unwinding, code bytes) */
	const char *sym_label;		/* how sym_path shows (an archive's member), or NULL */
	char *detail;			/* for the summary: what was tried or what differed */
	struct symtab syms;
	struct symtab data_syms;	/* variables (STT_OBJECT), for naming what code touches */
	struct elf_image *image;	/* the mapped file, opened for disassembly */
	bool image_tried;
	struct seg *segs;
	size_t nr_segs, last_seg;	/* last_seg: look-up cache */
	bool symtab_full;		/* .symtab (not only .dynsym) */
	uint64_t kernel_text;		/* kernel: _text in the kallsyms used */
	struct probed *probed;		/* dso_locate()'s findings, for dso_load() */
	/*
	 * Kept per binary by the modules above (inline.c, lockcode.c), each
	 * freed with the binary by the function its module set.
	 */
	struct inline_cache *inlines;
	void (*inlines_free)(struct dso *d);
	struct lock_cache *spins;
	void (*spins_free)(struct dso *d);
	bool inlines_tried;
	/*
	 * Where the debug info (sym_path) came from when it is not this
	 * machine's file at the recorded place, a debug file of it, or a binary
	 * the user named: its source file names are the recording's
	 * (dso_foreign_dwarf()).
	 */
	uint8_t dwarf_from;		/* enum dwarf_from */
	bool no_line_table;		/* (sym_opts') the DWARF opened for it leaves lines out */
};

/* A binary given by name (mycl-share's, mycl-report's): used for the recording's of its build-id. */
struct known_file {
	const char *path;
	uint8_t build_id[20];
	uint8_t build_id_size;
};

struct sym_opts {
	const char *symfs;		/* prefix for every binary path */
	const char *kallsyms;		/* kernel symbols file */
	const char *buildid_dir;	/* perf's build-id cache (~/.debug) */
	const struct mycl_archive *archive; /* perf archive's entries, looked at before it */
	const struct known_file *known;	/* looked at first after --symfs */
	size_t nr_known;
	const char *debug_dir;		/* /usr/lib/debug */
	const char *os_release;		/* recording's kernel release */
	/*
	 * Where the recording was made when that is not known to be this
	 * machine (its host name, "" when it names none): JIT maps
	 * (/tmp/perf-PID.map) are then not read, but under symfs.  NULL: read.
	 */
	const char *jit_host;
	const uint8_t *kernel_build_id;	/* recording's kernel build-id, or NULL */
	uint8_t kernel_build_id_size;
	bool demangle;
	bool lazy_demangle;		/* when symtab_find() first finds a name (symtab.h) */
	bool no_line_table;		/* DWARF read for inlined frames and members, not lines */
	/*
	 * machine.c: the kernel's symbols read on a thread of their own from the
	 * kernel's map on, while the samples before its first are read (a file
	 * recording without an archive; machine_settle() ends it).
	 */
	bool prefetch_kernel;
	struct logger log;
};

enum dwarf_from {
	DWARF_HERE = 0,			/* this machine's: the recorded path, a debug directory's */
	DWARF_SYMFS,			/* under --symfs */
	DWARF_ARCHIVE,			/* a perf archive's member */
	DWARF_CACHE,			/* the build-id cache's copy (the same as the recorded file?) */
	DWARF_CACHE_OTHER,		/* ... not the same */
};

struct dso *dso_new(const char *path, bool kernel);
/*
 * NULL when D's debug info is this machine's own (the binary at its
 * recorded place or its debug file; a build-id cache's copy identical to
 * the recorded file), else where it came from ("--symfs", "a perf archive",
 * "the build-id cache"): a source file it names is then read only from the
 * directories the user gives.
 */
const char *dso_foreign_dwarf(struct dso *d);
void dso_free(struct dso *d);
void dso_set_build_id(struct dso *d, const uint8_t *id, uint8_t size);
/*
 * The build-ids of BINS (NULL-terminated, may be NULL) into *OUT (*NR of
 * them; files without one are left out).  0 or -ENOMEM; the caller frees *OUT.
 */
int known_files_read(const char *const *bins, struct known_file **out, size_t *nr);
/* Finds and loads symbols once; never fails the caller: status says why. */
void dso_load(struct dso *d, const struct sym_opts *o);
/*
 * Only where a pending D is mapped from: its runtime_path and segments as
 * dso_load() will set them, symbols not read (an unwinder reports every
 * mapped binary; most have no sample).  D stays pending; nothing is logged.
 * What it found is kept for dso_load(), which does not look again.
 */
void dso_locate(struct dso *d, const struct sym_opts *o);
/*
 * The recorded PATH as it is read: under --symfs when given, and then only
 * when it stays inside it ("../", symbolic links); NULL else.  Caller frees.
 */
char *dso_symfs_path(const struct sym_opts *o, const char *path);
/*
 * The size of the separate debug file dso_load() would try first by build-id
 * ID (perf's build-id cache's, then the debug directory's); 0 when neither is
 * a regular file.
 */
off_t dso_debug_file_size(const struct sym_opts *o, const uint8_t *id, uint8_t size);
/* What dso_load() found for FROM (a copy of TO loaded elsewhere) becomes TO's, its DWARF too. */
void dso_take_loaded(struct dso *to, struct dso *from);
/* A map-relative file offset to the address space of the symbol table. */
uint64_t dso_offset_to_vaddr(const struct dso *d, uint64_t off);
/* Where address 0 of D's symbol table lies for a map at START of its file from offset PGOFF. */
uint64_t dso_map_bias(const struct dso *d, uint64_t start, uint64_t pgoff);
const char *dso_status_str(enum dso_status s);
/* The debug directory an option names: NULL means /usr/lib/debug, "" none. */
const char *dso_debug_dir(const char *given);
void build_id_hex(const uint8_t *id, size_t size, char *out);

/* elf_syms.c */
struct elf_found {
	bool is_elf, has_symtab, has_dynsym, has_code;
	bool has_dwarf;		/* a .debug_info with something in it */
	bool special;		/* not a regular file (a FIFO, a device, a directory): not read */
	uint8_t build_id[20];
	int build_id_size;
	char debuglink[256];
};
/*
 * What is wrong with PATH as a binary, said in BUF: 0 for damaged headers
 * (section or program headers past the end of the file), 1 for an ELF file of
 * another kind (a core dump, a separate debug file), or -ENOENT when nothing
 * is found wrong.
 */
int elf_header_problem(const char *path, char *buf, size_t len);
/* What PATH holds: ELF or not, build-id, symbol tables, code, debuglink. */
int elf_probe(const char *path, struct elf_found *f);
/*
 * Loads D from its files: PT_LOAD segments and PLT slot names from RUNTIME
 * (the mapped file, may be NULL), functions and data objects from USE (.symtab,
 * else .dynsym).  The same file is opened once.  0, or MYCL_ERR_ELF when USE
 * gives no symbols.
 */
int elf_load(const char *runtime, const char *use, struct dso *d, bool demangle);
/* Only the PT_LOAD segments of RUNTIME (the mapped file), when D has none yet. */
void elf_load_segments(const char *runtime, struct dso *d);

/* The mapped file's code and relocations, opened on first use; NULL when there is none. */
struct elf_image *dso_image(struct dso *d);

/* perfmap.c: /tmp/perf-PID.map of a JIT */
int perfmap_load(const char *path, struct dso *d);

/* kallsyms.c */
int kallsyms_load(const char *path, struct dso *d, struct logger *lg);
/*
 * The same for the LEN bytes at BUF, read from PATH (mapped: munmap, else
 * free): BUF is the function's, kept by D's symbols or given back.
 */
int kallsyms_parse(char *buf, size_t len, bool mapped, const char *path, struct dso *d,
		   struct logger *lg);

#endif
