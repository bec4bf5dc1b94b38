/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The byte source under both ways of filling it: plain reads and the
 * read-ahead ring.  Every byte handed out must be the file's byte at that
 * offset, across the ring's wrap, while bytes are kept for ordering (which
 * makes the ring grow), across skips, and at the data's end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "mycl/tuning.h"
#include "mycl/perf_data.h"
#include "stream.h"

#define FILE_BYTES (40u << 20)	/* more than twice the ring's first size */

static uint8_t byte_at(uint64_t off)
{
	uint64_t x = off * 0x9E3779B97F4A7C15ULL;

	return (uint8_t)(x >> 56 ^ off);
}

static int make_file(uint64_t size)
{
	int fd = memfd_create("stream-test", 0);
	uint8_t *buf = malloc(1 << 20);

	assert_true(fd >= 0);
	assert_non_null(buf);
	for (uint64_t off = 0; off < size; off += 1 << 20) {
		size_t n = size - off < (1 << 20) ? (size_t)(size - off) : 1 << 20;

		for (size_t i = 0; i < n; i++)
			buf[i] = byte_at(off + i);
		assert_int_equal(write(fd, buf, n), (ssize_t)n);
	}
	free(buf);
	return fd;
}

static void open_stream(struct stream *st, int fd, uint64_t start, uint64_t limit, int mode)
{
	bool said;

	*st = (struct stream){ .fd = fd, .off = start, .limit = limit, .keep_from = UINT64_MAX,
			       .seekable = true, .read_ahead = mode };
	assert_int_equal(lseek(fd, (off_t)start, SEEK_SET), (off_t)start);
	said = stream_reads_ahead(st);
	stream_begin(st);
	/* what stream_reads_ahead() says is what stream_begin() does */
	assert_int_equal(said, st->ahead != NULL);
	if (mode == MYCL_READ_AHEAD_ON)
		assert_non_null(st->ahead);
	else
		assert_null(st->ahead);
}

static void check_bytes(const struct stream *st, size_t from, size_t n)
{
	for (size_t i = from; i < from + n; i++)
		if (st->buf[i] != byte_at(st->off + i))
			fail_msg("byte at file offset %llu differs",
				 (unsigned long long)(st->off + i));
}

/* Consumes "records" of varying size to the end; every byte checked. */
static void reads_everything(int mode)
{
	int fd = make_file(FILE_BYTES);
	struct stream st;
	uint64_t consumed = 0;
	size_t size = 8;

	open_stream(&st, fd, 100, UINT64_MAX, mode);
	for (;;) {
		int r = stream_fill(&st, size);

		if (r == FILL_SHORT)
			break;
		assert_int_equal(r, FILL_OK);
		check_bytes(&st, st.head, size);
		st.head += size;
		consumed += size;
		size = size * 7 % 65521 + 8;
	}
	assert_true(consumed <= FILE_BYTES - 100);
	assert_true(consumed + 65536 > FILE_BYTES - 100);
	stream_free(&st);
	close(fd);
}

static void plain_reads_everything(void **state)
{
	(void)state;
	reads_everything(MYCL_READ_AHEAD_OFF);
}

static void ahead_reads_everything(void **state)
{
	(void)state;
	reads_everything(MYCL_READ_AHEAD_ON);
}

/*
 * Keeps the first bytes (as the order queue keeps records in place) while
 * reading on: the window must keep them intact and grow past the ring.
 */
static void keeps_bytes(int mode)
{
	int fd = make_file(FILE_BYTES);
	struct stream st;
	uint64_t kept = 4096;
	size_t cap;

	open_stream(&st, fd, 0, UINT64_MAX, mode);
	assert_int_equal(stream_fill(&st, 64), FILL_OK);
	st.keep_from = kept;
	while (st.off + st.head < (30u << 20)) {
		assert_int_equal(stream_fill(&st, 60000), FILL_OK);
		st.head += 60000;
	}
	assert_true(st.off <= kept);
	check_bytes(&st, (size_t)(kept - st.off), (size_t)(st.off + st.head - kept));
	/* Released: reading on to the end needs no more room, and drops them. */
	st.keep_from = UINT64_MAX;
	cap = st.cap;
	while (st.off + st.head + 60000 <= FILE_BYTES) {
		assert_int_equal(stream_fill(&st, 60000), FILL_OK);
		check_bytes(&st, st.head, 60000);
		st.head += 60000;
	}
	assert_int_equal(st.cap, cap);
	if (mode == MYCL_READ_AHEAD_ON)
		assert_true(st.off > kept);
	stream_free(&st);
	close(fd);
}

static void plain_keeps_bytes(void **state)
{
	(void)state;
	keeps_bytes(MYCL_READ_AHEAD_OFF);
}

static void ahead_keeps_bytes(void **state)
{
	(void)state;
	keeps_bytes(MYCL_READ_AHEAD_ON);
}

/* Skips within the buffer and beyond it, then stops at the limit. */
static void skips_and_stops(int mode)
{
	int fd = make_file(FILE_BYTES);
	uint64_t limit = FILE_BYTES - 12345;
	struct stream st;

	open_stream(&st, fd, 64, limit, mode);
	assert_int_equal(stream_fill(&st, 16), FILL_OK);
	assert_int_equal(stream_skip(&st, 10), FILL_OK);
	assert_int_equal(stream_fill(&st, 16), FILL_OK);
	check_bytes(&st, st.head, 16);
	assert_int_equal(st.off + st.head, 74);
	assert_int_equal(stream_skip(&st, 25u << 20), FILL_OK);
	assert_int_equal(st.off + st.head, 74 + (25u << 20));
	assert_int_equal(stream_fill(&st, 4096), FILL_OK);
	check_bytes(&st, st.head, 4096);
	/* Up to the limit exactly, and not a byte more. */
	while (limit - (st.off + st.head) > 1000) {
		assert_int_equal(stream_fill(&st, 1000), FILL_OK);
		check_bytes(&st, st.head, 1000);
		st.head += 1000;
	}
	assert_int_equal(stream_fill(&st, (size_t)(limit - (st.off + st.head))), FILL_OK);
	assert_int_equal(stream_fill(&st, (size_t)(limit - (st.off + st.head)) + 1), FILL_SHORT);
	assert_int_equal(stream_skip(&st, 1u << 20), FILL_SHORT);
	stream_free(&st);
	close(fd);
}

static void plain_skips_and_stops(void **state)
{
	(void)state;
	skips_and_stops(MYCL_READ_AHEAD_OFF);
}

static void ahead_skips_and_stops(void **state)
{
	(void)state;
	skips_and_stops(MYCL_READ_AHEAD_ON);
}

/* A file shorter than its limit says (truncated): short at its end. */
static void ahead_short_file(void **state)
{
	int fd = make_file(3u << 20);
	struct stream st;

	(void)state;
	open_stream(&st, fd, 0, 8u << 20, MYCL_READ_AHEAD_ON);
	assert_int_equal(stream_fill(&st, 3u << 20), FILL_OK);
	check_bytes(&st, 0, 3u << 20);
	st.head = 3u << 20;
	assert_int_equal(stream_fill(&st, 1), FILL_SHORT);
	/* Stopping early, with the thread mid-file, must not hang. */
	stream_free(&st);
	open_stream(&st, fd, 0, UINT64_MAX, MYCL_READ_AHEAD_ON);
	assert_int_equal(stream_fill(&st, 8), FILL_OK);
	stream_end(&st);
	stream_free(&st);
	close(fd);
}

/* AUTO keeps small files and single-CPU runs on plain reads. */
static void auto_skips_small_files(void **state)
{
	int fd = make_file(1u << 20);
	struct stream st;

	(void)state;
	mycl_tuning__set(NULL);
	open_stream(&st, fd, 0, UINT64_MAX, MYCL_READ_AHEAD_AUTO);
	stream_free(&st);
	close(fd);
}

/* The forecast follows the read_ahead switch and the file's size under AUTO. */
static void forecast_follows_environment(void **state)
{
	int fd = make_file(6u << 20);
	struct stream st = { .fd = fd, .off = 0, .limit = UINT64_MAX, .keep_from = UINT64_MAX,
			     .seekable = true, .read_ahead = MYCL_READ_AHEAD_AUTO };

	(void)state;
	mycl_tuning__set(&(struct mycl_tuning){ .sz = sizeof(struct mycl_tuning),
						.read_ahead = MYCL_SWITCH_OFF });
	assert_false(stream_reads_ahead(&st));
	mycl_tuning__set(&(struct mycl_tuning){ .sz = sizeof(struct mycl_tuning),
						.read_ahead = MYCL_SWITCH_ON });
	assert_true(stream_reads_ahead(&st));
	st.seekable = false;				/* a pipe: never */
	assert_false(stream_reads_ahead(&st));
	st.seekable = true;
	st.off = 3u << 20;				/* 3 MiB left under AUTO: not worth it */
	mycl_tuning__set(NULL);
	assert_false(stream_reads_ahead(&st));
	st.read_ahead = MYCL_READ_AHEAD_ON;		/* asked: even so */
	assert_true(stream_reads_ahead(&st));
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_reads_everything),
		cmocka_unit_test(ahead_reads_everything),
		cmocka_unit_test(plain_keeps_bytes),
		cmocka_unit_test(ahead_keeps_bytes),
		cmocka_unit_test(plain_skips_and_stops),
		cmocka_unit_test(ahead_skips_and_stops),
		cmocka_unit_test(ahead_short_file),
		cmocka_unit_test(auto_skips_small_files),
		cmocka_unit_test(forecast_follows_environment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
