/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A perf archive read into memory.  The tarball streams through its decoder
 * (bzip2, zstd or none) into a tar reader that keeps only build-id cache
 * entries, PATH/BUILD-ID/{elf,debug,vdso,kallsyms}, each in a memfd; the
 * binary look-up (dso.c) opens them as /proc/self/fd/N like any file.
 * Nothing is written to disk; names in the tarball are never used as paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "archive.h"
#include "bunzip.h"

#define TAR_BLOCK 512
#define DEFAULT_MAX (1ull << 30)
/*
 * The tar stream inflates to at most 64 MiB plus this many times the file,
 * whatever its members claim: binaries and debug files compress 3 to 10 times.
 */
#define STREAM_RATIO 100
#define MAX_NAME 4096

struct entry {
	struct mycl_archive_file pub;
	int fd;
	char open_path[32];		/* /proc/self/fd/N */
	char hex[41];
	char *label;			/* ARCHIVE:MEMBER, for the summary */
	bool shared_fd;			/* a hard link to an earlier entry's memfd */
};

struct mycl_archive {
	char *path;
	struct entry *e;
	size_t nr, cap;
	size_t nr_skipped;		/* entries of build-ids not wanted */
};

enum tar_state { T_HEADER, T_DATA, T_PAD, T_END };
enum data_use { USE_SKIP, USE_FILE, USE_LONGNAME, USE_LONGLINK, USE_PAX };

struct tar {
	struct mycl_archive *a;
	const char *name;		/* the archive, for messages */
	char *err;
	size_t errlen;
	uint64_t max, kept;
	uint64_t stream_max;		/* the tar stream's bound: from the file's real size */
	const char *const *want;	/* build-ids kept; NULL: all */
	size_t nr_want;
	uint64_t at;			/* offset in the tar stream */
	enum tar_state st;
	uint8_t hdr[TAR_BLOCK];
	size_t hn;
	uint64_t left, pad;
	enum data_use use;
	int fd;				/* USE_FILE: where the data goes */
	char *buf;			/* USE_LONGNAME, USE_PAX: collected data */
	size_t bn;
	char *next_name, *next_link;	/* from a GNU long name or pax record */
	int zero_blocks;
	bool headers_seen;
	int rc;
};

#define tar_fail(t, ...) (snprintf((t)->err, (t)->errlen, __VA_ARGS__), MYCL_ERR_ARCHIVE)

static const char *const kinds[] = { "elf", "debug", "vdso", "kallsyms" };

/* Whether HEX's entries are kept: no list given, or in it. */
static bool wanted(const struct tar *t, const char *hex)
{
	if (!t->want)
		return true;
	for (size_t i = 0; i < t->nr_want; i++)
		if (t->want[i] && !strcasecmp(t->want[i], hex))
			return true;
	return false;
}

/* A build-id cache entry's name: ".../HEX/KIND"; HEX copied out, KIND one of kinds[]. */
static bool cache_entry(const char *name, char hex[41], const char **kind)
{
	const char *k = strrchr(name, '/'), *h;
	size_t hl;

	if (!k || k == name)
		return false;
	*kind = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(k + 1, kinds[i]))
			*kind = kinds[i];
	for (h = k; h > name && h[-1] != '/'; h--)
		;
	hl = (size_t)(k - h);
	if (!*kind || hl < 2 || hl > 40 || strspn(h, "0123456789abcdef") < hl)
		return false;
	/* ".build-id/XX/REST/KIND" (a tarball made with links followed): the id is XX and REST. */
	if (h - name >= 13 && h[-1] == '/' && h[-4] == '/' && !strncmp(h - 13, ".build-id/", 10) &&
	    (h - 13 == name || h[-14] == '/') && strspn(h - 3, "0123456789abcdef") >= 2 && hl <= 38) {
		memcpy(hex, h - 3, 2);
		memcpy(hex + 2, h, hl);
		hex[hl + 2] = '\0';
		return true;
	}
	if (hl % 2)
		return false;
	memcpy(hex, h, hl);
	hex[hl] = '\0';
	return true;
}

/* An octal field (NUL or space ended, leading spaces) or GNU's base-256; false when neither. */
static bool tar_num(const uint8_t *f, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (f[0] & 0x80) {
		if (f[0] != 0x80)
			return false;	/* negative or past 2^56 */
		for (i = 1; i < n; i++) {
			if (v >> 56)
				return false;
			v = v << 8 | f[i];
		}
		*out = v;
		return true;
	}
	while (i < n && f[i] == ' ')
		i++;
	for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 60)
			return false;
		v = v << 3 | (uint64_t)(f[i] - '0');
	}
	if (i < n && f[i] != ' ' && f[i] != '\0')
		return false;
	*out = v;
	return true;
}

static bool header_sum_ok(const uint8_t *h)
{
	uint64_t want;
	unsigned sum = 0;

	if (!tar_num(h + 148, 8, &want))
		return false;
	for (int i = 0; i < TAR_BLOCK; i++)
		sum += i >= 148 && i < 156 ? ' ' : h[i];
	return sum == want;
}

static char *field(const uint8_t *f, size_t n)
{
	return strndup((const char *)f, n);
}

static int add_entry(struct tar *t, char *member, const char *hex, const char *kind,
		     uint64_t size, int fd, bool shared)
{
	struct mycl_archive *a = t->a;
	struct entry *e;

	if (a->nr == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		struct entry *n = realloc(a->e, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		a->e = n;
		a->cap = cap;
	}
	e = &a->e[a->nr];
	memset(e, 0, sizeof(*e));
	e->pub.member = member;
	snprintf(e->hex, sizeof(e->hex), "%s", hex);	/* pub.build_id set once all are read */
	e->pub.kind = kind;
	e->pub.size = size;
	e->fd = fd;
	e->shared_fd = shared;
	snprintf(e->open_path, sizeof(e->open_path), "/proc/self/fd/%d", fd);
	if (asprintf(&e->label, "%s:%s", a->path, member) < 0)
		return -ENOMEM;
	a->nr++;
	return 0;
}

static int new_memfd(struct tar *t, const char *member)
{
	int fd = memfd_create("mycl-archive", MFD_CLOEXEC);

	if (fd < 0 && errno == EMFILE) {
		/* As perf does when it runs out: the soft limit up to the hard one, once. */
		struct rlimit rl;

		if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			if (!setrlimit(RLIMIT_NOFILE, &rl))
				fd = memfd_create("mycl-archive", MFD_CLOEXEC);
		}
	}
	if (fd < 0)
		return tar_fail(t, "%s: %s: cannot hold it in memory: %s", t->name, member,
				strerror(errno));
	return fd;
}

/* A header: what its data is, and where it goes. */
static int tar_header(struct tar *t)
{
	const uint8_t *h = t->hdr;
	uint64_t size;
	char type = (char)h[156], *name, *link = NULL, hex[41];
	const char *kind;
	int rc = 0;

	if (!memcmp(h, (const uint8_t[TAR_BLOCK]){ 0 }, TAR_BLOCK)) {
		if (++t->zero_blocks == 2 || !t->headers_seen)
			t->st = T_END;
		return 0;
	}
	t->zero_blocks = 0;
	if (!header_sum_ok(h) || !tar_num(h + 124, 12, &size))
		return t->headers_seen
			? tar_fail(t, "%s: tar header at byte %llu is corrupt", t->name,
				   (unsigned long long)t->at)
			: tar_fail(t, "%s: not a tar archive (perf archive writes a .tar.bz2)", t->name);
	t->headers_seen = true;
	t->left = size;
	t->pad = (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
	t->use = USE_SKIP;
	t->st = size ? T_DATA : T_HEADER;
	switch (type) {
	case 'L':
	case 'K':
	case 'x':
		if (size > MAX_NAME * 4)
			return tar_fail(t, "%s: %s record of %llu bytes at byte %llu", t->name,
					type == 'x' ? "pax" : "long name", (unsigned long long)size,
					(unsigned long long)t->at);
		t->use = type == 'L' ? USE_LONGNAME : type == 'K' ? USE_LONGLINK : USE_PAX;
		t->buf = malloc(size + 1);
		t->bn = 0;
		return t->buf ? 0 : -ENOMEM;
	default:
		break;
	}
	/* The entry's name: a long name or pax path before it, else ustar's prefix and name. */
	if (t->next_name) {
		name = t->next_name;
		t->next_name = NULL;
	} else if (!memcmp(h + 257, "ustar\0", 6) && h[345]) {
		if (asprintf(&name, "%.155s/%.100s", (const char *)h + 345, (const char *)h + 0) < 0)
			name = NULL;
	} else {
		name = field(h, 100);
	}
	if (t->next_link) {
		link = t->next_link;
		t->next_link = NULL;
	} else if (type == '1') {
		link = field(h + 157, 100);
	}
	if (!name || (type == '1' && !link)) {
		free(name);
		free(link);
		return -ENOMEM;
	}
	if ((type == '0' || type == '\0' || type == '7' || type == '1') &&
	    cache_entry(name, hex, &kind)) {
		if (!wanted(t, hex)) {
			t->a->nr_skipped++;
		} else if (type == '1') {
			/* A hard link: the same data as an earlier member. */
			for (size_t i = 0; i < t->a->nr; i++)
				if (!strcmp(t->a->e[i].pub.member, link)) {
					rc = add_entry(t, name, hex, kind, t->a->e[i].pub.size,
						       t->a->e[i].fd, true);
					name = rc ? name : NULL;
					break;
				}
		} else {
			if (size > t->max - t->kept) {
				rc = tar_fail(t, "%s: members inflate past %llu MiB (at %s): refused",
					      t->name, (unsigned long long)(t->max >> 20), name);
				free(name);
				free(link);
				return rc;
			}
			t->kept += size;
			t->fd = new_memfd(t, name);
			if (t->fd < 0) {
				rc = t->fd;
			} else {
				rc = add_entry(t, name, hex, kind, size, t->fd, false);
				if (rc)
					close(t->fd);
				else
					t->use = USE_FILE;
				name = rc ? name : NULL;
			}
		}
	}
	free(name);
	free(link);
	return rc;
}

/* pax records "LEN key=value\n": the path, when one is given. */
static void pax_path(struct tar *t)
{
	size_t i = 0;

	while (i < t->bn) {
		char *end;
		unsigned long len = strtoul(t->buf + i, &end, 10);
		char *kv = end + 1;

		if (end == t->buf + i || *end != ' ' || !len || len > t->bn - i)
			return;
		if (!strncmp(kv, "path=", 5) && t->buf[i + len - 1] == '\n') {
			free(t->next_name);
			t->next_name = strndup(kv + 5, (size_t)(t->buf + i + len - 1 - (kv + 5)));
		}
		i += len;
	}
}

static int tar_data_done(struct tar *t)
{
	if (t->buf)
		t->buf[t->bn] = '\0';
	switch (t->use) {
	case USE_LONGNAME:
		free(t->next_name);
		t->next_name = strndup(t->buf, t->bn);
		break;
	case USE_LONGLINK:
		free(t->next_link);
		t->next_link = strndup(t->buf, t->bn);
		break;
	case USE_PAX:
		pax_path(t);
		break;
	default:
		break;
	}
	free(t->buf);
	t->buf = NULL;
	t->use = USE_SKIP;
	t->st = t->pad ? T_PAD : T_HEADER;
	return 0;
}

static int write_all(struct tar *t, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(t->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return tar_fail(t, "%s: cannot hold a member in memory: %s", t->name,
					strerror(w < 0 ? errno : ENOSPC));
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The tar stream, in pieces of any size. */
static int tar_feed(const uint8_t *p, size_t n, void *ctx)
{
	struct tar *t = ctx;
	int rc;

	while (n && t->st != T_END) {
		size_t take;

		switch (t->st) {
		case T_HEADER:
			take = TAR_BLOCK - t->hn < n ? TAR_BLOCK - t->hn : n;
			memcpy(t->hdr + t->hn, p, take);
			t->hn += take;
			if (t->hn == TAR_BLOCK) {
				t->hn = 0;
				if ((rc = tar_header(t)))
					return rc;
				t->at += TAR_BLOCK;
			}
			break;
		case T_DATA:
			take = t->left < n ? (size_t)t->left : n;
			if (t->at + take > t->stream_max)	/* skipped members cost time, not memory */
				return tar_fail(t, "%s: the tarball inflates past %llu MiB, %d times "
						"the file plus 64 MiB: refused", t->name,
						(unsigned long long)(t->stream_max >> 20), STREAM_RATIO);
			if (t->use == USE_FILE && (rc = write_all(t, p, take)))
				return rc;
			if (t->buf) {
				memcpy(t->buf + t->bn, p, take);
				t->bn += take;
			}
			t->left -= take;
			t->at += take;
			if (!t->left && (rc = tar_data_done(t)))
				return rc;
			break;
		case T_PAD:
			take = t->pad < n ? (size_t)t->pad : n;
			t->pad -= take;
			t->at += take;
			if (!t->pad)
				t->st = T_HEADER;
			break;
		default:
			take = n;
			break;
		}
		p += take;
		n -= take;
	}
	return 0;
}

static int unzstd(const uint8_t *in, size_t len, struct tar *t)
{
	ZSTD_DCtx *z = ZSTD_createDCtx();
	size_t cap = ZSTD_DStreamOutSize(), ret = 1;
	uint8_t *out = malloc(cap);
	ZSTD_inBuffer ib = { in, len, 0 };
	int rc = 0;

	if (!z || !out) {
		ZSTD_freeDCtx(z);
		free(out);
		return -ENOMEM;
	}
	while (!rc && ib.pos < ib.size && t->st != T_END) {
		ZSTD_outBuffer ob = { out, cap, 0 };

		ret = ZSTD_decompressStream(z, &ob, &ib);
		if (ZSTD_isError(ret))
			rc = tar_fail(t, "%s: zstd: %s", t->name, ZSTD_getErrorName(ret));
		else
			rc = tar_feed(out, ob.pos, t);
		if (!rc && !ob.pos && ret && ib.pos == ib.size)
			break;
	}
	if (!rc && ret && t->st != T_END)
		rc = tar_fail(t, "%s: zstd data ends early", t->name);
	ZSTD_freeDCtx(z);
	free(out);
	return rc;
}

static void entry_free(struct entry *e)
{
	if (!e->shared_fd && e->fd >= 0)
		close(e->fd);
	free((char *)e->pub.member);
	free(e->label);
}

MYCL_API void mycl_archive__close(struct mycl_archive *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr; i++)
		entry_free(&a->e[i]);
	free(a->e);
	free(a->path);
	free(a);
}

MYCL_API int mycl_archive__open_mem(const void *buf, size_t len, const char *name,
				    const struct mycl_archive_opts *opts,
				    struct mycl_archive **out)
{
	const uint8_t *in = buf;
	char errbuf[1024] = "";
	struct tar t = { .name = name, .err = errbuf, .errlen = sizeof(errbuf), .fd = -1 };
	char detail[256] = "";
	int rc;

	error_clear();
	if (!OPTS_VALID(opts, mycl_archive_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	t.max = OPTS_GET(opts, max_bytes, 0);
	if (!t.max)
		t.max = DEFAULT_MAX;
	t.stream_max = (64ull << 20) + STREAM_RATIO * (uint64_t)len;
	t.want = OPTS_GET(opts, build_ids, NULL);
	t.nr_want = t.want ? OPTS_GET(opts, nr_build_ids, 0) : 0;
	t.a = calloc(1, sizeof(*t.a));
	if (!t.a || !(t.a->path = strdup(name))) {
		free(t.a);
		return -ENOMEM;
	}
	if (bunzip_magic(in, len)) {
		rc = bunzip(in, len, tar_feed, &t, detail, sizeof(detail));
		if (rc == MYCL_ERR_CORRUPT)
			rc = tar_fail(&t, "%s: bzip2: %s", name, detail);
	} else if (len >= 4 && in[0] == 0x28 && in[1] == 0xb5 && in[2] == 0x2f && in[3] == 0xfd) {
		rc = unzstd(in, len, &t);
	} else if (len >= 2 && in[0] == 0x1f && in[1] == 0x8b) {
		rc = tar_fail(&t, "%s: gzip-compressed; recompress it (zcat %s | bzip2 > "
			      "FILE.tar.bz2) or unpack it and pass --buildid-dir", name, name);
	} else if (len >= 6 && !memcmp(in, "\xfd" "7zXZ\0", 6)) {
		rc = tar_fail(&t, "%s: xz-compressed; recompress it (xzcat %s | bzip2 > "
			      "FILE.tar.bz2) or unpack it and pass --buildid-dir", name, name);
	} else {
		rc = tar_feed(in, len, &t);
	}
	if (!rc && t.st != T_END && !(t.st == T_HEADER && t.hn == 0 && t.headers_seen))
		rc = tar_fail(&t, "%s: the tarball ends inside %s at byte %llu: truncated?", name,
			      t.st == T_HEADER ? "a header" : "a member",
			      (unsigned long long)t.at);
	if (!rc && !t.headers_seen)
		rc = tar_fail(&t, "%s: empty tarball", name);
	if (!rc && !t.a->nr && !t.a->nr_skipped)
		rc = tar_fail(&t, "%s: no build-id cache entry (PATH/BUILD-ID/elf): not made by "
			      "perf archive?", name);
	free(t.buf);
	free(t.next_name);
	free(t.next_link);
	if (rc) {
		if (rc == -ENOMEM && !errbuf[0])
			snprintf(errbuf, sizeof(errbuf), "%s: out of memory", name);
		if (errbuf[0])
			error_set(rc, "%s", errbuf);
		mycl_archive__close(t.a);
		return rc;
	}
	for (size_t i = 0; i < t.a->nr; i++)
		t.a->e[i].pub.build_id = t.a->e[i].hex;
	*out = t.a;
	return 0;
}

MYCL_API int mycl_archive__open(const char *path, const struct mycl_archive_opts *opts,
				struct mycl_archive **out)
{
	struct stat st;
	void *map;
	int fd, rc;

	error_clear();
	if (!OPTS_VALID(opts, mycl_archive_opts))
		return MYCL_ERR_OPTS;
	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		error_set(rc, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		rc = S_ISDIR(st.st_mode) ? -EISDIR : MYCL_ERR_ARCHIVE;
		error_set(rc, "%s: not a regular file", path);
		return rc;
	}
	if (!st.st_size) {
		close(fd);
		error_set(MYCL_ERR_ARCHIVE, "%s: empty file", path);
		return MYCL_ERR_ARCHIVE;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		rc = -errno;
		error_set(rc, "%s: %s", path, strerror(errno));
		return rc;
	}
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	rc = mycl_archive__open_mem(map, (size_t)st.st_size, path, opts, out);
	munmap(map, (size_t)st.st_size);
	return rc;
}

MYCL_API const char *mycl_archive__path(const struct mycl_archive *a)
{
	return a->path;
}

MYCL_API size_t mycl_archive__nr_files(const struct mycl_archive *a)
{
	return a->nr;
}

MYCL_API size_t mycl_archive__nr_skipped(const struct mycl_archive *a)
{
	return a->nr_skipped;
}

MYCL_API const struct mycl_archive_file *mycl_archive__file(const struct mycl_archive *a,
							  size_t i)
{
	return i < a->nr ? &a->e[i].pub : NULL;
}

const char *archive_find(const struct mycl_archive *a, const char *hex, const char *kind)
{
	for (size_t i = 0; a && i < a->nr; i++)
		if (!strcmp(a->e[i].hex, hex) && !strcmp(a->e[i].pub.kind, kind))
			return a->e[i].open_path;
	return NULL;
}

const char *archive_label(const struct mycl_archive *a, const char *open_path)
{
	for (size_t i = 0; a && open_path && i < a->nr; i++)
		if (!strcmp(a->e[i].open_path, open_path))
			return a->e[i].label;
	return NULL;
}
