/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The binaries a recording's header names (its build-id table: the files
 * that have samples) loaded on a thread of their own while the records are
 * read: each one the way dso_load() would load it on the reading thread,
 * into a copy, and handed over when the reading thread first wants it.  The
 * reading thread never waits for work it did not ask for: a binary the
 * thread has not started yet is loaded where it is wanted, as before.
 */
#ifndef MYCL_DSO_PREFETCH_H
#define MYCL_DSO_PREFETCH_H

#include <stdbool.h>
#include "dso.h"

struct mycl_build_id;
struct dso_prefetch;

/*
 * Starts loading the user-space binaries of IDS (NR of them, the header's
 * table) with the options O (copied; what they point to must outlive the
 * prefetch).  INLINES: their DWARF is opened too (inlined frames will be
 * looked up).  NULL when there is nothing to load or no thread.
 */
struct dso_prefetch *dso_prefetch_start(const struct mycl_build_id *ids, size_t nr,
					const struct sym_opts *o, bool inlines);
/*
 * D (pending, its build-id known) as the thread loaded it, with the messages
 * the loading logged sent to LOG now: true.  Waits when the thread is loading
 * it; false when the thread has not started it (it never will then) or the
 * header does not name it: the caller loads it.
 */
bool dso_prefetch_take(struct dso_prefetch *pf, struct dso *d, const struct logger *log);
/*
 * The same when the thread has loaded D already; else false, and the thread
 * still loads it (or has it) for a later dso_prefetch_take().
 */
bool dso_prefetch_take_ready(struct dso_prefetch *pf, struct dso *d, const struct logger *log);
/* Returns when the thread has gone through its list (the tests' sure hand-over). */
void dso_prefetch_wait(struct dso_prefetch *pf);
/* Stops the thread after the binary it is loading, drops what nobody took. */
void dso_prefetch_end(struct dso_prefetch *pf);

#endif
