/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Rust symbol names, shown as perf shows them (its demangler without the
 * verbose option): the legacy scheme ("_ZN...17h<hash>E": Itanium-shaped,
 * "$LT$"-style escapes, a hash as the last component, left out) and the v0
 * scheme ("_R...", RFC 2603: crates, nested paths, impls, generic arguments,
 * types, constants, back-references), crate disambiguators and hashes left
 * out.  Written from the schemes' descriptions; hostile input is bounded
 * (nesting depth, output length, back-references pointing backwards only)
 * and gives NULL.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symtab.h"
#include "internal.h"

#define MAX_DEPTH	200
#define MAX_OUT		(64 * 1024)

struct rd {
	const char *s;		/* the symbol after "_R" */
	size_t len, pos;
	char *out;
	size_t n, cap;
	bool bad;
	int skip;		/* > 0: parse without printing (an impl's own path) */
	int depth;
	uint64_t bound;		/* lifetimes bound by enclosing binders */
};

/* ---- output ---- */

static void put(struct rd *r, const char *p, size_t n)
{
	char *o;

	if (r->bad || r->skip)
		return;
	if (r->n + n + 1 > MAX_OUT) {
		r->bad = true;
		return;
	}
	if (r->n + n + 1 > r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 128;

		while (cap < r->n + n + 1)
			cap *= 2;
		o = realloc(r->out, cap);
		if (!o) {
			r->bad = true;
			return;
		}
		r->out = o;
		r->cap = cap;
	}
	memcpy(r->out + r->n, p, n);
	r->n += n;
	r->out[r->n] = '\0';
}

static void puts_(struct rd *r, const char *p)
{
	put(r, p, strlen(p));
}

static void putf(struct rd *r, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (k > 0)
		put(r, buf, (size_t)k < sizeof(buf) ? (size_t)k : sizeof(buf) - 1);
}

static void put_utf8(struct rd *r, uint32_t c)
{
	char b[4];

	if (c < 0x80) {
		b[0] = (char)c;
		put(r, b, 1);
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | c >> 6);
		b[1] = (char)(0x80 | (c & 0x3f));
		put(r, b, 2);
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | c >> 12);
		b[1] = (char)(0x80 | (c >> 6 & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		put(r, b, 3);
	} else if (c < 0x110000) {
		b[0] = (char)(0xf0 | c >> 18);
		b[1] = (char)(0x80 | (c >> 12 & 0x3f));
		b[2] = (char)(0x80 | (c >> 6 & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		put(r, b, 4);
	} else {
		r->bad = true;
	}
}

/* ---- input ---- */

static char peek(const struct rd *r)
{
	return r->pos < r->len ? r->s[r->pos] : '\0';
}

static bool eat(struct rd *r, char c)
{
	if (peek(r) != c || !c)
		return false;
	r->pos++;
	return true;
}

static char next(struct rd *r)
{
	char c = peek(r);

	if (!c)
		r->bad = true;
	else
		r->pos++;
	return c;
}

/* <decimal-number>: no leading zero but "0" itself. */
static uint64_t decimal(struct rd *r)
{
	uint64_t v = 0;

	if (!isdigit((unsigned char)peek(r))) {
		r->bad = true;
		return 0;
	}
	if (peek(r) == '0') {
		r->pos++;
		return 0;
	}
	while (isdigit((unsigned char)peek(r))) {
		if (v > (UINT64_MAX - 9) / 10) {
			r->bad = true;
			return 0;
		}
		v = v * 10 + (uint64_t)(next(r) - '0');
	}
	return v;
}

/* <base-62-number>: "_" is 0, else digits (0-9a-zA-Z) plus one, then "_". */
static uint64_t base62(struct rd *r)
{
	uint64_t v = 0;
	char c;

	if (eat(r, '_'))
		return 0;
	while ((c = next(r)) != '_') {
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'z')
			d = 10 + (unsigned)(c - 'a');
		else if (c >= 'A' && c <= 'Z')
			d = 36 + (unsigned)(c - 'A');
		else {
			r->bad = true;
			return 0;
		}
		/* wraps, as perf's demangler does (a closure's number shows it); a
		 * back-reference or an index is checked where it is used */
		v = v * 62 + d;
	}
	return v + 1;
}

/* [s <base-62-number>]: 0 when absent. */
static uint64_t disambiguator(struct rd *r)
{
	uint64_t v;

	if (!eat(r, 's'))
		return 0;
	v = base62(r);
	return v + 1;
}

struct ident {
	const char *p;
	size_t n;
	bool puny;
};

static struct ident undisambiguated(struct rd *r)
{
	struct ident id = { 0 };
	uint64_t n;

	id.puny = eat(r, 'u');
	n = decimal(r);
	eat(r, '_');
	if (r->bad || n > r->len - r->pos) {
		r->bad = true;
		return id;
	}
	id.p = r->s + r->pos;
	id.n = (size_t)n;
	r->pos += (size_t)n;
	/* an identifier's bytes: ASCII letters, digits and '_' */
	for (size_t i = 0; i < id.n; i++)
		if (!isalnum((unsigned char)id.p[i]) && id.p[i] != '_')
			r->bad = true;
	return id;
}

/* RFC 3492 with '_' for '-': the identifier's Unicode, in UTF-8. */
static void put_punycode(struct rd *r, struct ident id)
{
	uint32_t cps[128];
	size_t nc = 0, basic = 0, i;
	uint32_t n = 128, bias = 72, idx = 0;
	const char *us = NULL;

	for (i = id.n; i-- > 0;)
		if (id.p[i] == '_') {
			us = id.p + i;
			break;
		}
	if (us) {
		basic = (size_t)(us - id.p);
		if (basic > ARRAY_SIZE(cps)) {
			r->bad = true;
			return;
		}
		for (i = 0; i < basic; i++)
			cps[nc++] = (unsigned char)id.p[i];
		i = basic + 1;
	} else {
		i = 0;
	}
	for (bool first = true; i < id.n; first = false) {
		uint32_t old = idx, w = 1;

		for (uint32_t k = 36;; k += 36) {
			uint32_t d, t;
			char c;

			if (i >= id.n) {
				r->bad = true;
				return;
			}
			c = id.p[i++];
			if (c >= 'a' && c <= 'z')
				d = (uint32_t)(c - 'a');
			else if (c >= '0' && c <= '9')
				d = 26 + (uint32_t)(c - '0');
			else {
				r->bad = true;
				return;
			}
			if (d > (UINT32_MAX - idx) / w) {
				r->bad = true;
				return;
			}
			idx += d * w;
			t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
			if (d < t)
				break;
			if (w > UINT32_MAX / (36 - t)) {
				r->bad = true;
				return;
			}
			w *= 36 - t;
		}
		/* bias adaptation */
		{
			uint32_t delta = first ? (idx - old) / 700 : (idx - old) / 2;
			uint32_t k = 0;

			delta += delta / (uint32_t)(nc + 1);
			while (delta > 455) {
				delta /= 35;
				k += 36;
			}
			bias = k + 36 * delta / (delta + 38);
		}
		if (idx / (uint32_t)(nc + 1) > 0x10ffff - n || nc >= ARRAY_SIZE(cps)) {
			r->bad = true;
			return;
		}
		n += idx / (uint32_t)(nc + 1);
		idx %= (uint32_t)(nc + 1);
		memmove(cps + idx + 1, cps + idx, (nc - idx) * sizeof(*cps));
		cps[idx++] = n;
		nc++;
	}
	for (i = 0; i < nc; i++)
		put_utf8(r, cps[i]);
}

static void put_ident(struct rd *r, struct ident id)
{
	if (id.puny)
		put_punycode(r, id);
	else
		put(r, id.p, id.n);
}

/* ---- the grammar ---- */

static void path(struct rd *r, bool in_value);
static void type(struct rd *r);
static void konst(struct rd *r);

static bool enter(struct rd *r)
{
	if (++r->depth > MAX_DEPTH)
		r->bad = true;
	return !r->bad;
}

static void leave(struct rd *r)
{
	r->depth--;
}

/* B <base-62-number>: parse again from an earlier position, then come back. */
static void backref(struct rd *r, void (*fn)(struct rd *, bool), bool arg, size_t tag)
{
	uint64_t at = base62(r);
	size_t back = r->pos;

	if (r->skip)
		return;		/* nothing to print, nothing followed */
	if (r->bad || at >= tag) {
		r->bad = true;
		return;
	}
	r->pos = (size_t)at;
	fn(r, arg);
	r->pos = back;
}

static void type_fn(struct rd *r, bool unused)
{
	(void)unused;
	type(r);
}

static void konst_fn(struct rd *r, bool unused)
{
	(void)unused;
	konst(r);
}

static void lifetime(struct rd *r, uint64_t l)
{
	uint64_t depth;

	if (!l) {
		puts_(r, "'_");
		return;
	}
	if (l > r->bound) {
		r->bad = true;
		return;
	}
	depth = r->bound - l;
	if (depth < 26)
		putf(r, "'%c", (char)('a' + depth));
	else
		putf(r, "'_%" PRIu64, depth);
}

/* [G <base-62-number>]: for<'a, ...> over what follows; the count it bound. */
static uint64_t binder(struct rd *r)
{
	uint64_t n;

	if (!eat(r, 'G'))
		return 0;
	n = base62(r) + 1;
	if (r->bad || n > 1000) {
		r->bad = true;
		return 0;
	}
	puts_(r, "for<");
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			puts_(r, ", ");
		r->bound++;
		lifetime(r, 1);
	}
	puts_(r, "> ");
	return n;
}

static void generic_arg(struct rd *r)
{
	if (eat(r, 'L'))
		lifetime(r, base62(r));
	else if (eat(r, 'K'))
		konst(r);
	else
		type(r);
}

static void generic_args(struct rd *r)
{
	for (int i = 0; !r->bad && !eat(r, 'E'); i++) {
		if (i)
			puts_(r, ", ");
		generic_arg(r);
	}
}

/* A path whose generic arguments stay open ("Fn<()" before ", Output = T>"): true if open. */
static bool path_open(struct rd *r)
{
	size_t tag = r->pos;

	if (eat(r, 'I')) {
		path(r, false);
		puts_(r, "<");
		generic_args(r);
		return true;
	}
	if (eat(r, 'B')) {
		uint64_t at = base62(r);
		size_t back = r->pos;
		bool open;

		if (r->bad || at >= tag || !enter(r)) {
			r->bad = true;
			return false;
		}
		r->pos = (size_t)at;
		open = path_open(r);
		r->pos = back;
		leave(r);
		return open;
	}
	path(r, false);
	return false;
}

static void dyn_trait(struct rd *r)
{
	bool open = path_open(r);

	while (!r->bad && eat(r, 'p')) {
		puts_(r, open ? ", " : "<");
		open = true;
		put_ident(r, undisambiguated(r));
		puts_(r, " = ");
		type(r);
	}
	if (open)
		puts_(r, ">");
}

static void fn_sig(struct rd *r)
{
	uint64_t bound = binder(r);

	if (eat(r, 'U'))
		puts_(r, "unsafe ");
	if (eat(r, 'K')) {
		puts_(r, "extern \"");
		if (eat(r, 'C')) {
			puts_(r, "C");
		} else {
			struct ident abi = undisambiguated(r);

			for (size_t i = 0; i < abi.n && !r->bad; i++)
				put(r, abi.p[i] == '_' ? "-" : abi.p + i, 1);
		}
		puts_(r, "\" ");
	}
	puts_(r, "fn(");
	for (int i = 0; !r->bad && !eat(r, 'E'); i++) {
		if (i)
			puts_(r, ", ");
		type(r);
	}
	puts_(r, ")");
	if (eat(r, 'u')) {
		/* returns (): nothing said */
	} else {
		puts_(r, " -> ");
		type(r);
	}
	r->bound -= bound;
}

static const char *basic(char c)
{
	switch (c) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 'p': return "_";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	default: return NULL;
	}
}

static void type(struct rd *r)
{
	size_t tag = r->pos;
	char c;
	const char *b;

	if (!enter(r))
		return;
	c = next(r);
	if ((b = basic(c))) {
		puts_(r, b);
	} else if (c == 'R' || c == 'Q') {
		puts_(r, c == 'R' ? "&" : "&mut ");
		if (eat(r, 'L')) {
			uint64_t l = base62(r);

			if (l) {
				lifetime(r, l);
				puts_(r, " ");
			}
		}
		type(r);
	} else if (c == 'P' || c == 'O') {
		puts_(r, c == 'P' ? "*const " : "*mut ");
		type(r);
	} else if (c == 'A' || c == 'S') {
		puts_(r, "[");
		type(r);
		if (c == 'A') {
			puts_(r, "; ");
			konst(r);
		}
		puts_(r, "]");
	} else if (c == 'T') {
		int i;

		puts_(r, "(");
		for (i = 0; !r->bad && !eat(r, 'E'); i++) {
			if (i)
				puts_(r, ", ");
			type(r);
		}
		if (i == 1)
			puts_(r, ",");
		puts_(r, ")");
	} else if (c == 'F') {
		fn_sig(r);
	} else if (c == 'D') {
		uint64_t bound;

		puts_(r, "dyn ");
		bound = binder(r);
		for (int i = 0; !r->bad && !eat(r, 'E'); i++) {
			if (i)
				puts_(r, " + ");
			dyn_trait(r);
		}
		r->bound -= bound;
		if (!eat(r, 'L')) {
			r->bad = true;
		} else {
			uint64_t l = base62(r);

			if (l) {
				puts_(r, " + ");
				lifetime(r, l);
			}
		}
	} else if (c == 'B') {
		backref(r, type_fn, false, tag);
	} else {
		r->pos = tag;
		path(r, false);
	}
	leave(r);
}

/* <const>: a type's value ("3", "-1", "true", "'a'"), "_", or a back-reference. */
static void konst(struct rd *r)
{
	size_t tag = r->pos;
	char t, digits[40];
	size_t nd = 0;
	bool neg;

	if (!enter(r))
		return;
	if (eat(r, 'p')) {
		puts_(r, "_");
		leave(r);
		return;
	}
	if (eat(r, 'B')) {
		backref(r, konst_fn, false, tag);
		leave(r);
		return;
	}
	t = next(r);
	neg = strchr("alnsxi", t) && eat(r, 'n');
	while (!r->bad && peek(r) != '_') {
		char c = next(r);

		if (!isxdigit((unsigned char)c) || isupper((unsigned char)c) || nd + 1 >= sizeof(digits))
			r->bad = true;
		else
			digits[nd++] = c;
	}
	eat(r, '_');
	digits[nd] = '\0';
	if (r->bad || !strchr("abcfhijlmnostxy", t) || (t != 'b' && t != 'c' && !nd)) {
		r->bad = true;
		leave(r);
		return;
	}
	if (nd > 16) {
		putf(r, "0x");
		puts_(r, digits);
	} else {
		uint64_t v = nd ? strtoull(digits, NULL, 16) : 0;

		if (t == 'b') {
			if (v > 1)
				r->bad = true;
			puts_(r, v ? "true" : "false");
		} else if (t == 'c') {
			if (v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) {
				r->bad = true;
			} else {
				/* as perf's demangler writes them: the visible ASCII ones as they are */
				puts_(r, "'");
				if (v == '\t')
					puts_(r, "\\t");
				else if (v == '\r')
					puts_(r, "\\r");
				else if (v == '\n')
					puts_(r, "\\n");
				else if (v > 0x20 && v < 0x7e)
					put_utf8(r, (uint32_t)v);
				else
					putf(r, "\\u{%" PRIx64 "}", v);
				puts_(r, "'");
			}
		} else {
			putf(r, "%s%" PRIu64, neg ? "-" : "", v);
		}
	}
	leave(r);
}

static void path_fn(struct rd *r, bool in_value)
{
	path(r, in_value);
}

static void path(struct rd *r, bool in_value)
{
	size_t tag = r->pos;
	char c;

	if (!enter(r))
		return;
	c = next(r);
	if (c == 'C') {
		disambiguator(r);
		put_ident(r, undisambiguated(r));
	} else if (c == 'M' || c == 'X') {
		/* the impl's own path (where it is written) is not shown */
		disambiguator(r);
		r->skip++;
		path(r, false);
		r->skip--;
		puts_(r, "<");
		type(r);
		if (c == 'X') {
			puts_(r, " as ");
			path(r, false);
		}
		puts_(r, ">");
	} else if (c == 'Y') {
		puts_(r, "<");
		type(r);
		puts_(r, " as ");
		path(r, false);
		puts_(r, ">");
	} else if (c == 'N') {
		char ns = next(r);
		uint64_t dis;
		struct ident id;

		if (!isalpha((unsigned char)ns))
			r->bad = true;
		path(r, in_value);
		dis = disambiguator(r);
		id = undisambiguated(r);
		if (isupper((unsigned char)ns)) {
			puts_(r, "::{");
			if (ns == 'C')
				puts_(r, "closure");
			else if (ns == 'S')
				puts_(r, "shim");
			else
				put(r, &ns, 1);
			if (id.n) {
				puts_(r, ":");
				put_ident(r, id);
			}
			putf(r, "#%" PRIu64 "}", dis);
		} else if (id.n) {
			puts_(r, "::");
			put_ident(r, id);
		}
	} else if (c == 'I') {
		path(r, in_value);
		if (in_value)
			puts_(r, "::");
		puts_(r, "<");
		generic_args(r);
		puts_(r, ">");
	} else if (c == 'B') {
		backref(r, path_fn, in_value, tag);
	} else {
		r->bad = true;
	}
	leave(r);
}

static char *v0(const char *sym)
{
	struct rd r = { .s = sym, .len = strlen(sym) };

	if (isdigit((unsigned char)peek(&r)))
		return NULL;		/* an encoding version we do not know */
	path(&r, true);
	/* the instantiating crate, then a vendor suffix (".llvm.123", ".0"): not shown */
	if (!r.bad && isupper((unsigned char)peek(&r))) {
		r.skip++;
		path(&r, false);
		r.skip--;
	}
	if (!r.bad && r.pos < r.len && r.s[r.pos] != '.' && r.s[r.pos] != '$')
		r.bad = true;
	if (r.bad || !r.out) {
		free(r.out);
		return NULL;
	}
	return r.out;
}

/* ---- legacy ---- */

static bool is_hash(const char *p, size_t n)
{
	if (n != 17 || p[0] != 'h')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isdigit((unsigned char)p[i]) && (p[i] < 'a' || p[i] > 'f'))
			return false;
	return true;
}

static const struct {
	const char *esc, *out;
} escapes[] = {
	{ "$SP$", "@" }, { "$BP$", "*" }, { "$RF$", "&" }, { "$LT$", "<" }, { "$GT$", ">" },
	{ "$LP$", "(" }, { "$RP$", ")" }, { "$C$", "," },
};

/* One component, escapes decoded; false where it is not one the scheme writes. */
static bool legacy_component(struct rd *r, const char *p, size_t n)
{
	size_t i = 0;

	if (n >= 2 && p[0] == '_' && p[1] == '$')
		i = 1;
	while (i < n) {
		if (p[i] == '$') {
			size_t k;
			bool done = false;

			for (k = 0; k < ARRAY_SIZE(escapes) && !done; k++) {
				size_t el = strlen(escapes[k].esc);

				if (n - i >= el && !memcmp(p + i, escapes[k].esc, el)) {
					puts_(r, escapes[k].out);
					i += el;
					done = true;
				}
			}
			if (!done && n - i >= 5 && p[i + 1] == 'u' && isxdigit((unsigned char)p[i + 2]) &&
			    isxdigit((unsigned char)p[i + 3]) && p[i + 4] == '$') {
				char hex[3] = { p[i + 2], p[i + 3], 0 };
				unsigned long v = strtoul(hex, NULL, 16);

				/* visible ASCII only; others stay as written */
				if (v >= 0x20 && v < 0x7f) {
					put_utf8(r, (uint32_t)v);
					i += 5;
					done = true;
				}
			}
			if (!done) {
				/* not an escape: the rest of the component as written */
				put(r, p + i, n - i);
				return true;
			}
		} else if (p[i] == '.' && i + 1 < n && p[i + 1] == '.') {
			puts_(r, "::");
			i += 2;
		} else {
			put(r, p + i, 1);
			i++;
		}
	}
	return true;
}

/* "_ZN" {<len><component>} "E": a Rust name when its last component is the hash. */
static char *legacy(const char *sym)
{
	const char *p = sym + 3, *end = sym + strlen(sym);
	const char *comp[256];
	size_t lens[256], nc = 0;
	struct rd r = { 0 };

	while (p < end && *p != 'E') {
		size_t n = 0;

		if (!isdigit((unsigned char)*p) || *p == '0' || nc == ARRAY_SIZE(comp))
			return NULL;
		while (p < end && isdigit((unsigned char)*p)) {
			n = n * 10 + (size_t)(*p++ - '0');
			if (n > (size_t)(end - p))
				return NULL;
		}
		if (!n || n > (size_t)(end - p))
			return NULL;
		comp[nc] = p;
		lens[nc++] = n;
		p += n;
	}
	if (p >= end || nc < 2 || !is_hash(comp[nc - 1], lens[nc - 1]))
		return NULL;
	/* after the "E": nothing, or a suffix the compiler added (".llvm.123") */
	if (p[1] && p[1] != '.')
		return NULL;
	for (size_t i = 0; i + 1 < nc; i++) {
		for (size_t k = 0; k < lens[i]; k++)
			if (!isalnum((unsigned char)comp[i][k]) && !strchr("_$.", comp[i][k]))
				goto bad;
		if (i)
			puts_(&r, "::");
		if (!legacy_component(&r, comp[i], lens[i]))
			goto bad;
	}
	if (r.bad || !r.out)
		goto bad;
	return r.out;
bad:
	free(r.out);
	return NULL;
}

char *demangle_rust(const char *mangled)
{
	if (!strncmp(mangled, "_R", 2))
		return v0(mangled + 2);
	if (!strncmp(mangled, "_ZN", 3))
		return legacy(mangled);
	return NULL;
}
