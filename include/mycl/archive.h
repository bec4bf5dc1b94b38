/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A `perf archive` tarball (perf.data.tar.bz2): the build-id cache entries of
 * the binaries a recording sampled, made on the machine where it ran.  Read
 * into memory, never unpacked on disk: each member a binary lookup may use
 * (PATH/BUILD-ID/elf, debug, vdso, kallsyms) is kept in an anonymous memory
 * file, found by build-id when the recording's binaries are loaded (pass the
 * archive in mycl_profile_opts.archive).
 *
 * bzip2 (what perf writes), zstd and uncompressed tar are read; ustar, GNU
 * long names and pax path records are understood.
 */
#ifndef MYCL_ARCHIVE_H
#define MYCL_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_archive;

struct mycl_archive_opts {
	size_t sz;			/* sizeof(struct mycl_archive_opts) */
	/*
	 * Members kept are refused past this many bytes in all (a small
	 * archive that inflates without end); 0: 1 GiB.
	 */
	uint64_t max_bytes;
	/*
	 * The build-ids (lowercase hex) whose entries are kept: a recording's
	 * (mycl_perf_info.build_ids); other members are skipped as they stream
	 * by, costing time, not memory.  NULL: every entry.
	 */
	const char *const *build_ids;
	size_t nr_build_ids;
};

/*
 * Reads the archive at PATH.  0, or a negative errno (cannot be read) or
 * MYCL_ERR_ARCHIVE (not a tarball, corrupt, unsupported compression, past
 * max_bytes), mycl_errmsg() naming the file and what is wrong.  An archive
 * that holds no build-id cache entry is refused the same way.
 */
int mycl_archive__open(const char *path, const struct mycl_archive_opts *opts,
		       struct mycl_archive **out);
/* As above, from LEN bytes at BUF; NAME is used in messages. */
int mycl_archive__open_mem(const void *buf, size_t len, const char *name,
			   const struct mycl_archive_opts *opts, struct mycl_archive **out);
/* Frees A; profiles built with it must be freed first. */
void mycl_archive__close(struct mycl_archive *a);

const char *mycl_archive__path(const struct mycl_archive *a);
/* The build-id cache entries held: binaries, debug files, kallsyms, vdso. */
size_t mycl_archive__nr_files(const struct mycl_archive *a);
/* The entries skipped: of build-ids not in mycl_archive_opts.build_ids. */
size_t mycl_archive__nr_skipped(const struct mycl_archive *a);

struct mycl_archive_file {
	const char *member;		/* the name in the tarball */
	const char *build_id;		/* hex */
	const char *kind;		/* "elf", "debug", "vdso" or "kallsyms" */
	uint64_t size;
};
/* The Ith entry, in tarball order; NULL past the end. */
const struct mycl_archive_file *mycl_archive__file(const struct mycl_archive *a, size_t i);

#ifdef __cplusplus
}
#endif
#endif
