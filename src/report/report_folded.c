/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Folded stacks, the input of flamegraph.pl, speedscope and inferno: one line
 * per distinct call path, "comm;outermost;...;sampled function COUNT".
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "internal.h"
#include "report_priv.h"

struct folded_ctx {
	FILE *f;
	bool period;
};

static void put_frame(FILE *f, const struct mycl_cg_node *n)
{
	/* ';' separates frames and a space ends the stack: neither may appear in one. */
	char name[512];

	report_node_name(n, name, sizeof(name));
	for (char *c = name; *c; c++)
		if (*c == ';' || *c == ' ' || *c == '\n')
			*c = *c == ';' ? ':' : '_';
	fputs(name, f);
	if (n->level == 'k')
		fputs("_[k]", f);
}

static int one_path(const char *comm, const struct mycl_cg_node *frames, size_t n,
		    uint64_t samples, uint64_t period, void *ctx)
{
	struct folded_ctx *fc = ctx;

	if (comm && !strpbrk(comm, "; ")) {
		fputs(comm, fc->f);
	} else if (comm) {
		for (const char *c = comm; *c; c++)
			fputc(*c == ';' ? ':' : *c == ' ' ? '_' : *c, fc->f);
	} else {
		fputs("all", fc->f);
	}
	for (size_t i = 0; i < n; i++) {
		fputc(';', fc->f);
		put_frame(fc->f, &frames[i]);
	}
	fprintf(fc->f, " %" PRIu64 "\n", fc->period ? period : samples);
	return ferror(fc->f) ? -EIO : 0;
}

MYCL_API int mycl_report__folded(FILE *f, const struct mycl_profile *p, size_t ev, bool by_period)
{
	struct folded_ctx fc = { .f = f, .period = by_period };

	return mycl_profile__for_each_path(p, ev, one_path, &fc);
}
