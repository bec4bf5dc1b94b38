/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A perf archive's build-id cache entries, for the binary look-up (dso.c). */
#ifndef MYCL_SYMBOLS_ARCHIVE_H
#define MYCL_SYMBOLS_ARCHIVE_H

#include "mycl/archive.h"
#include "internal.h"

/* The path that opens the entry BUILD-ID (hex)/KIND ("elf", "debug"...), or NULL. */
const char *archive_find(const struct mycl_archive *a, const char *hex, const char *kind);
/* "ARCHIVE:MEMBER" for a path archive_find gave, to show; NULL for any other path. */
const char *archive_label(const struct mycl_archive *a, const char *open_path);

#endif
