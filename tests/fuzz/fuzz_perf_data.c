/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the perf.data reader: any bytes, file or pipe mode.
 * Each input is read with plain reads; one input in 8 (chosen by its bytes,
 * so a crash replays) is read again with the read-ahead thread, and what the
 * two deliver must be the same, down to the digest of every field.  Starting
 * a thread for every input would cost more than the reading.  Another one in 8
 * is also read as the directory perf record --threads writes: the input as its
 * 'data' file, its data section's bytes cut in two as data.0 and data.1.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz_input.h"

static uint64_t sink;

static int on_sample(const struct mycl_sample *s, void *ctx)
{
	(void)ctx;
	sink = sink * 1099511628211ULL + s->ip + s->time + s->callchain_nr + s->raw_size +
	       s->branch_nr + s->user_regs_nr;
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

/* A digest of everything one reading delivers, its result and statistics. */
static uint64_t read_digest(const uint8_t *data, size_t size, int mode)
{
	struct mycl_record_ops ops = { .sz = sizeof(ops), .sample = on_sample, .mmap = on_mmap,
				       .comm = on_comm };
	struct mycl_perf_data *pd;

	sink = 0;
	if (fuzz_open_mode(data, size, mode, &pd) == 0) {
		const struct mycl_perf_stats *st;

		sink += (uint64_t)mycl_perf_data__read(pd, &ops, NULL) * 1000003;
		for (size_t i = 0; i < mycl_perf_data__nr_events(pd); i++)
			sink += strlen(mycl_perf_data__event(pd, i)->name);
		st = mycl_perf_data__stats(pd);
		sink = sink * 31 + st->nr_records;
		sink = sink * 31 + st->nr_samples;
		mycl_perf_data__close(pd);
	}
	return sink;
}

static void put(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return;
	if (n)
		fwrite(p, 1, n, f);
	fclose(f);
}

/* The input as a --threads directory: 'data' and its data section in two data.N files. */
static void read_as_dir(const uint8_t *data, size_t size, uint32_t h)
{
	struct mycl_record_ops ops = { .sz = sizeof(ops), .sample = on_sample, .mmap = on_mmap,
				       .comm = on_comm };
	MYCL_OPTS(mycl_perf_data_opts, o, .max_queue_bytes = 1 << 20);
	uint64_t off = 0, len = 0;
	struct mycl_perf_data *pd;
	char dir[128];
	size_t cut;

	snprintf(dir, sizeof(dir), "/tmp/mycl-fuzz-dir-%d", (int)getpid());
	mkdir(dir, 0700);
	if (size >= 56) {
		memcpy(&off, data + 40, 8);
		memcpy(&len, data + 48, 8);
	}
	if (off > size)
		off = size;
	if (len > size - off)
		len = size - off;
	cut = len ? (size_t)(h >> 3) % (size_t)(len + 1) : 0;
	put(dir, "data", data, size);
	put(dir, "data.0", data + off, cut);
	put(dir, "data.1", data + off + cut, (size_t)len - cut);
	if (mycl_perf_data__open(dir, &o, &pd) == 0) {
		sink += (uint64_t)mycl_perf_data__read(pd, &ops, NULL);
		mycl_perf_data__close(pd);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t plain = read_digest(data, size, MYCL_READ_AHEAD_OFF);
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	if (h % 8 == 4)
		read_as_dir(data, size, h);
	if (h % 8)
		return 0;
	if (plain != read_digest(data, size, MYCL_READ_AHEAD_ON)) {
		fprintf(stderr, "read-ahead delivers other records than plain reads\n");
		abort();
	}
	return 0;
}
