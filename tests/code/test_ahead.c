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

/* Both walks of CODE side by side; the share of steps the decoders ahead gave, in percent. */
static size_t compare_walks(const struct arch *ar, const uint8_t *code, size_t len, uint64_t addr,
			    const char *what)
{
	csh cs, mine;
	cs_insn *want, *own;
	const uint8_t *p = code, *q = code;
	size_t left = len, qleft = len, steps = 0, given = 0;
	uint64_t pc = addr, qpc = addr;
	struct dis_ahead *a;

	assert_int_equal(cs_open(ar->arch, ar->mode, &cs), CS_ERR_OK);
	assert_int_equal(cs_open(ar->arch, ar->mode, &mine), CS_ERR_OK);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(mine, CS_OPT_DETAIL, CS_OPT_ON);
	if (ar->att) {
		cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
		cs_option(mine, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	}
	want = cs_malloc(cs);
	own = cs_malloc(mine);
	a = dis_ahead_start(ar->arch, ar->mode, ar->att, code, len, addr, ar->skip);
	assert_non_null(a);
	while (left) {
		const cs_insn *got = NULL;
		bool ok = cs_disasm_iter(cs, &p, &left, &pc, want);

		/* the walk under test, as disasm_iter walks */
		if (dis_ahead_next(a, qpc, &got)) {
			given++;
		} else if (cs_disasm_iter(mine, &q, &qleft, &qpc, own)) {
			got = own;
			q -= own->size, qleft += own->size, qpc -= own->size;
		}
		if (!!got != ok) {
			print_error("%s: at %#llx capstone %s, the walk ahead %s\n", what,
				    (unsigned long long)qpc, ok ? "decodes" : "does not",
				    got ? "does" : "does not");
			fail();
		}
		if (ok && (got->address != want->address || got->size != want->size ||
			   got->id != want->id || memcmp(got->bytes, want->bytes, want->size) ||
			   strcmp(got->mnemonic, want->mnemonic) || strcmp(got->op_str, want->op_str) ||
			   memcmp(got->detail, want->detail, ar->det))) {
			print_error("%s: at %#llx capstone has '%s %s', the walk ahead '%s %s' at %#llx\n",
				    what, (unsigned long long)want->address, want->mnemonic,
				    want->op_str, got->mnemonic, got->op_str,
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
		steps++;
	}
	dis_ahead_stop(a);
	cs_free(want, 1);
	cs_free(own, 1);
	cs_close(&cs);
	cs_close(&mine);
	print_message("%s: %zu steps, %zu from the decoders ahead\n", what, steps, given);
	return steps ? given * 100 / steps : 0;
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
	/* the walk asking for nothing past a short range: too short to start */
	assert_null(dis_ahead_start(CS_ARCH_X86, CS_MODE_64, true, b, 4096, 0, 1));
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
		cmocka_unit_test(random_bytes),
	};

	setenv("MYCL_DECODE_AHEAD", "on", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
