/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for DWARF unwinding from a sample's stack copy: the
 * address spaces and the template sample come from a --call-graph dwarf
 * recording of the fixtures (MYCL_FUZZ_UNWIND_DATA, binaries under
 * MYCL_FUZZ_SYMFS), read once; each input is a sample's user registers (as
 * many 8-byte words as the recording samples) followed by its stack copy.
 * The frames found are resolved to symbols.  MYCL_FUZZ_WRITE_SEEDS=DIR
 * writes the recording's own samples there in that form, as seeds.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"
#include "fuzz_input.h"
#include "machine.h"
#include "unwind.h"

static struct machine *m;
static struct unwinder *u;
static struct mycl_sample tmpl;
static uint64_t tmpl_regs[64];
static const char *seed_dir;
static int nr_seeds;
static uint64_t sink;

static int on_mmap(const struct mycl_mmap *ev, void *ctx)
{
	(void)ctx;
	return machine_mmap(m, ev);
}

static int on_comm(const struct mycl_comm *ev, void *ctx)
{
	(void)ctx;
	return machine_comm(m, ev);
}

static int on_fork(const struct mycl_task *ev, void *ctx)
{
	(void)ctx;
	return machine_fork(m, ev);
}

static int on_sample(const struct mycl_sample *s, void *ctx)
{
	(void)ctx;
	if (!s->user_stack_size || !s->user_regs_nr || s->user_regs_nr > 64)
		return 0;
	if (!tmpl.user_regs_nr) {
		tmpl = *s;
		memcpy(tmpl_regs, s->user_regs, s->user_regs_nr * 8);
		tmpl.user_regs = tmpl_regs;
		tmpl.callchain_nr = 0;
		tmpl.callchain = NULL;
		tmpl.raw = NULL;
		tmpl.raw_size = 0;
		tmpl.event = NULL;
	}
	if (seed_dir && nr_seeds < 64)
		fuzz_write_seed(seed_dir, "sample", nr_seeds++, (const struct fuzz_part[]){
			{ s->user_regs, s->user_regs_nr * 8 }, { s->user_stack, s->user_stack_size } }, 2);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	MYCL_OPTS(mycl_perf_data_opts, o);
	struct mycl_record_ops ops = { .sz = sizeof(ops), .sample = on_sample, .mmap = on_mmap,
				       .comm = on_comm, .fork = on_fork };
	const char *rec = getenv("MYCL_FUZZ_UNWIND_DATA");
	struct sym_opts so = { .symfs = getenv("MYCL_FUZZ_SYMFS") };
	struct mycl_perf_data *pd;

	(void)argc;
	(void)argv;
	seed_dir = getenv("MYCL_FUZZ_WRITE_SEEDS");
	if (!rec || mycl_perf_data__open(rec, &o, &pd)) {
		fprintf(stderr, "fuzz_unwind: set MYCL_FUZZ_UNWIND_DATA to a dwarf recording\n");
		exit(1);
	}
	m = machine_new(&so, mycl_perf_data__info(pd));
	if (!m || mycl_perf_data__read(pd, &ops, NULL) || !tmpl.user_regs_nr) {
		fprintf(stderr, "fuzz_unwind: %s has no sample with a stack copy\n", rec);
		exit(1);
	}
	u = unwinder_new(m, mycl_perf_data__info(pd)->arch);
	if (!u)
		exit(1);
	/*
	 * The template keeps no pointer into the reader's buffers; the
	 * recording stays open: the machine holds its build-ids.
	 */
	tmpl.user_stack = NULL;
	tmpl.user_stack_size = tmpl.user_stack_dyn_size = 0;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mycl_sample s = tmpl;
	uint64_t regs[64], ips[128];
	size_t nregs = tmpl.user_regs_nr, n = 0;
	enum unwind_end end;

	memcpy(regs, tmpl_regs, sizeof(regs));
	memcpy(regs, data, size < nregs * 8 ? size : nregs * 8);
	s.user_regs = regs;
	if (size > nregs * 8) {
		s.user_stack = data + nregs * 8;
		s.user_stack_size = s.user_stack_dyn_size = size - nregs * 8;
	}
	if (unwinder_unwind(u, &s, ips, 128, &n, &end))
		return 0;
	sink += end + unwind_end_str(end)[0];
	for (size_t i = 0; i < n; i++) {
		struct resolved r;

		if (!machine_resolve(m, s.pid, s.tid, ips[i], MYCL_CPUMODE_USER, &r) && r.sym)
			sink += strlen(r.sym->name);
	}
	return 0;
}
