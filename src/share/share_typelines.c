/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The types of a mycl-share analysis on lines (of any size: --what-if
 * judges again): which members share a line wherever an object starts and
 * which may, and a verdict per type, with what would fix it and its cost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "insn.h"
#include "share_state.h"

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return to ? (v + to - 1) / to * to : v;
}

/*
 * Whether members A and B of T share a line of LS bytes for every start an
 * object of T may have (a multiple of its alignment), and for some.
 */
static void placements(const struct mycl_share_type *t, const struct mycl_share_member *a,
		       const struct mycl_share_member *b, unsigned int ls, bool *all, bool *some)
{
	uint64_t al = t->align && t->align < ls ? t->align : ls;

	*all = true;
	*some = false;
	for (uint64_t p = 0; p < ls; p += al) {
		uint64_t a0 = (p + a->offset) / ls, a1 = (p + a->offset + (a->size ? a->size : 1) - 1) / ls;
		uint64_t b0 = (p + b->offset) / ls, b1 = (p + b->offset + (b->size ? b->size : 1) - 1) / ls;
		bool share = a0 <= b1 && b0 <= a1;

		*all &= share;
		*some |= share;
	}
}

static bool hot_written(const struct mycl_share_member *m)
{
	return m->hot_writes + m->sampled_writes > 0 && m->runtime_writes > 0;
}

/*
 * A member written as threads write words they share: atomically, or of an
 * atomic type (a plain counter is one thread's, or a lock's).  Two such on one line are
 * independent updates taking the line from each other (a ring's head and
 * tail, two locks); plain members a lock guards are written under it.
 */
static bool sync_word(const struct mycl_share_member *m)
{
	return m->atomics || m->sync;
}

static bool read_mostly(const struct mycl_share_member *m)
{
	return m->runtime_reads > 0 && !m->runtime_writes;
}

/* The accesses of type K, by function: [*B, *E) of the order. */
static void range_of(const struct mycl_share *s, size_t k, const uint32_t **b, const uint32_t **e)
{
	*b = s->torder + s->tinfo[k].ofirst;
	*e = s->torder + s->tinfo[k].oend;
}

/*
 * Whether the members A and B of type K are written on hot paths by
 * different code: by the code of different threads, as far as the call
 * graph shows (*THREADS); else by different functions, none writing both
 * (a ring's push and pop, both started through std::thread's one entry).
 */
static bool apart(const struct mycl_share *s, size_t k, size_t a, size_t b, bool *threads)
{
	const uint32_t *it, *end;
	uint64_t ra = 0, rb = 0;
	bool roots = true, both = false;

	for (range_of(s, k, &it, &end); it < end;) {
		uint64_t fn = s->taccs[*it].func;
		bool wa = false, wb = false;

		for (; it < end && s->taccs[*it].func == fn; it++) {
			const struct share_tacc *x = &s->taccs[*it];
			uint64_t *r;

			if ((x->member != a && x->member != b) || x->heat != HEAT_HOT || x->once ||
			    (x->access != ACC_WRITE && x->access != ACC_RMW))
				continue;
			wa |= x->member == a;
			wb |= x->member == b;
			r = x->member == a ? &ra : &rb;
			if (!x->root || (*r && *r != x->root))
				roots = false;	/* (not known, or several threads write it) */
			else
				*r = x->root;
		}
		both |= wa && wb;
	}
	*threads = roots && ra && rb && ra != rb;
	return *threads || !both;
}

/*
 * Whether a function reading member R of type K on hot paths writes no
 * member of K that may share R's line: it pays for the writes of others.
 * Its name in *WHO.
 */
static bool victim(struct mycl_share *s, size_t k, size_t r, unsigned int ls, const char **who)
{
	const struct mycl_share_type *t = &s->types[k];
	const struct mycl_share_member *mr = &s->tmembers[r];
	const uint32_t *b, *e;

	range_of(s, k, &b, &e);
	for (const uint32_t *it = b, *fe; it < e; it = fe) {
		uint64_t fn = s->taccs[*it].func;
		bool reads = false, writes = false;

		for (fe = it; fe < e && s->taccs[*fe].func == fn; fe++) {
			const struct share_tacc *y = &s->taccs[*fe];
			bool all, some;

			if (y->member == UINT32_MAX)
				continue;
			if (y->member == r && y->access == ACC_READ && y->heat == HEAT_HOT)
				reads = true;
			if (y->access != ACC_WRITE && y->access != ACC_RMW)
				continue;
			placements(t, mr, &s->tmembers[y->member], ls, &all, &some);
			writes |= some;
		}
		if (reads && !writes) {
			*who = s->taccs[*it].fname;
			return true;
		}
	}
	return false;
}

static bool sync_members(const struct mycl_share_type *t)
{
	for (size_t i = 0; i < t->nr_members; i++)
		if (t->members[i].sync && t->members[i].runtime_writes)
			return true;
	return false;
}

/*
 * The function writing member M (an index into tmembers) of type K most on
 * hot paths, by its writes there; a compiler's
 * split-off part (".cold") last.  NULL: none.
 */
static const char *busiest_writer(const struct mycl_share *s, size_t k, size_t mi)
{
	const uint32_t *it, *e;
	const char *best = NULL;
	double bw = -1;

	for (range_of(s, k, &it, &e); it < e;) {
		uint64_t fn = s->taccs[*it].func;
		const char *name = s->taccs[*it].fname;
		double w = 0;

		for (; it < e && s->taccs[*it].func == fn; it++) {
			const struct share_tacc *x = &s->taccs[*it];

			if (x->member == mi && (x->access == ACC_WRITE || x->access == ACC_RMW) &&
			    x->heat == HEAT_HOT && !x->once)
				w += 1.0;
		}
		if (w && name && strstr(name, ".cold"))
			w /= 1000.0;
		if (w > bw && w > 0) {
			bw = w;
			best = name;
		}
	}
	return best ? best : s->tmembers[mi].writer;
}

static const char *written_how(const struct mycl_share_member *m)
{
	return m->counters ? (m->atomics ? "incremented atomically" : "incremented") :
	       m->atomics ? "written atomically" : "written";
}

static const char *where_words(bool all, unsigned int ls, const struct mycl_share_type *t, char *buf,
			       size_t len)
{
	if (all)
		snprintf(buf, len, "on the same %u-byte line wherever the object starts", ls);
	else
		snprintf(buf, len, "on the same %u-byte line for some starts (the type is aligned to %"
			 PRIu64 " bytes, not to the line)", ls, t->align);
	return buf;
}

/* Bytes of the members written on hot paths. */
static uint64_t hot_bytes(const struct mycl_share_type *t)
{
	uint64_t n = 0;

	for (size_t i = 0; i < t->nr_members; i++)
		if (hot_written(&t->members[i]))
			n += t->members[i].size;
	return n;
}

static double weight(const struct mycl_share_member *m)
{
	return 1000.0 * (double)m->samples + 8.0 * (double)m->hot_writes + 4.0 * (double)m->counters +
	       4.0 * (double)m->atomics + 2.0 * (double)m->hot_reads + (double)m->runtime_reads;
}

/* The busiest writer of member I of the type being judged, for the words. */
#define WRITER(i) writer_word(s, k, (size_t)(&m[i] - s->tmembers))

static const char *writer_word(const struct mycl_share *s, size_t k, size_t mi)
{
	const char *w = busiest_writer(s, k, mi);

	return w ? w : "?";
}

static void judge(struct mycl_share *s, size_t k)
{
	struct mycl_share_type *t = &s->types[k];
	const struct share_tinfo *ti = &s->tinfo[k];
	unsigned int ls = s->line_size;
	const struct mycl_share_member *m = t->members;
	size_t bw = SIZE_MAX, br = SIZE_MAX, w1 = SIZE_MAX, w2 = SIZE_MAX, el = SIZE_MAX;
	bool bw_all = false, w_all = false, threads = false, threaded;
	uint64_t bdist = UINT64_MAX, wdist = UINT64_MAX;
	const char *vict = NULL;
	char where[160];

	t->verdict = MYCL_SHARE_OK;
	t->why = t->fix = NULL;
	t->fix_size = 0;
	t->score = 0;
	t->certain = false;
	t->shared = NULL;
	t->padded = (t->padded_by || (t->align_declared && t->align >= ls)) && !(t->size % ls);
	/*
	 * Only objects others may touch at once: a type the code accesses
	 * atomically (it expects them; across processes in shared memory too),
	 * or with threads, one reached from a global, or one the code of several
	 * threads uses (whether they share an object the code does not show).
	 */
	threaded = s->threaded || s->assume_threads;
	if (ti->atomics)
		t->shared = "accessed atomically";
	else if (sync_members(t))
		t->shared = "has members of atomic types written while threads run";
	else if (threaded && ti->via_global && ti->several)
		t->shared = "reached from a global, in code several threads run";
	else if (threaded && ti->via_global && ti->unknown_root)
		t->shared = "reached from a global, in code whose thread is not known";
	else if (threaded && ti->several)
		t->shared = "used by code several threads run";
	else
		t->shared = NULL;
	if (ti->library || !t->shared || (ti->one_thread && !ti->atomics))
		return;
	for (size_t i = 0; i < t->nr_members; i++) {
		size_t gi = (size_t)(&m[i] - s->tmembers);

		if (m[i].element_writes && hot_written(&m[i]) && el == SIZE_MAX)
			el = i;
		if (!hot_written(&m[i]))
			continue;
		for (size_t j = 0; j < t->nr_members; j++) {
			bool all, some;
			uint64_t d = m[j].offset > m[i].offset ? m[j].offset - m[i].offset :
				     m[i].offset - m[j].offset;
			const char *who = NULL;
			bool th = false;

			if (j == i)
				continue;
			placements(t, &m[i], &m[j], ls, &all, &some);
			if (!some)
				continue;
			/*
			 * A reader paying for others' writes first (it writes nothing on
			 * the line); then the busiest writer; a line shared wherever the
			 * object starts; the closest.
			 */
			if (read_mostly(&m[j]) && m[j].hot_reads) {
				bool v = victim(s, k, (size_t)(&m[j] - s->tmembers), ls, &who);

				if (br == SIZE_MAX || (v && !vict) ||
				    (v == (vict != NULL) &&
				     (weight(&m[i]) > weight(&m[bw]) ||
				      (weight(&m[i]) == weight(&m[bw]) &&
				       (weight(&m[j]) > weight(&m[br]) ||
					(weight(&m[j]) == weight(&m[br]) &&
					 ((all && !bw_all) || (all == bw_all && d < bdist))))))))
					bw = i, br = j, bw_all = all, bdist = d, vict = v ? who : NULL;
			}
			if (j > i && hot_written(&m[j]) && sync_word(&m[i]) && sync_word(&m[j]) &&
			    (w1 == SIZE_MAX || weight(&m[i]) + weight(&m[j]) > weight(&m[w1]) + weight(&m[w2]) ||
			     (weight(&m[i]) + weight(&m[j]) == weight(&m[w1]) + weight(&m[w2]) &&
			      ((all && !w_all) || (all == w_all && d < wdist)))) &&
			    apart(s, k, gi, (size_t)(&m[j] - s->tmembers), &th)) {
				w1 = i, w2 = j, w_all = all, wdist = d, threads = th;
			}
		}
	}
	if (w1 != SIZE_MAX) {
		uint64_t ns = round_up(t->size, ls) + ls;

		t->verdict = MYCL_SHARE_WRITERS;
		t->certain = w_all;
		t->score = weight(&m[w1]) + weight(&m[w2]);
		t->samples_flagged = m[w1].samples + m[w2].samples;
		t->why = savef(s, "%s (+%" PRIu64 ") and %s (+%" PRIu64 "), %s, are written on hot paths "
			       "%s (%s, %s)", m[w1].name, m[w1].offset, m[w2].name, m[w2].offset,
			       where_words(w_all, ls, t, where, sizeof(where)),
			       threads ? "by the code of different threads" :
			       "by different functions, none writing both: when different threads "
			       "run them, each write takes the line from the other",
			       WRITER(w1), WRITER(w2));
		t->fix_size = ns;
		t->fix = savef(s, "start %s on a line of its own (alignas(%u) on it, the type aligned to "
			       "%u): about %" PRIu64 " bytes instead of %" PRIu64 " (+%" PRIu64 ")",
			       m[w2].name, ls, ls, ns, t->size, ns - t->size);
	} else if (bw != SIZE_MAX) {
		uint64_t hb = hot_bytes(t), ns = round_up(t->size - hb, ls) + round_up(hb, ls);

		t->verdict = MYCL_SHARE_WRITER_WITH_READERS;
		t->certain = bw_all;
		t->score = weight(&m[bw]) + weight(&m[br]);
		t->samples_flagged = m[bw].samples + m[br].samples;
		if (vict)
			t->why = savef(s, "%s (+%" PRIu64 ") is %s on hot paths (%s) and, %s, %s (+%"
				       PRIu64 ") is read on hot paths (%s, which writes nothing there) "
				       "and never written while threads run", m[bw].name, m[bw].offset,
				       written_how(&m[bw]), WRITER(bw),
				       where_words(bw_all, ls, t, where, sizeof(where)), m[br].name,
				       m[br].offset, vict);
		else
			t->why = savef(s, "%s (+%" PRIu64 ") is %s on hot paths (%s) and, %s, %s (+%"
				       PRIu64 ") is read on hot paths (%s) and never written while "
				       "threads run: each thread's write takes the line from under the "
				       "others' reads", m[bw].name, m[bw].offset, written_how(&m[bw]),
				       WRITER(bw),
				       where_words(bw_all, ls, t, where, sizeof(where)), m[br].name,
				       m[br].offset, m[br].reader ? m[br].reader : "?");
		if (ns <= round_up(t->size, ls) && t->align >= ls)
			ns = round_up(t->size, ls) + ls;
		t->fix_size = ns;
		t->fix = savef(s, "move the members written on hot paths (%s%s) to a line of their own "
			       "after the read-mostly ones (alignas(%u) on the first of them): about %"
			       PRIu64 " bytes instead of %" PRIu64 " (+%" PRIu64 ")", m[bw].name,
			       hb > m[bw].size ? ", ..." : "", ls, ns, t->size,
			       ns > t->size ? ns - t->size : 0);
	} else if (el != SIZE_MAX && !t->padded && t->size % ls) {
		uint64_t ns = round_up(t->size, ls);

		t->verdict = MYCL_SHARE_SLOTS;
		t->certain = t->size < ls;
		t->score = weight(&m[el]);
		t->samples_flagged = m[el].samples;
		if (t->size < ls)
			t->why = savef(s, "elements of an array of it are written through an index on "
				       "hot paths (%s %s by %s) at a stride of %" PRIu64 " bytes: about %"
				       PRIu64 " elements on each %u-byte line; where threads or processes "
				       "write elements of their own (per-thread slots), each write takes "
				       "the line from the neighbours'", m[el].name, written_how(&m[el]),
				       WRITER(el), t->size, ls / t->size, ls);
		else
			t->why = savef(s, "elements of an array of it are written through an index on "
				       "hot paths (%s %s by %s) at a stride of %" PRIu64 " bytes, not a "
				       "multiple of the %u-byte line: neighbours share the lines "
				       "between them", m[el].name, written_how(&m[el]),
				       WRITER(el), t->size, ls);
		t->fix_size = ns;
		t->fix = savef(s, "pad the element to the line (alignas(%u) on the type): %" PRIu64
			       " bytes per element instead of %" PRIu64 " (+%" PRIu64 ")", ls, ns,
			       t->size, ns - t->size);
	}
	/* (the surest signs that objects are shared first: what only may be shared after) */
	if (t->verdict != MYCL_SHARE_OK)
		t->score *= ti->atomics || sync_members(t) || (threaded && ti->via_global && ti->several) ?
			    4 : threaded && ti->via_global && ti->unknown_root ? 2 : 1;
	if (t->verdict != MYCL_SHARE_OK && s->weighted)
		t->score = (double)t->samples_flagged * 1000.0 + t->score;
}

/* The types judged again at the line size of S. */
void share_types_judge(struct mycl_share *s)
{
	for (size_t k = 0; k < s->nr_types; k++)
		judge(s, k);
}
