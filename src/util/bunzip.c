/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bzip2 decoding with libbz2 (already in every mycl process through libdw):
 * the input in memory, the output handed on in pieces, concatenated streams
 * (pbzip2, `cat a.bz2 b.bz2`) read in turn.
 */
#include <bzlib.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "bunzip.h"
#include "internal.h"

int bunzip_magic(const uint8_t *buf, size_t len)
{
	return len >= 4 && buf[0] == 'B' && buf[1] == 'Z' && buf[2] == 'h' && buf[3] >= '1' &&
	       buf[3] <= '9';
}

static const char *bz_words(int rc)
{
	switch (rc) {
	case BZ_DATA_ERROR: return "corrupt data (a block's CRC or its tables do not hold)";
	case BZ_DATA_ERROR_MAGIC: return "not a bzip2 stream";
	case BZ_MEM_ERROR: return "out of memory";
	case BZ_UNEXPECTED_EOF: return "the input ends inside a stream";
	default: return "the decoder failed";
	}
}

/*
 * After the consumer stopped: the rest of the block it was in, decoded and
 * dropped, for the block's CRC (libbz2 hands a block on before checking
 * it: a flipped byte reads as a bad tar header first).  A bzip2 error there,
 * else 0.  Bounded by bzip2's largest block.
 */
static int block_check(bz_stream *bz, char *buf, size_t len)
{
	size_t left = (1000u << 10);
	int st = BZ_OK;

	while (st == BZ_OK && left && bz->avail_in) {
		bz->next_out = buf;
		bz->avail_out = (unsigned int)len;
		st = BZ2_bzDecompress(bz);
		left -= left < len - bz->avail_out ? left : len - bz->avail_out;
	}
	return st == BZ_OK || st == BZ_STREAM_END ? 0 : st;
}

int bunzip(const uint8_t *in, size_t len, bunzip_out_fn out, void *ctx, char *err, size_t errlen)
{
	size_t at = 0;
	int rc = 0;

	err[0] = '\0';
	/* Each stream in turn: trailing zero padding (tar's blocking) ends the input. */
	while (at < len && !rc) {
		bz_stream bz;
		char outbuf[64 << 10];
		size_t start = at;
		int st;

		if (!bunzip_magic(in + at, len - at)) {
			bool zeros = true;

			for (size_t i = at; i < len && zeros; i++)
				zeros = !in[i];
			if (zeros && at)
				break;
			snprintf(err, errlen, "not a bzip2 stream at byte %zu", at);
			return MYCL_ERR_CORRUPT;
		}
		memset(&bz, 0, sizeof(bz));
		if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		bz.next_in = (char *)(uintptr_t)(in + at);
		bz.avail_in = len - at > UINT_MAX ? UINT_MAX : (unsigned int)(len - at);
		do {
			bz.next_out = outbuf;
			bz.avail_out = sizeof(outbuf);
			st = BZ2_bzDecompress(&bz);
			if (st != BZ_OK && st != BZ_STREAM_END)
				break;
			if (bz.avail_out < sizeof(outbuf))
				rc = out((const uint8_t *)outbuf, sizeof(outbuf) - bz.avail_out, ctx);
			if (rc && rc != -ENOMEM) {
				/* (what the consumer found wrong may be the block's corruption) */
				int bad = st == BZ_OK ? block_check(&bz, outbuf, sizeof(outbuf)) : 0;

				if (bad) {
					st = bad;
					rc = 0;
				}
				break;
			}
			/* (input past 4 GiB: the rest handed on as the decoder takes it) */
			if (!bz.avail_in && st == BZ_OK && (size_t)(bz.next_in - (const char *)in) < len) {
				size_t used = (size_t)((const uint8_t *)bz.next_in - in);

				bz.avail_in = len - used > UINT_MAX ? UINT_MAX : (unsigned int)(len - used);
			} else if (!bz.avail_in && st == BZ_OK && bz.avail_out) {
				st = BZ_UNEXPECTED_EOF;
			}
		} while (st == BZ_OK && !rc);
		at = (size_t)((const uint8_t *)bz.next_in - in);
		BZ2_bzDecompressEnd(&bz);
		if (rc)
			break;
		if (st != BZ_STREAM_END) {
			snprintf(err, errlen, "%s (the stream at byte %zu)", bz_words(st), start);
			return st == BZ_MEM_ERROR ? -ENOMEM : MYCL_ERR_CORRUPT;
		}
	}
	return rc;
}
