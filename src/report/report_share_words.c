/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The words both of mycl-share's text writers use: folded lines, the verdicts' names. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report_share.h"

/*
 * LEAD, LABEL and TEXT, folded at spaces to COLS columns (0: never) under the
 * label's end: a comment line's continuations keep its '#'.
 */
void share_item(FILE *f, const char *lead, const char *label, const char *text, size_t cols)
{
	const char *p = text;
	size_t indent = strlen(lead) + strlen(label), col, ll = strlen(label);
	bool label_alone = *label;	/* the label's line holds no word yet */

	while (ll && label[ll - 1] == ' ')
		ll--;
	/* (the label's trailing spaces wait for its first word) */
	fprintf(f, "%s%.*s", lead, (int)ll, label);
	col = indent;
	while (*p) {
		size_t wl = strcspn(p, " ");

		/* a word too long for the label's line (a path to copy) gets a line of its own */
		if (cols && col + wl + 1 > cols && (col > indent || label_alone)) {
			if (lead[0] == '#')
				fprintf(f, "\n#%*s", (int)(indent - 1), "");
			else
				fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		} else if (label_alone) {
			fputs(label + ll, f);
		}
		fwrite(p, 1, wl, f);
		label_alone = false;
		col += wl;
		p += wl;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void share_folded(FILE *f, const char *label, const char *text, size_t cols)
{
	share_item(f, "#   ", label, text, cols);
}

const char *share_verdict_word(enum mycl_share_verdict v)
{
	switch (v) {
	case MYCL_SHARE_WRITER_WITH_READERS: return "hot writer beside read-mostly data";
	case MYCL_SHARE_WRITERS: return "several hot writers";
	case MYCL_SHARE_HOT_COUNTER: return "hot shared counter";
	case MYCL_SHARE_SLOTS: return "slots of one array, written by index";
	default: return "";
	}
}

void share_counts(FILE *f, const uint64_t w[3], const uint64_t *r, bool ctr, bool idx, bool atomic)
{
	if (w)
		fprintf(f, " w %" PRIu64 "/%" PRIu64 "/%" PRIu64, w[0], w[1], w[2]);
	if (r)
		fprintf(f, " r %" PRIu64 "/%" PRIu64, r[0], r[1]);
	if (ctr)
		fputs(" ctr", f);
	if (idx)
		fputs(" idx", f);
	if (atomic)
		fputs(" atomic", f);
}
