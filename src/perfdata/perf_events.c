/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recording's events (attrs) and their ids, the error message of the
 * handle and the strings it owns: what every stage of the reader looks up,
 * below all of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

int pd_error(struct mycl_perf_data *pd, int err, const char *fmt, ...)
{
	int n;
	va_list ap;

	n = snprintf(pd->errmsg, sizeof(pd->errmsg), "%s: ", pd->path);
	if (n < 0 || (size_t)n >= sizeof(pd->errmsg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(pd->errmsg + n, sizeof(pd->errmsg) - (size_t)n, fmt, ap);
	va_end(ap);
	error_set(err, "%s", pd->errmsg);
	return err;
}

char *pd_strdup_owned(struct mycl_perf_data *pd, int slot, const char *s, size_t maxlen)
{
	char *d = strndup(s, maxlen);

	if (!d)
		return NULL;
	free(pd->strs[slot]);
	pd->strs[slot] = d;
	return d;
}

/* ---- events and ids ---- */

static uint64_t id_hash(uint64_t id)
{
	return (id * 0x9E3779B97F4A7C15ULL) >> 17;
}

static bool id_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = id_hash(((const struct mycl_perf_data *)ctx)->ids[i].id);
	return true;
}

int pd_add_id(struct mycl_perf_data *pd, uint64_t id, int idx)
{
	size_t h;

	if (itable_full(&pd->ids_index, pd->nr_ids) &&
	    itable_grow(&pd->ids_index, pd->nr_ids, 64, id_hash_at, pd))
		return -ENOMEM;
	itable_each(&pd->ids_index, id_hash(id), h) {
		struct id_slot *e = &pd->ids[pd->ids_index.slot[h]];

		if (e->id == id) {
			/* perf gives every id once: two events with one id are a damaged file. */
			if (e->idx != idx && pd->nr_id_collisions++ == 0)
				mycl_log(&pd->log, MYCL_WARN, "%s: sample id %" PRIu64 " belongs to "
					 "events %d and %d: their samples cannot be told apart, all are "
					 "counted for event %d", pd->path, id, e->idx, idx, idx);
			e->idx = idx;
			return 0;
		}
	}
	if (ARRAY_GROW(pd->ids, pd->ids_cap, pd->nr_ids + 1))
		return -ENOMEM;
	pd->ids[pd->nr_ids] = (struct id_slot){ .id = id, .idx = idx };
	itable_put(&pd->ids_index, h, pd->nr_ids++);
	return 0;
}

struct id_slot *pd_id_slot(struct mycl_perf_data *pd, uint64_t id)
{
	size_t h;

	if (!pd->ids_index.cap)
		return NULL;
	itable_each(&pd->ids_index, id_hash(id), h)
		if (pd->ids[pd->ids_index.slot[h]].id == id)
			return &pd->ids[pd->ids_index.slot[h]];
	return NULL;
}

struct event_priv *pd_event_by_id_exact(struct mycl_perf_data *pd, uint64_t id)
{
	const struct id_slot *slot = pd_id_slot(pd, id);

	return slot ? pd->events[slot->idx] : NULL;
}

/* The event of a record whose id is ID; NULL when the id is not known. */
struct event_priv *pd_event_by_id(struct mycl_perf_data *pd, uint64_t id)
{
	if (pd->nr_events == 1 || (pd->nr_events > 0 && pd->id_pos < 0 && pd->is_pos == 0))
		return pd->events[0];
	if (!pd->nr_ids)
		return pd->nr_events ? pd->events[0] : NULL;
	return pd_event_by_id_exact(pd, id);
}

/*
 * Where the event id sits, decided from the first event as perf does: all
 * events of one recording share the layout of these leading/trailing fields
 * (perf adds PERF_SAMPLE_IDENTIFIER when their sample types differ).
 */
void pd_update_id_layout(struct mycl_perf_data *pd)
{
	uint64_t st;

	pd->id_pos = -1;
	pd->is_pos = 0;
	if (!pd->nr_events)
		return;
	st = pd->events[0]->pub.sample_type;
	if (st & S_IDENTIFIER) {
		pd->id_pos = 0;
		pd->is_pos = 1;
	} else if (st & S_ID) {
		pd->id_pos = !!(st & S_IP) + !!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ADDR);
		pd->is_pos = 1 + !!(st & S_CPU) + !!(st & S_STREAM_ID);
	}
}

static uint64_t reverse_bits64(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

/*
 * perf_event_attr, as many bytes as ATTR_SIZE (older and newer perfs write
 * shorter or longer ones; fields past the end are zero):
 *   0 u32 type      4 u32 size      8 u64 config     16 u64 period|freq
 *  24 u64 sample_type  32 u64 read_format  40 u64 bitfield flags
 *  48 u32 wakeup   52 u32 bp_type  56 u64 config1   64 u64 config2
 *  72 u64 branch_sample_type  80 u64 sample_regs_user  88 u32 sample_stack_user
 *  92 s32 clockid  96 u64 sample_regs_intr ...
 * The bitfield word is laid out by the writer's compiler: on a big-endian
 * writer the first bitfield is the most significant bit.
 */
int pd_add_event(struct mycl_perf_data *pd, struct cursor *c, uint32_t attr_size,
		 const uint64_t *ids, size_t nr_ids)
{
	uint8_t buf[256] = { 0 };
	struct cursor a;
	struct event_priv *ev;
	struct mycl_event *e;
	const void *raw;
	bool writer_be;
	char name[64];
	uint64_t st;
	int err;

	if (attr_size < 64)
		return MYCL_ERR_CORRUPT;
	raw = cursor_bytes(c, attr_size);
	if (!raw)
		return MYCL_ERR_TRUNCATED;
	memcpy(buf, raw, attr_size < sizeof(buf) ? attr_size : sizeof(buf));
	cursor_init(&a, buf, sizeof(buf), c->swap);

	if (ARRAY_GROW(pd->events, pd->events_cap, pd->nr_events + 1))
		return -ENOMEM;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	e = &ev->pub;
	e->idx = (int)pd->nr_events;
	e->group_leader = e->idx;
	e->attr_size = attr_size;
	e->type = cursor_u32(&a);
	cursor_u32(&a);
	e->config = cursor_u64(&a);
	e->sample_period_or_freq = cursor_u64(&a);
	e->sample_type = cursor_u64(&a);
	e->read_format = cursor_u64(&a);
	e->flags = cursor_u64(&a);
	writer_be = (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) != c->swap;
	if (writer_be)
		e->flags = reverse_bits64(e->flags);
	e->freq = (e->flags >> AF_FREQ) & 1;
	cursor_skip(&a, 4 + 4 + 8 + 8);
	e->branch_sample_type = cursor_u64(&a);
	e->sample_regs_user = cursor_u64(&a);
	e->sample_stack_user = cursor_u32(&a);
	cursor_u32(&a);
	e->sample_regs_intr = cursor_u64(&a);

	st = e->sample_type;
	ev->sample_id_all = (e->flags >> AF_SAMPLE_ID_ALL) & 1;
	ev->time_pos = (st & S_TIME) ? !!(st & S_IDENTIFIER) + !!(st & S_IP) + !!(st & S_TID) : -1;
	ev->head_words = (unsigned int)__builtin_popcountll(st & (S_IDENTIFIER | S_IP | S_TID |
		S_TIME | S_ADDR | S_ID | S_STREAM_ID | S_CPU | S_PERIOD));
	ev->trailer_words = ev->sample_id_all ?
		!!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ID) + !!(st & S_STREAM_ID) +
		!!(st & S_CPU) + !!(st & S_IDENTIFIER) : 0;
	e->name = pd_event_default_name(e->type, e->config, name, sizeof(name));
	if (e->name != name)
		snprintf(name, sizeof(name), "%s", e->name);
	pd_event_add_modifiers(e->flags, name, sizeof(name));
	ev->name = strdup(name);
	if (!ev->name) {
		free(ev);
		return -ENOMEM;
	}
	e->name = ev->name;
	pd->events[pd->nr_events++] = ev;
	for (size_t i = 0; i < nr_ids; i++) {
		err = pd_add_id(pd, ids[i], e->idx);
		if (err)
			return err;
	}
	pd_update_id_layout(pd);
	return 0;
}

/* ---- file header ---- */

/*
 * perf_file_header (104 bytes):
 *   u64 magic "PERFILE2"   u64 size (104; 16 in pipe mode)   u64 attr_size
 *   {u64 offset, u64 size} attrs, data, event_types
 *   u64 adds_features[4]   (bitmap of feature sections)
 * attrs: one perf_file_attr per event, attr_size bytes each: the
 * perf_event_attr (attr_size - 16 bytes) then {u64 offset, u64 size} of its
 * u64 ids.
 */
static uint64_t load_u64(const struct mycl_perf_data *pd, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return pd->info.swapped ? bswap_64(v) : v;
}

struct event_priv *pd_record_event(struct mycl_perf_data *pd, const uint8_t *rec, size_t len)
{
	uint32_t type;

	if (!pd->nr_events)
		return NULL;
	if (pd->nr_events == 1)
		return pd->events[0];
	memcpy(&type, rec, 4);
	if (pd->info.swapped)
		type = bswap_32(type);
	if (type == REC_SAMPLE) {
		if (pd->id_pos < 0)
			return pd->events[0];
		if (8 + (size_t)pd->id_pos * 8 + 8 > len)
			return NULL;
		return pd_event_by_id(pd, load_u64(pd, rec + 8 + pd->id_pos * 8));
	}
	if (!pd->events[0]->sample_id_all || pd->is_pos == 0)
		return pd->events[0];
	if ((size_t)pd->is_pos * 8 + 8 > len)
		return NULL;
	return pd_event_by_id(pd, load_u64(pd, rec + len - pd->is_pos * 8));
}

/* The record's timestamp, or UINT64_MAX when it carries none. */
uint64_t pd_record_time(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
			struct event_priv *ev)
{
	uint32_t type;
	size_t pos;

	if (!ev || !(ev->pub.sample_type & S_TIME))
		return UINT64_MAX;
	memcpy(&type, rec, 4);
	if (pd->info.swapped)
		type = bswap_32(type);
	if (type == REC_SAMPLE) {
		pos = 8 + (size_t)ev->time_pos * 8;
	} else {
		if (!ev->sample_id_all || (size_t)ev->trailer_words * 8 + 8 > len)
			return UINT64_MAX;
		pos = len - ev->trailer_words * 8 + ((ev->pub.sample_type & S_TID) ? 8 : 0);
	}
	if (pos + 8 > len)
		return UINT64_MAX;
	return load_u64(pd, rec + pos);
}

bool pd_record_tid(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
		   struct event_priv *ev, int32_t *pid, int32_t *tid)
{
	struct cursor c;

	if (!ev || !ev->sample_id_all || !(ev->pub.sample_type & S_TID) ||
	    (size_t)ev->trailer_words * 8 + 8 > len)
		return false;
	/* the trailer starts with TID: u32 pid, tid */
	cursor_init(&c, rec + len - ev->trailer_words * 8, 8, pd->info.swapped);
	*pid = (int32_t)cursor_u32(&c);
	*tid = (int32_t)cursor_u32(&c);
	return true;
}
