/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sort_array: sorted, stable, whatever number of runs the input comes in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "internal.h"

struct item {
	uint32_t key, seq;	/* SEQ: the position before sorting */
};

static int key_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* N items made of RUNS ascending runs (keys drawn from KEYS values), sorted and checked. */
static void check(size_t n, size_t runs, uint32_t keys, uint64_t seed)
{
	struct item *v = malloc((n ? n : 1) * sizeof(*v));
	size_t per = runs ? (n + runs - 1) / runs : n;

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		v[i] = (struct item){ rnd(&seed) % keys, (uint32_t)i };
		if (per && i % per && v[i].key < v[i - 1].key)
			v[i].key = v[i - 1].key;	/* ascending within a run */
	}
	sort_array(v, n, sizeof(*v), key_cmp);
	for (size_t i = 1; i < n; i++) {
		assert_true(v[i - 1].key <= v[i].key);
		if (v[i - 1].key == v[i].key)
			assert_true(v[i - 1].seq < v[i].seq);	/* stable */
	}
	free(v);
}

static void sorts_runs_stably(void **state)
{
	(void)state;
	check(0, 1, 10, 1);
	check(1, 1, 10, 2);
	check(1000, 1, 50, 3);		/* sorted already: one pass */
	check(1000, 2, 50, 4);
	check(1001, 3, 50, 5);		/* an odd number of runs */
	check(5000, 11, 7, 6);		/* many ties across runs */
	check(5000, 64, 1000, 7);	/* as many runs as are merged */
	check(5000, 65, 1000, 8);	/* more: the fallback sort */
	check(5000, 5000, 100, 9);	/* random */
}

static void reversed_input(void **state)
{
	struct item v[300];

	(void)state;
	for (size_t i = 0; i < 300; i++)
		v[i] = (struct item){ (uint32_t)(300 - i) / 2, (uint32_t)i };
	sort_array(v, 300, sizeof(*v), key_cmp);
	for (size_t i = 1; i < 300; i++) {
		assert_true(v[i - 1].key <= v[i].key);
		if (v[i - 1].key == v[i].key)
			assert_true(v[i - 1].seq < v[i].seq);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sorts_runs_stably),
		cmocka_unit_test(reversed_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
