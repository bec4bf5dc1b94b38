/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef MYCL_PKGHINT_H
#define MYCL_PKGHINT_H

#include <stdbool.h>

/* "apt install dash-dbgsym ..." for a file a Debian package owns; NULL otherwise. Caller frees. */
char *pkg_debug_hint(const char *path);

#endif
