/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs a fuzz target on the files named, without libFuzzer: how the unit
 * tests replay the inputs that once crashed a target (tests/fuzz/regress).
 * Built with the compiler of the build, so the sanitizer build runs them
 * under ASan and UBSan too.  A directory stands for the files in it.  Exit 0
 * when every input ran to its end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay(const char *path);

static int replay_dir(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), rc = 0;

	if (n < 0) {
		fprintf(stderr, "replay: %s: cannot read\n", dir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (names[i]->d_name[0] != '.' && !rc) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			rc = replay(path);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

static int replay(const char *path)
{
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return replay_dir(path);
	{
		FILE *f = fopen(path, "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			fprintf(stderr, "replay: %s: cannot open\n", path);
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
		printf("replay: %s: %zu bytes, ok\n", path, len);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		if (replay(argv[i]))
			return 1;
	return 0;
}
