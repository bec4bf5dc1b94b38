/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Finding the file behind a DSO, by build-id where the recording has one:
 *   --symfs DIR + path
 *   perf's build-id cache: ~/.debug/.build-id/xx/rest/{debug,elf}
 *   /usr/lib/debug/.build-id/xx/rest.debug
 *   the recorded path itself
 *   .gnu_debuglink: beside the binary, its .debug/, and /usr/lib/debug/<dir>/
 * The first file with a full .symtab wins; else the first with .dynsym.
 * Files whose build-id differs from the recording's are never used.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "archive.h"
#include "dso.h"
#include "elfimage.h"

static const char *const status_str[] = {
	[DSO_PENDING] = "not loaded",
	[DSO_OK] = "ok",
	[DSO_MISSING] = "binary not found",
	[DSO_NO_SYMBOLS] = "no symbol table",
	[DSO_BUILD_ID_MISMATCH] = "build-id mismatch",
	[DSO_NOT_ELF] = "not an ELF file",
	[DSO_NO_FILE] = "anonymous memory (JIT?) without a perf map",
	[DSO_KALLSYMS_MISSING] = "kernel symbols not found",
};

const char *dso_debug_dir(const char *given)
{
	if (!given)
		return "/usr/lib/debug";
	return *given ? given : NULL;
}

const char *dso_status_str(enum dso_status s)
{
	return (size_t)s < ARRAY_SIZE(status_str) ? status_str[s] : "?";
}

void build_id_hex(const uint8_t *id, size_t size, char *out)
{
	for (size_t i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * size] = '\0';
}

/* The PID of exactly /tmp/perf-PID.map (a JIT's symbol map), else -1. */
static long perf_map_pid(const char *path)
{
	size_t digits;

	if (strncmp(path, "/tmp/perf-", 10))
		return -1;
	digits = strspn(path + 10, "0123456789");
	return digits && !strcmp(path + 10 + digits, ".map") ? strtol(path + 10, NULL, 10) : -1;
}

static bool is_anon(const char *path)
{
	return !strncmp(path, "//anon", 6) || !strncmp(path, "/dev/zero", 9) ||
	       !strncmp(path, "/anon_hugepage", 14) || !strncmp(path, "[anon:", 6) ||
	       !strncmp(path, "/memfd:", 7);
}

struct dso *dso_new(const char *path, bool kernel)
{
	struct dso *d = calloc(1, sizeof(*d));
	const char *base;
	long pid;

	if (!d)
		return NULL;
	d->path = strdup(path);
	if (!d->path) {
		free(d);
		return NULL;
	}
	d->kernel = kernel;
	path = d->path;		/* names below must point into our copy */
	d->identity = is_anon(path) || (path[0] == '[' && strncmp(path, "[vdso]", 6));
	if (kernel && !strncmp(path, "[kernel.kallsyms]", 17)) {
		d->short_name = "[kernel.kallsyms]";
	} else if (kernel && path[0] != '/' && path[0] != '[') {
		/* A BPF program or trampoline (a KSYMBOL record's name), as perf names it. */
		d->short_name = d->path;
	} else if (kernel) {
		/* A module: "/lib/modules/.../foo.ko" or "[foo]" shows as "[foo]". */
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		if (asprintf(&d->short_buf, "[%.*s]", (int)strcspn(base, ".]"),
			     base[0] == '[' ? base + 1 : base) < 0)
			d->short_buf = NULL;
		d->short_name = d->short_buf ? d->short_buf : d->path;
	} else if (path[0] == '[') {
		d->short_name = d->path;
	} else if ((pid = perf_map_pid(path)) >= 0) {
		/* A JIT's symbol map: perf names it after the process. */
		if (asprintf(&d->short_buf, "[JIT] tid %ld", pid) < 0)
			d->short_buf = NULL;
		d->short_name = d->short_buf ? d->short_buf : d->path;
	} else {
		base = strrchr(path, '/');
		d->short_name = base && base[1] ? base + 1 : d->path;
	}
	if (str_has_ctl(d->short_name, strlen(d->short_name))) {
		/* Shown escaped; the path itself stays as recorded, to open the file. */
		char *esc = str_escape_ctl(d->short_name, strlen(d->short_name));

		if (esc) {
			free(d->short_buf);
			d->short_buf = esc;
			d->short_name = esc;
		}
	}
	return d;
}

static void probed_free(struct probed *r);

void dso_free(struct dso *d)
{
	if (!d)
		return;
	symtab_free(&d->syms);
	symtab_free(&d->data_syms);
	elf_image_close(d->image);
	probed_free(d->probed);
	if (d->inlines_free)
		d->inlines_free(d);
	if (d->spins_free)
		d->spins_free(d);
	free(d->segs);
	free(d->sym_path);
	free(d->runtime_path);
	free(d->detail);
	free(d->short_buf);
	free(d->path);
	free(d);
}

void dso_set_build_id(struct dso *d, const uint8_t *id, uint8_t size)
{
	if (!size || size > 20)
		return;
	memcpy(d->build_id, id, size);
	d->build_id_size = size;
}

uint64_t dso_offset_to_vaddr(const struct dso *d, uint64_t off)
{
	const struct seg *last = d->segs && d->last_seg < d->nr_segs ? &d->segs[d->last_seg] : NULL;

	if (last && off >= last->off && off - last->off < last->size)
		return off - last->off + last->vaddr;
	for (size_t i = 0; i < d->nr_segs; i++)
		if (off >= d->segs[i].off && off - d->segs[i].off < d->segs[i].size) {
			((struct dso *)d)->last_seg = i;
			return off - d->segs[i].off + d->segs[i].vaddr;
		}
	return off;
}

uint64_t dso_map_bias(const struct dso *d, uint64_t start, uint64_t pgoff)
{
	/*
	 * A map starts at its segment's file offset rounded down to a page;
	 * that page may hold the previous segment's bytes too (lld's and
	 * rustc's layouts put the text 0x1000 above its offset).  The map is of
	 * the segment whose pages hold PGOFF, the one starting in that page when
	 * two do; pages of 4, 16 and 64 KiB tried in turn.
	 */
	for (uint64_t page = 0x1000; page <= 0x10000; page <<= 2) {
		const struct seg *best = NULL;

		for (size_t i = 0; i < d->nr_segs; i++) {
			const struct seg *g = &d->segs[i];

			if ((g->off & ~(page - 1)) <= pgoff && pgoff < g->off + g->size &&
			    (!best || g->off > best->off))
				best = g;
		}
		if (best && best->vaddr + pgoff >= best->off)
			return start - (best->vaddr + pgoff - best->off);
	}
	return start - dso_offset_to_vaddr(d, pgoff);
}

#define set_detail(d, ...) do { free((d)->detail); (d)->detail = str_printf(__VA_ARGS__); } while (0)

struct candidates {
	char *path[24];
	int nr;
};

/* P (taken) as the next candidate, unless it is one already. */
static void add_cand(struct candidates *c, char *p)
{
	for (int i = 0; p && i < c->nr; i++)
		if (!strcmp(c->path[i], p)) {
			free(p);
			return;
		}
	if (p && c->nr < (int)ARRAY_SIZE(c->path))
		c->path[c->nr++] = p;
	else
		free(p);
}

char *dso_symfs_path(const struct sym_opts *o, const char *path)
{
	char *p;

	if (!o->symfs)
		return strdup(path);
	p = str_printf("%s%s", o->symfs, path);
	if (p && !path_inside(o->symfs, p)) {
		free(p);
		p = NULL;
	}
	return p;
}

/* P (joined under ROOT) as a candidate when it stays inside ROOT. */
static void add_cand_in(struct candidates *c, const char *root, char *p)
{
	if (p && !path_inside(root, p)) {
		free(p);
		return;
	}
	add_cand(c, p);
}

/*
 * The files a debuglink LINK names, beside BIN: in its directory, in .debug
 * there, and under the debug directory.  Under --symfs, only inside it.
 */
static void debuglink_cands(struct candidates *c, const char *bin, const char *link,
			    const struct sym_opts *o)
{
	char *dup;
	const char *dir;

	/* A debuglink names a file; one with a directory in it is not followed. */
	if (strchr(link, '/') || !strcmp(link, "..") || !strcmp(link, "."))
		return;
	dup = strdup(bin);
	if (!dup)
		return;
	dir = dirname(dup);
	if (o->symfs) {
		add_cand_in(c, o->symfs, str_printf("%s/%s", dir, link));
		add_cand_in(c, o->symfs, str_printf("%s/.debug/%s", dir, link));
	} else {
		add_cand(c, str_printf("%s/%s", dir, link));
		add_cand(c, str_printf("%s/.debug/%s", dir, link));
	}
	if (o->debug_dir)
		add_cand_in(c, o->debug_dir, str_printf("%s%s/%s", o->debug_dir, dir, link));
	free(dup);
}

static void load_kernel(struct dso *d, const struct sym_opts *o)
{
	char hex[41];
	char *p = NULL;
	int err = -ENOENT;

	if (o->kallsyms) {
		err = kallsyms_load(o->kallsyms, d, (struct logger *)&o->log);
		if (!err)
			d->sym_path = strdup(o->kallsyms);
	}
	if (err && d->build_id_size && o->archive) {
		const char *a;

		build_id_hex(d->build_id, d->build_id_size, hex);
		a = archive_find(o->archive, hex, "kallsyms");
		if (a && !(err = kallsyms_load(a, d, (struct logger *)&o->log))) {
			d->sym_path = strdup(a);
			d->sym_label = archive_label(o->archive, a);
		}
	}
	if (err && d->build_id_size && o->buildid_dir) {
		build_id_hex(d->build_id, d->build_id_size, hex);
		p = str_printf("%s/.build-id/%.2s/%s/kallsyms", o->buildid_dir, hex, hex + 2);
		if (p && !(err = kallsyms_load(p, d, (struct logger *)&o->log)))
			d->sym_path = p;
		else
			free(p);
	}
	if (err) {
		/* The running kernel's, when it is the recorded one. */
		bool same = true;

		if (d->build_id_size) {
			FILE *n = fopen("/sys/kernel/notes", "rb");
			uint8_t buf[4096];
			size_t len = n ? fread(buf, 1, sizeof(buf), n) : 0;

			if (n)
				fclose(n);
			same = len && memmem(buf, len, d->build_id, d->build_id_size);
		} else if (o->os_release) {
			FILE *r = fopen("/proc/sys/kernel/osrelease", "r");
			char rel[256] = "";

			if (r) {
				if (!fgets(rel, sizeof(rel), r))
					rel[0] = '\0';
				fclose(r);
			}
			rel[strcspn(rel, "\n")] = '\0';
			same = !strcmp(rel, o->os_release);
		}
		if (same && !(err = kallsyms_load("/proc/kallsyms", d, (struct logger *)&o->log)))
			d->sym_path = strdup("/proc/kallsyms");
		else if (!same && o->archive)
			set_detail(d, "the recording's kernel is not the running one and %s has no "
				   "kallsyms for it; pass --kallsyms from the recorded machine",
				   mycl_archive__path(o->archive));
		else if (!same)
			set_detail(d, "the recording's kernel is not the running one; "
				   "pass --kallsyms from the recorded machine or use perf archive");
	}
	if (!err) {
		d->status = DSO_OK;
	} else {
		d->status = DSO_KALLSYMS_MISSING;
		if (!d->detail)
			set_detail(d, "no readable kallsyms (kptr_restrict, or not root?)");
	}
}

int known_files_read(const char *const *bins, struct known_file **out, size_t *nr)
{
	size_t n = 0;

	*out = NULL;
	*nr = 0;
	while (bins && bins[n])
		n++;
	if (!n)
		return 0;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct elf_found f;
		struct known_file *k = &(*out)[*nr];

		if (elf_probe(bins[i], &f) || f.build_id_size <= 0)
			continue;
		k->path = bins[i];
		memcpy(k->build_id, f.build_id, (size_t)f.build_id_size);
		k->build_id_size = (uint8_t)f.build_id_size;
		(*nr)++;
	}
	return 0;
}

/* A separate debug file by build-id (HEX): perf's build-id cache's, the debug directory's. */
static char *cache_debug_path(const struct sym_opts *o, const char *hex)
{
	return str_printf("%s/.build-id/%.2s/%s/debug", o->buildid_dir, hex, hex + 2);
}

static char *debug_dir_path(const struct sym_opts *o, const char *hex)
{
	return str_printf("%s/.build-id/%.2s/%s.debug", o->debug_dir, hex, hex + 2);
}

off_t dso_debug_file_size(const struct sym_opts *o, const uint8_t *id, uint8_t size)
{
	char hex[41], *p[2] = { NULL, NULL };
	off_t bytes = 0;

	if (!size)
		return 0;
	build_id_hex(id, size, hex);
	if (o->buildid_dir)
		p[0] = cache_debug_path(o, hex);
	if (o->debug_dir)
		p[1] = debug_dir_path(o, hex);
	for (int i = 0; i < 2; i++) {
		struct stat st;

		if (!bytes && p[i] && !stat(p[i], &st) && S_ISREG(st.st_mode))
			bytes = st.st_size;
		free(p[i]);
	}
	return bytes;
}

/* What trying a binary's candidate files found. */
struct probed {
	struct candidates c;
	char hex[41];
	const char *full, *dyn, *runtime, *special, *damaged;
	char damaged_why[200];
	bool mismatch, found;
	bool full_dwarf;		/* FULL has debug info too */
	bool linked;			/* a debuglink's files are among the candidates */
	char mismatch_hex[41];
};

/*
 * The files that may be D's (under --symfs, perf archive's, the build-id
 * cache's, the debug directory's, the recorded path), tried in that order
 * until one with symbols (.symtab, else .dynsym) and the mapped one are
 * found; a debuglink's targets are tried after the file naming them.
 */
static void probe(struct dso *d, const struct sym_opts *o, struct probed *r)
{
	struct candidates *c = &r->c;
	const char *hex = r->hex;
	char *home;

	if (!d->build_id_size && d->path[0] == '/') {
		/* No build-id recorded: take the file's own to find its debug info. */
		struct elf_found f;
		char *p = dso_symfs_path(o, d->path);

		if (p && !elf_probe(p, &f) && f.build_id_size > 0)
			dso_set_build_id(d, f.build_id, (uint8_t)f.build_id_size);
		free(p);
	}
	if (d->build_id_size)
		build_id_hex(d->build_id, d->build_id_size, r->hex);
	if (o->symfs && d->path[0] == '/')
		add_cand(c, dso_symfs_path(o, d->path));
	for (size_t i = 0; i < o->nr_known; i++)
		if (d->build_id_size && o->known[i].build_id_size == d->build_id_size &&
		    !memcmp(o->known[i].build_id, d->build_id, d->build_id_size))
			add_cand(c, strdup(o->known[i].path));
	if (hex[0] && o->archive) {
		static const char *const kinds[] = { "debug", "elf", "vdso" };

		for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
			const char *a = archive_find(o->archive, hex, kinds[i]);

			if (a)
				add_cand(c, strdup(a));
		}
	}
	if (hex[0] && o->buildid_dir) {
		add_cand(c, cache_debug_path(o, hex));
		add_cand(c, str_printf("%s/.build-id/%.2s/%s/elf", o->buildid_dir, hex, hex + 2));
		/* [vdso] and friends are cached by name too. */
		add_cand_in(c, o->buildid_dir, str_printf("%s/%s/%s/%s", o->buildid_dir, d->path, hex,
							d->path[0] == '[' ? "vdso" : "elf"));
	}
	if (hex[0] && o->debug_dir)
		add_cand(c, debug_dir_path(o, hex));
	if (!o->symfs && d->path[0] == '/')
		add_cand(c, strdup(d->path));

	home = d->path[0] == '/' ? dso_symfs_path(o, d->path) : NULL;
	for (int i = 0; i < c->nr && !(r->full && r->full_dwarf && r->runtime); i++) {
		struct elf_found f;

		int missing = elf_probe(c->path[i], &f);

		if (missing || !f.is_elf || (!f.has_symtab && !f.has_dynsym)) {
			/* (a debug file cut short still opens: its section headers lie past its end) */
			if (f.special && !r->special)
				r->special = c->path[i];
			else if (!missing && !r->damaged && !f.special &&
				 !elf_header_problem(c->path[i], r->damaged_why, sizeof(r->damaged_why)))
				r->damaged = c->path[i];
			if (!f.is_elf || f.special || r->damaged == c->path[i])
				continue;
		}
		r->found = true;
		if (d->build_id_size && f.build_id_size &&
		    (f.build_id_size != d->build_id_size ||
		     memcmp(f.build_id, d->build_id, d->build_id_size))) {
			r->mismatch = true;
			build_id_hex(f.build_id, (size_t)f.build_id_size, r->mismatch_hex);
			continue;
		}
		if (!r->runtime && f.has_code)
			r->runtime = c->path[i];
		/*
		 * (a file with symbols and debug info before one with symbols only:
		 * a binary stripped of its debug info, whose debuglink names the rest)
		 */
		if (f.has_symtab && (!r->full || (!r->full_dwarf && f.has_dwarf))) {
			r->full = c->path[i];
			r->full_dwarf = f.has_dwarf;
		} else if (f.has_dynsym && !r->dyn) {
			r->dyn = c->path[i];
		}
		/*
		 * A debuglink is beside the binary as it was recorded (perf's and
		 * gdb's reading), also when the file read is perf's build-id
		 * cache's copy of it.
		 */
		if ((!r->full || !r->full_dwarf) && f.debuglink[0] && !r->linked) {
			r->linked = true;
			if (home)
				debuglink_cands(c, home, f.debuglink, o);
			debuglink_cands(c, c->path[i], f.debuglink, o);
		}
	}
	free(home);
}

static void candidates_free(struct candidates *c)
{
	for (int i = 0; i < c->nr; i++)
		free(c->path[i]);
}

static void probed_free(struct probed *r)
{
	if (r)
		candidates_free(&r->c);
	free(r);
}

/* Where D is mapped from: a user-space binary that dso_load() would find, not an identity. */
static bool locatable(const struct dso *d)
{
	return d->status == DSO_PENDING && !d->kernel &&
	       (!d->identity || !strncmp(d->path, "[vdso]", 6));
}

void dso_locate(struct dso *d, const struct sym_opts *o)
{
	struct probed *r;

	if (!locatable(d) || d->runtime_path || d->probed || !(r = calloc(1, sizeof(*r))))
		return;
	probe(d, o, r);
	d->probed = r;
	/* What dso_load() would set: the mapped file, when a file with symbols is found too. */
	if ((r->full || r->dyn) && r->runtime) {
		d->runtime_path = strdup(r->runtime);
		if (d->runtime_path)
			elf_load_segments(r->runtime, d);
	}
}

static bool under(const char *dir, const char *path)
{
	size_t n = dir ? strlen(dir) : 0;

	return n && !strncmp(path, dir, n) && (path[n] == '/' || dir[n - 1] == '/');
}

/* Where USE, the file D's symbols and debug info are read from, was found. */
static uint8_t dwarf_from(const struct dso *d, const struct sym_opts *o, const char *use)
{
	if (o->archive && archive_label(o->archive, use))
		return DWARF_ARCHIVE;
	if (o->symfs && under(o->symfs, use))
		return DWARF_SYMFS;
	for (size_t i = 0; i < o->nr_known; i++)
		if (!strcmp(o->known[i].path, use))
			return DWARF_HERE;
	if (strcmp(use, d->path) && o->buildid_dir && under(o->buildid_dir, use))
		return DWARF_CACHE;
	return DWARF_HERE;
}

/* Whether the files at A and B hold the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
	enum { CHUNK = 1 << 16 };
	int fa = open_regular(a), fb = fa >= 0 ? open_regular(b) : -1;
	char *x = malloc(2 * CHUNK);
	struct stat sa, sb;
	bool same = false;

	if (x && fb >= 0 && !fstat(fa, &sa) && !fstat(fb, &sb) && sa.st_size == sb.st_size) {
		ssize_t n;

		same = true;
		while (same && (n = read(fa, x, CHUNK)) > 0)
			same = read(fb, x + CHUNK, (size_t)n) == n && !memcmp(x, x + CHUNK, (size_t)n);
		same = same && n == 0;
	}
	free(x);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

const char *dso_foreign_dwarf(struct dso *d)
{
	if (d->dwarf_from == DWARF_CACHE)
		/* (perf record's own copy of a binary of this machine: the same bytes) */
		d->dwarf_from = d->sym_path && d->path[0] == '/' && same_bytes(d->sym_path, d->path) ?
				DWARF_HERE : DWARF_CACHE_OTHER;
	switch (d->dwarf_from) {
	case DWARF_SYMFS: return "--symfs";
	/* (one wording: an archive unpacked into the cache reads as the archive does) */
	case DWARF_ARCHIVE:
	case DWARF_CACHE_OTHER: return "a perf archive or the build-id cache";
	default: return NULL;
	}
}

void dso_load(struct dso *d, const struct sym_opts *o)
{
	struct probed fresh = { 0 }, *r = d->probed ? d->probed : &fresh;

	if (d->status != DSO_PENDING)
		return;
	if (d->kernel) {
		load_kernel(d, o);
		goto done;
	}
	if (d->identity && perf_map_pid(d->path) >= 0 && o->jit_host && !o->symfs) {
		/* (this machine's file, named by another machine's PID) */
		d->status = DSO_NO_FILE;
		set_detail(d, "not read: the recording %s%s%s, not this machine (--jit-maps reads it)",
			   *o->jit_host ? "was made on '" : "does not say where it was made",
			   o->jit_host, *o->jit_host ? "'" : "");
		goto done;
	}
	if (d->identity && perf_map_pid(d->path) >= 0) {
		/* Exactly /tmp/perf-PID.map: nothing else is read as a JIT's map. */
		char *p = dso_symfs_path(o, d->path);

		d->status = p && !perfmap_load(p, d) ? DSO_OK : DSO_NO_FILE;
		if (d->status == DSO_OK)
			d->sym_path = p;
		else
			free(p);
		goto done;
	}
	if (d->identity && strncmp(d->path, "[vdso]", 6)) {
		d->status = DSO_NO_FILE;
		goto done;
	}
	if (r == &fresh)
		probe(d, o, r);
	if (r->full || r->dyn) {
		const char *use = r->full ? r->full : r->dyn;

		/*
		 * File offsets in the maps convert to addresses with the program
		 * headers of the file that was mapped; a separate debug file's may
		 * differ.
		 */
		if (r->runtime) {
			/* (dso_locate() may have set it: the same file) */
			free(d->runtime_path);
			d->runtime_path = strdup(r->runtime);
		}
		d->syms.lazy_demangle = d->data_syms.lazy_demangle = o->lazy_demangle;
		d->no_line_table = o->no_line_table;
		if (elf_load(r->runtime, use, d, o->demangle) == 0) {
			d->sym_path = strdup(use);
			d->sym_label = archive_label(o->archive, use);
			d->dwarf_from = dwarf_from(d, o, use);
			d->status = DSO_OK;
			if (!r->full)	/* the summary names the file once, as where symbols came from */
				set_detail(d, "only exported functions (.dynsym)");
		} else {
			d->status = DSO_NOT_ELF;
		}
	} else if (r->mismatch) {
		d->status = DSO_BUILD_ID_MISMATCH;
		set_detail(d, "recorded build-id %s, found %s: the binary changed since the "
			   "recording", r->hex, r->mismatch_hex);
		mycl_log(&o->log, MYCL_WARN, "%s: build-id %s differs from the recording's %s; "
			 "its samples stay unresolved", d->path, r->mismatch_hex, r->hex);
	} else if (r->found) {
		d->status = DSO_NO_SYMBOLS;
		set_detail(d, "stripped%s%s", r->hex[0] ? ": install debug info with build-id " : "",
			   r->hex);
	} else if (r->damaged) {
		/* the only file found is cut short or broken: said below, not "not found" */
		d->status = DSO_NOT_ELF;
	} else if (r->special) {
		d->status = DSO_MISSING;
		set_detail(d, "%s is not a regular file (a FIFO, a device, a socket or a directory): "
			   "not read", r->special);
	} else {
		d->status = DSO_MISSING;
		if (o->archive)
			set_detail(d, "%s not found%s; not in %s either", d->path,
				   o->symfs ? " under --symfs" : "", mycl_archive__path(o->archive));
		else
			set_detail(d, "%s not found%s", d->path,
				   o->symfs ? " under --symfs" : "; copy it here or pass --symfs");
	}
	if (r->damaged && !r->full) {
		/* a file that would have given more symbols, unreadable: said, not skipped silently */
		char *was = d->detail;

		d->detail = str_printf("%s%s%s is damaged (%s): not read", was ? was : "",
				       was ? "; " : "", r->damaged, r->damaged_why);
		free(was);
		mycl_log(&o->log, MYCL_WARN, "%s: %s is damaged (%s); not read", d->path, r->damaged,
			 r->damaged_why);
	}
	candidates_free(&fresh.c);	/* (empty when dso_locate()'s findings were used) */
	probed_free(d->probed);
	d->probed = NULL;
done:
	symtab_finish(&d->syms, 0);
	d->data_syms.keep_sizes = true;
	symtab_finish(&d->data_syms, 0);
	symtab_rest_text(&d->syms);
	symtab_rest_text(&d->data_syms);
	if (d->status == DSO_OK && !d->syms.nr && !d->kernel) {
		d->status = DSO_NO_SYMBOLS;
		set_detail(d, "no function symbols in %s", str_or(d->sym_path, d->path));
	}
}

#define SWAP(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)

void dso_take_loaded(struct dso *to, struct dso *from)
{
	SWAP(to->status, from->status);
	SWAP(to->sym_path, from->sym_path);
	SWAP(to->runtime_path, from->runtime_path);
	SWAP(to->sym_label, from->sym_label);
	SWAP(to->detail, from->detail);
	SWAP(to->syms, from->syms);
	SWAP(to->data_syms, from->data_syms);
	SWAP(to->segs, from->segs);
	SWAP(to->nr_segs, from->nr_segs);
	SWAP(to->symtab_full, from->symtab_full);
	SWAP(to->kernel_text, from->kernel_text);
	SWAP(to->inlines, from->inlines);
	SWAP(to->inlines_free, from->inlines_free);
	SWAP(to->inlines_tried, from->inlines_tried);
	SWAP(to->no_line_table, from->no_line_table);
	SWAP(to->dwarf_from, from->dwarf_from);
}

struct elf_image *dso_image(struct dso *d)
{
	if (!d->image_tried) {
		d->image_tried = true;
		if (d->runtime_path && elf_image_open(d->runtime_path, &d->image))
			d->image = NULL;
	}
	return d->image;
}
