/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * disasm_iter_piped hands the caller the instructions disasm_iter gives, in
 * the same order, with the walk on a thread of its own; a callback's error
 * stops both sides and comes back, however far ahead the walk is.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "mycl/tuning.h"
#include "test_util.h"
#include "disasm.h"
#include "elfimage.h"

struct seen {
	struct insn *v;
	size_t n, cap;
	size_t stop_at;			/* fail with -EIO at this call (0: never) */
	uint64_t sum;			/* what a scan would read of each */
};

static int keep(const struct insn *in, void *arg)
{
	struct seen *s = arg;

	if (s->stop_at && s->n + 1 == s->stop_at)
		return -EIO;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		assert_non_null(s->v);
	}
	memcpy(&s->v[s->n++], in, sizeof(*in));
	s->sum += in->addr ^ in->data ^ in->target ^ in->access ^ (uint64_t)in->indexed << 9;
	return 0;
}

/* The fields mycl-share reads, alike (not text, which a walk without it leaves out). */
static void same_insns(const struct seen *a, const struct seen *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		assert_memory_equal(&a->v[i], &b->v[i], INSN_NO_TEXT_SIZE);
	assert_true(a->sum == b->sum);
}

static int walk_code(uint64_t addr, const uint8_t *bytes, size_t len, void *arg)
{
	void **ctx = arg;
	struct disasm *d = ctx[0];
	struct seen *s = ctx[1];
	bool piped = ctx[2] != NULL;

	return piped ? disasm_iter_piped(d, bytes, len, addr, keep, s) :
		       disasm_iter(d, bytes, len, addr, keep, s);
}

static int run(struct elf_image *img, bool piped, struct seen *s)
{
	struct disasm *d;
	void *ctx[3];
	int err;

	assert_int_equal(disasm_for_image(&d, img), 0);
	disasm_set_text(d, false);
	disasm_set_share_facts(d, true);
	ctx[0] = d, ctx[1] = s, ctx[2] = piped ? (void *)1 : NULL;
	err = elf_image_for_each_code(img, walk_code, ctx);
	disasm_close(d);
	return err;
}

static void same_as_disasm_iter(void **state)
{
	static const char *const files[] = { "share/truth.static", "share/dispatch.static" };

	(void)state;
	mycl_tuning__set(&(struct mycl_tuning){ .sz = sizeof(struct mycl_tuning),
						.scan_thread = MYCL_SWITCH_ON });
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct elf_image *img;
		struct seen plain = { 0 }, piped = { 0 };

		assert_int_equal(elf_image_open(fixture(files[i]), &img), 0);
		assert_int_equal(elf_image_read_relocs(img), 0);
		assert_int_equal(run(img, false, &plain), 0);
		assert_int_equal(run(img, true, &piped), 0);
		print_message("%s: %zu instructions\n", files[i], plain.n);
		assert_true(plain.n > 100000);	/* (many hand-overs: batches of 256) */
		same_insns(&plain, &piped);
		free(plain.v);
		free(piped.v);
		elf_image_close(img);
	}
}

/* A callback's error at the first, a middle and the last but one of a batch, and late. */
static void error_stops_both(void **state)
{
	static const size_t at[] = { 1, 2, 255, 256, 257, 4096, 50001, 100000 };
	struct elf_image *img;
	struct seen all = { 0 };

	(void)state;
	mycl_tuning__set(&(struct mycl_tuning){ .sz = sizeof(struct mycl_tuning),
						.scan_thread = MYCL_SWITCH_ON });
	assert_int_equal(elf_image_open(fixture("share/truth.static"), &img), 0);
	assert_int_equal(elf_image_read_relocs(img), 0);
	assert_int_equal(run(img, false, &all), 0);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct seen s = { .stop_at = at[i] };

		assert_int_equal(run(img, true, &s), -EIO);
		assert_int_equal(s.n, at[i] - 1);
		/* what came before the error, as disasm_iter gave it */
		for (size_t k = 0; k < s.n; k++)
			assert_memory_equal(&s.v[k], &all.v[k], INSN_NO_TEXT_SIZE);
		free(s.v);
	}
	free(all.v);
	elf_image_close(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_disasm_iter),
		cmocka_unit_test(error_stops_both),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
