/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs a fuzz target on the files named, without libFuzzer: how the unit
 * tests replay the inputs that once crashed a target (tests/fuzz/regress).
 * Built with the compiler of the build, so the sanitizer build runs them
 * under ASan and UBSan too.  Exit 0 when every input ran to its end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			fprintf(stderr, "replay: %s: cannot open\n", argv[i]);
			return 1;
		}
		do {
			if (cap - len < 65536) {
				uint8_t *nb = realloc(buf, cap + 65536);

				if (!nb)
					return 1;
				buf = nb;
				cap += 65536;
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		printf("replay: %s: %zu bytes, ok\n", argv[i], len);
	}
	return 0;
}
