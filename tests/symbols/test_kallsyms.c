/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel symbols from kallsyms files of every shape: 16- and 8-digit
 * addresses, either case, modules, aliases, names with control characters,
 * a last line without its newline, lines that are no symbol, read from a
 * regular file (mapped) and from a pipe (read as it comes).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "dso.h"

static const char text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"			/* alias: the last listed wins */
	"ffffffff81000010 t mod_fn\t[snd_hda]\n"
	"ffffffff81000020 T esc\x1b[31mred\n"		/* a terminal escape in a name */
	"ffffffff81000030 W weak_one\n"
	"ffffffff81000040 d data_one\n"			/* data: no function */
	"FFFFFFFF81000050 T upper_case\n"
	"ffffffff8100006g T bad_hex\n"			/* no symbol line */
	"ffffffff810000700 T seventeen\n"		/* 17 digits: read as perf would */
	"garbage\n"
	"\n"
	"0000000000000000 T zero_addr\n"
	"ffffffff81000080 t tab_end\t\n"
	"ffffffff81000090 T last_no_newline";

static const char short_text[] =
	"c1000000 T _text\n"
	"c1000010 t eight_digits\n"
	"c1000020 T del\x7fname\n";

static struct dso *load(const char *body, size_t len, int *err)
{
	char path[] = "/tmp/mycl-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	struct dso *d = dso_new("[kernel.kallsyms]", true);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, body, len), (ssize_t)len);
	close(fd);
	*err = kallsyms_load(path, d, NULL);
	unlink(path);
	return d;
}

static const char *name_at(struct dso *d, uint64_t a)
{
	const struct sym *s = symtab_find(&d->syms, a);

	return s ? s->name : NULL;
}

static void every_shape(void **state)
{
	int err;
	struct dso *d = load(text, sizeof(text) - 1, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_int_equal(d->kernel_text, 0xffffffff81000000ULL);
	assert_string_equal(name_at(d, 0xffffffff81000000ULL), "_stext");
	assert_string_equal(name_at(d, 0xffffffff81000010ULL), "mod_fn");
	assert_string_equal(name_at(d, 0xffffffff81000020ULL), "esc\\x1b[31mred");
	assert_string_equal(name_at(d, 0xffffffff81000030ULL), "weak_one");
	assert_int_equal(symtab_find(&d->syms, 0xffffffff81000030ULL)->binding, SYMB_WEAK);
	/* data is no function: weak_one reaches the next function */
	assert_string_equal(name_at(d, 0xffffffff81000045ULL), "weak_one");
	assert_string_equal(name_at(d, 0xffffffff81000050ULL), "upper_case");
	assert_string_equal(name_at(d, 0xffffffff81000061ULL), "upper_case");
	assert_string_equal(name_at(d, 0xffffffff81000080ULL), "tab_end");
	/* the last function ends one byte past the highest address listed */
	assert_string_equal(name_at(d, 0xffffffff81000090ULL), "last_no_newline");
	assert_null(name_at(d, 0xffffffff81000091ULL));
	/* 17 digits: the first is shifted out */
	assert_string_equal(name_at(d, 0xfffffff810000700ULL), "seventeen");
	assert_null(name_at(d, 0x10ULL));
	dso_free(d);
}

static void short_addresses(void **state)
{
	int err;
	struct dso *d = load(short_text, sizeof(short_text) - 1, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_int_equal(d->kernel_text, 0xc1000000ULL);
	assert_string_equal(name_at(d, 0xc1000012ULL), "eight_digits");
	assert_string_equal(name_at(d, 0xc1000020ULL), "del\\x7fname");
	dso_free(d);
}

static void restricted(void **state)
{
	static const char zeros[] = "0000000000000000 T _text\n0000000000000000 t a\n";
	int err;
	struct dso *d = load(zeros, sizeof(zeros) - 1, &err);

	(void)state;
	assert_int_equal(err, -EPERM);
	assert_int_equal(d->syms.nr, 0);
	dso_free(d);
	d = load("", 0, &err);
	assert_true(err < 0);
	dso_free(d);
}

/* The same text from a pipe (no size: read, not mapped), names alike. */
static void from_a_pipe(void **state)
{
	int p[2], err;
	char path[64];
	struct dso *d = dso_new("[kernel.kallsyms]", true);
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	if (!pid) {
		close(p[0]);
		if (write(p[1], text, sizeof(text) - 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", p[0]);
	err = kallsyms_load(path, d, NULL);
	close(p[0]);
	assert_int_equal(err, 0);
	assert_string_equal(name_at(d, 0xffffffff81000010ULL), "mod_fn");
	assert_string_equal(name_at(d, 0xffffffff81000020ULL), "esc\\x1b[31mred");
	assert_string_equal(name_at(d, 0xffffffff81000090ULL), "last_no_newline");
	dso_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_shape),
		cmocka_unit_test(short_addresses),
		cmocka_unit_test(restricted),
		cmocka_unit_test(from_a_pipe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
