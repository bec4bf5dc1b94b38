/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Records to the caller's callbacks: the kernel's records decoded, samples
 * through perf_sample.c, a sample that reads a group delivered once per member.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

/* The body of a non-sample record, without its sample_id_all trailer. */
static size_t body_len(struct mycl_perf_data *pd, const uint8_t *rec, size_t len, uint64_t *time)
{
	struct event_priv *ev = pd_record_event(pd, rec, len);
	size_t trailer = ev && ev->sample_id_all ? ev->trailer_words * 8 : 0;

	*time = ev ? pd_record_time(pd, rec, len, ev) : UINT64_MAX;
	if (*time == UINT64_MAX)
		*time = 0;
	return trailer + 8 <= len ? len - trailer : len;
}

static int bad_record(struct mycl_perf_data *pd, uint32_t type, size_t len)
{
	pd->stats.nr_bad_samples++;
	mycl_log(&pd->log, MYCL_DEBUG, "%s: %s record of %zu bytes does not decode; skipped",
		 pd->path, str_or(mycl_perf_record_name(type), "?"), len);
	return 0;
}

/*
 * Whether S's period can be counted for EV: 0 yes, 1 when it is past
 * MYCL_MAX_PERIOD (skipped, counted in the stats), or an error when EV's
 * periods would sum past 2^64 (a report of wrapped sums would lie).
 */
static int period_check(struct mycl_perf_data *pd, struct event_priv *ev,
			const struct mycl_sample *s)
{
	uint64_t sum;

	if (s->period > MYCL_MAX_PERIOD) {
		if (!pd->stats.nr_bad_periods++)
			pd->stats.first_bad_period = s->period;
		return 1;
	}
	if (__builtin_add_overflow(ev->pub.total_period, s->period, &sum))
		return pd_error(pd, MYCL_ERR_CORRUPT, "the periods of event '%s' sum past 2^64 "
				"after %" PRIu64 " samples: the recording's periods are corrupt",
				ev->pub.name, ev->pub.nr_samples);
	return 0;
}

/* The first group read of a leader tells which events are its members. */
static void note_group(struct mycl_perf_data *pd, struct mycl_event *leader,
		       const struct mycl_sample *s)
{
	if (leader->nr_group_members || !s->read_ids)
		return;
	leader->nr_group_members = 1;
	for (uint64_t i = 0; i < s->read_nr; i++) {
		struct id_slot *slot = pd_id_slot(pd, s->read_ids[i]);

		if (!slot || slot->idx == leader->idx)
			continue;
		pd->events[slot->idx]->pub.group_leader = leader->idx;
		leader->nr_group_members++;
	}
}

static uint64_t read_hash(uint64_t id, int32_t tid)
{
	return ((id ^ ((uint64_t)(uint32_t)tid << 32)) * 0x9E3779B97F4A7C15ULL) >> 17;
}

static bool read_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	const struct read_slot *r = &((const struct mycl_perf_data *)ctx)->reads[i];

	*h = read_hash(r->id, r->tid);
	return true;
}

/* The last READ value of counter (ID, TID), made 0 the first time; NULL: no memory. */
static uint64_t *read_last(struct mycl_perf_data *pd, uint64_t id, int32_t tid)
{
	size_t h;

	if (itable_full(&pd->reads_index, pd->nr_reads) &&
	    itable_grow(&pd->reads_index, pd->nr_reads, 64, read_hash_at, pd))
		return NULL;
	itable_each(&pd->reads_index, read_hash(id, tid), h) {
		struct read_slot *r = &pd->reads[pd->reads_index.slot[h]];

		if (r->id == id && r->tid == tid)
			return &r->last;
	}
	if (ARRAY_GROW(pd->reads, pd->reads_cap, pd->nr_reads + 1))
		return NULL;
	pd->reads[pd->nr_reads] = (struct read_slot){ .id = id, .tid = tid };
	itable_put(&pd->reads_index, h, pd->nr_reads);
	return &pd->reads[pd->nr_reads++].last;
}

/*
 * A sample that reads counts (PERF_SAMPLE_READ) is one sample of each event
 * it read, as perf's session delivers it: the period is the increase of that
 * event's count (per id, i.e. per CPU or thread) since its last read, and an
 * event whose count did not move gets no sample.  Values whose id names no
 * event are counted in nr_unknown_id, not delivered.  With inherit, each
 * thread counts in a copy of the counter that shares the id: the increase is
 * per (id, thread) there.  (perf 6.1 takes it per id, and reports
 * wrapped-around periods, shares of billions of percent, for such files.)
 */
static int deliver_read(struct mycl_perf_data *pd, struct mycl_sample *s)
{
	const struct mycl_event *own = s->event;
	uint64_t nr = s->read_values ? s->read_nr : 0;
	int err = 0;

	if (own->read_format & RF_GROUP)
		note_group(pd, &pd->events[own->idx]->pub, s);
	for (uint64_t i = 0; i < nr && !err; i++) {
		struct id_slot *slot = s->read_ids ? pd_id_slot(pd, s->read_ids[i]) : NULL;
		struct event_priv *ev;
		uint64_t v = s->read_values[i], *last;

		if (!slot) {
			pd->stats.nr_unknown_id++;
			continue;
		}
		ev = pd->events[slot->idx];
		last = read_last(pd, s->read_ids[i],
				 (ev->pub.flags >> AF_INHERIT) & 1 ? s->tid : -1);
		if (!last)
			return -ENOMEM;
		s->period = v - *last;
		*last = v;
		if (!s->period)
			continue;
		s->event = &ev->pub;
		s->id = s->read_ids[i];
		err = period_check(pd, ev, s);
		if (err) {
			err = err > 0 ? 0 : err;
			continue;
		}
		if (pd->nr_times && pd_time_skip(pd, s->time)) {
			pd->stats.nr_time_skipped++;
			continue;
		}
		ev->pub.nr_samples++;
		ev->pub.total_period += s->period;
		pd->stats.nr_samples++;
		if (pd->ops->sample)
			err = pd->ops->sample(s, pd->ctx);
	}
	return err;
}

static int deliver_sample(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
			  struct event_priv *ev)
{
	struct mycl_sample *s = &pd->sample;
	int err;

	if (pd_decode_sample(pd, rec, len, ev, s))
		return bad_record(pd, REC_SAMPLE, len);
	pd->stats.nr_sample_records++;
	if (pd->nr_times && !(s->sample_type & S_TIME))
		return pd_error(pd, MYCL_ERR_NOT_RECORDED, "the samples of event '%s' carry no "
				"time, so a time slice cannot pick among them (perf record "
				"--sample-time records it)", s->event->name);
	if (s->sample_type & S_TIME) {
		if (!pd->stats.first_time || s->time < pd->stats.first_time)
			pd->stats.first_time = s->time;
		if (s->time > pd->stats.last_time)
			pd->stats.last_time = s->time;
	}
	if (s->sample_type & S_READ)
		return deliver_read(pd, s);
	ev = pd->events[s->event->idx];
	err = period_check(pd, ev, s);
	if (err)
		return err > 0 ? 0 : err;
	if (pd->nr_times && pd_time_skip(pd, s->time)) {
		pd->stats.nr_time_skipped++;
		return 0;
	}
	ev->pub.nr_samples++;
	ev->pub.total_period += s->period;
	pd->stats.nr_samples++;
	if (pd->ops->sample)
		return pd->ops->sample(s, pd->ctx);
	return 0;
}

/*
 * MMAP:  u32 pid, tid; u64 addr, len, pgoff; char filename[]
 * MMAP2: u32 pid, tid; u64 addr, len, pgoff; either u32 maj, min; u64 ino,
 *        ino_generation, or (misc & MMAP_BUILD_ID) u8 size, u8, u16, u8 id[20];
 *        u32 prot, flags; char filename[]
 */
static int deliver_mmap(struct mycl_perf_data *pd, uint32_t type, uint16_t misc,
			const uint8_t *rec, size_t len)
{
	struct mycl_mmap m = { 0 };
	struct cursor c;
	size_t blen = body_len(pd, rec, len, &m.time);

	if (!pd->ops->mmap)
		return 0;
	cursor_init(&c, rec + 8, blen - 8, pd->info.swapped);
	m.misc = misc;
	m.pid = (int32_t)cursor_u32(&c);
	m.tid = (int32_t)cursor_u32(&c);
	m.start = cursor_u64(&c);
	m.len = cursor_u64(&c);
	m.pgoff = cursor_u64(&c);
	if (type == REC_MMAP2) {
		m.is_mmap2 = true;
		if (misc & MISC_MMAP_BUILD_ID) {
			const uint8_t *id;

			m.build_id_size = cursor_u8(&c);
			cursor_skip(&c, 3);
			id = cursor_bytes(&c, 20);
			if (id)
				memcpy(m.build_id, id, 20);
			if (m.build_id_size > 20)
				m.build_id_size = 20;
		} else {
			m.maj = cursor_u32(&c);
			m.min = cursor_u32(&c);
			m.ino = cursor_u64(&c);
			m.ino_generation = cursor_u64(&c);
		}
		m.prot = cursor_u32(&c);
		m.flags = cursor_u32(&c);
	}
	m.filename = cursor_str(&c, cursor_left(&c));
	if (c.bad || !m.filename)
		return bad_record(pd, type, len);
	return pd->ops->mmap(&m, pd->ctx);
}

int pd_deliver(struct mycl_perf_data *pd, const uint8_t *rec, size_t len, struct event_priv *ev)
{
	struct cursor c;
	uint32_t type;
	uint16_t misc;
	uint64_t time;
	size_t blen;

	cursor_init(&c, rec, len, pd->info.swapped);
	type = cursor_u32(&c);
	misc = cursor_u16(&c);
	cursor_u16(&c);

	switch (type) {
	case REC_SAMPLE:
		return deliver_sample(pd, rec, len, ev);
	case REC_MMAP:
	case REC_MMAP2:
		return deliver_mmap(pd, type, misc, rec, len);
	case REC_COMM: {
		/* u32 pid, tid; char comm[] */
		struct mycl_comm cm = { 0 };

		if (!pd->ops->comm)
			return 0;
		blen = body_len(pd, rec, len, &cm.time);
		cursor_init(&c, rec + 8, blen - 8, pd->info.swapped);
		cm.pid = (int32_t)cursor_u32(&c);
		cm.tid = (int32_t)cursor_u32(&c);
		cm.exec = misc & MISC_COMM_EXEC;
		cm.comm = cursor_str(&c, cursor_left(&c));
		if (c.bad || !cm.comm)
			return bad_record(pd, type, len);
		return pd->ops->comm(&cm, pd->ctx);
	}
	case REC_FORK:
	case REC_EXIT: {
		/* u32 pid, ppid, tid, ptid; u64 time */
		struct mycl_task t = { 0 };
		int (*cb)(const struct mycl_task *, void *) =
			type == REC_FORK ? pd->ops->fork : pd->ops->exit;

		if (!cb)
			return 0;
		cursor_init(&c, rec + 8, len - 8, pd->info.swapped);
		t.pid = (int32_t)cursor_u32(&c);
		t.ppid = (int32_t)cursor_u32(&c);
		t.tid = (int32_t)cursor_u32(&c);
		t.ptid = (int32_t)cursor_u32(&c);
		t.time = cursor_u64(&c);
		if (c.bad)
			return bad_record(pd, type, len);
		return cb(&t, pd->ctx);
	}
	case REC_KSYMBOL: {
		/* u64 addr; u32 len; u16 ksym_type, flags; char name[] */
		struct mycl_ksymbol k = { 0 };

		if (!pd->ops->ksymbol)
			return 0;
		blen = body_len(pd, rec, len, &time);
		cursor_init(&c, rec + 8, blen - 8, pd->info.swapped);
		k.addr = cursor_u64(&c);
		k.len = cursor_u32(&c);
		k.ksym_type = cursor_u16(&c);
		k.flags = cursor_u16(&c);
		k.name = cursor_str(&c, cursor_left(&c));
		if (c.bad || !k.name)
			return bad_record(pd, type, len);
		return pd->ops->ksymbol(&k, pd->ctx);
	}
	case REC_SWITCH:
	case REC_SWITCH_CPU_WIDE: {
		/* SWITCH: nothing but the trailer; CPU_WIDE: u32 next_prev_pid, next_prev_tid */
		struct mycl_context_switch sw = { .next_prev_pid = -1, .next_prev_tid = -1,
						   .pid = -1, .tid = -1 };

		if (!pd->ops->context_switch)
			return 0;
		blen = body_len(pd, rec, len, &sw.time);
		pd_record_tid(pd, rec, len, pd_record_event(pd, rec, len), &sw.pid, &sw.tid);
		sw.out = misc & MISC_SWITCH_OUT;
		sw.preempt = misc & MISC_SWITCH_OUT_PREEMPT;
		sw.cpu_wide = type == REC_SWITCH_CPU_WIDE;
		if (sw.cpu_wide) {
			cursor_init(&c, rec + 8, blen - 8, pd->info.swapped);
			sw.next_prev_pid = (int32_t)cursor_u32(&c);
			sw.next_prev_tid = (int32_t)cursor_u32(&c);
			if (c.bad)
				return bad_record(pd, type, len);
		}
		return pd->ops->context_switch(&sw, pd->ctx);
	}
	case REC_LOST:
		/* u64 id, lost */
		cursor_u64(&c);
		pd->stats.lost_records++;
		pd->stats.lost_events += cursor_u64(&c);
		return 0;
	case REC_LOST_SAMPLES:
		/* u64 lost */
		pd->stats.lost_samples += cursor_u64(&c);
		return 0;
	case REC_THROTTLE:
		pd->stats.nr_throttle++;
		return 0;
	case REC_UNTHROTTLE:
		pd->stats.nr_unthrottle++;
		return 0;
	default:
		return 0;
	}
}
