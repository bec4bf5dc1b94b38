/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pprof's profile.proto (perftools.profiles.Profile), gzipped: what Pyroscope,
 * Parca and Google's pprof read.  One Sample per distinct call path and
 * thread, values [samples, the event's period]; a Location per function
 * frame, with the functions inlined into it as further Lines (innermost
 * first); a Mapping per binary with its path and build-id; labels comm, pid
 * and tid when the profile is sorted on them.
 *
 * The protobuf encoding is written here (varints, length-delimited fields),
 * gzipped with zlib.
 */
#include <errno.h>
#include <zlib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "idmap.h"
#include "report_priv.h"

/* ---- protobuf ---------------------------------------------------------- */

struct pb {
	uint8_t *p;
	size_t len, cap;
	int err;
};

static void pb_raw(struct pb *b, const void *data, size_t n)
{
	if (b->err)
		return;
	if (ARRAY_GROW(b->p, b->cap, b->len + n)) {
		b->err = -ENOMEM;
		return;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void pb_varint(struct pb *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	pb_raw(b, tmp, n);
}

/* A varint field; proto3 leaves zeros out. */
static void pb_uint(struct pb *b, unsigned int field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(b, (uint64_t)field << 3);
	pb_varint(b, v);
}

static void pb_bytes(struct pb *b, unsigned int field, const void *data, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	pb_raw(b, data, n);
}

/* SUB as a length-delimited field of B; SUB is emptied for reuse. */
static void pb_msg(struct pb *b, unsigned int field, struct pb *sub)
{
	if (sub->err)
		b->err = sub->err;
	pb_bytes(b, field, sub->p, sub->len);
	sub->len = 0;
}

/* ---- the profile ------------------------------------------------------- */

struct mapping_info {
	uint64_t id;
	const char *path, *build_id;
	uint64_t limit;			/* past the highest address seen */
};

struct pprof {
	const struct mycl_profile *prof;
	struct pb out, sub, sub2;
	struct idmap strs, funcs, locs, maps;
	struct mapping_info *mi;	/* by mapping id - 1 */
	size_t nr_mi, cap_mi;
	int64_t s_comm, s_pid, s_tid;
	uint64_t *loc_ids;
	size_t loc_cap;
	uint64_t samples, period;
	int err;
};

/* The string table index of S. */
static int64_t str_idx(struct pprof *pp, const char *s)
{
	bool fresh;
	uint64_t id = idmap_get(&pp->strs, s, strlen(s), &fresh);

	if (!id) {
		pp->err = -ENOMEM;
		return 0;
	}
	if (fresh) {
		/* protobuf strings are UTF-8: a name of another encoding as U+FFFD */
		char *fixed = str_utf8_fixed(s);

		pb_bytes(&pp->out, 6, fixed ? fixed : s, strlen(fixed ? fixed : s));
		free(fixed);
	}
	return (int64_t)id - 1;
}

/* The binary's summary: path and build-id, by its short name. */
static const struct mycl_dso_summary *dso_of(const struct mycl_profile *p, const char *short_name)
{
	for (size_t i = 0; i < mycl_profile__nr_dsos(p); i++) {
		const struct mycl_dso_summary *d = mycl_profile__dso(p, i);

		if (d->name && !strcmp(d->name, short_name))
			return d;
	}
	return NULL;
}

static uint64_t mapping_id(struct pprof *pp, const char *dso, uint64_t addr)
{
	bool fresh;
	uint64_t id = idmap_get(&pp->maps, dso, strlen(dso), &fresh);

	if (!id) {
		pp->err = -ENOMEM;
		return 0;
	}
	if (fresh) {
		const struct mycl_dso_summary *d = dso_of(pp->prof, dso);

		if (ARRAY_GROW(pp->mi, pp->cap_mi, pp->nr_mi + 1)) {
			pp->err = -ENOMEM;
			return 0;
		}
		pp->mi[pp->nr_mi++] = (struct mapping_info){
			.id = id, .path = d && d->path ? d->path : dso,
			.build_id = d && d->build_id ? d->build_id : "",
		};
	}
	if (addr != MYCL_CG_ADDR_MERGED && addr + 1 > pp->mi[id - 1].limit)
		pp->mi[id - 1].limit = addr + 1;
	return id;
}

static uint64_t function_id(struct pprof *pp, const struct mycl_cg_node *f, uint64_t map)
{
	char name[512];
	uint64_t key[2];
	bool fresh;
	uint64_t id;
	int64_t si;

	report_node_name(f, name, sizeof(name));
	if (f->inlined) {
		/* pprof shows inlining by the Lines of a Location: the plain name. */
		size_t n = strlen(name), sl = sizeof(" (inlined)") - 1;

		if (n > sl && !strcmp(name + n - sl, " (inlined)"))
			name[n - sl] = 0;
	}
	si = str_idx(pp, name);
	key[0] = (uint64_t)si;
	key[1] = map;
	id = idmap_get(&pp->funcs, key, sizeof(key), &fresh);
	if (!id) {
		pp->err = -ENOMEM;
		return 0;
	}
	if (fresh) {
		pb_uint(&pp->sub, 1, id);
		pb_uint(&pp->sub, 2, (uint64_t)si);
		pb_uint(&pp->sub, 3, (uint64_t)si);
		pb_msg(&pp->out, 5, &pp->sub);
	}
	return id;
}

/*
 * The location of frames [FIRST, LAST] (outermost first): LAST's real frame
 * FIRST and the functions inlined into it.
 */
static uint64_t location_id(struct pprof *pp, const struct mycl_cg_node *fr, size_t first,
			    size_t last)
{
	const struct mycl_cg_node *real = &fr[first];
	uint64_t map = mapping_id(pp, real->dso ? real->dso : "[unknown]", real->addr);
	uint64_t key[2 + 64], fids[64];
	size_t nl = last - first + 1, nk = 0;
	uint64_t addr = real->addr == MYCL_CG_ADDR_MERGED ? 0 : real->addr;
	bool fresh;
	uint64_t id;

	if (nl > 64)
		nl = 64;
	key[nk++] = map;
	key[nk++] = addr;
	/* Lines innermost first. */
	for (size_t i = 0; i < nl; i++) {
		fids[i] = function_id(pp, &fr[last - i], map);
		key[nk++] = fids[i];
	}
	id = idmap_get(&pp->locs, key, nk * sizeof(key[0]), &fresh);
	if (!id) {
		pp->err = -ENOMEM;
		return 0;
	}
	if (fresh) {
		pb_uint(&pp->sub, 1, id);
		pb_uint(&pp->sub, 2, map);
		pb_uint(&pp->sub, 3, addr);
		for (size_t i = 0; i < nl; i++) {
			pb_uint(&pp->sub2, 1, fids[i]);
			pb_msg(&pp->sub, 4, &pp->sub2);
		}
		pb_msg(&pp->out, 4, &pp->sub);
	}
	return id;
}

static void label(struct pprof *pp, int64_t key, const char *str, int64_t num)
{
	pb_uint(&pp->sub2, 1, (uint64_t)key);
	if (str)
		pb_uint(&pp->sub2, 2, (uint64_t)str_idx(pp, str));
	else
		pb_uint(&pp->sub2, 3, (uint64_t)num);
	pb_msg(&pp->sub, 3, &pp->sub2);
}

static int one_stack(const struct mycl_stack *s, void *ctx)
{
	struct pprof *pp = ctx;
	size_t nloc = 0;
	struct pb packed = { 0 };

	if (ARRAY_GROW(pp->loc_ids, pp->loc_cap, s->nr_frames + 1))
		return -ENOMEM;
	/* Innermost first: a real frame and the inlined ones under it make one location. */
	for (size_t i = s->nr_frames; i > 0;) {
		size_t last = i - 1, first = last;

		while (first > 0 && s->frames[first].inlined)
			first--;
		pp->loc_ids[nloc++] = location_id(pp, s->frames, first, last);
		i = first;
	}
	if (pp->err)
		return pp->err;
	/* Sample: packed location ids, packed values, labels. */
	for (size_t i = 0; i < nloc; i++)
		pb_varint(&packed, pp->loc_ids[i]);
	pb_bytes(&pp->sub, 1, packed.p, packed.len);
	packed.len = 0;
	pb_varint(&packed, s->samples);
	pb_varint(&packed, s->period);
	pb_bytes(&pp->sub, 2, packed.p, packed.len);
	if (packed.err)
		pp->err = packed.err;
	free(packed.p);
	if (s->comm)
		label(pp, pp->s_comm, s->comm, 0);
	if (s->pid >= 0)
		label(pp, pp->s_pid, NULL, s->pid);
	if (s->tid >= 0)
		label(pp, pp->s_tid, NULL, s->tid);
	pb_msg(&pp->out, 2, &pp->sub);
	pp->samples += s->samples;
	pp->period += s->period;
	return pp->err;
}

static bool time_event(const char *name)
{
	return !strncmp(name, "cpu-clock", 9) || !strncmp(name, "task-clock", 10);
}

static void value_type(struct pprof *pp, unsigned int field, const char *type, const char *unit)
{
	int64_t t = str_idx(pp, type), u = str_idx(pp, unit);

	pb_uint(&pp->sub, 1, (uint64_t)t);
	pb_uint(&pp->sub, 2, (uint64_t)u);
	pb_msg(&pp->out, field, &pp->sub);
}

/* ---- gzip, with zlib ---------------------------------------------------- */

/* DATA gzip-compressed into F (zlib's gzip wrapper: no name, no time, so the same bytes each run). */
static int write_gzip(FILE *f, const uint8_t *data, size_t n)
{
	z_stream z = { 0 };
	unsigned char buf[64 << 10];
	int st, err = 0;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)(uintptr_t)data;
	do {
		/* (fed in pieces of at most 1 GiB: avail_in is an unsigned int) */
		size_t used = (size_t)(z.next_in - data);

		z.avail_in = n - used > (1u << 30) ? 1u << 30 : (unsigned int)(n - used);
		do {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			st = deflate(&z, used + z.avail_in == n ? Z_FINISH : Z_NO_FLUSH);
			if (st == Z_STREAM_ERROR) {
				err = -EINVAL;
				break;
			}
			if (fwrite(buf, 1, sizeof(buf) - z.avail_out, f) != sizeof(buf) - z.avail_out)
				err = -EIO;
		} while (!err && z.avail_out == 0);
	} while (!err && st != Z_STREAM_END);
	deflateEnd(&z);
	return err ? err : ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_report__pprof(FILE *f, const struct mycl_profile *p, size_t ev,
				const struct mycl_pprof_opts *o)
{
	const struct mycl_perf_data *pd = mycl_profile__perf_data(p);
	const struct mycl_perf_info *in = mycl_perf_data__info(pd);
	const struct mycl_perf_stats *st = mycl_perf_data__stats(pd);
	const struct mycl_profile_event *pe;
	struct pprof pp = { .prof = p };
	const char *evname, *unit;
	uint64_t first, last;
	char comment[600];
	int err;

	if (!OPTS_VALID(o, mycl_pprof_opts))
		return MYCL_ERR_OPTS;
	if (ev >= mycl_profile__nr_events(p) || !mycl_profile__has_callgraph(p))
		return -EINVAL;
	pe = mycl_profile__event(p, ev);
	evname = pe->event ? pe->event->name : "events";
	unit = time_event(evname) ? "nanoseconds" : "count";
	/* The string table starts with "". */
	str_idx(&pp, "");
	value_type(&pp, 1, "samples", "count");
	value_type(&pp, 1, evname, unit);
	pp.s_comm = str_idx(&pp, "comm");
	pp.s_pid = str_idx(&pp, "pid");
	pp.s_tid = str_idx(&pp, "tid");
	err = mycl_profile__for_each_stack(p, ev, one_stack, &pp);
	if (!err)
		err = pp.err;
	for (size_t i = 0; i < pp.nr_mi && !err; i++) {
		const struct mapping_info *m = &pp.mi[i];

		pb_uint(&pp.sub, 1, m->id);
		pb_uint(&pp.sub, 3, m->limit);
		pb_uint(&pp.sub, 5, (uint64_t)str_idx(&pp, m->path));
		pb_uint(&pp.sub, 6, (uint64_t)str_idx(&pp, m->build_id));
		pb_uint(&pp.sub, 7, 1);		/* has_functions */
		pb_uint(&pp.sub, 10, 1);	/* has_inline_frames */
		pb_msg(&pp.out, 3, &pp.sub);
	}
	first = in->first_sample_time ? in->first_sample_time : st->first_time;
	last = in->last_sample_time ? in->last_sample_time : st->last_time;
	if (last > first)
		pb_uint(&pp.out, 10, last - first);
	value_type(&pp, 11, evname, unit);
	if (pe->event && !pe->event->freq)
		pb_uint(&pp.out, 12, pe->event->sample_period_or_freq);
	snprintf(comment, sizeof(comment), "mycl-hot of %s: %" PRIu64 " samples of %s",
		 mycl_perf_data__path(pd), pp.samples, evname);
	pb_uint(&pp.out, 13, (uint64_t)str_idx(&pp, comment));
	pb_uint(&pp.out, 14, (uint64_t)str_idx(&pp, evname));
	if (!err)
		err = pp.err ? pp.err : pp.out.err ? pp.out.err : pp.sub.err;
	if (!err)
		err = OPTS_GET(o, no_gzip, false) ?
		      (fwrite(pp.out.p, 1, pp.out.len, f) == pp.out.len ? 0 : -EIO) :
		      write_gzip(f, pp.out.p, pp.out.len);
	free(pp.out.p);
	free(pp.sub.p);
	free(pp.sub2.p);
	free(pp.mi);
	free(pp.loc_ids);
	idmap_free(&pp.strs);
	idmap_free(&pp.funcs);
	idmap_free(&pp.locs);
	idmap_free(&pp.maps);
	return err;
}
