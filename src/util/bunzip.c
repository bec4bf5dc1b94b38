/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bzip2 decoding.  A stream is "BZh" and a block size digit, then blocks,
 * each opened by the 48-bit mark 0x314159265359, and an end mark
 * 0x177245385090 with the stream's CRC.  A block holds its CRC, the row of
 * the original string in the sorted rotations, which bytes occur, the
 * Huffman tables (up to 6, each chosen per 50 symbols), and the symbols:
 * move-to-front indices, with runs of index 0 written in bijective base 2
 * (RUNA, RUNB).  Undoing the Burrows-Wheeler transform gives bytes in which
 * 4 equal bytes are followed by a count of more of them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bunzip.h"
#include "internal.h"

#define MAX_GROUPS 6
#define MAX_ALPHA 258
#define MAX_CODE_LEN 20
#define MAX_SELECTORS 18002	/* what bzip2 1.0.8 writes at most; more are read and dropped */
#define GROUP_SIZE 50
#define RUNA 0
#define RUNB 1

struct bits {
	const uint8_t *p, *end;
	uint64_t buf;
	int n;			/* bits held in buf */
	bool over;		/* read past the end */
};

static inline uint32_t get_bits(struct bits *b, int n)
{
	while (b->n < n) {
		if (b->p == b->end) {
			b->over = true;
			return 0;
		}
		b->buf = b->buf << 8 | *b->p++;
		b->n += 8;
	}
	b->n -= n;
	return (uint32_t)(b->buf >> b->n) & (uint32_t)((1ull << n) - 1);
}

static inline uint32_t get_bit(struct bits *b)
{
	return get_bits(b, 1);
}

/* A canonical Huffman code: symbols sorted by length, then by value. */
struct huff {
	uint16_t perm[MAX_ALPHA];
	int32_t first_code[MAX_CODE_LEN + 1];
	uint16_t first_idx[MAX_CODE_LEN + 1], count[MAX_CODE_LEN + 1];
	int min_len;
};

static void huff_build(struct huff *h, const uint8_t *len, int alpha)
{
	int code = 0, idx = 0;

	memset(h->count, 0, sizeof(h->count));
	h->min_len = MAX_CODE_LEN;
	for (int i = 0; i < alpha; i++) {
		h->count[len[i]]++;
		if (len[i] < h->min_len)
			h->min_len = len[i];
	}
	for (int l = 1; l <= MAX_CODE_LEN; l++) {
		h->first_code[l] = code;
		h->first_idx[l] = (uint16_t)idx;
		for (int i = 0; i < alpha; i++)
			if (len[i] == l)
				h->perm[idx++] = (uint16_t)i;
		code = (code + h->count[l]) << 1;
	}
}

/* The next symbol, or -1 when no code of up to 20 bits matches. */
static inline int huff_decode(const struct huff *h, struct bits *b)
{
	int l = h->min_len;
	int32_t v = (int32_t)get_bits(b, l);

	for (;;) {
		int32_t d = v - h->first_code[l];

		if (d >= 0 && d < h->count[l])
			return h->perm[h->first_idx[l] + d];
		if (++l > MAX_CODE_LEN || b->over)
			return -1;
		v = v << 1 | (int32_t)get_bit(b);
	}
}

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i << 24;

		for (int k = 0; k < 8; k++)
			c = c & 0x80000000u ? c << 1 ^ 0x04c11db7u : c << 1;
		crc_table[i] = c;
	}
}

struct dec {
	struct bits b;
	const uint8_t *start;
	uint32_t *tt;
	size_t max_block;
	bunzip_out_fn out;
	void *ctx;
	char *err;
	size_t errlen;
	uint8_t obuf[65536];
	size_t on;
	uint32_t crc;
	int out_rc;			/* what the taker returned, once nonzero */
	uint8_t selectors[MAX_SELECTORS];
	struct huff huff[MAX_GROUPS];
};

#define fail(d, ...) (snprintf((d)->err, (d)->errlen, __VA_ARGS__), MYCL_ERR_CORRUPT)

/*
 * Output goes on in pieces before a block's CRC is known.  When the taker
 * refuses a piece, the rest of the block is still decoded for its CRC: a
 * corrupt block is said as such, not as whatever the taker saw in it.
 */
static void out_flush(struct dec *d)
{
	if (d->on && !d->out_rc)
		d->out_rc = d->out(d->obuf, d->on, d->ctx);
	d->on = 0;
}

static inline void put(struct dec *d, uint8_t c)
{
	d->crc = d->crc << 8 ^ crc_table[(d->crc >> 24 ^ c) & 0xff];
	d->obuf[d->on++] = c;
	if (d->on == sizeof(d->obuf))
		out_flush(d);
}

static int read_block(struct dec *d, size_t at, uint32_t *crc_out)
{
	struct bits *b = &d->b;
	uint32_t want_crc, orig, used, nblock = 0, run = 0, weight = 1;
	uint8_t seq[256], mtf[256], lens[MAX_ALPHA], sel_mtf[MAX_GROUPS];
	uint8_t *selectors = d->selectors;
	struct huff *huff = d->huff;
	uint32_t counts[256] = { 0 };
	int in_use = 0, groups, alpha, eob, left = 0, g = 0;
	uint32_t nsel, sel = 0;

	want_crc = get_bits(b, 32);
	if (get_bit(b))
		return fail(d, "block at byte %zu is randomised (bzip2 0.9.0): not supported", at);
	orig = get_bits(b, 24);
	used = get_bits(b, 16);
	for (int i = 0; i < 16; i++)
		if (used & (0x8000u >> i)) {
			uint32_t w = get_bits(b, 16);

			for (int j = 0; j < 16; j++)
				if (w & (0x8000u >> j))
					seq[in_use++] = (uint8_t)(i * 16 + j);
		}
	if (b->over)
		goto short_input;
	if (!in_use)
		return fail(d, "block at byte %zu uses no byte values", at);
	alpha = in_use + 2;
	eob = in_use + 1;
	groups = (int)get_bits(b, 3);
	nsel = get_bits(b, 15);
	if (groups < 2 || groups > MAX_GROUPS || !nsel)
		return fail(d, "block at byte %zu has %d tables and %u selectors", at, groups, nsel);
	for (int i = 0; i < groups; i++)
		sel_mtf[i] = (uint8_t)i;
	for (uint32_t i = 0; i < nsel; i++) {
		int j = 0;
		uint8_t v;

		while (get_bit(b))
			if (++j >= groups || b->over)
				return fail(d, "block at byte %zu: selector %u past the tables", at, i);
		if (i >= MAX_SELECTORS)
			continue;
		v = sel_mtf[j];
		memmove(sel_mtf + 1, sel_mtf, (size_t)j);
		sel_mtf[0] = v;
		selectors[i] = v;
	}
	if (nsel > MAX_SELECTORS)
		nsel = MAX_SELECTORS;
	for (int t = 0; t < groups; t++) {
		int cur = (int)get_bits(b, 5);

		for (int i = 0; i < alpha; i++) {
			for (;;) {
				if (cur < 1 || cur > MAX_CODE_LEN || b->over)
					return fail(d, "block at byte %zu: bad code length in table %d",
						    at, t);
				if (!get_bit(b))
					break;
				cur += get_bit(b) ? -1 : 1;
			}
			lens[i] = (uint8_t)cur;
		}
		huff_build(&huff[t], lens, alpha);
	}
	for (int i = 0; i < 256; i++)
		mtf[i] = (uint8_t)i;

	for (;;) {
		int sym;

		if (!left) {
			if (sel >= nsel)
				return fail(d, "block at byte %zu runs past its selectors", at);
			g = selectors[sel++];
			left = GROUP_SIZE;
		}
		left--;
		sym = huff_decode(&huff[g], b);
		if (b->over)
			goto short_input;
		if (sym < 0) {
			return fail(d, "block at byte %zu: no code matches", at);
		}
		if (sym == RUNA || sym == RUNB) {
			if (weight > d->max_block)
				return fail(d, "block at byte %zu: run past the block size", at);
			run += weight << (sym == RUNB);
			weight <<= 1;
			if (run > d->max_block)
				return fail(d, "block at byte %zu: run past the block size", at);
			continue;
		}
		if (run) {
			uint8_t c = seq[mtf[0]];

			if (run > d->max_block - nblock)
				return fail(d, "block at byte %zu is larger than its stream says", at);
			counts[c] += run;
			while (run--)
				d->tt[nblock++] = c;
			run = 0;
			weight = 1;
		}
		if (sym == eob)
			break;
		{
			int idx = sym - 1;
			uint8_t v = mtf[idx], c;

			memmove(mtf + 1, mtf, (size_t)idx);
			mtf[0] = v;
			c = seq[v];
			if (nblock >= d->max_block)
				return fail(d, "block at byte %zu is larger than its stream says", at);
			counts[c]++;
			d->tt[nblock++] = c;
		}
	}
	if (orig >= nblock)
		return fail(d, "block at byte %zu: start row %u past its %u bytes", at, orig, nblock);

	/* Undo the transform: each byte's successor in the original string. */
	{
		uint32_t sum = 0, pos, last = 256, rl = 0;

		for (int i = 0; i < 256; i++) {
			uint32_t c = counts[i];

			counts[i] = sum;
			sum += c;
		}
		for (uint32_t i = 0; i < nblock; i++)
			d->tt[counts[d->tt[i] & 0xff]++] |= i << 8;
		pos = d->tt[orig] >> 8;
		d->crc = 0xffffffffu;
		for (uint32_t i = 0; i < nblock; i++) {
			uint32_t c;

			pos = d->tt[pos];
			c = pos & 0xff;
			pos >>= 8;
			if (rl == 4) {
				while (c--)
					put(d, (uint8_t)last);
				rl = 0;
				continue;
			}
			if (c == last) {
				rl++;
			} else {
				rl = 1;
				last = c;
			}
			put(d, (uint8_t)c);
		}
		d->crc = ~d->crc;
	}
	if (d->crc != want_crc)
		return fail(d, "block at byte %zu: CRC %08x, stored %08x", at, d->crc, want_crc);
	*crc_out = d->crc;
	return d->out_rc;

short_input:
	return fail(d, "input ends inside the block at byte %zu", at);
}

int bunzip_magic(const uint8_t *buf, size_t len)
{
	return len >= 4 && buf[0] == 'B' && buf[1] == 'Z' && buf[2] == 'h' && buf[3] >= '1' &&
	       buf[3] <= '9';
}

static int read_stream(struct dec *d)
{
	struct bits *b = &d->b;
	uint32_t combined = 0, crc, stored;
	int rc;

	d->max_block = (size_t)(b->p[3] - '0') * 100000;
	b->p += 4;
	for (;;) {
		uint64_t mark;
		size_t bat = (size_t)(b->p - d->start);

		mark = (uint64_t)get_bits(b, 24) << 24;
		mark |= get_bits(b, 24);
		if (b->over)
			return fail(d, "input ends at byte %zu before the stream's end mark", bat);
		if (mark == 0x177245385090ull)
			break;
		if (mark != 0x314159265359ull)
			return fail(d, "no block mark at byte %zu", bat);
		if ((rc = read_block(d, bat, &crc)))
			return rc;
		combined = (combined << 1 | combined >> 31) ^ crc;
	}
	stored = get_bits(b, 32);
	if (b->over)
		return fail(d, "input ends inside the stream's CRC");
	if (stored != combined)
		return fail(d, "stream CRC %08x, stored %08x", combined, stored);
	b->n -= b->n % 8;	/* the next stream starts on a byte */
	b->p -= b->n / 8;
	b->n = 0;
	b->buf = 0;
	return 0;
}

int bunzip(const uint8_t *in, size_t len, bunzip_out_fn out, void *ctx, char *err, size_t errlen)
{
	struct dec *d;
	int rc = 0;

	if (!bunzip_magic(in, len)) {
		snprintf(err, errlen, "not bzip2 data");
		return MYCL_ERR_CORRUPT;
	}
	if (!crc_table[1])
		crc_init();
	d = calloc(1, sizeof(*d));
	if (d)
		d->tt = malloc(900000 * sizeof(*d->tt));
	if (!d || !d->tt) {
		if (d)
			free(d);
		return -ENOMEM;
	}
	d->b.p = d->start = in;
	d->b.end = in + len;
	d->out = out;
	d->ctx = ctx;
	d->err = err;
	d->errlen = errlen;
	/* Streams one after another; anything else after the first is left, as bzip2 does. */
	do
		rc = read_stream(d);
	while (!rc && bunzip_magic(d->b.p, (size_t)(d->b.end - d->b.p)));
	if (!rc) {
		out_flush(d);
		rc = d->out_rc;
	}
	free(d->tt);
	free(d);
	return rc;
}
