/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for --archive: any bytes as a perf archive (bzip2, zstd or
 * plain tar; ustar, GNU long names, pax), members kept in memfds under a
 * 16 MiB bound; then each kept member found by build-id and read back as the
 * binary look-up does.  Seeded with small archives (regress/archive) and the
 * fixture's ledger.tar.bz2.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "archive.h"
#include "mycl/mycl.h"

static uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	MYCL_OPTS(mycl_archive_opts, o, .max_bytes = 16 << 20);
	struct mycl_archive *a;
	const struct mycl_archive_file *f;
	int rc = mycl_archive__open_mem(data, size, "fuzz", &o, &a);

	if (rc) {
		sink += strlen(mycl_errmsg(rc));	/* the words made, read */
		return 0;
	}
	for (size_t i = 0; (f = mycl_archive__file(a, i)); i++) {
		const char *p = archive_find(a, f->build_id, f->kind);
		uint8_t buf[64];
		int fd = p ? open(p, O_RDONLY | O_CLOEXEC) : -1;

		if (fd >= 0) {
			ssize_t n = read(fd, buf, sizeof(buf));

			sink += n > 0 ? buf[0] + (uint64_t)n : 0;
			close(fd);
		}
		sink += strlen(f->member) + f->size + (archive_label(a, p) != NULL);
	}
	mycl_archive__close(a);
	return 0;
}
