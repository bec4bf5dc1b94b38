/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lines of a mycl-share analysis: variables grouped by cache line (of
 * any size: --what-if regroups), and each line judged by who writes and
 * reads its members, with the evidence its rank rests on.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "share_state.h"

struct line_var {
	uint64_t line;
	size_t var;
};

static int lv_cmp(const void *a, const void *b)
{
	const struct line_var *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->var < y->var ? -1 : x->var > y->var;
}

/* Written while the threads run, by the code or by the samples. */
static bool runtime_written(const struct mycl_share_var *v)
{
	return v->kind == MYCL_SHARE_VAR_PLAIN &&
	       (v->hot_writes + v->warm_writes + v->unknown_writes + v->sampled_writes > 0);
}

/* Written on hot paths: by the samples, or by the code where the recording does not say otherwise. */
static bool hot_written(const struct mycl_share_var *v)
{
	return v->kind == MYCL_SHARE_VAR_PLAIN && !v->chain_unseen &&
	       (v->hot_writes + v->sampled_writes > 0);
}

static bool read_at_runtime(const struct mycl_share_var *v)
{
	return v->runtime_reads + v->sampled_reads > 0;
}

static double write_weight(const struct mycl_share_var *v)
{
	return 8.0 * (double)v->hot_writes + 2.0 * (double)v->warm_writes +
	       (double)v->unknown_writes + 4.0 * (double)v->counter_writes +
	       4.0 * (double)v->indexed_writes;
}

static double read_weight(const struct mycl_share_var *v)
{
	return 2.0 * (double)v->hot_reads + (double)v->runtime_reads;
}

/* An array written at a computed index whose elements are smaller than a line. */
/*
 * An array of slots: at least half its writes while threads run are at a
 * computed index.  A struct written field by field at fixed offsets (redis's
 * server) is not one, even where a member array of it is indexed.
 */
/* The size of V's elements: its array type's (DWARF), else the narrowest write at an index. */
static unsigned int elem_bytes(const struct mycl_share_var *v)
{
	return v->stride ? v->stride : v->elem_size ? v->elem_size : 8;
}

static bool slots(const struct mycl_share *s, const struct mycl_share_var *v)
{
	unsigned int e = elem_bytes(v);

	return hot_written(v) && v->indexed_writes &&
	       2 * v->indexed_writes >= v->hot_writes + v->warm_writes &&
	       v->size >= 2 * e && e < s->line_size;
}

/*
 * The part of variable VAR on line L, when VAR reaches past L (a member of
 * a large struct: mysql_bin_log's 4,440 bytes span 70 lines): its hot
 * writes that may land there (HOT: at a place on L, or at a place not
 * known), those at a place on L (PLACED), the increments among them (not
 * at a computed index: an array's slots; PCOUNTERS: placed), the first
 * place written and the function writing it.
 */
struct part {
	uint64_t hot, placed, counters, pcounters;
	uint64_t where, func;		/* the first placed write on L, its function */
	uint64_t cwhere, cfunc;		/* the first placed increment's */
};

/* False when VAR lies inside L, or its writes are known by the samples (or no memory). */
static bool part_on(const struct mycl_share *s, const struct mycl_share_line *l, size_t var,
		    struct part *p)
{
	const struct mycl_share_var *v = &s->vars[var];
	uint64_t end = l->start + s->line_size;
	size_t lo;

	if (!v->hot_writes || v->sampled_writes || !s->hot_any ||
	    (v->addr >= l->start && v->addr + v->size <= end))
		return false;
	memset(p, 0, sizeof(*p));
	/* (the writes whose place is not known may land anywhere in VAR) */
	p->hot = s->hot_any[var].writes;
	p->counters = s->hot_any[var].counters;
	/* (by start: a member's range reaching L from a line before counts) */
	lo = PARTITION_POINT(0, s->nr_hotw, mid, s->hotw[mid].var < var ||
			     (s->hotw[mid].var == var &&
			      s->hotw[mid].where + s->hotw_span <= l->start));
	for (; lo < s->nr_hotw && s->hotw[lo].var == var && s->hotw[lo].where < end; lo++) {
		const struct share_hotw *h = &s->hotw[lo];
		uint64_t at = h->where > l->start ? h->where : l->start;

		if (h->end <= l->start)
			continue;
		p->hot++;
		p->counters += h->counter;
		if (!p->placed) {
			p->where = at;
			p->func = h->func;
		}
		if (h->counter && !p->pcounters) {
			p->cwhere = at;
			p->cfunc = h->func;
		}
		p->placed++;
		p->pcounters += h->counter;
	}
	return true;
}

/*
 * A variable reaching past line L whose hot writes all land on its other
 * lines (a large object whose lock or counters lie at its start, its tail
 * on the next variables' line): no writer on L.  Not when a hot write's
 * place is not known (a computed index, a sample).
 */
static bool written_elsewhere(struct mycl_share *s, const struct mycl_share_line *l, size_t var)
{
	struct part p;

	return part_on(s, l, var, &p) && !p.hot;
}

/*
 * The name of byte OFF of V in a finding: its member; inside a library's
 * object (a std::deque's cursors, a mutex's words) that object, whose
 * layout is not the program's to change.
 */
static const char *part_name(struct mycl_share *s, const struct mycl_share_var *v, uint64_t off)
{
	uint64_t lib, size;

	if (share_library_at(s, v, off, &lib, &size))
		return !lib && size >= v->size ? v->name : share_member_name(s, v, (uint32_t)lib);
	return share_member_name(s, v, (uint32_t)off);
}

/* Why V's write in the function starting at FUNC runs when it does, from its writers. */
static const char *writer_why(const struct mycl_share_var *v, uint64_t func)
{
	for (size_t i = 0; i < v->nr_writers; i++)
		if (v->writers[i].addr == func)
			return v->writers[i].why;
	return NULL;
}

/* Written on hot paths, on line L: member K of L. */
static bool hot_here(struct mycl_share *s, const struct mycl_share_line *l, size_t k)
{
	return hot_written(&s->vars[l->members[k]]) && !written_elsewhere(s, l, l->members[k]);
}

static bool reader_here(struct mycl_share *s, const struct mycl_share_line *l, size_t k);

static const char *names(struct mycl_share *s, const struct mycl_share_line *l,
			 bool (*pick)(struct mycl_share *s, const struct mycl_share_line *l, size_t k),
			 size_t skip)
{
	char *list = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&list, &len);

	if (!f)
		return NULL;
	for (size_t k = 0; k < l->nr_members; k++) {
		const struct mycl_share_var *v = &s->vars[l->members[k]];

		if (l->members[k] == skip || !pick(s, l, k))
			continue;
		if (n < 4)
			fprintf(f, "%s%s", n ? ", " : "", v->name);
		n++;
	}
	if (n > 4)
		fprintf(f, " and %zu more", n - 4);
	fclose(f);
	return share_keep(s, list);
}

/*
 * Read while threads run, and not written on a hot path (a flag set once at
 * shutdown reads).  A linked-in library's object counts when its code reads
 * it repeatedly (memset's tunables), not for a read no call is seen to reach
 * (crtstuff's __TMC_END__).
 */
static bool reader(const struct mycl_share_var *v)
{
	return !hot_written(v) && read_at_runtime(v) && v->kind != MYCL_SHARE_VAR_LIBRARY &&
	       (v->kind != MYCL_SHARE_VAR_LINKED || v->hot_reads + v->sampled_reads > 0);
}

static bool reader_here(struct mycl_share *s, const struct mycl_share_line *l, size_t k)
{
	return reader(&s->vars[l->members[k]]);
}

/* VAR's pair of members written by different threads, when both are on line L. */
static const struct share_split *split_on(const struct mycl_share *s,
					  const struct mycl_share_line *l, size_t var)
{
	size_t lo = PARTITION_POINT(0, s->nr_splits, mid, s->splits[mid].var < var);
	const struct share_split *p = lo < s->nr_splits && s->splits[lo].var == var ?
				      &s->splits[lo] : NULL;
	uint64_t a, b;

	if (!p)
		return NULL;
	a = s->vars[var].addr + p->a;
	b = s->vars[var].addr + p->b;
	return a >= l->start && b < l->start + s->line_size ? p : NULL;
}

/* The member of VAR at its first place incremented while threads run (no lock word's), or NULL. */
static const char *counter_member(struct mycl_share *s, size_t var)
{
	size_t lo = PARTITION_POINT(0, s->nr_incs, mid, s->incs[mid].var < var);

	return lo < s->nr_incs && s->incs[lo].var == var ?
	       share_member_name(s, &s->vars[var], s->incs[lo].where - s->vars[var].addr) : NULL;
}

/* VAR's member written hot beside one only read, both on line L, or NULL. */
static const struct share_inner *inner_on(const struct mycl_share *s,
					  const struct mycl_share_line *l, size_t var)
{
	size_t lo = PARTITION_POINT(0, s->nr_inner, mid, s->inner[mid].var < var);
	const struct share_inner *p = lo < s->nr_inner && s->inner[lo].var == var ?
				      &s->inner[lo] : NULL;

	return p && s->vars[var].addr + p->w >= l->start &&
	       s->vars[var].addr + p->w < l->start + s->line_size ? p : NULL;
}

/*
 * Every hot access the code makes of the line's variables runs on one and
 * the same thread (an event loop in main, a thread started once): the line
 * stays in that CPU's cache, whatever else touches it now and then.  Samples
 * of accesses the code does not call hot make no such claim.
 */
static bool one_thread_line(const struct mycl_share *s, const struct mycl_share_line *l)
{
	uint64_t root = 0;

	if (!s->one_thread)
		return false;
	for (size_t k = 0; k < l->nr_members; k++) {
		size_t i = l->members[k];
		const struct mycl_share_var *v = &s->vars[i];

		if (!v->hot_writes && !v->hot_reads && !v->sampled_writes && !v->sampled_reads)
			continue;
		if (!s->one_thread[i] || (root && s->hot_root[i] != root))
			return false;
		root = s->hot_root[i];
	}
	return root != 0;
}

static void judge(struct mycl_share *s, struct mycl_share_line *l)
{
	size_t nhot = 0, nr = 0, wi = SIZE_MAX, slot = SIZE_MAX, ci = SIZE_MAX;
	const struct share_split *split = NULL;
	const struct share_inner *in;
	double w = 0, r = 0;
	uint64_t sw = 0, sr = 0;
	const struct mycl_share_var *v;
	struct part pt = { 0 };
	bool part = false, partial;
	double wbest = 0;
	const char *vn;

	l->samples = 0;
	l->verdict = MYCL_SHARE_OK;
	l->score = 0;
	l->why = l->fix = l->evidence = NULL;
	for (size_t k = 0; k < l->nr_members; k++) {
		struct part p = { 0 };
		/* (a large variable's part on this line: the writes that may land here weigh) */
		bool has = part_on(s, l, l->members[k], &p);

		v = &s->vars[l->members[k]];
		l->samples += v->samples;
		sw += v->sampled_writes;
		sr += v->sampled_reads;
		/* (a large variable written hot only on its other line: neither writer nor reader) */
		if (has && !p.hot)
			continue;
		if (runtime_written(v)) {
			double ww = has ? 8.0 * (double)p.hot + 4.0 * (double)p.counters :
					  write_weight(v);

			w += ww;
			if (v->chain_samples && (ci == SIZE_MAX ||
						 v->chain_samples > s->vars[ci].chain_samples))
				ci = l->members[k];
			if (hot_written(v)) {
				nhot++;
				if (!split && (split = split_on(s, l, l->members[k])))
					nhot++;		/* two writers in one variable */
				ww += (double)v->sampled_writes * 100;
				if (wi == SIZE_MAX || ww > wbest) {
					wi = l->members[k];
					wbest = ww;
					part = has;
					pt = p;
				}
			}
			if (slots(s, v) && slot == SIZE_MAX)
				slot = l->members[k];
		}
		if (reader(v)) {
			nr++;
			r += read_weight(v);
		}
	}
	/* Without threads each process has its own globals: nothing to share. */
	if (!nhot || (!s->threaded && !s->assume_threads) || one_thread_line(s, l))
		return;
	v = &s->vars[wi];
	in = inner_on(s, l, wi);
	/*
	 * (named by the member written there, an increment's first; an
	 * increment at a place not known: by the variable)
	 */
	partial = part && pt.placed && (!pt.counters || pt.pcounters);
	if (partial && pt.pcounters) {
		pt.where = pt.cwhere;
		pt.func = pt.cfunc;
	}
	vn = partial ? part_name(s, v, pt.where - v->addr) : v->name;
	if (nhot == 2 && split) {
		const char *fa = split->fa, *fb = split->fb;

		l->verdict = MYCL_SHARE_WRITERS;
		l->why = savef(s, "%s and %s, members of one variable %u bytes apart, are written on "
			       "hot paths by different threads' code (%s, %s): they share one %u-byte "
			       "line", split->ma, split->mb, split->b - split->a, fa ? fa : "?",
			       fb ? fb : "?", s->line_size);
		l->fix = savef(s, "give %s its own line (alignas(%u) on the member), or split the "
			       "variable per writer", split->mb, s->line_size);
		l->score = w * (double)(1 + nr + 1);
	} else if (nhot >= 2) {
		l->verdict = MYCL_SHARE_WRITERS;
		l->why = savef(s, "%zu variables written on hot paths share one %u-byte line: %s%s",
			       nhot - (split != NULL), s->line_size, names(s, l, hot_here, SIZE_MAX),
			       split ? savef(s, " (and %s and %s, written by different threads)",
					     split->ma, split->mb) : "");
		l->fix = savef(s, "give each written variable a line of its own: alignas(%u), or "
			       "group them per thread", s->line_size);
		l->score = w * (double)(nhot - 1 + nr + 1);
	} else if (slot != SIZE_MAX) {
		const struct mycl_share_var *a = &s->vars[slot];
		unsigned int e = elem_bytes(a);

		l->verdict = MYCL_SHARE_SLOTS;
		/*
		 * (whose elements each thread writes, the code does not say: its own, as
		 * per-thread or per-CPU slots, or the same ones, as a histogram's buckets)
		 */
		l->why = a->stride || a->elem_size ?
			 savef(s, "%s: %u-byte elements written at a computed index, %u to a %u-byte "
			       "line: threads writing their own elements (per-thread or per-CPU slots) "
			       "share lines; threads writing the same ones (a histogram) share them",
			       a->name, e, s->line_size / e, s->line_size) :
			 savef(s, "%s: elements written at a computed index (their size is in the "
			       "debug info, not here), %" PRIu64 " bytes in all: threads writing their "
			       "own elements share lines; threads writing the same ones share them",
			       a->name, a->size);
		l->fix = savef(s, "if each thread or CPU has its own element, pad each element of %s "
			       "to %u bytes (alignas(%u) on the element type); if threads write the "
			       "same ones, keep a copy per thread and sum when read", a->name,
			       s->line_size, s->line_size);
		l->score = w * 2.0 * (double)(s->line_size / e);
	} else if (part ? pt.counters > 0 :
		   v->counter_writes && (v->atomics || v->hot_writes) &&
		   v->indexed_writes < v->hot_writes + v->warm_writes) {
		/* (a single variable: slots of an array each a line wide are no shared counter) */
		const char *cm = in && !(partial && pt.pcounters) ? counter_member(s, wi) : NULL;

		l->verdict = MYCL_SHARE_HOT_COUNTER;
		l->why = in ? savef(s, "%s is a counter incremented while threads run, and %s, read on "
				    "hot paths and never written then, is a member of the same %s on "
				    "its line", partial && pt.pcounters ? vn : cm ? cm : in->mw, in->mr,
				    v->name) :
			 nr ? savef(s, "%s is a counter incremented while threads run; its line "
				    "bounces between CPUs, and read-mostly %s %s on it", vn,
				    names(s, l, reader_here, SIZE_MAX), nr > 1 ? "sit" : "sits") :
			 savef(s, "%s is a counter incremented while threads run: every increment "
			       "takes its line from the other CPUs", vn);
		l->fix = in ? savef(s, "count per CPU or per thread and sum when read (sharded "
				    "counter), kept out of %s; aligning %s whole would keep %s on "
				    "the counter's line", v->name, v->name, in->mr) :
			 partial ? savef(s, "count per CPU or per thread and sum when read (sharded "
					 "counter); then give %s a line of its own inside %s "
					 "(alignas(%u) on the member)", vn, v->name, s->line_size) :
			 savef(s, "count per CPU or per thread and sum when read (sharded counter); "
			       "then align %s to its own line (alignas(%u))", v->name, s->line_size);
		l->score = w * (1.0 + r / 4.0) +
			   8.0 * (double)(part ? pt.counters : v->counter_writes);
	} else if (in) {
		/* (written hot beside a member read hot: the variable's own line holds both) */
		l->verdict = MYCL_SHARE_WRITER_WITH_READERS;
		l->why = savef(s, "%s is written on hot paths and %s, read on hot paths and never "
			       "written then, is a member of the same %s on its %u-byte line%s%s",
			       in->mw, in->mr, v->name, s->line_size, nr ? "; read-mostly " : "",
			       nr ? names(s, l, reader_here, SIZE_MAX) : "");
		l->fix = savef(s, "move %s out of %s (or pad it to a line of its own: alignas(%u) "
			       "on the member); aligning %s whole mends nothing", in->mw, v->name,
			       s->line_size, v->name);
		l->score = w * (1.0 + (r + read_weight(v)) / 4.0);
	} else if (nr) {
		l->verdict = MYCL_SHARE_WRITER_WITH_READERS;
		l->why = savef(s, "%s is written while threads run and shares its %u-byte line with "
			       "read-mostly %s", vn, s->line_size, names(s, l, reader_here, SIZE_MAX));
		l->fix = savef(s, "align %s to its own line (alignas(%u)), or move the read-mostly "
			       "globals to a section of their own (MySQL bug 97777 / MDEV-21145)",
			       v->name, s->line_size);
		l->score = w * (1.0 + r / 4.0);
	} else {
		return;
	}
	/*
	 * The evidence, strongest first: data addresses; sampled writes; a
	 * writer on the recording's call chains; sampled reads alone (below the
	 * chains when the recording has them: a line read in the workload whose
	 * writers never ran is no line written); the code alone.
	 */
	if (l->hitm || l->data_samples) {
		l->evidence = savef(s, "data-address samples: %" PRIu64 " on this line, %" PRIu64
				    " HITM", l->data_samples, l->hitm);
		l->score += 1e15 + 1e3 * (double)l->hitm + (double)l->data_samples;
	} else if (sw || (sr && !s->chain_total)) {
		l->evidence = savef(s, "sampled: %" PRIu64 " on writes of %s, %" PRIu64 " on reads; "
				    "%s", sw, v->name, sr, v->hot_path ? v->hot_path : "");
		l->score += 1e12 + 100.0 * (double)sw + (double)sr;
	} else if (ci != SIZE_MAX) {
		const struct mycl_share_var *c = &s->vars[ci];

		l->evidence = savef(s, "run: %s, which writes %s, is %s %" PRIu64 " samples (%.1f%%)%s; %s",
				    c->chain_writer, c->name,
				    s->chains ? "on the call chains of" : "the function of", c->chain_samples,
				    100.0 * (double)c->chain_samples / (double)s->chain_total,
				    sr ? savef(s, ", %" PRIu64 " sampled reads", sr) : "",
				    v->hot_path ? v->hot_path : "");
		l->score = 1e10 + 1e3 * (double)c->chain_samples + (double)sr + l->score / 1e6;
	} else if (sr) {
		l->evidence = savef(s, "sampled: %" PRIu64 " on reads, none on writes; no writer of it "
				    "on the recording's call chains; %s", sr, v->hot_path ? v->hot_path : "");
		l->score = 1e8 + (double)sr + l->score / 1e6;
	} else if (partial) {
		const char *why = writer_why(v, pt.func);

		l->evidence = savef(s, "code: %" PRIu64 " hot write%s of %" PRIu64 " to %s land%s on "
				    "this line, at %s%s%s%s%s; %" PRIu64 " reads of the others",
				    pt.placed, pt.placed == 1 ? "" : "s", v->hot_writes, v->name,
				    pt.placed == 1 ? "s" : "", vn, why ? " (" : "", why ? why : "",
				    why ? ")" : "", pt.hot > pt.placed ?
				    savef(s, "; %" PRIu64 " more at places not known", pt.hot - pt.placed) :
				    "", (uint64_t)r);
	} else if (part) {
		l->evidence = savef(s, "code: %" PRIu64 " hot write%s of %" PRIu64 " to %s may land on "
				    "this line (at places not known: a computed index, a library "
				    "call); %" PRIu64 " reads of the others", pt.hot,
				    pt.hot == 1 ? "" : "s", v->hot_writes, v->name, (uint64_t)r);
	} else {
		l->evidence = savef(s, "code: %" PRIu64 " hot write%s of %s (%s), %" PRIu64
				    " reads of the others", v->hot_writes, v->hot_writes == 1 ? "" : "s",
				    v->name, v->hot_path ? v->hot_path : "", (uint64_t)r);
	}
}

static int line_cmp(const void *a, const void *b)
{
	const struct mycl_share_line *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

MYCL_API int mycl_share__regroup(struct mycl_share *s, unsigned int size)
{
	struct line_var *lv;
	size_t n = 0, nl = 0;

	if (!size || (size & (size - 1)))
		return -EINVAL;
	s->line_size = size;
	free(s->lines);
	free(s->members);
	s->lines = NULL;
	s->members = NULL;
	s->nr_lines = 0;
	lv = malloc((2 * s->nr_vars + 2 * s->nr_hotw + 2 * s->nr_inner + 2 * s->nr_splits + 1) *
		    sizeof(*lv));
	if (!lv)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_vars; i++) {
		uint64_t first = s->vars[i].addr & ~(uint64_t)(size - 1);
		uint64_t last = (s->vars[i].addr + (s->vars[i].size ? s->vars[i].size : 1) - 1) &
				~(uint64_t)(size - 1);

		lv[n++] = (struct line_var){ first, i };
		if (last != first)
			lv[n++] = (struct line_var){ last, i };
	}
	/*
	 * A large variable's lines between its first and its last where the code
	 * writes it on hot paths, or where its members written by different
	 * threads, or written beside read ones, are (a 3,536-byte struct's
	 * counter at +520): judged as lines of their own.
	 */
	for (size_t i = 0; i < s->nr_hotw; i++) {
		uint64_t first = s->hotw[i].where & ~(uint64_t)(size - 1);
		uint64_t last = (s->hotw[i].end - 1) & ~(uint64_t)(size - 1);

		/* (a member written somewhere inside: its first and last lines, as a variable's) */
		lv[n++] = (struct line_var){ first, s->hotw[i].var };
		if (last != first)
			lv[n++] = (struct line_var){ last, s->hotw[i].var };
	}
	for (size_t i = 0; i < s->nr_inner; i++) {
		const struct mycl_share_var *v = &s->vars[s->inner[i].var];

		lv[n++] = (struct line_var){ (v->addr + s->inner[i].w) & ~(uint64_t)(size - 1),
					     s->inner[i].var };
		lv[n++] = (struct line_var){ (v->addr + s->inner[i].r) & ~(uint64_t)(size - 1),
					     s->inner[i].var };
	}
	for (size_t i = 0; i < s->nr_splits; i++) {
		const struct mycl_share_var *v = &s->vars[s->splits[i].var];

		lv[n++] = (struct line_var){ (v->addr + s->splits[i].a) & ~(uint64_t)(size - 1),
					     s->splits[i].var };
		lv[n++] = (struct line_var){ (v->addr + s->splits[i].b) & ~(uint64_t)(size - 1),
					     s->splits[i].var };
	}
	sort_array(lv, n, sizeof(*lv), lv_cmp);
	{
		size_t o = 0;

		for (size_t i = 0; i < n; i++)
			if (!o || lv[i].line != lv[o - 1].line || lv[i].var != lv[o - 1].var)
				lv[o++] = lv[i];
		n = o;
	}
	for (size_t i = 0; i < n; i++)
		nl += !i || lv[i].line != lv[i - 1].line;
	s->lines = calloc(nl ? nl : 1, sizeof(*s->lines));
	s->members = malloc((n ? n : 1) * sizeof(*s->members));
	if (!s->lines || !s->members) {
		free(lv);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct mycl_share_line *l;

		if (!i || lv[i].line != lv[i - 1].line) {
			l = &s->lines[s->nr_lines++];
			l->start = lv[i].line;
			l->members = &s->members[i];
			l->section = s->vars[lv[i].var].section;
		}
		l = &s->lines[s->nr_lines - 1];
		s->members[i] = lv[i].var;
		l->nr_members++;
	}
	free(lv);
	sort_array(s->lines, s->nr_lines, sizeof(*s->lines), line_cmp);
	for (size_t b = 0; b < s->nr_buckets; b++) {
		struct mycl_share_line key = { .start = s->buckets[b].line & ~(uint64_t)(size - 1) };
		struct mycl_share_line *l = bsearch(&key, s->lines, s->nr_lines, sizeof(*s->lines),
						    line_cmp);

		if (l) {
			l->data_samples += s->buckets[b].samples;
			l->hitm += s->buckets[b].hitm;
		}
	}
	for (size_t i = 0; i < s->nr_lines; i++)
		judge(s, &s->lines[i]);
	share_types_judge(s);
	return 0;
}
