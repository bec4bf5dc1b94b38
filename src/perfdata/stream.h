/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The reader's byte source: the data section of a file, or a pipe, seen
 * through one window buf[0..tail) that starts at file offset off.
 *
 * Two ways to fill it, the same to the caller:
 * - plain: read() in the caller's thread into a buffer that is compacted
 *   (memmove) when it runs full;
 * - read-ahead: a thread reads a regular file into a ring mapped twice in a
 *   row, so any window up to the ring's size is contiguous.  Dropping
 *   consumed bytes moves buf instead of moving bytes, and the copy out of the
 *   page cache runs on another CPU while the caller parses.
 */
#ifndef MYCL_STREAM_H
#define MYCL_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { FILL_OK = 0, FILL_SHORT = 1 };

struct stream_ahead;

struct stream {
	int fd;
	uint8_t *buf;
	size_t cap, head, tail;		/* unconsumed bytes are buf[head..tail) */
	uint64_t off;			/* file offset of buf[0] */
	uint64_t limit;			/* file offset where data ends; UINT64_MAX: EOF */
	uint64_t keep_from;		/* file offset of the oldest record queued in place */
	bool eof;
	bool seekable;
	int read_ahead;			/* enum mycl_read_ahead */
	struct stream_ahead *ahead;	/* read-ahead thread and ring; NULL: plain */
	uint64_t prefetched;		/* file offset prefetched up to */
};

#define STREAM_PREFETCH 4096

/*
 * Read-ahead: the bytes were written by another CPU.  Asking for them a few
 * KiB before they are parsed hides the cross-CPU transfer.
 */
static inline void stream_prefetch(struct stream *st)
{
	uint64_t end = st->off + (st->tail - st->head > STREAM_PREFETCH ?
				  st->head + STREAM_PREFETCH : st->tail);

	if (!st->ahead)
		return;
	if (st->prefetched < st->off + st->head)
		st->prefetched = st->off + st->head;
	for (; st->prefetched < end; st->prefetched += 64)
		__builtin_prefetch(st->buf + (st->prefetched - st->off));
}

/*
 * Starts the read-ahead thread when st->read_ahead and the input call for it
 * (a regular file with enough data left, more than one CPU).  Falls back to
 * plain reads when the ring or the thread cannot be had.  Call before the
 * first stream_fill.
 */
void stream_begin(struct stream *st);
/* Whether stream_begin() would start the read-ahead thread now. */
bool stream_reads_ahead(const struct stream *st);
/* Stops the read-ahead thread; buffered bytes stay readable. */
void stream_end(struct stream *st);
void stream_free(struct stream *st);

/*
 * Makes at least NEED unconsumed bytes available: FILL_OK, FILL_SHORT at the
 * end of the data, or -errno.  Bytes from keep_from on are kept.
 */
int stream_fill(struct stream *st, size_t need);
/* Whether N unconsumed bytes are in the buffer now (no waiting, no reading). */
bool stream_has(struct stream *st, uint64_t n);
/*
 * Consumes N bytes.  When they are not all buffered (!stream_has), every
 * buffered byte is dropped, kept ones included, and the rest of the input
 * is skipped (lseek when seekable): the caller moves what it still needs out
 * first.  FILL_OK, FILL_SHORT at the end of the data, or -errno.
 */
int stream_skip(struct stream *st, uint64_t n);

#endif
