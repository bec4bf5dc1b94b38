/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-share's types: the flagged ones, one type's layout as pahole prints it, and JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "report_share.h"
#include "share_state.h"

/* W written on hot paths, w while threads run, s at start-up only, R read while threads run. */
static char role_of(const struct mycl_share_member *m)
{
	if (m->hot_writes || m->sampled_writes)
		return 'W';
	if (m->runtime_writes)
		return 'w';
	if (m->runtime_reads)
		return 'R';
	if (m->startup_writes)
		return 's';
	return '-';
}

static const char *role_word(char r)
{
	switch (r) {
	case 'W': return "written_hot";
	case 'w': return "written";
	case 's': return "startup";
	case 'R': return "read_mostly";
	default: return "untouched";
	}
}

static bool listed(const struct mycl_share_type *t, bool all)
{
	return t->verdict != MYCL_SHARE_OK || (all && t->hot_writes);
}

/* The types to show, highest score first. */
static size_t *ranked_types(const struct mycl_share *s, bool all, size_t *n)
{
	size_t *idx = malloc((s->nr_types ? s->nr_types : 1) * sizeof(*idx)), k = 0;

	if (!idx)
		return NULL;
	for (size_t i = 0; i < s->nr_types; i++)
		if (listed(&s->types[i], all))
			idx[k++] = i;
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0; j--) {
			const struct mycl_share_type *a = &s->types[idx[j]], *b = &s->types[idx[j - 1]];
			size_t t;

			if (a->verdict != MYCL_SHARE_OK && b->verdict == MYCL_SHARE_OK)
				;
			else if ((a->verdict == MYCL_SHARE_OK) != (b->verdict == MYCL_SHARE_OK) ||
				 a->score < b->score ||
				 (a->score == b->score && strcmp(a->name, b->name) >= 0))
				break;
			t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	*n = k;
	return idx;
}

/* NAME cut to W columns ("abc...xyz"). */
static const char *cut(const char *name, size_t w, char *buf, size_t len)
{
	size_t n = strlen(name), head;

	if (!w || n <= w || w < 8 || len <= w)
		return name;
	head = (w - 3) / 2;
	snprintf(buf, len, "%.*s...%s", (int)head, name, name + n - (w - 3 - head));
	return buf;
}

static void member_row(FILE *f, const struct mycl_share_member *m, bool weighted, bool wide)
{
	char nb[64], tb[64], *row = NULL;
	size_t len = 0;
	FILE *r = open_memstream(&row, &len);

	if (!r)
		return;
	fprintf(r, "      %6" PRIu64 " %5" PRIu64 "  %c  %-28s %-18s", m->offset, m->size, role_of(m),
		cut(m->name, wide ? 0 : 28, nb, sizeof(nb)), cut(m->type, wide ? 0 : 18, tb, sizeof(tb)));
	share_counts(r, m->hot_writes || m->runtime_writes || m->startup_writes ?
			(const uint64_t[3]){ m->hot_writes, m->runtime_writes, m->startup_writes } : NULL,
		     m->runtime_reads ? (const uint64_t[2]){ m->hot_reads, m->runtime_reads } : NULL,
		     m->counters, m->element_writes, m->atomics);
	if (weighted && m->samples)
		fprintf(r, " smp %" PRIu64, m->samples);
	if (fclose(r) || !row)
		return;
	/* (past 100 columns, the rest under the counts) */
	if (!wide && len > 100) {
		size_t cut_at = 100;

		while (cut_at > 71 && row[cut_at] != ' ')
			cut_at--;
		if (cut_at > 71) {
			fprintf(f, "%.*s\n%*s%s\n", (int)cut_at, row, 71, "", row + cut_at + 1);
			free(row);
			return;
		}
	}
	fprintf(f, "%s\n", row);
	free(row);
}

/* The members near the ones the verdict names (within a line of them), at most 24. */
static void members_text(FILE *f, const struct mycl_share *s, const struct mycl_share_type *t,
			 bool wide)
{
	uint64_t lo = UINT64_MAX, hi = 0, ls = s->line_size;
	size_t shown = 0, skipped = 0;

	for (size_t i = 0; i < t->nr_members; i++) {
		const struct mycl_share_member *m = &t->members[i];

		if (role_of(m) == 'W' || (t->verdict == MYCL_SHARE_WRITER_WITH_READERS &&
					  role_of(m) == 'R')) {
			lo = m->offset < lo ? m->offset : lo;
			hi = m->offset + m->size > hi ? m->offset + m->size : hi;
		}
	}
	if (lo == UINT64_MAX)
		lo = 0, hi = t->size;
	lo = lo > ls ? (lo - ls) / ls * ls : 0;
	hi = (hi + ls - 1) / ls * ls + ls;
	fprintf(f, "#     offset  size  role member                       type               "
		   "w hot/run/start r hot/run\n");
	for (size_t i = 0; i < t->nr_members; i++) {
		const struct mycl_share_member *m = &t->members[i];

		if (m->offset + m->size <= lo || m->offset >= hi || shown >= 24) {
			skipped++;
			continue;
		}
		member_row(f, m, s->weighted, wide);
		shown++;
	}
	if (skipped)
		fprintf(f, "      (%zu more members: --type '%s' lays it out whole)\n", skipped, t->name);
}

void share_types_text(FILE *f, const struct mycl_share *s, size_t max, bool all, bool wide)
{
	size_t n, flagged = 0, written = 0, padded = 0, cols = wide ? 0 : 100;
	size_t *idx = ranked_types(s, all, &n);
	char *head = NULL;

	if (!idx)
		return;
	for (size_t i = 0; i < s->nr_types; i++) {
		flagged += s->types[i].verdict != MYCL_SHARE_OK;
		written += s->types[i].hot_writes > 0;
		padded += s->types[i].padded && s->types[i].hot_writes > 0;
	}
	fputc('\n', f);
	if (asprintf(&head, "%zu struct, class and union types reached in %zu functions with debug "
		     "info, %zu written on hot paths, %zu flagged (%u-byte lines)", s->nr_types,
		     s->types_walked, written, flagged, s->line_size) > 0)
		share_folded(f, "types: ", head, cols);
	free(head);
	head = NULL;
	if (s->shm_call && !s->threaded && !s->assume_threads &&
	    asprintf(&head, "it maps memory processes share (%s): objects there are shared as threads' "
		     "are, so types are judged as if threads ran the code", s->shm_call) > 0)
		share_folded(f, "processes: ", head, cols);
	free(head);
	head = NULL;
	if (s->split_dwarf)
		share_folded(f, "types: ", "the debug info is split (-gsplit-dwarf): the functions' "
			     "variables and the types are in .dwo files, which mycl does not read; "
			     "build with -g alone to have them judged", cols);
	if (!s->types_walked)
		share_folded(f, "types: ", "none walked: the binary has no debug info describing its "
			     "functions (build with -g, or give --debug-dir)", cols);
	fputc('\n', f);
	for (size_t k = 0; k < n && k < max; k++) {
		const struct mycl_share_type *t = &s->types[idx[k]];
		char *ev = NULL;

		fprintf(f, "T%zu. %s (%" PRIu64 " bytes, aligned to %" PRIu64 "%s)", k + 1, t->name,
			t->size, t->align, t->align_declared ? ", declared" : "");
		if (t->verdict != MYCL_SHARE_OK)
			fprintf(f, ": %s", share_verdict_word(t->verdict));
		else if (t->padded)
			fputs(": padded to the line", f);
		fputc('\n', f);
		if (t->why)
			share_item(f, "   ", "why: ", t->why, cols);
		if (t->fix)
			share_item(f, "   ", "fix: ", t->fix, cols);
		if (s->weighted)
			ev = str_printf("%s; %" PRIu64 " samples on the members named, %" PRIu64 " on the "
					"type's accesses", t->shared ? t->shared : "no sign of sharing",
					t->samples_flagged, t->samples);
		else
			ev = str_printf("%s; %" PRIu64 " instructions touch it, %" PRIu64 " of them writes "
					"on hot paths", t->shared ? t->shared : "no sign of sharing",
					t->accesses, t->hot_writes);
		if (ev)
			share_item(f, "   ", "evidence: ", ev, cols);
		free(ev);
		members_text(f, s, t, wide);
		fputc('\n', f);
	}
	if (n > max)
		fprintf(f, "# %zu more types not shown (--max-lines)\n", n - max);
	if (padded) {
		char *list = NULL;
		size_t len = 0, shown = 0;
		FILE *m = open_memstream(&list, &len);

		for (size_t i = 0; m && i < s->nr_types; i++) {
			const struct mycl_share_type *t = &s->types[i];

			if (!t->padded || !t->hot_writes)
				continue;
			if (shown++ < 12)
				fprintf(m, "%s%s (%" PRIu64 ")", shown > 1 ? ", " : "", t->name, t->size);
		}
		if (m && shown > 12)
			fprintf(m, " and %zu more", shown - 12);
		if (m && !fclose(m) && list) {
			char *text = str_printf("written on hot paths, each a whole number of %u-byte "
						"lines, aligned or padded to them: %s", s->line_size,
						list);

			if (text)
				share_item(f, "", "padded: ", text, cols);
			free(text);
		}
		free(list);
	}
	free(idx);
}

int share_type_layout(FILE *f, const struct mycl_share *s, const char *name, bool wide)
{
	const struct mycl_share_type *t = NULL;
	uint64_t ls = s->line_size, at = 0;
	size_t w = 0;

	for (size_t i = 0; i < s->nr_types && !t; i++) {
		const char *n = s->types[i].name, *sp = strchr(n, ' ');

		if (!strcmp(n, name) || (sp && !strcmp(sp + 1, name)))
			t = &s->types[i];
	}
	if (!t)
		return -ENOENT;
	for (size_t i = 0; i < t->nr_members; i++) {
		size_t l = strlen(t->members[i].type) + strlen(t->members[i].name) + 2;

		w = l > w ? l : w;
	}
	if (!wide && w > 44)
		w = 44;
	fprintf(f, "%s {%*s/* offset  size role */\n", t->name,
		(int)(w + 8 > strlen(t->name) + 2 ? w + 8 - strlen(t->name) - 2 : 1), "");
	for (size_t i = 0; i < t->nr_members; i++) {
		const struct mycl_share_member *m = &t->members[i];
		char decl[512], cb[64];
		const char *d;

		if (m->offset > at)
			fprintf(f, "\t/* XXX %" PRIu64 " byte%s hole */\n", m->offset - at,
				m->offset - at == 1 ? "" : "s");
		/* (the boundaries in the hole above, or where this member starts) */
		for (uint64_t b = (at + ls - 1) / ls * ls; b && b <= m->offset; b += ls)
			fprintf(f, "\t/* --- line %" PRIu64 " boundary (%" PRIu64 " bytes)%s --- */\n",
				b / ls, b, b < m->offset ? ", in the hole" : "");
		{
			/* (an array's bounds after the name, as C declares it: char name[32];) */
			const char *br = strchr(m->type, '[');

			size_t tl = strlen(m->type);
			const char *sep = tl && m->type[tl - 1] == '*' ? "" : " ";

			if (br)
				snprintf(decl, sizeof(decl), "%.*s %s%s;", (int)(br - m->type), m->type,
					 m->name, br);
			else
				snprintf(decl, sizeof(decl), "%s%s%s;", m->type, sep, m->name);
		}
		d = cut(decl, wide ? 0 : w + 1, cb, sizeof(cb));
		fprintf(f, "\t%-*s /* %6" PRIu64 " %5" PRIu64 "  %c", (int)w + 1, d, m->offset, m->size,
			role_of(m));
		if (m->writer && (role_of(m) == 'W' || role_of(m) == 'w'))
			fprintf(f, "%s%s by %s", m->counters ? " ctr" : "", m->atomics ? " atomic" : "",
				m->writer);
		else if (m->reader && role_of(m) == 'R')
			fprintf(f, " read by %s", m->reader);
		if (s->weighted && m->samples)
			fprintf(f, ", %" PRIu64 " samples", m->samples);
		fputs(" */\n", f);
		for (uint64_t b = (m->offset / ls + 1) * ls; b < m->offset + m->size; b += ls)
			fprintf(f, "\t/* --- line %" PRIu64 " boundary (%" PRIu64 " bytes) falls inside "
				"the member above --- */\n", b / ls, b);
		if (m->offset + m->size > at)
			at = m->offset + m->size;
	}
	if (t->size > at)
		fprintf(f, "\t/* XXX %" PRIu64 " byte%s padding%s */\n", t->size - at,
			t->size - at == 1 ? "" : "s", t->padded_by ? " (the union's pad member)" : "");
	fprintf(f, "};\n");
	fprintf(f, "/* size: %" PRIu64 ", %" PRIu64 " line%s of %u bytes when it starts on one */\n",
		t->size, (t->size + ls - 1) / ls, (t->size + ls - 1) / ls == 1 ? "" : "s",
		s->line_size);
	if (t->align >= ls)
		fprintf(f, "/* aligned to %" PRIu64 ": every object starts on a line */\n", t->align);
	else
		fprintf(f, "/* aligned to %" PRIu64 ": objects start at any multiple of it; the "
			   "boundaries shown may move */\n", t->align);
	fprintf(f, "/* roles: W written on hot paths, w written while threads run, s at start-up "
		   "only, */\n/*        R read while threads run and never written then, - untouched "
		   "*/\n");
	if (t->truncated)
		fprintf(f, "/* (more members than laid out here) */\n");
	if (t->verdict != MYCL_SHARE_OK) {
		char *v = str_printf("%s%s", share_verdict_word(t->verdict),
				     t->certain ? "" : " (for some starts of the object)");

		if (v)
			share_item(f, "", "verdict: ", v, wide ? 0 : 100);
		free(v);
		if (t->why)
			share_item(f, "", "why: ", t->why, wide ? 0 : 100);
		if (t->fix)
			share_item(f, "", "fix: ", t->fix, wide ? 0 : 100);
	} else if (t->padded) {
		share_item(f, "", "verdict: ", t->align >= ls ? "padded to the line: objects of it share no "
			     "line" : "padded to a whole number of lines: objects of it share no line "
			     "when the first starts on one (the allocation's alignment, not in the debug "
			     "info)", wide ? 0 : 100);
	} else {
		share_item(f, "", "verdict: ", t->shared ? "no line flagged" :
			     "no line flagged (no sign that threads or processes share its objects)",
			     wide ? 0 : 100);
	}
	return ferror(f) ? -EIO : 0;
}

void share_types_json(struct json *j, const struct mycl_share *s, size_t max, bool all)
{
	static const char *const verdicts[] = { "ok", "writer_with_readers", "writers",
						 "hot_counter", "slots" };
	size_t n, *idx = ranked_types(s, all, &n);

	json_u64(j, "types_walked_functions", s->types_walked);
	json_bool(j, "split_dwarf", s->split_dwarf);
	json_u64(j, "types_reached", s->nr_types);
	json_begin_arr(j, "types");
	for (size_t k = 0; idx && k < n && (!max || k < max); k++) {
		const struct mycl_share_type *t = &s->types[idx[k]];

		json_begin_obj(j, NULL);
		json_str(j, "name", t->name);
		json_u64(j, "size", t->size);
		json_u64(j, "align", t->align);
		json_bool(j, "align_declared", t->align_declared);
		json_bool(j, "padded", t->padded);
		json_str(j, "verdict", verdicts[t->verdict]);
		json_str(j, "shared", t->shared);
		json_bool(j, "certain", t->certain);
		json_dbl(j, "score", t->score, 1);
		json_str(j, "why", t->why);
		json_str(j, "fix", t->fix);
		json_u64(j, "fix_size", t->fix_size);
		json_u64(j, "accesses", t->accesses);
		json_u64(j, "samples", t->samples);
		json_begin_arr(j, "members");
		for (size_t i = 0; i < t->nr_members; i++) {
			const struct mycl_share_member *m = &t->members[i];

			json_begin_obj(j, NULL);
			json_str(j, "name", m->name);
			json_str(j, "type", m->type);
			json_u64(j, "offset", m->offset);
			json_u64(j, "size", m->size);
			json_str(j, "role", role_word(role_of(m)));
			json_u64(j, "hot_writes", m->hot_writes);
			json_u64(j, "runtime_writes", m->runtime_writes);
			json_u64(j, "startup_writes", m->startup_writes);
			json_u64(j, "hot_reads", m->hot_reads);
			json_u64(j, "runtime_reads", m->runtime_reads);
			json_u64(j, "counters", m->counters);
			json_u64(j, "atomics", m->atomics);
			json_u64(j, "element_writes", m->element_writes);
			json_str(j, "writer", m->writer);
			json_str(j, "reader", m->reader);
			json_str(j, "example", m->example);
			json_u64(j, "samples", m->samples);
			json_end_obj(j);
		}
		json_end_arr(j);
		json_end_obj(j);
	}
	json_end_arr(j);
	free(idx);
}
