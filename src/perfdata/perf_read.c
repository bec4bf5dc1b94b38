/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record loop: the data section of a file, or a pipe, framed into
 * records (one buffered path serves both), COMPRESSED records inflated,
 * records perf synthesizes (types >= 64) handled here; kernel records go down
 * to the order queue, or straight to delivery.  A damaged size is named at
 * the record that has it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

/*
 * Room kept free in zbuf for zstd's output: drain_zbuf leaves less than one
 * record (< 64 KiB) behind, so the buffer stays at 128-256 KiB.
 */
#define ZBUF_ROOM (64u << 10)
/*
 * What one COMPRESSED record may inflate to: perf writes each from one ring
 * buffer's worth (the COMPRESSED feature's mmap_len) and reads it back into a
 * buffer that size.  Without the feature (pipe mode), 64 MB: far past any
 * ring perf makes by default, far short of what 64 KB of zstd can claim.
 */
#define ZBOUND_MIN (1u << 20)
#define ZBOUND_UNKNOWN (64u << 20)
/*
 * What a whole file may inflate to, whatever its header claims: 64 MB, plus
 * 1000 times the compressed bytes read.  perf's records compress 5 to 20
 * times (a sample's time and period change from one to the next); zstd can
 * claim thousands.  So a crafted ring size (mmap_len 4 GiB) or many small
 * records that each inflate to the ring cost at most 1000 times the file.
 */
#define ZRATIO_MAX 1000

/* Skips N bytes that follow a record outside its size (AUXTRACE, TRACING_DATA). */
static int skip_payload(struct mycl_perf_data *pd, uint64_t n)
{
	if (!stream_has(&pd->st, n)) {
		/* The buffer is about to be dropped: queued records move out of it. */
		int err = order_queue_detach_stream(pd);

		if (err)
			return err;
	}
	return stream_skip(&pd->st, n);
}

static bool ordering_on(const struct mycl_perf_data *pd)
{
	if (pd->file_order)
		return false;
	for (size_t i = 0; i < pd->nr_events; i++)
		if (pd->events[i]->pub.sample_type & S_TIME)
			return true;
	return false;
}

static int process_record(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
			  uint64_t off, uint64_t *extra, bool nested);

/* Processes the records complete in zbuf and keeps the partial tail. */
static int drain_zbuf(struct mycl_perf_data *pd, uint64_t off)
{
	size_t pos = 0;
	int err = 0;

	while (pd->zlen - pos >= 8) {
		struct cursor c;
		uint16_t size;
		uint64_t extra = 0;

		cursor_init(&c, pd->zbuf + pos + 6, 2, pd->info.swapped);
		size = cursor_u16(&c);
		if (size < 8)
			return pd_error(pd, MYCL_ERR_CORRUPT, "record inside the compressed record "
					"at offset 0x%" PRIx64 " claims %u bytes", off, size);
		if (pd->zlen - pos < size)
			break;
		err = process_record(pd, pd->zbuf + pos, size, off, &extra, true);
		if (err)
			return err;
		if (extra)
			return pd_error(pd, MYCL_ERR_UNSUPPORTED, "record with trailing payload "
					"inside the compressed record at offset 0x%" PRIx64, off);
		pos += size;
	}
	memmove(pd->zbuf, pd->zbuf + pos, pd->zlen - pos);
	pd->zlen -= pos;
	return 0;
}

/*
 * COMPRESSED:  header, then zstd data up to header.size.
 * COMPRESSED2: header, u64 data_size, zstd data (header.size is 8-aligned).
 * The decompressed bytes of successive records form one record stream:
 * a record may begin in one compressed record and end in the next.
 */
static int decompress(struct mycl_perf_data *pd, const uint8_t *src, size_t n, uint64_t off)
{
	ZSTD_inBuffer in = { src, n, 0 };
	uint64_t bound = pd->info.compression_mmap_len ? pd->info.compression_mmap_len : ZBOUND_UNKNOWN;
	uint64_t made = 0;
	bool full = false;
	int err;

	if (bound < ZBOUND_MIN)
		bound = ZBOUND_MIN;
	if (!pd->zctx) {
		pd->zctx = ZSTD_createDCtx();
		if (!pd->zctx)
			return -ENOMEM;
	}
	pd->stats.nr_compressed++;
	pd->zin_bytes += n;
	/* Until the input is used and, when the output filled up, zstd holds nothing back. */
	while (in.pos < in.size || full) {
		ZSTD_outBuffer out;
		size_t before = in.pos, ret;

		if (pd->zcap - pd->zlen < ZBUF_ROOM) {
			size_t ncap = pd->zcap ? pd->zcap * 2 : 2 * ZBUF_ROOM;
			uint8_t *nb = realloc(pd->zbuf, ncap);

			if (!nb)
				return -ENOMEM;
			pd->zbuf = nb;
			pd->zcap = ncap;
		}
		out = (ZSTD_outBuffer){ pd->zbuf + pd->zlen, pd->zcap - pd->zlen, 0 };
		ret = ZSTD_decompressStream(pd->zctx, &out, &in);
		if (ZSTD_isError(ret))
			return pd_error(pd, MYCL_ERR_DECOMPRESS, "compressed record at offset 0x%"
					PRIx64 ": zstd: %s", off, ZSTD_getErrorName(ret));
		full = out.pos == out.size;
		pd->zlen += out.pos;
		pd->stats.decompressed_bytes += out.pos;
		made += out.pos;
		if (made > bound)
			return pd_error(pd, MYCL_ERR_DECOMPRESS, "compressed record at offset 0x%"
					PRIx64 " inflates past %" PRIu64 " bytes, more than the ring buffer "
					"it was written from%s: refused as a decompression bomb", off, bound,
					pd->info.compression_mmap_len ? "" : " could be (no COMPRESSED feature)");
		if (pd->stats.decompressed_bytes > ZBOUND_UNKNOWN + ZRATIO_MAX * pd->zin_bytes)
			return pd_error(pd, MYCL_ERR_DECOMPRESS, "compressed record at offset 0x%"
					PRIx64 ": the file's compressed records inflate past %" PRIu64
					" bytes, %u times their %" PRIu64 " bytes plus 64 MiB: refused as a "
					"decompression bomb", off, pd->stats.decompressed_bytes, ZRATIO_MAX,
					pd->zin_bytes);
		err = drain_zbuf(pd, off);
		if (err)
			return err;
		if (!out.pos && in.pos == before)
			break;
	}
	return 0;
}

/*
 * HEADER_ATTR (pipe mode): perf_event_attr (attr.size bytes, 64 when 0),
 * then the event's u64 ids to the end of the record.
 */
static int header_attr(struct mycl_perf_data *pd, const uint8_t *rec, size_t len, uint64_t off)
{
	struct cursor c, sz;
	uint32_t attr_size;
	uint64_t *ids;
	size_t nr_ids;
	int err;

	cursor_init(&sz, rec + 12, len >= 16 ? 4 : 0, pd->info.swapped);
	attr_size = cursor_u32(&sz);
	if (!attr_size)
		attr_size = 64;
	if (attr_size < 64 || attr_size > len - 8)
		return pd_error(pd, MYCL_ERR_CORRUPT, "HEADER_ATTR record at offset 0x%" PRIx64
				" has attr size %u in a record of %zu bytes", off, attr_size, len);
	nr_ids = (len - 8 - attr_size) / 8;
	ids = malloc((nr_ids ? nr_ids : 1) * 8);
	if (!ids)
		return -ENOMEM;
	cursor_init(&c, rec + 8 + attr_size, nr_ids * 8, pd->info.swapped);
	cursor_u64_array(&c, ids, nr_ids);
	cursor_init(&c, rec + 8, attr_size, pd->info.swapped);
	err = pd_add_event(pd, &c, attr_size, ids, nr_ids);
	free(ids);
	return err;
}

/* ID_INDEX: u64 nr, then nr entries {u64 id, idx, cpu, tid[, machine_pid, vcpu]}. */
static int id_index(struct mycl_perf_data *pd, struct cursor *c, size_t len)
{
	uint64_t nr = cursor_u64(c);
	size_t esz;

	if (!nr || nr > (len - 16) / 32)
		return 0;
	esz = (len - 16) / nr;
	for (uint64_t i = 0; i < nr; i++) {
		struct cursor e = *c;
		uint64_t id = cursor_u64(&e), idx = cursor_u64(&e);

		cursor_skip(c, esz);
		if (idx < pd->nr_events && !pd_event_by_id_exact(pd, id)) {
			int err = pd_add_id(pd, id, (int)idx);

			if (err)
				return err;
		}
	}
	pd_update_id_layout(pd);
	return 0;
}

/*
 * EVENT_UPDATE: u64 type, u64 id, payload; type 3 names the event, 0 gives
 * its unit (a string), 1 its scale (a double).
 */
static int event_update(struct mycl_perf_data *pd, struct cursor *c, size_t len)
{
	uint64_t type = cursor_u64(c), id = cursor_u64(c);
	struct event_priv *ev;
	const char *name;
	char *dup;

	if (type > 3 || c->bad)
		return 0;
	ev = pd_event_by_id_exact(pd, id);
	if (ev && type == 1) {
		uint64_t bits = cursor_u64(c);
		double d;

		memcpy(&d, &bits, sizeof(d));
		if (!c->bad && d > 0 && d < 1e30)
			ev->pub.scale = d;
		return 0;
	}
	if (ev && type == 0) {
		name = cursor_str(c, cursor_left(c));
		if (!name || !*name)
			return 0;
		dup = strndup(name, 31);
		if (!dup)
			return -ENOMEM;
		free(ev->unit);
		ev->unit = dup;
		ev->pub.unit = dup;
		return 0;
	}
	if (type != 3)
		return 0;
	name = cursor_str(c, cursor_left(c));
	if (!ev || !name || !*name)
		return 0;
	dup = strdup(name);
	if (!dup)
		return -ENOMEM;
	free(ev->name);
	ev->name = dup;
	ev->pub.name = dup;
	return 0;
}

/* Records perf synthesizes (type >= 64): handled as they come, never queued. */
static __attribute__((noinline)) int process_user_record(struct mycl_perf_data *pd, uint32_t type,
							  const uint8_t *rec, size_t len,
							  uint64_t off, uint64_t *extra,
							  bool nested)
{
	struct cursor c;
	uint16_t misc;

	cursor_init(&c, rec + 4, len - 4, pd->info.swapped);
	misc = cursor_u16(&c);
	cursor_u16(&c);
	if (type >= SIMPLEPERF_RECORD_FIRST)
		return pd_error(pd, MYCL_ERR_SIMPLEPERF, "record type %u at offset 0x%" PRIx64
				" is Android simpleperf's own; convert the file with simpleperf's "
				"report_sample.py or record with Linux perf", type, off);

	switch (type) {
	case REC_HEADER_ATTR: {
		int err = header_attr(pd, rec, len, off);

		pd->ordering = ordering_on(pd);
		return err;
	}
	case REC_HEADER_TRACING_DATA: {
		/*
		 * u32 size; perf writes the tracing data after this 16-byte
		 * record, padded to 8.  simpleperf puts it inside the record.
		 */
		uint32_t size = cursor_u32(&c);

		*extra = len <= 16 ? ALIGN8((uint64_t)size) : 0;
		if (len > 16 && size <= len - 16) {
			/* simpleperf: inside the record. */
			free(pd->tracing);
			pd->tracing = malloc(size ? size : 1);
			if (!pd->tracing)
				return -ENOMEM;
			memcpy(pd->tracing, rec + 16, size);
			pd->tracing_len = size;
		} else if (!nested && size <= (64u << 20)) {
			pd->tracing_pending = size;
		}
		return 0;
	}
	case REC_AUXTRACE: {
		/* u64 size, offset, reference; u32 idx, tid, cpu, res; size bytes follow. */
		*extra = cursor_u64(&c);
		return 0;
	}
	case REC_HEADER_BUILD_ID:
		return pd_add_build_id(pd, &c, misc, len) == -ENOMEM ? -ENOMEM : 0;
	case REC_FINISHED_ROUND: {
		int err;

		if (pd->merging)
			return 0;	/* a file's round is not the directory's */
		err = order_queue_flush(pd, pd->q.next_flush);

		pd->q.next_flush = pd->q.max_time;
		return err;
	}
	case REC_ID_INDEX:
		return id_index(pd, &c, len);
	case REC_EVENT_UPDATE:
		return event_update(pd, &c, len);
	case REC_THREAD_MAP:
	case REC_CPU_MAP:
	case REC_STAT_CONFIG:
	case REC_STAT:
	case REC_STAT_ROUND:
		return pd_stat_record(pd, type, &c, off);
	case REC_HEADER_FEATURE: {
		/* u64 feature id, then the feature's section bytes. */
		uint64_t feat = cursor_u64(&c);

		if (c.bad || feat >= FEAT_BITS)
			return 0;
		return pd_read_feature(pd, (unsigned int)feat, c.p, cursor_left(&c), off);
	}
	case REC_COMPRESSED:
	case REC_COMPRESSED2: {
		size_t n = len - 8;

		if (nested)
			return pd_error(pd, MYCL_ERR_CORRUPT, "compressed record nested inside "
					"another at offset 0x%" PRIx64, off);
		if (type == REC_COMPRESSED2) {
			uint64_t dsz = cursor_u64(&c);

			if (c.bad || dsz > len - 16)
				return pd_error(pd, MYCL_ERR_CORRUPT, "COMPRESSED2 record at offset 0x%"
						PRIx64 " claims %" PRIu64 " bytes of data in %zu",
						off, dsz, len);
			n = (size_t)dsz;
		}
		return decompress(pd, c.p, n, off);
	}
	default:
		if (type >= REC_USER_MAX)
			pd->stats.nr_unknown++;
		return 0;
	}
}

static int process_record(struct mycl_perf_data *pd, const uint8_t *rec, size_t len,
			  uint64_t off, uint64_t *extra, bool nested)
{
	uint32_t type;

	memcpy(&type, rec, 4);
	if (pd->info.swapped)
		type = bswap_32(type);
	pd->stats.nr_records++;
	if (type < ARRAY_SIZE(pd->stats.nr_by_type))
		pd->stats.nr_by_type[type]++;
	if (type >= REC_KERNEL_MAX)
		return process_user_record(pd, type, rec, len, off, extra, nested);
	if (!pd->nr_events)
		return pd_error(pd, MYCL_ERR_CORRUPT, "%s record at offset 0x%" PRIx64
				" comes before any event is described",
				str_or(mycl_perf_record_name(type), "kernel"), off);
	if (pd->ordering) {
		struct event_priv *ev = pd_record_event(pd, rec, len);
		uint64_t t = ev ? pd_record_time(pd, rec, len, ev) : UINT64_MAX;

		if (t != UINT64_MAX)
			return order_queue_push(pd, t, rec, len, ev);
	}
	return pd_deliver(pd, rec, len, NULL);
}

/* The header at H, read in the file's byte order, is one perf could have written. */
static bool plausible_header(const struct mycl_perf_data *pd, const uint8_t *h)
{
	uint32_t type;
	uint16_t size;

	memcpy(&type, h, 4);
	memcpy(&size, h + 6, 2);
	if (pd->info.swapped) {
		type = bswap_32(type);
		size = bswap_16(size);
	}
	return pd_plausible_record(type, size);
}

#define RESYNC_WINDOW (1u << 20)

/*
 * The record at OFF claims CLAIMED bytes.  When its size field is what was
 * damaged, the records resume sooner: returns the smallest size from which
 * four plausible headers follow one another (or reach the end of the data
 * exactly), or 0 when none does or the file cannot be read again (a pipe).
 */
static uint64_t resync_size(struct mycl_perf_data *pd, uint64_t off, uint64_t claimed)
{
	uint64_t end = pd->st.limit < pd->info.file_size ? pd->st.limit : pd->info.file_size;
	size_t win;
	uint8_t *buf;
	uint64_t found = 0;

	if (pd->info.pipe_mode || !pd->st.seekable || off >= end)
		return 0;
	win = end - off < RESYNC_WINDOW ? (size_t)(end - off) : RESYNC_WINDOW;
	buf = malloc(win);
	if (!buf)
		return 0;
	if (pread(pd->fd, buf, win, (off_t)off) != (ssize_t)win) {
		free(buf);
		return 0;
	}
	for (uint64_t s = 8; s < claimed && s + 8 <= win && !found; s += 8) {
		uint64_t q = s;
		int n = 0;

		while (n < 4 && q + 8 <= win && plausible_header(pd, buf + q)) {
			uint16_t size;

			memcpy(&size, buf + q + 6, 2);
			q += pd->info.swapped ? bswap_16(size) : size;
			n++;
		}
		if (n >= 4 || (n >= 1 && off + q == end))
			found = s;
	}
	free(buf);
	return found;
}

/* ERR at OFF; unless the record before it is where the damage is: its size. */
static int damaged_before(struct mycl_perf_data *pd, int err, uint64_t prev_off, uint32_t prev_type,
			  uint64_t prev_size)
{
	uint64_t s = prev_size ? resync_size(pd, prev_off, prev_size) : 0;

	if (!s)
		return err;
	return pd_error(pd, MYCL_ERR_CORRUPT, "record at offset 0x%" PRIx64 " (%s) claims %" PRIu64
			" bytes, but the records go on at offset 0x%" PRIx64 ": its size field is "
			"corrupt", prev_off, str_or(mycl_perf_record_name(prev_type), "unknown type"),
			prev_size, prev_off + s);
}

/*
 * A perf record --threads directory's data.N files: each a stream of records
 * from offset 0, written by one thread from its CPUs' ring buffers, nearly in
 * time order, with no FINISHED_ROUND.  They are merged as perf merges them:
 * the next record comes from the file whose last record is the oldest (a
 * heap).  Every MERGE_ROUND records queued (those inside COMPRESSED records
 * too) a round closes as a FINISHED_ROUND would:
 * records up to the time every unfinished file had reached at the round
 * before are delivered; a record that still comes later than that is counted
 * as unordered, as in a single file.
 */
#define MERGE_ROUND 16384

struct dir_reader {
	struct dir_file *f;
	struct stream st;		/* plain reads of the file (stream.c) */
	uint64_t last_ts;		/* time of its last record queued */
	/* Its own decompression state: a record may go on in its next COMPRESSED record. */
	ZSTD_DCtx *zctx;
	uint8_t *zbuf;
	size_t zcap, zlen;
};

#define SWAP(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)

/* Trades the reader's file name and decompression state with the handle's (twice: back). */
static void reader_swap(struct mycl_perf_data *pd, struct dir_reader *r)
{
	SWAP(pd->path, r->f->path);
	SWAP(pd->zctx, r->zctx);
	SWAP(pd->zbuf, r->zbuf);
	SWAP(pd->zcap, r->zcap);
	SWAP(pd->zlen, r->zlen);
}

static bool reader_before(const struct dir_reader *rd, size_t a, size_t b)
{
	return rd[a].last_ts < rd[b].last_ts || (rd[a].last_ts == rd[b].last_ts && a < b);
}

static void heap_down(size_t *h, size_t n, const struct dir_reader *rd)
{
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < n && reader_before(rd, h[l], h[m]))
			m = l;
		if (l + 1 < n && reader_before(rd, h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		SWAP(h[i], h[m]);
		i = m;
	}
}

/* One record of R: 0 (queued or delivered), 1 at the file's end, or an error. */
static int reader_next(struct mycl_perf_data *pd, struct dir_reader *r)
{
	struct stream *st = &r->st;
	uint64_t off, extra = 0, pushed = pd->q.nr_pushed;
	struct cursor c;
	uint16_t size;
	int f, err;

	f = stream_fill(st, 8);
	if (f < 0)
		return pd_error(pd, f, "read error at offset 0x%" PRIx64 ": %s", st->off + st->head,
				strerror(-f));
	if (f == FILL_SHORT) {
		if (st->tail > st->head)
			mycl_log(&pd->log, MYCL_WARN, "%s: %zu stray bytes at offset 0x%" PRIx64
				 " after the last record; ignored", pd->path, st->tail - st->head,
				 st->off + st->head);
		return 1;
	}
	off = st->off + st->head;
	cursor_init(&c, st->buf + st->head + 6, 2, pd->info.swapped);
	size = cursor_u16(&c);
	if (size < 8)
		return pd_error(pd, MYCL_ERR_CORRUPT, "record at offset 0x%" PRIx64 " has size %u "
				"(a record is at least 8 bytes)", off, size);
	f = stream_fill(st, size);
	if (f < 0)
		return pd_error(pd, f, "read error at offset 0x%" PRIx64 ": %s", off, strerror(-f));
	if (f == FILL_SHORT) {
		mycl_log(&pd->log, MYCL_WARN, "%s: record at offset 0x%" PRIx64 " claims %u bytes, "
			 "%zu remain: the file is truncated; read up to its last whole record",
			 pd->path, off, size, st->tail - st->head);
		return 1;
	}
	st->head += size;
	err = process_record(pd, st->buf + st->head - size, size, off, &extra, false);
	if (err)
		return err;
	if (pd->q.nr_pushed != pushed)
		r->last_ts = pd->q.last_pushed;
	pd->tracing_pending = 0;	/* tracing data is the header file's */
	if (extra) {
		f = stream_skip(st, extra);
		if (f < 0)
			return pd_error(pd, f, "read error after the record at offset 0x%" PRIx64, off);
		if (f == FILL_SHORT) {
			mycl_log(&pd->log, MYCL_WARN, "%s: payload of the record at offset 0x%" PRIx64
				 " is cut short: the file is truncated", pd->path, off);
			return 1;
		}
	}
	return 0;
}

static int read_dir_files(struct mycl_perf_data *pd)
{
	size_t n = pd->nr_dir_files, nh = 0;
	uint64_t round_start = pd->q.nr_pushed;
	struct dir_reader *rd = calloc(n ? n : 1, sizeof(*rd));
	size_t *heap = calloc(n ? n : 1, sizeof(*heap));
	uint64_t done = pd->info.data_size, total = done + pd->info.data_files_size;
	uint64_t next_progress = done + (16u << 20);
	int err = 0;

	if (!rd || !heap) {
		free(rd);
		free(heap);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n && !err; i++) {
		rd[i].f = &pd->dir_files[i];
		rd[i].st = (struct stream){ .fd = rd[i].f->fd, .limit = rd[i].f->size,
					    .keep_from = UINT64_MAX, .seekable = true,
					    .read_ahead = MYCL_READ_AHEAD_OFF };
		if (rd[i].f->size)
			heap[nh++] = i;		/* all at time 0: in index order, a heap */
	}
	pd->merging = true;
	pd->q.next_flush = 0;
	while (!err && nh) {
		struct dir_reader *r = &rd[heap[0]];
		uint64_t before = r->st.off + r->st.head;
		int got;

		reader_swap(pd, r);
		got = reader_next(pd, r);
		if (got == 1 && r->zlen)
			mycl_log(&pd->log, MYCL_WARN, "%s: %zu decompressed bytes after the last "
				 "whole compressed record; ignored", pd->path, r->zlen);
		reader_swap(pd, r);
		if (got < 0) {
			err = got;
			break;
		}
		done += r->st.off + r->st.head - before;
		if (got == 1)
			heap[0] = heap[--nh];
		heap_down(heap, nh, rd);
		if (pd->q.nr_pushed - round_start >= MERGE_ROUND) {
			round_start = pd->q.nr_pushed;
			err = order_queue_flush(pd, pd->q.next_flush);
			pd->q.next_flush = nh ? rd[heap[0]].last_ts : UINT64_MAX;
		}
		if (pd->progress && done >= next_progress) {
			pd->progress(done, total, pd->progress_ctx);
			next_progress = done + (16u << 20);
		}
	}
	pd->merging = false;
	for (size_t i = 0; i < n; i++) {
		ZSTD_freeDCtx(rd[i].zctx);
		free(rd[i].zbuf);
		stream_free(&rd[i].st);
	}
	free(rd);
	free(heap);
	return err;
}

int pd_read_records(struct mycl_perf_data *pd)
{
	struct stream *st = &pd->st;
	uint64_t prev_off = 0, prev_size = 0;
	uint32_t prev_type = 0;
	int err = 0, r;

	for (;;) {
		struct cursor c;
		uint64_t off, extra = 0;
		uint16_t size;

		r = stream_fill(st, 8);
		if (r < 0)
			return pd_error(pd, r, "read error at offset 0x%" PRIx64 ": %s", st->off +
					st->head, strerror(-r));
		if (r == FILL_SHORT) {
			if (st->tail > st->head)
				mycl_log(&pd->log, MYCL_WARN, "%s: %zu stray bytes at offset 0x%"
					 PRIx64 " after the last record; ignored", pd->path,
					 st->tail - st->head, st->off + st->head);
			break;
		}
		off = st->off + st->head;
		if (off >= pd->next_progress && pd->progress) {
			pd->progress(off - pd->info.data_offset, pd->info.data_size, pd->progress_ctx);
			pd->next_progress = off + (16u << 20);
		}
		cursor_init(&c, st->buf + st->head + 6, 2, pd->info.swapped);
		size = cursor_u16(&c);
		if (size < 8)
			return damaged_before(pd, pd_error(pd, MYCL_ERR_CORRUPT, "record at offset 0x%"
					      PRIx64 " has size %u (a record is at least 8 bytes)",
					      off, size), prev_off, prev_type, prev_size);
		r = stream_fill(st, size);
		if (r < 0)
			return pd_error(pd, r, "read error at offset 0x%" PRIx64, off);
		if (r == FILL_SHORT) {
			uint64_t s = resync_size(pd, off, size);

			if (s)
				return pd_error(pd, MYCL_ERR_CORRUPT, "record at offset 0x%" PRIx64
						" claims %u bytes, past the end of the data, but the records "
						"go on at offset 0x%" PRIx64 ": its size field is corrupt",
						off, size, off + s);
			mycl_log(&pd->log, MYCL_WARN, "%s: record at offset 0x%" PRIx64 " claims %u "
				 "bytes, %zu remain: the file is truncated; read up to its last "
				 "whole record", pd->path, off, size, st->tail - st->head);
			break;
		}
		st->head += size;
		stream_prefetch(st);
		err = process_record(pd, st->buf + st->head - size, size, off, &extra, false);
		if (err == MYCL_ERR_CORRUPT || err == MYCL_ERR_SIMPLEPERF)
			return damaged_before(pd, err, prev_off, prev_type, prev_size);
		if (err)
			return err;
		memcpy(&prev_type, st->buf + st->head - size, 4);
		if (pd->info.swapped)
			prev_type = bswap_32(prev_type);
		prev_off = off;
		prev_size = size;
		if (extra && pd->tracing_pending && pd->tracing_pending <= extra) {
			/* Pipe mode: the tracing data follows its record; keep it. */
			size_t n = (size_t)pd->tracing_pending;

			pd->tracing_pending = 0;
			if (stream_fill(st, n) == FILL_OK) {
				free(pd->tracing);
				pd->tracing = malloc(n ? n : 1);
				if (!pd->tracing)
					return -ENOMEM;
				memcpy(pd->tracing, st->buf + st->head, n);
				pd->tracing_len = n;
			}
		}
		if (extra) {
			r = skip_payload(pd, extra);
			if (r < 0)
				return pd_error(pd, r, "read error after the record at offset 0x%" PRIx64,
						off);
			if (r == FILL_SHORT) {
				mycl_log(&pd->log, MYCL_WARN, "%s: payload of the record at offset 0x%"
					 PRIx64 " is cut short: the file is truncated", pd->path, off);
				break;
			}
		}
	}
	if (pd->zlen)
		mycl_log(&pd->log, MYCL_WARN, "%s: %zu decompressed bytes after the last whole "
			 "compressed record; ignored", pd->path, pd->zlen);
	if (pd->is_dir) {
		err = order_queue_detach_stream(pd);
		if (!err)
			err = read_dir_files(pd);
		if (err)
			return err;
	}
	return order_queue_flush(pd, UINT64_MAX);
}

MYCL_API int mycl_perf_data__read(struct mycl_perf_data *pd, const struct mycl_record_ops *ops,
				  void *ctx)
{
	static const struct mycl_record_ops none = { .sz = sizeof(none) };
	struct mycl_record_ops local = { .sz = sizeof(local) };
	int err;

	error_clear();
	if (!OPTS_VALID(ops, mycl_record_ops))
		return MYCL_ERR_OPTS;
	if (pd->read_done)
		return pd_error(pd, -EALREADY, "records were already read from this handle");
	pd->read_done = true;
	if (ops) {
		/* Copy what the caller's (possibly older, shorter) struct has. */
		memcpy(&local, ops, ops->sz < sizeof(local) ? ops->sz : sizeof(local));
		local.sz = sizeof(local);
	} else {
		local = none;
	}
	pd->ops = &local;
	pd->ctx = ctx;
	pd->ordering = ordering_on(pd);
	stream_begin(&pd->st);
	err = pd_read_records(pd);
	stream_end(&pd->st);
	pd->ops = &none;
	if (pd->progress && pd->is_dir && !err)
		pd->progress(pd->info.data_size + pd->info.data_files_size,
			     pd->info.data_size + pd->info.data_files_size, pd->progress_ctx);
	else if (pd->progress)
		pd->progress(pd->st.off + pd->st.head - pd->info.data_offset, pd->info.data_size,
			     pd->progress_ctx);
	return err;
}
