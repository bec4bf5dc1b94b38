/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-share's report: flagged lines with their members, as text and JSON. */
#include <errno.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "share_state.h"
#include "report_share.h"

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

/* NAME in at most W columns: the middle dropped ("abc...xyz"). */
static const char *shorten(const char *name, size_t w, char *buf, size_t len)
{
	size_t n = strlen(name), head, tail;

	if (!w || n <= w || w < 8 || len <= w)
		return name;
	head = (w - 3) / 2;
	tail = w - 3 - head;
	memcpy(buf, name, head);
	memcpy(buf + head, "...", 3);
	memcpy(buf + head + 3, name + n - tail, tail);
	buf[w] = 0;
	return buf;
}


static char flag_of(const struct mycl_share_var *v)
{
	if (v->kind != MYCL_SHARE_VAR_PLAIN)
		return v->kind == MYCL_SHARE_VAR_READ_MOSTLY ? 'M' : 'L';
	/* (unrun: written hot by the code, but no sample shows it: runtime, not hot) */
	if (v->chain_unseen)
		return 'w';
	if (v->hot_writes + v->sampled_writes)
		return 'W';
	if (v->warm_writes + v->unknown_writes)
		return 'w';
	if (v->startup_writes)
		return 's';
	return v->runtime_reads + v->sampled_reads ? 'R' : '-';
}

static void member_text(FILE *f, const struct mycl_share *s, const struct mycl_share_line *l,
			const struct mycl_share_var *v, bool wide)
{
	int64_t off = (int64_t)(v->addr - l->start);
	char buf[64];

	fprintf(f, "   %s0x%03" PRIx64 " %6" PRIu64 " %c %-30s", off < 0 ? "-" : "+",
		(uint64_t)(off < 0 ? -off : off), v->size, flag_of(v),
		wide ? v->name : shorten(v->name, 30, buf, sizeof(buf)));
	share_counts(f, (const uint64_t[3]){ v->hot_writes, v->warm_writes + v->unknown_writes,
					      v->startup_writes },
		     (const uint64_t[2]){ v->hot_reads, v->runtime_reads }, v->counter_writes,
		     v->indexed_writes, v->atomics);
	if (s->weighted && v->samples)
		fprintf(f, " smp %" PRIu64 "w/%" PRIu64 "r", v->sampled_writes, v->sampled_reads);
	if (v->chain_unseen)
		fputs(" unrun", f);
	if (v->spin_writes && !v->atomics)
		fputs(" spin", f);
	if (wide && v->type)
		fprintf(f, "  [%s]", v->type);
	fputc('\n', f);
}


static void line_text(FILE *f, const struct mycl_share *s, const struct mycl_share_line *l,
		      size_t rank, bool wide)
{
	size_t cols = wide ? 0 : 100;

	if (rank)
		fprintf(f, "%zu. ", rank);
	fprintf(f, "line 0x%" PRIx64 " (%s)", l->start, l->section ? l->section : "?");
	if (l->verdict != MYCL_SHARE_OK)
		fprintf(f, ": %s", share_verdict_word(l->verdict));
	fputc('\n', f);
	if (l->why)
		share_item(f, "   ", "why: ", l->why, cols);
	if (l->fix)
		share_item(f, "   ", "fix: ", l->fix, cols);
	if (l->evidence)
		share_item(f, "   ", "evidence: ", l->evidence, cols);
	for (size_t k = 0; k < l->nr_members; k++)
		member_text(f, s, l, &s->vars[l->members[k]], wide);
	fputc('\n', f);
}

static const struct mycl_share_line *line_of(const struct mycl_share *s, const char *sym)
{
	for (size_t i = 0; i < s->nr_lines; i++)
		for (size_t k = 0; k < s->lines[i].nr_members; k++)
			if (!strcmp(s->vars[s->lines[i].members[k]].name, sym))
				return &s->lines[i];
	return NULL;
}

/* The variables reported apart: declared read-mostly, copied from libraries. */
static void apart_text(FILE *f, const struct mycl_share *s, bool wide)
{
	size_t nm = 0, nl = 0, nk = 0;
	const char *msec = NULL;
	char *libs = NULL, *linked = NULL;
	size_t len = 0, klen = 0, shown = 0, kshown = 0;
	FILE *m = open_memstream(&libs, &len), *k = open_memstream(&linked, &klen);

	for (size_t i = 0; i < s->nr_vars; i++) {
		const struct mycl_share_var *v = &s->vars[i];

		if (v->kind == MYCL_SHARE_VAR_READ_MOSTLY) {
			nm++;
			msec = v->section;
		} else if (v->kind == MYCL_SHARE_VAR_LIBRARY) {
			nl++;
			if (m && shown++ < 6)
				fprintf(m, "%s%s", shown > 1 ? ", " : "", v->name);
		} else if (v->kind == MYCL_SHARE_VAR_LINKED) {
			nk++;
			if (k && kshown++ < 6)
				fprintf(k, "%s%s", kshown > 1 ? ", " : "", v->name);
		}
	}
	if (m)
		fclose(m);
	if (k)
		fclose(k);
	if (nm) {
		char *t = NULL;

		if (asprintf(&t, "%zu variables in %s, a section the program declares read-mostly "
			     "(written at start-up): not flagged", nm, msec) > 0)
			share_item(f, "", "apart: ", t, wide ? 0 : 100);
		free(t);
	}
	if (nl && libs) {
		char *t = NULL;

		if (asprintf(&t, "%zu objects of libraries copied into the program (%s%s): the "
			     "libraries write them, not this code; not flagged", nl, libs,
			     nl > 6 ? ", ..." : "") > 0)
			share_item(f, "", "apart: ", t, wide ? 0 : 100);
		free(t);
	}
	if (nk && linked) {
		char *t = NULL;

		if (asprintf(&t, "%zu objects that only code outside the program's debug info touches, "
			     "a library linked in (%s%s): not the program's own; not flagged", nk,
			     linked, nk > 6 ? ", ..." : "") > 0)
			share_item(f, "", "apart: ", t, wide ? 0 : 100);
		free(t);
	}
	free(libs);
	free(linked);
}

/* What the report cannot see: stores to data no symbol names. */
static void blind(FILE *f, const struct mycl_share *s, bool wide)
{
	char *t = NULL;

	if (!s->unnamed_writes || s->dso->symtab_full)
		return;
	if (asprintf(&t, "%" PRIu64 " stores go to .data/.bss addresses no symbol names: the binary "
		     "has no symbol table for its own variables (stripped), so their lines cannot be "
		     "judged; %s%s", s->unnamed_writes,
		     s->debug_hint ? s->debug_hint : "point --debug-dir at its debug file",
		     s->debug_hint ? " (or --debug-dir DIR) gives them names" : "") > 0)
		share_item(f, "", "unseen: ", t, wide ? 0 : 100);
	free(t);
}

/* The first of the program's own variables its code updates atomically, or NULL. */
static const struct mycl_share_var *atomic_var(const struct mycl_share *s)
{
	for (size_t i = 0; i < s->nr_vars; i++)
		if (s->vars[i].atomics && s->vars[i].kind == MYCL_SHARE_VAR_PLAIN)
			return &s->vars[i];
	return NULL;
}

MYCL_API int mycl_share__write_text(FILE *f, const struct mycl_share *s,
				    const struct mycl_share_write_opts *o)
{
	const struct mycl_share_var *atomic;
	size_t max = OPTS_GET(o, max_lines, 0) ? OPTS_GET(o, max_lines, 0) : 20, n, flagged = 0;
	const char *sym = OPTS_GET(o, symbol, NULL);
	bool wide = OPTS_GET(o, wide, false);
	size_t *idx;
	char *head = NULL;

	if (!OPTS_VALID(o, mycl_share_write_opts))
		return MYCL_ERR_OPTS;
	if (OPTS_GET(o, type, NULL))
		return s->types_done ? share_type_layout(f, s, o->type, wide) : -EINVAL;
	if (sym) {
		const struct mycl_share_line *l = line_of(s, sym);
		size_t i;

		if (!l)
			return -ENOENT;
		i = (size_t)(l - s->lines);
		fprintf(f, "# %s on %u-byte lines (%s):\n\n", sym, s->line_size, s->arch);
		/* The line, with the lines before and after it when they are neighbours. */
		if (i > 0 && s->lines[i - 1].start + s->line_size == l->start)
			line_text(f, s, &s->lines[i - 1], 0, wide);
		line_text(f, s, l, 0, wide);
		if (i + 1 < s->nr_lines && l->start + s->line_size == s->lines[i + 1].start)
			line_text(f, s, &s->lines[i + 1], 0, wide);
		return ferror(f) ? -EIO : 0;
	}
	idx = ranked(s, &n, OPTS_GET(o, all_lines, false));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_lines; i++)
		flagged += s->lines[i].verdict != MYCL_SHARE_OK;
	if (asprintf(&head, "%s (%s, %u-byte lines): %zu variables, %zu lines, %zu flagged",
		     s->name, s->arch, s->line_size, s->nr_vars, s->nr_lines, flagged) > 0)
		share_folded(f, "mycl-share: ", head, wide ? 0 : 100);
	free(head);
	head = NULL;
	if (!s->threaded && !s->assume_threads && (atomic = atomic_var(s)) &&
	    asprintf(&head, "none started (no call to pthread_create or the like), yet its own code "
		     "updates %s atomically: threads a library starts would share its lines; no line "
		     "is flagged (--assume-threads judges them as if threads ran the code)",
		     atomic->name) > 0)
		share_folded(f, "threads: ", head, wide ? 0 : 100);
	else if (!s->threaded)
		share_folded(f, "threads: ", s->assume_threads ?
		       "none started (no call to pthread_create or the like); judged as if several "
		       "threads ran the code (--assume-threads)" :
		       "none started (no call to pthread_create or the like): each process has its "
		       "own copy of these globals, so none can share a line with another thread's; "
		       "no line is flagged (--assume-threads judges them as if threads ran the code)",
		       wide ? 0 : 100);
	else if (!s->nr_entries && s->joined_elsewhere &&
		 asprintf(&head, "started outside this binary: it joins threads (%s) but starts none "
			  "itself; what it hands to other libraries is judged as running on them",
			  s->joined_elsewhere) > 0)
		share_folded(f, "threads: ", head, wide ? 0 : 100);
	else if (s->nr_entries &&
		 asprintf(&head, "%zu thread entries found (%s%s)", s->nr_entries, s->first_entry,
			  s->nr_entries > 1 ? ", ..." : "") > 0)
		share_folded(f, "threads: ", head, wide ? 0 : 100);
	free(head);
	head = NULL;
	if (s->static_blind)
		share_folded(f, "WARNING: ", "linked statically, without debug info: the C library's own "
		       "objects (malloc's arenas, the loader's state) cannot be told from the "
		       "program's and may be among the flagged lines; give mycl-share the debug "
		       "file, or build with -g, to set them apart", wide ? 0 : 100);
	if (s->weighted) {
		/* Call chains, leaf samples only (no -g: a writer by its own samples), or neither. */
		const char *order = s->chains ? "; lines with sampled writes rank first, then those whose "
						"writers run on the chains" :
				    s->chain_total ? ", no call chains: a writer counts by its own samples, "
						     "not its callees' (perf record -g would show those); "
						     "lines with sampled writes rank first, then those "
						     "whose writers ran" :
				    "; sampled lines rank first";
		char chains[64] = "";

		if (s->chains)
			snprintf(chains, sizeof(chains), ", %" PRIu64 " with it on their call chains",
				 s->chain_total);
		if (asprintf(&head, "%" PRIu64 " samples in this binary%s (%" PRIu64 " credited to the "
			     "instruction before: skid)%s", s->binary_samples, chains, s->skid_samples,
			     order) > 0)
			share_folded(f, "recording: ", head, wide ? 0 : 100);
	} else if (flagged && (s->threaded || s->assume_threads)) {
		share_folded(f, "ranking: ", "by the code alone: every path a thread may take counts, whether "
		       "the workload takes it or not (an admin command, an error path); to rank by "
		       "what runs, record the program under its load (perf record --call-graph dwarf "
		       "-p PID -- sleep 30) and add --perf perf.data", wide ? 0 : 100);
	}
	free(head);
	fprintf(f, "# Per variable: W written in hot code (while threads run, in a loop here or up the\n"
		   "# call chain), w written while threads run, s written at start-up only, R read,\n"
		   "# M declared read-mostly, L a library's; w hot/runtime/start-up writes, r hot/all\n"
		   "# runtime reads; ctr increments, idx at a computed index, spin written while\n"
		   "# spinning (in a spin-wait or what it calls: its delay's seed, or a lock word)%s.\n\n",
		   s->weighted ? (s->chains ? ";\n# smp sampled writes/reads; unrun hot by the code, "
				  "but no sample or call chain shows the write run" :
				  ";\n# smp sampled writes/reads") : "");
	for (size_t k = 0; k < n && k < max; k++)
		line_text(f, s, &s->lines[idx[k]], k + 1, wide);
	if (n > max)
		fprintf(f, "# %zu more lines not shown (--max-lines)\n", n - max);
	apart_text(f, s, wide);
	blind(f, s, wide);
	if (s->types_done)
		share_types_text(f, s, max, OPTS_GET(o, all_lines, false), wide);
	if (s->data_samples) {
		fprintf(f, "\n# Data-address samples: %" PRIu64 " (perf mem / c2c), busiest lines:\n",
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
			fprintf(f, "   0x%016" PRIx64 "  %6" PRIu64 " samples  %6" PRIu64 " HITM\n",
				s->buckets[b].line, s->buckets[b].samples, s->buckets[b].hitm);
			shown++;
		}
	}
	free(idx);
	return ferror(f) ? -EIO : 0;
}

static const char *const kinds[] = { "plain", "read_mostly", "library", "linked_library" };

static void member_json(struct json *j, const struct mycl_share_line *l, const struct mycl_share_var *v)
{
	json_begin_obj(j, NULL);
	json_str(j, "name", v->name);
	json_str(j, "type", v->type);
	json_str(j, "origin", v->origin);
	json_str(j, "kind", kinds[v->kind]);
	json_hex(j, "address", v->addr);
	json_i64(j, "offset", (int64_t)(v->addr - l->start));
	json_u64(j, "size", v->size);
	json_u64(j, "loads", v->loads);
	json_u64(j, "stores", v->stores);
	json_u64(j, "rmws", v->rmws);
	json_u64(j, "atomics", v->atomics);
	json_u64(j, "hot_writes", v->hot_writes);
	json_u64(j, "warm_writes", v->warm_writes);
	json_u64(j, "startup_writes", v->startup_writes);
	json_u64(j, "unknown_writes", v->unknown_writes);
	json_u64(j, "hot_reads", v->hot_reads);
	json_u64(j, "runtime_reads", v->runtime_reads);
	json_u64(j, "counter_writes", v->counter_writes);
	json_u64(j, "indexed_writes", v->indexed_writes);
	json_u64(j, "elem_size", v->elem_size);
	json_u64(j, "stride", v->stride);
	json_u64(j, "callee_writes", v->callee_writes);
	json_str(j, "hot_path", v->hot_path);
	json_u64(j, "address_taken", v->addr_taken);
	json_u64(j, "samples", v->samples);
	json_u64(j, "sampled_writes", v->sampled_writes);
	json_u64(j, "sampled_reads", v->sampled_reads);
	json_u64(j, "skid_samples", v->skid_samples);
	json_u64(j, "spin_writes", v->spin_writes);
	json_u64(j, "chain_samples", v->chain_samples);
	json_str(j, "chain_writer", v->chain_writer);
	if (v->chain_unseen)
		json_bool(j, "chain_unseen", true);
	json_begin_arr(j, "writers");
	for (size_t i = 0; i < v->nr_writers; i++) {
		json_begin_obj(j, NULL);
		json_str(j, "function", v->writers[i].function);
		json_hex(j, "address", v->writers[i].addr);
		json_str(j, "heat", v->writers[i].heat);
		json_u64(j, "writes", v->writers[i].writes);
		json_str(j, "why", v->writers[i].why);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

MYCL_API int mycl_share__write_json(FILE *f, const struct mycl_share *s,
				    const struct mycl_share_write_opts *o)
{
	static const char *const verdicts[] = { "ok", "writer_with_readers", "writers",
						 "hot_counter", "slots" };
	size_t max = OPTS_GET(o, max_lines, 0), n;
	size_t *idx;
	struct json j;

	if (!OPTS_VALID(o, mycl_share_write_opts))
		return MYCL_ERR_OPTS;
	idx = ranked(s, &n, OPTS_GET(o, all_lines, false));
	if (!idx)
		return -ENOMEM;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-share/2");
	json_str(&j, "binary", s->name);
	json_str(&j, "arch", s->arch);
	json_u64(&j, "line_size", s->line_size);
	json_u64(&j, "variables", s->nr_vars);
	json_u64(&j, "data_samples", s->data_samples);
	json_bool(&j, "threaded", s->threaded);
	json_bool(&j, "static_without_debug_info", s->static_blind);
	json_str(&j, "ranked_by", s->weighted ? "recording" : "code");
	json_u64(&j, "unnamed_writes", s->unnamed_writes);
	json_u64(&j, "thread_entries", s->nr_entries);
	if (s->joined_elsewhere)
		json_str(&j, "threads_joined_with", s->joined_elsewhere);
	if (s->weighted) {
		json_u64(&j, "binary_samples", s->binary_samples);
		json_u64(&j, "skid_samples", s->skid_samples);
		json_u64(&j, "chain_samples", s->chain_total);
	}
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
		json_str(&j, "evidence", l->evidence);
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
	if (s->types_done)
		share_types_json(&j, s, max, OPTS_GET(o, all_lines, false));
	json_end_obj(&j);
	free(idx);
	return json_finish(&j);
}
