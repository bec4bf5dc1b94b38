/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fuzz input as a perf.data the library opens: a memfd holding the bytes. */
#ifndef MYCL_FUZZ_INPUT_H
#define MYCL_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "mycl/mycl.h"

/*
 * 0 and *PD set, or nonzero; the memfd is the library's either way.
 * READ_AHEAD: enum mycl_read_ahead.
 */
static inline int fuzz_open_mode(const uint8_t *data, size_t size, int read_ahead,
				 struct mycl_perf_data **pd)
{
	MYCL_OPTS(mycl_perf_data_opts, o, .max_queue_bytes = 1 << 20, .read_ahead = read_ahead);
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	return mycl_perf_data__open_fd(fd, "fuzz", &o, pd);
}

/*
 * The input as a file for readers that open a path: /tmp/mycl-fuzz-NAME-PID
 * (one per fuzzing process) into PATH (LEN bytes).  0, or -1.
 */
static inline int fuzz_file(const char *name, const uint8_t *data, size_t size, char *path,
			    size_t len)
{
	FILE *f;

	snprintf(path, len, "/tmp/mycl-fuzz-%s-%d", name, (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* Writes seed DIR/STEM-N.bin, the NR parts of PARTS (pointer, length) one after another. */
struct fuzz_part {
	const void *p;
	size_t len;
};

static inline void fuzz_write_seed(const char *dir, const char *stem, int n,
				   const struct fuzz_part *parts, size_t nr)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%d.bin", dir, stem, n);
	f = fopen(path, "w");
	if (!f)
		return;
	for (size_t i = 0; i < nr; i++)
		fwrite(parts[i].p, 1, parts[i].len, f);
	fclose(f);
}

static inline int fuzz_open(const uint8_t *data, size_t size, struct mycl_perf_data **pd)
{
	return fuzz_open_mode(data, size, MYCL_READ_AHEAD_OFF, pd);
}

#endif
