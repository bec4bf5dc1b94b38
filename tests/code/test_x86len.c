/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86len.c measures every instruction capstone decodes in the fixtures'
 * x86_64 code as capstone does, never measures what capstone cannot decode,
 * and finds every compare-and-swap, exchange with memory, pause and syscall.
 * MYCL_X86LEN_FILES (colon-separated) adds binaries (mariadbd, libc, ...).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>
#include <capstone/capstone.h>
#include <gelf.h>
#include "test_util.h"
#include "x86_code.h"
#include "disasm.h"
#include "x86len.h"

struct tally {
	size_t insns, measured, locky, wrong;
};

/* Every disagreement is printed (up to 20 a file), then the file fails. */
#define WRONG(t, ...) do { if ((t)->wrong++ < 20) print_error(__VA_ARGS__); } while (0)

/* The bytes at P (up to 12 of LEFT) in hex, for the messages. */
static const char *hex(const uint8_t *p, size_t left)
{
	static char buf[40];

	buf[0] = '\0';
	for (size_t i = 0; i < left && i < 12; i++)
		snprintf(buf + 3 * i, 4, "%02x ", p[i]);
	return buf;
}

/* A lock fact as capstone decodes it: exchange with memory, locked CAS or bts, pause, syscall. */
static bool cs_locky(const cs_insn *ci)
{
	return (ci->detail->x86.prefix[0] == X86_PREFIX_LOCK &&
		(ci->id == X86_INS_CMPXCHG || ci->id == X86_INS_CMPXCHG8B ||
		 ci->id == X86_INS_CMPXCHG16B || ci->id == X86_INS_BTS)) ||
	       ci->id == X86_INS_PAUSE || ci->id == X86_INS_SYSCALL ||
	       (ci->id == X86_INS_XCHG && ci->detail->x86.op_count == 2 &&
		(ci->detail->x86.operands[0].type == X86_OP_MEM ||
		 ci->detail->x86.operands[1].type == X86_OP_MEM));
}

static size_t lib_size(const uint8_t *insn, size_t left, unsigned int *facts, void *arg)
{
	return disasm_insn_size(arg, insn, left, 0x1000, facts);
}

/*
 * Windows of CODE from instruction starts (as capstone walks it), up to 512
 * bytes: where x86_64_may_touch_locks_with() with the library's decoder for
 * what it does not know says none, capstone's walk of the window (one byte
 * skipped where it cannot decode, AVX-512 mask moves among them) finds none.
 */
static void check_windows(csh cs, struct disasm *dis, const uint8_t *code, size_t len,
			  const char *path, struct tally *t, size_t *none)
{
	cs_insn *ci = cs_malloc(cs);
	const uint8_t *p = code;
	size_t left = len, k = 0;
	uint64_t pc = 0x1000;

	assert_non_null(ci);
	while (left) {
		const uint8_t *at = p;
		size_t wlen = left < 512 ? left : 512;

		if (!cs_disasm_iter(cs, &p, &left, &pc, ci)) {
			p++, pc++, left--;
			continue;
		}
		if (k++ % 37)
			continue;
		if (!x86_64_may_touch_locks_with(at, wlen, lib_size, dis)) {
			const uint8_t *q = at;
			size_t l = wlen;
			uint64_t qpc = 0x1000;

			(*none)++;
			while (l) {
				const uint8_t *qat = q;

				if (!cs_disasm_iter(cs, &q, &l, &qpc, ci)) {
					q++, qpc++, l--;
					continue;
				}
				if (cs_locky(ci))
					WRONG(t, "%s: +%#lx: none said, capstone reads %s %s at +%#lx\n",
					      path, (unsigned long)(at - code), ci->mnemonic, ci->op_str,
					      (unsigned long)(qat - code));
			}
		}
	}
	cs_free(ci, 1);
}

/* Walks CODE as disasm.c does: capstone, one byte skipped where it cannot decode. */
static void check_code(csh cs, const uint8_t *code, size_t len, uint64_t addr, const char *path,
		       struct tally *t, bool first_only)
{
	cs_insn *ci = cs_malloc(cs);
	const uint8_t *p = code;
	size_t left = len;
	uint64_t pc = addr;

	assert_non_null(ci);
	while (left && !(first_only && p != code)) {
		const uint8_t *at = p;
		uint64_t at_pc = pc;
		size_t mine = x86_64_insn_len(at, left);
		bool locky, theirs_locky;

		if (!cs_disasm_iter(cs, &p, &left, &pc, ci)) {
			if (mine)
				WRONG(t, "%s: %#lx: measured %zu bytes, capstone cannot decode it: %s\n",
				      path, (unsigned long)at_pc, mine, hex(at, left));
			p++, pc++, left--;
			continue;
		}
		t->insns++;
		if (!mine)
			continue;
		t->measured++;
		if (mine != ci->size)
			WRONG(t, "%s: %#lx: measured %zu bytes, capstone %u (%s %s): %s\n", path,
			      (unsigned long)at_pc, mine, ci->size, ci->mnemonic, ci->op_str,
			      hex(at, mine));
		theirs_locky = cs_locky(ci);
		locky = x86_64_may_touch_locks(at, mine);
		t->locky += theirs_locky;
		if (theirs_locky && !locky)
			WRONG(t, "%s: %#lx: %s %s not seen as a lock fact\n", path,
			      (unsigned long)at_pc, ci->mnemonic, ci->op_str);
	}
	cs_free(ci, 1);
}

struct file_check {
	csh cs;
	struct disasm *dis;
	const char *path;
	struct tally t;
	size_t none;
};

static void check_section(const uint8_t *code, size_t len, uint64_t addr, void *ctx)
{
	struct file_check *fc = ctx;

	check_code(fc->cs, code, len, addr, fc->path, &fc->t, false);
	check_windows(fc->cs, fc->dis, code, len, fc->path, &fc->t, &fc->none);
}

static void check_file(const char *path, bool compiled)
{
	struct file_check fc = { .path = path };
	bool x86;

	assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_64, &fc.cs), CS_ERR_OK);
	cs_option(fc.cs, CS_OPT_DETAIL, CS_OPT_ON);
	assert_int_equal(disasm_open(&fc.dis, EM_X86_64, false, 0), 0);
	x86 = x86_code_sections(path, check_section, &fc);
	cs_close(&fc.cs);
	disasm_close(fc.dis);
	if (!x86)
		return;
	/*
	 * Most of compiled code is measured, or the scan would rarely spare a
	 * decoding (hand-written SIMD libraries are mostly VEX: left to capstone).
	 */
	print_message("%s: %zu instructions, %zu measured (%.2f%%), %zu lock facts, "
		      "%zu windows without\n", path, fc.t.insns, fc.t.measured,
		      fc.t.insns ? 100.0 * fc.t.measured / fc.t.insns : 0, fc.t.locky, fc.none);
	if (compiled)
		assert_true(fc.t.measured * 100 >= fc.t.insns * 90);
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
 * Random bytes, biased towards prefixes, escapes and ModRM forms: wherever a
 * length is measured, capstone decodes an instruction of that length, and
 * finds no lock fact the scan missed.
 */
static void random_bytes(void **state)
{
	static const uint8_t bias[] = { 0xf0, 0xf2, 0xf3, 0x66, 0x67, 0x2e, 0x48, 0x4c, 0x41,
					0x0f, 0x38, 0x3a, 0x87, 0x86, 0x90, 0xc7, 0xc6, 0xf6,
					0xf7, 0xff, 0x05, 0xba, 0xb1, 0x04, 0x24, 0x25, 0x44,
					0x84, 0x05, 0xc4, 0xc5, 0x62, 0x8d, 0xe8, 0xd8 };
	struct tally t = { 0 };
	struct disasm *dis;
	size_t none = 0;
	csh cs;
	uint8_t b[16];

	(void)state;
	assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_64, &cs), CS_ERR_OK);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	assert_int_equal(disasm_open(&dis, EM_X86_64, false, 0), 0);
	srand(getenv("MYCL_X86LEN_SEED") ? (unsigned)atoi(getenv("MYCL_X86LEN_SEED")) : 3);
	for (int n = 0, runs = getenv("MYCL_X86LEN_RUNS") ? atoi(getenv("MYCL_X86LEN_RUNS")) : 300000;
	     n < runs; n++) {
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (uint8_t)(rand() % 2 ? bias[rand() % sizeof(bias)] : rand());
		/* one instruction: capstone's answer at offset 0 against ours */
		check_code(cs, b, 1 + (size_t)rand() % sizeof(b), 0x1000, "random", &t, true);
		/* the bytes as a walk, the library's decoder measuring what the scan does not */
		check_windows(cs, dis, b, sizeof(b), "random", &t, &none);
	}
	print_message("random: %zu windows without lock facts\n", none);
	disasm_close(dis);
	cs_close(&cs);
	print_message("random: %zu instructions, %zu measured\n", t.insns, t.measured);
	assert_int_equal(t.wrong, 0);
}

/* Hand-made cases: prefixes, VEX, the forms it leaves to capstone. */
static void test_cases(void **state)
{
	static const struct {
		const char *bytes;
		size_t len, want;
		bool locky;
	} c[] = {
		{ "\xf0\x48\x0f\xb1\x15\x00\x00\x00\x00", 9, 9, true },	/* lock cmpxchg %rdx,x(%rip) */
		{ "\xf0\x48\x83\x05\x00\x00\x00\x00\x01", 9, 9, false },	/* lock addq $1,x(%rip) */
		{ "\xf0\x0f\xc1\x07", 4, 4, false },			/* lock xadd %eax,(%rdi) */
		{ "\xf0\x0f\xba\x2f\x00", 5, 5, true },		/* lock btsl $0,(%rdi) */
		{ "\xf0\x09\xc7", 3, 0, false },			/* lock on a register: invalid */
		{ "\xf0\x39\x07", 3, 0, false },			/* lock cmp: invalid */
		{ "\x48\x0f\xb1\x15\x00\x00\x00\x00", 8, 8, false },	/* cmpxchg %rdx,x(%rip) */
		{ "\x48\x87\x07", 3, 3, true },				/* xchg %rax,(%rdi) */
		{ "\x48\x87\xc7", 3, 3, false },			/* xchg %rax,%rdi */
		{ "\xf3\x90", 2, 2, true },				/* pause */
		{ "\x0f\x05", 2, 2, true },				/* syscall */
		{ "\x90", 1, 1, false },
		{ "\x48\xb8\x01\x02\x03\x04\x05\x06\x07\x08", 10, 10, false },	/* movabs */
		{ "\x66\xb8\x01\x02", 4, 4, false },			/* mov $0x201,%ax */
		{ "\x66\x81\x07\x01\x02", 5, 5, false },		/* addw $0x201,(%rdi) */
		{ "\xf7\x07\x01\x00\x00\x00", 6, 6, false },		/* testl $1,(%rdi) */
		{ "\xf7\x17", 2, 2, false },				/* notl (%rdi) */
		{ "\xc5\xf9\x6f\x04\x24", 5, 0, false },		/* vmovdqa (%rsp),%xmm0: VEX */
		{ "\x8d\xf6", 2, 0, false },				/* lea with no memory */
		{ "\x48\x8d\x04\x24", 4, 4, false },			/* lea (%rsp),%rax */
		{ "\x62\xf1\x7d\x48\x6f\x44\x24\x01", 8, 0, false },	/* EVEX: capstone's */
		{ "\x8b\x44\x24", 3, 0, false },			/* cut short */
		{ "\x06", 1, 0, false },				/* invalid in 64-bit mode */
		{ "\xa1\x00\x00\x00\x00\x00\x00\x00\x00", 9, 0, false },	/* moffs: capstone's */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const uint8_t *b = (const uint8_t *)c[i].bytes;

		assert_int_equal(x86_64_insn_len(b, c[i].len), c[i].want);
		if (c[i].want)
			assert_int_equal(x86_64_may_touch_locks(b, c[i].len), c[i].locky);
		else
			assert_true(x86_64_may_touch_locks(b, c[i].len));
	}
}

/* x86_64_lock_scan on hand-made code: what it counts, and the loops it bounds. */
static void lock_scan(void **state)
{
	static const struct {
		const char *bytes;
		size_t len;
		bool unknown, pause, syscall;
		size_t atomics;
		uint64_t bound;
	} c[] = {
		/* pause; jmp back to it: a delay loop, no exchange in it */
		{ "\xf3\x90\xeb\xfc", 4, false, true, false, 0, 0 },
		/* lock cmpxchg %edx,(%rdi); jne back to it: a CAS retry of 6 bytes */
		{ "\xf0\x0f\xb1\x17\x75\xfa", 6, false, false, false, 1, 5 },
		/* the same through a 32-bit jne */
		{ "\xf0\x0f\xb1\x17\x0f\x85\xf6\xff\xff\xff", 10, false, false, false, 1, 5 },
		/* xchg %eax,(%rdi); nop; jmp back over both */
		{ "\x87\x07\x90\xeb\xfb", 5, false, false, false, 1, 4 },
		/* lock add (an update: no exchange); jne back */
		{ "\xf0\x83\x07\x01\x75\xfa", 6, false, false, false, 0, 0 },
		/* syscall */
		{ "\x0f\x05\xc3", 3, false, false, true, 0, 0 },
		/* a backward call counts as a branch too */
		{ "\x87\x07\xe8\xf9\xff\xff\xff", 7, false, false, false, 1, 3 },
		/* a forward jne: no loop */
		{ "\x87\x07\x75\x00\x90", 5, false, false, false, 1, 0 },
		/* a branch to before the code: not inside it */
		{ "\x87\x07\x75\xf0", 4, false, false, false, 1, 0 },
		/* EVEX (not measured here, no decoder given): unknown */
		{ "\x62\xf1\x7d\x48\x6f\x44\x24\x01", 8, true, false, false, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct x86_lock_scan sc;

		assert_int_equal(x86_64_lock_scan((const uint8_t *)c[i].bytes, c[i].len, 512, NULL,
						  NULL, &sc), 0);
		assert_int_equal(sc.unknown, c[i].unknown);
		if (c[i].unknown)
			continue;
		assert_int_equal(sc.pause, c[i].pause);
		assert_int_equal(sc.syscall, c[i].syscall);
		assert_int_equal(sc.atomics, c[i].atomics);
		assert_int_equal(sc.loop_bound, c[i].bound);
	}
	/* a loop longer than the span asked for is none */
	{
		uint8_t code[600];
		struct x86_lock_scan sc;

		memset(code, 0x90, sizeof(code));
		memcpy(code, "\x87\x07", 2);
		/* jmp rel32 back to 0 from 595 */
		memcpy(code + 595, "\xe9\xa8\xfd\xff\xff", 5);
		assert_int_equal(x86_64_lock_scan(code, sizeof(code), 512, NULL, NULL, &sc), 0);
		assert_int_equal(sc.loop_bound, 0);
		assert_int_equal(x86_64_lock_scan(code, sizeof(code), 1024, NULL, NULL, &sc), 0);
		assert_int_equal(sc.loop_bound, 596);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(lock_scan),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_more),
		cmocka_unit_test(random_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
