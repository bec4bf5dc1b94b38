/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Opening a perf.data: the file header, attrs and their ids, feature sections. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

/* LEN bytes at OFF (at the file position when OFF is READ_HERE), across short reads. */
#define READ_HERE UINT64_MAX

static int read_full_at(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = off == READ_HERE ? read(fd, (uint8_t *)buf + done, len - done) :
			    pread(fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return MYCL_ERR_TRUNCATED;
		done += (size_t)r;
	}
	return 0;
}

static int read_full(int fd, void *buf, size_t len)
{
	return read_full_at(fd, buf, len, READ_HERE);
}

static int read_attrs(struct mycl_perf_data *pd, uint64_t entry, uint64_t off, uint64_t size)
{
	uint64_t attr_size = entry - 16;
	uint8_t *buf;
	struct cursor c;
	int err = 0;

	if (entry < 80 || entry > 4096)
		return pd_error(pd, MYCL_ERR_CORRUPT, "header at offset 0x10 gives attr size %" PRIu64
				" (expected 80 to 4096)", entry);
	if (size % entry)
		mycl_log(&pd->log, MYCL_WARN, "%s: attr section size %" PRIu64
			 " is not a multiple of %" PRIu64, pd->path, size, entry);
	if (off > pd->info.file_size || size > pd->info.file_size - off)
		return pd_error(pd, MYCL_ERR_CORRUPT, "attr section at offset 0x%" PRIx64
				" claims %" PRIu64 " bytes, file has %" PRIu64,
				off, size, pd->info.file_size);
	if (size / entry == 0)
		return pd_error(pd, MYCL_ERR_CORRUPT, "no events in the attr section (offset 0x%"
				PRIx64 ", %" PRIu64 " bytes)", off, size);
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	err = read_full_at(pd->fd, buf, size, off);
	if (err) {
		free(buf);
		return pd_error(pd, err, "cannot read attr section at offset 0x%" PRIx64, off);
	}
	cursor_init(&c, buf, size, pd->info.swapped);
	for (uint64_t i = 0; i < size / entry && !err; i++) {
		struct cursor ac = c;
		uint64_t ids_off, ids_size, *ids = NULL;

		cursor_skip(&c, attr_size);
		ids_off = cursor_u64(&c);
		ids_size = cursor_u64(&c);
		if (ids_off > pd->info.file_size || ids_size > pd->info.file_size - ids_off ||
		    ids_size % 8) {
			err = pd_error(pd, MYCL_ERR_CORRUPT, "event %" PRIu64 ": ids at offset 0x%"
				       PRIx64 " (%" PRIu64 " bytes) lie outside the file", i, ids_off,
				       ids_size);
			break;
		}
		if (ids_size) {
			ids = malloc(ids_size);
			if (!ids) {
				err = -ENOMEM;
				break;
			}
			err = read_full_at(pd->fd, ids, ids_size, ids_off);
			if (!err && pd->info.swapped)
				for (uint64_t k = 0; k < ids_size / 8; k++)
					ids[k] = bswap_64(ids[k]);
		}
		if (!err)
			err = pd_add_event(pd, &ac, (uint32_t)attr_size, ids, ids_size / 8);
		free(ids);
		if (err && err != -ENOMEM)
			err = pd_error(pd, err, "cannot decode event %" PRIu64 " at offset 0x%" PRIx64,
				       i, off + i * entry);
	}
	free(buf);
	return err;
}

/*
 * Whether a feature table perf could have written sits at TABLE_OFF: one
 * (offset, size) per feature bit, each section after the table and inside
 * the file.  Only checked when the header has features.
 */
static bool features_table_ok(struct mycl_perf_data *pd, uint64_t table_off)
{
	unsigned int nr = 0;
	uint8_t table[16 * FEAT_BITS];
	struct cursor c;

	for (unsigned int f = 0; f < FEAT_BITS; f++)
		nr += pd->info.features[f / 64] >> (f % 64) & 1;
	if (!nr)
		return true;
	if (table_off > pd->info.file_size || nr * 16ULL > pd->info.file_size - table_off ||
	    read_full_at(pd->fd, table, nr * 16, table_off))
		return false;
	cursor_init(&c, table, nr * 16, pd->info.swapped);
	for (unsigned int i = 0; i < nr; i++) {
		uint64_t off = cursor_u64(&c), size = cursor_u64(&c);

		if (off < table_off + nr * 16ULL || off > pd->info.file_size ||
		    size > pd->info.file_size - off)
			return false;
	}
	return true;
}

/*
 * Where the records of the data section end, by following their sizes from
 * DATA_OFF while each header is one perf could have written (a known type,
 * 8 bytes or more in steps of 8); AUXTRACE's payload follows its record.
 */
static uint64_t records_end(struct mycl_perf_data *pd, uint64_t data_off)
{
	uint64_t pos = data_off;
	uint8_t h[16];

	while (pos + 8 <= pd->info.file_size && !read_full_at(pd->fd, h, 8, pos)) {
		struct cursor c;
		uint32_t type;
		uint16_t size;

		cursor_init(&c, h, 8, pd->info.swapped);
		type = cursor_u32(&c);
		cursor_u16(&c);
		size = cursor_u16(&c);
		if (!pd_plausible_record(type, size))
			break;
		if (type == REC_AUXTRACE) {
			if (read_full_at(pd->fd, h, 16, pos + 8))
				break;
			cursor_init(&c, h, 16, pd->info.swapped);
			pos += cursor_u64(&c);
		}
		pos += size;
	}
	return pos < pd->info.file_size ? pos : pd->info.file_size;
}

static int read_features(struct mycl_perf_data *pd, uint64_t table_off)
{
	unsigned int feats[FEAT_BITS];
	unsigned int nr = 0;
	uint8_t *table;
	struct cursor c;
	int err;

	for (unsigned int f = 0; f < FEAT_BITS; f++)
		if (pd->info.features[f / 64] >> (f % 64) & 1)
			feats[nr++] = f;
	if (!nr)
		return 0;
	if (table_off > pd->info.file_size || nr * 16ULL > pd->info.file_size - table_off) {
		mycl_log(&pd->log, MYCL_WARN, "%s: feature table at offset 0x%" PRIx64
			 " lies outside the file; header features ignored", pd->path, table_off);
		return 0;
	}
	table = malloc(nr * 16);
	if (!table)
		return -ENOMEM;
	err = read_full_at(pd->fd, table, nr * 16, table_off);
	if (err) {
		free(table);
		return pd_error(pd, err, "cannot read feature table at offset 0x%" PRIx64, table_off);
	}
	cursor_init(&c, table, nr * 16, pd->info.swapped);
	for (unsigned int i = 0; i < nr; i++) {
		uint64_t off = cursor_u64(&c), size = cursor_u64(&c);
		uint8_t *sec;

		if (off > pd->info.file_size || size > pd->info.file_size - off) {
			mycl_log(&pd->log, MYCL_WARN, "%s: feature %s at offset 0x%" PRIx64
				 " claims %" PRIu64 " bytes past the end; skipped", pd->path,
				 str_or(mycl_perf_feature_name(feats[i]), "?"), off, size);
			continue;
		}
		sec = malloc(size ? size : 1);
		if (!sec) {
			free(table);
			return -ENOMEM;
		}
		err = read_full_at(pd->fd, sec, size, off);
		if (!err)
			err = pd_read_feature(pd, feats[i], sec, size, off);
		free(sec);
		if (err == -ENOMEM) {
			free(table);
			return err;
		}
	}
	free(table);
	return 0;
}

static int open_file_mode(struct mycl_perf_data *pd, const uint8_t *first16)
{
	uint8_t hdr[PERF_FILE_HEADER_SIZE];
	struct cursor c;
	uint64_t hsize, attr_size, attrs_off, attrs_size, data_off, data_size;
	int err;

	memcpy(hdr, first16, 16);
	err = read_full_at(pd->fd, hdr + 16, sizeof(hdr) - 16, 16);
	if (err)
		return pd_error(pd, MYCL_ERR_TRUNCATED, "file header is cut short (%" PRIu64
				" bytes; a perf.data header has %d)", pd->info.file_size,
				PERF_FILE_HEADER_SIZE);
	cursor_init(&c, hdr, sizeof(hdr), pd->info.swapped);
	cursor_u64(&c);
	hsize = cursor_u64(&c);
	if (hsize < PERF_FILE_HEADER_SIZE)
		return pd_error(pd, MYCL_ERR_UNSUPPORTED, "header size %" PRIu64
				" at offset 0x8 is not supported (expected %d or 16)", hsize,
				PERF_FILE_HEADER_SIZE);
	attr_size = cursor_u64(&c);
	attrs_off = cursor_u64(&c);
	attrs_size = cursor_u64(&c);
	data_off = cursor_u64(&c);
	data_size = cursor_u64(&c);
	cursor_u64(&c);
	cursor_u64(&c);
	for (int i = 0; i < 4; i++)
		pd->info.features[i] = cursor_u64(&c);

	pd->info.data_offset = data_off;
	pd->info.data_size = data_size;
	if (data_off > pd->info.file_size)
		return pd_error(pd, MYCL_ERR_TRUNCATED, "data section starts at offset 0x%" PRIx64
				" but the file has only %" PRIu64 " bytes", data_off,
				pd->info.file_size);
	err = read_attrs(pd, attr_size, attrs_off, attrs_size);
	if (err)
		return err;

	pd->st.limit = data_off + data_size;
	if (data_size == 0) {
		pd->info.data_size_zero = true;
		pd->st.limit = UINT64_MAX;
		memset(pd->info.features, 0, sizeof(pd->info.features));
		mycl_log(&pd->log, MYCL_WARN, "%s: header says the data section is empty "
			 "(perf was killed?); reading records to the end of the file", pd->path);
	} else if (data_size > pd->info.file_size - data_off) {
		mycl_log(&pd->log, MYCL_WARN, "%s: data section claims %" PRIu64 " bytes from "
			 "offset 0x%" PRIx64 " but the file ends %" PRIu64 " bytes in; the file "
			 "is truncated, reading to its last whole record", pd->path, data_size,
			 data_off, pd->info.file_size - data_off);
		pd->st.limit = pd->info.file_size;
		memset(pd->info.features, 0, sizeof(pd->info.features));
	} else {
		if (!features_table_ok(pd, data_off + data_size)) {
			/* The size may be what is wrong: the records tell where they end. */
			uint64_t end = records_end(pd, data_off);

			if (end != data_off + data_size && end > data_off && features_table_ok(pd, end)) {
				mycl_log(&pd->log, MYCL_WARN, "%s: header says the data section is %"
					 PRIu64 " bytes, but its records end after %" PRIu64 " bytes, where "
					 "the feature table is; reading them as they are", pd->path,
					 data_size, end - data_off);
				data_size = end - data_off;
				pd->info.data_size = data_size;
				pd->st.limit = end;
			}
		}
		err = read_features(pd, data_off + data_size);
		if (err)
			return err;
	}
	if (lseek(pd->fd, (off_t)data_off, SEEK_SET) < 0)
		return pd_error(pd, -errno, "cannot seek to the data section at 0x%" PRIx64, data_off);
	pd->st.off = data_off;
	return 0;
}

static int open_common(struct mycl_perf_data *pd)
{
	uint8_t first[16];
	struct stat sb;
	uint64_t magic, size;
	int err;

	if (fstat(pd->fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		/* perf record --threads: the header is its 'data' file. */
		err = pd_dir_open(pd);
		if (err)
			return err;
	}
	if (fstat(pd->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		pd->info.file_size = (uint64_t)sb.st_size;
		pd->st.seekable = true;
	}
	err = read_full(pd->fd, first, 8);
	if (err == MYCL_ERR_TRUNCATED)
		return pd_error(pd, MYCL_ERR_NOT_PERF_DATA, "%s", pd->info.file_size ?
				"too short to be a perf.data file" : "empty input");
	if (err)
		return pd_error(pd, err, "cannot read: %s", strerror(-err));
	memcpy(&magic, first, 8);
	if (magic == PERF_MAGIC2) {
		pd->info.swapped = false;
	} else if (magic == PERF_MAGIC2_SWAPPED) {
		pd->info.swapped = true;
	} else if (!memcmp(first, "PERFFILE", 8)) {
		return pd_error(pd, MYCL_ERR_LEGACY_FORMAT, "legacy PERFFILE (version 1) magic at "
				"offset 0; this format predates perf 3.x and is not supported");
	} else if (first[0] == 0x1f && first[1] == 0x8b) {
		return pd_error(pd, MYCL_ERR_NOT_PERF_DATA, "is gzip-compressed; decompress it first");
	} else {
		return pd_error(pd, MYCL_ERR_NOT_PERF_DATA, "not a perf.data file: bad magic "
				"%02x%02x%02x%02x%02x%02x%02x%02x at offset 0 (expected \"PERFILE2\")",
				first[0], first[1], first[2], first[3], first[4], first[5], first[6],
				first[7]);
	}
	err = read_full(pd->fd, first + 8, 8);
	if (err)
		return pd_error(pd, MYCL_ERR_TRUNCATED, "file header is cut short after the magic");
	memcpy(&size, first + 8, 8);
	if (pd->info.swapped)
		size = bswap_64(size);
	pd->info.clockid = UINT64_MAX;
	if (size == PERF_PIPE_HEADER_SIZE) {
		pd->info.pipe_mode = true;
		pd->st.off = PERF_PIPE_HEADER_SIZE;
		pd->st.limit = UINT64_MAX;
		pd->info.data_offset = PERF_PIPE_HEADER_SIZE;
		return 0;
	}
	if (!pd->st.seekable)
		return pd_error(pd, MYCL_ERR_UNSUPPORTED, "a file-mode perf.data cannot be read "
				"from a pipe (header size %" PRIu64 "); record with -o - for pipe mode",
				size);
	err = open_file_mode(pd, first);
	if (!err && !pd->is_dir && pd->info.dir_version)
		mycl_log(&pd->log, MYCL_WARN, "%s: the 'data' file of a perf record --threads "
			 "directory: the records of its threads are in the data.N files beside "
			 "it; give the directory to read them", pd->path);
	return err;
}

/* The first and last sample times, read from the file when its header lacks them. */
static int sample_span(struct mycl_perf_data *pd, uint64_t *first, uint64_t *last)
{
	MYCL_OPTS(mycl_perf_data_opts, o, .file_order = true, .read_ahead = MYCL_READ_AHEAD_OFF);
	const struct mycl_record_ops ops = { .sz = sizeof(ops) };
	struct mycl_perf_data *again;
	struct stat a, b;
	uint64_t again_samples;
	int err;

	if (pd->info.first_sample_time || pd->info.last_sample_time) {
		*first = pd->info.first_sample_time;
		*last = pd->info.last_sample_time;
		return 0;
	}
	if (pd->info.pipe_mode)
		return pd_error(pd, -EINVAL, "time slice '%s': percentages need the first and last "
				"sample times, which a pipe gives only at its end; give START,STOP "
				"in seconds, or record to a file", pd->time_spec);
	/* The same file once more, without the slice (perf record --no-buildid writes no times). */
	if (fstat(pd->fd, &a) || mycl_perf_data__open(pd->path, &o, &again))
		return pd_error(pd, -EINVAL, "time slice '%s': the header holds no first and last "
				"sample times, and the file cannot be read twice to find them",
				pd->time_spec);
	err = fstat(again->fd, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino ? -EINVAL
		: mycl_perf_data__read(again, &ops, NULL);
	*first = again->stats.first_time;
	*last = again->stats.last_time;
	again_samples = again->stats.nr_sample_records;
	mycl_perf_data__close(again);
	if (err)
		return pd_error(pd, err, "time slice '%s': the file could not be read to find its "
				"first and last sample times", pd->time_spec);
	if (!*first && !*last)
		return pd_error(pd, MYCL_ERR_NOT_RECORDED, "time slice '%s': %s", pd->time_spec,
				again_samples ? "its samples carry no time (perf record --sample-time)"
					      : "the recording holds no samples");
	return 0;
}

/* opts.time: its ranges, with the span percentages are of. */
static int time_slice(struct mycl_perf_data *pd, const char *spec)
{
	uint64_t first = 0, last = 0;
	int err = 0;

	pd->time_spec = strdup(spec);
	if (!pd->time_spec)
		return -ENOMEM;
	if (strchr(spec, '%'))
		err = sample_span(pd, &first, &last);
	return err ? err : pd_time_parse(pd, spec, first, last);
}

MYCL_API int mycl_perf_data__open_fd(int fd, const char *name,
				     const struct mycl_perf_data_opts *opts,
				     struct mycl_perf_data **out)
{
	struct mycl_perf_data *pd;
	int err;

	*out = NULL;
	error_clear();
	if (!OPTS_VALID(opts, mycl_perf_data_opts)) {
		close(fd);
		return MYCL_ERR_OPTS;
	}
	pd = calloc(1, sizeof(*pd));
	if (!pd) {
		close(fd);
		return -ENOMEM;
	}
	pd->fd = fd;
	pd->path = strdup(name ? name : "perf.data");
	pd->log.print = OPTS_GET(opts, print, NULL);
	pd->log.ctx = OPTS_GET(opts, print_ctx, NULL);
	pd->file_order = OPTS_GET(opts, file_order, false);
	pd->progress = OPTS_GET(opts, progress, NULL);
	pd->progress_ctx = OPTS_GET(opts, progress_ctx, NULL);
	pd->max_queue = OPTS_GET(opts, max_queue_bytes, 0);
	if (!pd->max_queue)
		pd->max_queue = 256u << 20;
	pd->st.fd = fd;
	pd->st.read_ahead = OPTS_GET(opts, read_ahead, MYCL_READ_AHEAD_AUTO);
	pd->st.keep_from = UINT64_MAX;
	pd->sample_dirty = true;
	pd->id_pos = -1;
	if (!pd->path) {
		mycl_perf_data__close(pd);
		return -ENOMEM;
	}
	err = open_common(pd);
	if (!err && OPTS_GET(opts, time, NULL) && *OPTS_GET(opts, time, NULL))
		err = time_slice(pd, OPTS_GET(opts, time, NULL));
	if (err) {
		mycl_perf_data__close(pd);	/* (pd_error left the words) */
		return err;
	}
	*out = pd;
	return 0;
}

MYCL_API int mycl_perf_data__open(const char *path, const struct mycl_perf_data_opts *opts,
				  struct mycl_perf_data **out)
{
	int fd;

	error_clear();
	if (!OPTS_VALID(opts, mycl_perf_data_opts))
		return MYCL_ERR_OPTS;
	if (!strcmp(path, "-")) {
		fd = dup(0);
		path = "<stdin>";
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		int err = -errno;

		*out = NULL;
		error_set(err, "%s: cannot open: %s", path, strerror(errno));
		return err;
	}
	return mycl_perf_data__open_fd(fd, path, opts, out);
}

MYCL_API void mycl_perf_data__close(struct mycl_perf_data *pd)
{
	if (!pd)
		return;
	stream_free(&pd->st);
	if (pd->fd >= 0)
		close(pd->fd);
	pd_dir_close(pd);
	for (size_t i = 0; i < pd->nr_events; i++) {
		free(pd->events[i]->name);
		free(pd->events[i]->unit);
		free(pd->events[i]);
	}
	free(pd->events);
	free(pd->ids);
	itable_free(&pd->ids_index);
	free(pd->reads);
	itable_free(&pd->reads_index);
	for (size_t i = 0; i < pd->info.nr_build_ids; i++)
		free((char *)pd->build_ids[i].filename);
	free(pd->build_ids);
	for (size_t i = 0; i < ARRAY_SIZE(pd->strs); i++)
		free(pd->strs[i]);
	order_queue_free(&pd->q);
	ZSTD_freeDCtx(pd->zctx);
	free(pd->zbuf);
	free(pd->tracing);
	free(pd->time_spec);
	free(pd->stat_threads);
	free(pd->stat_cpus);
	free(pd->times);
	free(pd->path);
	free(pd);
}


MYCL_API const char *mycl_perf_data__path(const struct mycl_perf_data *pd)
{
	return pd->path;
}

MYCL_API const struct mycl_perf_info *mycl_perf_data__info(const struct mycl_perf_data *pd)
{
	return &pd->info;
}

MYCL_API size_t mycl_perf_data__nr_events(const struct mycl_perf_data *pd)
{
	return pd->nr_events;
}

MYCL_API const struct mycl_event *mycl_perf_data__event(const struct mycl_perf_data *pd, size_t idx)
{
	return idx < pd->nr_events ? &pd->events[idx]->pub : NULL;
}

MYCL_API const struct mycl_perf_stats *mycl_perf_data__stats(const struct mycl_perf_data *pd)
{
	return &pd->stats;
}

MYCL_API const void *mycl_perf_data__tracing_data(const struct mycl_perf_data *pd, size_t *len)
{
	*len = pd->tracing_len;
	return pd->tracing;
}
