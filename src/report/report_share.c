/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-share's report: flagged lines with their members, as text and JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "share_state.h"

static size_t *ranked(const struct mycl_share *s, size_t *n, bool all)
{
	size_t *idx = malloc((s->nr_lines ? s->nr_lines : 1) * sizeof(*idx)), k = 0;

	if (!idx)
		return NULL;
	for (size_t i = 0; i < s->nr_lines; i++)
		if (s->lines[i].verdict != MYCL_SHARE_OK || (all && s->lines[i].nr_members))
			idx[k++] = i;
	/* by score, highest first (insertion sort keeps it simple; lines flagged are few) */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && s->lines[idx[j]].score > s->lines[idx[j - 1]].score; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	*n = k;
	return idx;
}

static void member_text(FILE *f, const struct mycl_share *s, const struct mycl_share_line *l,
			const struct mycl_share_var *v)
{
	int64_t off = (int64_t)(v->addr - l->start);
	uint64_t w = v->stores + v->rmws;

	fprintf(f, "#   %s0x%03" PRIx64 "  %6" PRIu64 "  %-32s %s", off < 0 ? "-" : "+",
		(uint64_t)(off < 0 ? -off : off), v->size, v->name, w ? "W" : v->loads ? "R" : "-");
	fprintf(f, "  writes %" PRIu64, w);
	if (w)
		fprintf(f, " (%" PRIu64 " in loops, %" PRIu64 " in spin/lock code, %" PRIu64 " atomic)",
			v->in_loops, v->in_spin, v->atomics);
	fprintf(f, ", reads %" PRIu64, v->loads);
	if (v->addr_taken)
		fprintf(f, ", address taken %" PRIu64, v->addr_taken);
	if (s->weighted)
		fprintf(f, ", samples %" PRIu64, v->samples);
	if (v->type)
		fprintf(f, "  [%s]", v->type);
	fputc('\n', f);
}

static void line_text(FILE *f, const struct mycl_share *s, const struct mycl_share_line *l)
{
	fprintf(f, "# Line 0x%" PRIx64 "-0x%" PRIx64 " (%s)", l->start, l->start + s->line_size - 1,
		l->section ? l->section : "?");
	if (l->verdict != MYCL_SHARE_OK)
		fprintf(f, ", score %.0f", l->score);
	if (l->data_samples)
		fprintf(f, ", %" PRIu64 " data-address samples, %" PRIu64 " HITM", l->data_samples,
			l->hitm);
	fputc('\n', f);
	if (l->why)
		fprintf(f, "#   %s\n", l->why);
	if (l->fix)
		fprintf(f, "#   fix: %s\n", l->fix);
	for (size_t k = 0; k < l->nr_members; k++)
		member_text(f, s, l, &s->vars[l->members[k]]);
	fprintf(f, "#\n");
}

static const struct mycl_share_line *line_of(const struct mycl_share *s, const char *sym)
{
	for (size_t i = 0; i < s->nr_lines; i++)
		for (size_t k = 0; k < s->lines[i].nr_members; k++)
			if (!strcmp(s->vars[s->lines[i].members[k]].name, sym))
				return &s->lines[i];
	return NULL;
}

MYCL_API int mycl_share__write_text(FILE *f, const struct mycl_share *s,
				    const struct mycl_share_write_opts *o)
{
	size_t max = OPTS_GET(o, max_lines, 0) ? OPTS_GET(o, max_lines, 0) : 20, n, flagged = 0;
	const char *sym = OPTS_GET(o, symbol, NULL);
	size_t *idx;

	if (sym) {
		const struct mycl_share_line *l = line_of(s, sym);
		size_t i;

		if (!l)
			return -ENOENT;
		i = (size_t)(l - s->lines);
		fprintf(f, "# %s on %u-byte lines (%s):\n#\n", sym, s->line_size, s->arch);
		/* The line, with the lines before and after it when they are neighbours. */
		if (i > 0 && s->lines[i - 1].start + s->line_size == l->start)
			line_text(f, s, &s->lines[i - 1]);
		line_text(f, s, l);
		if (i + 1 < s->nr_lines && l->start + s->line_size == s->lines[i + 1].start)
			line_text(f, s, &s->lines[i + 1]);
		return ferror(f) ? -EIO : 0;
	}
	idx = ranked(s, &n, OPTS_GET(o, all_lines, false));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_lines; i++)
		flagged += s->lines[i].verdict != MYCL_SHARE_OK;
	fprintf(f, "# mycl-share: %s (%s, %u-byte lines): %zu variables, %zu lines, %zu flagged\n",
		s->dso->path, s->arch, s->line_size, s->nr_vars, s->nr_lines, flagged);
	fprintf(f, "# W: written (stores or read-modify-writes found in the code), R: only read.\n");
	fprintf(f, "# Score: writes, x4 in loops and atomics, x8 in spin/lock code, times the\n"
		   "# readers sharing the line%s.\n#\n", s->weighted ? "; plus sampled instructions "
		   "touching the members and data-address samples (HITM x10)" : "");
	for (size_t k = 0; k < n && k < max; k++)
		line_text(f, s, &s->lines[idx[k]]);
	if (n > max)
		fprintf(f, "# %zu more lines not shown (--max-lines)\n", n - max);
	if (s->data_samples) {
		fprintf(f, "#\n# Data-address samples: %" PRIu64 " (perf mem / c2c), busiest lines:\n",
			s->data_samples);
		for (size_t b = 0, shown = 0; shown < 10 && b < s->nr_buckets; b++) {
			size_t best = b;

			for (size_t j = b + 1; j < s->nr_buckets; j++)
				if (s->buckets[j].samples > s->buckets[best].samples)
					best = j;
			if (best != b) {
				struct share_bucket t = s->buckets[b];

				s->buckets[b] = s->buckets[best];
				s->buckets[best] = t;
			}
			fprintf(f, "#   0x%016" PRIx64 "  %6" PRIu64 " samples  %6" PRIu64 " HITM\n",
				s->buckets[b].line, s->buckets[b].samples, s->buckets[b].hitm);
			shown++;
		}
	}
	free(idx);
	return ferror(f) ? -EIO : 0;
}

static void member_json(struct json *j, const struct mycl_share_line *l, const struct mycl_share_var *v)
{
	json_begin_obj(j, NULL);
	json_str(j, "name", v->name);
	json_str(j, "type", v->type);
	json_str(j, "origin", v->origin);
	json_hex(j, "address", v->addr);
	json_i64(j, "offset", (int64_t)(v->addr - l->start));
	json_u64(j, "size", v->size);
	json_u64(j, "loads", v->loads);
	json_u64(j, "stores", v->stores);
	json_u64(j, "rmws", v->rmws);
	json_u64(j, "atomics", v->atomics);
	json_u64(j, "writes_in_loops", v->in_loops);
	json_u64(j, "writes_in_spin", v->in_spin);
	json_u64(j, "address_taken", v->addr_taken);
	json_u64(j, "samples", v->samples);
	json_end_obj(j);
}

MYCL_API int mycl_share__write_json(FILE *f, const struct mycl_share *s,
				    const struct mycl_share_write_opts *o)
{
	static const char *const verdicts[] = { "ok", "writer_with_readers", "writers" };
	size_t max = OPTS_GET(o, max_lines, 0), n;
	size_t *idx = ranked(s, &n, OPTS_GET(o, all_lines, false));
	struct json j;

	if (!idx)
		return -ENOMEM;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-share/1");
	json_str(&j, "binary", s->dso->path);
	json_str(&j, "arch", s->arch);
	json_u64(&j, "line_size", s->line_size);
	json_u64(&j, "variables", s->nr_vars);
	json_u64(&j, "data_samples", s->data_samples);
	json_begin_arr(&j, "lines");
	for (size_t k = 0; k < n && (!max || k < max); k++) {
		const struct mycl_share_line *l = &s->lines[idx[k]];

		json_begin_obj(&j, NULL);
		json_hex(&j, "start", l->start);
		json_str(&j, "section", l->section);
		json_str(&j, "verdict", verdicts[l->verdict]);
		json_dbl(&j, "score", l->score, 1);
		json_str(&j, "why", l->why);
		json_str(&j, "fix", l->fix);
		json_u64(&j, "samples", l->samples);
		json_u64(&j, "data_samples", l->data_samples);
		json_u64(&j, "hitm", l->hitm);
		json_begin_arr(&j, "members");
		for (size_t m = 0; m < l->nr_members; m++)
			member_json(&j, l, &s->vars[l->members[m]]);
		json_end_arr(&j);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_begin_arr(&j, "data_lines");
	for (size_t b = 0; b < s->nr_buckets; b++) {
		json_begin_obj(&j, NULL);
		json_hex(&j, "line", s->buckets[b].line);
		json_u64(&j, "samples", s->buckets[b].samples);
		json_u64(&j, "hitm", s->buckets[b].hitm);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	free(idx);
	return json_finish(&j);
}
