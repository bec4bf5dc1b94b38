/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Streams that escape control characters on their way out.  Names in a
 * recording (comm, file names, symbols, DWARF strings) are the recording's
 * bytes: an ESC or a CSI in one must not reach the terminal, nor a
 * direction override that shows text in another order than it is.  Every
 * byte below 0x20 but newline and tab, DEL, and a byte that starts no
 * well-formed UTF-8 sequence (a lone 0x9b, an 8-bit CSI) are written as
 * \xNN; the C1 controls (U+0080-U+009F) and the bidirectional controls
 * (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) as \uNNNN.  The
 * reports' own output has none, and JSON strings already escape them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"

struct esc {
	FILE *to;
	bool close_to;
	unsigned char held[4];	/* a sequence the last write cut short */
	size_t nr_held;
};

static bool plain(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t';
}

/* The length of the UTF-8 sequence lead byte C starts, or 0. */
static size_t seq_len(unsigned char c)
{
	return c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
}

/* The code point of the N-byte sequence at S, or -1 when it is not well formed. */
static long code_point(const unsigned char *s, size_t n)
{
	long cp = s[0] & (0x7f >> n);

	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	return cp;
}

static bool escaped(long cp)
{
	return cp <= 0x9f || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Writes the N bytes at S escaped; the bytes of a sequence cut short at the end: how many. */
static size_t put(FILE *to, const unsigned char *s, size_t n, bool last)
{
	size_t i = 0;

	while (i < n) {
		size_t k = i, len;
		long cp;

		while (k < n && plain(s[k]))
			k++;
		if (k > i)
			fwrite(s + i, 1, k - i, to);
		if ((i = k) == n)
			break;
		len = seq_len(s[i]);
		if (len && i + len > n && !last) {
			bool cont = true;

			for (size_t j = i + 1; j < n; j++)
				cont &= (s[j] & 0xc0) == 0x80;
			if (cont)
				return n - i;		/* (the rest comes with the next write) */
		}
		if (!len || i + len > n || (cp = code_point(s + i, len)) < 0) {
			fprintf(to, "\\x%02x", s[i++]);
		} else if (escaped(cp)) {
			fprintf(to, "\\u%04lx", cp);
			i += len;
		} else {
			fwrite(s + i, 1, len, to);
			i += len;
		}
	}
	return 0;
}

static ssize_t esc_write(void *cookie, const char *buf, size_t size)
{
	struct esc *e = cookie;
	const unsigned char *p = (const unsigned char *)buf;
	size_t n = size, cut;

	if (e->nr_held) {
		/* the sequence held, completed from this write's first bytes */
		unsigned char s[8];
		size_t k = e->nr_held, want = seq_len(e->held[0]);

		memcpy(s, e->held, k);
		while (k < want && n && (*p & 0xc0) == 0x80) {
			s[k++] = *p++;
			n--;
		}
		e->nr_held = 0;
		/* (still short with bytes left: a byte that continues nothing came, so no sequence) */
		cut = put(e->to, s, k, n > 0);
		if (cut) {
			memcpy(e->held, s + k - cut, cut);
			e->nr_held = cut;
		}
	}
	cut = put(e->to, p, n, false);
	if (cut) {
		memcpy(e->held, p + n - cut, cut);
		e->nr_held = cut;
	}
	/* Passed on at once: a failed write shows in the caller's fflush. */
	return fflush(e->to) || ferror(e->to) ? -1 : (ssize_t)size;
}

static int esc_close(void *cookie)
{
	struct esc *e = cookie;
	int rc;

	put(e->to, e->held, e->nr_held, true);
	rc = fflush(e->to);
	if (e->close_to && fclose(e->to))
		rc = EOF;
	free(e);
	return rc ? EOF : 0;
}

FILE *cli_escaping(FILE *to, bool close_to)
{
	struct esc *e = calloc(1, sizeof(*e));
	FILE *f;

	if (!e)
		return NULL;
	e->to = to;
	e->close_to = close_to;
	f = fopencookie(e, "w", (cookie_io_functions_t){ .write = esc_write, .close = esc_close });
	if (!f) {
		free(e);
		return NULL;
	}
	return f;
}

static FILE *std_out, *std_err;

static void close_std(void)
{
	if (std_out)
		fclose(std_out);
	if (std_err)
		fclose(std_err);
	std_out = std_err = NULL;
}

void cli_escape_std(void)
{
	FILE *o = cli_escaping(stdout, false), *e = cli_escaping(stderr, false);

	if (o) {
		std_out = stdout = o;
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	}
	if (e) {
		std_err = stderr = e;
		setvbuf(stderr, NULL, _IOLBF, 1024);
	}
	atexit(close_std);
}

/* The outputs cli_create() is writing to temporaries, until cli_commit(). */
#define MAX_PENDING 8
static struct pending {
	char *path, *tmp;
} pending[MAX_PENDING];

static void drop_pending(void)
{
	for (size_t i = 0; i < MAX_PENDING; i++)
		if (pending[i].tmp) {
			unlink(pending[i].tmp);
			free(pending[i].tmp);
			free(pending[i].path);
			pending[i].tmp = pending[i].path = NULL;
		}
}

FILE *cli_create(const char *path, const char *mode)
{
	static bool registered;
	struct pending *p = NULL;
	const char *base = strrchr(path, '/');
	struct stat st;
	bool exists = !lstat(path, &st);
	mode_t mask;
	FILE *f;
	int fd;

	for (size_t i = 0; i < MAX_PENDING && !p; i++)
		if (!pending[i].tmp)
			p = &pending[i];
	if ((exists && !S_ISREG(st.st_mode)) || !p)
		return fopen(path, mode);
	base = base ? base + 1 : path;
	p->tmp = malloc(strlen(path) + 16);
	p->path = strdup(path);
	if (!p->tmp || !p->path) {
		free(p->tmp);
		free(p->path);
		p->tmp = p->path = NULL;
		errno = ENOMEM;
		return NULL;
	}
	sprintf(p->tmp, "%.*s.%s.XXXXXX", (int)(base - path), path, base);
	fd = mkstemp(p->tmp);
	if (fd < 0) {
		/* (a name too long for a temporary's: written in place, as before) */
		free(p->tmp);
		free(p->path);
		p->tmp = p->path = NULL;
		return errno == ENAMETOOLONG ? fopen(path, mode) : NULL;
	}
	if (!registered)
		atexit(drop_pending);
	registered = true;
	/* the mode the file had, or a new file's */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) || !(f = fdopen(fd, mode))) {
		int e = errno;

		close(fd);
		cli_commit(path, false);
		errno = e;
		return NULL;
	}
	return f;
}

int cli_commit(const char *path, bool ok)
{
	int err = 0;

	for (size_t i = 0; path && i < MAX_PENDING; i++) {
		struct pending *p = &pending[i];

		if (!p->tmp || strcmp(p->path, path))
			continue;
		if (ok && rename(p->tmp, p->path))
			err = -errno;
		if (!ok || err)
			unlink(p->tmp);
		free(p->tmp);
		free(p->path);
		p->tmp = p->path = NULL;
		break;
	}
	return err;
}

void cli_abandon(FILE *f, const char *path)
{
	if (f == stdout) {
		fflush(f);
		return;
	}
	fclose(f);
	cli_commit(path, false);
}

FILE *cli_open_output(const char *path)
{
	FILE *f = cli_create(path, "w"), *e;

	if (!f)
		return NULL;
	e = cli_escaping(f, true);
	if (!e)
		fclose(f);
	return e;
}
