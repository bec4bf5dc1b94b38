/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl error codes: 0 or a negative errno, or one of the library codes below. */
#ifndef MYCL_ERROR_H
#define MYCL_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Library-specific codes, kept below -4096 so they never collide with errno
 * values.  X(name, value, message) keeps each code next to its text.
 */
#define MYCL_ERRORS(X)                                                          \
	X(MYCL_ERR_NOT_PERF_DATA, -4097, "not a perf.data file (bad magic)")        \
	X(MYCL_ERR_LEGACY_FORMAT, -4098, "legacy PERFFILE (v1) format is not supported") \
	X(MYCL_ERR_TRUNCATED, -4099, "file is truncated")                          \
	X(MYCL_ERR_CORRUPT, -4100, "corrupt perf.data")                            \
	X(MYCL_ERR_UNSUPPORTED, -4101, "unsupported perf.data feature")            \
	X(MYCL_ERR_NO_SAMPLES, -4102, "no samples")                                \
	X(MYCL_ERR_NO_EVENT, -4103, "no such event in the recording")              \
	X(MYCL_ERR_DECOMPRESS, -4104, "zstd decompression failed")                 \
	X(MYCL_ERR_ELF, -4105, "cannot read ELF file")                             \
	X(MYCL_ERR_SIMPLEPERF, -4106, "file written by Android simpleperf, not Linux perf") \
	X(MYCL_ERR_BAD_RULES, -4107, "a rules file given as an option is not in its format") \
	X(MYCL_ERR_ARCHIVE, -4108, "not a perf archive, or a corrupt one")          \
	X(MYCL_ERR_NOT_RECORDED, -4109, "the recording does not hold what an option asks for") \
	X(MYCL_ERR_OPTS, -4110, "an options struct's sz is too small, or it sets fields this library does not know")

enum mycl_error {
#define MYCL_ERR_ENUM(name, value, msg) name = value,
	MYCL_ERRORS(MYCL_ERR_ENUM)
#undef MYCL_ERR_ENUM
};

/*
 * Text for ERR, a negative errno or library code.  Always returns a static
 * string; never NULL.
 */
const char *mycl_strerror(int err);

/*
 * The one channel of an error's words.  Every function returns 0 or a
 * negative code; one that failed leaves what went wrong, naming the file and
 * the place, here for the calling thread ("x.data: record at offset 0x120:
 * size 4 below the header's 8").  ERR is the code the call returned: the
 * words of that failure, or mycl_strerror(ERR) when it left none (and after
 * another call of the library).  Valid until the thread's next call.
 * Warnings and progress go to the print callback of the opts structs.
 */
const char *mycl_errmsg(int err);

#ifdef __cplusplus
}
#endif
#endif
