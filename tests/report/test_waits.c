/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The off-CPU waits text: rows within 100 columns whatever the names (the
 * primitive on a line of its own, the site's name whole), and a lock wait
 * whose call chains stopped in the primitive's library says so and what
 * records its caller.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "mycl/locks.h"

static char *waits_text(const struct mycl_wait_report *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(mycl_report__waits_text(f, w, 0.5), 0);
	fclose(f);
	return buf;
}

static void rows_fit_and_say_a_lost_caller(void **state)
{
	struct mycl_cg_node leaf = { .sym = "worker", .dso = "server", .period = 10, .samples = 1 };
	struct mycl_cg_node site = { .sym = "open_table", .dso = "server", .period = 10,
				     .samples = 1, .nr_children = 1, .children = &leaf };
	struct mycl_offcpu_site sites[] = {
		{ .sym = "__futex_abstimed_wait_common", .dso = "libc.so.6",
		  .via = "__futex_abstimed_wait_common", .lock = true, .waits = 2266,
		  .wait_ns = 37089966000ull },
		{ .sym = "open_table", .dso = "server", .via = "__pthread_mutex_lock", .lock = true,
		  .waits = 277, .wait_ns = 1138389000ull, .callers = &site },
		{ .sym = NULL, .dso = "memfd:sealed-91173221a7ea (deleted)", .via = "__x64_sys_futex",
		  .lock = true, .waits = 159, .wait_ns = 7993225000ull },
	};
	struct mycl_wait_report w = { .have_sched_switch = true, .nr_sites = 3, .sites = sites,
				      .total_wait_ns = 37089966000ull + 1138389000ull + 7993225000ull };
	char *text, *line, *save = NULL;
	int hints = 0;

	(void)state;
	w.lock_wait_ns = w.total_wait_ns;
	text = waits_text(&w);
	assert_non_null(strstr(text, "__futex_abstimed_wait_common (libc.so.6)\n"));
	assert_non_null(strstr(text, "via __futex_abstimed_wait_common\n"));
	assert_non_null(strstr(text, "open_table (server) via __pthread_mutex_lock\n"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '#')
			assert_true(strlen(line) <= 100);
		if (strstr(line, "(no caller: the call chains end in "))
			hints++;
		if (strstr(line, "--call-graph dwarf"))
			assert_non_null(strstr(line, "no caller"));
	}
	/* the futex wrapper of libc and the unknown code, not open_table whose callers are known */
	assert_int_equal(hints, 2);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_fit_and_say_a_lost_caller),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
