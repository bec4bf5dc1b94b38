/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers for the unit tests: fixture paths and temporary copies. */
#ifndef MYCL_TEST_UTIL_H
#define MYCL_TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline const char *fixture(const char *name)
{
	static char buf[8][4096];
	static int next;
	const char *dir = getenv("MYCL_TEST_DATA");
	char *b = buf[next++ % 8];

	snprintf(b, sizeof(buf[0]), "%s/%s", dir ? dir : "tests/data", name);
	return b;
}

/*
 * FN(PATH, CTX) for each path of the colon-separated list in environment
 * variable ENV (binaries added by hand: libc, mariadbd); false when it is unset.
 */
static inline bool for_each_listed(const char *env, void (*fn)(const char *path, void *ctx),
				   void *ctx)
{
	const char *more = getenv(env);
	char *list, *save = NULL;

	if (!more || !(list = strdup(more)))
		return false;
	for (char *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save))
		fn(f, ctx);
	free(list);
	return true;
}

/* Reads a whole file; *LEN gets its size.  Caller frees. */
static inline unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Writes LEN bytes to a new temporary file; returns its path (static). */
static inline const char *write_tmp(const void *data, size_t len)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/mycl-test-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (len && write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

#endif
