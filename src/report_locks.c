/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lock report as text and JSON. */
#include <errno.h>
#include <inttypes.h>
#include "mycl/locks.h"
#include "internal.h"
#include "json.h"
#include "report_priv.h"

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

MYCL_API int mycl_report__locks_text(FILE *f, const struct mycl_lock_report *r, double limit)
{
	if (limit <= 0)
		limit = 0.5;
	fprintf(f, "# Lock and spin time in '%s': %.2f%% of the samples (%" PRIu64 " of %" PRIu64 ")\n#\n",
		r->event ? r->event->name : "?", pct(r->period, r->total_period), r->samples,
		r->total_samples);
	if (!r->samples) {
		fprintf(f, "# no sample in a lock or spin primitive\n\n");
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "# By primitive (a sample counts for each primitive on its lock path):\n");
	for (size_t i = 0; i < r->nr_primitives; i++) {
		const struct mycl_lock_primitive *p = &r->primitives[i];

		if (pct(p->period, r->total_period) < limit / 5)
			break;
		fprintf(f, "#   %7.2f%%  %-44s %-8s %s\n", pct(p->period, r->total_period), p->name,
			p->layer, p->kind);
	}
	fprintf(f, "#\n# By lock site (the first caller that is not a lock primitive):\n#\n");
	for (size_t i = 0; i < r->nr_sites; i++) {
		const struct mycl_lock_site *s = &r->sites[i];

		if (pct(s->period, r->total_period) < limit)
			break;
		fprintf(f, "  %7.2f%%  %s (%s)\n", pct(s->period, r->total_period),
			str_or(s->sym, "[unknown]"), s->dso);
		if (s->via)
			fprintf(f, "            via %s\n", s->via);
		if (s->lock_word || s->seed)
			fprintf(f, "            %s%s%s%s%s\n", s->lock_word ? "lock word: " : "",
				str_or(s->lock_word, ""), s->lock_word && s->seed ? "   " : "",
				s->seed ? "spin-delay seed (written while spinning): " : "",
				str_or(s->seed, ""));
		if (s->callers && s->callers->nr_children)
			report_tree_text(f, s->callers, r->total_period, limit, 12);
		else
			fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_report__locks_json(FILE *f, const struct mycl_lock_report *r, double limit)
{
	struct json j;

	if (limit <= 0)
		limit = 0.5;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-locks/1");
	json_str(&j, "event", r->event ? r->event->name : NULL);
	json_dbl(&j, "overhead", pct(r->period, r->total_period), 4);
	json_u64(&j, "samples", r->samples);
	json_u64(&j, "total_samples", r->total_samples);
	json_begin_arr(&j, "primitives");
	for (size_t i = 0; i < r->nr_primitives; i++) {
		const struct mycl_lock_primitive *p = &r->primitives[i];

		json_begin_obj(&j, NULL);
		json_str(&j, "name", p->name);
		json_str(&j, "layer", p->layer);
		json_str(&j, "kind", p->kind);
		json_dbl(&j, "overhead", pct(p->period, r->total_period), 4);
		json_u64(&j, "samples", p->samples);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_begin_arr(&j, "sites");
	for (size_t i = 0; i < r->nr_sites; i++) {
		const struct mycl_lock_site *s = &r->sites[i];

		json_begin_obj(&j, NULL);
		json_str(&j, "site", s->sym);
		json_str(&j, "dso", s->dso);
		json_dbl(&j, "overhead", pct(s->period, r->total_period), 4);
		json_u64(&j, "samples", s->samples);
		json_str(&j, "via", s->via);
		json_str(&j, "lock_word", s->lock_word);
		json_str(&j, "seed", s->seed);
		json_bool(&j, "inlined_spin", s->inlined_spin);
		if (s->callers)
			report_tree_json(&j, "callers", s->callers, r->total_period, limit);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	return ferror(f) ? -EIO : 0;
}
