/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What to install for a binary's missing symbols: the Debian package that
 * owns the file (from dpkg's file lists) and its debug package.  Only asked
 * for binaries that left samples without a symbol.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pkghint.h"

#define DPKG_INFO "/var/lib/dpkg/info"

static bool list_has(const char *file, const char *a, const char *b)
{
	FILE *f = fopen(file, "r");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, a) || (b && !strcmp(line, b));
	}
	fclose(f);
	return found;
}

/* The package owning PATH ("/usr/bin/dash" is listed as "/bin/dash"), or NULL. */
static char *owner(const char *path)
{
	const char *alt = NULL;
	char altbuf[4096], file[4352];
	struct dirent *de;
	char *pkg = NULL;
	DIR *d;

	if (!strncmp(path, "/usr/", 5))
		alt = path + 4;
	else if (path[0] == '/' && snprintf(altbuf, sizeof(altbuf), "/usr%s", path) < (int)sizeof(altbuf))
		alt = altbuf;
	d = opendir(DPKG_INFO);
	if (!d)
		return NULL;
	while (!pkg && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".list"))
			continue;
		snprintf(file, sizeof(file), "%s/%s", DPKG_INFO, de->d_name);
		if (list_has(file, path, alt)) {
			pkg = strndup(de->d_name, n - 5);
			if (pkg)
				pkg[strcspn(pkg, ":")] = '\0';
		}
	}
	closedir(d);
	return pkg;
}

char *pkg_debug_hint(const char *path)
{
	char *pkg, *hint = NULL;
	int n;

	if (!path || path[0] != '/')
		return NULL;
	pkg = owner(path);
	if (!pkg)
		return NULL;
	if (!strcmp(pkg, "libc6") || !strcmp(pkg, "libc6-i386"))
		n = asprintf(&hint, "apt install libc6-dbg");
	else
		n = asprintf(&hint, "apt install %s-dbgsym (Debian's debug archive, "
			     "bookworm-debug) or debuginfod", pkg);
	free(pkg);
	return n < 0 ? NULL : hint;
}
