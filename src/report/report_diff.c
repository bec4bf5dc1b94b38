/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl-diff's writers: text (100 columns unless wide), markdown, JSON. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "json.h"
#include "diff_state.h"
#include "report_priv.h"

/* NAME in at most W columns, the middle dropped. */
static const char *fit(const char *name, size_t w, char *buf, size_t len)
{
	size_t n = strlen(name), h;

	if (n <= w || w < 8 || w >= len)
		return name;
	h = (w - 3) / 2;
	snprintf(buf, len, "%.*s...%s", (int)h, name, name + n - (w - 3 - h));
	return buf;
}

/* An amount in the event's unit: milliseconds for a clock, else counts. */
static void amount(char *buf, size_t len, const struct mycl_diff *d, double v, bool sign)
{
	if (d->time)
		snprintf(buf, len, sign ? "%+.1f ms" : "%.1f ms", v / 1e6);
	else
		snprintf(buf, len, sign ? "%+.0f" : "%.0f", v);
}

static void cell(char *buf, size_t len, const struct mycl_diff *d, const struct mycl_diff_row *r,
		 int which)
{
	if (d->by_share)
		snprintf(buf, len, which == 2 ? "%+.2f%%" : "%.2f%%",
			 which == 0 ? r->base_share : which == 1 ? r->new_share : r->delta);
	else
		amount(buf, len, d, which == 0 ? (double)r->base_period :
			  which == 1 ? (double)r->new_period : r->delta, which == 2);
}

/* The row's symbol, else its address's name (binary+0xoffset), else "[unknown]". */
static const char *sym_name(const struct mycl_diff_row *r, char *buf, size_t len)
{
	return r->sym ? r->sym : r->addr ? report_addr_name(buf, len, r->dso, r->addr) : "[unknown]";
}

/* "symbol [binary]" ("[kernel.kallsyms]" in its own brackets), or the address's name. */
static const char *label(const struct mycl_diff_row *r, char *buf, size_t len)
{
	if (!r->sym && r->addr)
		return sym_name(r, buf, len);
	snprintf(buf, len, r->dso[0] == '[' ? "%s %s" : "%s [%s]", r->sym ? r->sym : "[unknown]",
		 r->dso);
	return buf;
}

/* "NAME (EVENT, N samples, AMOUNT)": the names as markdown's words when MD. */
static void side(FILE *f, const char *name, const char *event, uint64_t samples, const char *amt,
		 bool md)
{
	if (md) {
		report_md_text(f, name);
		fputs(" (", f);
		report_md_text(f, event);
		fprintf(f, ", %" PRIu64 " samples, %s)\n", samples, amt);
		return;
	}
	fprintf(f, "%s (%s, %" PRIu64 " samples, %s)\n", name, event, samples, amt);
}

static void header(FILE *f, const struct mycl_diff *d, const struct mycl_diff_write_opts *o,
		   const char *lead, bool md)
{
	char a[32], b[32];

	amount(a, sizeof(a), d, (double)d->base_period, false);
	amount(b, sizeof(b), d, (double)d->new_period, false);
	fprintf(f, "%sbase: ", lead);
	side(f, OPTS_GET(o, base_name, NULL) ? OPTS_GET(o, base_name, NULL) : "base", d->base_event,
	     d->base_samples, a, md);
	fprintf(f, "%snew:  ", lead);
	side(f, OPTS_GET(o, new_name, NULL) ? OPTS_GET(o, new_name, NULL) : "new", d->new_event,
	     d->new_samples, b, md);
	if (!strcmp(d->what, "symbol"))
		fprintf(f, "%scompared: %s\n", lead, d->by_share ?
			"each symbol's share of its run (runs of the same length)" :
			"each symbol's amount (runs that did the same work; --by-share otherwise)");
	else if (!strcmp(d->what, "struct member"))
		fprintf(f, "%scompared: %s\n", lead, d->by_share ?
			"each struct member's samples as a share of its run (data types)" :
			"the samples on the instructions touching each struct member (data types; "
			"runs that did the same work, --by-share otherwise)");
	else if (!strcmp(d->what, "lock site"))
		fprintf(f, "%scompared: %s\n", lead, d->by_share ?
			"each lock site's lock time as a share of its run" :
			"each lock site's lock time (runs that did the same work; --by-share otherwise)");
	else
		fprintf(f, "%scompared: %s\n", lead, d->by_share ?
			"each cache line's samples as a share of the binary's" :
			"the sampled instructions touching each cache line's globals");
	fprintf(f, "%s%zu %s%s, %zu changed beyond sampling noise (|z| >= %.1f, marked *)\n",
		lead, d->nr_rows, d->what, d->nr_rows == 1 ? "" : "s", d->nr_changed, d->noise);
}

MYCL_API int mycl_diff__write_text(FILE *f, const struct mycl_diff *d,
				   const struct mycl_diff_write_opts *o)
{
	size_t max = OPTS_GET(o, max_rows, 0) ? OPTS_GET(o, max_rows, 0) : 25;
	bool wide = OPTS_GET(o, wide, false);
	char title[64];

	if (!OPTS_VALID(o, mycl_diff_write_opts))
		return MYCL_ERR_OPTS;
	header(f, d, o, "# ", false);
	/* (a struct member's "dso" is its type) */
	snprintf(title, sizeof(title), "%s [%s]", d->what,
		 !strcmp(d->what, "struct member") ? "type" : "dso");
	fprintf(f, "#\n#   %12s %12s %12s %7s  %s\n", "base", "new", "delta", "z", title);
	for (size_t i = 0; i < d->nr_rows && i < max; i++) {
		const struct mycl_diff_row *r = &d->rows[i];
		char c[3][32], l[1024], s[128];

		for (int k = 0; k < 3; k++)
			cell(c[k], sizeof(c[k]), d, r, k);
		fprintf(f, " %c %12s %12s %12s %7.1f  %s\n", r->changed ? '*' : ' ', c[0], c[1], c[2],
			r->z, wide ? label(r, l, sizeof(l)) :
			fit(label(r, l, sizeof(l)), 100 - 52, s, sizeof(s)));
	}
	if (d->nr_rows > max)
		fprintf(f, "# ... %zu more %ss (--max-rows)\n", d->nr_rows - max, d->what);
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_diff__write_markdown(FILE *f, const struct mycl_diff *d,
				       const struct mycl_diff_write_opts *o)
{
	size_t max = OPTS_GET(o, max_rows, 0) ? OPTS_GET(o, max_rows, 0) : 25;

	if (!OPTS_VALID(o, mycl_diff_write_opts))
		return MYCL_ERR_OPTS;
	header(f, d, o, "- ", true);	/* (a list: its lines would run together as one paragraph) */
	fprintf(f, "\n| | base | new | delta | z | %s | %s |\n|---|---:|---:|---:|---:|---|---|\n",
		d->what, !strcmp(d->what, "struct member") ? "type" : "dso");
	for (size_t i = 0; i < d->nr_rows && i < max; i++) {
		const struct mycl_diff_row *r = &d->rows[i];
		char c[3][32], a[300];

		for (int k = 0; k < 3; k++)
			cell(c[k], sizeof(c[k]), d, r, k);
		fprintf(f, "| %s | %s | %s | %s | %.1f | ", r->changed ? "**changed**" : "", c[0], c[1],
			c[2], r->z);
		report_md_text(f, sym_name(r, a, sizeof(a)));
		fputs(" | ", f);
		report_md_text(f, r->dso);
		fputs(" |\n", f);
	}
	if (d->nr_rows > max)
		fprintf(f, "\n%zu more %ss not shown.\n", d->nr_rows - max, d->what);
	return ferror(f) ? -EIO : 0;
}

/* One recording's facts in the JSON header. */
static void json_side(struct json *j, const char *key, const char *file, const char *event,
		      uint64_t samples, uint64_t period)
{
	json_begin_obj(j, key);
	json_str(j, "file", file);
	json_str(j, "event", event);
	json_u64(j, "samples", samples);
	json_u64(j, "period", period);
	json_end_obj(j);
}

MYCL_API int mycl_diff__write_json(FILE *f, const struct mycl_diff *d,
				   const struct mycl_diff_write_opts *o)
{
	struct json j;

	if (!OPTS_VALID(o, mycl_diff_write_opts))
		return MYCL_ERR_OPTS;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-diff/1");
	json_str(&j, "compared", d->by_share ? "share" : "amount");
	json_str(&j, "rows_are", d->what);
	json_dbl(&j, "noise_z", d->noise, 2);
	json_side(&j, "base", OPTS_GET(o, base_name, NULL), d->base_event, d->base_samples,
		  d->base_period);
	json_side(&j, "new", OPTS_GET(o, new_name, NULL), d->new_event, d->new_samples,
		  d->new_period);
	json_u64(&j, "changed", d->nr_changed);
	json_begin_arr(&j, "rows");
	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct mycl_diff_row *r = &d->rows[i];

		json_begin_obj(&j, NULL);
		json_str(&j, "symbol", r->sym);
		if (!r->sym && r->addr)
			json_hex(&j, "address", r->addr);
		json_str(&j, "dso", r->dso);
		json_u64(&j, "base_samples", r->base_samples);
		json_u64(&j, "new_samples", r->new_samples);
		json_u64(&j, "base_period", r->base_period);
		json_u64(&j, "new_period", r->new_period);
		json_dbl(&j, "base_share", r->base_share, 4);
		json_dbl(&j, "new_share", r->new_share, 4);
		json_dbl(&j, "delta", r->delta, d->by_share ? 4 : 0);
		json_dbl(&j, "z", isfinite(r->z) ? r->z : 0, 2);
		json_bool(&j, "changed", r->changed);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	fputc('\n', f);
	return json_finish(&j);
}
