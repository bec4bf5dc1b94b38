/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lock and spin primitives by function-name pattern: the rules file. */
#ifndef MYCL_LOCKRULES_H
#define MYCL_LOCKRULES_H

#include <stdbool.h>
#include <stddef.h>

struct lock_rule {
	char *layer, *kind, *pattern;
	/*
	 * What a name must have for fnmatch to be worth asking: the PREFIX_LEN
	 * bytes of PATTERN before its first wildcard, and NEEDLE (NEEDLE_LEN
	 * bytes of PATTERN, its longest run without one) somewhere.  EXACT: no
	 * wildcard at all.
	 */
	size_t prefix_len, needle_len;
	const char *needle;
	bool exact;
};

struct lock_rules {
	struct lock_rule *v;
	size_t nr, cap;
	/*
	 * The rules by the first byte of their pattern, newest first: those of
	 * byte B are by_first[first[B] .. first[B + 1]), those starting with a
	 * wildcard (any name may match them) at first[256] .. first[257].
	 */
	unsigned int *by_first;
	unsigned int first[258];
	size_t indexed;			/* the rules by_first holds (a failed parse added more) */
	/*
	 * "names ARRAY TABLE" lines: the elements of the global ARRAY (or of
	 * the array the global pointer ARRAY points into) named by the strings
	 * of the binary's TABLE (const char *const TABLE[]), as PostgreSQL
	 * names its individual LWLocks.
	 */
	struct lock_names {
		char *array, *table;
		const void *dso;	/* the binary TABLE was last looked up in, */
		uint64_t start, end;	/* ... and where it is there (0, 0: not there) */
	} *names;
	size_t nr_names, cap_names;
};

/*
 * Adds the rules in TEXT ("LAYER KIND PATTERN" lines, and "names ARRAY
 * TABLE").  0, -ENOMEM, or -EINVAL with *BAD_LINE.
 */
int lock_rules_parse(struct lock_rules *r, const char *text, int *bad_line);
/* The rule NAME matches, or -1.  Later rules win (a rules file overrides the defaults). */
int lock_rules_match(const struct lock_rules *r, const char *name);
void lock_rules_free(struct lock_rules *r);

extern const char mycl_default_lock_rules[];

#endif
