/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86quick.c decodes what it decodes as capstone 4 does: the same size, id,
 * mnemonic, implicit registers, groups, prefixes and operands (type, value,
 * size, access) at every instruction of the fixtures' x86_64 code and of
 * random bytes, and decodes nothing where capstone decodes nothing.
 * MYCL_X86LEN_FILES (colon-separated) adds binaries (mariadbd, libc, ...).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <capstone/capstone.h>
#include "test_util.h"
#include "x86_code.h"
#include "x86quick.h"

struct tally {
	size_t insns, quick, wrong;
};

#define WRONG(t, ...) do { if ((t)->wrong++ < 30) print_error(__VA_ARGS__); } while (0)

static const char *hex(const uint8_t *p, size_t left)
{
	static char buf[48];

	buf[0] = '\0';
	for (size_t i = 0; i < left && i < 15; i++)
		snprintf(buf + 3 * i, 4, "%02x ", p[i]);
	return buf;
}

static bool same_list(const uint16_t *a, uint8_t na, const uint16_t *b, uint8_t nb)
{
	return na == nb && !memcmp(a, b, na * sizeof(*a));
}

static bool same_op(const cs_x86_op *a, const cs_x86_op *b)
{
	if (a->type != b->type || a->size != b->size || a->access != b->access)
		return false;
	switch (a->type) {
	case X86_OP_REG: return a->reg == b->reg;
	case X86_OP_IMM: return a->imm == b->imm;
	case X86_OP_MEM:
		return a->mem.segment == b->mem.segment && a->mem.base == b->mem.base &&
		       a->mem.index == b->mem.index && a->mem.scale == b->mem.scale &&
		       a->mem.disp == b->mem.disp;
	default: return true;
	}
}

/* What differs between capstone's CI and ours, or NULL. */
static const char *differs(csh cs, const cs_insn *ci, const cs_insn *q)
{
	const cs_detail *a = ci->detail, *b = q->detail;
	cs_regs ra, wa, rb, wb;
	uint8_t nra, nwa, nrb, nwb;

	if (ci->size != q->size)
		return "size";
	if (ci->id != q->id)
		return "id";
	if (ci->address != q->address)
		return "address";
	if (strcmp(ci->mnemonic, q->mnemonic))
		return "mnemonic";
	if (memcmp(ci->bytes, q->bytes, ci->size))
		return "bytes";
	if (!same_list(a->regs_read, a->regs_read_count, b->regs_read, b->regs_read_count))
		return "implicit reads";
	if (!same_list(a->regs_write, a->regs_write_count, b->regs_write, b->regs_write_count))
		return "implicit writes";
	if (a->groups_count != b->groups_count || memcmp(a->groups, b->groups, a->groups_count))
		return "groups";
	if (memcmp(a->x86.prefix, b->x86.prefix, sizeof(a->x86.prefix)))
		return "prefixes";
	if (a->x86.rex != b->x86.rex)
		return "rex";
	if (a->x86.op_count != b->x86.op_count)
		return "operand count";
	for (int i = 0; i < a->x86.op_count; i++)
		if (!same_op(&a->x86.operands[i], &b->x86.operands[i]))
			return "operand";
	/* and what the lock analysis asks capstone of it */
	if (cs_regs_access(cs, ci, ra, &nra, wa, &nwa) != cs_regs_access(cs, q, rb, &nrb, wb, &nwb) ||
	    !same_list(ra, nra, rb, nrb) || !same_list(wa, nwa, wb, nwb))
		return "registers accessed";
	for (int g = 1; g < 256; g++)
		if (cs_insn_group(cs, ci, (unsigned)g) != cs_insn_group(cs, q, (unsigned)g))
			return "cs_insn_group";
	return NULL;
}

/* One instruction at P: capstone's answer against ours. */
static void check_one(csh cs, cs_insn *ci, cs_insn *q, cs_detail *qd, const uint8_t *p,
		      size_t left, uint64_t pc, const char *path, struct tally *t)
{
	const uint8_t *cp = p;
	size_t cleft = left;
	uint64_t cpc = pc;
	bool theirs = cs_disasm_iter(cs, &cp, &cleft, &cpc, ci);
	size_t ours = x86_quick(p, left, pc, q, qd);
	const char *what;

	t->insns += theirs;
	t->quick += ours != 0;
	if (!ours)
		return;
	if (!theirs)
		WRONG(t, "%s: %#lx: %s: decoded here, not by capstone\n", path, (unsigned long)pc,
		      hex(p, left));
	else if ((what = differs(cs, ci, q)))
		WRONG(t, "%s: %#lx: %s: %s %s: %s differs (ours: %s)\n", path, (unsigned long)pc,
		      hex(p, ci->size), ci->mnemonic, ci->op_str, what, q->mnemonic);
}

static void check_code(csh cs, const uint8_t *code, size_t len, uint64_t addr, const char *path,
		       struct tally *t)
{
	cs_insn *ci = cs_malloc(cs), q;
	cs_detail qd;
	const uint8_t *p = code;
	size_t left = len;
	uint64_t pc = addr;

	assert_non_null(ci);
	while (left) {
		const uint8_t *at = p;
		uint64_t at_pc = pc;
		size_t at_left = left;

		if (!cs_disasm_iter(cs, &p, &left, &pc, ci)) {
			p++, pc++, left--;
			continue;
		}
		check_one(cs, ci, &q, &qd, at, at_left, at_pc, path, t);
	}
	cs_free(ci, 1);
}

static csh open_cs(void)
{
	csh cs;

	assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_64, &cs), CS_ERR_OK);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	return cs;
}

struct file_check {
	csh cs;
	const char *path;
	struct tally t;
};

static void check_section(const uint8_t *code, size_t len, uint64_t addr, void *ctx)
{
	struct file_check *fc = ctx;

	check_code(fc->cs, code, len, addr, fc->path, &fc->t);
}

static void check_file(const char *path, bool compiled)
{
	struct file_check fc = { .cs = open_cs(), .path = path };

	if (!x86_code_sections(path, check_section, &fc)) {
		cs_close(&fc.cs);
		return;
	}
	cs_close(&fc.cs);
	print_message("%s: %zu instructions, %zu decoded here (%.1f%%)\n", path, fc.t.insns,
		      fc.t.quick, fc.t.insns ? 100.0 * fc.t.quick / fc.t.insns : 0);
	/* compiled code is mostly these forms, or the decoder would spare little */
	if (compiled)
		assert_true(fc.t.quick * 100 >= fc.t.insns * 70);
	assert_int_equal(fc.t.wrong, 0);
}

static void test_fixtures(void **state)
{
	(void)state;
	assert_non_null(getenv("MYCL_TEST_DATA"));
	for (size_t i = 0; i < NR_X86_FIXTURES; i++)
		check_file(fixture(x86_fixtures[i]), true);
}

static void check_listed(const char *path, void *ctx)
{
	(void)ctx;
	check_file(path, false);
}

static void test_more(void **state)
{
	(void)state;
	if (!for_each_listed("MYCL_X86LEN_FILES", check_listed, NULL))
		skip();
}

/*
 * Random bytes, biased towards prefixes, the opcodes decoded here and
 * ModRM and SIB forms: every decoding is capstone's, at every length.
 */
static void random_bytes(void **state)
{
	static const uint8_t bias[] = { 0xf0, 0xf2, 0xf3, 0x66, 0x67, 0x2e, 0x64, 0x48, 0x4c,
					0x41, 0x40, 0x45, 0x0f, 0x1f, 0x38, 0x89, 0x8b, 0x8d,
					0x88, 0x8a, 0xc7, 0xc6, 0x80, 0x81, 0x83, 0xff, 0xfe,
					0xf7, 0xe8, 0xe9, 0xeb, 0x74, 0x85, 0x84, 0x63, 0xb6,
					0xbf, 0xaf, 0x44, 0x45, 0x04, 0x05, 0x24, 0x25, 0x84,
					0x94, 0x65, 0xe5, 0xc4, 0x55, 0x5d, 0xc3, 0x90, 0xc9,
					0x01, 0x03, 0x31, 0x39, 0x3b, 0x29, 0x21, 0x09, 0x6b };
	struct tally t = { 0 };
	csh cs = open_cs();
	cs_insn *ci = cs_malloc(cs), q;
	cs_detail qd;
	uint8_t b[16];

	(void)state;
	srand(getenv("MYCL_X86LEN_SEED") ? (unsigned)atoi(getenv("MYCL_X86LEN_SEED")) : 5);
	for (int n = 0, runs = getenv("MYCL_X86LEN_RUNS") ? atoi(getenv("MYCL_X86LEN_RUNS")) : 300000;
	     n < runs; n++) {
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (uint8_t)(rand() % 3 ? bias[rand() % sizeof(bias)] : rand());
		check_one(cs, ci, &q, &qd, b, 1 + (size_t)rand() % sizeof(b),
			  (uint64_t)rand() << 20, "random", &t);
	}
	cs_free(ci, 1);
	cs_close(&cs);
	print_message("random: %zu instructions, %zu decoded here\n", t.insns, t.quick);
	assert_int_equal(t.wrong, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(random_bytes),
		cmocka_unit_test(test_more),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
