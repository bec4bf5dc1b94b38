/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one way mycl reads binary data: a bounds-checked cursor over a byte
 * range that byte-swaps when the file's byte order is not the host's.
 * A read past the end sets ->bad, returns 0, and leaves the cursor at the
 * end, so a decoder can read a whole structure and check ->bad once.
 */
#ifndef MYCL_CURSOR_H
#define MYCL_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <byteswap.h>

struct cursor {
	const uint8_t *p;
	const uint8_t *end;
	bool swap;
	bool bad;
};

static inline void cursor_init(struct cursor *c, const void *p, size_t len, bool swap)
{
	c->p = p;
	c->end = (const uint8_t *)p + len;
	c->swap = swap;
	c->bad = false;
}

static inline size_t cursor_left(const struct cursor *c)
{
	return (size_t)(c->end - c->p);
}

static inline bool cursor_need(struct cursor *c, size_t n)
{
	if (cursor_left(c) < n) {
		c->bad = true;
		c->p = c->end;
		return false;
	}
	return true;
}

static inline uint8_t cursor_u8(struct cursor *c)
{
	if (!cursor_need(c, 1))
		return 0;
	return *c->p++;
}

static inline uint16_t cursor_u16(struct cursor *c)
{
	uint16_t v;

	if (!cursor_need(c, 2))
		return 0;
	memcpy(&v, c->p, 2);
	c->p += 2;
	return c->swap ? bswap_16(v) : v;
}

static inline uint32_t cursor_u32(struct cursor *c)
{
	uint32_t v;

	if (!cursor_need(c, 4))
		return 0;
	memcpy(&v, c->p, 4);
	c->p += 4;
	return c->swap ? bswap_32(v) : v;
}

static inline uint64_t cursor_u64(struct cursor *c)
{
	uint64_t v;

	if (!cursor_need(c, 8))
		return 0;
	memcpy(&v, c->p, 8);
	c->p += 8;
	return c->swap ? bswap_64(v) : v;
}

/* An unsigned LEB128 number (DWARF's); ->bad past the end or past 64 bits. */
static inline uint64_t cursor_uleb128(struct cursor *c)
{
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b = cursor_u8(c);

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80) || c->bad)
			return c->bad ? 0 : v;
	}
	c->bad = true;
	return 0;
}

/* A signed LEB128 number; ->bad as cursor_uleb128. */
static inline int64_t cursor_sleb128(struct cursor *c)
{
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b = cursor_u8(c);

		if (c->bad)
			return 0;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if ((b & 0x40) && shift + 7 < 64)
				v |= ~0ull << (shift + 7);
			return (int64_t)v;
		}
	}
	c->bad = true;
	return 0;
}

/* Returns a pointer to N raw bytes (not swapped) and skips them, or NULL. */
static inline const void *cursor_bytes(struct cursor *c, size_t n)
{
	const void *p = c->p;

	if (!cursor_need(c, n))
		return NULL;
	c->p += n;
	return p;
}

static inline void cursor_skip(struct cursor *c, size_t n)
{
	(void)cursor_bytes(c, n);
}

/* Reads N u64 values into OUT (swapped as needed). */
static inline void cursor_u64_array(struct cursor *c, uint64_t *out, size_t n)
{
	if (n > cursor_left(c) / 8) {
		c->bad = true;
		c->p = c->end;
		return;
	}
	memcpy(out, c->p, n * 8);
	c->p += n * 8;
	if (c->swap)
		for (size_t i = 0; i < n; i++)
			out[i] = bswap_64(out[i]);
}

/*
 * A NUL-padded string field of exactly LEN bytes.  Returns a pointer into the
 * data when a NUL lies within the field, else NULL with ->bad set: names in
 * perf records are always terminated.
 */
static inline const char *cursor_str(struct cursor *c, size_t len)
{
	const char *s = cursor_bytes(c, len);

	if (!s)
		return NULL;
	if (!memchr(s, '\0', len)) {
		c->bad = true;
		return NULL;
	}
	return s;
}

/* A NUL-terminated string of any length, skipped with its NUL; NULL and ->bad when unended. */
static inline const char *cursor_cstr(struct cursor *c)
{
	const char *s = (const char *)c->p;
	const uint8_t *z = memchr(c->p, '\0', cursor_left(c));

	if (!z) {
		c->bad = true;
		c->p = c->end;
		return NULL;
	}
	c->p = z + 1;
	return s;
}

#endif
