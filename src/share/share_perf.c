/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Weighting the variables by a recording: sampled instructions that touch
 * each one (the sampled instruction, or the one before it: a timer sample
 * lands after the load that stalled), and, when the recording has data
 * addresses (perf mem, perf c2c), the samples and HITMs on each line.  With
 * call chains, each function's samples on whose chain it is: a variable's
 * writer that the workload runs, even where no sample hit its store.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/mycl.h"
#include "disasm.h"
#include "profile_insns.h"
#include "share_state.h"


static bool same_binary(const struct dso *a, const struct dso *b)
{
	if (a->build_id_size && b->build_id_size)
		return a->build_id_size == b->build_id_size &&
		       !memcmp(a->build_id, b->build_id, a->build_id_size);
	return !strcmp(a->short_name, b->short_name);
}

struct addr_ctx {
	struct mycl_share *s;
	const char *base;		/* the binary's file name */
	uint64_t bias;
	bool have_bias;
};

/* N samples on LINE, HITM of them HITMs. */
static int bucket(struct mycl_share *s, uint64_t line, uint64_t n, uint64_t hitm)
{
	for (size_t i = 0; i < s->nr_buckets; i++)
		if (s->buckets[i].line == line) {
			s->buckets[i].samples += n;
			s->buckets[i].hitm += hitm;
			return 0;
		}
	if (ARRAY_GROW(s->buckets, s->buckets_cap, s->nr_buckets + 1))
		return -ENOMEM;
	s->buckets[s->nr_buckets++] = (struct share_bucket){ line, n, hitm };
	return 0;
}

/*
 * An instruction's samples go to the variable it touches; a timer sample
 * lands on the instruction after the one that stalled, so a sample on an
 * instruction that touches no variable (or only takes an address), or one
 * after an atomic, goes to the instruction before it.
 */
static int credit_insn(struct dso *d, uint64_t vaddr, uint64_t samples, void *ctx)
{
	struct mycl_share *s = ctx;
	const struct share_ref *r, *p;

	if (!d || !same_binary(d, s->dso))
		return 0;
	/* A copy given under another name is still the recording's name on the chains. */
	s->recorded_name = d->short_name;
	s->binary_samples += samples;
	share_types_credit(s, vaddr, samples);
	r = share_ref_at(s, vaddr, false);
	p = share_ref_at(s, vaddr, true);
	if (p && p->access != ACC_ADDR &&
	    (!r || r->access == ACC_ADDR || (p->atomic && !r->atomic))) {
		s->skid_samples += samples;
		s->vars[p->var].skid_samples += samples;
		r = p;
	} else if (r && r->access == ACC_ADDR) {
		return 0;
	}
	if (!r)
		return 0;
	s->vars[r->var].samples += samples;
	if (r->access == ACC_WRITE || r->access == ACC_RMW)
		s->vars[r->var].sampled_writes += samples;
	else
		s->vars[r->var].sampled_reads += samples;
	return 0;
}

/* The writing function holding ADDR, or NULL. */
static struct share_wfunc *wfunc_at(const struct mycl_share *s, uint64_t addr)
{
	size_t k = PARTITION_POINT(0, s->nr_wfuncs, mid, s->wfuncs[mid].start <= addr);

	return k && addr < s->wfuncs[k - 1].end ? &s->wfuncs[k - 1] : NULL;
}

/* The innermost loop of W around ADDR: its span in *FROM, *TO; 0, 0 when none. */
static void loop_around(const struct mycl_share *s, const struct share_wfunc *w, uint64_t addr,
			uint64_t *from, uint64_t *to)
{
	*from = *to = 0;
	for (uint32_t k = w->first_span; k < w->first_span + w->nr_spans; k++)
		if (s->wspans[k].from <= addr && addr <= s->wspans[k].to &&
		    (!*to || s->wspans[k].to - s->wspans[k].from < *to - *from)) {
			*from = s->wspans[k].from;
			*to = s->wspans[k].to;
		}
}

/* One call path: whether it passes this binary (the samples with it on their chains). */
static int on_path(const char *comm, const struct mycl_cg_node *frames, size_t n, uint64_t samples,
		   uint64_t period, void *arg)
{
	struct mycl_share *s = arg;
	const char *self = s->recorded_name ? s->recorded_name : s->dso->short_name;

	(void)comm;
	(void)period;
	for (size_t i = 0; i < n; i++) {
		const char *b = frames[i].dso ? strrchr(frames[i].dso, '/') : NULL;

		if (!frames[i].inlined && frames[i].dso && !strcmp(b ? b + 1 : frames[i].dso, self)) {
			s->chain_total += samples;
			break;
		}
	}
	s->chains |= n > 1;
	return 0;
}

/*
 * A place the chains pass in this binary: the writing function holding
 * it, by the innermost loop of that function around it.
 */
static int credit_site(struct dso *d, uint64_t vaddr, uint64_t samples, void *ctx)
{
	struct mycl_share *s = ctx;
	struct share_wfunc *w;
	struct share_wloop *l = NULL;
	uint64_t from, to;

	if (!same_binary(d, s->dso) || !(w = wfunc_at(s, vaddr)))
		return 0;
	loop_around(s, w, vaddr, &from, &to);
	for (size_t k = 0; k < w->nr_loops && !l; k++)
		if (w->loops[k].from == from && w->loops[k].to == to)
			l = &w->loops[k];
	if (!l) {
		if (ARRAY_GROW(w->loops, w->loops_cap, w->nr_loops + 1))
			return -ENOMEM;
		l = &w->loops[w->nr_loops++];
		*l = (struct share_wloop){ .from = from, .to = to };
	}
	l->samples += samples;
	return 0;
}

/*
 * The samples whose chains show that W's writes of variable VAR run: those
 * passing W in a loop that holds one of the writes, or outside W's loops
 * (W's code runs straight through), or anywhere in W for a write outside
 * its loops (made once a call of W, as often as W is called): the most of
 * any such place.  A chain in a loop of W that holds none of the writes (a
 * per-query loop beside a write made once per connection) shows nothing
 * about them.
 */
static uint64_t write_evidence(const struct mycl_share *s, const struct share_wfunc *w, uint32_t var)
{
	size_t lo = PARTITION_POINT(0, s->nr_wsites, mid, s->wsites[mid].var < var ||
				    (s->wsites[mid].var == var && s->wsites[mid].func < w->start));
	uint64_t best = 0;

	for (size_t k = 0; k < w->nr_loops; k++) {
		const struct share_wloop *l = &w->loops[k];
		bool holds = !l->to;

		for (size_t i = lo; !holds && i < s->nr_wsites && s->wsites[i].var == var &&
		     s->wsites[i].func == w->start; i++) {
			uint64_t at = s->wsites[i].at, from, to;

			loop_around(s, w, at, &from, &to);
			holds = !to || (l->from <= at && at <= l->to);
		}
		if (holds && l->samples > best)
			best = l->samples;
	}
	return best;
}

/* Each variable's busiest writer while threads run, by the samples whose chains show it runs. */
static int credit_chains(struct mycl_share *s, const struct mycl_profile *p)
{
	int err = mycl_profile__for_each_path(p, 0, on_path, s);

	if (!err)
		err = mycl_profile_for_each_site(p, credit_site, s);

	for (size_t i = 0; !err && i < s->nr_vars; i++) {
		struct mycl_share_var *v = &s->vars[i];
		bool checked = false;

		for (size_t k = 0; k < v->nr_writers; k++) {
			const struct share_wfunc *w = wfunc_at(s, v->writers[k].addr);
			uint64_t ev;

			if (!w || w->start != v->writers[k].addr || !share_runtime_writer(&v->writers[k]))
				continue;
			checked = true;
			ev = write_evidence(s, w, (uint32_t)i);
			if (ev > v->chain_samples) {
				v->chain_samples = ev;
				v->chain_writer = v->writers[k].function;
			}
		}
		/* every writer was looked for on chains that pass this binary, and none ran */
		v->chain_unseen = checked && s->chains && s->chain_total && v->hot_writes &&
				  !v->chain_samples && !v->sampled_writes;
	}
	return err;
}

/* The sampled data addresses, on lines: the binary's own data at its link-time addresses. */
static int data_addr(uint64_t a, uint64_t samples, bool hitm, void *arg)
{
	struct addr_ctx *c = arg;

	c->s->data_samples += samples;
	if (c->have_bias && a >= c->bias)
		a -= c->bias;
	return bucket(c->s, a & ~(uint64_t)(c->s->line_size - 1), samples, hitm ? samples : 0);
}

/*
 * P's samples credited to the variables and writers of S (the recording
 * PATH, sliced by TIME): instructions, chains, and with data addresses the
 * lines they fall on (the first executable mapping of the binary's file name
 * gives its load bias).
 */
static int weigh(struct mycl_share *s, const struct mycl_profile *p, const char *path,
		 const char *time, const struct mycl_perf_stats *stats)
{
	struct addr_ctx ac = { .s = s };
	uint64_t start, pgoff;
	int err;

	mycl_profile_for_each_insn(p, credit_insn, s);
	err = credit_chains(s, p);
	s->recorded_name = NULL;	/* the profile's */
	if (err)
		return err;
	if (!s->binary_samples && stats->nr_time_skipped)
		mycl_log(&s->log, MYCL_WARN, "%s: no sample of time slice '%s' falls in %s (%" PRIu64
			 " samples outside it): the ranking rests on its code alone", path, time,
			 s->name, stats->nr_time_skipped);
	else if (!s->binary_samples)
		mycl_log(&s->log, MYCL_WARN, "%s: no sample falls in %s (build-id or name differs, or "
			 "it did not run): the ranking rests on its code alone; record it running: "
			 "perf record -g -p <pid of %s>", path, s->name, s->dso->short_name);
	s->weighted = true;
	/* The file name the recording knows it by: as shown when read from elsewhere (an archive). */
	ac.base = strrchr(s->name, '/') ? strrchr(s->name, '/') + 1 : s->name;
	if (mycl_profile_first_map(p, ac.base, &start, &pgoff)) {
		ac.bias = dso_map_bias(s->dso, start, pgoff);
		ac.have_bias = true;
	}
	return mycl_profile_for_each_data_addr(p, data_addr, &ac);
}

int share_weigh_profile(struct mycl_share *s, const struct mycl_profile *p)
{
	const struct mycl_perf_data *pd = mycl_profile__perf_data(p);

	return weigh(s, p, mycl_perf_data__path(pd), mycl_perf_data__time(pd),
		     mycl_perf_data__stats(pd));
}

int share_weigh(struct mycl_share *s, const char *path, const char *time, char *errbuf,
		size_t len)
{
	MYCL_OPTS(mycl_perf_data_opts, popts, .time = time);
	const char *self[] = { s->dso->path, NULL };
	MYCL_OPTS(mycl_profile_opts, po, .annotate = true, .callgraph = true, .binaries = self,
		  .call_sites = true, .data_addresses = true);
	struct mycl_perf_data *pd;
	struct mycl_profile *p;
	int err;

	err = mycl_perf_data__open(path, &popts, &pd);
	if (err) {
		snprintf(errbuf, len, "%s", mycl_errmsg(err));
		return err;
	}
	err = mycl_profile__build(pd, &po, &p);
	if (err) {
		snprintf(errbuf, len, "%s", mycl_errmsg(err));
		mycl_perf_data__close(pd);
		return err;
	}
	err = weigh(s, p, path, time, mycl_perf_data__stats(pd));
	mycl_profile__free(p);
	mycl_perf_data__close(pd);
	if (err)
		snprintf(errbuf, len, "%s: out of memory", path);
	return err;
}
