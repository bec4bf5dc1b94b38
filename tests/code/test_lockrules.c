/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lock_rules_match (literal prefix and run looked at before fnmatch) names
 * the rule fnmatch alone would, last rule first, for the default rules and
 * patterns with every wildcard.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "lockrules.h"

static int slow_match(const struct lock_rules *r, const char *name)
{
	for (size_t i = r->nr; i-- > 0;)
		if (!fnmatch(r->v[i].pattern, name, 0))
			return (int)i;
	return -1;
}

static void same_as_fnmatch(void **state)
{
	static const char *const extra =
		"app any *\n"
		"app spin my_spin_lock\n"
		"app spin *::lock\n"
		"app spin ut_*_delay*\n"
		"app spin *mutex*enter*\n"
		"app spin pause?\n"
		"app spin [ab]lock_*\n"
		"app spin lit\\*star\n"
		"app spin x*y*z\n";
	static const char *const names[] = {
		"pthread_mutex_lock", "__pthread_mutex_lock_full", "___pthread_mutex_lock",
		"_raw_spin_lock_irqsave", "native_queued_spin_lock_slowpath", "ut_delay",
		"ut_rnd_delay", "PolicyMutex<TTASEventMutex<GenericPolicy> >::enter", "my_spin_lock",
		"my_spin_lock2", "Foo::lock", "lock", "pause1", "pause", "alock_x", "clock_x",
		"lit*star", "litxstar", "xyz", "x_y_z_", "xzy", "", "futex_wait_queue",
		"__lll_lock_wait_private", "sem_timedwait", "schedule", "mutex_lock (inlined)",
	};
	struct lock_rules r = { 0 };
	int bad = 0;

	(void)state;
	assert_int_equal(lock_rules_parse(&r, mycl_default_lock_rules, &bad), 0);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			int want = slow_match(&r, names[i]);

			if (strstr(names[i], " (inlined)"))
				continue;	/* lock_rules_match reads it as "mutex_lock" */
			assert_int_equal(lock_rules_match(&r, names[i]), want);
		}
		/* Then with rules whose patterns start, end and are made of wildcards. */
		assert_int_equal(lock_rules_parse(&r, extra, &bad), 0);
	}
	lock_rules_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_fnmatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
