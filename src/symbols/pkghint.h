/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef MYCL_PKGHINT_H
#define MYCL_PKGHINT_H

#include <stddef.h>

/* "apt install dash-dbgsym ..." for a file a Debian package owns; NULL otherwise. Caller frees. */
char *pkg_debug_hint(const char *path);

/* The same for N paths at once, in one reading of dpkg's lists: HINTS[i] for PATHS[i]. */
void pkg_debug_hints(const char *const *paths, size_t n, char **hints);

/* The same with dpkg's lists in DIR; returns how many lists it read. */
size_t pkg_debug_hints_in(const char *dir, const char *const *paths, size_t n, char **hints);

#endif
