/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "lockrules.h"

/* Fills R's prefix, needle and exact from its pattern (fnmatch's wildcards: * ? [ and \\). */
static void literal_parts(struct lock_rule *r)
{
	const char *p = r->pattern, *run = p;
	size_t wild = strcspn(p, "*?[\\");

	r->exact = !p[wild];
	r->prefix_len = wild;
	r->needle = p;
	r->needle_len = wild;
	/* A bracket or an escape make runs hard to tell: the prefix alone then. */
	if (strpbrk(p, "[\\"))
		return;
	for (const char *q = p; ; q++) {
		if (!*q || *q == '*' || *q == '?') {
			if ((size_t)(q - run) > r->needle_len) {
				r->needle = run;
				r->needle_len = (size_t)(q - run);
			}
			if (!*q)
				break;
			run = q + 1;
		}
	}
}

/* Whether NAME can match R at all: cheaper than fnmatch, which decides. */
static bool may_match(const struct lock_rule *r, const char *name)
{
	if (r->exact)
		return !strcmp(name, r->pattern);
	if (r->prefix_len && strncmp(name, r->pattern, r->prefix_len))
		return false;
	/* The needle ends at a wildcard, not at a NUL: its bytes are looked for. */
	return r->needle_len <= r->prefix_len ||
	       memmem(name, strlen(name), r->needle, r->needle_len);
}

/* Groups R's rules by the first byte of their pattern (see lock_rules.by_first). */
static int index_rules(struct lock_rules *r)
{
	unsigned int *v = malloc((r->nr ? r->nr : 1) * sizeof(*v)), at[257];

	if (!v)
		return -ENOMEM;
	memset(r->first, 0, sizeof(r->first));
	for (size_t i = 0; i < r->nr; i++)
		r->first[(r->v[i].prefix_len ? (unsigned char)r->v[i].pattern[0] : 256) + 1]++;
	for (size_t b = 1; b < 258; b++)
		r->first[b] += r->first[b - 1];
	memcpy(at, r->first, sizeof(at));
	for (size_t i = r->nr; i-- > 0;)
		v[at[r->v[i].prefix_len ? (unsigned char)r->v[i].pattern[0] : 256]++] =
			(unsigned int)i;
	free(r->by_first);
	r->by_first = v;
	r->indexed = r->nr;
	return 0;
}

int lock_rules_parse(struct lock_rules *r, const char *text, int *bad_line)
{
	int lineno = 0;

	for (const char *p = text; p && *p; ) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char buf[512], f[3][256];
		int n;

		lineno++;
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = eol ? eol + 1 : NULL;
		buf[strcspn(buf, "#")] = '\0';
		n = sscanf(buf, "%255s %255s %255[^\n]", f[0], f[1], f[2]);
		if (n <= 0)
			continue;
		if (n != 3) {
			if (bad_line)
				*bad_line = lineno;
			return -EINVAL;
		}
		/* Trailing blanks of the pattern go. */
		for (size_t k = strlen(f[2]); k && (f[2][k - 1] == ' ' || f[2][k - 1] == '\t'); k--)
			f[2][k - 1] = '\0';
		if (!strcmp(f[0], "names")) {
			/* names ARRAY TABLE: two identifiers */
			if (strpbrk(f[2], " \t") || !f[1][0] || !f[2][0]) {
				if (bad_line)
					*bad_line = lineno;
				return -EINVAL;
			}
			if (ARRAY_GROW(r->names, r->cap_names, r->nr_names + 1))
				return -ENOMEM;
			r->names[r->nr_names] = (struct lock_names){ .array = strdup(f[1]),
								   .table = strdup(f[2]) };
			if (!r->names[r->nr_names].array || !r->names[r->nr_names].table)
				return -ENOMEM;
			r->nr_names++;
			continue;
		}
		if (ARRAY_GROW(r->v, r->cap, r->nr + 1))
			return -ENOMEM;
		r->v[r->nr] = (struct lock_rule){ .layer = strdup(f[0]), .kind = strdup(f[1]),
						  .pattern = strdup(f[2]) };
		if (!r->v[r->nr].layer || !r->v[r->nr].kind || !r->v[r->nr].pattern)
			return -ENOMEM;
		literal_parts(&r->v[r->nr]);
		r->nr++;
	}
	return index_rules(r);
}

int lock_rules_match(const struct lock_rules *r, const char *name)
{
	char base[1024];
	const char *inl;

	if (!name)
		return -1;
	/* "foo (inlined)" is foo. */
	inl = strstr(name, " (inlined)");
	if (inl && (size_t)(inl - name) < sizeof(base)) {
		memcpy(base, name, (size_t)(inl - name));
		base[inl - name] = '\0';
		name = base;
	}
	/*
	 * The newest rule that matches: of those starting with the name's first
	 * byte and those starting with a wildcard, both lists newest first.
	 */
	if (r->by_first && r->indexed == r->nr) {
		const unsigned int *a = r->by_first + r->first[(unsigned char)name[0]];
		const unsigned int *ae = r->by_first + r->first[(unsigned char)name[0] + 1];
		const unsigned int *w = r->by_first + r->first[256], *we = r->by_first + r->first[257];

		while (a < ae || w < we) {
			unsigned int i = w == we || (a < ae && *a > *w) ? *a++ : *w++;

			if (may_match(&r->v[i], name) &&
			    (r->v[i].exact || !fnmatch(r->v[i].pattern, name, 0)))
				return (int)i;
		}
		return -1;
	}
	for (size_t i = r->nr; i-- > 0;)
		if (may_match(&r->v[i], name) && (r->v[i].exact || !fnmatch(r->v[i].pattern, name, 0)))
			return (int)i;
	return -1;
}

void lock_rules_free(struct lock_rules *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		free(r->v[i].layer);
		free(r->v[i].kind);
		free(r->v[i].pattern);
	}
	free(r->v);
	free(r->by_first);
	for (size_t i = 0; i < r->nr_names; i++) {
		free(r->names[i].array);
		free(r->names[i].table);
	}
	free(r->names);
	r->v = NULL;
	r->by_first = NULL;
	r->names = NULL;
	r->nr = r->cap = 0;
	r->nr_names = r->cap_names = 0;
}
