/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers shared by every module of libmycl. */
#ifndef MYCL_INTERNAL_H
#define MYCL_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/error.h"
#include "mycl/log.h"

#define MYCL_API __attribute__((visibility("default")))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

/*
 * The calling thread's error words (mycl_errmsg): cleared when an entry point
 * that can leave words starts, set where the failure is known.
 */
void error_clear(void);
void error_set(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Where a module sends messages: the caller's callback, or nowhere. */
struct logger {
	mycl_print_fn print;
	void *ctx;
};

void mycl_log(const struct logger *lg, enum mycl_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Pull a field from a caller's opts struct only if the caller's struct has it. */
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))
#define OPTS_GET(opts, field, fallback) (OPTS_HAS(opts, field) ? (opts)->field : (fallback))
/*
 * libbpf's rule for a caller's opts struct (its sz first): NULL, or sz at
 * least sz's own size, and every byte past the struct this library knows zero
 * (a newer caller's field set would otherwise be silently ignored).
 */
bool opts_valid(const void *opts, size_t known);
#define OPTS_VALID(opts, type) opts_valid(opts, sizeof(struct type))

/* The switches the caller set (mycl_tuning__set); enum mycl_switch values. */
const struct mycl_tuning *tuning_get(void);

/* FNV-1a of a NUL-terminated string: the hash tables' keys by name. */
static inline uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

/* A key that is a number (an offset, an address) spread over the hash tables' low bits. */
static inline uint64_t u64_hash(uint64_t k)
{
	return k * 0x9e3779b97f4a7c15ULL >> 7;
}

static inline const char *str_or(const char *s, const char *fallback)
{
	return s ? s : fallback;
}

/*
 * A stable sort that accepts an empty (possibly NULL) array, as qsort does not.  Input made of
 * a few sorted runs (symbol tables, relocations, what a linker or the kernel wrote in order)
 * is merged in O(n log runs): one pass when it is sorted already.
 */
void sort_array(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* The order of two uint64_t, for sort_array and bsearch. */
int u64_cmp(const void *a, const void *b);

/*
 * Binary search over a sorted range [LO, HI): the first index for which
 * BELOW, an expression of the index named I, is false (BELOW holds for a
 * prefix of the range only).
 */
#define PARTITION_POINT(lo, hi, i, below) __extension__ ({		\
	size_t lo_ = (lo), hi_ = (hi);					\
	while (lo_ < hi_) {						\
		size_t i = lo_ + (hi_ - lo_) / 2;			\
		if (below)						\
			lo_ = i + 1;					\
		else							\
			hi_ = i;					\
	}								\
	lo_;								\
})

/*
 * PATH opened read-only when it is a regular file, or -1 with errno (EISDIR,
 * or EINVAL for a FIFO, a device or a socket).  For every path a recording or
 * a binary names (a binary, its debug file, /tmp/perf-PID.map, a source
 * file): a FIFO there would block the open forever, a device never end.
 */
int open_regular(const char *path);
/*
 * True when PATH, its symbolic links and "..", followed, lies inside the
 * directory ROOT (followed the same way).  A path made of a directory and a
 * name from the recording or from a binary ("../" in an mmap's file name, a
 * debuglink, a symlink out of --symfs, a source file's name) must stay where
 * it was joined.
 */
bool path_inside(const char *root, const char *path);
/*
 * PATH with "." and ".." taken away by its words alone (no symbolic link
 * followed: "/a/b/../c" is "/a/c", ".." at the root stays there); the caller
 * frees it; NULL without memory.
 */
char *path_normal(const char *path);
/* The CPUs this thread may run on (sched_getaffinity), at least 1. */
int cpus_available(void);
/* The same as a stdio stream ("r"), or NULL with errno set. */
FILE *fopen_regular(const char *path);
/*
 * The length of the well-formed UTF-8 sequence of 2 to 4 bytes at S (no
 * overlong form, no surrogate, nothing past U+10FFFF), or 0; S[0] >= 0x80.
 */
size_t str_utf8_len(const unsigned char *s);
/*
 * The UTF-8 sequence at S written to F, or REPLACEMENT when S[0] starts none
 * (an ASCII byte included): how many bytes of S it took.
 */
size_t str_put_utf8(FILE *f, const char *s, const char *replacement);
/*
 * S with every byte that is no UTF-8 as U+FFFD, in a new string; NULL when
 * S is UTF-8 already (or memory runs out).  JSON and protobuf strings must be.
 */
char *str_utf8_fixed(const char *s);
/* The whole regular text file PATH, NUL-terminated, or NULL with errno set.  Caller frees. */
char *read_text_file(const char *path);
/* A new string from FMT, or NULL.  Caller frees. */
char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Names from the input (comm, symbols, file names) as they are printed: every
 * byte below 0x20 and DEL written \xNN.  str_has_ctl: whether S (LEN bytes)
 * needs it; str_escape_ctl: a new escaped copy (caller frees), or NULL.
 */
bool str_has_ctl(const char *s, size_t len);
/*
 * The offset of S's first byte below 0x20 or DEL (of LEN bytes), or LEN.
 * Eight bytes at a time (every symbol name of a binary and of the kernel
 * passes here): a byte below 0x20 borrows into its high bit when 0x20 is
 * subtracted, and one equal to 0x7f becomes zero when xor-ed with it; the
 * lowest byte flagged is exact (a borrow only flags bytes above it).
 */
static inline size_t str_ctl_at(const char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w, x, hit;

		memcpy(&w, s + i, 8);
		x = w ^ (0x7f * ones);
		hit = (((w - 0x20 * ones) & ~w) | ((x - ones) & ~x)) & highs;
		if (hit)
			return i + (size_t)__builtin_ctzll(hit) / 8;
	}
	for (; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return i;
	return len;
}
char *str_escape_ctl(const char *s, size_t len);
/* S escaped into BUF (LEN bytes, cut short when too small): BUF, or S when it needs nothing. */
const char *str_escape_ctl_buf(const char *s, char *buf, size_t len);

/* Asks for huge pages for a large allocation (2 MB pages where LEN spans them). */
void mem_hint_large(void *p, size_t len);

/* Growable arrays (large ones on huge pages): ensures room for one more element of *ARR. 0 or -ENOMEM. */
int grow_array(void **arr, size_t *cap, size_t need, size_t elem);
#define ARRAY_GROW(arr, cap, need) \
	((size_t)(need) <= (cap) ? 0 : grow_array((void **)&(arr), &(cap), (need), sizeof(*(arr))))
/* The same, the new room zero-filled. */
int grow_array_zeroed(void **arr, size_t *cap, size_t need, size_t elem);
#define ARRAY_GROW_ZERO(arr, cap, need) \
	((size_t)(need) <= (cap) ? 0 : grow_array_zeroed((void **)&(arr), &(cap), (need), sizeof(*(arr))))

#endif
