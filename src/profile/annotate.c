/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Annotating a function: instructions, sample shares, source, inlines, globals. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/annotate.h"
#include "datatype.h"
#include "disasm.h"
#include "elfimage.h"
#include "inline.h"
#include "profile_state.h"
#include "profile_insns.h"

/* Strings the annotation owns, freed with it. */
struct strbag {
	char **v;
	size_t nr, cap;
};

struct annotation_priv {
	struct mycl_annotation pub;
	struct strbag strs;
	struct dt_result types;		/* the data types' strings live here */
};

static const char *keep(struct strbag *b, char *s)
{
	if (!s)
		return NULL;
	if (ARRAY_GROW(b->v, b->cap, b->nr + 1)) {
		free(s);
		return NULL;
	}
	b->v[b->nr++] = s;
	return s;
}

#define keepf(bag, ...) keep(bag, str_printf(__VA_ARGS__))

/* "sym+0x10" for an address in D's code or data, or via its GOT. */
static const char *name_of(struct strbag *b, struct dso *d, struct elf_image *img, uint64_t addr,
			   bool code)
{
	const struct sym *s = symtab_find(code ? &d->syms : &d->data_syms, addr);
	const struct got_slot *g;

	if (!s && !code)
		s = symtab_find(&d->syms, addr);
	if (s)
		return addr == s->start ? s->name : keepf(b, "%s+0x%" PRIx64, s->name, addr - s->start);
	if (!code && img && (g = elf_image_got(img, addr))) {
		/* A load through the GOT: name what the slot points to. */
		if (g->name && *g->name)
			return keepf(b, "%s (via GOT)", g->name);
		if (g->target && (s = symtab_find(&d->data_syms, g->target)))
			return keepf(b, "%s%s (via GOT)", s->name, g->target == s->start ? "" :
				     keepf(b, "+0x%" PRIx64, g->target - s->start));
	}
	return NULL;
}

/* Source files read once per annotation. */
struct srcfile {
	const char *path;
	char *text;
	char **lines;
	size_t nr;
	bool withheld;			/* not read: its name came from elsewhere */
};

/* ROOT/NAME's text when that stays inside ROOT (symbolic links and all), else NULL. */
static char *read_inside(const char *root, const char *name)
{
	char *path = str_printf("%s/%s", root, name), *text = NULL;

	if (path && path_inside(root, path))
		text = read_text_file(path);
	free(path);
	return text;
}

/*
 * How much of BUILD (the unit's build directory, normalised) is the root its
 * sources may be read under: up as many directories as NAME climbs with ".."
 * (a make build's ../../src/include, meson's ../src), never to "/"; 0: none.
 */
static size_t build_root(const char *build, const char *name)
{
	size_t len = build ? strlen(build) : 0, depth = 0;

	for (const char *p = name; (p = strstr(p, "..")); p += 2)
		if ((p == name || p[-1] == '/') && (p[2] == '/' || !p[2]))
			while (len > 1 && build[--len] != '/')
				;
	for (size_t i = 0; i < len; i++)
		depth += build[i] == '/';
	return depth >= 1 && len > 1 ? len : 0;
}

/*
 * The text of source file FILE, as the debug info names it ("." and ".."
 * taken away by its words), or NULL.  A binary's line table names any path,
 * and a recording from elsewhere picks the binary: the file is read where the
 * user said (--prefix-map's NEW, a --source-dir, never out of it), and at the
 * path itself only when the debug info is this machine's own (FOREIGN NULL)
 * and the path lies in the build directory it names (BUILD, normalised).
 * *WITHHELD: not read because of that.
 */
static char *find_source(const char *name, const struct mycl_annotate_opts *o, const char *foreign,
			 const char *build, bool *withheld)
{
	const char *map = OPTS_GET(o, prefix_map, NULL);
	const char *const *dirs = OPTS_GET(o, source_dirs, NULL);
	/* (a relative name is the build directory's: meson's ../src/x.c) */
	char *joined = name[0] != '/' && build ? str_printf("%s/%s", build, name) : NULL;
	char *file = path_normal(joined ? joined : name), *text = NULL;

	*withheld = false;
	if (!file)
		return NULL;
	if (map && strchr(map, '=')) {
		size_t ol = (size_t)(strchr(map, '=') - map);

		/* (NEW is the rest of the option) */
		if (ol && !strncmp(file, map, ol))
			text = read_inside(map + ol + 1, file + ol);
	}
	size_t bl = build_root(build, joined ? joined : name);

	free(joined);
	bool in_build = bl && !strncmp(file, build, bl) && file[bl] == '/';

	if (!text && !foreign && in_build) {
		char *root = strndup(build, bl);

		text = root ? read_inside(root, file + bl + 1) : NULL;
		free(root);
	}
	/* The path as recorded under each directory, then its trailing parts. */
	for (size_t i = 0; !text && dirs && dirs[i]; i++)
		for (const char *tail = file; !text && tail; tail = strchr(tail + 1, '/'))
			text = read_inside(dirs[i], *tail == '/' ? tail + 1 : tail);
	*withheld = !text && file[0] == '/' && (foreign || !in_build);
	free(file);
	return text;
}

static const char *source_line(struct srcfile *files, size_t *nfiles, const char *file, int line,
			       const struct mycl_annotate_opts *o, const char *foreign,
			       const char *build, bool *withheld)
{
	struct srcfile *sf = NULL;

	for (size_t i = 0; i < *nfiles; i++)
		if (files[i].path == file)
			sf = &files[i];
	if (!sf && *nfiles < 32) {
		sf = &files[(*nfiles)++];
		memset(sf, 0, sizeof(*sf));
		sf->path = file;
		sf->text = find_source(file, o, foreign, build, &sf->withheld);
		for (char *p = sf->text; p && *p;) {
			char **n = realloc(sf->lines, (sf->nr + 1) * sizeof(*n));

			if (!n)
				break;
			sf->lines = n;
			sf->lines[sf->nr++] = p;
			p = strchr(p, '\n');
			if (!p)
				break;
			*p++ = '\0';
		}
	}
	if (sf && sf->withheld && line > 0)
		*withheld = true;
	if (!sf || line <= 0 || (size_t)line > sf->nr)
		return NULL;
	return sf->lines[line - 1];
}

static const char *access_str(uint8_t a)
{
	switch (a) {
	case ACC_READ: return "read";
	case ACC_WRITE: return "write";
	case ACC_RMW: return "rmw";
	case ACC_ADDR: return "address";
	default: return NULL;
	}
}

static unsigned int line_size_of(uint16_t machine)
{
	switch (machine) {
	case 183: /* EM_AARCH64 */
	case 21:  /* EM_PPC64 */
		return 128;
	case 22:  /* EM_S390 */
		return 256;
	default:
		return 64;
	}
}

/*
 * The article's finding in one glance: a load of a read-mostly global on
 * the same cache line as a global this function writes, and the global the
 * previous instruction touched for samples that skid past it.
 */
static void mark_neighbours(struct annotation_priv *ap, struct dso *d, const struct insn *v, size_t n,
			    uint16_t machine)
{
	uint64_t mask = ~(uint64_t)(line_size_of(machine) - 1);

	for (size_t i = 0; i < n; i++) {
		struct mycl_annotate_line *l = &ap->pub.lines[i];
		const struct sym *vi = v[i].data ? symtab_find(&d->data_syms, v[i].data) : NULL;

		if (!v[i].data && i && ap->pub.lines[i - 1].global && v[i - 1].access != ACC_ADDR)
			l->after = ap->pub.lines[i - 1].global;
		/* (an element at a computed index: which line it is on is not known here) */
		if (!vi || v[i].access == ACC_ADDR || v[i].indexed)
			continue;
		for (size_t k = 0; k < n; k++) {
			const struct sym *vk;

			if (k == i || !v[k].data || v[k].indexed ||
			    (v[k].access != ACC_WRITE && v[k].access != ACC_RMW) ||
			    (v[k].data & mask) != (v[i].data & mask))
				continue;
			vk = symtab_find(&d->data_syms, v[k].data);
			if (vk && vk != vi) {
				l->line_shared_with = vk->name;
				break;
			}
		}
	}
}

static const char *const where_names[] = {
	[DT_HEAP] = "heap", [DT_GLOBAL] = "global", [DT_STACK] = "stack",
};

/*
 * Each line's data type, and the function's samples by whether the object
 * they count for is known (profile_data_credit: a timer's sample counts for
 * the access just before it).
 */
static void data_types(struct annotation_priv *ap, const struct insn *v, size_t n, bool skid)
{
	struct mycl_annotation *a = &ap->pub;

	a->data_skid = skid;
	for (size_t i = 0; i < n && i < ap->types.n; i++) {
		struct mycl_annotate_line *l = &a->lines[i];
		const struct dt_access *t = &ap->types.v[i];
		const struct dt_access *hit = profile_data_credit(&ap->types, v, i, skid);

		if (t->where) {
			l->data_where = where_names[t->where];
			l->data_expr = t->expr;
			l->data_type = t->type;
			l->data_member = t->member;
			l->data_member_type = t->member_type;
			l->data_offset = t->offset;
			l->data_size = t->size;
			l->data_unknown = t->unknown;
			l->data_access = access_str(t->access);
		}
		/* the skid: what the instruction before touched */
		if (hit && hit != t && !l->after && hit->expr && l->samples)
			l->after = hit->expr;
		if (!l->samples || !hit)
			continue;
		a->data_samples += l->samples;
		if (!hit->unknown) {
			a->data_known_samples += l->samples;
			continue;
		}
		for (size_t k = 0; k <= a->nr_data_unknown; k++) {
			if (k == a->nr_data_unknown) {
				if (k < ARRAY_SIZE(a->data_unknown)) {
					a->data_unknown[k] = (struct mycl_annotate_unknown){ hit->unknown, 0 };
					a->nr_data_unknown++;
				} else {
					break;
				}
			}
			if (!strcmp(a->data_unknown[k].why, hit->unknown)) {
				a->data_unknown[k].samples += l->samples;
				break;
			}
		}
	}
	/* most samples first */
	for (size_t i = 1; i < a->nr_data_unknown; i++)
		for (size_t k = i; k && a->data_unknown[k].samples > a->data_unknown[k - 1].samples; k--) {
			struct mycl_annotate_unknown t = a->data_unknown[k];

			a->data_unknown[k] = a->data_unknown[k - 1];
			a->data_unknown[k - 1] = t;
		}
}

static int fill(struct annotation_priv *ap, const struct mycl_profile *p, size_t ev, struct dso *d,
		const struct sym *fn, const struct mycl_annotate_opts *o)
{
	struct mycl_annotation *a = &ap->pub;
	const struct mycl_profile_event *pe = &p->events[ev];
	struct elf_image *img = dso_image(d);
	struct srcfile files[32];
	const char *foreign = dso_foreign_dwarf(d);
	char *build = NULL;
	size_t nfiles = 0, n = 0;
	struct disasm *dis = NULL;
	const char *last_inline = NULL;
	const uint8_t *code;
	struct insn *insns = NULL;
	int err;

	if (!img) {
		a->why_not = "the binary's code is not available (file not found)";
		return 0;
	}
	code = elf_image_code(img, fn->start, fn->end - fn->start);
	if (!code) {
		a->why_not = "the function's bytes are not in a code section of the binary";
		return 0;
	}
	a->arch = disasm_arch_name(elf_image_machine(img));
	err = disasm_for_image(&dis, img);
	if (err) {
		a->why_not = "no disassembler for this architecture";
		return 0;
	}
	disasm_set_type_facts(dis, true);
	err = disasm_range(dis, code, fn->end - fn->start, fn->start, &insns, &n);
	disasm_close(dis);
	if (err)
		return err;
	err = datatype_walk(d, elf_image_machine(img), insns, n, &ap->types);
	if (err) {
		free(insns);
		return err;
	}
	a->lines = calloc(n ? n : 1, sizeof(*a->lines));
	if (!a->lines) {
		free(insns);
		return -ENOMEM;
	}
	if (!foreign) {
		const char *cd = inline_comp_dir(d, fn->start);

		build = cd && cd[0] == '/' ? path_normal(cd) : NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct mycl_annotate_line *l = &a->lines[i];
		struct hent k = { .ev = (int)ev, .dso = d, .addr = insns[i].addr };
		const struct hent *h = hist_find(&p->insns, &k);
		const char *inl[8];
		size_t ninl = 0;
		bool repl;

		l->addr = insns[i].addr;
		l->insn = keep(&ap->strs, strdup(insns[i].text));
		if (h) {
			l->period = h->period;
			l->samples = h->samples;
		}
		if (insns[i].target)
			l->target = name_of(&ap->strs, d, img, insns[i].target, true);
		if (insns[i].data) {
			l->global = name_of(&ap->strs, d, img, insns[i].data, false);
			/*
			 * An element at a computed index, from there on: counts[i],
			 * g_table+0x8[i]; a table no symbol names is a switch's.
			 */
			if (insns[i].indexed && l->global && insns[i].access != ACC_ADDR)
				l->global = keepf(&ap->strs, "%s[i]", l->global);
			else if (!l->global && !insns[i].indexed)
				l->global = keepf(&ap->strs, "0x%" PRIx64, insns[i].data);
			if (l->global)
				l->access = access_str(insns[i].access);
		}
		l->atomic = insns[i].atomic;
		l->spin_hint = insns[i].spin_hint;
		inline_srcline(d, l->addr, &l->file, &l->line);
		if (l->file) {
			bool withheld = false;

			l->source = source_line(files, &nfiles, l->file, l->line, o, foreign, build,
						&withheld);
			a->nr_source_withheld += withheld;
		}
		inline_frames(&(const struct inline_names){ machine_intern_ctx, p->m }, d, l->addr,
			      fn->name, inl, 8, &ninl, &repl);
		if (ninl && (!repl || ninl > 1)) {
			const char *innermost = inl[0];

			if (innermost != last_inline)
				l->inlined = innermost;
			last_inline = innermost;
		} else {
			last_inline = NULL;
		}
		a->period += l->period;
		a->samples += l->samples;
	}
	if (a->nr_source_withheld && foreign)
		a->source_withheld = keepf(&ap->strs, "the debug info came from %s, so the source "
					   "files it names are read only from --source-dir or "
					   "--prefix-map", foreign);
	else if (a->nr_source_withheld)
		a->source_withheld = keepf(&ap->strs, "the debug info names them outside its build "
					   "directory%s%s, so they are read only from --source-dir "
					   "or --prefix-map", build ? " " : "", build ? build : "");
	free(build);
	mark_neighbours(ap, d, insns, n, elf_image_machine(img));
	data_types(ap, insns, n, profile_event_skids(p, ev));
	for (size_t i = 0; i < n; i++) {
		a->lines[i].pct = a->period ? 100.0 * (double)a->lines[i].period / (double)a->period : 0;
		a->lines[i].pct_total = pe->total_period_all ?
			100.0 * (double)a->lines[i].period / (double)pe->total_period_all : 0;
	}
	a->pct_total = pe->total_period_all ? 100.0 * (double)a->period / (double)pe->total_period_all : 0;
	a->nr_lines = n;
	/* Source text lives in the file buffers: keep them with the annotation. */
	for (size_t i = 0; i < nfiles; i++) {
		free(files[i].lines);
		keep(&ap->strs, files[i].text);
	}
	free(insns);
	return 0;
}

MYCL_API int mycl_profile__annotate(const struct mycl_profile *p, size_t ev,
				    const struct mycl_hot_row *row,
				    const struct mycl_annotate_opts *o, struct mycl_annotation **out)
{
	const struct hist *h = p->children ? &p->incl : &p->self;
	struct annotation_priv *ap;
	const struct hent *key;
	const struct sym *fn;
	struct dso *d;
	int err;

	if (!OPTS_VALID(o, mycl_annotate_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	if (!p->annotate || ev >= p->nr_events || row->id >= h->nr)
		return -EINVAL;
	key = &h->ents[row->id];
	ap = calloc(1, sizeof(*ap));
	if (!ap)
		return -ENOMEM;
	d = key->dso;
	ap->pub.sym = key->sym;
	ap->pub.dso = d ? d->short_name : "[unknown]";
	*out = &ap->pub;
	if (!key->sym || !d) {
		ap->pub.why_not = "the samples have no symbol";
		return 0;
	}
	if (d->kernel || d->identity) {
		ap->pub.why_not = d->kernel ? "kernel code is not annotated (no vmlinux)" :
					      "JIT or anonymous code has no file to read";
		return 0;
	}
	fn = symtab_find(&d->syms, key->addr);
	if (!fn || fn->name != key->sym) {
		ap->pub.why_not = "the symbol is not in the binary's table";
		return 0;
	}
	ap->pub.start = fn->start;
	ap->pub.end = fn->end;
	err = fill(ap, p, ev, d, fn, o);
	if (err) {
		mycl_annotation__free(&ap->pub);
		*out = NULL;
	}
	return err;
}

MYCL_API void mycl_annotation__free(struct mycl_annotation *a)
{
	struct annotation_priv *ap = (struct annotation_priv *)a;

	if (!a)
		return;
	for (size_t i = 0; i < ap->strs.nr; i++)
		free(ap->strs.v[i]);
	free(ap->strs.v);
	free(a->lines);
	datatype_free(&ap->types);
	free(ap);
}

/* FN for each row of H: its binary, its address there, its samples. */
static int for_each_place(const struct hist *h,
			  int (*fn)(struct dso *d, uint64_t vaddr, uint64_t samples, void *ctx),
			  void *ctx)
{
	int err = 0;

	for (size_t i = 0; i < h->nr && !err; i++)
		err = fn(h->ents[i].dso, h->ents[i].addr, h->ents[i].samples, ctx);
	return err;
}

int mycl_profile_for_each_insn(const struct mycl_profile *p,
			       int (*fn)(struct dso *d, uint64_t vaddr, uint64_t samples, void *ctx),
			       void *ctx)
{
	return for_each_place(&p->insns, fn, ctx);
}

int mycl_profile_for_each_data_addr(const struct mycl_profile *p,
				    int (*fn)(uint64_t addr, uint64_t samples, bool hitm, void *ctx),
				    void *ctx)
{
	for (size_t i = 0; i < p->data_addrs.nr; i++) {
		const struct hent *e = &p->data_addrs.ents[i];
		int err = fn(e->addr, e->samples, e->ev != 0, ctx);

		if (err)
			return err;
	}
	return 0;
}

bool mycl_profile_first_map(const struct mycl_profile *p, const char *base, uint64_t *start,
			    uint64_t *pgoff)
{
	for (size_t i = 0; i < p->maps_seen.nr; i++)
		if (!strcmp(p->maps_seen.ents[i].sym, base)) {
			*start = p->first_maps[i].start;
			*pgoff = p->first_maps[i].pgoff;
			return true;
		}
	return false;
}

int mycl_profile_for_each_site(const struct mycl_profile *p,
			       int (*fn)(struct dso *d, uint64_t vaddr, uint64_t samples, void *ctx),
			       void *ctx)
{
	return for_each_place(&p->sites, fn, ctx);
}
