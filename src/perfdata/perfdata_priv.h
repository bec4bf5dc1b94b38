/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The perf.data reader's private state, shared by its source files. */
#ifndef MYCL_PERFDATA_PRIV_H
#define MYCL_PERFDATA_PRIV_H

#include <stdint.h>
#include <zstd.h>
#include "itable.h"
#include "mycl/perf_data.h"
#include "cursor.h"
#include "internal.h"
#include "stream.h"

struct event_priv {
	struct mycl_event pub;
	char *name;			/* owned; pub.name points here or to a static */
	char *unit;			/* owned; pub.unit */
	/* Where the sample-id fields sit, from sample_type. */
	int time_pos;			/* u64 index of TIME in a sample, or -1 */
	unsigned int head_words;	/* u64s of a sample's IDENTIFIER..PERIOD fields */
	bool sample_id_all;
	unsigned int trailer_words;	/* u64s of the sample_id_all trailer */
};

struct id_slot {
	uint64_t id;
	int idx;			/* event index */
};

/* The last READ value of one counter: an id, and with inherit, one thread's copy. */
struct read_slot {
	uint64_t id;
	int32_t tid;			/* -1: the id's own counter */
	uint64_t last;
};

/* A record held back for time ordering: its bytes live in the queue arena. */
struct qent {
	uint64_t time;
	uint64_t off;
	struct event_priv *ev;		/* found when queued, not looked up again */
	uint32_t len;
	bool in_stream;			/* off: file offset, read in the stream buffer */
};

struct order_queue {
	struct qent *ents, *tmp;	/* tmp: merge sort scratch */
	size_t nr, cap, tmp_cap;
	uint8_t *arena, *spare;		/* records; spare receives the leftovers */
	size_t used, acap, spare_cap;
	uint64_t next_flush;		/* flush up to here at the next round */
	uint64_t max_time;		/* largest time queued so far */
	uint64_t last_flushed;		/* time of the last record delivered */
	uint64_t last_pushed;		/* time of the last record queued */
	uint64_t nr_pushed;		/* records queued so far */
};

/* A data.N file of a perf record --threads directory. */
struct dir_file {
	char *path;			/* DIR/data.N, for messages */
	long number;			/* N */
	int fd;
	uint64_t size;
};

struct mycl_perf_data {
	char *path;
	size_t nr_id_collisions;	/* ids given to two events (warned once) */
	int fd;
	struct logger log;
	bool file_order;
	bool ordering;			/* records are queued for time order */
	size_t max_queue;
	void (*progress)(uint64_t done, uint64_t total, void *ctx);
	void *progress_ctx;
	uint64_t next_progress;		/* file offset of the next progress call */
	bool read_done;
	char errmsg[512];

	struct mycl_perf_info info;
	char *strs[8];			/* owned strings behind info */
	struct mycl_build_id *build_ids;
	size_t build_ids_cap;

	struct event_priv **events;
	size_t nr_events, events_cap;
	struct id_slot *ids;		/* id -> event, found through ids_index */
	size_t ids_cap, nr_ids;
	struct itable ids_index;
	struct read_slot *reads;	/* (id, tid) -> last READ value, found through reads_index */
	size_t reads_cap, nr_reads;
	struct itable reads_index;
	int id_pos;			/* sample: u64 index of the id, -1: none */
	int is_pos;			/* other records: u64s from the end, 0: none */

	struct mycl_perf_stats stats;
	const struct mycl_record_ops *ops;
	void *ctx;

	struct stream st;
	struct order_queue q;
	ZSTD_DCtx *zctx;
	uint8_t *zbuf;			/* decompressed bytes not yet made records */
	size_t zcap, zlen;
	uint64_t zin_bytes;		/* compressed bytes given to zstd so far */

	bool is_dir;			/* a perf record --threads directory */
	struct dir_file *dir_files;	/* its data.N files, by N */
	size_t nr_dir_files;
	bool merging;			/* reading them: rounds are the merge's own */

	uint8_t *tracing;		/* the tracing data (event formats), when recorded */
	size_t tracing_len;
	uint64_t tracing_pending;	/* pipe mode: payload bytes to capture after the record */

	struct mycl_stat_config stat_config;	/* perf stat record's records */
	struct mycl_stat_thread *stat_threads;
	size_t nr_stat_threads;
	int32_t *stat_cpus;
	size_t nr_stat_cpus;

	char *time_spec;		/* opts.time as given */
	struct mycl_time_range *times;	/* its ranges, in order; none: every sample */
	size_t nr_times;

	struct mycl_sample sample;	/* the one being delivered */
	bool sample_dirty;		/* it has READ or tail fields set */
	uint64_t scratch[8192];		/* decoded arrays of one record (< 64 KiB) */
};

/*
 * The stages of reading, each calling only those below it:
 *   perf_data.c    open and close: header, attrs, feature sections
 *   perf_dir.c     a perf record --threads directory: its 'data' file and data.N files
 *   perf_read.c    the record loop: framing, compressed records, perf's own records;
 *                  a directory's data.N files merged by time
 *   perf_order.c   time order (FINISHED_ROUND), records held in an arena
 *   perf_deliver.c records to the caller's callbacks; a group read as one sample per member
 *   perf_sample.c  a SAMPLE's fields, by sample_type
 *   perf_feature.c feature sections (header, or HEADER_FEATURE records in pipes)
 *   perf_events.c  events (attrs), ids, the record's event and time, errors, owned strings
 *   perf_attr.c, perf_names.c  event, record and feature names
 *   stream.c       bytes of the file or pipe, with the read-ahead thread
 */

/* perf_read.c */
int pd_read_records(struct mycl_perf_data *pd);

/* perf_dir.c: PD->fd is a directory: its 'data' file becomes PD->fd, its data.N files listed. */
int pd_dir_open(struct mycl_perf_data *pd);
void pd_dir_close(struct mycl_perf_data *pd);

/* perf_order.c */
int order_queue_push(struct mycl_perf_data *pd, uint64_t time, const uint8_t *rec, size_t len,
		     struct event_priv *ev);
int order_queue_flush(struct mycl_perf_data *pd, uint64_t upto);
void order_queue_free(struct order_queue *q);
/* Copies records queued in the stream buffer into the queue's arena. */
int order_queue_detach_stream(struct mycl_perf_data *pd);

/* perf_deliver.c.  EV: the record's event when known, else NULL. */
int pd_deliver(struct mycl_perf_data *pd, const uint8_t *rec, size_t len, struct event_priv *ev);

/* perf_sample.c */
int pd_decode_sample(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
		     struct event_priv *ev, struct mycl_sample *s);

/* perf_stat.c: perf stat record's records (STAT and STAT_ROUND to the callbacks). */
int pd_stat_record(struct mycl_perf_data *pd, uint32_t type, struct cursor *c, uint64_t off);

/*
 * perf_time.c: opts.time into pd->times, percentages of [FIRST, LAST] (0,
 * -EINVAL or -ENOMEM, message set); whether T is outside them.
 */
int pd_time_parse(struct mycl_perf_data *pd, const char *spec, uint64_t first, uint64_t last);
bool pd_time_skip(const struct mycl_perf_data *pd, uint64_t t);

/* perf_feature.c: decodes feature FEAT from its section bytes. */
int pd_read_feature(struct mycl_perf_data *pd, unsigned int feat, const uint8_t *p, size_t len,
		    uint64_t file_off);
int pd_add_build_id(struct mycl_perf_data *pd, struct cursor *c, uint16_t misc, size_t len);

/* perf_events.c */
int pd_error(struct mycl_perf_data *pd, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct event_priv *pd_event_by_id(struct mycl_perf_data *pd, uint64_t id);
struct event_priv *pd_event_by_id_exact(struct mycl_perf_data *pd, uint64_t id);
/* The id's slot (its event), or NULL. */
struct id_slot *pd_id_slot(struct mycl_perf_data *pd, uint64_t id);
int pd_add_event(struct mycl_perf_data *pd, struct cursor *c, uint32_t attr_size,
		 const uint64_t *ids, size_t nr_ids);
int pd_add_id(struct mycl_perf_data *pd, uint64_t id, int idx);
void pd_update_id_layout(struct mycl_perf_data *pd);
char *pd_strdup_owned(struct mycl_perf_data *pd, int slot, const char *s, size_t maxlen);
struct event_priv *pd_record_event(struct mycl_perf_data *pd, const uint8_t *rec, size_t len);
uint64_t pd_record_time(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
			struct event_priv *ev);
/* A non-sample record's sample_id_all pid and tid; false when it carries none. */
bool pd_record_tid(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
		   struct event_priv *ev, int32_t *pid, int32_t *tid);

/* A record header perf could have written: a known type, 8 bytes or more in steps of 8. */
static inline bool pd_plausible_record(uint32_t type, uint16_t size)
{
	return size >= 8 && !(size & 7) && ((type >= 1 && type < 32) || (type >= 64 && type < 96));
}

/* perf_attr.c */
const char *pd_event_default_name(uint32_t type, uint64_t config, char *buf, size_t len);
void pd_event_add_modifiers(uint64_t flags, char *buf, size_t len);

#endif
