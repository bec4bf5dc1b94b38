/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target for the perf.data reader: any bytes, file or pipe mode. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_input.h"

static volatile uint64_t sink;

static int on_sample(const struct mycl_sample *s, void *ctx)
{
	(void)ctx;
	sink += s->ip + s->callchain_nr + s->raw_size + s->branch_nr + s->user_regs_nr;
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		sink += s->callchain[i];
	for (uint64_t i = 0; i < s->branch_nr; i++)
		sink += s->branches[i].from;
	if (s->user_stack_size)
		sink += ((const uint8_t *)s->user_stack)[s->user_stack_size - 1];
	return 0;
}

static int on_mmap(const struct mycl_mmap *m, void *ctx)
{
	(void)ctx;
	sink += strlen(m->filename);
	return 0;
}

static int on_comm(const struct mycl_comm *c, void *ctx)
{
	(void)ctx;
	sink += strlen(c->comm);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mycl_record_ops ops = { .sz = sizeof(ops), .sample = on_sample, .mmap = on_mmap,
				       .comm = on_comm };
	struct mycl_perf_data *pd;

	if (fuzz_open(data, size, &pd) == 0) {
		mycl_perf_data__read(pd, &ops, NULL);
		for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
			sink += strlen(mycl_perf_data__event(pd, i)->name);
		mycl_perf_data__close(pd);
	}
	return 0;
}
