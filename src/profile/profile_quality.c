/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the recording cannot answer: warnings on lost samples, records out of
 * time order, stack copies
 * too small for DWARF unwinding, frame-pointer chains that stop early, idle
 * or hypervisor artefacts, and too few samples, each with the command that
 * would do better.  Reads the counters the profile kept while it was built.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile_state.h"
#include "dso.h"
#include "elfimage.h"

/* Below these, a warning would be noise. */
#define LOST_MIN_PCT		0.1
#define STACK_END_MIN_PCT	5.0
#define FP_SHORT_MIN_PCT	20.0
#define IDLE_MIN_PCT		30.0
#define ARTEFACT_MIN_PCT	20.0
#define PILE_MIN_SAMPLES	10	/* a kernel function's samples, to tell a pile */
#define PILE_MIN_PCT		90	/* ... and the share of them on one instruction */
#define FEW_SAMPLES		1000
#define UNREAD_MIN_PCT		10.0	/* samples in binaries not read here, to warn up front */
#define PERF_MAX_STACK_COPY	65528

/*
 * Kernel functions known as places where a timer-based event (cpu-clock)
 * piles up samples that belong elsewhere: the points where interrupts are
 * enabled again (samples taken while they were off land here, common in
 * VMs), and idle or halt loops.  The samples' behaviour decides the rest
 * (kernel_piles); names only tell what is known.
 */
static const char *const artefact_syms[] = {
	"pvm_irq_enable", "__raw_callee_save_pvm_irq_enable", "native_irq_enable",
	"arch_local_irq_enable", "pv_native_irq_enable", "native_safe_halt", "pv_native_safe_halt",
	"default_idle", "default_idle_call", "acpi_idle_do_entry", "acpi_safe_halt", "intel_idle",
	"mwait_idle", "poll_idle", "cpu_idle_poll", "xen_hypercall_sched_op", "hv_idle",
};

MYCL_API void mycl_share_ci95(uint64_t part, uint64_t total, double *lo, double *hi)
{
	const double z = 1.959964;
	double n = (double)total, ph, den, mid, half;

	if (!total) {
		*lo = 0;
		*hi = 100;
		return;
	}
	ph = (double)part / n;
	den = 1 + z * z / n;
	mid = (ph + z * z / (2 * n)) / den;
	half = z * sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / den;
	*lo = 100 * (mid - half < 0 ? 0 : mid - half);
	*hi = 100 * (mid + half > 1 ? 1 : mid + half);
}

static struct mycl_warning *add(struct mycl_profile *p, const char *kind, double share)
{
	struct mycl_warning *w = realloc(p->warnings, (p->nr_warnings + 1) * sizeof(*w));

	if (!w)
		return NULL;
	p->warnings = w;
	w = &p->warnings[p->nr_warnings++];
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->share = share;
	return w;
}

static int lost(struct mycl_profile *p)
{
	const struct mycl_perf_stats *st = mycl_perf_data__stats(p->pd);
	/* perf writes LOST_SAMPLES for what LOST records already counted: the larger. */
	uint64_t lost = st->lost_samples > st->lost_events ? st->lost_samples : st->lost_events;
	uint64_t got = st->nr_sample_records;
	double share = lost + got ? 100.0 * (double)lost / (double)(lost + got) : 0;
	struct mycl_warning *w;

	if (!lost || share < LOST_MIN_PCT)
		return 0;
	w = add(p, "lost", share);
	if (!w)
		return -ENOMEM;
	snprintf(w->message, sizeof(w->message),
		 "%.1f%% of samples lost (%" PRIu64 " of %" PRIu64 "): the report describes %.1f%%",
		 share, lost, lost + got, 100 - share);
	snprintf(w->fix, sizeof(w->fix),
		 "record with a lower frequency (-F) or larger buffers (-m 1024), or fewer events");
	return 0;
}

/*
 * Records that came after later ones had been delivered: out of time order by
 * more than a round (FINISHED_ROUND, or in a --threads directory the merge's
 * own), or past what the reader holds back.  They were delivered late, so
 * samples near them may have been resolved in the address space or under
 * the thread name before theirs.
 */
static int unordered(struct mycl_profile *p)
{
	const struct mycl_perf_stats *st = mycl_perf_data__stats(p->pd);
	double share = st->nr_records ? 100.0 * (double)st->nr_unordered /
					(double)st->nr_records : 0;
	struct mycl_warning *w;

	if (!st->nr_unordered)
		return 0;
	w = add(p, "unordered", share);
	if (!w)
		return -ENOMEM;
	snprintf(w->message, sizeof(w->message),
		 "%" PRIu64 " records (%.2f%%) came after later ones had been reported: samples near "
		 "them may be named after the mapping or thread name before theirs",
		 st->nr_unordered, share);
	snprintf(w->fix, sizeof(w->fix),
		 "the file is out of the order perf writes (another tool, or damage): compare with "
		 "perf report, which orders the whole file in memory");
	return 0;
}

static int stack_copy(struct mycl_profile *p)
{
	double share = p->nr_stack_samples ?
		100.0 * (double)p->nr_stack_end / (double)p->nr_stack_samples : 0;
	uint64_t next = p->stack_copy_size * 4;
	struct mycl_warning *w;

	if (share < STACK_END_MIN_PCT)
		return 0;
	w = add(p, "stack_copy", share);
	if (!w)
		return -ENOMEM;
	if (next > PERF_MAX_STACK_COPY)
		next = PERF_MAX_STACK_COPY;
	snprintf(w->message, sizeof(w->message),
		 "%.0f%% of stacks hit the end of the %" PRIu64 "-byte stack copy: their outer callers "
		 "are missing", share, p->stack_copy_size);
	if (next > p->stack_copy_size)
		snprintf(w->fix, sizeof(w->fix), "record with --call-graph dwarf,%" PRIu64, next);
	return 0;
}

bool profile_frameless(struct dso *d, const struct sym *sym)
{
	struct sym *s = (struct sym *)sym;	/* the cache lives in the symbol */
	struct elf_image *img;
	size_t len;
	const uint8_t *b;
	uint8_t head[32];
	uint16_t mach;

	if (s->frame)
		return s->frame == 2;
	s->frame = 3;
	img = d->kernel || d->identity ? NULL : dso_image(d);
	len = s->end - s->start < 32 ? (size_t)(s->end - s->start) : 32;
	if (!img || len < 4)
		return false;
	/* Copied, not read in place: one look at each of thousands of functions maps no page. */
	if (!elf_image_read_code(img, s->start, len, head))
		b = head;
	else if (!(b = elf_image_code(img, s->start, len)))
		return false;
	mach = elf_image_machine(img);
	if (mach != 62 /* EM_X86_64 */ && mach != 183 /* EM_AARCH64 */)
		return false;
	s->frame = 2;
	for (size_t k = 0; k + 4 <= len; k++) {
		/* x86-64 "mov %rsp,%rbp"; arm64 "mov x29, sp" */
		if ((mach == 62 && b[k] == 0x48 && b[k + 1] == 0x89 && b[k + 2] == 0xe5) ||
		    (mach == 183 && !(k & 3) && b[k] == 0xfd && b[k + 1] == 0x03 && b[k + 2] == 0x00 &&
		     b[k + 3] == 0x91)) {
			s->frame = 1;
			break;
		}
	}
	return s->frame == 2;
}

static int gap_cmp(const void *a, const void *b)
{
	const struct dso_count *x = *(const struct dso_count *const *)a;
	const struct dso_count *y = *(const struct dso_count *const *)b;

	return x->fp_gap != y->fp_gap ? (x->fp_gap > y->fp_gap ? -1 : 1) : 0;
}

/* Frame-pointer chains sampled in code that sets up no frame: callers skipped or lost. */
static int fp_chains(struct mycl_profile *p)
{
	double share = p->nr_fp_user ? 100.0 * (double)p->nr_fp_gap / (double)p->nr_fp_user : 0;
	struct dso_count **by;
	struct mycl_warning *w;
	size_t n = 0, len;

	if (share < FP_SHORT_MIN_PCT)
		return 0;
	w = add(p, "fp_chains", share);
	by = calloc(p->nr_dcounts ? p->nr_dcounts : 1, sizeof(*by));
	if (!w || !by) {
		free(by);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->nr_dcounts; i++)
		if (p->dcounts[i].fp_gap * 200 >= p->nr_fp_user)	/* 0.5% or more */
			by[n++] = &p->dcounts[i];
	sort_array(by, n, sizeof(*by), gap_cmp);
	len = (size_t)snprintf(w->message, sizeof(w->message),
			       "%.0f%% of user samples are in functions that set up no frame pointer (",
			       share);
	for (size_t i = 0; i < n && i < 3 && len < sizeof(w->message); i++)
		len += (size_t)snprintf(w->message + len, sizeof(w->message) - len, "%s%s %.0f%%",
					i ? ", " : "in ", by[i]->dso->short_name,
					100.0 * (double)by[i]->fp_gap / (double)p->nr_fp_user);
	if (len < sizeof(w->message))
		snprintf(w->message + len, sizeof(w->message) - len,
			 p->fp_repair ? "): their -g chains skip the direct caller or stop (a direct "
					"caller is put back, marked " MYCL_FROM_CALL_SITE ")" :
			 "): their -g chains skip the direct caller or stop");
	free(by);
	snprintf(w->fix, sizeof(w->fix),
		 "record with --call-graph dwarf (or --call-graph lbr on Intel) to see every caller");
	return 0;
}

static bool is_artefact(const char *sym)
{
	for (size_t i = 0; i < ARRAY_SIZE(artefact_syms); i++)
		if (!strcmp(sym, artefact_syms[i]))
			return true;
	return false;
}

/* One kernel function's samples of a software clock, and its most sampled instruction. */
struct kfn {
	const struct dso *dso;
	const char *sym;
	uint64_t samples, period, top_samples, top_off;
	bool piled;
};

static int kfn_cmp(const void *a, const void *b)
{
	const struct hent *x = *(const struct hent *const *)a, *y = *(const struct hent *const *)b;

	if (x->dso != y->dso)
		return (uintptr_t)x->dso < (uintptr_t)y->dso ? -1 : 1;
	if (x->sym != y->sym)
		return (uintptr_t)x->sym < (uintptr_t)y->sym ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int kfn_period_cmp(const void *a, const void *b)
{
	const struct kfn *x = a, *y = b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->sym, y->sym);
}

/*
 * The kernel functions of event EV that hold samples a software clock could
 * not take where they belong: a function whose samples pile on one
 * instruction (a timer sample that falls while interrupts are off is taken
 * where they come back on; a long instruction such as a string copy or an
 * I/O write that exits to the hypervisor holds them too), and the idle and
 * interrupt-enable points known by name.  *OUT sorted by period, most first.
 */
static int kernel_piles(const struct mycl_profile *p, int ev, struct kfn **out, size_t *nout)
{
	const struct hent **e;
	struct kfn *v = NULL;
	size_t n = 0, nv = 0;

	*out = NULL;
	*nout = 0;
	if (!p->kinsns.nr)
		return 0;
	e = malloc(p->kinsns.nr * sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < p->kinsns.nr; i++)
		if (p->kinsns.ents[i].ev == ev)
			e[n++] = &p->kinsns.ents[i];
	sort_array(e, n, sizeof(*e), kfn_cmp);
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		free(e);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n;) {
		struct kfn f = { .dso = e[i]->dso, .sym = e[i]->sym };
		size_t k = i;

		for (; k < n && e[k]->dso == f.dso && e[k]->sym == f.sym; k++) {
			f.samples += e[k]->samples;
			f.period += e[k]->period;
			if (e[k]->samples > f.top_samples) {
				f.top_samples = e[k]->samples;
				f.top_off = e[k]->addr;
			}
		}
		f.piled = f.samples >= PILE_MIN_SAMPLES &&
			  f.top_samples * 100 >= f.samples * PILE_MIN_PCT;
		if (f.piled || is_artefact(f.sym))
			v[nv++] = f;
		i = k;
	}
	free(e);
	sort_array(v, nv, sizeof(*v), kfn_period_cmp);
	*out = v;
	*nout = nv;
	return 0;
}

static int artefact(struct mycl_profile *p, const struct mycl_profile_event *pe)
{
	struct kfn *v;
	size_t nv, len;
	uint64_t art = 0;
	double share;
	struct mycl_warning *w;
	int err = kernel_piles(p, (int)(pe - p->events), &v, &nv);

	if (err)
		return err;
	for (size_t i = 0; i < nv; i++)
		art += v[i].period;
	share = pe->total_period ? 100.0 * (double)art / (double)pe->total_period : 0;
	if (!nv || share < ARTEFACT_MIN_PCT) {
		free(v);
		return 0;
	}
	w = add(p, "artefact", share);
	if (!w) {
		free(v);
		return -ENOMEM;
	}
	len = (size_t)snprintf(w->message, sizeof(w->message), "%.0f%% of '%s' sits on single "
			       "kernel instructions or idle points (", share, pe->event->name);
	/* (the two largest named, when they hold 1% of the event or more) */
	for (size_t i = 0; i < nv && i < 2 && len < sizeof(w->message) &&
	     (!i || v[i].period * 100 >= pe->total_period); i++) {
		len += (size_t)snprintf(w->message + len, sizeof(w->message) - len, "%s%.40s",
					i ? ", " : "", v[i].sym);
		if (v[i].piled && len < sizeof(w->message))
			len += (size_t)snprintf(w->message + len, sizeof(w->message) - len,
						"+0x%" PRIx64, v[i].top_off);
		if (len < sizeof(w->message))
			len += (size_t)snprintf(w->message + len, sizeof(w->message) - len,
						" %.0f%%", 100.0 * (double)v[i].period /
							   (double)pe->total_period);
	}
	if (len < sizeof(w->message))
		snprintf(w->message + len, sizeof(w->message) - len, "%s): time with interrupts off, "
			 "idle, or one long instruction; not code that ran there",
			 nv > 2 || (nv > 1 && v[1].period * 100 < pe->total_period) ? ", ..." : "");
	snprintf(w->fix, sizeof(w->fix), "use a hardware event (-e cycles) where there is a PMU; "
		 "else read them as interrupts-off time (perf annotate -s SYM where recorded: "
		 "an sti, popf or irq-enable call before the hot one)");
	free(v);
	return 0;
}

static int per_event(struct mycl_profile *p, const struct mycl_profile_event *pe)
{
	struct mycl_warning *w;
	int err;

	if (!pe->event || !pe->nr_samples)
		return 0;
	if ((err = artefact(p, pe)))
		return err;
	if (pe->nr_samples < FEW_SAMPLES) {
		double lo, hi, half;
		uint64_t first = pe->nr_rows ? pe->rows[0].total_samples : 0;

		mycl_share_ci95(first, pe->nr_samples, &lo, &hi);
		half = (hi - lo) / 2;
		w = add(p, "few_samples", 100);
		if (!w)
			return -ENOMEM;
		if (pe->nr_samples < 30)
			snprintf(w->message, sizeof(w->message),
				 "only %" PRIu64 " samples of '%s': too few for any share to mean much",
				 pe->nr_samples, pe->event->name);
		else
			snprintf(w->message, sizeof(w->message),
				 "only %" PRIu64 " samples of '%s': the top row's share is known to "
				 "+-%.1f points (95%%)", pe->nr_samples,
				 pe->event->name, half);
		snprintf(w->fix, sizeof(w->fix), "record longer or at a higher frequency (-F)");
	}
	return 0;
}

/* A warning that the call tree's memory bound changed what it shows. */
static int tree_bound(struct mycl_profile *p, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int tree_bound(struct mycl_profile *p, const char *kind, const char *fmt, ...)
{
	struct mycl_warning *w = add(p, kind, 0);
	va_list ap;

	if (!w)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof(w->message), fmt, ap);
	va_end(ap);
	snprintf(w->fix, sizeof(w->fix), "report a part of the recording (--pid, --comm, --cpu, "
		 "--dso), or install the binaries' debug symbols (see the summary)");
	return 0;
}

/* The samples the filters kept, every event's (with call paths wanted: those of the tree). */
static uint64_t kept_samples(const struct mycl_profile *p)
{
	uint64_t n = 0;

	for (size_t e = 0; e < p->nr_events; e++)
		n += p->events[e].nr_samples;
	return n;
}

/*
 * The binaries whose samples stay addresses because the file is not here or
 * is another build: said in the header when they hold a large share, with
 * the fix, not only in the summary at the bottom.
 */
static int unread_binaries(struct mycl_profile *p)
{
	uint64_t total = p->unmapped, missing = 0, other = 0;
	const struct dso_count *top = NULL;
	struct mycl_warning *w;
	double share;

	for (size_t i = 0; i < p->nr_dcounts; i++) {
		const struct dso_count *c = &p->dcounts[i];

		total += c->samples;
		if (c->dso->kernel || c->dso->identity || !c->unresolved)
			continue;
		if (c->dso->status == DSO_BUILD_ID_MISMATCH)
			other += c->unresolved;
		else if (c->dso->status == DSO_MISSING)
			missing += c->unresolved;
		else
			continue;
		if (!top || c->unresolved > top->unresolved)
			top = c;
	}
	share = total ? 100.0 * (double)(missing + other) / (double)total : 0;
	if (!top || share < UNREAD_MIN_PCT)
		return 0;
	w = add(p, "binaries", share);
	if (!w)
		return -ENOMEM;
	snprintf(w->message, sizeof(w->message), "%.0f%% of samples are in binaries not read here, "
		 "so their rows are addresses: %.60s %s (%.0f%%)%s", share, top->dso->short_name,
		 top->dso->status == DSO_BUILD_ID_MISMATCH ? "has another build-id than the "
		 "recording's (rebuilt since)" : "was not found", 100.0 * (double)top->unresolved /
		 (double)total, missing && other ? "; others too (see the summary)" : "");
	snprintf(w->fix, sizeof(w->fix), other ? "the build that ran is needed: point --symfs at "
		 "it, or 'perf archive' where it was recorded and pass --archive" :
		 "'perf archive' where it was recorded and pass --archive, or copy the binaries under "
		 "--symfs");
	return 0;
}

int profile_quality(struct mycl_profile *p)
{
	const struct mycl_perf_stats *st = mycl_perf_data__stats(p->pd);
	int err = lost(p);

	if (!err)
		err = unordered(p);
	if (!err)
		err = stack_copy(p);
	if (!err)
		err = fp_chains(p);
	if (!err)
		err = unread_binaries(p);
	if (!err && p->want_tree && kept_samples(p) && !p->nr_chained) {
		struct mycl_warning *w = add(p, "no_chains", 100);

		if (!w)
			return -ENOMEM;
		snprintf(w->message, sizeof(w->message),
			 "no sample has a call chain (recorded without -g): call paths are one frame "
			 "deep, inclusive time is self time, and no lock site can be named");
		snprintf(w->fix, sizeof(w->fix), "record with -g (frame pointers) or --call-graph "
			 "dwarf (any build)");
	}
	if (!err && st->nr_sample_records &&
	    100.0 * (double)p->nr_idle / (double)st->nr_sample_records >= IDLE_MIN_PCT) {
		double share = 100.0 * (double)p->nr_idle / (double)st->nr_sample_records;
		struct mycl_warning *w = add(p, "idle", share);

		if (!w)
			return -ENOMEM;
		snprintf(w->message, sizeof(w->message),
			 "%.0f%% of samples are the idle task: the CPUs were mostly idle", share);
		snprintf(w->fix, sizeof(w->fix),
			 "record the workload's processes (-p PID) or filter them (--comm, --pid)");
	}
	if (!err)
		err = profile_bound_counts(p);
	if (!err && p->nr_merged_samples)
		err = tree_bound(p, "merged_unresolved", "the call tree passed %u nodes: in the call "
				 "paths of %" PRIu64 " samples after that, unresolved addresses are "
				 "merged per binary ('binary+[unresolved]')", CT_NODE_BUDGET,
				 p->nr_merged_samples);
	if (!err && p->nr_cut_samples)
		err = tree_bound(p, "paths_cut", "the call tree reached %u nodes: the call paths of %"
				 PRIu64 " samples new after that end at their deepest known caller, in "
				 "'%s' (callers' totals stay exact)", CT_NODE_LIMIT, p->nr_cut_samples,
				 CT_CUT_NAME);
	if (!err && p->nr_max_stack_cut) {
		struct mycl_warning *w = add(p, "max_stack", 0);

		if (!w)
			return -ENOMEM;
		snprintf(w->message, sizeof(w->message), "%" PRIu64 " samples have call chains longer than "
			 "%u frames: cut there, as perf report cuts them, and ended in '%s'",
			 p->nr_max_stack_cut, p->max_stack, MYCL_MAX_STACK_CUT);
		snprintf(w->fix, sizeof(w->fix), "--max-stack N to keep more frames (the cost of "
			 "--children grows with the square of the depth)");
	}
	for (size_t e = 0; !err && e < p->nr_events; e++)
		err = per_event(p, &p->events[e]);
	return err;
}

MYCL_API size_t mycl_profile__nr_warnings(const struct mycl_profile *p)
{
	return p->nr_warnings;
}

MYCL_API const struct mycl_warning *mycl_profile__warning(const struct mycl_profile *p, size_t i)
{
	return i < p->nr_warnings ? &p->warnings[i] : NULL;
}
