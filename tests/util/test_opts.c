/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Options structs checked as libbpf checks them: a caller built against a
 * newer header whose new fields are zero works; one that sets a field this
 * library does not know, or gives no sz, gets MYCL_ERR_OPTS before anything
 * is opened or written.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"
#include "mycl/mycl.h"

/* What a newer header would declare: the struct this library knows, and one field more. */
#define NEWER(type) struct { struct type known; uint64_t newer; }

static void the_rule(void **state)
{
	NEWER(mycl_profile_opts) o;

	(void)state;
	assert_true(opts_valid(NULL, sizeof(o.known)));
	memset(&o, 0, sizeof(o));
	assert_false(opts_valid(&o, sizeof(o.known)));		/* sz 0: every field ignored */
	o.known.sz = sizeof(size_t) - 1;
	assert_false(opts_valid(&o, sizeof(o.known)));
	o.known.sz = sizeof(o.known.sz);			/* only sz: every field its default */
	assert_true(opts_valid(&o, sizeof(o.known)));
	o.known.sz = sizeof(o.known);
	assert_true(opts_valid(&o, sizeof(o.known)));
	o.known.sz = sizeof(o);
	assert_true(opts_valid(&o, sizeof(o.known)));		/* newer, its field zero */
	for (size_t byte = 0; byte < sizeof(o.newer); byte++) {
		o.newer = (uint64_t)0x80 << (8 * byte);
		assert_false(opts_valid(&o, sizeof(o.known)));
	}
	o.known.sz = sizeof(o.known);				/* the newer field not claimed */
	assert_true(opts_valid(&o, sizeof(o.known)));
}

/* Entry points refuse before they touch the file: the path does not exist. */
static void entry_points(void **state)
{
	const char *none = "/nonexistent/mycl-test-opts";
	NEWER(mycl_perf_data_opts) po = { .known.sz = sizeof(po) };
	NEWER(mycl_share_opts) so = { .known.sz = sizeof(so) };
	NEWER(mycl_archive_opts) ao = { .known.sz = sizeof(ao) };
	NEWER(mycl_tuning) to = { .known.sz = sizeof(to) };
	NEWER(mycl_report_opts) ro = { .known.sz = sizeof(ro), .newer = 1 };
	struct mycl_perf_data *pd = (void *)1;
	struct mycl_share *s = (void *)1;
	const struct mycl_archive *a = (void *)1;

	(void)state;
	/* zero in the newer field: the call goes on (and finds no file) */
	assert_int_equal(mycl_perf_data__open(none, &po.known, &pd), -ENOENT);
	assert_int_equal(mycl_share__analyze(none, &so.known, &s), -ENOENT);
	assert_int_equal(mycl_archive__open(none, &ao.known, (struct mycl_archive **)&a), -ENOENT);
	assert_int_equal(mycl_tuning__set(&to.known), 0);

	po.newer = so.newer = ao.newer = to.newer = 1;
	assert_int_equal(mycl_perf_data__open(none, &po.known, &pd), MYCL_ERR_OPTS);
	assert_string_equal(mycl_errmsg(MYCL_ERR_OPTS), mycl_strerror(MYCL_ERR_OPTS));
	assert_int_equal(mycl_share__analyze(none, &so.known, &s), MYCL_ERR_OPTS);
	assert_int_equal(mycl_archive__open(none, &ao.known, (struct mycl_archive **)&a), MYCL_ERR_OPTS);
	assert_int_equal(mycl_tuning__set(&to.known), MYCL_ERR_OPTS);
	/* refused before the profile is looked at */
	assert_int_equal(mycl_report__text(stdout, NULL, &ro.known), MYCL_ERR_OPTS);
	assert_int_equal(mycl_tuning__set(NULL), 0);
	assert_string_not_equal(mycl_strerror(MYCL_ERR_OPTS), mycl_strerror(-EINVAL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_rule),
		cmocka_unit_test(entry_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
