/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for everything after the reader: address spaces, symbol
 * look-ups, call paths (frame pointers, DWARF stacks, LBR), children, lock
 * classification, tracepoint decoding and the writers, on any bytes; one
 * input in 32 with the fixtures' binaries.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/*
	 * The fixtures' binaries (run.sh sets it): lock code analysed on real code.
	 * Loading them, their DWARF and the lock analysis of their code is most of
	 * an input's cost (45 ms under ASan, against 2.6 ms without them), so one
	 * input in 32 (chosen by its bytes, the same every run) has them: 250
	 * inputs a second, 126 with one in 8; the others run everything after the
	 * reader on unresolved addresses.
	 * The replay of the fixtures and regression inputs (meson) has them always.
	 */
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < size; i += 1 + size / 64)
		h = (h ^ data[i]) * 16777619u;
	/*
	 * Kernel symbols from a small committed kallsyms (run.sh sets it), not the
	 * running kernel's: the same on every machine, and parsing 100,000 lines of
	 * /proc/kallsyms for each input was most of the target's time.
	 */
	MYCL_OPTS(mycl_profile_opts, po, .children = true, .locks = true, .annotate = true,
		  .buildid_dir = "", .debug_dir = "", .kallsyms = getenv("MYCL_FUZZ_KALLSYMS"),
		  .symfs = (h & 31) == 0 || getenv("MYCL_FUZZ_ALWAYS_SYMFS") ?
			   getenv("MYCL_FUZZ_SYMFS") : NULL);
	MYCL_OPTS(mycl_report_opts, ro, .graph = true);
	struct mycl_perf_data *pd;
	struct mycl_profile *p;
	FILE *null;

	if (fuzz_open(data, size, &pd))
		return 0;
	if (!mycl_profile__build(pd, &po, &p)) {
		null = fopen("/dev/null", "w");
		if (null) {
			mycl_report__text(null, p, &ro);
			mycl_report__json(null, p, &ro);
			for (size_t e = 0; e < mycl_profile__nr_events(p); e++) {
				struct mycl_lock_report *lr;

				mycl_report__folded(null, p, e, false);
				mycl_report__flamegraph(null, p, e, NULL);
				mycl_report__pprof(null, p, e, NULL);
				mycl_report__html(null, p, e, NULL);
				{
					MYCL_OPTS(mycl_ticket_opts, to, .no_share = true, .redact = true);

					/* the ticket as text or, one input in two, as redacted JSON */
					if (h & 32)
						mycl_report__ticket_json(null, p, e, &to);
					else
						mycl_report__ticket(null, p, e, &to);
				}
				if (!mycl_profile__locks(p, e, &lr)) {
					mycl_report__locks_text(null, lr, 0.5);
					mycl_lock_report__free(lr);
				}
			}
			fclose(null);
		}
		mycl_profile__free(p);
	}
	mycl_perf_data__close(pd);
	return 0;
}
