/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Annotations as text (made to be pasted into a ticket) and as JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/annotate.h"
#include "internal.h"
#include "json.h"
#include "report_priv.h"

#define HOT_PCT 1.0

static const char *marker(double pct)
{
	return pct >= 20 ? "***" : pct >= 5 ? "** " : pct >= HOT_PCT ? "*  " : "   ";
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

static void note(FILE *f, const struct mycl_annotate_line *l)
{
	bool any = false;

	if (l->global) {
		/* the member the debug info names in place of an offset: stats.n_hits for stats+0x8 */
		const char *g = l->data_expr && l->data_member && !l->data_unknown &&
				l->access && strcmp(l->access, "address") ? l->data_expr : l->global;

		fprintf(f, "  # %s%s%s", g, l->access ? " " : "", l->access ? l->access : "");
		any = true;
	}
	if (!l->global && l->data_where && !l->data_unknown && (l->data_expr || l->data_type)) {
		/* c->st->lookups rmw (struct stats +0x0); a member of no named variable: struct stats.lookups */
		if (l->data_expr)
			fprintf(f, "  # %s", l->data_expr);
		else
			fprintf(f, "  # (%s)%s%s", l->data_type, l->data_member ? "." : "",
				str_or(l->data_member, ""));
		if (l->data_access)
			fprintf(f, " %s", l->data_access);
		if (l->data_expr && l->data_member)
			fprintf(f, " (%s +%" PRId64 ")", l->data_type, l->data_offset);
		any = true;
	}
	if (l->line_shared_with) {
		fprintf(f, ", its line is shared with %s (written here)", l->line_shared_with);
		any = true;
	}
	if (l->after && l->samples) {
		fprintf(f, "%s%s", any ? ", after " : "  # after ", l->after);
		any = true;
	}
	if (l->target) {
		fprintf(f, "%s%s", any ? ", -> " : "  # -> ", l->target);
		any = true;
	}
	if (l->atomic) {
		fprintf(f, "%s", any ? ", atomic" : "  # atomic");
		any = true;
	}
	if (l->spin_hint)
		fprintf(f, "%s", any ? ", spin hint" : "  # spin hint");
}

/* How much of the function's time is on memory accesses, and whether their objects are known. */
static void data_summary(FILE *f, const struct mycl_annotation *a)
{
	if (!a->samples || !a->data_samples)
		return;
	fprintf(f, "# Data: %.1f%% of the samples count for a memory access (%s), the object named "
		"for %.1f%%\n", 100.0 * (double)a->data_samples / (double)a->samples,
		a->data_skid ? "a timer's for the instruction before" : "taken at the instruction",
		100.0 * (double)a->data_known_samples / (double)a->data_samples);
	for (size_t k = 0; k < a->nr_data_unknown; k++)
		fprintf(f, "#   not named, %.1f%%: %s\n",
			100.0 * (double)a->data_unknown[k].samples / (double)a->data_samples,
			a->data_unknown[k].why);
}

MYCL_API int mycl_report__annotation_text(FILE *f, const struct mycl_annotation *a, int context)
{
	const char *last_file = NULL;
	int last_line = -1;
	bool *show = NULL, skipping = false;

	fprintf(f, "# Annotation of %s in %s", str_or(a->sym, "?"), str_or(a->dso, "?"));
	if (a->why_not) {
		fprintf(f, ": not shown, %s\n\n", a->why_not);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, " (%s, 0x%" PRIx64 "-0x%" PRIx64 "): %" PRIu64 " samples, %.2f%% of the event\n",
		str_or(a->arch, "?"), a->start, a->end, a->samples, a->pct_total);
	fprintf(f, "# Percent of the function, of all samples; *** >= 20%%, ** >= 5%%, * >= 1%%\n");
	data_summary(f, a);
	if (a->nr_source_withheld)
		fprintf(f, "# Source: not shown for %zu instructions: %s\n", a->nr_source_withheld,
			a->source_withheld);
	fprintf(f, "#\n");
	if (context > 0) {
		show = calloc(a->nr_lines ? a->nr_lines : 1, sizeof(*show));
		if (!show)
			return -ENOMEM;
		for (size_t i = 0; i < a->nr_lines; i++) {
			if (a->lines[i].pct < HOT_PCT)
				continue;
			for (size_t k = i >= (size_t)context ? i - (size_t)context : 0;
			     k < a->nr_lines && k <= i + (size_t)context; k++)
				show[k] = true;
		}
	}
	for (size_t i = 0; i < a->nr_lines; i++) {
		const struct mycl_annotate_line *l = &a->lines[i];

		if (show && !show[i]) {
			if (!skipping)
				fprintf(f, "                       ...\n");
			skipping = true;
			continue;
		}
		skipping = false;
		if (l->file && (l->file != last_file || l->line != last_line)) {
			fprintf(f, "%24s%s:%d", "", base(l->file), l->line);
			if (l->source)
				fprintf(f, "  %s", l->source);
			fputc('\n', f);
			last_file = l->file;
			last_line = l->line;
		}
		if (l->inlined)
			fprintf(f, "%24s%s:\n", "", l->inlined);
		if (l->samples)
			fprintf(f, "  %6.2f  %6.2f %s", l->pct, l->pct_total, marker(l->pct));
		else
			fprintf(f, "%20s", "");
		fprintf(f, " %8" PRIx64 ":  %s", l->addr, l->insn);
		note(f, l);
		fputc('\n', f);
	}
	fputc('\n', f);
	free(show);
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_report__annotation_json(FILE *f, const struct mycl_annotation *a)
{
	struct json j;

	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-annotate/1");
	json_str(&j, "symbol", a->sym);
	json_str(&j, "dso", a->dso);
	json_str(&j, "arch", a->arch);
	json_hex(&j, "start", a->start);
	json_hex(&j, "end", a->end);
	json_u64(&j, "samples", a->samples);
	json_u64(&j, "period", a->period);
	json_dbl(&j, "overhead", a->pct_total, 4);
	json_str(&j, "not_shown", a->why_not);
	if (a->nr_source_withheld) {
		json_begin_obj(&j, "source_withheld");
		json_u64(&j, "instructions", a->nr_source_withheld);
		json_str(&j, "why", a->source_withheld);
		json_end_obj(&j);
	}
	if (a->data_samples) {
		json_begin_obj(&j, "data");
		json_u64(&j, "samples", a->data_samples);
		json_u64(&j, "known_samples", a->data_known_samples);
		json_begin_arr(&j, "unknown");
		for (size_t k = 0; k < a->nr_data_unknown; k++) {
			json_begin_obj(&j, NULL);
			json_str(&j, "why", a->data_unknown[k].why);
			json_u64(&j, "samples", a->data_unknown[k].samples);
			json_end_obj(&j);
		}
		json_end_arr(&j);
		json_end_obj(&j);
	}
	json_begin_arr(&j, "instructions");
	for (size_t i = 0; i < a->nr_lines; i++) {
		const struct mycl_annotate_line *l = &a->lines[i];

		json_begin_obj(&j, NULL);
		json_hex(&j, "address", l->addr);
		json_str(&j, "insn", l->insn);
		json_u64(&j, "samples", l->samples);
		json_u64(&j, "period", l->period);
		json_dbl(&j, "percent", l->pct, 4);
		json_dbl(&j, "percent_total", l->pct_total, 4);
		if (l->file) {
			json_str(&j, "file", l->file);
			json_i64(&j, "line", l->line);
			json_str(&j, "source", l->source);
		}
		if (l->inlined)
			json_str(&j, "inlined", l->inlined);
		if (l->target)
			json_str(&j, "target", l->target);
		if (l->global) {
			json_str(&j, "global", l->global);
			json_str(&j, "access", l->access);
		}
		if (l->after)
			json_str(&j, "after", l->after);
		if (l->data_where) {
			json_begin_obj(&j, "data");
			json_str(&j, "where", l->data_where);
			json_str(&j, "access", l->data_access);
			if (l->data_unknown) {
				json_str(&j, "unknown", l->data_unknown);
			} else {
				json_str(&j, "expr", l->data_expr);
				json_str(&j, "type", l->data_type);
				json_str(&j, "member", l->data_member);
				json_str(&j, "member_type", l->data_member_type);
				json_i64(&j, "offset", l->data_offset);
				json_u64(&j, "size", l->data_size);
			}
			json_end_obj(&j);
		}
		if (l->line_shared_with)
			json_str(&j, "line_shared_with", l->line_shared_with);
		if (l->atomic)
			json_bool(&j, "atomic", true);
		if (l->spin_hint)
			json_bool(&j, "spin_hint", true);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	return json_finish(&j);
}

int report_hot_annotations(const struct mycl_profile *p, size_t ev, size_t k,
			   const struct mycl_annotate_opts *ao,
			   bool (*skip)(const struct mycl_hot_row *r, void *skip_ctx), void *skip_ctx,
			   int (*fn)(const struct mycl_annotation *a, void *ctx), void *ctx)
{
	const struct mycl_profile_event *pe = mycl_profile__event(p, ev);
	size_t done = 0;

	for (size_t i = 0; i < pe->nr_rows && done < k; i++) {
		const struct mycl_hot_row *r = &pe->rows[i];
		struct mycl_annotation *a;
		int err;

		if (!r->sym || r->level != '.' || !r->samples || (skip && skip(r, skip_ctx)) ||
		    mycl_profile__annotate(p, ev, r, ao, &a))
			continue;
		err = fn(a, ctx);
		mycl_annotation__free(a);
		if (err)
			return err;
		done++;
	}
	return (int)done;
}
