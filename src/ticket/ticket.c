/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ticket attachment (mycl-report): one deterministic report of a
 * recording, sections chosen by what it holds, each opened by one line that
 * says what it shows, every line within the width asked (100 columns): long
 * names are shortened in the middle, long lines folded under their indent.
 * Text, markdown or Jira wiki markup; JSON puts the tools' own documents side
 * by side.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "internal.h"
#include "mycl/annotate.h"
#include "mycl/build.h"
#include "mycl/locks.h"
#include "mycl/share.h"
#include "mycl/stat.h"
#include "json.h"
#include "report_parts.h"

/* A binary's build facts, read on first use. */
struct bin_facts {
	bool looked, ok;
	struct mycl_build_facts bf;
};

struct ticket {
	FILE *f;
	const struct mycl_profile *p;
	const struct mycl_ticket_opts *o;
	size_t ev;
	unsigned int width;
	bool md;			/* markdown */
	bool jira;			/* Jira wiki markup */
	struct bin_facts *facts;	/* per summary index: each binary's build facts, read
					 * once (facts_of()) */
	bool libraries;			/* libraries on request (mycl_ticket_opts.libraries) */
	const char *host;		/* redacted: the recording's host name */
	const char *home;		/* redacted: mycl_ticket_opts.home */
};

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* A user name's bytes after /home/ (up to the next '/', space or quote). */
static bool user_char(char c)
{
	return word_char(c) || c == '+' || c == '@';
}

/*
 * S (N bytes) onto OUT with the host name (a whole word), the home directory
 * and the user names under /home replaced.
 */
static void redact_to(const struct ticket *t, const char *s, size_t n, FILE *out)
{
	size_t hl = t->host ? strlen(t->host) : 0, ml = t->home ? strlen(t->home) : 0;

	for (size_t i = 0; i < n;) {
		const char *p = s + i;

		if (hl && hl <= n - i && !memcmp(p, t->host, hl) && (i == 0 || !word_char(p[-1])) &&
		    (i + hl == n || !word_char(p[hl]))) {
			fputs("[host]", out);
			i += hl;
		} else if (ml > 1 && ml <= n - i && !memcmp(p, t->home, ml)) {
			fputc('~', out);
			i += ml;
		} else if (n - i > 6 && !memcmp(p, "/home/", 6) && user_char(p[6])) {
			fputs("/home/[user]", out);
			for (i += 6; i < n && user_char(s[i]); i++)
				;
		} else {
			fputc(*p, out);
			i++;
		}
	}
}

/* What redaction replaces: the recording's host name and the home directory the caller gave. */
static void redact_setup(struct ticket *t)
{
	t->host = mycl_perf_data__info(mycl_profile__perf_data(t->p))->hostname;
	t->home = OPTS_GET(t->o, home, NULL);
}

/* LINE redacted into OUT (LEN bytes; cut short when longer, empty when memory runs out). */
static void redact_line(const struct ticket *t, const char *line, char *out, size_t len)
{
	char *buf = NULL;
	size_t bl = 0;
	FILE *m = open_memstream(&buf, &bl);

	out[0] = 0;
	if (!m)
		return;
	redact_to(t, line, strlen(line), m);
	if (!fclose(m))
		snprintf(out, len, "%s", buf);
	free(buf);
}

/*
 * The JSON document S (N bytes) onto OUT redacted as the text report is:
 * every string value through redact_to(), the command line replaced, the
 * recording's path (the header's "file") cut to its name.  Keys, numbers and
 * the document's shape are kept; escapes stay whole (a user name ends at '\').
 */
static void redact_json(const struct ticket *t, const char *s, size_t n, FILE *out)
{
	struct { char key[32]; bool arr; } st[64];
	char key[32] = "";
	int depth = 0;

	for (size_t i = 0; i < n;) {
		char c = s[i];

		if (c == '{' || c == '[') {
			if (depth < 64) {
				snprintf(st[depth].key, sizeof(st[depth].key), "%s", key);
				st[depth].arr = c == '[';
			}
			depth++;
			if (c == '{')
				key[0] = 0;
			fputc(s[i++], out);
		} else if (c == '}' || c == ']') {
			depth -= depth > 0;
			/* back in an array: its strings go by the array's key */
			if (depth > 0 && depth <= 64 && st[depth - 1].arr)
				snprintf(key, sizeof(key), "%s", st[depth - 1].key);
			else
				key[0] = 0;
			fputc(s[i++], out);
		} else if (c == '"') {
			size_t e = i + 1, k;
			const char *v = s + i + 1, *slash;

			while (e < n && s[e] != '"')
				e += s[e] == '\\' ? 2 : 1;
			if (e >= n) {		/* no closing quote: not from our writers */
				fwrite(s + i, 1, n - i, out);
				break;
			}
			for (k = e + 1; k < n && (s[k] == ' ' || s[k] == '\n' || s[k] == '\t'); k++)
				;
			if (k < n && s[k] == ':') {
				snprintf(key, sizeof(key), "%.*s", (int)(e - i - 1), v);
				fwrite(s + i, 1, e + 1 - i, out);
			} else {
				fputc('"', out);
				slash = memrchr(v, '/', (size_t)(s + e - v));
				if (!strcmp(key, "cmdline"))
					fputs("[redacted]", out);
				else if (!strcmp(key, "file") && depth > 0 && depth <= 64 &&
					 !strcmp(st[depth - 1].key, "header") && slash)
					redact_to(t, slash + 1, (size_t)(s + e - slash - 1), out);
				else
					redact_to(t, v, (size_t)(s + e - v), out);
				fputc('"', out);
			}
			i = e + 1;
		} else {
			fputc(s[i++], out);
		}
	}
}

/*
 * One line within the width: broken at the last space that fits, the rest on
 * continuation lines four columns under the line's indent; a word wider than
 * a line (a path to copy) is kept whole on a line of its own.  Tabs are
 * expanded first.
 */
/* Columns of S: its characters (UTF-8 continuation bytes take none). */
static size_t ucols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The byte offset of column COL of S (its end when shorter). */
static size_t ubyte(const char *s, size_t col)
{
	size_t i = 0;

	for (size_t c = 0; s[i] && c < col; c++)
		for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
	return i;
}

static void fold(struct ticket *t, const char *line)
{
	char tabs[4096], red[4096];
	const char *s;
	size_t o = 0, ind = 0, w = t->width;
	bool first = true;

	for (const char *p = line; *p && o + 9 < sizeof(tabs); p++) {
		if (*p == '\t')
			do
				tabs[o++] = ' ';
			while (o % 8);
		else
			tabs[o++] = *p;
	}
	tabs[o] = 0;
	s = tabs;
	if (t->o && OPTS_GET(t->o, redact, false)) {
		redact_line(t, tabs, red, sizeof(red));
		s = red;
	}
	while (s[ind] == ' ' || s[ind] == '#')
		ind++;
	if (ind > w / 2)
		ind = w / 2;
	while (*s) {
		size_t avail = w - (first ? 0 : ind + 4), n = ucols(s), brk = 0;

		if (!first)
			fprintf(t->f, "%*s", (int)(ind + 4), "");
		if (n <= avail) {
			fputs(s, t->f);
			break;
		}
		for (size_t i = ubyte(s, avail); i > (first ? ind : 0); i--) {
			if (s[i] == ' ') {
				brk = i;
				break;
			}
		}
		if (brk) {
			fprintf(t->f, "%.*s", (int)brk, s);
			s += brk;
		} else {
			/* A word wider than a line (a path to copy): whole, on a line of its own. */
			size_t lead = first ? ind : 0, tok = strcspn(s + lead, " ");

			fprintf(t->f, "%.*s", (int)(lead + tok), s);
			s += lead + tok;
		}
		while (*s == ' ')
			s++;
		if (*s)
			fputc('\n', t->f);
		first = false;
	}
	fputc('\n', t->f);
}

/*
 * The LEN bytes of L for a Jira {noformat} block, which nothing escapes and
 * the first "{noformat}" closes: each one inside (any case) written as
 * "{noformat\\}", so that the block holds all of L.  NULL without memory.
 */
static char *unclose(const char *l, size_t len)
{
	static const char tag[] = "{noformat}";
	const size_t tl = sizeof(tag) - 1;
	char *out = malloc(2 * len + 1);
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (len - i >= tl && !strncasecmp(l + i, tag, tl)) {
			memcpy(out + o, l + i, tl - 1);
			o += tl - 1;
			i += tl - 1;
			out[o++] = '\\';
		}
		out[o++] = l[i];
	}
	out[o] = 0;
	return out;
}

/*
 * A line of prose between PRE and POST (markup of our own): folded in text
 * and markdown (markdown's inline markup escaped when it holds NAMES from
 * the input), one line in Jira (whose paragraphs keep their line breaks)
 * with its markup escaped.
 */
static void prose_in(struct ticket *t, const char *pre, const char *line, const char *post,
		     bool names)
{
	char *buf = NULL, red[4096];
	size_t bl = 0;
	FILE *m;

	if (!t->jira && (!t->md || !names)) {
		fold(t, line);
		return;
	}
	/* (redacted before the escapes, which would hide a user name from it) */
	if (t->o && OPTS_GET(t->o, redact, false)) {
		redact_line(t, line, red, sizeof(red));
		line = red;
	}
	m = open_memstream(&buf, &bl);
	if (!m)
		return;
	fputs(pre, m);
	if (t->jira)
		report_jira_text(m, line);
	else
		report_md_text(m, line);
	fputs(post, m);
	if (!fclose(m)) {
		unsigned int w = t->width;

		if (t->jira)
			t->width = 1u << 30;
		fold(t, buf);
		t->width = w;
	}
	free(buf);
}

static void prose(struct ticket *t, const char *line, bool names)
{
	prose_in(t, "", line, "", names);
	if (t->jira)
		fputc('\n', t->f);	/* (a paragraph each: Jira breaks the line of a newline) */
}

/*
 * TEXT (lines of the tools' reports) folded, their "# " prefixes dropped and
 * blank lines at the end left out; in markdown inside a code block, in Jira
 * inside a {noformat} block.
 */
static void block(struct ticket *t, const char *text)
{
	size_t end = strlen(text), run = 0, fence = 3;

	while (end && (text[end - 1] == '\n' || text[end - 1] == '#' || text[end - 1] == ' '))
		end--;
	/* a fence longer than any run of backquotes inside (a comm may hold ```) */
	for (size_t i = 0; i < end; i++) {
		run = text[i] == '`' ? run + 1 : 0;
		fence = run >= fence ? run + 1 : fence;
	}
	for (size_t i = 0; t->md && i <= fence; i++)
		fputc(i < fence ? '`' : '\n', t->f);
	if (t->jira)
		fputs("{noformat}\n", t->f);
	for (const char *l = text; l < text + end;) {
		const char *nl = memchr(l, '\n', (size_t)(text + end - l));
		size_t len = nl ? (size_t)(nl - l) : (size_t)(text + end - l);
		char *line;

		if (len && l[0] == '#') {
			size_t cut = len > 1 && l[1] == ' ' ? 2 : 1;

			l += cut;
			len -= cut;
		}
		line = t->jira ? unclose(l, len) : strndup(l, len);
		if (line) {
			fold(t, line);
			free(line);
		}
		l += len + (nl ? 1 : 0);
	}
	for (size_t i = 0; t->md && i <= fence; i++)
		fputc(i < fence ? '`' : '\n', t->f);
	if (t->jira)
		fputs("{noformat}\n", t->f);
}

static void heading(struct ticket *t, const char *title, const char *what)
{
	char line[600];

	if (t->md) {
		fprintf(t->f, "\n## %s\n\n", title);
		snprintf(line, sizeof(line), "_%.590s_", what);
		fold(t, line);
		fputc('\n', t->f);
	} else if (t->jira) {
		fprintf(t->f, "\nh2. %s\n\n", title);
		prose_in(t, "_", what, "_", true);
		fputc('\n', t->f);
	} else {
		fprintf(t->f, "\n== %s ==\n", title);
		fold(t, what);
	}
}

/* C's text as a block of the ticket; ERR (the writer's) drops it and is returned. */
static int captured(struct ticket *t, struct capture *c, int err)
{
	char *text = capture_end(c);

	if (err || !text) {
		free(text);
		return err ? err : -ENOMEM;
	}
	block(t, text);
	free(text);
	return 0;
}

static const char *row_name(const struct mycl_hot_row *r, char *buf, size_t len)
{
	if (r->sym)
		return r->sym;
	return report_addr_name(buf, len, r->dso, r->addr);
}

/*
 * S as a Jira table cell's text, the cell's end written after.  (Not in
 * {{monospace}}: entities are not read there by every reader.)
 */
static void jira_cell(FILE *f, const char *s)
{
	if (!*s) {
		fputs(" |", f);		/* (an empty cell needs a space) */
		return;
	}
	report_jira_text(f, s);
	fputc('|', f);
}

static void flat(struct ticket *t, const struct mycl_profile_event *pe, size_t top)
{
	size_t n = pe->nr_rows < top ? pe->nr_rows : top;
	char b1[256], b2[256], b3[256], nm[256];

	if (t->jira) {
		fputs("||overhead||samples||command||binary||symbol||\n", t->f);
		for (size_t i = 0; i < n; i++) {
			const struct mycl_hot_row *r = &pe->rows[i];
			char sym[300];

			fprintf(t->f, "|%.2f%%|%" PRIu64 "|", pct(r->period, pe->total_period_all),
				r->samples);
			jira_cell(t->f, report_mid_short(str_or(r->comm, ""), 20, b1, sizeof(b1)));
			jira_cell(t->f, report_mid_short(str_or(r->dso, ""), 28, b2, sizeof(b2)));
			snprintf(sym, sizeof(sym), "%s%s",
				 report_mid_short(row_name(r, nm, sizeof(nm)), 60, b3, sizeof(b3)),
				 r->level == 'k' ? " [k]" : "");
			jira_cell(t->f, sym);
			fputc('\n', t->f);
		}
	} else if (t->md) {
		fputs("| overhead | samples | command | binary | symbol |\n|---:|---:|---|---|---|\n", t->f);
		for (size_t i = 0; i < n; i++) {
			const struct mycl_hot_row *r = &pe->rows[i];

			fprintf(t->f, "| %.2f%% | %" PRIu64 " | ", pct(r->period, pe->total_period_all),
				r->samples);
			report_md_text(t->f, report_mid_short(str_or(r->comm, ""), 20, b1, sizeof(b1)));
			fputs(" | ", t->f);
			report_md_text(t->f, report_mid_short(str_or(r->dso, ""), 28, b2, sizeof(b2)));
			fputs(" | ", t->f);
			report_md_code(t->f, report_mid_short(row_name(r, nm, sizeof(nm)), 60, b3,
							      sizeof(b3)));
			fprintf(t->f, "%s |\n", r->level == 'k' ? " [k]" : "");
		}
	} else {
		/* overhead 8, samples 9, comm 16, binary 22: the symbol gets the rest */
		size_t symw = t->width > 8 + 9 + 16 + 22 + 8 ? t->width - (8 + 9 + 16 + 22 + 4) : 20;

		fprintf(t->f, "%8s %8s  %-15s %-21s %s\n", "overhead", "samples", "command", "binary",
			"symbol");
		for (size_t i = 0; i < n; i++) {
			const struct mycl_hot_row *r = &pe->rows[i];
			char sym[300];

			snprintf(sym, sizeof(sym), "%s%s", row_name(r, nm, sizeof(nm)),
				 r->level == 'k' ? " [k]" : "");
			fprintf(t->f, "%7.2f%% %8" PRIu64 "  %-15s %-21s %s\n",
				pct(r->period, pe->total_period_all), r->samples,
				report_mid_short(str_or(r->comm, ""), 15, b1, sizeof(b1)),
				report_mid_short(str_or(r->dso, ""), 21, b2, sizeof(b2)),
				report_mid_short(sym, symw, b3, sizeof(b3)));
		}
	}
	if (pe->nr_rows > n) {
		double shown = 0;

		for (size_t i = 0; i < n; i++)
			shown += pct(pe->rows[i].period, pe->total_period_all);
		fprintf(t->f, "%s%zu more rows, together %.2f%%: mycl-hot shows them all\n",
			t->md || t->jira ? "\n" : "", pe->nr_rows - n, 100.0 - shown);
	}
}

/* Why a caller tree of 2% branches would show the function alone, and what shows more. */
static void tree_hint(FILE *f, const struct mycl_cg_node *g, uint64_t total)
{
	uint64_t big = 0, sum = 0;

	for (size_t j = 0; j < g->nr_children; j++) {
		big = g->children[j].period > big ? g->children[j].period : big;
		sum += g->children[j].period;
	}
	if (sum * 2 < g->period)
		fprintf(f, "  (no caller for %.0f%% of its samples: their call chains end here; perf "
			"record --call-graph dwarf unwinds past code without frame pointers)\n",
			100.0 - 100.0 * (double)sum / (double)g->period);
	else if (pct(big, total) < 2.0 && pct(g->period, total) >= 2.0)
		fprintf(f, "  (its callers each hold less than 2%% of the samples: mycl-hot -g "
			"--graph-limit 0, or --callers on it, shows them)\n");
}

static int paths(struct ticket *t, const struct mycl_profile_event *pe, size_t k)
{
	struct capture c;
	size_t done = 0;

	if (!capture_begin(&c))
		return -ENOMEM;
	for (size_t i = 0; i < pe->nr_rows && done < k; i++) {
		const struct mycl_hot_row *r = &pe->rows[i];
		struct mycl_cg_node *g;
		char nm[256];

		if (mycl_profile__row_graph(t->p, t->ev, r, &g))
			continue;
		fprintf(c.f, r->dso && r->dso[0] == '[' ? "%.2f%%  %s  %s\n" : "%.2f%%  %s  [%s]\n",
			pct(r->period, pe->total_period_all), row_name(r, nm, sizeof(nm)),
			str_or(r->dso, "?"));
		tree_hint(c.f, g, pe->total_period_all);
		report_tree_text(c.f, g, pe->total_period_all, 2.0, 2);
		fputc('\n', c.f);
		mycl_cg_node__free(g);
		done++;
	}
	return captured(t, &c, 0);
}

static int locks(struct ticket *t)
{
	struct mycl_lock_report *r;
	struct capture c;
	int err = mycl_profile__locks(t->p, t->ev, &r);

	if (err)
		err = mycl_profile__lock_summary(t->p, t->ev, NULL, &r);
	if (err)
		return err == -ENOMEM ? err : 0;
	heading(t, "Lock and spin sites", "Time in lock and spin primitives and, per lock site, "
		"the code that takes the lock and the object.");
	if (!r->samples) {
		fprintf(t->f, "No sample fell in a lock or spin primitive.\n");
		mycl_lock_report__free(r);
		return 0;
	}
	if (!capture_begin(&c)) {
		mycl_lock_report__free(r);
		return -ENOMEM;
	}
	err = mycl_report__locks_text(c.f, r, 0.5);
	mycl_lock_report__free(r);
	return captured(t, &c, err);
}

static int ticket_annotation(const struct mycl_annotation *a, void *ctx)
{
	struct ticket *t = ctx;
	struct capture c;
	int err;

	if (!capture_begin(&c))
		return -ENOMEM;
	err = mycl_report__annotation_text(c.f, a, 5);
	return captured(t, &c, err);
}

static bool left_out(const struct mycl_hot_row *r, void *ctx);
/* Where threads waited off-CPU, from the recording's tracepoints; nothing without them. */
static int waits(struct ticket *t)
{
	struct mycl_wait_report *w;
	struct capture c;
	int err = mycl_profile__waits(t->p, &w);

	if (err)
		return err == -ENOMEM ? err : 0;
	if (!w->total_wait_ns && !w->nr_futexes && !w->nr_locks) {
		mycl_wait_report__free(w);
		return 0;
	}
	heading(t, "Off-CPU waits", "Where threads slept, from the recording's tracepoints "
		"(sched_switch, futex system calls, lock contention): waits for a lock by the code "
		"that took it, then I/O, poll and idle waits, and the futex words waited on.");
	if (!capture_begin(&c)) {
		mycl_wait_report__free(w);
		return -ENOMEM;
	}
	err = mycl_report__waits_text(c.f, w, 2.0);
	mycl_wait_report__free(w);
	return captured(t, &c, err);
}

static void libraries_note(struct ticket *t, const char *what);

static int code(struct ticket *t, size_t k)
{
	int n;

	heading(t, "Hottest code", "The hottest user functions, disassembled: samples per "
		"instruction, source lines, and the globals each instruction touches.");
	n = report_hot_annotations(t->p, t->ev, k, OPTS_GET(t->o, annotate_opts, NULL), left_out, t,
				   ticket_annotation, t);
	if (n > 0)
		libraries_note(t, "The annotation");
	else if (!n && !t->libraries)	/* (no function of the programs': the libraries') */
		n = report_hot_annotations(t->p, t->ev, k, OPTS_GET(t->o, annotate_opts, NULL), NULL,
					   NULL, ticket_annotation, t);
	if (!n)
		fprintf(t->f, "No user function with samples could be disassembled (see Symbols).\n");
	return n < 0 ? n : 0;
}

/* The structs and members the samples touch (perf's typeoff), when any is known. */
static int types_section(struct ticket *t)
{
	struct mycl_data_types *dt;
	struct capture c;
	int err;

	if (mycl_profile__data_types(t->p, t->ev, true, &dt))
		return 0;	/* (a profile built without annotation: nothing to say) */
	if (!dt->known_samples) {
		mycl_data_types__free(dt);
		return 0;
	}
	heading(t, "Data types", "The struct members the sampled instructions touch, their "
		"memory operands named from the debug info and the code (perf's --sort typeoff, "
		"from any event): where contention and false sharing can be.");
	if (!capture_begin(&c)) {
		mycl_data_types__free(dt);
		return -ENOMEM;
	}
	err = mycl_report__data_types_text(c.f, dt, 1.0);
	mycl_data_types__free(dt);
	return captured(t, &c, err);
}

/*
 * Where binary D is read here: the file its symbols were loaded with, else
 * under --symfs.  True when that is not the recorded path (under --symfs).
 */
static bool local_path(const struct ticket *t, const struct mycl_dso_summary *d, char *buf,
		       size_t len)
{
	const char *symfs = OPTS_GET(t->o, symfs, NULL);

	snprintf(buf, len, "%s%s", symfs ? symfs : "", d->path);
	if (!d->read_file || !strcmp(d->read_file, buf))
		return false;
	snprintf(buf, len, "%s", d->read_file);
	return true;
}

/* The build facts of binary I of the summary, read once per report; NULL when not readable. */
static const struct mycl_build_facts *facts_of(const struct ticket *t, size_t i)
{
	struct bin_facts *b = &t->facts[i];

	if (!b->looked) {
		const struct mycl_dso_summary *d = mycl_profile__dso(t->p, i);
		char path[4096], sym[4096];

		local_path(t, d, path, sizeof(path));
		snprintf(sym, sizeof(sym), "%s", d->read_sym_file ? d->read_sym_file : path);
		b->looked = true;
		b->ok = !mycl_build_facts(path, sym, &b->bf);
	}
	return b->ok ? &b->bf : NULL;
}

/*
 * Whether binary I of the summary is a shared library (an ET_DYN object with
 * a soname, or without an interpreter, not marked PIE: libc.so.6 has an
 * interpreter and a soname), from the file; a binary not readable here counts
 * as the program's.
 */
static bool library(struct ticket *t, size_t i)
{
	const struct mycl_build_facts *bf = facts_of(t, i);

	return bf && bf->pie < 0;
}

/*
 * The user binaries with the most samples, up to K, by their summary index:
 * the programs' own (shared libraries only on request, or when no program
 * has samples).
 */
static size_t main_binaries(struct ticket *t, size_t *idx, size_t k)
{
	const struct mycl_profile *p = t->p;
	size_t n = 0;

	for (int pass = t->libraries; pass < 2 && !n; pass++) {
		for (size_t i = 0; i < mycl_profile__nr_dsos(p); i++) {
			const struct mycl_dso_summary *d = mycl_profile__dso(p, i);
			size_t j;

			if (d->kernel || !d->samples || !d->path || d->path[0] != '/' ||
			    (!pass && library(t, i)))
				continue;
			for (j = n; j > 0 && mycl_profile__dso(p, idx[j - 1])->samples < d->samples;
			     j--)
				if (j < k)
					idx[j] = idx[j - 1];
			if (j < k) {
				idx[j] = i;
				if (n < k)
					n++;
			}
		}
	}
	return n;
}

/*
 * One line naming the shared libraries with samples that WHAT leaves out,
 * and the option that takes them in; nothing when none is left out.
 */
static void libraries_note(struct ticket *t, const char *what)
{
	size_t idx[1], nlib = 0;
	char line[600];
	int len;

	if (t->libraries || !main_binaries(t, idx, 1) || library(t, idx[0]))
		return;
	len = snprintf(line, sizeof(line), "%s leaves out the shared libraries with samples: ",
		       what);
	for (size_t i = 0; i < mycl_profile__nr_dsos(t->p); i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(t->p, i);

		if (d->kernel || !d->samples || !d->path || d->path[0] != '/' || !library(t, i))
			continue;
		if (nlib < 3 && len > 0 && (size_t)len < sizeof(line))
			len += snprintf(line + len, sizeof(line) - (size_t)len, "%s%s (%" PRIu64 ")",
					nlib ? ", " : "", d->name, d->samples);
		nlib++;
	}
	if (!nlib || len < 0 || (size_t)len >= sizeof(line))
		return;
	snprintf(line + len, sizeof(line) - (size_t)len, "%s; --libraries takes them in.",
		 nlib > 3 ? ", ..." : "");
	prose(t, line, true);
}

/* Whether row R of the flat profile is in a shared library the report leaves out. */
static bool left_out(const struct mycl_hot_row *r, void *ctx)
{
	struct ticket *t = ctx;

	if (t->libraries || !r->dso_path)
		return false;
	for (size_t i = 0; i < mycl_profile__nr_dsos(t->p); i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(t->p, i);

		if (d->path && !strcmp(d->path, r->dso_path) && !d->kernel)
			return library(t, i);
	}
	return false;
}

/*
 * mycl-share of the binaries given, or of the recording's two user binaries
 * with the most samples, each weighted by the recording: FN(analysis, CTX),
 * or ON_ERR(message, CTX) for a binary that cannot be analysed.  How many
 * were analysed, or FN's negative code.
 */
static int for_each_share(struct ticket *t, int (*fn)(const struct mycl_share *s, void *ctx),
			  void (*on_err)(const char *msg, void *ctx), void *ctx)
{
	const char *const *bins = OPTS_GET(t->o, binaries, NULL);
	size_t idx[2], n = bins ? 0 : main_binaries(t, idx, 2);
	int shown = 0;
	char path[4096];

	for (size_t i = 0; bins ? bins[i] != NULL : i < n; i++) {
		/* weighed by the report's own profile: the recording is read once */
		MYCL_OPTS(mycl_share_opts, so, .profile = t->p,
			  .archive = OPTS_GET(t->o, archive, NULL),
			  .types = OPTS_GET(t->o, share_types, false));
		struct mycl_share *s;
		int rc;

		if (bins) {
			snprintf(path, sizeof(path), "%s", bins[i]);
		} else {
			const struct mycl_dso_summary *d = mycl_profile__dso(t->p, idx[i]);

			/* Shown as recorded when read from elsewhere (an archive, a build-id cache). */
			if (local_path(t, d, path, sizeof(path)))
				so.name = d->path;
		}
		if ((rc = mycl_share__analyze(path, &so, &s))) {
			if (on_err)
				on_err(mycl_errmsg(rc), ctx);
			continue;
		}
		rc = fn(s, ctx);
		mycl_share__free(s);
		if (rc)
			return rc;
		shown++;
	}
	return shown;
}

static int share_text(const struct mycl_share *s, void *ctx)
{
	MYCL_OPTS(mycl_share_write_opts, wo, .max_lines = 5);
	struct ticket *t = ctx;
	struct capture c;
	int rc;

	if (!capture_begin(&c))
		return -ENOMEM;
	rc = mycl_share__write_text(c.f, s, &wo);
	return captured(t, &c, rc);
}

static void share_error(const char *msg, void *ctx)
{
	prose(ctx, msg, true);
}

static int share_section(struct ticket *t)
{
	size_t idx[2];
	int shown;

	if (OPTS_GET(t->o, share_types, false))
		heading(t, "False sharing among globals and inside types", "Globals, and members of "
			"the struct and class types the code reaches, sharing a cache line in the "
			"binaries, weighted by this recording's samples: who writes on hot paths, who "
			"reads.");
	else
		heading(t, "False sharing among globals", "Globals sharing a cache line in the "
			"binaries, weighted by this recording's samples: who writes on hot paths, who "
			"reads.");
	shown = for_each_share(t, share_text, share_error, t);
	if (shown < 0)
		return shown;
	if (!shown && !OPTS_GET(t->o, binaries, NULL) && !main_binaries(t, idx, 2))
		fprintf(t->f, "No user binary with samples to look at (mycl-report perf.data BINARY).\n");
	if (shown > 0 && !OPTS_GET(t->o, binaries, NULL))
		libraries_note(t, "The analysis");
	return 0;
}

static const char *tri(int v, const char *yes, const char *no)
{
	return v > 0 ? yes : v == 0 ? no : "unknown";
}

static void build_lines(struct ticket *t, const size_t *idx, size_t n);

static void build_section(struct ticket *t)
{
	size_t idx[3], n = main_binaries(t, idx, 3);

	heading(t, "Build", "How the main binaries were built: compiler, flags, frame pointers "
		"(which decide what perf record -g shows), PIE or static, LTO, debug info.");
	if (t->md)
		fputs("```\n", t->f);
	if (t->jira) {
		/* (in a block of its own, built first: a name may hold what would close it) */
		struct capture c;
		struct ticket plain = *t;

		if (!capture_begin(&c))
			return;
		plain.f = c.f;
		plain.jira = false;
		build_lines(&plain, idx, n);
		(void)captured(t, &c, 0);
		return;
	}
	build_lines(t, idx, n);
	if (t->md)
		fputs("```\n", t->f);
}

/* The build facts of the binaries IDX[0..N), a few lines each. */
static void build_lines(struct ticket *t, const size_t *idx, size_t n)
{
	char line[1200];

	for (size_t i = 0; i < n; i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(t->p, idx[i]);
		const struct mycl_build_facts *f = facts_of(t, idx[i]);

		if (!f) {
			snprintf(line, sizeof(line), "%s: not readable here (%s)", d->name,
				 d->ok ? "no binary" : d->status);
			fold(t, line);
			continue;
		}
		snprintf(line, sizeof(line), "%s: %s", d->name,
			 f->compiler[0] ? f->compiler : "compiler unknown (no DWARF, no .comment)");
		fold(t, line);
		if (f->flags[0]) {
			snprintf(line, sizeof(line), "    flags: %s", f->flags);
			fold(t, line);
		}
		if (f->fp_from_code)
			snprintf(line, sizeof(line), "    frame pointers: %s (%.0f%% of %zu functions "
				 "of its symbol table set one up)", f->fp_share >= 0.8 ? "yes" :
				 f->fp_share <= 0.2 ? "no" : "partly", 100 * f->fp_share,
				 f->fp_functions);
		else
			snprintf(line, sizeof(line), "    frame pointers: %s%s",
				 tri(f->frame_pointers, "yes", "no"),
				 f->frame_pointers >= 0 ? " (from the flags)" : "");
		fold(t, line);
		snprintf(line, sizeof(line), "    %s, %s, LTO %s, -march %s, debug info %s",
			 f->pie > 0 ? "PIE" : f->pie == 0 ? "not PIE" : "shared object",
			 f->static_linked > 0 ? "static" : f->static_linked == 0 ? "dynamic" : "linking unknown",
			 tri(f->lto, "yes", "no"), f->march[0] ? f->march : "not given",
			 f->debug_info ? "present" : "missing");
		fold(t, line);
		if (!f->debug_info && d->fix) {
			snprintf(line, sizeof(line), "    for flags and source lines: %s", d->fix);
			fold(t, line);
		}
	}
	if (!n)
		fputs("No user binary with samples.\n", t->f);
}

/* Whether the profile says none of its samples had a call chain. */
static bool no_chains(const struct mycl_profile *p)
{
	for (size_t i = 0; i < mycl_profile__nr_warnings(p); i++)
		if (!strcmp(mycl_profile__warning(p, i)->kind, "no_chains"))
			return true;
	return false;
}

static int ticket_text(FILE *f, const struct mycl_profile *p, size_t ev,
		       const struct mycl_ticket_opts *o, struct bin_facts *facts)
{
	const struct mycl_profile_event *pe;
	struct ticket t = { .f = f, .p = p, .o = o, .ev = ev, .facts = facts,
			    .libraries = OPTS_GET(o, libraries, false) };
	size_t top = OPTS_GET(o, top, 0) ? OPTS_GET(o, top, 0) : 20;
	struct capture c;
	const char *path;
	char line[600];
	int err;

	if (ev >= mycl_profile__nr_events(p))
		return -EINVAL;
	pe = mycl_profile__event(p, ev);
	t.width = OPTS_GET(o, width, 0) >= 60 ? (unsigned int)OPTS_GET(o, width, 0) : 100;
	t.md = OPTS_GET(o, markdown, false);
	t.jira = OPTS_GET(o, jira, false);
	if (t.md && t.jira)
		return -EINVAL;
	if (OPTS_GET(o, redact, false))
		redact_setup(&t);
	path = mycl_perf_data__path(mycl_profile__perf_data(p));
	if (OPTS_GET(o, redact, false) && strrchr(path, '/'))
		path = strrchr(path, '/') + 1;
	if (t.md || t.jira) {
		/* (the recording's file and event names as words, not markup) */
		FILE *m = fmemopen(line, sizeof(line), "w");
		void (*esc)(FILE *, const char *) = t.md ? report_md_text : report_jira_text;

		if (!m)
			return -ENOMEM;
		fputs(t.md ? "# mycl-report of " : "h1. mycl-report of ", m);
		esc(m, path);
		fprintf(m, ": %" PRIu64 " samples of '", pe->nr_samples);
		esc(m, pe->event ? pe->event->name : "?");
		fputc('\'', m);
		fputc('\0', m);
		fclose(m);
		line[sizeof(line) - 1] = '\0';
	} else {
		snprintf(line, sizeof(line), "mycl-report of %s: %" PRIu64 " samples of '%s'", path,
			 pe->nr_samples, pe->event ? pe->event->name : "?");
	}
	if (t.md || t.jira) {
		/* a heading is one line, however long the path */
		unsigned int w = t.width;

		t.width = 4096;
		fold(&t, line);
		t.width = w;
	} else {
		fold(&t, line);
	}

	heading(&t, "Recording", "What was recorded, and what the recording cannot answer well.");
	if (!capture_begin(&c))
		return -ENOMEM;
	report_text_header(c.f, p);
	{
		char *text = capture_end(&c), *out;
		size_t olen = 0;
		FILE *of;

		if (!text)
			return -ENOMEM;
		/* Its first line names the file, which the title did; redaction drops the command line. */
		of = open_memstream(&out, &olen);
		if (!of) {
			free(text);
			return -ENOMEM;
		}
		for (char *l = strchr(text, '\n') ? strchr(text, '\n') + 1 : text; *l;) {
			char *nl = strchr(l, '\n');
			size_t len = nl ? (size_t)(nl - l) : strlen(l);

			if (OPTS_GET(o, redact, false) && !strncmp(l, "# command line:", 15))
				fprintf(of, "# command line: [redacted]\n");
			else
				fprintf(of, "%.*s\n", (int)len, l);
			l += len + (nl ? 1 : 0);
		}
		if (fclose(of)) {
			free(text);
			return -ENOMEM;
		}
		block(&t, out);
		free(out);
		free(text);
	}

	{
		size_t before;

		if (!capture_begin(&c))
			return -ENOMEM;
		err = report_over_time(c.f, p, ev);
		fflush(c.f);
		before = ftell(c.f);
		if (!err && before) {
			heading(&t, "Over time", "How the samples spread over the recording: spikes, "
				"idle gaps, and the slice that holds the busiest part.");
			err = captured(&t, &c, err);
		} else {
			free(capture_end(&c));
		}
		if (err)
			return err;
	}
	if (OPTS_GET(o, stat, NULL)) {
		const struct mycl_stat *st = OPTS_GET(o, stat, NULL);
		MYCL_OPTS(mycl_report_opts, so, .no_header = true);

		snprintf(line, sizeof(line), "perf stat's counts beside the recording (%s): each "
			 "event over the whole run and what perf stat derives from it.",
			 mycl_perf_data__path(mycl_stat__perf_data(st)));
		heading(&t, "Counters", line);
		if (!capture_begin(&c))
			return -ENOMEM;
		err = captured(&t, &c, mycl_report__stat_text(c.f, st, &so));
		if (err)
			return err;
	}

	snprintf(line, sizeof(line), "Self time by command, binary and function: the top %zu of %zu "
		 "rows.", top < pe->nr_rows ? top : pe->nr_rows, pe->nr_rows);
	heading(&t, "Where the time goes", line);
	if (t.md || t.jira)
		flat(&t, pe, top);
	else {
		if (!capture_begin(&c))
			return -ENOMEM;
		t.f = c.f;
		flat(&t, pe, top);
		t.f = f;
		err = captured(&t, &c, 0);
		if (err)
			return err;
	}

	if (mycl_profile__has_callgraph(p) && no_chains(p)) {
		/* one-frame trees say nothing: what would show the callers instead */
		heading(&t, "Call paths", "Who calls the top functions.");
		prose(&t, "None: the recording has no call chains (perf record without -g). Record "
		      "with -g (frame pointers) or --call-graph dwarf (any build) to see them.", false);
	} else if (mycl_profile__has_callgraph(p)) {
		size_t k = OPTS_GET(o, paths, 0) ? OPTS_GET(o, paths, 0) : 3;

		snprintf(line, sizeof(line), "Who calls the top %zu functions (branches of 2%% of the "
			 "samples or more).", k);
		heading(&t, "Call paths", line);
		err = paths(&t, pe, k);
		if (err)
			return err;
	}
	err = locks(&t);
	if (!err)
		err = waits(&t);
	if (!err)
		err = code(&t, OPTS_GET(o, annotate, 0) ? OPTS_GET(o, annotate, 0) : 2);
	if (!err)
		err = types_section(&t);
	if (!err && !OPTS_GET(o, no_share, false))
		err = share_section(&t);
	if (err)
		return err;

	heading(&t, "Symbols", "Where symbols came from, and what to install where they are "
		"missing.");
	if (!capture_begin(&c))
		return -ENOMEM;
	report_text_summary(c.f, p);
	err = captured(&t, &c, 0);
	if (err)
		return err;
	build_section(&t);
	return ferror(f) ? -EIO : 0;
}

static void json_build(struct json *j, struct ticket *t)
{
	size_t idx[3], n = main_binaries(t, idx, 3);

	json_begin_arr(j, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(t->p, idx[i]);
		const struct mycl_build_facts *f = facts_of(t, idx[i]);

		json_begin_obj(j, NULL);
		json_str(j, "binary", d->name);
		if (f) {
				json_str(j, "compiler", f->compiler[0] ? f->compiler : NULL);
			json_str(j, "producer", f->producer[0] ? f->producer : NULL);
			json_str(j, "flags", f->flags[0] ? f->flags : NULL);
			json_str(j, "march", f->march[0] ? f->march : NULL);
			if (f->pie >= 0)
				json_bool(j, "pie", f->pie > 0);
			if (f->static_linked >= 0)
				json_bool(j, "static", f->static_linked > 0);
			if (f->lto >= 0)
				json_bool(j, "lto", f->lto > 0);
			json_bool(j, "debug_info", f->debug_info);
			if (f->fp_from_code) {
				json_dbl(j, "frame_pointer_share", f->fp_share, 3);
				json_u64(j, "functions_looked_at", f->fp_functions);
			}
			else if (f->frame_pointers >= 0)
				json_bool(j, "frame_pointers", f->frame_pointers > 0);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* Elements of a JSON array written by the tools' own writers, commas between. */
struct json_list {
	FILE *f;
	bool first;
};

static int json_annotation(const struct mycl_annotation *a, void *ctx)
{
	struct json_list *l = ctx;

	if (!l->first)
		fputc(',', l->f);
	l->first = false;
	return mycl_report__annotation_json(l->f, a);
}

static int json_share(const struct mycl_share *s, void *ctx)
{
	MYCL_OPTS(mycl_share_write_opts, wo, .max_lines = 5);
	struct json_list *l = ctx;

	if (!l->first)
		fputc(',', l->f);
	l->first = false;
	return mycl_share__write_json(l->f, s, &wo);
}

/*
 * JSON, schema "mycl-report/1": the tools' own documents side by side -
 * "profile" (mycl-hot/1 with call graphs), "locks" (the lock report),
 * "annotations", "types" (mycl-types/1, by member), "share" (mycl-share/2 per
 * binary), and "build".
 */
static int ticket_json(FILE *f, const struct mycl_profile *p, size_t ev,
		       const struct mycl_ticket_opts *o, struct bin_facts *facts)
{
	struct ticket t = { .f = f, .p = p, .o = o, .ev = ev, .width = 100, .facts = facts,
			    .libraries = OPTS_GET(o, libraries, false) };
	MYCL_OPTS(mycl_report_opts, ro, .max_rows = OPTS_GET(o, top, 0) ? OPTS_GET(o, top, 0) : 20,
		  .graph = mycl_profile__has_callgraph(p), .graph_limit = 2.0);
	struct mycl_lock_report *lr;
	struct json_list jl = { f, true };
	struct json j;
	size_t k = OPTS_GET(o, annotate, 0) ? OPTS_GET(o, annotate, 0) : 2;
	int err, rc;

	if (ev >= mycl_profile__nr_events(p))
		return -EINVAL;
	if (OPTS_GET(o, redact, false)) {
		/* The document written whole, then redacted on its way out. */
		MYCL_OPTS(mycl_ticket_opts, plain);
		char *doc = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&doc, &len);

		if (!m)
			return -ENOMEM;
		memcpy(&plain, o, o->sz < sizeof(plain) ? o->sz : sizeof(plain));
		plain.sz = sizeof(plain);
		plain.redact = false;
		err = mycl_report__ticket_json(m, p, ev, &plain);
		if (fclose(m) && !err)
			err = -ENOMEM;
		if (!err) {
			redact_setup(&t);
			redact_json(&t, doc, len, f);
		}
		free(doc);
		return err ? err : ferror(f) ? -EIO : 0;
	}
	fputs("{\"schema\": \"mycl-report/1\",\n\"profile\": ", f);
	err = mycl_report__json(f, p, &ro);
	if (err)
		return err;
	fputs(",\n\"over_time\": ", f);
	json_init(&j, f);
	report_over_time_json(&j, p, ev);
	fputs(",\n\"stat\": ", f);
	if (OPTS_GET(o, stat, NULL)) {
		err = mycl_report__stat_json(f, OPTS_GET(o, stat, NULL), NULL);
		if (err)
			return err;
	} else {
		fputs("null", f);
	}
	fputs(",\n\"locks\": ", f);
	if (!mycl_profile__locks(p, ev, &lr)) {
		err = mycl_report__locks_json(f, lr, 2.0);
		mycl_lock_report__free(lr);
		if (err)
			return err;
	} else {
		fputs("null", f);
	}
	fputs(",\n\"waits\": ", f);
	{
		struct mycl_wait_report *w;

		if (!mycl_profile__waits(p, &w)) {
			err = mycl_report__waits_json(f, w, 2.0);
			mycl_wait_report__free(w);
			if (err)
				return err;
		} else {
			fputs("null", f);
		}
	}
	fputs(",\n\"annotations\": [", f);
	rc = report_hot_annotations(p, ev, k, OPTS_GET(o, annotate_opts, NULL), left_out, &t,
				    json_annotation, &jl);
	if (!rc && !t.libraries)	/* (no function of the programs': the libraries') */
		rc = report_hot_annotations(p, ev, k, OPTS_GET(o, annotate_opts, NULL), NULL, NULL,
					    json_annotation, &jl);
	if (rc < 0)
		return rc;
	fputs("],\n\"types\": ", f);
	{
		struct mycl_data_types *dt;

		if (!mycl_profile__data_types(p, ev, true, &dt)) {
			err = mycl_report__data_types_json(f, dt);
			mycl_data_types__free(dt);
			if (err)
				return err;
		} else {
			fputs("null", f);
		}
	}
	fputs(",\n\"share\": [", f);
	jl.first = true;
	if (!OPTS_GET(o, no_share, false)) {
		rc = for_each_share(&t, json_share, NULL, &jl);
		if (rc < 0)
			return rc;
	}
	fputs("],\n\"build\": ", f);
	json_init(&j, f);
	json_build(&j, &t);
	err = json_finish(&j);
	fputs("}\n", f);
	return err ? err : ferror(f) ? -EIO : 0;
}

/* Each binary's build facts, read once per report (facts_of()). */
static struct bin_facts *facts_memo(const struct mycl_profile *p)
{
	return calloc(mycl_profile__nr_dsos(p) ? mycl_profile__nr_dsos(p) : 1,
		      sizeof(struct bin_facts));
}

MYCL_API int mycl_report__ticket(FILE *f, const struct mycl_profile *p, size_t ev,
				 const struct mycl_ticket_opts *o)
{
	struct bin_facts *facts;
	int err;

	if (!OPTS_VALID(o, mycl_ticket_opts) || !OPTS_VALID(OPTS_GET(o, annotate_opts, NULL),
							     mycl_annotate_opts))
		return MYCL_ERR_OPTS;
	facts = facts_memo(p);
	err = facts ? ticket_text(f, p, ev, o, facts) : -ENOMEM;
	free(facts);
	return err;
}

MYCL_API int mycl_report__ticket_json(FILE *f, const struct mycl_profile *p, size_t ev,
				      const struct mycl_ticket_opts *o)
{
	struct bin_facts *facts;
	int err;

	if (!OPTS_VALID(o, mycl_ticket_opts) || !OPTS_VALID(OPTS_GET(o, annotate_opts, NULL),
							     mycl_annotate_opts))
		return MYCL_ERR_OPTS;
	facts = facts_memo(p);
	err = facts ? ticket_json(f, p, ev, o, facts) : -ENOMEM;
	free(facts);
	return err;
}
