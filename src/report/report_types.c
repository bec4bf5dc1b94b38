/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where the time goes by data type: text (perf's type and typeoff keys) and JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "mycl/annotate.h"
#include "internal.h"
#include "json.h"
#include "report_priv.h"

/* "struct cache +16 (hits)", as perf's typeoff; "struct cache" for the type alone. */
static void row_name(char *buf, size_t len, const struct mycl_data_type_row *r, bool by_member)
{
	if (r->unknown)
		snprintf(buf, len, "(%s)", r->unknown);
	else if (by_member && r->member)
		snprintf(buf, len, "%s +%" PRId64 " (%s)", r->type, r->offset, r->member);
	else if (by_member)
		snprintf(buf, len, "%s +%" PRId64, r->type, r->offset);
	else
		snprintf(buf, len, "%s", r->type);
}

/* How the samples' data addresses bear out the code's naming. */
static void data_addresses(FILE *f, const struct mycl_data_types *t)
{
	fprintf(f, "# Data addresses: %" PRIu64 " samples carry one, named by it where it falls in "
		"a variable: %" PRIu64 " (the code names the same member for %" PRIu64 ", another "
		"object for %" PRIu64 ", none for %" PRIu64 "; %" PRIu64 " in variables the debug "
		"info does not describe); %" PRIu64 " in heap, stack or shared memory, named by the "
		"code\n", t->addr_samples, t->addr_agree + t->addr_differ + t->addr_only +
		t->addr_undescribed, t->addr_agree, t->addr_differ, t->addr_only, t->addr_undescribed,
		t->addr_elsewhere);
	if (t->addr_code)
		fprintf(f, "#     %" PRIu64 " samples' addresses are code (a fault fetching "
			"instructions): a row of their own\n", t->addr_code);
	if (t->addr_outside)
		fprintf(f, "# WARNING: %" PRIu64 " samples whose code names a global have their data "
			"address outside every variable\n", t->addr_outside);
}

MYCL_API int mycl_report__data_types_text(FILE *f, const struct mycl_data_types *t,
					  double percent_limit)
{
	size_t hidden = 0;

	fprintf(f, "# Data types of '%s': %" PRIu64 " samples, %.1f%% of them on memory accesses "
		"whose type is known\n", str_or(t->event, "?"), t->samples,
		t->samples ? 100.0 * (double)t->known_samples / (double)t->samples : 0.0);
	if (t->skid)
		fprintf(f, "# The memory operand of each sampled instruction, named from the debug info "
			"and the code; a timer's sample counts for the instruction before it (it lands "
			"after the one that waited)\n");
	else
		fprintf(f, "# The memory operand of each sampled instruction, named from the debug info "
			"and the code; the event is taken at the instruction that accessed memory\n");
	if (t->addr_samples)
		data_addresses(f, t);
	fputs("#\n", f);
	fprintf(f, "# Overhead   Samples  %-40s  Example\n", t->by_member ? "Data Type Offset" :
		"Data Type");
	fprintf(f, "# ........  ........  %-40s  .......\n#\n", "................");
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct mycl_data_type_row *r = &t->rows[i];
		char name[512];

		if (r->pct < percent_limit) {
			hidden++;
			continue;
		}
		row_name(name, sizeof(name), r, t->by_member);
		if (r->example)
			fprintf(f, "  %7.2f%%  %8" PRIu64 "  %-40s  %s%s\n", r->pct, r->samples, name,
				r->example, r->where && !strcmp(r->where, "stack") ? " (a local)" : "");
		else
			fprintf(f, "  %7.2f%%  %8" PRIu64 "  %s\n", r->pct, r->samples, name);
	}
	if (hidden)
		fprintf(f, "#\n# %zu rows under %.2f%% not shown\n", hidden,
			percent_limit);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_report__data_types_json(FILE *f, const struct mycl_data_types *t)
{
	struct json j;

	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-types/1");
	json_str(&j, "event", t->event);
	json_bool(&j, "by_member", t->by_member);
	json_u64(&j, "samples", t->samples);
	json_u64(&j, "period", t->period);
	json_u64(&j, "known_samples", t->known_samples);
	if (t->addr_samples) {
		json_begin_obj(&j, "data_addresses");
		json_u64(&j, "samples", t->addr_samples);
		json_u64(&j, "agree", t->addr_agree);
		json_u64(&j, "differ", t->addr_differ);
		json_u64(&j, "address_only", t->addr_only);
		json_u64(&j, "undescribed", t->addr_undescribed);
		json_u64(&j, "elsewhere", t->addr_elsewhere);
		json_u64(&j, "outside_global", t->addr_outside);
		json_u64(&j, "code", t->addr_code);
		json_end_obj(&j);
	}
	json_begin_arr(&j, "rows");
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct mycl_data_type_row *r = &t->rows[i];

		json_begin_obj(&j, NULL);
		json_dbl(&j, "overhead", r->pct, 4);
		json_u64(&j, "samples", r->samples);
		json_u64(&j, "period", r->period);
		if (r->unknown) {
			json_str(&j, "unknown", r->unknown);
		} else {
			json_str(&j, "type", r->type);
			json_str(&j, "where", r->where);
			if (t->by_member) {
				json_str(&j, "member", r->member);
				json_i64(&j, "offset", r->offset);
				json_u64(&j, "size", r->size);
			}
			json_str(&j, "example", r->example);
		}
		if (t->addr_samples)
			json_u64(&j, "address_samples", r->address_samples);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	return json_finish(&j);
}
