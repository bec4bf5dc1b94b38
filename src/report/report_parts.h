/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The writers' pieces another layer composes (ticket/: mycl-report's
 * document): captured output, names shortened in the middle, markdown and
 * Jira text, call trees, the text report's header and summary, the samples
 * over time, the hottest functions annotated.  The one way into report/ from
 * above it; report_priv.h holds the rest.
 */
#ifndef MYCL_REPORT_PARTS_H
#define MYCL_REPORT_PARTS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/report.h"

/* PART as a percentage of TOTAL; 0 when TOTAL is 0. */
static inline double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* "name" of a graph node: symbol, or dso+0xaddr when unresolved. */
void report_node_name(const struct mycl_cg_node *n, char *buf, size_t len);
/* Prints ROOT's children as a tree, perf-style, percentages of TOTAL. */
void report_tree_text(FILE *f, const struct mycl_cg_node *root, uint64_t total, double limit,
		      int indent);
void report_tree_json(void *json, const char *key, const struct mycl_cg_node *n, uint64_t total,
		      double limit);

/* What a writer puts in a FILE, kept as a string: capture_begin, write to c->f, capture_end. */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static inline FILE *capture_begin(struct capture *c)
{
	*c = (struct capture){ 0 };
	c->f = open_memstream(&c->buf, &c->len);
	return c->f;
}

/* The text (the caller frees it), or NULL on -ENOMEM. */
static inline char *capture_end(struct capture *c)
{
	if (!c->f || fclose(c->f)) {
		free(c->buf);
		return NULL;
	}
	return c->buf;
}

/*
 * S shortened in the middle ("head...tail") to at most MAX columns, in BUF;
 * S itself when it fits (or MAX is under 8).
 */
static inline const char *report_mid_short(const char *s, size_t max, char *buf, size_t len)
{
	size_t n = strlen(s), head, tail;

	if (n <= max || max < 8)
		return s;
	head = (max - 3) / 2;
	tail = max - 3 - head;
	snprintf(buf, len, "%.*s...%s", (int)head, s, s + n - tail);
	return buf;
}

/*
 * An address no symbol covers, spelled one way in every view: the binary's
 * name and the address in it ("mariadbd+0xd93e0f", what addr2line -e takes),
 * "[unknown]+0x7f..." outside any mapping.
 */
static inline const char *report_addr_name(char *buf, size_t len, const char *dso, uint64_t addr)
{
	snprintf(buf, len, "%s+0x%" PRIx64, dso ? dso : "[unknown]", addr);
	return buf;
}

/*
 * S as plain words in markdown (a table cell, a line of prose): what would
 * split a cell (|), start code, a link, an image, emphasis or a heading
 * backslash-escaped, as CommonMark allows for any punctuation; <, > and &
 * as entities, so that no HTML passes (GitHub, GitLab and Jira's markdown
 * render inline HTML).  A name from a recording reads as itself.
 */
static inline void report_md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (strchr("|`\\[]()*_#!~", *s))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

/*
 * S as code in a markdown table cell: in backquotes (two, with spaces, when S
 * holds one), each | escaped, which GitHub's tables need even inside code
 * (std::operator| would split the row).
 */
static inline void report_md_code(FILE *f, const char *s)
{
	const char *q = strchr(s, '`') ? "``" : "`", *pad = *q && q[1] ? " " : "";

	fprintf(f, "%s%s", q, pad);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fprintf(f, "%s%s", pad, q);
}

/*
 * S as plain words in Jira wiki markup (a table cell, a line of prose): what
 * could open markup as its HTML entity, which Jira renders as the character:
 * always a table cell's bar, a macro's braces, a link's brackets, an image's
 * bang, a list's hash, an emoticon's parentheses (and its colon or
 * semicolon, before anything but a space), the backslash, & < >; the text effects' marks (* _ - + ^ ~ ?) where a word
 * does not hold them on both sides (Jira opens and closes effects only at a
 * word's edge, so trx_assign_read_view and ld-linux-x86-64 stay as they
 * are).  Newline, tab and carriage return as a visible \xNN (the tools'
 * output streams escape the other control bytes).
 */
static inline bool report_jira_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (unsigned char)c >= 0x80;
}

static inline void report_jira_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		bool inner = p > s && report_jira_word(p[-1]) && report_jira_word(p[1]);

		if (*p == '\n' || *p == '\t' || *p == '\r')
			fprintf(f, "&#92;x%02x", (unsigned char)*p);
		else if (strchr("|{}[]!#()\\&<>", *p) || (strchr("*_-+^~?", *p) && !inner) ||
			 ((*p == ':' || *p == ';') && p[1] && p[1] != ' '))
			fprintf(f, "&#%d;", (unsigned char)*p);
		else
			fputc(*p, f);
	}
}

struct mycl_annotation;
struct mycl_annotate_opts;
/*
 * The K hottest user functions of event EV that disassemble, hottest first,
 * but those of rows SKIP(row, SKIP_CTX) leaves out (NULL: none):
 * FN(annotation, CTX) for each.  How many, or FN's negative code.
 */
int report_hot_annotations(const struct mycl_profile *p, size_t ev, size_t k,
			   const struct mycl_annotate_opts *ao,
			   bool (*skip)(const struct mycl_hot_row *r, void *skip_ctx), void *skip_ctx,
			   int (*fn)(const struct mycl_annotation *a, void *ctx), void *ctx);

/* The text report's header (recording, quality warnings) and symbolization summary. */
void report_text_header(FILE *f, const struct mycl_profile *p);
void report_text_summary(FILE *f, const struct mycl_profile *p);

/*
 * report_time.c: event EV's samples over time (a strip of the rate, the
 * busiest stretch with its --time argument, idle gaps); nothing when the
 * recording is too short.  0 or -EIO.  As a JSON value: {start_ns, column_ns,
 * samples[]}, or null.
 */
int report_over_time(FILE *f, const struct mycl_profile *p, size_t ev);
struct json;
void report_over_time_json(struct json *j, const struct mycl_profile *p, size_t ev);

#endif
