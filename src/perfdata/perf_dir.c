/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A directory `perf record --threads` writes: a file named "data" with the
 * header, the attrs, the features (DIR_FORMAT among them) and the records
 * perf synthesized, and one file "data.N" of bare records for each of its
 * writer threads (from offset 0, no header).  Opening one here: the "data"
 * file becomes the file read, the data.N files are listed and opened for
 * the record loop (perf_read.c), which merges them by time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata_priv.h"

/* Data files past this many are refused: each is open while the records merge. */
#define MAX_DIR_FILES 4096

/* N when NAME is "data.N" (decimal digits only, no leading zero but "0"), else -1. */
static long data_file_number(const char *name)
{
	long n = 0;
	const char *p;

	if (strncmp(name, "data.", 5) || !name[5] || (name[5] == '0' && name[6]))
		return -1;
	for (p = name + 5; *p; p++) {
		if (*p < '0' || *p > '9' || n > 1000000)
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n;
}

MYCL_API bool mycl_perf_data__dir_member(const char *name)
{
	return name && (!strcmp(name, "data") || data_file_number(name) >= 0);
}

static int file_cmp(const void *a, const void *b)
{
	const struct dir_file *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

/* Opens NAME in DFD for reading when it is a regular file (a FIFO would block). */
static int open_regular_at(int dfd, const char *name, struct stat *sb)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, sb) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(sb->st_mode)) {
		close(fd);
		return -EINVAL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

static const char *kind_of(const struct stat *sb)
{
	return S_ISDIR(sb->st_mode) ? "a directory" : S_ISFIFO(sb->st_mode) ? "a FIFO" :
	       S_ISSOCK(sb->st_mode) ? "a socket" : S_ISCHR(sb->st_mode) ? "a character device" :
	       S_ISBLK(sb->st_mode) ? "a block device" : "not a regular file";
}

static int list_files(struct mycl_perf_data *pd, int dfd)
{
	struct rlimit rl;
	size_t cap = 0, room = MAX_DIR_FILES;
	struct dirent *de;
	DIR *d;
	int fd2 = dup(dfd), err = 0;

	if (fd2 < 0)
		return pd_error(pd, -errno, "cannot list the directory: %s", strerror(errno));
	d = fdopendir(fd2);
	if (!d) {
		err = -errno;
		close(fd2);
		return pd_error(pd, err, "cannot list the directory: %s", strerror(-err));
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < MAX_DIR_FILES + 64)
		room = rl.rlim_cur > 64 ? (size_t)rl.rlim_cur - 64 : 0;
	while ((de = readdir(d))) {
		long n = data_file_number(de->d_name);
		struct dir_file *f;

		if (n < 0)
			continue;
		if (pd->nr_dir_files >= room) {
			err = pd_error(pd, MYCL_ERR_UNSUPPORTED, "holds more than %zu data.N files, "
				       "more than can be open at once here%s", room,
				       room < MAX_DIR_FILES ? " (raise the limit: ulimit -n)" : "");
			break;
		}
		if (ARRAY_GROW(pd->dir_files, cap, pd->nr_dir_files + 1)) {
			err = -ENOMEM;
			break;
		}
		f = &pd->dir_files[pd->nr_dir_files];
		*f = (struct dir_file){ .number = n, .fd = -1 };
		if (asprintf(&f->path, "%s/%s", pd->path, de->d_name) < 0) {
			f->path = NULL;
			err = -ENOMEM;
			break;
		}
		pd->nr_dir_files++;
	}
	closedir(d);
	if (err)
		return err;
	qsort(pd->dir_files, pd->nr_dir_files, sizeof(*pd->dir_files), file_cmp);
	for (size_t i = 0; i < pd->nr_dir_files; i++) {
		struct dir_file *f = &pd->dir_files[i];
		const char *base = strrchr(f->path, '/') + 1;
		struct stat sb;
		int fd = open_regular_at(dfd, base, &sb);

		if (fd == -EINVAL)
			return pd_error(pd, MYCL_ERR_CORRUPT, "%s is %s, not a file of records",
					base, kind_of(&sb));
		if (fd < 0)
			return pd_error(pd, fd, "cannot open %s: %s", base, strerror(-fd));
		f->fd = fd;
		f->size = (uint64_t)sb.st_size;
		pd->info.data_files_size += f->size;
	}
	pd->info.nr_data_files = (uint32_t)pd->nr_dir_files;
	return 0;
}

int pd_dir_open(struct mycl_perf_data *pd)
{
	int dfd = pd->fd, fd, err;
	struct stat sb;

	fd = open_regular_at(dfd, "data", &sb);
	if (fd == -ENOENT)
		return pd_error(pd, -EISDIR, "is a directory, and not one perf record --threads "
				"writes (no file named 'data' in it)");
	if (fd == -EINVAL)
		return pd_error(pd, -EISDIR, "is a directory whose 'data' is %s, not the "
				"header file of perf record --threads", kind_of(&sb));
	if (fd < 0)
		return pd_error(pd, fd, "cannot open its 'data' file: %s", strerror(-fd));
	err = list_files(pd, dfd);
	close(dfd);
	pd->fd = fd;
	pd->st.fd = fd;
	pd->is_dir = true;
	return err;
}

void pd_dir_close(struct mycl_perf_data *pd)
{
	for (size_t i = 0; i < pd->nr_dir_files; i++) {
		if (pd->dir_files[i].fd >= 0)
			close(pd->dir_files[i].fd);
		free(pd->dir_files[i].path);
	}
	free(pd->dir_files);
	pd->dir_files = NULL;
	pd->nr_dir_files = 0;
}
