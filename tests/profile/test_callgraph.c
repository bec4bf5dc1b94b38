/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Call paths of a frame-pointer recording of samples/hotloop. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "mycl/mycl.h"
#include "test_util.h"

static char symfs[4096];

static struct mycl_profile *build(bool children)
{
	MYCL_OPTS(mycl_profile_opts, o, .symfs = symfs, .buildid_dir = "", .callgraph = true,
		  .children = children);
	struct mycl_perf_data *pd;
	struct mycl_profile *p = NULL;

	assert_int_equal(mycl_perf_data__open(fixture("hotloop.g.data"), NULL, &pd), 0);
	assert_int_equal(mycl_profile__build(pd, &o, &p), 0);
	return p;
}

static void done(struct mycl_profile *p)
{
	struct mycl_perf_data *pd = mycl_profile__perf_data(p);

	mycl_profile__free(p);
	mycl_perf_data__close(pd);
}

static const struct mycl_hot_row *find(const struct mycl_profile_event *pe, const char *sym)
{
	for (size_t i = 0; i < pe->nr_rows; i++)
		if (pe->rows[i].sym && !strcmp(pe->rows[i].sym, sym))
			return &pe->rows[i];
	return NULL;
}

static void children_include_callees(void **state)
{
	struct mycl_profile *p = build(true);
	const struct mycl_profile_event *pe = mycl_profile__event(p, 0);
	const struct mycl_hot_row *main_row = find(pe, "main");
	const struct mycl_hot_row *mix = find(pe, "mix_hash");

	(void)state;
	assert_non_null(main_row);
	assert_non_null(mix);
	/* main does no work itself; it calls the hot functions. */
	assert_true(main_row->total_period > 10 * main_row->period);
	/* a leaf's inclusive time is its self time */
	assert_int_equal(mix->total_period, mix->period);
	for (size_t i = 0; i < pe->nr_rows; i++) {
		assert_true(pe->rows[i].total_period >= pe->rows[i].period);
		assert_true(pe->rows[i].total_period <= pe->total_period);
		if (i)
			assert_true(pe->rows[i - 1].total_period >= pe->rows[i].total_period);
	}
	done(p);
}

static uint64_t sum_children(const struct mycl_cg_node *n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n->nr_children; i++)
		s += n->children[i].period;
	return s;
}

static void callers_tree_adds_up(void **state)
{
	struct mycl_profile *p = build(false);
	const struct mycl_profile_event *pe = mycl_profile__event(p, 0);
	const struct mycl_hot_row *mix = find(pe, "mix_hash");
	struct mycl_cg_node *g;

	(void)state;
	assert_non_null(mix);
	assert_int_equal(mycl_profile__row_graph(p, 0, mix, &g), 0);
	assert_int_equal(g->period, mix->period);
	assert_string_equal(g->sym, "mix_hash");
	/* every sample has a caller (main or the thread start) */
	assert_int_equal(sum_children(g), g->period);
	assert_true(g->nr_children >= 2);
	mycl_cg_node__free(g);

	assert_int_equal(mycl_profile__symbol_graph(p, 0, "main", true, &g), 0);
	assert_true(g->period <= pe->total_period);
	assert_true(sum_children(g) <= g->period);
	mycl_cg_node__free(g);
	assert_int_equal(mycl_profile__symbol_graph(p, 0, "no_such_function", false, &g), -ENOENT);
	done(p);
}

struct count {
	uint64_t samples, paths;
	bool leaf_ok;
};

static int count_path(const char *comm, const struct mycl_cg_node *frames, size_t n,
		      uint64_t samples, uint64_t period, void *ctx)
{
	struct count *c = ctx;

	(void)comm;
	(void)period;
	c->samples += samples;
	c->paths++;
	c->leaf_ok &= n > 0;
	return 0;
}

static void paths_account_for_every_sample(void **state)
{
	struct mycl_profile *p = build(false);
	const struct mycl_profile_event *pe = mycl_profile__event(p, 0);
	struct count c = { .leaf_ok = true };

	(void)state;
	assert_int_equal(mycl_profile__for_each_path(p, 0, count_path, &c), 0);
	assert_int_equal(c.samples, pe->nr_samples);
	assert_true(c.paths > 2);
	assert_true(c.leaf_ok);
	done(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(children_include_callees),
		cmocka_unit_test(callers_tree_adds_up),
		cmocka_unit_test(paths_account_for_every_sample),
	};

	snprintf(symfs, sizeof(symfs), "%s", fixture("symfs"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
