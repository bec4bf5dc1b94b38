/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lock report as text and JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include "mycl/locks.h"
#include "internal.h"
#include "json.h"
#include "report_priv.h"

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

		if (pct(p->period, r->total_period) < limit / 5) {
			/* Rows left out are said, with the option that shows them. */
			fprintf(f, "#   %zu primitive%s below %.2f%% of the samples (--graph-limit %.2g "
				"shows more)\n", r->nr_primitives - i, r->nr_primitives - i == 1 ? "" : "s",
				limit / 5, limit / 50);
			break;
		}
		fprintf(f, "#   %7.2f%%  %-44s %-8s %s\n", pct(p->period, r->total_period), p->name,
			p->layer, p->kind);
	}
	fprintf(f, "#\n# By lock site (the first caller that is not a lock primitive):\n#\n");
	for (size_t i = 0; i < r->nr_sites; i++) {
		const struct mycl_lock_site *s = &r->sites[i];

		if (pct(s->period, r->total_period) < limit) {
			fprintf(f, "# %zu lock site%s below %.2f%% of the samples (--graph-limit %.2g shows "
				"more)\n", r->nr_sites - i, r->nr_sites - i == 1 ? "" : "s", limit,
				limit / 10);
			break;
		}
		fprintf(f, "  %7.2f%%  %s (%s)\n", pct(s->period, r->total_period),
			str_or(s->sym, "[unknown]"), s->dso);
		for (size_t v = 0; v < s->nr_via; v++)
			fprintf(f, "%s%s %.0f%%%s", v ? ", " : "            via ", s->vias[v].name,
				pct(s->vias[v].period, s->period), v + 1 == s->nr_via ? "\n" : "");
		if (s->lock_word)
			fprintf(f, "            lock: %s (%s)\n", s->lock_word,
				str_or(s->lock_word_from, "code"));
		if (s->seed)
			fprintf(f, "            spin-delay seed (written while spinning): %s\n", s->seed);
		if (s->from_call_site_period)
			fprintf(f, "            %.0f%% of it with the site's frame put back from the call "
				"instruction (the chain had lost it)\n",
				pct(s->from_call_site_period, s->period));
		if (s->by_object_period)
			fprintf(f, "            %.0f%% of it by object: stacks that lost their site were on "
				"this lock's futex word\n", pct(s->by_object_period, s->period));
		if (s->lost_frames_period * 5 >= s->period)
			fprintf(f, "            %.0f%% of it came through frames the frame-pointer chains lost "
				"(code without frame pointers): the true site is below; %s\n",
				pct(s->lost_frames_period, s->period), str_or(r->fix, ""));
		if (s->stack_cut)
			fprintf(f, "            the stacks do not show who called the lock primitives (frames "
				"lost or unresolved): %s\n", str_or(r->fix, ""));
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
	json_str(&j, "fix", r->fix);
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
		json_begin_arr(&j, "via");
		for (size_t v = 0; v < s->nr_via; v++) {
			json_begin_obj(&j, NULL);
			json_str(&j, "primitive", s->vias[v].name);
			json_dbl(&j, "share", s->period ? (double)s->vias[v].period / (double)s->period : 0, 4);
			json_end_obj(&j);
		}
		json_end_arr(&j);
		json_str(&j, "lock_word", s->lock_word);
		json_str(&j, "lock_word_from", s->lock_word_from);
		json_str(&j, "seed", s->seed);
		json_dbl(&j, "from_call_site", pct(s->from_call_site_period, s->period), 2);
		json_dbl(&j, "by_object", pct(s->by_object_period, s->period), 2);
		json_bool(&j, "stack_cut", s->stack_cut);
		json_dbl(&j, "lost_frames", pct(s->lost_frames_period, s->period), 2);
		json_bool(&j, "inlined_spin", s->inlined_spin);
		if (s->callers)
			report_tree_json(&j, "callers", s->callers, r->total_period, limit);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	return json_finish(&j);
}

static void addr_lines(FILE *f, const char *title, const struct mycl_addr_wait *v, size_t n)
{
	if (!n)
		return;
	fprintf(f, "# %s\n#        waits      wait time  address             symbol\n", title);
	for (size_t i = 0; i < n && i < 10; i++)
		fprintf(f, "#   %10" PRIu64 "  %11.3f ms  0x%016" PRIx64 "  %s\n", v[i].waits,
			(double)v[i].wait_ns / 1e6, v[i].addr, str_or(v[i].symbol, ""));
	fprintf(f, "#\n");
}

/* The lock waits by lock site, or the other waits (the first MAX). */
static void waits_section(FILE *f, const struct mycl_wait_report *w, bool lock, double limit, size_t max)
{
	uint64_t total = lock ? w->lock_wait_ns : w->total_wait_ns - w->lock_wait_ns;
	size_t shown = 0;
	char row[1024];
	int len;

	if (!total) {
		fprintf(f, "# %s\n#\n", lock ? "No wait for a lock." : "No other wait.");
		return;
	}
	fprintf(f, lock ? "# Waits for a lock, by lock site (%.3f ms):\n#\n" :
			  "# Other waits: I/O, poll, idle condition variables (%.3f ms):\n#\n",
		(double)total / 1e6);
	for (size_t i = 0; i < w->nr_sites && shown < max; i++) {
		const struct mycl_offcpu_site *s = &w->sites[i];

		if (s->lock != lock)
			continue;
		if (pct(s->wait_ns, w->total_wait_ns) < limit)
			break;
		shown++;
		len = snprintf(row, sizeof(row), "  %7.2f%%  %11.3f ms  %6" PRIu64 " waits  %s (%s)",
			       pct(s->wait_ns, w->total_wait_ns), (double)s->wait_ns / 1e6, s->waits,
			       str_or(s->sym, "[unknown]"), str_or(s->dso, "?"));
		/* (the primitive under the site on a line of its own when the row would pass 100) */
		if (s->via && len > 0 && (size_t)len + 5 + strlen(s->via) > 100)
			fprintf(f, "%s\n              via %s\n", row, s->via);
		else
			fprintf(f, "%s%s%s\n", row, s->via ? " via " : "", str_or(s->via, ""));
		if (lock && s->callers && s->callers->nr_children)
			report_tree_text(f, s->callers, s->callers->period, limit, 12);
		else if (lock && (!s->sym || (s->via && !strcmp(s->sym, s->via))))
			/* the chains stopped in the primitive's library: who waited is not known */
			fprintf(f, "# %12s(no caller: the call chains end in %s; perf record "
				"--call-graph dwarf shows the code that waited)\n", "",
				str_or(s->dso, "?"));
	}
	fprintf(f, "#\n");
}

MYCL_API int mycl_report__waits_text(FILE *f, const struct mycl_wait_report *w, double limit)
{
	if (limit <= 0)
		limit = 0.5;
	if (w->have_sched_switch) {
		fprintf(f, "# Off-CPU waits (sched:sched_switch, asleep until switched in again): "
			"%.3f ms in all, %.3f ms of them for a lock\n#\n", (double)w->total_wait_ns / 1e6,
			(double)w->lock_wait_ns / 1e6);
		waits_section(f, w, true, limit, SIZE_MAX);
		waits_section(f, w, false, limit, 5);
		fputc('\n', f);
	}
	addr_lines(f, "Futex waits by word (syscalls:sys_enter_futex/sys_exit_futex):", w->futexes,
		   w->nr_futexes);
	addr_lines(f, "Kernel lock contention (lock:contention_begin/end):", w->locks, w->nr_locks);
	return ferror(f) ? -EIO : 0;
}

static void addr_json(struct json *j, const char *key, const struct mycl_addr_wait *v, size_t n)
{
	json_begin_arr(j, key);
	for (size_t i = 0; i < n; i++) {
		json_begin_obj(j, NULL);
		json_hex(j, "address", v[i].addr);
		json_str(j, "symbol", v[i].symbol);
		json_u64(j, "waits", v[i].waits);
		json_u64(j, "wait_ns", v[i].wait_ns);
		json_end_obj(j);
	}
	json_end_arr(j);
}

MYCL_API int mycl_report__waits_json(FILE *f, const struct mycl_wait_report *w, double limit)
{
	struct json j;

	if (limit <= 0)
		limit = 0.5;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-waits/1");
	json_u64(&j, "total_wait_ns", w->total_wait_ns);
	json_u64(&j, "lock_wait_ns", w->lock_wait_ns);
	json_begin_arr(&j, "sites");
	for (size_t i = 0; i < w->nr_sites; i++) {
		const struct mycl_offcpu_site *s = &w->sites[i];

		json_begin_obj(&j, NULL);
		json_str(&j, "site", s->sym);
		json_str(&j, "dso", s->dso);
		json_str(&j, "via", s->via);
		json_bool(&j, "lock", s->lock);
		json_u64(&j, "waits", s->waits);
		json_u64(&j, "wait_ns", s->wait_ns);
		if (s->callers)
			report_tree_json(&j, "callers", s->callers, s->callers->period, limit);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	addr_json(&j, "futexes", w->futexes, w->nr_futexes);
	addr_json(&j, "kernel_locks", w->locks, w->nr_locks);
	json_end_obj(&j);
	return json_finish(&j);
}
