/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reader against recordings whose counts perf itself reported (expected.txt). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <zstd.h>
#include "mycl/mycl.h"
#include "test_util.h"

struct seen {
	uint64_t samples, last_time, out_of_order, mmaps, comms;
};

static int on_sample(const struct mycl_sample *s, void *ctx)
{
	struct seen *w = ctx;

	if (s->time < w->last_time)
		w->out_of_order++;
	w->last_time = s->time;
	w->samples++;
	return 0;
}

static int on_mmap(const struct mycl_mmap *m, void *ctx)
{
	(void)m;
	((struct seen *)ctx)->mmaps++;
	return 0;
}

static int on_comm(const struct mycl_comm *c, void *ctx)
{
	(void)c;
	((struct seen *)ctx)->comms++;
	return 0;
}

static const struct mycl_record_ops ops = {
	.sz = sizeof(ops), .sample = on_sample, .mmap = on_mmap, .comm = on_comm,
};

/* Opens and reads PATH; returns the read's result, fills W and the handle. */
static int read_file(const char *path, struct seen *w, struct mycl_perf_data **pdp)
{
	int rc = mycl_perf_data__open(path, NULL, pdp);

	memset(w, 0, sizeof(*w));
	if (rc)
		return rc;
	return mycl_perf_data__read(*pdp, &ops, w);
}

static void counts_match_perf(void **state)
{
	FILE *f = fopen(fixture("expected.txt"), "r");
	char file[256], ev[256];
	unsigned long long want;
	int checked = 0;

	(void)state;
	assert_non_null(f);
	while (fscanf(f, "%255s %255s %llu", file, ev, &want) == 3) {
		struct mycl_perf_data *pd;
		struct seen w;
		uint64_t got = UINT64_MAX, total = 0;

		assert_int_equal(read_file(fixture(file), &w, &pd), 0);
		for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++) {
			const struct mycl_event *e = mycl_perf_data__event(pd, i);

			total += e->nr_samples;
			if (!strcmp(e->name, ev))
				got = e->nr_samples;
		}
		if (got == UINT64_MAX && mycl_perf_data__nr_events(pd) == 1)
			got = total;	/* perf 6.1 renames events of pipes it reads */
		if (got != want)
			fail_msg("%s: event %s: perf says %llu samples, mycl read %llu", file, ev,
				 want, (unsigned long long)got);
		assert_int_equal(w.out_of_order, 0);
		assert_true(w.mmaps > 0);
		assert_true(w.comms > 0);
		mycl_perf_data__close(pd);
		checked++;
	}
	fclose(f);
	assert_true(checked >= 5);
}

static void header_features_decoded(void **state)
{
	struct mycl_perf_data *pd;
	const struct mycl_perf_info *in;
	struct seen w;

	(void)state;
	assert_int_equal(read_file(fixture("hotloop.data"), &w, &pd), 0);
	in = mycl_perf_data__info(pd);
	assert_false(in->pipe_mode);
	assert_non_null(in->hostname);
	assert_string_equal(in->arch, "x86_64");
	assert_non_null(in->os_release);
	assert_non_null(in->cmdline);
	assert_non_null(strstr(in->cmdline, "hotloop"));
	assert_true(in->nr_cpus_online > 0);
	assert_true(in->nr_build_ids > 0);
	mycl_perf_data__close(pd);

	assert_int_equal(read_file(fixture("hotloop.pipe.data"), &w, &pd), 0);
	in = mycl_perf_data__info(pd);
	assert_true(in->pipe_mode);
	assert_non_null(in->hostname);	/* from HEADER_FEATURE records */
	mycl_perf_data__close(pd);
}

static void reads_a_real_pipe(void **state)
{
	char cmd[4200];
	struct mycl_perf_data *pd;
	struct seen w = { 0 };
	FILE *p;

	(void)state;
	snprintf(cmd, sizeof(cmd), "cat '%s'", fixture("hotloop.pipe.data"));
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(mycl_perf_data__open_fd(dup(fileno(p)), "pipe", NULL, &pd), 0);
	assert_int_equal(mycl_perf_data__read(pd, &ops, &w), 0);
	assert_true(w.samples > 100);
	mycl_perf_data__close(pd);
	pclose(p);
}

static void rejects_what_is_not_perf_data(void **state)
{
	const unsigned char gz[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	const char *text = "this is not a perf.data file at all";
	struct mycl_perf_data *pd = NULL;
	const char *p;

	(void)state;
	p = write_tmp("", 0);
	assert_int_equal(mycl_perf_data__open(p, NULL, &pd), MYCL_ERR_NOT_PERF_DATA);
	assert_null(pd);
	assert_non_null(strstr(mycl_errmsg(MYCL_ERR_NOT_PERF_DATA), p));
	unlink(p);
	p = write_tmp(text, strlen(text));
	assert_int_equal(mycl_perf_data__open(p, NULL, &pd), MYCL_ERR_NOT_PERF_DATA);
	assert_non_null(strstr(mycl_errmsg(MYCL_ERR_NOT_PERF_DATA), "bad magic"));
	unlink(p);
	p = write_tmp(gz, sizeof(gz));
	assert_int_equal(mycl_perf_data__open(p, NULL, &pd), MYCL_ERR_NOT_PERF_DATA);
	assert_non_null(strstr(mycl_errmsg(MYCL_ERR_NOT_PERF_DATA), "gzip"));
	unlink(p);
	assert_int_equal(mycl_perf_data__open("/nonexistent/perf.data", NULL, &pd), -ENOENT);
	assert_non_null(strstr(mycl_errmsg(-ENOENT), "/nonexistent/perf.data"));
}

/* Every prefix of a recording opens cleanly or fails cleanly: never a crash. */
static void truncated_files_never_crash(void **state)
{
	const char *names[] = { "hotloop.data", "hotloop.z.data", "hotloop.pipe.data" };

	(void)state;
	for (size_t n = 0; n < 3; n++) {
		size_t len = 0, step;
		unsigned char *buf = slurp(fixture(names[n]), &len);
		struct seen full;
		struct mycl_perf_data *pd;

		assert_non_null(buf);
		assert_int_equal(read_file(fixture(names[n]), &full, &pd), 0);
		mycl_perf_data__close(pd);
		step = len / 211 + 1;
		for (size_t cut = 0; cut < len; cut += step) {
			const char *p = write_tmp(buf, cut);
			struct seen w;
			int rc = read_file(p, &w, &pd);

			assert_true(rc <= 0);
			assert_true(w.samples <= full.samples);
			mycl_perf_data__close(pd);
			unlink(p);
		}
		free(buf);
	}
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void corrupt_record_size_is_reported(void **state)
{
	size_t len;
	unsigned char *buf = slurp(fixture("hotloop.data"), &len);
	uint64_t off;
	struct mycl_perf_data *pd;
	struct seen w;
	const char *p;

	(void)state;
	assert_non_null(buf);
	off = le64(buf + 0x28);	/* data.offset */
	/* Third record's size (u16 at +6) set to 0. */
	for (int i = 0; i < 2; i++)
		off += (uint16_t)(buf[off + 6] | buf[off + 7] << 8);
	buf[off + 6] = buf[off + 7] = 0;
	p = write_tmp(buf, len);
	assert_int_equal(read_file(p, &w, &pd), MYCL_ERR_CORRUPT);
	assert_non_null(strstr(mycl_errmsg(MYCL_ERR_CORRUPT), "offset 0x"));
	assert_non_null(strstr(mycl_errmsg(MYCL_ERR_CORRUPT), p));
	mycl_perf_data__close(pd);
	unlink(p);
	free(buf);
}

static void killed_perf_is_read_to_the_end(void **state)
{
	size_t len;
	unsigned char *buf = slurp(fixture("hotloop.data"), &len);
	uint64_t data_off, data_size;
	struct mycl_perf_data *pd;
	struct seen full, w;
	const char *p;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(read_file(fixture("hotloop.data"), &full, &pd), 0);
	mycl_perf_data__close(pd);
	data_off = le64(buf + 0x28);
	data_size = le64(buf + 0x30);
	memset(buf + 0x30, 0, 8);	/* data.size = 0, as when perf is killed */
	p = write_tmp(buf, (size_t)(data_off + data_size));
	assert_int_equal(read_file(p, &w, &pd), 0);
	assert_true(mycl_perf_data__info(pd)->data_size_zero);
	assert_int_equal(w.samples, full.samples);
	mycl_perf_data__close(pd);
	unlink(p);
	free(buf);
}

/*
 * Appends N bytes at P to the growing buffer *B of length *L, whose room
 * doubles (a power of two past the length): growing by each record's size
 * copied the whole buffer 20,000 times, minutes under ASan.
 */
static void append(unsigned char **b, size_t *l, const void *p, size_t n)
{
	size_t room = 64;

	while (room < *l)
		room *= 2;
	if (!*b || *l + n > room) {
		while (room < *l + n)
			room *= 2;
		*b = realloc(*b, room);
		assert_non_null(*b);
	}
	memcpy(*b + *l, p, n);
	*l += n;
}

/*
 * A file of NR samples whose records perf -z would write: one zstd stream,
 * flushed (not ended) after every CHUNK bytes of records, each flush a
 * COMPRESSED record.  A flush inflating past the room left in the reader's
 * buffer leaves bytes inside zstd when the record's input is used up.
 */
static const char *write_streamed(int nr, size_t chunk)
{
	unsigned char *raw = NULL, *data = NULL, *file = NULL, attr[128] = { 0 };
	size_t rl = 0, dl = 0, fl = 0;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	struct { uint32_t type; uint16_t misc, size; uint32_t pid, tid; char comm[8];
		 uint32_t id_pid, id_tid; uint64_t time; } comm = { 3, 0, 40, 7, 7, "single", 7, 7, 1 };
	uint64_t v, hdr[13] = { 0, 104, 144, 104, 144, 248, 0, 0, 0, 1ULL << 27, 0, 0, 0 };
	uint64_t no_ids[2] = { 0, 0 }, sec[2];
	uint32_t feat[5] = { 0, 1, 3, 0, 2u << 20 };	/* COMPRESSED: zstd, a 2 MiB ring */
	const char *p;

	assert_non_null(cc);
	append(&raw, &rl, &comm, sizeof(comm));
	for (int i = 0; i < nr; i++) {
		struct { uint32_t type; uint16_t misc, size; uint64_t ip; uint32_t pid, tid;
			 uint64_t time, period; } s = { 9, 2, 40, 0x1000, 7, 7, 2 + (uint64_t)i, 1000 };

		append(&raw, &rl, &s, sizeof(s));
	}
	for (size_t off = 0; off < rl; off += chunk) {
		unsigned char out[65536];
		ZSTD_inBuffer in = { raw + off, rl - off < chunk ? rl - off : chunk, 0 };
		ZSTD_outBuffer o = { out + 8, sizeof(out) - 8, 0 };
		size_t left;
		uint32_t type = 81;
		uint16_t size;

		do
			left = ZSTD_compressStream2(cc, &o, &in, ZSTD_e_flush);
		while (left && !ZSTD_isError(left) && o.pos < o.size);
		assert_int_equal(left, 0);
		size = (uint16_t)(8 + o.pos);
		memcpy(out, &type, 4);
		memset(out + 4, 0, 2);
		memcpy(out + 6, &size, 2);
		append(&data, &dl, out, size);
	}
	ZSTD_freeCCtx(cc);
	/* One software event, IP|TID|TIME|PERIOD, sample_id_all. */
	v = 1 | 128ULL << 32;
	memcpy(attr, &v, 8);
	v = 1000;
	memcpy(attr + 16, &v, 8);
	v = 1 | 2 | 4 | 256;
	memcpy(attr + 24, &v, 8);
	v = 1ULL << 18;
	memcpy(attr + 40, &v, 8);
	memcpy(hdr, "PERFILE2", 8);
	hdr[6] = dl;
	append(&file, &fl, hdr, sizeof(hdr));
	append(&file, &fl, attr, sizeof(attr));
	append(&file, &fl, no_ids, sizeof(no_ids));
	append(&file, &fl, data, dl);
	sec[0] = fl + 16;
	sec[1] = sizeof(feat);
	append(&file, &fl, sec, sizeof(sec));
	append(&file, &fl, feat, sizeof(feat));
	p = write_tmp(file, fl);
	free(raw);
	free(data);
	free(file);
	return p;
}

static void compressed_records_inflate_to_their_end(void **state)
{
	/* Chunks of 300,000 bytes lost 1,725 of 20,000 samples, silently. */
	static const size_t chunks[] = { 300000, 655400, 1000000, 4096, 40 };

	(void)state;
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		const char *p = write_streamed(20000, chunks[i]);
		struct mycl_perf_data *pd;
		struct seen w;

		assert_int_equal(read_file(p, &w, &pd), 0);
		if (w.samples != 20000)
			fail_msg("zstd flushed every %zu bytes: %llu of 20000 samples read", chunks[i],
				 (unsigned long long)w.samples);
		mycl_perf_data__close(pd);
		unlink(p);
	}
}

/* The files of a --threads directory the reader reads, and no others. */
static void threads_dir_members(void **state)
{
	static const char *const yes[] = { "data", "data.0", "data.1", "data.17", "data.4095" };
	static const char *const no[] = { "data.", "data.00", "data.01", "data.-1", "data.1x",
					  "data.x", "Data", "data0", "perf.data", "", "data.1 " };

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(mycl_perf_data__dir_member(yes[i]));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(mycl_perf_data__dir_member(no[i]));
	assert_false(mycl_perf_data__dir_member(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_match_perf),
		cmocka_unit_test(header_features_decoded),
		cmocka_unit_test(reads_a_real_pipe),
		cmocka_unit_test(rejects_what_is_not_perf_data),
		cmocka_unit_test(truncated_files_never_crash),
		cmocka_unit_test(corrupt_record_size_is_reported),
		cmocka_unit_test(killed_perf_is_read_to_the_end),
		cmocka_unit_test(compressed_records_inflate_to_their_end),
		cmocka_unit_test(threads_dir_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
