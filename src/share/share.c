/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Global variables on cache lines, their writers and readers, verdicts per line. */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "disasm.h"
#include "elfimage.h"
#include "share_state.h"

#define keepf(s, ...) share_keep(s, str_printf(__VA_ARGS__))

static unsigned int arch_line(uint16_t machine, const char **arch)
{
	switch (machine) {
	case EM_X86_64: *arch = "x86_64"; return 64;
	case EM_AARCH64: *arch = "aarch64"; return 128;
	case EM_PPC64: *arch = "ppc64"; return 128;
	case EM_S390: *arch = "s390x"; return 256;
	default: *arch = "unknown"; return 64;
	}
}

/* A machine mycl-share cannot read, by name for the message. */
static const char *machine_name(uint16_t m)
{
	switch (m) {
	case EM_386: return "i386";
	case EM_ARM: return "arm (32-bit)";
	case EM_MIPS: return "mips";
	case EM_SPARCV9: return "sparc64";
	case EM_PPC: return "ppc (32-bit)";
	case EM_IA_64: return "ia64";
	case 243: return "riscv";	/* EM_RISCV */
	case 258: return "loongarch";	/* EM_LOONGARCH */
	default: return NULL;
	}
}

/*
 * What PATH is when it is no ELF binary: a directory, an empty file, text,
 * or other bytes.  0 when it starts like an ELF file.
 */
static int not_elf(const char *path, char *errbuf, size_t errlen)
{
	unsigned char head[64];
	struct stat sb;
	ssize_t n;
	int fd;

	if (stat(path, &sb))
		return 0;	/* said by the caller */
	if (S_ISDIR(sb.st_mode)) {
		snprintf(errbuf, errlen, "%s: is a directory, not an ELF binary", path);
		return MYCL_ERR_ELF;
	}
	if (!S_ISREG(sb.st_mode))
		return 0;
	if (!sb.st_size) {
		snprintf(errbuf, errlen, "%s: is empty (0 bytes), not an ELF binary", path);
		return MYCL_ERR_ELF;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n >= 4 && !memcmp(head, "\177ELF", 4))
		return 0;
	for (ssize_t i = 0; i < n; i++) {
		if (!isprint(head[i]) && !isspace(head[i])) {
			snprintf(errbuf, errlen, "%s: not an ELF file (no \\177ELF magic at its start)",
				 path);
			return MYCL_ERR_ELF;
		}
	}
	snprintf(errbuf, errlen, "%s: a text file, not an ELF binary", path);
	return MYCL_ERR_ELF;
}

static unsigned int arch_line_named(const char *name)
{
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64"))
		return 64;
	if (!strcmp(name, "aarch64") || !strcmp(name, "arm64") || !strncmp(name, "ppc64", 5) ||
	    !strcmp(name, "power"))
		return 128;
	if (!strcmp(name, "s390x") || !strcmp(name, "s390"))
		return 256;
	return 0;
}

static int var_cmp(const void *a, const void *b)
{
	const struct mycl_share_var *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

/* The variable holding ADDR, or -1. */
static long find_var(const struct mycl_share *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr_vars;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->vars[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < s->vars[lo - 1].addr + (s->vars[lo - 1].size ? s->vars[lo - 1].size : 1))
		return (long)lo - 1;
	return -1;
}

/* ---- scanning the code ---- */

struct interval {
	uint64_t from, to;
};

struct scan {
	struct mycl_share *s;
	struct disasm *d;
	struct interval *loops;
	size_t nr_loops, loops_cap;
	uint64_t *spins;		/* addresses of spin hints and atomics */
	size_t nr_spins, spins_cap;
};

static int scan_insn(const struct insn *in, void *arg)
{
	struct scan *sc = arg;
	struct mycl_share *s = sc->s;
	long v;

	if (in->branch && in->target && in->target < in->addr && in->addr - in->target < 65536) {
		if (ARRAY_GROW(sc->loops, sc->loops_cap, sc->nr_loops + 1))
			return -ENOMEM;
		sc->loops[sc->nr_loops++] = (struct interval){ in->target, in->addr };
	}
	if (in->spin_hint || in->atomic) {
		if (ARRAY_GROW(sc->spins, sc->spins_cap, sc->nr_spins + 1))
			return -ENOMEM;
		sc->spins[sc->nr_spins++] = in->addr;
	}
	if (!in->data || (v = find_var(s, in->data)) < 0)
		return 0;
	switch (in->access) {
	case ACC_READ: s->vars[v].loads++; break;
	case ACC_WRITE: s->vars[v].stores++; break;
	case ACC_RMW: s->vars[v].rmws++; break;
	case ACC_ADDR: s->vars[v].addr_taken++; break;
	default: break;
	}
	if (in->atomic && in->access != ACC_ADDR)
		s->vars[v].atomics++;
	if (ARRAY_GROW(s->refs, s->refs_cap, s->nr_refs + 1))
		return -ENOMEM;
	s->refs[s->nr_refs++] = (struct share_ref){ in->addr, in->addr + in->size, (uint32_t)v,
						    in->access };
	return 0;
}

static int scan_section(uint64_t addr, const uint8_t *bytes, size_t len, void *arg)
{
	struct scan *sc = arg;

	return disasm_iter(sc->d, bytes, len, addr, scan_insn, sc);
}

static int iv_cmp(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

static int u64_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct share_ref *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Is A inside one of the (sorted) intervals?  MAXEND[i]: largest end of 0..i. */
static bool inside(const struct interval *iv, const uint64_t *maxend, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (iv[mid].from <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && maxend[lo - 1] >= a;
}

static bool lock_name(const char *n)
{
	static const char *const pat[] = { "mutex", "spin", "lock", "ut_delay", "TTAS", "sync_array",
					   "futex", "rw_lock", "srw_", "ssux", NULL };

	for (int i = 0; n && pat[i]; i++)
		if (strstr(n, pat[i]))
			return true;
	return false;
}

/* Marks writers inside loops, and inside spin loops or lock code. */
static int mark_loops(struct scan *sc)
{
	struct mycl_share *s = sc->s;
	uint64_t *maxend = NULL, *smaxend = NULL;
	struct interval *spinloops = NULL;
	size_t nspin = 0;
	int err = 0;

	sort_array(sc->loops, sc->nr_loops, sizeof(*sc->loops), iv_cmp);
	sort_array(sc->spins, sc->nr_spins, sizeof(*sc->spins), u64_cmp);
	maxend = malloc((sc->nr_loops + 1) * sizeof(*maxend));
	spinloops = malloc((sc->nr_loops + 1) * sizeof(*spinloops));
	smaxend = malloc((sc->nr_loops + 1) * sizeof(*smaxend));
	if (!maxend || !spinloops || !smaxend) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < sc->nr_loops; i++) {
		size_t lo = 0, hi = sc->nr_spins;

		maxend[i] = i && maxend[i - 1] > sc->loops[i].to ? maxend[i - 1] : sc->loops[i].to;
		/* A loop with a pause or an atomic in it is a spin loop. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (sc->spins[mid] < sc->loops[i].from)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < sc->nr_spins && sc->spins[lo] <= sc->loops[i].to)
			spinloops[nspin++] = sc->loops[i];
	}
	for (size_t i = 0; i < nspin; i++)
		smaxend[i] = i && smaxend[i - 1] > spinloops[i].to ? smaxend[i - 1] : spinloops[i].to;
	for (size_t i = 0; i < s->nr_refs; i++) {
		struct share_ref *r = &s->refs[i];
		const struct sym *fn;

		if (r->access != ACC_WRITE && r->access != ACC_RMW)
			continue;
		if (inside(sc->loops, maxend, sc->nr_loops, r->addr))
			s->vars[r->var].in_loops++;
		fn = symtab_find(&s->dso->syms, r->addr);
		if (inside(spinloops, smaxend, nspin, r->addr) || (fn && lock_name(fn->name)))
			s->vars[r->var].in_spin++;
	}
out:
	free(maxend);
	free(smaxend);
	free(spinloops);
	return err;
}

static int scan_code(struct mycl_share *s, struct elf_image *img)
{
	struct scan sc = { .s = s };
	int err = disasm_open(&sc.d, elf_image_machine(img), elf_image_big_endian(img),
			      elf_image_toc(img));

	if (err)
		return err;
	disasm_set_text(sc.d, false);
	disasm_set_got(sc.d, elf_image_got_target, img);
	err = elf_image_for_each_code(img, scan_section, &sc);
	disasm_close(sc.d);
	if (!err)
		err = mark_loops(&sc);
	sort_array(s->refs, s->nr_refs, sizeof(*s->refs), ref_cmp);
	free(sc.loops);
	free(sc.spins);
	return err;
}

/* ---- lines and verdicts ---- */

struct lv {
	uint64_t line;
	size_t var;
};

static int lv_cmp(const void *a, const void *b)
{
	const struct lv *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->var < y->var ? -1 : x->var > y->var;
}

static bool written(const struct mycl_share_var *v)
{
	return v->stores + v->rmws > 0;
}

static double write_weight(const struct mycl_share_var *v)
{
	return (double)(v->stores + v->rmws) + 4.0 * (double)v->in_loops + 8.0 * (double)v->in_spin +
	       4.0 * (double)v->atomics + (double)v->samples;
}

static void judge(struct mycl_share *s, struct mycl_share_line *l)
{
	size_t nw = 0, nr = 0, wi = 0;
	double w = 0, r = 0;
	const char *readers = NULL;
	char *list = NULL;
	size_t len = 0;
	FILE *f;

	l->samples = 0;
	l->verdict = MYCL_SHARE_OK;
	l->score = 0;
	for (size_t k = 0; k < l->nr_members; k++) {
		const struct mycl_share_var *v = &s->vars[l->members[k]];

		l->samples += v->samples;
		if (written(v)) {
			nw++;
			wi = l->members[k];
			w += write_weight(v);
		} else if (v->loads || v->samples) {
			nr++;
			r += (double)v->loads + (double)v->samples;
		}
	}
	if (nw >= 2) {
		l->verdict = MYCL_SHARE_WRITERS;
		l->score = w * (double)(nw - 1 + nr);
	} else if (nw == 1 && nr >= 1) {
		l->verdict = MYCL_SHARE_WRITER_WITH_READERS;
		l->score = w * (1.0 + r / 4.0);
	} else {
		return;
	}
	f = open_memstream(&list, &len);
	if (!f)
		return;
	for (size_t k = 0, n = 0; k < l->nr_members; k++) {
		const struct mycl_share_var *v = &s->vars[l->members[k]];

		if (l->verdict == MYCL_SHARE_WRITERS ? !written(v) : (written(v) || !v->loads))
			continue;
		fprintf(f, "%s%s", n++ ? ", " : "", v->name);
	}
	fclose(f);
	readers = share_keep(s, list);
	if (l->verdict == MYCL_SHARE_WRITERS) {
		l->why = keepf(s, "%zu variables written independently share one %u-byte line: %s",
			       nw, s->line_size, readers);
		l->fix = keepf(s, "give each written variable its own line: alignas(%u), or "
			       "__attribute__((aligned(%u))) and padding", s->line_size, s->line_size);
	} else {
		const struct mycl_share_var *v = &s->vars[wi];

		l->why = keepf(s, "%s is written by %" PRIu64 " instructions (%" PRIu64 " in loops, %"
			       PRIu64 " in spin/lock code%s) and shares its %u-byte line with "
			       "read-mostly %s", v->name, v->stores + v->rmws, v->in_loops, v->in_spin,
			       v->atomics ? ", atomic" : "", s->line_size, readers);
		l->fix = v->in_spin ?
			keepf(s, "a value written while spinning should be per thread (thread_local %s), "
			      "or aligned to its own line (alignas(%u)); or move the read-mostly "
			      "globals to a section of their own, as MySQL bug 97777 / MDEV-21145 did",
			      v->name, s->line_size) :
			keepf(s, "align %s to its own line (alignas(%u)), or move the read-mostly "
			      "globals to a section of their own (MySQL bug 97777 / MDEV-21145)",
			      v->name, s->line_size);
	}
}

static int line_cmp(const void *a, const void *b)
{
	const struct mycl_share_line *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

MYCL_API int mycl_share__regroup(struct mycl_share *s, unsigned int size)
{
	struct lv *lv;
	size_t n = 0, nl = 0;

	if (!size || (size & (size - 1)))
		return -EINVAL;
	s->line_size = size;
	free(s->lines);
	free(s->members);
	s->lines = NULL;
	s->members = NULL;
	s->nr_lines = 0;
	lv = malloc((2 * s->nr_vars + 1) * sizeof(*lv));
	if (!lv)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_vars; i++) {
		uint64_t first = s->vars[i].addr & ~(uint64_t)(size - 1);
		uint64_t last = (s->vars[i].addr + (s->vars[i].size ? s->vars[i].size : 1) - 1) &
				~(uint64_t)(size - 1);

		lv[n++] = (struct lv){ first, i };
		if (last != first)
			lv[n++] = (struct lv){ last, i };
	}
	sort_array(lv, n, sizeof(*lv), lv_cmp);
	for (size_t i = 0; i < n; i++)
		nl += !i || lv[i].line != lv[i - 1].line;
	s->lines = calloc(nl ? nl : 1, sizeof(*s->lines));
	s->members = malloc((n ? n : 1) * sizeof(*s->members));
	if (!s->lines || !s->members) {
		free(lv);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct mycl_share_line *l;

		if (!i || lv[i].line != lv[i - 1].line) {
			l = &s->lines[s->nr_lines++];
			l->start = lv[i].line;
			l->members = &s->members[i];
			l->section = s->vars[lv[i].var].section;
		}
		l = &s->lines[s->nr_lines - 1];
		s->members[i] = lv[i].var;
		l->nr_members++;
	}
	free(lv);
	sort_array(s->lines, s->nr_lines, sizeof(*s->lines), line_cmp);
	for (size_t b = 0; b < s->nr_buckets; b++) {
		struct mycl_share_line key = { .start = s->buckets[b].line & ~(uint64_t)(size - 1) };
		struct mycl_share_line *l = bsearch(&key, s->lines, s->nr_lines, sizeof(*s->lines),
						    line_cmp);

		if (l) {
			l->data_samples += s->buckets[b].samples;
			l->hitm += s->buckets[b].hitm;
		}
	}
	for (size_t i = 0; i < s->nr_lines; i++) {
		judge(s, &s->lines[i]);
		s->lines[i].score += 10.0 * (double)s->lines[i].hitm + (double)s->lines[i].data_samples;
	}
	return 0;
}

static int add_vars(struct mycl_share *s, struct elf_image *img, bool readonly)
{
	const struct symtab *t = &s->dso->data_syms;
	const char *origin = s->dso->symtab_full ? "symtab" : "dynsym";

	for (size_t i = 0; i < t->nr; i++) {
		const struct sym *sy = &t->syms[i];
		const struct elf_section *sec = elf_image_section_at(img, sy->start);

		if (!sec || sec->exec || (!sec->write && !readonly))
			continue;
		if (ARRAY_GROW(s->vars, s->vars_cap, s->nr_vars + 1))
			return -ENOMEM;
		s->vars[s->nr_vars++] = (struct mycl_share_var){
			.name = sy->name, .origin = origin, .addr = sy->start,
			.size = sy->end - sy->start, .section = sec->name,
		};
	}
	return 0;
}

MYCL_API int mycl_share__analyze(const char *path, const struct mycl_share_opts *o,
				 struct mycl_share **out, char *errbuf, size_t errlen)
{
	struct sym_opts so = { .demangle = true };
	const char *arch_opt = OPTS_GET(o, arch, NULL);
	unsigned int line = OPTS_GET(o, line_size, 0);
	struct mycl_share *s;
	struct elf_image *img;
	char *abs;
	int err;

	*out = NULL;
	so.debug_dir = dso_debug_dir(OPTS_GET(o, debug_dir, NULL));
	abs = realpath(path, NULL);
	if (!abs) {
		err = -errno;
		snprintf(errbuf, errlen, "%s: cannot open: %s", path, strerror(errno));
		return err;
	}
	err = not_elf(path, errbuf, errlen);
	if (err) {
		free(abs);
		return err;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		free(abs);
		return -ENOMEM;
	}
	s->log.print = OPTS_GET(o, print, NULL);
	s->log.ctx = OPTS_GET(o, print_ctx, NULL);
	s->dso = dso_new(abs, false);
	free(abs);
	if (!s->dso) {
		mycl_share__free(s);
		return -ENOMEM;
	}
	dso_load(s->dso, &so);
	img = dso_image(s->dso);
	if (!img) {
		snprintf(errbuf, errlen, "%s: not an ELF file with code (%s)", path,
			 dso_status_str(s->dso->status));
		mycl_share__free(s);
		return MYCL_ERR_ELF;
	}
	s->line_size = arch_line(elf_image_machine(img), &s->arch);
	if (!strcmp(s->arch, "unknown")) {
		const char *name = machine_name(elf_image_machine(img));

		if (name)
			snprintf(errbuf, errlen, "%s: an ELF binary for %s; mycl-share reads x86_64, "
				 "aarch64, ppc64 and s390x", path, name);
		else
			snprintf(errbuf, errlen, "%s: an ELF binary for machine %u; mycl-share reads "
				 "x86_64, aarch64, ppc64 and s390x", path, elf_image_machine(img));
		mycl_share__free(s);
		return MYCL_ERR_UNSUPPORTED;
	}
	if (arch_opt) {
		unsigned int l = arch_line_named(arch_opt);

		if (!l) {
			snprintf(errbuf, errlen, "unknown architecture '%s' (x86_64, aarch64, ppc64, s390x)",
				 arch_opt);
			mycl_share__free(s);
			return -EINVAL;
		}
		s->line_size = l;
		s->arch = arch_opt;
	}
	if (line)
		s->line_size = line;
	err = add_vars(s, img, OPTS_GET(o, include_readonly, false));
	if (!err && !OPTS_GET(o, no_dwarf, false) && s->dso->sym_path)
		err = share_dwarf_vars(s, s->dso->sym_path, OPTS_GET(o, include_readonly, false));
	if (!err) {
		size_t out_n = 0;

		sort_array(s->vars, s->nr_vars, sizeof(*s->vars), var_cmp);
		/* One entry per address: aliases keep the preferred name (sorted first). */
		for (size_t i = 0; i < s->nr_vars; i++)
			if (!out_n || s->vars[i].addr != s->vars[out_n - 1].addr)
				s->vars[out_n++] = s->vars[i];
		s->nr_vars = out_n;
		err = scan_code(s, img);
	}
	if (!err && OPTS_GET(o, perf_data, NULL))
		err = share_weigh(s, OPTS_GET(o, perf_data, NULL), errbuf, errlen);
	if (!err)
		err = mycl_share__regroup(s, s->line_size);
	if (err) {
		if (errbuf && errlen && !*errbuf)
			snprintf(errbuf, errlen, "%s: %s", path, mycl_strerror(err));
		mycl_share__free(s);
		return err;
	}
	*out = s;
	return 0;
}

MYCL_API void mycl_share__free(struct mycl_share *s)
{
	if (!s)
		return;
	dso_free(s->dso);
	free(s->vars);
	free(s->refs);
	free(s->lines);
	free(s->members);
	free(s->buckets);
	for (size_t i = 0; i < s->nr_strs; i++)
		free(s->strs[i]);
	free(s->strs);
	free(s);
}

MYCL_API const char *mycl_share__arch(const struct mycl_share *s)
{
	return s->arch;
}

MYCL_API unsigned int mycl_share__line_size(const struct mycl_share *s)
{
	return s->line_size;
}

MYCL_API size_t mycl_share__nr_vars(const struct mycl_share *s)
{
	return s->nr_vars;
}

MYCL_API const struct mycl_share_var *mycl_share__var(const struct mycl_share *s, size_t i)
{
	return i < s->nr_vars ? &s->vars[i] : NULL;
}

MYCL_API size_t mycl_share__nr_lines(const struct mycl_share *s)
{
	return s->nr_lines;
}

MYCL_API const struct mycl_share_line *mycl_share__line(const struct mycl_share *s, size_t i)
{
	return i < s->nr_lines ? &s->lines[i] : NULL;
}

static const char *access_word(uint8_t a)
{
	static const char *const w[] = { "", "read", "write", "rmw", "address" };

	return a < 5 ? w[a] : "";
}

MYCL_API int mycl_share__disassemble(FILE *f, const struct mycl_share *s, const char *func)
{
	struct elf_image *img = dso_image(s->dso);
	const struct sym *fn = NULL;
	struct disasm *d;
	struct insn *v;
	size_t n;
	const uint8_t *code;
	int err;

	for (size_t i = 0; i < s->dso->syms.nr && !fn; i++)
		if (!strcmp(s->dso->syms.syms[i].name, func))
			fn = &s->dso->syms.syms[i];
	if (!fn || !img)
		return -ENOENT;
	code = elf_image_code(img, fn->start, fn->end - fn->start);
	if (!code)
		return -ENOENT;
	err = disasm_open(&d, elf_image_machine(img), elf_image_big_endian(img), elf_image_toc(img));
	if (err)
		return err;
	disasm_set_got(d, elf_image_got_target, img);
	err = disasm_range(d, code, fn->end - fn->start, fn->start, &v, &n);
	disasm_close(d);
	if (err)
		return err;
	fprintf(f, "# %s (%s):\n", func, s->arch);
	for (size_t i = 0; i < n; i++) {
		long k = v[i].data ? find_var(s, v[i].data) : -1;

		fprintf(f, "  %8" PRIx64 ":  %s", v[i].addr, v[i].text);
		if (k >= 0)
			fprintf(f, "  # %s%s %s", s->vars[k].name,
				v[i].data == s->vars[k].addr ? "" : "+off", access_word(v[i].access));
		else if (v[i].data)
			fprintf(f, "  # 0x%" PRIx64 " %s", v[i].data, access_word(v[i].access));
		if (v[i].atomic)
			fputs(" atomic", f);
		if (v[i].spin_hint)
			fputs(" spin hint", f);
		fputc('\n', f);
	}
	free(v);
	return ferror(f) ? -EIO : 0;
}
