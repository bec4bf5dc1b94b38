/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The flat profile of a recording of samples/hotloop, whose shape is known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "mycl/mycl.h"
#include "test_util.h"

static char symfs[4096];

static struct mycl_profile *build(const char *file, struct mycl_profile_opts *o)
{
	struct mycl_perf_data *pd;
	struct mycl_profile *p = NULL;

	assert_int_equal(mycl_perf_data__open(fixture(file), NULL, &pd), 0);
	o->sz = sizeof(*o);
	o->symfs = symfs;
	o->buildid_dir = "";
	assert_int_equal(mycl_profile__build(pd, o, &p), 0);
	return p;
}

static void done(struct mycl_profile *p)
{
	struct mycl_perf_data *pd = mycl_profile__perf_data(p);

	mycl_profile__free(p);
	mycl_perf_data__close(pd);
}

static const struct mycl_hot_row *row_of(const struct mycl_profile_event *pe, const char *prefix)
{
	for (size_t i = 0; i < pe->nr_rows; i++)
		if (pe->rows[i].sym && !strncmp(pe->rows[i].sym, prefix, strlen(prefix)))
			return &pe->rows[i];
	return NULL;
}

static void hot_functions_rank_as_designed(void **state)
{
	struct mycl_profile_opts o = { 0 };
	struct mycl_profile *p = build("hotloop.g.data", &o);
	const struct mycl_profile_event *pe = mycl_profile__event(p, 0);
	const struct mycl_hot_row *ck, *mix;
	uint64_t period = 0, samples = 0;

	(void)state;
	assert_non_null(pe);
	assert_true(pe->nr_samples > 100);
	for (size_t i = 0; i < pe->nr_rows; i++) {
		period += pe->rows[i].period;
		samples += pe->rows[i].samples;
		if (i)
			assert_true(pe->rows[i - 1].period >= pe->rows[i].period);
	}
	assert_int_equal(period, pe->total_period);
	assert_int_equal(samples, pe->nr_samples);
	ck = row_of(pe, "checksum");
	mix = row_of(pe, "mix_hash");
	assert_non_null(ck);
	assert_non_null(mix);
	assert_ptr_equal(ck, &pe->rows[0]);
	assert_true(ck->period > mix->period);
	assert_string_equal(ck->dso, "hotloop");
	assert_string_equal(ck->comm, "hotloop");
	assert_int_equal(ck->level, '.');
	done(p);
}

static void symbolization_summary_names_the_file(void **state)
{
	struct mycl_profile_opts o = { 0 };
	struct mycl_profile *p = build("hotloop.data", &o);
	bool found = false;

	(void)state;
	for (size_t i = 0; i < mycl_profile__nr_dsos(p); i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(p, i);

		if (strcmp(d->name, "hotloop"))
			continue;
		found = true;
		assert_true(d->ok);
		assert_non_null(strstr(d->sym_file, symfs));
		assert_int_equal(d->unresolved, 0);
		assert_int_equal(strlen(d->build_id), 40);
	}
	assert_true(found);
	done(p);
}

static void filters_and_sort_keys(void **state)
{
	enum mycl_sort_key keys[] = { MYCL_SORT_TID, MYCL_SORT_SYM };
	struct mycl_profile_opts o = { .comms = "no-such-command" };
	struct mycl_profile *p = build("hotloop.data", &o);
	const struct mycl_profile_event *pe = mycl_profile__event(p, 0);
	int checksum_rows = 0;

	(void)state;
	assert_int_equal(pe->nr_samples, 0);
	assert_true(pe->nr_samples_all > 0);
	done(p);

	memset(&o, 0, sizeof(o));
	o.sort = keys;
	o.nr_sort = 2;
	p = build("hotloop.data", &o);
	pe = mycl_profile__event(p, 0);
	for (size_t i = 0; i < pe->nr_rows; i++)
		if (pe->rows[i].sym && !strncmp(pe->rows[i].sym, "checksum", 8))
			checksum_rows++;
	assert_int_equal(checksum_rows, 2);	/* one per thread */
	done(p);

	memset(&o, 0, sizeof(o));
	o.dsos = "hotloop";
	p = build("hotloop.data", &o);
	pe = mycl_profile__event(p, 0);
	for (size_t i = 0; i < pe->nr_rows; i++)
		assert_string_equal(pe->rows[i].dso, "hotloop");
	done(p);
}

static void unknown_event_is_an_error(void **state)
{
	struct mycl_perf_data *pd;
	struct mycl_profile *p = NULL;
	MYCL_OPTS(mycl_profile_opts, o, .event = "cycles");

	(void)state;
	assert_int_equal(mycl_perf_data__open(fixture("two-events.data"), NULL, &pd), 0);
	assert_int_equal(mycl_profile__build(pd, &o, &p), MYCL_ERR_NO_EVENT);
	assert_null(p);
	mycl_perf_data__close(pd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hot_functions_rank_as_designed),
		cmocka_unit_test(symbolization_summary_names_the_file),
		cmocka_unit_test(filters_and_sort_keys),
		cmocka_unit_test(unknown_event_is_an_error),
	};

	snprintf(symfs, sizeof(symfs), "%s", fixture("symfs"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
