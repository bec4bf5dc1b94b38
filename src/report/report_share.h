/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-share's text and JSON writers, between report_share.c and report_share_types.c. */
#ifndef MYCL_REPORT_SHARE_H
#define MYCL_REPORT_SHARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "json.h"
#include "mycl/share.h"

struct mycl_share;

/* "#   LABEL TEXT", a comment of the report's head, folded at spaces to COLS columns
 * (0: never) under the label. */
void share_folded(FILE *f, const char *label, const char *text, size_t cols);
/* "LEAD LABEL TEXT", a line of a finding (LEAD without '#'), folded the same way. */
void share_item(FILE *f, const char *lead, const char *label, const char *text, size_t cols);
/* The flagged types (at most MAX; 0: 20), or with ALL every type written while threads run. */
void share_types_text(FILE *f, const struct mycl_share *s, size_t max, bool all, bool wide);
/* Type NAME's layout, the way pahole prints it, with each member's role.  -ENOENT: none. */
int share_type_layout(FILE *f, const struct mycl_share *s, const char *name, bool wide);
/* The "types" array of the JSON report. */
void share_types_json(struct json *j, const struct mycl_share *s, size_t max, bool all);
/*
 * A member's counts as the reports write them: " w HOT/RUNTIME/START-UP"
 * (W), " r HOT/RUNTIME" (R), then " ctr", " idx", " atomic"; NULL leaves
 * a part out.
 */
void share_counts(FILE *f, const uint64_t w[3], const uint64_t *r, bool ctr, bool idx, bool atomic);
/* The verdicts' words: "hot writer beside read-mostly data", ... */
const char *share_verdict_word(enum mycl_share_verdict v);

#endif
