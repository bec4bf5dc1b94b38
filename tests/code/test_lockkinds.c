/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the lock analysis makes of tests/data/locks/queue.c's functions from
 * their code alone (no rule, no recording): the same on x86_64 (gcc, static;
 * clang) and on aarch64, with outline atomics (calls to libgcc's
 * __aarch64_swp4_acq and the like, Debian's default) and with ARMv8.1's LSE
 * instructions, which capstone 4 does not decode.  Locks that take turns
 * (a ticket, a queue lock) wait in loops with no exchange in them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "test_util.h"
#include "dso.h"
#include "lockcode.h"

/* FN's analysis in D, its name matched without a clone suffix (.constprop.0). */
static const struct lock_code *code_of(struct dso *d, const char *fn)
{
	size_t n = strlen(fn);

	for (size_t i = 0; i < d->syms.nr; i++) {
		const struct sym *s = &d->syms.syms[i];

		if (s->name && !strncmp(s->name, fn, n) && (!s->name[n] || s->name[n] == '.') &&
		    s->end > s->start)
			return lock_code_of(d, s, NULL, NULL);
	}
	return NULL;
}

static void check_binary(const char *name)
{
	static const struct {
		const char *fn;
		uint8_t kind;		/* LK_NONE: no primitive (LK_UPDATE or LK_NONE) */
		bool loop;		/* a spin loop of its own (an inlined lock) */
		const char *word;	/* the lock's global, or NULL */
	} want[] = {
		{ "turn_acquire", LK_ACQUIRE, true, "ledger" },
		{ "cpu_breather", LK_DELAY, false, NULL },
		{ "wait_my_turn", LK_ACQUIRE, true, "serve_next" },
		{ "queue_enter", LK_ACQUIRE, true, "journal_lock" },
		{ "deposit", LK_NONE, true, NULL },
		{ "post_entry", LK_NONE, false, NULL },
		{ "append_journal", LK_NONE, false, NULL },
		{ "raise_high_water", LK_NONE, false, NULL },
		{ "turn_release", LK_NONE, false, NULL },
		{ "door_shut", LK_ACQUIRE, true, "door" },
		/* takes a lock of no argument, its own still in the register: no wrapper */
		{ "door_round", LK_NONE, false, NULL },
	};
	struct sym_opts o = { .debug_dir = "" };
	struct dso *d = dso_new(fixture(name), false);

	assert_non_null(d);
	dso_load(d, &o);
	assert_int_equal(d->status, DSO_OK);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct lock_code *c = code_of(d, want[i].fn);
		uint8_t kind;

		if (!c) {
			/* inlined into its caller by this compiler: nothing to tell */
			print_message("%s: %s not a function here\n", name, want[i].fn);
			continue;
		}
		kind = lock_kind_primitive(c->kind) ? c->kind : LK_NONE;
		print_message("%s: %s: %s, %zu loop runs, word %s\n", name, want[i].fn,
			      lock_kind_name(c->kind), c->nr_loops, c->word ? c->word : "-");
		if (kind != want[i].kind)
			fail_msg("%s: %s is %s, not %s", name, want[i].fn, lock_kind_name(c->kind),
				 lock_kind_name(want[i].kind));
		if (want[i].loop != (c->nr_loops > 0))
			fail_msg("%s: %s has %zu loops", name, want[i].fn, c->nr_loops);
		if (want[i].word && (!c->word || strcmp(c->word, want[i].word)))
			fail_msg("%s: %s's lock is %s, not %s", name, want[i].fn,
				 c->word ? c->word : "unknown", want[i].word);
	}
	dso_free(d);
}

static void x86_64_gcc(void **state)
{
	(void)state;
	check_binary("symfs/mycl-fixtures/locks/queue");
}

static void x86_64_clang(void **state)
{
	(void)state;
	check_binary("locks/queue.clang");
}

static void aarch64_outline_atomics(void **state)
{
	(void)state;
	check_binary("locks/queue.aarch64");
}

static void aarch64_lse(void **state)
{
	(void)state;
	check_binary("locks/queue.aarch64-lse");
}

/*
 * backoff.c: the spin-delay seed is the global the spin loop's back-off is
 * drawn from, written by an inlined generator (InnoDB's ut_rnd_ulint_counter)
 * or by a generator function the loop calls (backoff_state), not a delay.
 */
static void check_seeds(const char *name)
{
	struct sym_opts o = { .debug_dir = "" };
	struct dso *d = dso_new(fixture(name), false);
	const struct lock_code *c;

	assert_non_null(d);
	dso_load(d, &o);
	assert_int_equal(d->status, DSO_OK);
	c = code_of(d, "mutex_enter");
	assert_non_null(c);
	print_message("%s: mutex_enter seed %s, ", name, c->seed ? c->seed : "(none)");
	assert_non_null(c->seed);
	assert_string_equal(c->seed, "ut_rnd_ulint_counter");
	c = code_of(d, "latch_acquire");
	assert_non_null(c);
	print_message("latch_acquire seed %s\n", c->seed ? c->seed : "(none)");
	assert_non_null(c->seed);
	assert_string_equal(c->seed, "backoff_state");
	dso_free(d);
}

static void seeds_x86_64_gcc(void **state)
{
	(void)state;
	check_seeds("locks/backoff.gcc");
}

static void seeds_x86_64_clang(void **state)
{
	(void)state;
	check_seeds("locks/backoff.clang");
}

static void seeds_aarch64(void **state)
{
	(void)state;
	check_seeds("locks/backoff.aarch64");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x86_64_gcc),
		cmocka_unit_test(x86_64_clang),
		cmocka_unit_test(aarch64_outline_atomics),
		cmocka_unit_test(aarch64_lse),
		cmocka_unit_test(seeds_x86_64_gcc),
		cmocka_unit_test(seeds_x86_64_clang),
		cmocka_unit_test(seeds_aarch64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
