/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The call tree's memory bound: past CT_NODE_LIMIT nodes new paths end in their deepest
 * known node's cut child, past CT_NODE_HARD in their root's; counts stay whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "calltree.h"

static int sym_of[3];

/* Paths of 3 frames: a shared caller, then one of many middles, then a leaf each. */
static void cut_paths_keep_counts(void **state)
{
	struct calltree t;
	uint32_t root, top, node;
	uint64_t hits = 0, cut_hits = 0;
	size_t cuts = 0, i;
	int rc;

	(void)state;
	calltree_init(&t);
	assert_int_equal(calltree_root(&t, 0, &root), 0);
	assert_int_equal(calltree_child(&t, root, &(struct ct_frame){ .sym = (char *)&sym_of[0],
						    .level = '.' }, &top), 0);
	for (i = 0; i < (size_t)CT_NODE_HARD; i++) {
		struct ct_frame mid = { .sym = (char *)&sym_of[1], .addr = i, .level = '.' };
		struct ct_frame leaf = { .sym = (char *)&sym_of[2], .addr = i, .level = '.' };

		rc = calltree_child(&t, top, &mid, &node);
		assert_true(rc >= 0);
		if (!rc)
			rc = calltree_child(&t, node, &leaf, &node);
		assert_true(rc >= 0);
		cuts += rc == 1;
		calltree_hit(&t, node, 1);
		hits++;
	}
	/* Nodes never pass the hard bound by more than the cut children it allows. */
	assert_true(t.nr <= (size_t)CT_NODE_HARD + 2);
	assert_true(cuts > 0);
	calltree_finish(&t);
	assert_int_equal(t.nodes[root].total_samples, hits);
	assert_int_equal(t.nodes[top].total_samples, hits);
	for (i = 0; i < t.nr; i++)
		if (t.nodes[i].f.sym == CT_CUT_NAME)
			cut_hits += t.nodes[i].self_samples;
	assert_int_equal(cut_hits, cuts);
	calltree_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cut_paths_keep_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
