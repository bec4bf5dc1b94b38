/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The address spaces of a recording: threads, the maps of each process and
 * the kernel's, built from MMAP/MMAP2/COMM/FORK/EXIT records, and the
 * resolution of an instruction pointer to DSO and symbol.
 */
#ifndef MYCL_MACHINE_H
#define MYCL_MACHINE_H

#include <stdint.h>
#include "mycl/perf_data.h"
#include "dso.h"
#include "maps.h"

struct thread {
	int32_t pid, tid;
	const char *comm;		/* interned: equal names, equal pointers */
	struct maps *maps;
	bool comm_set;
};

struct resolved {
	struct thread *thread;
	struct dso *dso;		/* NULL: no map ([unknown]) */
	const struct sym *sym;		/* NULL: unresolved */
	uint64_t addr;			/* as perf shows it: map-relative, or the ip */
	char level;			/* 'k' kernel, '.' user, 'H', 'g', 'u' */
};

struct machine;

struct machine *machine_new(const struct sym_opts *o, const struct mycl_perf_info *info);
/*
 * With opts.prefetch_kernel and the kernel's build-id known from the header:
 * starts reading the kernel's symbols now, beside the reading of the records
 * (else that starts at the kernel's MMAP, which is delivered with the first
 * round, just before the samples that want it).
 */
void machine_prefetch_kernel(struct machine *m);
/*
 * The user-space binaries the header names (its build-id table) loaded on a
 * thread beside the reading, each handed over when a sample first wants it
 * (dso_prefetch.h); INLINES: their DWARF opened too.  Not for pipes or
 * archives; machine_settle() ends it.
 */
void machine_prefetch_dsos(struct machine *m, bool inlines);
void machine_free(struct machine *m);
/* D's symbols loaded (once; where the binaries' thread loaded it, taken from there). */
void machine_load(struct machine *m, struct dso *d);
/* The records are read: a kernel symbol reading no sample wanted is dropped (prefetch_kernel). */
void machine_settle(struct machine *m);
/* The options the machine finds binaries with. */
const struct sym_opts *machine_opts(const struct machine *m);

int machine_mmap(struct machine *m, const struct mycl_mmap *ev);
int machine_comm(struct machine *m, const struct mycl_comm *ev);
int machine_fork(struct machine *m, const struct mycl_task *ev);
int machine_ksymbol(struct machine *m, const struct mycl_ksymbol *ev);

struct thread *machine_thread(struct machine *m, int32_t pid, int32_t tid);
/* Resolves IP in the address space of (PID, TID) for CPUMODE. 0 or -ENOMEM. */
int machine_resolve(struct machine *m, int32_t pid, int32_t tid, uint64_t ip,
		    enum mycl_cpumode cpumode, struct resolved *r);

/*
 * The binary and its address of a data address in (PID, TID)'s space that a
 * variable of the binary holds.  0; 1 when ADDR is a binary's code (a
 * page fault fetching instructions); -ENOENT (heap, stack, shared memory,
 * data no symbol covers).
 */
int machine_data_at(struct machine *m, int32_t pid, int32_t tid, uint64_t addr, struct dso **dso,
		    uint64_t *vaddr);
/* "var+0x8" for a data address in (PID, TID)'s binaries, or NULL (caller frees). */
char *machine_data_symbol(struct machine *m, int32_t pid, int32_t tid, uint64_t addr);

/* Every DSO seen, for summaries. */
size_t machine_nr_dsos(const struct machine *m);
struct dso *machine_dso(const struct machine *m, size_t i);
const char *machine_intern(struct machine *m, const char *s);
/* The same, for a caller that knows the machine as a context pointer. */
const char *machine_intern_ctx(void *m, const char *s);
/* Changes whenever an address space changes (mmap, fork): resolutions made
 * under an older generation may differ. */
uint32_t machine_generation(const struct machine *m);
/*
 * The version of the address space of PID/TID: equal stamps, the same maps (unlike the
 * generation, which every process's mmap moves).  0 when the thread cannot be made.
 */
uint64_t machine_maps_stamp(struct machine *m, int32_t pid, int32_t tid);
/*
 * What resolving an address of (PID, TID) depends on: its own maps and the
 * kernel's (maps and dynamic symbols).  Equal versions, equal resolutions;
 * other processes' mmaps leave it alone.
 */
uint64_t machine_chain_version(struct machine *m, int32_t pid, int32_t tid);
/*
 * Calls FN for each map of (PID, TID)'s address space, its binary located
 * (runtime_path and segments; symbols maybe not loaded: machine_load()); stops on non-zero.
 */
int machine_for_each_map(struct machine *m, int32_t pid, int32_t tid,
			 int (*fn)(const struct map *mp, void *arg), void *arg);

#endif
