/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for tracepoint decoding: perf's tracing data (the
 * tracing_data feature: header page, event formats, kallsyms, printk) then a
 * sample's raw bytes, as "[u32 length of the tracing data][tracing data][raw]".
 * Every event's name is asked for, and the fields the lock-wait analysis reads
 * from each.  MYCL_FUZZ_WRITE_SEEDS=DIR with MYCL_FUZZ_TRACE_DATA=RECORDING
 * writes seeds in that form: the recording's tracing data with the raw bytes
 * of its first tracepoint samples.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "fuzz_input.h"
#include "tracepoint.h"

static uint64_t sink;
static const void *seed_tracing;
static size_t seed_tracing_len;
static const char *seed_dir;
static int nr_seeds;

static int seed_sample(const struct mycl_sample *s, void *ctx)
{
	uint32_t len = (uint32_t)seed_tracing_len;

	(void)ctx;
	if (s->raw_size && nr_seeds < 16)
		fuzz_write_seed(seed_dir, "tracing", nr_seeds++, (const struct fuzz_part[]){
			{ &len, 4 }, { seed_tracing, seed_tracing_len }, { s->raw, s->raw_size } }, 3);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	MYCL_OPTS(mycl_perf_data_opts, o);
	struct mycl_record_ops ops = { .sz = sizeof(ops), .sample = seed_sample };
	const char *rec = getenv("MYCL_FUZZ_TRACE_DATA");
	struct mycl_perf_data *pd;
	int rc;

	(void)argc;
	(void)argv;
	seed_dir = getenv("MYCL_FUZZ_WRITE_SEEDS");
	if (!seed_dir || !rec)
		return 0;
	if ((rc = mycl_perf_data__open(rec, &o, &pd))) {
		fprintf(stderr, "fuzz_tracepoint: %s\n", mycl_errmsg(rc));
		exit(1);
	}
	seed_tracing = mycl_perf_data__tracing_data(pd, &seed_tracing_len);
	if (seed_tracing)
		mycl_perf_data__read(pd, &ops, NULL);
	mycl_perf_data__close(pd);
	exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fields[] = { "prev_pid", "next_pid", "prev_state", "prev_comm",
					      "next_comm", "uaddr", "op", "ret", "pid", "comm",
					      "common_pid", "common_type", "nr" };
	struct tracepoints *t;
	uint32_t len;
	const uint8_t *raw;
	size_t raw_size;

	if (size < 4)
		return 0;
	memcpy(&len, data, 4);
	if (len > size - 4)
		len = (uint32_t)(size - 4);
	raw = data + 4 + len;
	raw_size = size - 4 - len;
	t = tracepoints_open(data + 4, len);
	if (!t)
		return 0;
	/* The ids of the formats and a few past them; the raw bytes' own common_type. */
	for (uint64_t id = 0; id < 2048; id++) {
		const char *name = tracepoints_name(t, id);
		uint64_t v;

		if (!name)
			continue;
		sink += strlen(name);
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
			if (tracepoints_field(t, id, fields[f], raw, raw_size, &v))
				sink += v;
	}
	tracepoints_close(t);
	return 0;
}
