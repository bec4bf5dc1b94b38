/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The register flow at blocks no fall-through reaches (x86_64, mycl-share's
 * facts): an address one arm put in a register does not follow into a block
 * placed after that arm's jump back or return (it is reached from elsewhere,
 * where the register held something else), padding between them included;
 * one set before a loop does follow into the loop's body placed after a
 * forward jump to its test; a cold block after a return starts from what
 * every branch to it agrees on, scratch registers too.  The code is
 * assembled from the source beside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <elf.h>
#include <cmocka.h>
#include "disasm.h"
#include "insn.h"

#define BASE 0x400000

static const uint8_t code[] = {
	/* f1: */
	0x48, 0x89, 0xfb,			/* 00 mov %rdi,%rbx */
	0x85, 0xf6,				/* 03 test %esi,%esi */
	0x75, 0x27,				/* 05 jne 2e (.Lcold) */
	0x83, 0xfe, 0x01, 0x74, 0x0f,		/* 07 cmp $1,%esi; je 1b */
	0x83, 0xfe, 0x02, 0x74, 0x0a,		/* 0c cmp $2,%esi; je 1b */
	0x83, 0xfe, 0x03, 0x74, 0x05,		/* 11 cmp $3,%esi; je 1b */
	0x83, 0xfe, 0x04, 0x74, 0x00,		/* 16 cmp $4,%esi; je 1b */
	0x48, 0x8d, 0x1d, 0x00, 0x10, 0x00, 0x00,	/* 1b lea 0x1000(%rip),%rbx: 0x1022 */
	0x48, 0xc7, 0x03, 0x01, 0x00, 0x00, 0x00,	/* 22 movq $1,(%rbx) */
	0xeb, 0xd5,				/* 29 jmp 0 (back) */
	0x0f, 0x1f, 0x00,			/* 2b nopl (%rax): padding */
	0x48, 0x83, 0x43, 0x40, 0x01,		/* 2e addq $1,0x40(%rbx): %rbx is the argument */
	0xc3,					/* 33 ret */
	/* f2: */
	0x85, 0xff,				/* 34 test %edi,%edi */
	0x74, 0x15,				/* 36 je 4d */
	0x48, 0x8d, 0x1d, 0x00, 0x10, 0x00, 0x00,	/* 38 lea 0x1000(%rip),%rbx: 0x103f */
	0xeb, 0x07,				/* 3f jmp 48 (forward, to the loop's test) */
	0x0f, 0x1f, 0x00,			/* 41 nopl (%rax): padding */
	0x48, 0x83, 0x03, 0x01,			/* 44 addq $1,(%rbx): the loop's body */
	0x83, 0xef, 0x01,			/* 48 sub $1,%edi */
	0x75, 0xf7,				/* 4b jne 44 */
	0xc3,					/* 4d ret */
	/* f3: */
	0x85, 0xf6,				/* 4e test %esi,%esi */
	0x74, 0x0e,				/* 50 je 60 */
	0x4c, 0x8d, 0x05, 0x00, 0x10, 0x00, 0x00,	/* 52 lea 0x1000(%rip),%r8: 0x1059 */
	0x49, 0x8b, 0x00,			/* 59 mov (%r8),%rax */
	0xc3,					/* 5c ret */
	0x0f, 0x1f, 0x00,			/* 5d nopl (%rax): padding */
	0x41, 0x83, 0x08, 0x02,			/* 60 orl $2,(%r8): %r8 not set on this path */
	0xc3,					/* 64 ret */
	/* f4: a cold block after the return, two branches to it agreeing */
	0x4c, 0x8d, 0x05, 0x00, 0x10, 0x00, 0x00,	/* 65 lea 0x1000(%rip),%r8: 0x106c */
	0x85, 0xf6,				/* 6c test %esi,%esi */
	0x74, 0x06,				/* 6e je 76 */
	0x85, 0xff,				/* 70 test %edi,%edi */
	0x74, 0x02,				/* 72 je 76 */
	0xc3,					/* 74 ret */
	0x90,					/* 75 nop: padding */
	0x41, 0x83, 0x00, 0x01,			/* 76 addl $1,(%r8): both branches' %r8 */
	0xc3,					/* 7a ret */
	/* f5: the same, the second branch with another %r8 */
	0x4c, 0x8d, 0x05, 0x00, 0x10, 0x00, 0x00,	/* 7b lea 0x1000(%rip),%r8: 0x1082 */
	0x85, 0xf6,				/* 82 test %esi,%esi */
	0x74, 0x0d,				/* 84 je 93 */
	0x4c, 0x8d, 0x05, 0x00, 0x20, 0x00, 0x00,	/* 86 lea 0x2000(%rip),%r8: 0x208d */
	0x85, 0xff,				/* 8d test %edi,%edi */
	0x74, 0x02,				/* 8f je 93 */
	0xc3,					/* 91 ret */
	0x90,					/* 92 nop: padding */
	0x41, 0x83, 0x00, 0x01,			/* 93 addl $1,(%r8): the branches disagree */
	0xc3,					/* 97 ret */
	/* f6: a scratch register set after the first branch, changed before the return */
	0x85, 0xf6,				/* 98 test %esi,%esi */
	0x74, 0x1b,				/* 9a je b7 */
	0x4c, 0x8d, 0x05, 0x00, 0x10, 0x00, 0x00,	/* 9c lea 0x1000(%rip),%r8: 0x10a3 */
	0x85, 0xff,				/* a3 test %edi,%edi */
	0x74, 0x0c,				/* a5 je b3 */
	0x4c, 0x8d, 0x05, 0x00, 0x20, 0x00, 0x00,	/* a7 lea 0x2000(%rip),%r8: 0x20ae */
	0x49, 0x8b, 0x00,			/* ae mov (%r8),%rax */
	0xc3,					/* b1 ret */
	0x90,					/* b2 nop: padding */
	0x41, 0x83, 0x00, 0x01,			/* b3 addl $1,(%r8): the branch's %r8 */
	0xc3,					/* b7 ret */
};

static const uint64_t starts[] = { BASE + 0x00, BASE + 0x34, BASE + 0x4e, BASE + 0x65,
				   BASE + 0x7b, BASE + 0x98 };

struct seen {
	uint64_t data[sizeof(code)];	/* by offset: the address each instruction touches */
};

static int on_insn(const struct insn *in, void *arg)
{
	struct seen *s = arg;

	if (in->addr >= BASE && in->addr < BASE + sizeof(code))
		s->data[in->addr - BASE] = in->data;
	return 0;
}

static void read_all(struct seen *s, bool share)
{
	struct disasm *d;

	memset(s, 0, sizeof(*s));
	assert_int_equal(disasm_open(&d, EM_X86_64, false, 0), 0);
	disasm_set_share_facts(d, share);
	disasm_set_lock_facts(d, !share);
	disasm_set_starts(d, starts, sizeof(starts) / sizeof(starts[0]));
	assert_int_equal(disasm_iter(d, code, sizeof(code), BASE, on_insn, s), 0);
	disasm_set_starts(d, NULL, 0);
	disasm_close(d);
}

static void arms(void **state)
{
	struct seen s;

	(void)state;
	for (int share = 0; share < 2; share++) {
		read_all(&s, share);
		/* The arm's own store is the global's. */
		assert_int_equal(s.data[0x22], BASE + 0x1022);
		/* After its jump back, a block some other branch reaches: not the global. */
		assert_int_equal(s.data[0x2e], 0);
		/* A loop's body after a forward jump to its test: the address set before the loop. */
		assert_int_equal(s.data[0x44], BASE + 0x103f);
		/* A scratch register set in an arm that returned: unknown in the next block. */
		assert_int_equal(s.data[0x59], BASE + 0x1059);
		assert_int_equal(s.data[0x60], 0);
		/* A cold block two branches reach, both with the same scratch register: theirs. */
		assert_int_equal(s.data[0x76], BASE + 0x106c);
		/* ... with different ones: unknown. */
		assert_int_equal(s.data[0x93], 0);
		/* One branch to it, its scratch register set after the function's first branch. */
		assert_int_equal(s.data[0xae], BASE + 0x20ae);
		assert_int_equal(s.data[0xb3], BASE + 0x10a3);
	}
}

/*
 * A store back of what was loaded from a variable, changed, past the branch
 * of a test between (store_self: "if (n < max) n++", no new value), and a
 * store of another register after a test (a new value).  aarch64's compare
 * writes only the flags: the register it reads keeps what it holds.
 */
static const uint8_t self_x86[] = {
	0x48, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00,	/* 00 mov 0x1000(%rip),%rax: 0x1007 */
	0x48, 0x3d, 0x3f, 0x42, 0x0f, 0x00,		/* 07 cmp $999999,%rax */
	0x7f, 0x0b,					/* 0d jg 1a */
	0x48, 0x83, 0xc0, 0x01,				/* 0f add $1,%rax */
	0x48, 0x89, 0x05, 0xed, 0x0f, 0x00, 0x00,	/* 13 mov %rax,0xfed(%rip): 0x1007 */
	0x48, 0x8b, 0x15, 0x00, 0x10, 0x00, 0x00,	/* 1a mov 0x1000(%rip),%rdx: 0x1021 */
	0x48, 0x83, 0xfa, 0x04,				/* 21 cmp $4,%rdx */
	0x7e, 0x07,					/* 25 jle 2e */
	0x48, 0x89, 0x0d, 0xf3, 0x0f, 0x00, 0x00,	/* 27 mov %rcx,0xff3(%rip): 0x1021 */
	0xc3,						/* 2e ret */
};

static const uint32_t self_a64[] = {
	0x90000001,	/* 00 adrp x1, . */
	0x91040021,	/* 04 add x1, x1, #0x100 */
	0xf9408020,	/* 08 ldr x0, [x1, #256] */
	0xeb1a001f,	/* 0c cmp x0, x26 */
	0x5400006c,	/* 10 b.gt 1c */
	0x91000400,	/* 14 add x0, x0, #1 */
	0xf9008020,	/* 18 str x0, [x1, #256] */
	0xf9408422,	/* 1c ldr x2, [x1, #264] */
	0xf100105f,	/* 20 cmp x2, #4 */
	0x5400004d,	/* 24 b.le 2c */
	0xf9008423,	/* 28 str x3, [x1, #264] */
	0xd65f03c0,	/* 2c ret */
};

struct selfs {
	bool self[64], counter[64];
	uint64_t data[64];
};

static int on_self(const struct insn *in, void *arg)
{
	struct selfs *s = arg;

	if (in->addr >= BASE && in->addr < BASE + 64) {
		s->self[in->addr - BASE] = in->store_self;
		s->counter[in->addr - BASE] = in->counter_op;
		s->data[in->addr - BASE] = in->data;
	}
	return 0;
}

/* MACHINE's code at BASE, one function, read with mycl-share's facts into S. */
static void read_self(uint16_t machine, const uint8_t *bytes, size_t len, struct selfs *s)
{
	struct disasm *d;
	uint64_t start = BASE;

	memset(s, 0, sizeof(*s));
	assert_int_equal(disasm_open(&d, machine, false, 0), 0);
	disasm_set_share_facts(d, true);
	disasm_set_starts(d, &start, 1);
	assert_int_equal(disasm_iter(d, bytes, len, BASE, on_self, s), 0);
	disasm_set_starts(d, NULL, 0);
	disasm_close(d);
}

static void stored_self(void **state)
{
	struct selfs s;
	uint8_t a64[sizeof(self_a64)];

	(void)state;
	read_self(EM_X86_64, self_x86, sizeof(self_x86), &s);
	assert_int_equal(s.data[0x13], BASE + 0x1007);
	assert_true(s.self[0x13]);
	assert_false(s.counter[0x13]);	/* (a branch between: no plain counter's load and store) */
	assert_int_equal(s.data[0x27], BASE + 0x1021);
	assert_false(s.self[0x27]);

	for (size_t i = 0; i < sizeof(self_a64) / 4; i++) {
		a64[4 * i] = (uint8_t)self_a64[i];
		a64[4 * i + 1] = (uint8_t)(self_a64[i] >> 8);
		a64[4 * i + 2] = (uint8_t)(self_a64[i] >> 16);
		a64[4 * i + 3] = (uint8_t)(self_a64[i] >> 24);
	}
	read_self(EM_AARCH64, a64, sizeof(a64), &s);
	assert_int_equal(s.data[0x18], BASE + 0x200);
	assert_true(s.self[0x18]);
	assert_int_equal(s.data[0x28], BASE + 0x208);
	assert_false(s.self[0x28]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arms),
		cmocka_unit_test(stored_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
