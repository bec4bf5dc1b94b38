/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What to install for a binary's missing symbols: the Debian package that
 * owns the file (from dpkg's file lists) and its debug package.  Only asked
 * for binaries that left samples without a symbol, and all of a report's
 * binaries in one pass: the lists whose package name shares the start of a
 * binary's name are read first (mariadbd is in mariadb-server-core's list,
 * libluajit-5.1.so.2 in libluajit2-5.1-2's), the others only while a binary
 * is still without an owner.  The name only orders the reading; the owner is
 * the package whose list holds the path.  Files outside the places Debian's
 * packages install into (/usr but /usr/local, /bin, /sbin, /lib*, /opt) read
 * no list at all.
 */
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pkghint.h"

#define DPKG_INFO "/var/lib/dpkg/info"
#define STEM_LEN 4

struct wanted {
	const char *path;	/* as recorded */
	char *needle;		/* "\n/usr/bin/dash\n" */
	char *alt;		/* "\n/bin/dash\n": dpkg lists /usr-merged files either way */
	char stem[STEM_LEN + 1];/* the start of the name, without "lib" */
	char *pkg;		/* the owner, once found */
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

static void wanted_init(struct wanted *w, const char *path)
{
	const char *base = strrchr(path, '/') + 1;
	size_t n = 0;

	memset(w, 0, sizeof(*w));
	w->path = path;
	/* "libluajit-5.1.so" gives "luaj", "libc.so.6" "libc" (two letters would match too much) */
	if (!strncmp(base, "lib", 3) && strspn(base + 3, "abcdefghijklmnopqrstuvwxyz") >= 3)
		base += 3;
	while (n < STEM_LEN && base[n] && !strchr(".-_+0123456789", base[n]))
		n++;
	if (n < 3)
		n = 0;
	memcpy(w->stem, base, n);
	w->stem[n] = '\0';
	if (asprintf(&w->needle, "\n%s\n", path) < 0) {
		w->needle = NULL;
		return;
	}
	if ((!strncmp(path, "/usr/", 5) && asprintf(&w->alt, "\n%s\n", path + 4) < 0) ||
	    (strncmp(path, "/usr/", 5) && asprintf(&w->alt, "\n/usr%s\n", path) < 0))
		w->alt = NULL;
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
	(*buf)[0] = '\n';
	while (len + 2 < *cap && (r = read(fd, *buf + len, *cap - len - 2)) > 0)
		len += (size_t)r;
	close(fd);
	if ((*buf)[len - 1] != '\n')
		(*buf)[len++] = '\n';
	(*buf)[len] = '\0';
	return len;
}

/* Reads one package's list; gives it to every wanted path it holds.  Returns how many it found. */
static size_t read_list(const char *name, struct wanted *w, size_t n, char **buf, size_t *cap)
{
	char file[sizeof(DPKG_INFO) + 256 + 2];
	/* The package: "dash" of "dash.list", "libc6" of "libc6:amd64.list". */
	size_t plen = strcspn(name, ":") < strlen(name) - 5 ? strcspn(name, ":") : strlen(name) - 5;
	size_t len, found = 0;

	snprintf(file, sizeof(file), "%s/%s", DPKG_INFO, name);
	len = slurp(file, buf, cap);
	if (!len)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (w[i].pkg || !w[i].needle)
			continue;
		if (memmem(*buf, len, w[i].needle, strlen(w[i].needle)) ||
		    (w[i].alt && memmem(*buf, len, w[i].alt, strlen(w[i].alt)))) {
			w[i].pkg = strndup(name, plen);
			found += w[i].pkg != NULL;
		}
	}
	return found;
}

static bool first_pass(const char *name, const struct wanted *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!w[i].pkg && w[i].stem[0] && strstr(name, w[i].stem))
			return true;
	return false;
}

static void find_owners(struct wanted *w, size_t n)
{
	size_t left = 0, nr_lists = 0, cap = 0;
	char **lists = NULL, *buf = NULL;
	struct dirent *de;
	DIR *d;

	for (size_t i = 0; i < n; i++)
		left += w[i].needle != NULL;
	if (!left || !(d = opendir(DPKG_INFO)))
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **nl;

		if (len < 6 || len > 255 || strcmp(de->d_name + len - 5, ".list"))
			continue;
		nl = realloc(lists, (nr_lists + 1) * sizeof(*lists));
		if (!nl)
			break;
		lists = nl;
		if ((lists[nr_lists] = strdup(de->d_name)))
			nr_lists++;
	}
	closedir(d);
	/* Pass 0 reads the lists the names point at, pass 1 the rest. */
	for (int pass = 0; pass < 2 && left; pass++)
		for (size_t l = 0; l < nr_lists && left; l++)
			if (first_pass(lists[l], w, n) == (pass == 0))
				left -= read_list(lists[l], w, n, &buf, &cap);
	for (size_t l = 0; l < nr_lists; l++)
		free(lists[l]);
	free(lists);
	free(buf);
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

void pkg_debug_hints(const char *const *paths, size_t n, char **hints)
{
	struct wanted *w = calloc(n ? n : 1, sizeof(*w));

	for (size_t i = 0; i < n; i++)
		hints[i] = NULL;
	if (!w)
		return;
	for (size_t i = 0; i < n; i++)
		if (paths[i] && paths[i][0] == '/' && dpkg_place(paths[i]))
			wanted_init(&w[i], paths[i]);
	find_owners(w, n);
	for (size_t i = 0; i < n; i++) {
		if (w[i].pkg)
			hints[i] = hint_for(w[i].pkg);
		free(w[i].pkg);
		free(w[i].needle);
		free(w[i].alt);
	}
	free(w);
}

char *pkg_debug_hint(const char *path)
{
	char *hint;

	pkg_debug_hints(&path, 1, &hint);
	return hint;
}
