/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Binaries loaded on the prefetch thread are the binaries dso_load() gives
 * on the reading thread: same status, files, symbols, segments, summary
 * detail and messages, whichever thread loaded them; a loading nobody takes
 * says nothing; the DWARF opened there comes along.  Fixture binaries (gcc
 * and clang, static and PIE) under --symfs, one missing, one of another
 * build-id, one named twice.  Located only (dso_locate(), for an unwinder):
 * the file and segments loading would give.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <mycl/perf_data.h>
#include "test_util.h"
#include "dso.h"
#include "dso_prefetch.h"
#include "inline.h"

#define NR 8

static const char *const paths[NR] = {
	"/mycl-fixtures/locks/queue", "/mycl-fixtures/locks/zoo",
	"/mycl-fixtures/locks/zoo-clang-O0", "/mycl-fixtures/hotloop",
	"/mycl-fixtures/locks/members",
	"/mycl-fixtures/not-there",		/* missing */
	"/mycl-fixtures/deepstack",		/* given another build-id: a mismatch */
	"/mycl-fixtures/locks/queue",		/* named twice */
};

struct said {
	char text[16][512];
	int nr;
};

static void capture(enum mycl_print_level level, const char *msg, void *ctx)
{
	struct said *s = ctx;

	(void)level;
	if (s->nr < 16)
		snprintf(s->text[s->nr++], sizeof(s->text[0]), "%s", msg);
}

static struct mycl_build_id ids[NR];

static void make_ids(void)
{
	for (int i = 0; i < NR; i++) {
		struct elf_found f;
		char full[4096];

		snprintf(full, sizeof(full), "%s%s", fixture("symfs"), paths[i]);
		ids[i] = (struct mycl_build_id){ .pid = -1, .filename = paths[i], .size = 20 };
		if (!elf_probe(full, &f) && f.build_id_size > 0) {
			memcpy(ids[i].id, f.build_id, (size_t)f.build_id_size);
			ids[i].size = (uint8_t)f.build_id_size;
		} else {
			memset(ids[i].id, 0x5a, 20);	/* the missing one */
		}
	}
	ids[6].id[0] ^= 0xff;				/* not the file's */
}

static struct dso *pending(int i)
{
	struct dso *d = dso_new(paths[i], false);

	assert_non_null(d);
	dso_set_build_id(d, ids[i].id, ids[i].size);
	return d;
}

static void assert_same_dso(const struct dso *a, const struct dso *b)
{
	assert_int_equal(a->status, b->status);
	assert_string_equal(a->sym_path ? a->sym_path : "-", b->sym_path ? b->sym_path : "-");
	assert_string_equal(a->runtime_path ? a->runtime_path : "-",
			    b->runtime_path ? b->runtime_path : "-");
	assert_string_equal(a->detail ? a->detail : "-", b->detail ? b->detail : "-");
	assert_int_equal(a->symtab_full, b->symtab_full);
	assert_int_equal(a->nr_segs, b->nr_segs);
	for (size_t i = 0; i < a->nr_segs; i++)
		assert_memory_equal(&a->segs[i], &b->segs[i], sizeof(a->segs[i]));
	assert_int_equal(a->syms.nr, b->syms.nr);
	for (size_t i = 0; i < a->syms.nr; i++) {
		assert_int_equal(a->syms.syms[i].start, b->syms.syms[i].start);
		assert_int_equal(a->syms.syms[i].end, b->syms.syms[i].end);
	}
	assert_int_equal(a->data_syms.nr, b->data_syms.nr);
}

/* Every binary through the thread (WAIT: all loaded there first) against dso_load(). */
static void compare_all(bool wait, bool inlines)
{
	struct said direct = { 0 }, taken = { 0 };
	struct sym_opts o = { .symfs = fixture("symfs"), .debug_dir = "", .demangle = true };
	struct sym_opts od = o, ot = o;
	struct dso_prefetch *pf;
	int got = 0;

	make_ids();
	od.log = (struct logger){ capture, &direct };
	ot.log = (struct logger){ capture, &taken };
	pf = dso_prefetch_start(ids, NR, &o, inlines);
	assert_non_null(pf);
	if (wait)
		dso_prefetch_wait(pf);
	for (int i = 0; i < NR; i++) {
		struct dso *a = pending(i), *b = pending(i);
		bool t;

		dso_load(a, &od);
		t = dso_prefetch_take(pf, b, &ot.log);
		if (!t)
			dso_load(b, &ot);
		got += t;
		print_message("%s: %s\n", paths[i], t ? "taken" : "loaded here");
		assert_same_dso(a, b);
		/* the DWARF came with it: open, not to be opened again */
		if (t && inlines && b->status == DSO_OK)
			assert_true(b->inlines_tried);
		if (t && !inlines)
			assert_false(b->inlines_tried);
		dso_free(a);
		dso_free(b);
	}
	dso_prefetch_end(pf);
	/* the same messages, in the same order (the mismatch's warning) */
	assert_int_equal(direct.nr, taken.nr);
	assert_true(direct.nr >= 1);
	for (int i = 0; i < direct.nr; i++)
		assert_string_equal(direct.text[i], taken.text[i]);
	if (wait)	/* all but the second naming of queue (one load per file) */
		assert_int_equal(got, NR - 1);
	print_message("taken from the thread: %d of %d\n", got, NR);
}

static void loaded_there_equals_loaded_here(void **state)
{
	(void)state;
	compare_all(true, false);
}

static void with_dwarf(void **state)
{
	(void)state;
	compare_all(true, true);
}

/* Taken at once: each one waited for, claimed, or taken; the same either way. */
static void taken_while_loading(void **state)
{
	(void)state;
	compare_all(false, true);
}

static void untaken_loadings_say_nothing(void **state)
{
	struct said said = { 0 };
	struct sym_opts o = { .symfs = fixture("symfs"), .debug_dir = "",
			      .log = { capture, &said } };
	struct dso_prefetch *pf;

	(void)state;
	make_ids();
	pf = dso_prefetch_start(ids, NR, &o, true);
	assert_non_null(pf);
	dso_prefetch_wait(pf);
	dso_prefetch_end(pf);
	assert_int_equal(said.nr, 0);
}

/*
 * Located only (what an unwinder reports): the mapped file and segments
 * dso_load() gives, no symbol read, nothing said, still pending; loading it
 * afterwards gives what loading it at once gives.  With and without a
 * recorded build-id, the missing one, the mismatched one.
 */
static void located_as_loaded(void **state)
{
	struct sym_opts o = { .symfs = fixture("symfs"), .debug_dir = "", .demangle = true };

	(void)state;
	make_ids();
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < NR; i++) {
			struct said direct = { 0 }, later = { 0 }, locating = { 0 };
			struct dso *a = pending(i), *b = pending(i);
			struct sym_opts od = o, ol = o, oL = o;

			if (k) {	/* no build-id recorded: the file's own */
				a->build_id_size = 0;
				b->build_id_size = 0;
			}
			od.log = (struct logger){ capture, &direct };
			ol.log = (struct logger){ capture, &locating };
			oL.log = (struct logger){ capture, &later };
			dso_load(a, &od);
			dso_locate(b, &ol);
			assert_int_equal(b->status, DSO_PENDING);
			assert_int_equal(locating.nr, 0);
			assert_int_equal(b->syms.nr, 0);
			assert_string_equal(a->runtime_path ? a->runtime_path : "-",
					    b->runtime_path ? b->runtime_path : "-");
			assert_int_equal(a->nr_segs, b->nr_segs);
			for (size_t j = 0; j < a->nr_segs; j++)
				assert_memory_equal(&a->segs[j], &b->segs[j], sizeof(a->segs[j]));
			if (a->status == DSO_OK)
				assert_non_null(b->runtime_path);
			dso_locate(b, &ol);	/* once */
			dso_load(b, &oL);
			assert_same_dso(a, b);
			assert_int_equal(direct.nr, later.nr);
			for (int j = 0; j < direct.nr; j++)
				assert_string_equal(direct.text[j], later.text[j]);
			dso_free(a);
			dso_free(b);
		}
	}
}

/* What the thread has not loaded yet stays its own: taken later, not claimed. */
static void take_ready_leaves_the_rest(void **state)
{
	struct sym_opts o = { .symfs = fixture("symfs"), .debug_dir = "" };
	struct dso *d[NR];
	struct dso_prefetch *pf;
	int now = 0, later = 0;

	(void)state;
	make_ids();
	pf = dso_prefetch_start(ids, NR, &o, false);
	assert_non_null(pf);
	for (int i = 0; i < NR - 1; i++) {
		d[i] = pending(i);
		if (dso_prefetch_take_ready(pf, d[i], &o.log))
			now++;
		else
			assert_int_equal(d[i]->status, DSO_PENDING);
	}
	dso_prefetch_wait(pf);
	for (int i = 0; i < NR - 1; i++) {
		if (d[i]->status == DSO_PENDING) {
			assert_true(dso_prefetch_take_ready(pf, d[i], &o.log));
			later++;
		}
		assert_int_not_equal(d[i]->status, DSO_PENDING);
		dso_free(d[i]);
	}
	dso_prefetch_end(pf);
	assert_int_equal(now + later, NR - 1);
	print_message("taken at once: %d, after the thread's pass: %d\n", now, later);
}

/* Kernel entries, paths not absolute, no build-id: nothing to do, no thread. */
static void nothing_to_load(void **state)
{
	struct mycl_build_id none[3] = {
		{ .pid = -1, .filename = "[kernel.kallsyms]", .size = 20 },
		{ .pid = -1, .filename = "relative/path", .size = 20 },
		{ .pid = -1, .filename = "/no/build-id", .size = 0 },
	};
	struct sym_opts o = { 0 };

	(void)state;
	assert_null(dso_prefetch_start(none, 3, &o, false));
	assert_null(dso_prefetch_start(NULL, 0, &o, false));
	assert_false(dso_prefetch_take(NULL, NULL, NULL));
	dso_prefetch_end(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loaded_there_equals_loaded_here),
		cmocka_unit_test(with_dwarf),
		cmocka_unit_test(taken_while_loading),
		cmocka_unit_test(untaken_loadings_say_nothing),
		cmocka_unit_test(nothing_to_load),
		cmocka_unit_test(located_as_loaded),
		cmocka_unit_test(take_ready_leaves_the_rest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
