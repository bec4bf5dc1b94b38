/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * disasm_ahead.c: a walk taking what the decoders ahead decoded (and
 * decoding itself where they give nothing) sees, at every step, what
 * capstone's own walk of the same bytes sees: the same addresses, the same
 * instructions, the same details, the same bytes skipped.  Run on whole
 * files of the fixtures (code and data, as a .text can hold), on random
 * bytes (walks that meet again only after a while), for x86_64, aarch64,
 * ppc64le and s390x, with helper threads forced on (MYCL_DECODE_AHEAD=on)
 * whatever the CPUs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <capstone/capstone.h>
#include "mycl/tuning.h"
#include "test_util.h"
#include "disasm_ahead.h"

struct arch {
	const char *name;
	cs_arch arch;
	cs_mode mode;
	bool att;
	size_t skip, det;
};

static const struct arch x86 = { "x86_64", CS_ARCH_X86, CS_MODE_64, true, 1,
				 offsetof(cs_detail, x86) + sizeof(cs_x86) };
static const struct arch a64 = { "aarch64", CS_ARCH_ARM64, CS_MODE_ARM, false, 4,
				 offsetof(cs_detail, arm64) + sizeof(cs_arm64) };
static const struct arch ppc = { "ppc64le", CS_ARCH_PPC, CS_MODE_64 | CS_MODE_LITTLE_ENDIAN, false,
				 4, offsetof(cs_detail, ppc) + sizeof(cs_ppc) };
static const struct arch s390 = { "s390x", CS_ARCH_SYSZ, CS_MODE_BIG_ENDIAN, false, 2,
				  offsetof(cs_detail, sysz) + sizeof(cs_sysz) };

struct walker {
	const struct arch *ar;
	csh cs, mine;
	cs_insn *want, *own;
	struct dis_ahead *a;
	size_t steps, given;
};

static void walker_open(struct walker *w, const struct arch *ar, const struct dis_span *v, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->ar = ar;
	assert_int_equal(cs_open(ar->arch, ar->mode, &w->cs), CS_ERR_OK);
	assert_int_equal(cs_open(ar->arch, ar->mode, &w->mine), CS_ERR_OK);
	cs_option(w->cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(w->mine, CS_OPT_DETAIL, CS_OPT_ON);
	if (ar->att) {
		cs_option(w->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
		cs_option(w->mine, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	}
	w->want = cs_malloc(w->cs);
	w->own = cs_malloc(w->mine);
	w->a = dis_ahead_start(ar->arch, ar->mode, ar->att, v, n, ar->skip);
	assert_non_null(w->a);
}

/* The share of steps the decoders ahead gave, in percent. */
static size_t walker_close(struct walker *w, const char *what)
{
	dis_ahead_stop(w->a);
	cs_free(w->want, 1);
	cs_free(w->own, 1);
	cs_close(&w->cs);
	cs_close(&w->mine);
	print_message("%s: %zu steps, %zu from the decoders ahead\n", what, w->steps, w->given);
	return w->steps ? w->given * 100 / w->steps : 0;
}

/* Both walks of span SPAN side by side: capstone's own and the one under test. */
static void walk(struct walker *w, const struct dis_span *sp, const char *what)
{
	const struct arch *ar = w->ar;
	const uint8_t *p = sp->code, *q = sp->code;
	size_t left = sp->len, qleft = sp->len;
	uint64_t pc = sp->addr, qpc = sp->addr;
	size_t span = dis_ahead_find(w->a, sp->code, sp->len, sp->addr);

	assert_int_not_equal(span, DIS_AHEAD_NONE);
	dis_ahead_span(w->a, span);
	while (left) {
		const cs_insn *got = NULL;
		bool ok = cs_disasm_iter(w->cs, &p, &left, &pc, w->want);

		/* the walk under test, as disasm_iter walks */
		if (dis_ahead_next(w->a, qpc, &got)) {
			w->given++;
		} else if (cs_disasm_iter(w->mine, &q, &qleft, &qpc, w->own)) {
			got = w->own;
			q -= got->size, qleft += got->size, qpc -= got->size;
		}
		if (!!got != ok) {
			print_error("%s: at %#llx capstone %s, the walk ahead %s\n", what,
				    (unsigned long long)qpc, ok ? "decodes" : "does not",
				    got ? "does" : "does not");
			fail();
		}
		if (ok && (got->address != w->want->address || got->size != w->want->size ||
			   got->id != w->want->id || memcmp(got->bytes, w->want->bytes, got->size) ||
			   strcmp(got->mnemonic, w->want->mnemonic) ||
			   strcmp(got->op_str, w->want->op_str) ||
			   memcmp(got->detail, w->want->detail, ar->det))) {
			print_error("%s: at %#llx capstone has '%s %s', the walk ahead '%s %s' at %#llx\n",
				    what, (unsigned long long)w->want->address, w->want->mnemonic,
				    w->want->op_str, got->mnemonic, got->op_str,
				    (unsigned long long)got->address);
			fail();
		}
		if (got) {
			q += got->size, qleft -= got->size, qpc += got->size;
		} else {
			if (ar->skip > left)
				break;
			p += ar->skip, pc += ar->skip, left -= ar->skip;
			q += ar->skip, qpc += ar->skip, qleft -= ar->skip;
		}
		assert_int_equal(qpc, pc);
		w->steps++;
	}
}

/* One span walked whole. */
static size_t compare_walks(const struct arch *ar, const uint8_t *code, size_t len, uint64_t addr,
			    const char *what)
{
	struct dis_span sp = { code, len, addr };
	struct walker w;

	walker_open(&w, ar, &sp, 1);
	walk(&w, &sp, what);
	return walker_close(&w, what);
}

/* A fixture's bytes, repeated up to at least 600 KB (longer than DIS_AHEAD_MIN). */
static uint8_t *fixture_bytes(const char *name, size_t *len)
{
	size_t n = 0;
	uint8_t *b = slurp(fixture(name), &n), *out;

	assert_non_null(b);
	*len = ((600 * 1024) / n + 1) * n;
	out = malloc(*len);
	assert_non_null(out);
	for (size_t o = 0; o < *len; o += n)
		memcpy(out + o, b, n);
	free(b);
	return out;
}

static void fixtures(void **state)
{
	static const struct { const char *file; const struct arch *ar; } v[] = {
		{ "share/truth.static", &x86 }, { "share/dispatch.static", &x86 },
		{ "share/plain.aarch64", &a64 }, { "share/plain.ppc64le", &ppc },
		{ "share/plain.s390x", &s390 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t len;
		uint8_t *b = fixture_bytes(v[i].file, &len);

		/*
		 * (an address off the chunks' alignment, as a .text's start is); nearly
		 * every step comes from the decoders (the rest: chunks' first bytes)
		 */
		assert_true(compare_walks(v[i].ar, b, len, 0x401234, v[i].file) >= 95);
		free(b);
	}
}

static void random_bytes(void **state)
{
	size_t len = 700 * 1024;
	uint8_t *b = malloc(len);
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	assert_non_null(b);
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		b[i] = (uint8_t)x;
	}
	assert_true(compare_walks(&x86, b, len, 0x10003, "random x86_64") >= 90);
	assert_true(compare_walks(&a64, b, len, 0x10000, "random aarch64") >= 90);
	assert_true(compare_walks(&s390, b, len, 0x10002, "random s390x") >= 90);
	/* a short range: not worth a thread */
	assert_null(dis_ahead_start(CS_ARCH_X86, CS_MODE_64, true, &(struct dis_span){ b, 4096, 0 },
				    1, 1));
	free(b);
}

/*
 * Functions walked one after the other (share's callees): spans of 1 byte to
 * 9 KB of a static binary's bytes at addresses of their own, some sharing
 * an address with another of another length; walked in order, and with some
 * walked twice, some skipped, some after later ones.
 */
static void spans(void **state)
{
	size_t len, n = 0, cap = 4096;
	uint8_t *b = fixture_bytes("share/dispatch.static", &len);
	struct dis_span *v = malloc(cap * sizeof(*v));
	uint64_t x = 88172645463325252ULL;
	struct walker w;

	(void)state;
	assert_non_null(v);
	for (size_t off = 0; off < len && n < cap;) {
		size_t l;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		l = x % 8 ? 1 + x % 2000 : 1 + x % 9000;
		l = l < len - off ? l : len - off;
		v[n++] = (struct dis_span){ b + off, l, 0x400000 + off * 2 };
		if (x % 61 == 0 && n < cap)	/* the same address, a shorter length */
			v[n++] = (struct dis_span){ b + off, l / 2 + 1, 0x400000 + off * 2 };
		off += l + x % 5;
	}
	walker_open(&w, &x86, v, n);
	for (size_t i = 0; i < n; i++)
		walk(&w, &v[i], "spans in order");
	assert_true(walker_close(&w, "spans in order") >= 95);
	walker_open(&w, &x86, v, n);
	for (size_t i = 0; i < n; i++) {
		if (i % 17 == 3)
			continue;			/* skipped */
		walk(&w, &v[i], "spans out of order");
		if (i % 23 == 5)
			walk(&w, &v[i], "spans out of order");	/* again */
		if (i % 29 == 7 && i > 40)
			walk(&w, &v[i - 40], "spans out of order");	/* an earlier one */
	}
	assert_true(walker_close(&w, "spans out of order") >= 80);
	free(v);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
		cmocka_unit_test(random_bytes),
		cmocka_unit_test(spans),
	};

	mycl_tuning__set(&(struct mycl_tuning){ .sz = sizeof(struct mycl_tuning),
						.decode_ahead = MYCL_SWITCH_ON });
	return cmocka_run_group_tests(tests, NULL, NULL);
}
