/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Feature sections (file mode: located by the table after the data section;
 * pipe mode: HEADER_FEATURE records).  Unknown or malformed features are
 * skipped with a warning: they never stop a recording from being read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

enum { STR_HOSTNAME, STR_OSRELEASE, STR_VERSION, STR_ARCH, STR_CPUDESC, STR_CPUID, STR_CMDLINE };

/* A perf header string: u32 len, then len bytes, NUL-padded to a multiple of 8. */
static const char *read_string(struct cursor *c, uint32_t *lenp)
{
	uint32_t len = cursor_u32(c);
	const char *s;

	if (len > cursor_left(c)) {
		c->bad = true;
		return NULL;
	}
	s = cursor_bytes(c, len);
	if (lenp)
		*lenp = len;
	return s;
}

static int set_string(struct mycl_perf_data *pd, int slot, const char **dst, struct cursor *c)
{
	uint32_t len;
	const char *s = read_string(c, &len);

	if (!s)
		return MYCL_ERR_CORRUPT;
	*dst = pd_strdup_owned(pd, slot, s, len);
	return *dst ? 0 : -ENOMEM;
}

/*
 * One build-id entry (also the HEADER_BUILD_ID record):
 *   u32 type, u16 misc, u16 size; s32 pid; u8 build_id[24]; char filename[]
 * With misc & (1 << 15) build_id[20] holds the id's length, else it is 20.
 */
int pd_add_build_id(struct mycl_perf_data *pd, struct cursor *c, uint16_t misc, size_t len)
{
	struct mycl_build_id *b;
	const uint8_t *id;
	const char *name;
	int32_t pid;

	if (len < 8 + 4 + 24)
		return MYCL_ERR_CORRUPT;
	pid = (int32_t)cursor_u32(c);
	id = cursor_bytes(c, 24);
	name = cursor_bytes(c, len - 36);
	if (!id || !name)
		return MYCL_ERR_CORRUPT;
	if (ARRAY_GROW(pd->build_ids, pd->build_ids_cap, pd->info.nr_build_ids + 1))
		return -ENOMEM;
	b = &pd->build_ids[pd->info.nr_build_ids];
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->size = (misc & MISC_BUILD_ID_SIZE) && id[20] <= 20 ? id[20] : 20;
	memcpy(b->id, id, 20);
	b->filename = strndup(name, len - 36);
	if (!b->filename)
		return -ENOMEM;
	pd->info.nr_build_ids++;
	pd->info.build_ids = pd->build_ids;
	return 0;
}

static int read_build_ids(struct mycl_perf_data *pd, struct cursor *c)
{
	while (cursor_left(c) >= 8) {
		struct cursor e;
		uint16_t misc, size;
		int err;

		cursor_u32(c);
		misc = cursor_u16(c);
		size = cursor_u16(c);
		if (size < 8 || size - 8u > cursor_left(c))
			return MYCL_ERR_CORRUPT;
		cursor_init(&e, c->p, size - 8u, c->swap);
		cursor_skip(c, size - 8u);
		err = pd_add_build_id(pd, &e, misc, size);
		if (err)
			return err;
	}
	return 0;
}

/* EVENT_DESC: u32 nr, u32 attr_size, then per event: attr, u32 nr_ids, string name, u64 ids[]. */
static int read_event_desc(struct mycl_perf_data *pd, struct cursor *c)
{
	uint32_t nr = cursor_u32(c), attr_size = cursor_u32(c);

	if (c->bad || attr_size < 64 || attr_size > cursor_left(c))
		return MYCL_ERR_CORRUPT;
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		struct event_priv *ev = NULL;
		uint32_t nr_ids, len;
		const char *name;
		uint64_t id0 = 0;
		char *dup;

		cursor_skip(c, attr_size);
		nr_ids = cursor_u32(c);
		name = read_string(c, &len);
		if (!name || nr_ids > cursor_left(c) / 8)
			return MYCL_ERR_CORRUPT;
		if (nr_ids)
			id0 = cursor_u64(c);
		cursor_skip(c, (nr_ids ? nr_ids - 1 : 0) * 8ULL);
		if (nr_ids && pd->nr_ids)
			ev = pd_event_by_id(pd, id0);
		if (!ev && nr == pd->nr_events)
			ev = pd->events[i];
		if (!ev || !strnlen(name, len))
			continue;
		dup = strndup(name, len);
		if (!dup)
			return -ENOMEM;
		free(ev->name);
		ev->name = dup;
		ev->pub.name = dup;
	}
	return c->bad ? MYCL_ERR_CORRUPT : 0;
}

int pd_read_feature(struct mycl_perf_data *pd, unsigned int feat, const uint8_t *p, size_t len,
		    uint64_t file_off)
{
	struct mycl_perf_info *in = &pd->info;
	struct cursor c;
	int err = 0;

	cursor_init(&c, p, len, in->swapped);
	if (feat < FEAT_BITS)
		in->features[feat / 64] |= 1ULL << (feat % 64);
	switch (feat) {
	case FEAT_HOSTNAME:
		err = set_string(pd, STR_HOSTNAME, &in->hostname, &c);
		break;
	case FEAT_OSRELEASE:
		err = set_string(pd, STR_OSRELEASE, &in->os_release, &c);
		break;
	case FEAT_VERSION:
		err = set_string(pd, STR_VERSION, &in->perf_version, &c);
		break;
	case FEAT_ARCH:
		err = set_string(pd, STR_ARCH, &in->arch, &c);
		break;
	case FEAT_CPUDESC:
		err = set_string(pd, STR_CPUDESC, &in->cpudesc, &c);
		break;
	case FEAT_CPUID:
		err = set_string(pd, STR_CPUID, &in->cpuid, &c);
		break;
	case FEAT_NRCPUS:
		in->nr_cpus_avail = cursor_u32(&c);
		in->nr_cpus_online = cursor_u32(&c);
		break;
	case FEAT_TOTAL_MEM:
		in->total_mem_kb = cursor_u64(&c);
		break;
	case FEAT_CLOCKID:
		in->clockid = cursor_u64(&c);
		break;
	case FEAT_DIR_FORMAT:
		in->dir_version = cursor_u64(&c);
		break;
	case FEAT_SAMPLE_TIME:
		in->first_sample_time = cursor_u64(&c);
		in->last_sample_time = cursor_u64(&c);
		break;
	case FEAT_COMPRESSED:
		cursor_u32(&c);	/* version */
		in->compression_type = cursor_u32(&c);
		in->compression_level = cursor_u32(&c);
		cursor_u32(&c);	/* ratio */
		in->compression_mmap_len = cursor_u32(&c);
		break;
	case FEAT_CMDLINE: {
		uint32_t nr = cursor_u32(&c);
		size_t total = 0, used = 0;
		struct cursor save = c;
		char *line;

		for (uint32_t i = 0; i < nr && !c.bad; i++) {
			uint32_t l = 0;
			const char *s = read_string(&c, &l);

			if (s)
				total += strnlen(s, l) + 1;
		}
		if (c.bad) {
			err = MYCL_ERR_CORRUPT;
			break;
		}
		line = calloc(1, total + 1);
		if (!line)
			return -ENOMEM;
		c = save;
		for (uint32_t i = 0; i < nr; i++) {
			uint32_t l = 0;
			const char *s = read_string(&c, &l);
			size_t n = s ? strnlen(s, l) : 0;

			if (used)
				line[used++] = ' ';
			memcpy(line + used, s, n);
			used += n;
		}
		free(pd->strs[STR_CMDLINE]);
		pd->strs[STR_CMDLINE] = line;
		in->cmdline = line;
		break;
	}
	case FEAT_BUILD_ID:
		err = read_build_ids(pd, &c);
		break;
	case FEAT_EVENT_DESC:
		err = read_event_desc(pd, &c);
		break;
	case FEAT_TRACING_DATA:
		/* Kept whole: the tracepoint formats, for decoding RAW sample data. */
		free(pd->tracing);
		pd->tracing = malloc(len ? len : 1);
		if (!pd->tracing)
			return -ENOMEM;
		memcpy(pd->tracing, p, len);
		pd->tracing_len = len;
		return 0;
	default:
		/* Known to perf but not needed here, or newer than this reader. */
		return 0;
	}
	if (!err && c.bad)
		err = MYCL_ERR_CORRUPT;
	if (err == -ENOMEM)
		return err;
	if (err)
		mycl_log(&pd->log, MYCL_WARN, "%s: feature section %s at offset 0x%" PRIx64
			 " (%zu bytes) is malformed; ignored", pd->path,
			 str_or(mycl_perf_feature_name(feat), "?"), file_off, len);
	return 0;
}
