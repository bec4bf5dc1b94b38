/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A perf archive's members kept only for the build-ids asked for: others
 * stream by without counting against the memory budget; the budget refuses
 * an archive whose wanted members are too big; no list keeps everything.
 * The tarballs are made here, uncompressed (ustar).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "mycl/archive.h"
#include "mycl/error.h"

#define SMALL "1111111111111111111111111111111111111111"
#define BIG "2222222222222222222222222222222222222222"

/* Appends a ustar member NAME of SIZE bytes of 'x' to BUF at *LEN. */
static void member(uint8_t *buf, size_t *len, const char *name, size_t size)
{
	uint8_t *h = buf + *len;
	unsigned int sum = 0;

	memset(h, 0, 512);
	snprintf((char *)h, 100, "%s", name);
	memcpy(h + 100, "0000644", 7);
	memcpy(h + 108, "0000000", 7);
	memcpy(h + 116, "0000000", 7);
	snprintf((char *)h + 124, 12, "%011zo", size);
	memcpy(h + 136, "00000000000", 11);
	memset(h + 148, ' ', 8);
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	for (size_t i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	memset(h + 512, 'x', size);
	*len += 512 + (size + 511) / 512 * 512;
}

/* A tarball of a 1 KB binary (SMALL) and a 3 MB one (BIG); *LEN its size. */
static uint8_t *tarball(size_t *len)
{
	uint8_t *buf = calloc(1, 4u << 20);

	assert_non_null(buf);
	*len = 0;
	member(buf, len, "usr/bin/small/" SMALL "/elf", 1024);
	member(buf, len, "usr/bin/big/" BIG "/elf", 3u << 20);
	*len += 1024;	/* two zero blocks end it */
	return buf;
}

/* Opens the test tarball keeping WANT (NULL: all) within MAX bytes (0: the default). */
static int open_tarball(const char *const *want, size_t nr, uint64_t max, struct mycl_archive **a,
			char *err, size_t errlen)
{
	struct mycl_archive_opts o = { .sz = sizeof(o), .max_bytes = max, .build_ids = want,
				       .nr_build_ids = nr };
	size_t len;
	uint8_t *buf = tarball(&len);
	int rc = mycl_archive__open_mem(buf, len, "t.tar", &o, a);

	snprintf(err, errlen, "%s", rc ? mycl_errmsg(rc) : "");
	free(buf);
	return rc;
}

static void keeps_only_wanted(void **state)
{
	const char *want[] = { SMALL };
	struct mycl_archive *a = NULL;
	char err[256];

	(void)state;
	assert_int_equal(open_tarball(want, 1, 1u << 20, &a, err, sizeof(err)), 0);
	assert_int_equal(mycl_archive__nr_files(a), 1);
	assert_int_equal(mycl_archive__nr_skipped(a), 1);
	assert_string_equal(mycl_archive__file(a, 0)->build_id, SMALL);
	mycl_archive__close(a);
}

static void budget_refuses_wanted(void **state)
{
	const char *want[] = { SMALL, BIG };
	struct mycl_archive *a = NULL;
	char err[256];

	(void)state;
	assert_int_not_equal(open_tarball(want, 2, 1u << 20, &a, err, sizeof(err)), 0);
	assert_null(a);
	assert_non_null(strstr(err, "t.tar: members inflate past 1 MiB"));
}

static void no_list_keeps_all(void **state)
{
	struct mycl_archive *a = NULL;
	char err[256];

	(void)state;
	assert_int_equal(open_tarball(NULL, 0, 0, &a, err, sizeof(err)), 0);
	assert_int_equal(mycl_archive__nr_files(a), 2);
	assert_int_equal(mycl_archive__nr_skipped(a), 0);
	mycl_archive__close(a);
}

static void none_wanted_is_no_error(void **state)
{
	const char *want[] = { "3333333333333333333333333333333333333333" };
	struct mycl_archive *a = NULL;
	char err[256];

	(void)state;
	assert_int_equal(open_tarball(want, 1, 0, &a, err, sizeof(err)), 0);
	assert_int_equal(mycl_archive__nr_files(a), 0);
	assert_int_equal(mycl_archive__nr_skipped(a), 2);
	mycl_archive__close(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keeps_only_wanted),
		cmocka_unit_test(budget_refuses_wanted),
		cmocka_unit_test(no_list_keeps_all),
		cmocka_unit_test(none_wanted_is_no_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
