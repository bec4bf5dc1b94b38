/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"
#include "symtab.h"

#define NAME_CHUNK (64u << 10)

/* A copy of NAME (LEN bytes and a NUL) in the table's name blocks, or NULL. */
static const char *intern_name(struct symtab *t, const char *name, size_t len)
{
	char *dst;

	if (t->chunk_cap - t->chunk_used < len + 1) {
		size_t cap = len + 1 > NAME_CHUNK ? len + 1 : NAME_CHUNK;
		char *chunk;

		if (ARRAY_GROW(t->chunks, t->chunks_cap, t->nr_chunks + 1))
			return NULL;
		chunk = malloc(cap);
		if (!chunk)
			return NULL;
		t->chunks[t->nr_chunks++] = chunk;
		t->chunk_used = 0;
		t->chunk_cap = cap;
	}
	dst = t->chunks[t->nr_chunks - 1] + t->chunk_used;
	memcpy(dst, name, len);
	dst[len] = '\0';
	t->chunk_used += len + 1;
	return dst;
}

/* Appends S (its seq given here). */
static int push(struct symtab *t, struct sym s)
{
	if (ARRAY_GROW(t->syms, t->cap, t->nr + 1))
		return -ENOMEM;
	s.seq = (uint32_t)t->nr;
	t->syms[t->nr++] = s;
	t->last = NULL;
	t->sorted = false;
	return 0;
}

/* Adds a symbol named by the LEN bytes at NAME, which need no escape. */
static int add_plain(struct symtab *t, uint64_t start, uint64_t size, const char *name,
		     size_t len, enum sym_binding b, bool mangled)
{
	/* A name in the table's own text, terminated there, is kept where it is. */
	bool in_text = t->text && name >= t->text && len < t->text_len &&
		       (size_t)(name - t->text) < t->text_len - len && !name[len];
	const char *copy = in_text ? name : intern_name(t, name, len);

	if (!copy)
		return -ENOMEM;
	return push(t, (struct sym){ .start = start, .end = start + size, .name = copy,
				     .binding = (uint8_t)b, .mangled = mangled });
}

int symtab_add_raw(struct symtab *t, uint64_t start, const char *name, enum sym_binding b)
{
	return push(t, (struct sym){ .start = start, .end = start, .name = name,
				     .binding = (uint8_t)b, .raw = 1 });
}

void symtab_keep_text(struct symtab *t, char *text, size_t len, bool mapped)
{
	t->text = text;
	t->text_len = len;
	t->text_mapped = mapped;
}

void symtab_rest_text(struct symtab *t)
{
	/* Unwritten file pages: dropped from the process, read again from the page cache. */
	if (t->text && t->text_mapped && !t->text_borrowed)
		madvise(t->text, t->text_len, MADV_DONTNEED);
}

void symtab_share_text(struct symtab *t, const struct symtab *from)
{
	t->text = from->text;
	t->text_len = from->text_len;
	t->text_mapped = from->text_mapped;
	t->text_borrowed = true;
}

/* S's raw name copied and terminated; it stays raw (a look-up tries again) when memory runs out. */
static void sym_settle(struct symtab *t, struct sym *s)
{
	const char *copy;
	size_t len = 0;

	if (!s->raw)
		return;
	/* symtab_add_raw's caller saw the tab or newline that ends it. */
	while ((unsigned char)s->name[len] >= 0x20 && s->name[len] != 0x7f)
		len++;
	copy = intern_name(t, s->name, len);
	if (copy) {
		s->name = copy;
		s->raw = 0;
	}
}

int symtab_add_len(struct symtab *t, uint64_t start, uint64_t size, const char *name, size_t len,
		   enum sym_binding b)
{
	char *esc;
	int err;

	/* A name is shown as it is kept: control characters escaped once, here. */
	if (!str_has_ctl(name, len))
		return add_plain(t, start, size, name, len, b, false);
	esc = str_escape_ctl(name, len);
	if (!esc)
		return -ENOMEM;
	err = add_plain(t, start, size, esc, strlen(esc), b, false);
	free(esc);
	return err;
}

int symtab_add(struct symtab *t, uint64_t start, uint64_t size, const char *name,
	       enum sym_binding b, bool demangle)
{
	char *demangled = NULL;
	size_t len;
	int err;

	if (demangle && is_mangled(name) && t->lazy_demangle &&
	    !str_has_ctl(name, len = strlen(name))) {
		/* Kept mangled (it needs no escape): sym_demangle() when first found. */
		return add_plain(t, start, size, name, len, b, true);
	}
	if (demangle && is_mangled(name))
		demangled = demangle_name(name);
	if (demangled)
		name = demangled;
	err = symtab_add_len(t, start, size, name, strlen(name), b);
	free(demangled);
	return err;
}

/*
 * S's demangled name in place of its mangled one, as symtab_add() would have
 * added it (escaped when it must be); it stays mangled when it is no C++ name
 * or memory runs out.
 */
static void sym_demangle(struct symtab *t, struct sym *s)
{
	char *dem, *esc = NULL;
	const char *name, *copy;
	size_t len;

	if (!s->mangled)
		return;
	s->mangled = 0;
	/* (the look-up tables of profiles: names as perf shows them) */
	dem = demangle_name_as_perf(s->name);
	if (!dem)
		return;
	name = dem;
	len = strlen(dem);
	if (str_has_ctl(dem, len)) {
		esc = str_escape_ctl(dem, len);
		name = esc;
		len = esc ? strlen(esc) : 0;
	}
	copy = name ? intern_name(t, name, len) : NULL;
	if (copy)
		s->name = copy;
	free(esc);
	free(dem);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Sorts T's symbols by start, those at one start in the order they were
 * added (sym_cmp's order): a stable radix sort on the bytes of the start
 * that differ (a binary's tens of thousands of names: three or four passes,
 * no comparisons), when they were added in that order; else sort_array.
 */
static void sort_syms(struct symtab *t)
{
	uint64_t differ = 0;
	size_t counts[256];
	struct sym *tmp, *from = t->syms, *to;
	bool in_order = true, sorted = true;

	for (size_t i = 1; i < t->nr; i++) {
		const struct sym *a = &t->syms[i - 1], *b = &t->syms[i];

		differ |= b->start ^ t->syms[0].start;
		in_order &= b->seq > a->seq;
		sorted &= a->start < b->start || (a->start == b->start && a->seq < b->seq);
	}
	if (sorted)
		return;			/* kallsyms */
	if (!in_order || !(tmp = malloc(t->nr * sizeof(*tmp)))) {
		sort_array(t->syms, t->nr, sizeof(*t->syms), sym_cmp);
		return;
	}
	to = tmp;
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t sum = 0;

		if (!((differ >> shift) & 0xff))
			continue;
		memset(counts, 0, sizeof(counts));
		for (size_t i = 0; i < t->nr; i++)
			counts[(from[i].start >> shift) & 0xff]++;
		for (size_t b = 0; b < 256; b++) {
			size_t c = counts[b];

			counts[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < t->nr; i++)
			to[counts[(from[i].start >> shift) & 0xff]++] = from[i];
		from = to;
		to = from == tmp ? t->syms : tmp;
	}
	if (from != t->syms)
		memcpy(t->syms, from, t->nr * sizeof(*t->syms));
	free(tmp);
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* By size and binding: 1 when A is the better name for one address, -1 when B is, 0 a tie. */
static int better_kind(const struct sym *a, const struct sym *b)
{
	bool az = a->end == a->start, bz = b->end == b->start;

	if (az != bz)
		return !az ? 1 : -1;
	if ((a->binding == SYMB_WEAK) != (b->binding == SYMB_WEAK))
		return b->binding == SYMB_WEAK ? 1 : -1;
	if ((a->binding == SYMB_GLOBAL) != (b->binding == SYMB_GLOBAL))
		return a->binding == SYMB_GLOBAL ? 1 : -1;
	return 0;
}

/*
 * Two mangled C++ names of one constructor or destructor (the Itanium ABI's
 * variants C1/C2/C3, D0/D1/D2: the same name otherwise): shown alike, so
 * neither is the better, whatever their demangled text.
 */
static bool structor_variants(const struct sym *a, const struct sym *b)
{
	const char *x = a->name, *y = b->name;
	size_t i = 0;

	if (!a->mangled || !b->mangled || strncmp(x, "_Z", 2) || strlen(x) != strlen(y))
		return false;
	while (x[i] && x[i] == y[i])
		i++;
	if (!x[i] || !i || strcmp(x + i + 1, y + i + 1))
		return false;
	if (x[i - 1] == 'C')
		return strchr("123", x[i]) && strchr("123", y[i]);
	return x[i - 1] == 'D' && strchr("012", x[i]) && strchr("012", y[i]);
}

/*
 * True when A is the better name for one address (perf's order of
 * preference): by size and binding, then by the names as shown (demangled
 * here, when that is what decides).
 */
static bool better(struct symtab *t, struct sym *a, struct sym *b)
{
	int k = better_kind(a, b);
	size_t ua, ub, la, lb;

	if (k)
		return k > 0;
	sym_settle(t, a);
	sym_settle(t, b);
	if (structor_variants(a, b))
		return false;		/* shown alike: the one added first stays */
	sym_demangle(t, a);
	sym_demangle(t, b);
	ua = leading_underscores(a->name);
	ub = leading_underscores(b->name);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->name);
	lb = strlen(b->name);
	/* Equal by every rule: the one added first stays, as in perf. */
	return la > lb;
}

void symtab_finish(struct symtab *t, uint64_t last_end)
{
	size_t out = 0;

	if (!t->nr) {
		t->sorted = true;
		return;
	}
	sort_syms(t);
	for (size_t i = 0; i < t->nr; i++) {
		if (out && t->syms[out - 1].start == t->syms[i].start) {
			if (t->last_alias_wins || better(t, &t->syms[i], &t->syms[out - 1]))
				t->syms[out - 1] = t->syms[i];
			continue;
		}
		t->syms[out++] = t->syms[i];
	}
	t->nr = out;
	t->last = NULL;
	if (t->keep_sizes) {
		for (size_t i = 0; i < t->nr; i++)
			if (t->syms[i].end == t->syms[i].start)
				t->syms[i].end++;
		t->sorted = true;
		return;
	}
	for (size_t i = 0; i + 1 < t->nr; i++)
		if (t->syms[i].end == t->syms[i].start)
			t->syms[i].end = t->syms[i + 1].start;
	if (t->syms[t->nr - 1].end == t->syms[t->nr - 1].start)
		t->syms[t->nr - 1].end = last_end > t->syms[t->nr - 1].start ?
			last_end : t->syms[t->nr - 1].start + 1;
	t->sorted = true;
}

void symtab_settle_all(struct symtab *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		sym_settle(t, &t->syms[i]);
		sym_demangle(t, &t->syms[i]);
	}
}

const struct sym *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	/* Consecutive look-ups often land in the same function. */
	if (t->last && addr >= t->last->start && addr < t->last->end)
		return t->last;

	/* Last symbol starting at or before ADDR. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* The table is the caller's to change: const only for its readers. */
	if (addr < t->syms[lo - 1].end) {
		sym_settle((struct symtab *)t, &t->syms[lo - 1]);
		sym_demangle((struct symtab *)t, &t->syms[lo - 1]);
		return ((struct symtab *)t)->last = &t->syms[lo - 1];
	}
	/* An enclosing symbol that starts earlier (nested or aliased code). */
	if (lo >= 2 && addr < t->syms[lo - 2].end) {
		sym_settle((struct symtab *)t, &t->syms[lo - 2]);
		sym_demangle((struct symtab *)t, &t->syms[lo - 2]);
		return &t->syms[lo - 2];
	}
	return NULL;
}

void symtab_free(struct symtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_chunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->syms);
	if (t->text_borrowed)
		;
	else if (t->text_mapped)
		munmap(t->text, t->text_len);
	else
		free(t->text);
	memset(t, 0, sizeof(*t));
}
