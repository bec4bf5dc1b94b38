/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Decoding PERF_RECORD_SAMPLE: every PERF_SAMPLE_* field, by the event's sample_type. */
#include <string.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

/* Copies N u64s from C into the scratch area at *USED; NULL when they do not fit. */
static const uint64_t *take_u64s(struct mycl_perf_data *pd, struct cursor *c, uint64_t n,
				 size_t *used)
{
	uint64_t *dst;

	if (n > cursor_left(c) / 8 || n > ARRAY_SIZE(pd->scratch) - *used) {
		c->bad = true;
		return NULL;
	}
	dst = pd->scratch + *used;
	cursor_u64_array(c, dst, n);
	*used += n;
	return dst;
}

/*
 * PERF_RECORD_SAMPLE body, each field present when its sample_type bit is
 * set, in this order:
 *   IDENTIFIER, IP, TID (u32 pid, u32 tid), TIME, ADDR, ID, STREAM_ID,
 *   CPU (u32 cpu, u32 res), PERIOD, READ (by read_format), CALLCHAIN (u64 nr,
 *   ips[nr]), RAW (u32 size, data[size]; u64 aligned), BRANCH_STACK (u64 nr,
 *   [u64 hw_idx], {from, to, flags}[nr], [u64 counters[nr]]), REGS_USER (u64 abi,
 *   regs[popcount(mask)] if abi), STACK_USER (u64 size, data[size], u64 dyn_size
 *   if size), WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR,
 *   PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE, AUX (u64 size, data).
 */
/* Fields after the call chain: rare in profiles, decoded out of line. */
#define S_TAIL (S_RAW | S_BRANCH_STACK | S_REGS_USER | S_STACK_USER | S_WEIGHT | S_DATA_SRC | \
		S_TRANSACTION | S_REGS_INTR | S_PHYS_ADDR | S_AUX | S_CGROUP | S_DATA_PAGE_SIZE | \
		S_CODE_PAGE_SIZE | S_WEIGHT_STRUCT)

/* The fields only READ and the tail fields set. */
static void clear_rare(struct mycl_sample *s)
{
	s->read_nr = s->time_enabled = s->time_running = 0;
	s->read_values = s->read_ids = NULL;
	s->branch_hw_idx = UINT64_MAX;
	s->weight = s->weight_struct = s->data_src = s->transaction = s->phys_addr = 0;
	s->cgroup = s->data_page_size = s->code_page_size = 0;
	s->raw_size = 0;
	s->raw = NULL;
	s->branch_nr = 0;
	s->branches = NULL;
	s->user_regs_abi = s->user_regs_mask = 0;
	s->user_regs_nr = 0;
	s->user_regs = NULL;
	s->user_stack_size = s->user_stack_dyn_size = 0;
	s->user_stack = NULL;
	s->intr_regs_abi = s->intr_regs_mask = 0;
	s->intr_regs_nr = 0;
	s->intr_regs = NULL;
	s->aux_size = 0;
	s->aux = NULL;
}

/* The head fields, IDENTIFIER to PERIOD, through the cursor (any byte order). */
static void decode_head(struct cursor *c, uint64_t st, struct mycl_sample *s)
{
	s->id = (st & S_IDENTIFIER) ? cursor_u64(c) : 0;
	s->ip = (st & S_IP) ? cursor_u64(c) : 0;
	if (st & S_TID) {
		s->pid = (int32_t)cursor_u32(c);
		s->tid = (int32_t)cursor_u32(c);
	}
	if (st & S_TIME)
		s->time = cursor_u64(c);
	if (st & S_ADDR)
		s->addr = cursor_u64(c);
	if (st & S_ID)
		s->id = cursor_u64(c);
	if (st & S_STREAM_ID)
		s->stream_id = cursor_u64(c);
	if (st & S_CPU) {
		s->cpu = cursor_u32(c);
		cursor_u32(c);
	}
	if (st & S_PERIOD)
		s->period = cursor_u64(c);
}

static inline const uint8_t *load64(const uint8_t *p, uint64_t *v)
{
	memcpy(v, p, 8);
	return p + 8;
}

/* The same in the host's byte order, with the bytes known to be there. */
static void decode_head_native(const uint8_t *p, uint64_t st, struct mycl_sample *s)
{
	uint32_t w[2];

	if (st & S_IDENTIFIER)
		p = load64(p, &s->id);
	if (st & S_IP)
		p = load64(p, &s->ip);
	if (st & S_TID) {
		memcpy(w, p, 8);
		s->pid = (int32_t)w[0];
		s->tid = (int32_t)w[1];
		p += 8;
	}
	if (st & S_TIME)
		p = load64(p, &s->time);
	if (st & S_ADDR)
		p = load64(p, &s->addr);
	if (st & S_ID)
		p = load64(p, &s->id);
	if (st & S_STREAM_ID)
		p = load64(p, &s->stream_id);
	if (st & S_CPU) {
		memcpy(w, p, 8);
		s->cpu = w[0];
		p += 8;
	}
	if (st & S_PERIOD)
		load64(p, &s->period);
}

static void decode_read(struct mycl_perf_data *pd, struct cursor *c, uint64_t rf,
			struct mycl_sample *s, size_t *usedp)
{
	size_t used = *usedp;
	uint64_t nr = 1, per;

	if (rf & RF_GROUP)
		nr = cursor_u64(c);
	if (rf & RF_TOTAL_TIME_ENABLED && rf & RF_GROUP)
		s->time_enabled = cursor_u64(c);
	if (rf & RF_TOTAL_TIME_RUNNING && rf & RF_GROUP)
		s->time_running = cursor_u64(c);
	per = 1 + !!(rf & RF_ID) + !!(rf & RF_LOST);
	if (!(rf & RF_GROUP)) {
		s->read_values = take_u64s(pd, c, 1, &used);
		if (rf & RF_TOTAL_TIME_ENABLED)
			s->time_enabled = cursor_u64(c);
		if (rf & RF_TOTAL_TIME_RUNNING)
			s->time_running = cursor_u64(c);
		if (rf & RF_ID)
			s->read_ids = take_u64s(pd, c, 1, &used);
		if (rf & RF_LOST)
			cursor_u64(c);
	} else if (nr <= cursor_left(c) / 8 / per) {
		/* Values interleaved with ids/lost: keep every field, values first. */
		const uint64_t *all = take_u64s(pd, c, nr * per, &used);

		if (all && per > 1) {
			uint64_t *v = pd->scratch + used;

			if (used + 2 * nr <= ARRAY_SIZE(pd->scratch)) {
				for (uint64_t i = 0; i < nr; i++) {
					v[i] = all[i * per];
					v[nr + i] = (rf & RF_ID) ? all[i * per + 1] : 0;
				}
				used += 2 * nr;
				s->read_values = v;
				s->read_ids = (rf & RF_ID) ? v + nr : NULL;
			}
		} else {
			s->read_values = all;
		}
	} else {
		c->bad = true;
	}
	s->read_nr = nr;
	*usedp = used;
}

/* RAW to AUX: every tail field is set, read or cleared. */
static void decode_tail(struct mycl_perf_data *pd, struct cursor *c, const struct mycl_event *e,
			struct mycl_sample *s, size_t *usedp)
{
	uint64_t st = e->sample_type;
	size_t used = *usedp;

	if (st & S_RAW) {
		s->raw_size = cursor_u32(c);
		s->raw = cursor_bytes(c, s->raw_size);
	}
	if (st & S_BRANCH_STACK) {
		uint64_t nr = cursor_u64(c);

		if (e->branch_sample_type & BR_HW_INDEX)
			s->branch_hw_idx = cursor_u64(c);
		if (nr > cursor_left(c) / 24) {
			c->bad = true;
		} else {
			s->branch_nr = nr;
			s->branches = (const struct mycl_branch_entry *)take_u64s(pd, c, nr * 3, &used);
			if (e->branch_sample_type & BR_COUNTERS)
				cursor_skip(c, nr * 8);
		}
	}
	if (st & S_REGS_USER) {
		s->user_regs_abi = cursor_u64(c);
		if (s->user_regs_abi) {
			s->user_regs_mask = e->sample_regs_user;
			s->user_regs_nr = (uint32_t)__builtin_popcountll(e->sample_regs_user);
			s->user_regs = take_u64s(pd, c, s->user_regs_nr, &used);
		}
	}
	if (st & S_STACK_USER) {
		s->user_stack_size = cursor_u64(c);
		if (s->user_stack_size) {
			s->user_stack = cursor_bytes(c, s->user_stack_size);
			s->user_stack_dyn_size = cursor_u64(c);
			if (s->user_stack_dyn_size > s->user_stack_size)
				s->user_stack_dyn_size = s->user_stack_size;
		}
	}
	if (st & S_WEIGHT_STRUCT) {
		s->weight_struct = cursor_u64(c);
		s->weight = s->weight_struct & 0xffffffffu;
	} else if (st & S_WEIGHT) {
		s->weight = cursor_u64(c);
	}
	if (st & S_DATA_SRC)
		s->data_src = cursor_u64(c);
	if (st & S_TRANSACTION)
		s->transaction = cursor_u64(c);
	if (st & S_REGS_INTR) {
		s->intr_regs_abi = cursor_u64(c);
		if (s->intr_regs_abi) {
			s->intr_regs_mask = e->sample_regs_intr;
			s->intr_regs_nr = (uint32_t)__builtin_popcountll(e->sample_regs_intr);
			s->intr_regs = take_u64s(pd, c, s->intr_regs_nr, &used);
		}
	}
	if (st & S_PHYS_ADDR)
		s->phys_addr = cursor_u64(c);
	if (st & S_CGROUP)
		s->cgroup = cursor_u64(c);
	if (st & S_DATA_PAGE_SIZE)
		s->data_page_size = cursor_u64(c);
	if (st & S_CODE_PAGE_SIZE)
		s->code_page_size = cursor_u64(c);
	if (st & S_AUX) {
		s->aux_size = cursor_u64(c);
		s->aux = cursor_bytes(c, s->aux_size);
	}
	*usedp = used;
}

int pd_decode_sample(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
		     struct event_priv *ev, struct mycl_sample *s)
{
	const struct mycl_event *e;
	struct cursor c;
	size_t used = 0, head;
	uint64_t st;
	uint16_t misc;

	if (!ev)
		ev = pd_record_event(pd, rec, len);
	if (!ev)
		return MYCL_ERR_CORRUPT;
	e = &ev->pub;
	st = e->sample_type;
	/*
	 * S is the handle's one sample, kept between calls: the fields of READ
	 * and of the tail are cleared only after a sample that set them.  (A
	 * memset of the whole struct per sample was a measurable share of a
	 * report.)
	 */
	memcpy(&misc, rec + 4, 2);	/* u32 type, u16 misc, u16 size */
	if (pd->info.swapped)
		misc = bswap_16(misc);
	s->event = e;
	s->misc = misc;
	s->cpumode = (enum mycl_cpumode)(misc & MISC_CPUMODE_MASK);
	s->sample_type = st;
	s->pid = s->tid = -1;
	s->cpu = UINT32_MAX;
	s->period = e->freq ? 1 : (e->sample_period_or_freq ? e->sample_period_or_freq : 1);
	s->id = s->ip = s->time = s->addr = s->stream_id = 0;
	if (pd->sample_dirty) {
		clear_rare(s);
		pd->sample_dirty = false;
	}
	pd->sample_dirty = (st & (S_READ | S_TAIL)) != 0;
	s->callchain_nr = 0;
	s->callchain = NULL;
	head = (size_t)ev->head_words * 8;
	if (!pd->info.swapped && len >= 8 + head) {
		decode_head_native(rec + 8, st, s);
		cursor_init(&c, rec + 8 + head, len - 8 - head, false);
	} else {
		cursor_init(&c, rec + 8, len - 8, pd->info.swapped);
		decode_head(&c, st, s);
	}
	if (st & S_READ)
		decode_read(pd, &c, e->read_format, s, &used);
	if (st & S_CALLCHAIN) {
		s->callchain_nr = cursor_u64(&c);
		if (!c.swap && !((uintptr_t)c.p & 7) && s->callchain_nr <= cursor_left(&c) / 8) {
			/* In place: nothing to swap and aligned. */
			s->callchain = (const uint64_t *)(const void *)c.p;
			c.p += s->callchain_nr * 8;
		} else {
			s->callchain = take_u64s(pd, &c, s->callchain_nr, &used);
		}
	}
	if (st & S_TAIL)
		decode_tail(pd, &c, e, s, &used);
	return c.bad ? MYCL_ERR_CORRUPT : 0;
}
