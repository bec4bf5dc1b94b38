/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for mycl-share on any bytes as an ELF binary: symbol and
 * relocation tables, DWARF variables and types (the data types of a few
 * functions by name; every type's layout and verdicts, --types, and the
 * first type laid out as --type does), the disassembly of every architecture
 * it reads (x86_64, i386, aarch64, arm/Thumb, ppc64, s390x, and riscv64's own
 * decoder), literal pools and jump tables read from the file, the call graph,
 * and both writers.  Seeded with tests/data/share's ground-truth programs.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	MYCL_OPTS(mycl_share_opts, o, .debug_dir = "", .types = true);
	MYCL_OPTS(mycl_share_write_opts, w, .max_lines = 5);
	struct mycl_share *s;
	char path[64];
	int rc;
	FILE *null;

	/* mycl-share opens a binary by its path. */
	if (fuzz_file("share", data, size, path, sizeof(path)))
		return 0;
	if (!(rc = mycl_share__analyze(path, &o, &s))) {
		null = fopen("/dev/null", "w");
		if (null) {
			/* the data types of the seeds' functions: DWARF types, locations, the walk */
			static const char *const fns[] = {
				"main", "pick", "settle", "_Z5servePN5depot3BayEi",
				"_ZN5depot4Gate5enterEv", "worker", "bump",
			};

			mycl_share__write_text(null, s, &w);
			mycl_share__write_json(null, s, &w);
			for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
				mycl_share__disassemble(null, s, fns[i]);
			if (mycl_share__nr_types(s)) {
				MYCL_OPTS(mycl_share_write_opts, one,
					  .type = mycl_share__type(s, 0)->name);

				mycl_share__write_text(null, s, &one);
				mycl_share__regroup(s, 128);
				mycl_share__write_text(null, s, &w);
			}
			fclose(null);
		}
		mycl_share__free(s);
	} else if (getenv("FUZZ_DEBUG")) {
		fprintf(stderr, "fuzz_share: %s\n", mycl_errmsg(rc));
	}
	return 0;
}
