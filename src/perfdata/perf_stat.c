/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf stat record's records: the counters' values (STAT), the rounds they
 * were read in (STAT_ROUND), how perf stat was run (STAT_CONFIG), and the
 * thread and CPU maps the values' indexes refer to.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

/*
 * THREAD_MAP: u64 nr; nr x { u64 pid; char comm[16] }.
 */
static int thread_map(struct mycl_perf_data *pd, struct cursor *c, uint64_t off)
{
	uint64_t nr = cursor_u64(c);
	struct mycl_stat_thread *t;

	if (c->bad || nr > cursor_left(c) / 24)
		return pd_error(pd, MYCL_ERR_CORRUPT, "THREAD_MAP record at offset 0x%" PRIx64
				" claims %" PRIu64 " threads in %zu bytes", off, nr, cursor_left(c));
	t = calloc(nr ? nr : 1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (uint64_t i = 0; i < nr; i++) {
		const char *comm;

		t[i].pid = (int32_t)cursor_u64(c);
		comm = cursor_bytes(c, 16);
		memcpy(t[i].comm, comm, 15);
		t[i].comm[15] = '\0';
	}
	free(pd->stat_threads);
	pd->stat_threads = t;
	pd->nr_stat_threads = nr;
	return 0;
}

static int add_cpu(int32_t **cpus, size_t *nr, int32_t cpu)
{
	int32_t *n;

	if (*nr >= 65536)
		return -E2BIG;
	/* doubling: a map of 65,536 CPUs is 17 reallocations, not 65,536 (ASan keeps each) */
	if (!(*nr & (*nr - 1)) || !*nr) {
		n = realloc(*cpus, (*nr ? *nr * 2 : 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		*cpus = n;
	}
	(*cpus)[(*nr)++] = cpu;
	return 0;
}

/*
 * CPU_MAP: u16 type, then
 *   0 (CPUS):  u16 nr; u16 cpu[nr]          (0xffff: any CPU)
 *   1 (MASK):  u16 nr; u16 long_size; then nr masks of long_size bytes
 *              (4: u32 words; 8: u32 pad, u64 words)
 *   2 (RANGE): u8 any_cpu; u8 pad; u16 start; u16 end   (any_cpu: -1 first)
 */
static int cpu_map(struct mycl_perf_data *pd, struct cursor *c, uint64_t off)
{
	uint16_t type = cursor_u16(c);
	int32_t *cpus = NULL;
	size_t nr = 0;
	int err = 0;

	if (type == 0) {
		uint16_t n = cursor_u16(c);

		for (uint16_t i = 0; i < n && !err && !c->bad; i++) {
			uint16_t v = cursor_u16(c);

			err = add_cpu(&cpus, &nr, v == 0xffff ? -1 : v);
		}
	} else if (type == 1) {
		uint16_t n = cursor_u16(c), lsz = cursor_u16(c);

		if (lsz == 8)
			cursor_u32(c);
		if (lsz != 4 && lsz != 8)
			err = -EINVAL;
		for (uint32_t w = 0; w < n && !err && !c->bad; w++) {
			uint64_t bits = lsz == 4 ? cursor_u32(c) : cursor_u64(c);

			for (unsigned int b = 0; b < lsz * 8u && !err; b++)
				if (bits >> b & 1)
					err = add_cpu(&cpus, &nr, (int32_t)(w * lsz * 8u + b));
		}
	} else if (type == 2) {
		uint8_t any = cursor_u8(c);
		uint16_t start, end;

		cursor_u8(c);
		start = cursor_u16(c);
		end = cursor_u16(c);
		if (any)
			err = add_cpu(&cpus, &nr, -1);
		for (uint32_t v = start; v <= end && !err && !c->bad; v++)
			err = add_cpu(&cpus, &nr, (int32_t)v);
	} else {
		err = -EINVAL;
	}
	if (err == -ENOMEM) {
		free(cpus);
		return err;
	}
	if (err || c->bad) {
		free(cpus);
		return pd_error(pd, MYCL_ERR_CORRUPT, "CPU_MAP record at offset 0x%" PRIx64
				" is not one of perf's three forms (type %u)", off, type);
	}
	free(pd->stat_cpus);
	pd->stat_cpus = cpus;
	pd->nr_stat_cpus = nr;
	return 0;
}

/* STAT_CONFIG: u64 nr; nr x { u64 tag, val }: 0 aggr mode, 1 interval (ms), 2 scale. */
static int stat_config(struct mycl_perf_data *pd, struct cursor *c, uint64_t off)
{
	uint64_t nr = cursor_u64(c);

	if (c->bad || nr > cursor_left(c) / 16)
		return pd_error(pd, MYCL_ERR_CORRUPT, "STAT_CONFIG record at offset 0x%" PRIx64
				" claims %" PRIu64 " terms in %zu bytes", off, nr, cursor_left(c));
	pd->stat_config.present = true;
	pd->stat_config.aggr_mode = 1;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t tag = cursor_u64(c), val = cursor_u64(c);

		if (tag == 0)
			pd->stat_config.aggr_mode = (uint32_t)val;
		else if (tag == 1)
			pd->stat_config.interval_ms = val;
		else if (tag == 2)
			pd->stat_config.scale = val != 0;
	}
	return 0;
}

int pd_stat_record(struct mycl_perf_data *pd, uint32_t type, struct cursor *c, uint64_t off)
{
	switch (type) {
	case REC_THREAD_MAP:
		return thread_map(pd, c, off);
	case REC_CPU_MAP:
		return cpu_map(pd, c, off);
	case REC_STAT_CONFIG:
		return stat_config(pd, c, off);
	case REC_STAT: {
		/* u64 id; u32 cpu, thread; u64 val, ena, run */
		struct mycl_stat_value v = { .id = cursor_u64(c) };
		struct event_priv *ev;

		v.cpu = (int32_t)cursor_u32(c);
		v.thread = cursor_u32(c);
		v.val = cursor_u64(c);
		v.ena = cursor_u64(c);
		v.run = cursor_u64(c);
		if (c->bad)
			return pd_error(pd, MYCL_ERR_CORRUPT, "STAT record at offset 0x%" PRIx64
					" is cut short", off);
		ev = pd_event_by_id_exact(pd, v.id);
		v.event = ev ? &ev->pub : NULL;
		return pd->ops->stat ? pd->ops->stat(&v, pd->ctx) : 0;
	}
	case REC_STAT_ROUND: {
		/* u64 type (0 interval, 1 final), u64 time */
		struct mycl_stat_round r;

		r.final = cursor_u64(c) == 1;
		r.time = cursor_u64(c);
		if (c->bad)
			return pd_error(pd, MYCL_ERR_CORRUPT, "STAT_ROUND record at offset 0x%" PRIx64
					" is cut short", off);
		return pd->ops->stat_round ? pd->ops->stat_round(&r, pd->ctx) : 0;
	}
	}
	return 0;
}

MYCL_API const struct mycl_stat_config *mycl_perf_data__stat_config(const struct mycl_perf_data *pd)
{
	return &pd->stat_config;
}

MYCL_API size_t mycl_perf_data__stat_threads(const struct mycl_perf_data *pd,
					     const struct mycl_stat_thread **threads)
{
	*threads = pd->stat_threads;
	return pd->nr_stat_threads;
}

MYCL_API size_t mycl_perf_data__stat_cpus(const struct mycl_perf_data *pd, const int32_t **cpus)
{
	*cpus = pd->stat_cpus;
	return pd->nr_stat_cpus;
}

MYCL_API bool mycl_perf_data__is_stat(const struct mycl_perf_data *pd)
{
	return pd->info.features[FEAT_STAT / 64] >> (FEAT_STAT % 64) & 1;
}
