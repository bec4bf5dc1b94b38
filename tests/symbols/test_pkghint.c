/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Package hints from dpkg's file lists, in a directory of lists made here:
 * the owner is the package whose list holds the path, whatever its name;
 * names only order the reading (counted: a well-named owner is found among
 * the first lists read, not after all of them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "pkghint.h"

static char dir[] = "/tmp/mycl-pkghint-XXXXXX";

static void list(const char *file, const char *body)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

static int setup(void **state)
{
	char name[64], body[128];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	/* 200 lists that own nothing asked for, named like the binaries below */
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "libfo%c%d:amd64.list", 'a' + i % 26, i);
		snprintf(body, sizeof(body), "/.\n/usr\n/usr/lib/x86_64-linux-gnu/libfo%d.so.1\n", i);
		list(name, body);
		snprintf(name, sizeof(name), "mariadb-plugin-%d.list", i);
		list(name, "/usr/lib/mysql/plugin/x.so\n");
		snprintf(name, sizeof(name), "gcc-12-cross-%d.list", i);
		list(name, "/usr/bin/gcc-cross\n");
		snprintf(name, sizeof(name), "unrelated%d.list", i);
		list(name, "/usr/share/doc/x\n");
	}
	list("libfoo7:amd64.list", "/.\n/usr/lib/x86_64-linux-gnu/libfoo.so.7\n");
	list("mariadb-server-core.list", "/.\n/usr/sbin/mariadbd\n/usr/bin/mariadb-install-db\n");
	list("zz-owner-of-frob.list", "/.\n/usr/bin/frobnicate\n");
	list("dash.list", "/.\n/bin/dash\n");
	list("libc6:amd64.list", "/.\n/lib/x86_64-linux-gnu/libc.so.6\n");
	list("binutils-x86-64-linux-gnu.list", "/usr/bin/x86_64-linux-gnu-readelf\n");
	list("not-a-list.md5sums", "/usr/bin/nothing-here\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

static size_t hint(const char *path, char **out)
{
	const char *p[1] = { path };

	return pkg_debug_hints_in(dir, p, 1, out);
}

static void policy_name_first(void **state)
{
	char *h;

	(void)state;
	/* libfoo.so.7 is libfoo7's by Debian's naming of libraries: the first list read */
	assert_int_equal(hint("/usr/lib/x86_64-linux-gnu/libfoo.so.7", &h), 1);
	assert_string_equal(h, "apt install libfoo7-dbgsym (Debian's debug archive, "
			    "bookworm-debug) or debuginfod");
	free(h);
	assert_int_equal(hint("/usr/lib/x86_64-linux-gnu/libc.so.6", &h), 1);
	assert_string_equal(h, "apt install libc6-dbg");
	free(h);
}

static void shared_name_orders(void **state)
{
	char *h;
	size_t n;

	(void)state;
	/* mariadbd shares "mariadb" with 51 lists: read among them, not after the 200 others */
	n = hint("/usr/sbin/mariadbd", &h);
	assert_non_null(h);
	assert_non_null(strstr(h, "mariadb-server-core-dbgsym"));
	assert_true(n >= 1 && n <= 52);
	free(h);
	n = hint("/usr/bin/x86_64-linux-gnu-readelf", &h);
	assert_non_null(strstr(h, "binutils-x86-64-linux-gnu-dbgsym"));
	assert_true(n >= 1 && n <= 51);
	free(h);
}

static void owner_whatever_its_name(void **state)
{
	char *h;

	(void)state;
	/* a name that points nowhere: every list until its owner */
	assert_true(hint("/usr/bin/frobnicate", &h) >= 1);
	assert_non_null(h);
	assert_non_null(strstr(h, "zz-owner-of-frob-dbgsym"));
	free(h);
	/* dpkg lists /bin/dash, the recording says /usr/bin/dash (merged /usr) */
	hint("/usr/bin/dash", &h);
	assert_non_null(h);
	assert_non_null(strstr(h, "apt install dash-dbgsym"));
	free(h);
}

static void no_owner(void **state)
{
	char *h;

	(void)state;
	/* owned by no package: every list read once, no hint */
	assert_int_equal(hint("/usr/bin/nothing-here", &h), 206);
	assert_null(h);
	/* places dpkg does not install into read nothing */
	assert_int_equal(hint("/usr/local/bin/frobnicate", &h), 0);
	assert_null(h);
	assert_int_equal(hint("/home/me/a.out", &h), 0);
	assert_null(h);
	assert_int_equal(hint("[vdso]", &h), 0);
	assert_null(h);
}

static void many_at_once(void **state)
{
	const char *p[] = { "/usr/sbin/mariadbd", "/usr/lib/x86_64-linux-gnu/libfoo.so.7",
			    "/usr/bin/frobnicate", "/usr/local/lib/x.so" };
	char *h[4];

	(void)state;
	pkg_debug_hints_in(dir, p, 4, h);
	assert_non_null(strstr(h[0], "mariadb-server-core"));
	assert_non_null(strstr(h[1], "libfoo7"));
	assert_non_null(strstr(h[2], "zz-owner-of-frob"));
	assert_null(h[3]);
	for (int i = 0; i < 3; i++)
		free(h[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(policy_name_first),
		cmocka_unit_test(shared_name_orders),
		cmocka_unit_test(owner_whatever_its_name),
		cmocka_unit_test(no_owner),
		cmocka_unit_test(many_at_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
