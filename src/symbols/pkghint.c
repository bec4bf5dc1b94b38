/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What to install for a binary's missing symbols: the Debian package that
 * owns the file (from dpkg's file lists) and its debug package.  Only asked
 * for binaries that left samples without a symbol, and all of a report's
 * binaries in one pass.  The owner is the package whose list holds the path;
 * the names only order the reading: each binary's lists are read by how much
 * of the package's name its file name shares (the longest common run:
 * mariadbd is in mariadb-server-core's list, libdw-0.188.so in libdw1's,
 * x86_64-linux-gnu-readelf in binutils-x86-64-linux-gnu's), a library's
 * package as Debian's policy names it (libc.so.6: libc6) first, and every
 * other list only while a binary is still without an owner.  Files outside
 * the places Debian's packages install into (/usr but /usr/local, /bin,
 * /sbin, /lib*, /opt) read no list at all.
 */
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "pkghint.h"

#define DPKG_INFO "/var/lib/dpkg/info"
#define NAME_MAX_CMP 64		/* names compared up to this many bytes */

struct wanted {
	const char *path;	/* as recorded */
	char *needle;		/* "\n/usr/bin/dash\n" */
	char *alt;		/* "\n/bin/dash\n": dpkg lists /usr-merged files either way */
	char base[NAME_MAX_CMP + 1];	/* the file name, '_' as '-' */
	char policy[NAME_MAX_CMP + 1];	/* libfoo.so.1: "libfoo1"; "" when no library */
	uint64_t trigrams[8];	/* of BASE, hashed: a list shares none, no run of 3 either */
	char *pkg;		/* the owner, once found */
};

struct list {
	char *file;		/* "libc6:amd64.list" */
	char name[NAME_MAX_CMP + 1];	/* "libc6" */
	bool read;
};

struct cand {
	unsigned int score;	/* higher first */
	size_t list;
};

static bool dpkg_place(const char *path)
{
	static const char *const places[] = { "/usr/", "/bin/", "/sbin/", "/lib", "/opt/" };

	if (!strncmp(path, "/usr/local/", 11))
		return false;
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		if (!strncmp(path, places[i], strlen(places[i])))
			return true;
	return false;
}

static unsigned int trigram_bit(const char *s)
{
	uint32_t v = (uint32_t)(unsigned char)s[0] << 16 | (uint32_t)(unsigned char)s[1] << 8 |
		     (unsigned char)s[2];

	return (v * 2654435761u) >> 23;		/* 0..511 */
}

/*
 * Debian's name for the package of a shared library (policy 8.1): libfoo.so.1 gives
 * libfoo1, libfoo2.0.so.3 libfoo2.0-3 (a name ending in a digit takes a '-').
 */
static void policy_name(const char *base, char *out)
{
	const char *so = strstr(base, ".so.");
	size_t n;

	out[0] = '\0';
	if (strncmp(base, "lib", 3) || !so || so == base + 3)
		return;
	n = (size_t)(so - base);
	if (n + 2 + strlen(so + 4) > NAME_MAX_CMP)
		return;
	/* the major version: up to the next '.' */
	snprintf(out, NAME_MAX_CMP + 1, "%.*s%s%.*s", (int)n, base,
		 base[n - 1] >= '0' && base[n - 1] <= '9' ? "-" : "",
		 (int)strcspn(so + 4, "."), so + 4);
	for (char *p = out; *p; p++)
		if (*p == '_')
			*p = '-';
}

static void wanted_init(struct wanted *w, const char *path)
{
	const char *base = strrchr(path, '/') + 1;

	memset(w, 0, sizeof(*w));
	w->path = path;
	snprintf(w->base, sizeof(w->base), "%s", base);
	for (char *p = w->base; *p; p++)
		if (*p == '_')
			*p = '-';
	/* "lib" starts most packages' names: it points at none */
	for (size_t i = strncmp(w->base, "lib", 3) ? 0 : 1; i + 2 < strlen(w->base); i++) {
		unsigned int b = trigram_bit(w->base + i);

		w->trigrams[b / 64] |= 1ULL << (b % 64);
	}
	policy_name(base, w->policy);
	if (asprintf(&w->needle, "\n%s\n", path) < 0) {
		w->needle = NULL;
		return;
	}
	if ((!strncmp(path, "/usr/", 5) && asprintf(&w->alt, "\n%s\n", path + 4) < 0) ||
	    (strncmp(path, "/usr/", 5) && asprintf(&w->alt, "\n/usr%s\n", path) < 0))
		w->alt = NULL;
}

/* The longest run of bytes A and B have in common. */
static unsigned int common_run(const char *a, const char *b)
{
	uint8_t row[2][NAME_MAX_CMP + 1] = { { 0 } };
	size_t na = strlen(a), nb = strlen(b);
	unsigned int best = 0;

	for (size_t i = 1; i <= na; i++) {
		uint8_t *cur = row[i & 1], *prev = row[(i - 1) & 1];

		cur[0] = 0;
		for (size_t j = 1; j <= nb; j++) {
			cur[j] = a[i - 1] == b[j - 1] ? (uint8_t)(prev[j - 1] + 1) : 0;
			if (cur[j] > best)
				best = cur[j];
		}
	}
	return best;
}

/*
 * How strongly W's file name points at package NAME: the policy name outright,
 * else the longest run of bytes they have in common, looked for when they
 * share two runs of three (beyond a leading "lib"), ties to the package whose
 * name is more of it (libdw1 before libdw-dev); 0 when they share less.
 */
static unsigned int score(const struct wanted *w, const char *name)
{
	size_t len = strlen(name);
	unsigned int shared = 0;

	if (w->policy[0] && !strcmp(w->policy, name))
		return ~0u;
	for (size_t i = strncmp(name, "lib", 3) ? 0 : 1; i + 2 < len && shared < 2; i++) {
		unsigned int b = trigram_bit(name + i);

		shared += w->trigrams[b / 64] >> (b % 64) & 1;
	}
	if (shared < 2)
		return 0;
	return common_run(w->base, name) << 16 | (unsigned int)(0xffff - (len > 0xffff ? 0xffff : len));
}

/* Whole file into *buf (grown as needed) behind a '\n', so every line is "\n...\n". */
static size_t slurp(const char *file, char **buf, size_t *cap)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t len = 1;
	ssize_t r;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && (size_t)st.st_size + 3 > *cap) {
		char *nb = realloc(*buf, (size_t)st.st_size + 4096);

		if (!nb) {
			close(fd);
			return 0;
		}
		*buf = nb;
		*cap = (size_t)st.st_size + 4096;
	}
	if (!*cap) {
		close(fd);
		return 0;
	}
	(*buf)[0] = '\n';
	while (len + 2 < *cap && (r = read(fd, *buf + len, *cap - len - 2)) > 0)
		len += (size_t)r;
	close(fd);
	if ((*buf)[len - 1] != '\n')
		(*buf)[len++] = '\n';
	(*buf)[len] = '\0';
	return len;
}

struct search {
	const char *dir;
	struct wanted *w;
	size_t n, left;
	struct list *lists;
	size_t nr_lists;
	char *buf;
	size_t cap;
	size_t nr_read;
};

/* Reads list L once; gives it to every wanted path it holds. */
static void read_list(struct search *s, struct list *l)
{
	char file[PATH_MAX];
	size_t len;

	if (l->read || !s->left)
		return;
	l->read = true;
	s->nr_read++;
	if ((size_t)snprintf(file, sizeof(file), "%s/%s", s->dir, l->file) >= sizeof(file))
		return;
	len = slurp(file, &s->buf, &s->cap);
	if (!len)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct wanted *w = &s->w[i];

		if (w->pkg || !w->needle)
			continue;
		if (memmem(s->buf, len, w->needle, strlen(w->needle)) ||
		    (w->alt && memmem(s->buf, len, w->alt, strlen(w->alt)))) {
			w->pkg = strdup(l->name);
			s->left -= w->pkg != NULL;
		}
	}
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->list < y->list ? -1 : x->list > y->list;
}

/* The lists W's name points at, best first, until W has its owner. */
static void read_pointed(struct search *s, struct wanted *w)
{
	struct cand *c = malloc(s->nr_lists * sizeof(*c));
	size_t nc = 0;

	if (!c)
		return;
	for (size_t l = 0; l < s->nr_lists; l++) {
		unsigned int sc = s->lists[l].read ? 0 : score(w, s->lists[l].name);

		if (sc)
			c[nc++] = (struct cand){ sc, l };
	}
	sort_array(c, nc, sizeof(*c), cand_cmp);
	for (size_t i = 0; i < nc && !w->pkg && s->left; i++)
		read_list(s, &s->lists[c[i].list]);
	free(c);
}

static bool add_list(struct search *s, size_t *cap, const char *file)
{
	size_t len = strlen(file), plen;
	struct list *l;

	if (len < 6 || len > 255 || strcmp(file + len - 5, ".list"))
		return true;
	if (ARRAY_GROW(s->lists, *cap, s->nr_lists + 1))
		return false;
	l = &s->lists[s->nr_lists];
	memset(l, 0, sizeof(*l));
	if (!(l->file = strdup(file)))
		return false;
	/* The package: "dash" of "dash.list", "libc6" of "libc6:amd64.list". */
	plen = strcspn(file, ":");
	if (plen > len - 5)
		plen = len - 5;
	snprintf(l->name, sizeof(l->name), "%.*s", (int)plen, file);
	s->nr_lists++;
	return true;
}

static void find_owners(struct search *s)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	for (size_t i = 0; i < s->n; i++)
		s->left += s->w[i].needle != NULL;
	if (!s->left || !(d = opendir(s->dir)))
		return;
	while ((de = readdir(d)))
		if (!add_list(s, &cap, de->d_name))
			break;
	closedir(d);
	for (size_t i = 0; i < s->n && s->left; i++)
		if (s->w[i].needle && !s->w[i].pkg)
			read_pointed(s, &s->w[i]);
	for (size_t l = 0; l < s->nr_lists && s->left; l++)
		read_list(s, &s->lists[l]);
	for (size_t l = 0; l < s->nr_lists; l++)
		free(s->lists[l].file);
	free(s->lists);
	free(s->buf);
}

static char *hint_for(const char *pkg)
{
	char *hint = NULL;
	int n;

	if (!strcmp(pkg, "libc6") || !strcmp(pkg, "libc6-i386"))
		n = asprintf(&hint, "apt install libc6-dbg");
	else
		n = asprintf(&hint, "apt install %s-dbgsym (Debian's debug archive, "
			     "bookworm-debug) or debuginfod", pkg);
	return n < 0 ? NULL : hint;
}

size_t pkg_debug_hints_in(const char *dir, const char *const *paths, size_t n, char **hints)
{
	struct wanted *w = calloc(n ? n : 1, sizeof(*w));
	struct search s = { .dir = dir, .w = w, .n = n };

	for (size_t i = 0; i < n; i++)
		hints[i] = NULL;
	if (!w)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (paths[i] && paths[i][0] == '/' && dpkg_place(paths[i]))
			wanted_init(&w[i], paths[i]);
	find_owners(&s);
	for (size_t i = 0; i < n; i++) {
		if (w[i].pkg)
			hints[i] = hint_for(w[i].pkg);
		free(w[i].pkg);
		free(w[i].needle);
		free(w[i].alt);
	}
	free(w);
	return s.nr_read;
}

void pkg_debug_hints(const char *const *paths, size_t n, char **hints)
{
	pkg_debug_hints_in(DPKG_INFO, paths, n, hints);
}

char *pkg_debug_hint(const char *path)
{
	char *hint;

	pkg_debug_hints(&path, 1, &hint);
	return hint;
}
