/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Counter statistics (mycl/stat.h) as text and as JSON, schema "mycl-stat/1". */
#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "mycl/diff.h"
#include "mycl/report.h"
#include "mycl/stat.h"
#include "internal.h"
#include "json.h"
#include "report_priv.h"
#include "flame.h"

/* The column naming a row's CPU or thread, as perf stat's (CPU0, sh-31171); "" when summed. */
static void who(const struct mycl_stat_row *r, char *buf, size_t len)
{
	if (r->pid >= 0)
		snprintf(buf, len, "%s-%" PRId32, r->comm && *r->comm ? r->comm : "?", r->pid);
	else if (r->cpu >= 0)
		snprintf(buf, len, "CPU%" PRId32, r->cpu);
	else
		buf[0] = '\0';
}

static void text_row(FILE *f, const struct mycl_stat_row *r, const char *time)
{
	char w[48], count[48];

	who(r, w, sizeof(w));
	if (!r->supported)
		snprintf(count, sizeof(count), "<not supported>");
	else if (!r->counted)
		snprintf(count, sizeof(count), "<not counted>");
	else if (r->unit)
		snprintf(count, sizeof(count), "%.2f", r->count);
	else
		snprintf(count, sizeof(count), "%.0f", r->count);
	fprintf(f, "%s%s%-*s%s%15s %-4s  ", time, time[0] ? " " : "", w[0] ? 21 : 0, w,
		w[0] ? " " : "", count, r->unit ? r->unit : "");
	if (r->metric_unit && r->metric_unit[0] == '%')	/* "% of all branches": 1.00% of ... */
		fprintf(f, "%-24s # %8.2f%s", r->event, r->metric, r->metric_unit);
	else if (r->metric_unit)
		fprintf(f, "%-24s # %9.3f %s", r->event, r->metric, r->metric_unit);
	else
		fputs(r->event, f);
	if (r->counted && r->running < 100.0)
		fprintf(f, "  (%.2f%%)", r->running);
	fputc('\n', f);
}

static void text_header(FILE *f, const struct mycl_stat *st)
{
	const struct mycl_perf_data *pd = mycl_stat__perf_data(st);
	const struct mycl_perf_info *in = mycl_perf_data__info(pd);
	const struct mycl_stat_config *sc = mycl_perf_data__stat_config(pd);
	const char *agg = mycl_stat__aggregation(st);
	uint64_t t = mycl_stat__total(st)->time;

	fprintf(f, "# mycl-hot: counter statistics of %s (perf stat record)\n",
		mycl_perf_data__path(pd));
	fprintf(f, "# host: %s   kernel: %s   arch: %s   CPUs: %" PRIu32 " online of %" PRIu32 "\n",
		str_or(in->hostname, "?"), str_or(in->os_release, "?"), str_or(in->arch, "?"),
		in->nr_cpus_online, in->nr_cpus_avail);
	if (in->perf_version)
		fprintf(f, "# perf version: %s\n", in->perf_version);
	if (in->cmdline)
		fprintf(f, "# command line: %s\n", in->cmdline);
	fprintf(f, "# %" PRIu64 ".%09" PRIu64 " seconds elapsed; counts %s", t / 1000000000,
		t % 1000000000, !strcmp(agg, "global") ? "summed over CPUs and threads" :
		!strcmp(agg, "cpu") ? "per CPU" : "per thread");
	if (sc->interval_ms)
		fprintf(f, "; every %" PRIu64 " ms (-I)", sc->interval_ms);
	fputs("\n#\n", f);
}

MYCL_API int mycl_report__stat_text(FILE *out, const struct mycl_stat *st,
				    const struct mycl_report_opts *opts)
{
	const struct mycl_stat_interval *tot = mycl_stat__total(st);
	size_t n = mycl_stat__nr_intervals(st);

	if (!OPTS_VALID(opts, mycl_report_opts))
		return MYCL_ERR_OPTS;
	if (!OPTS_GET(opts, no_header, false))
		text_header(out, st);
	if (n) {
		fprintf(out, "# %" PRIu64 " intervals: the change in each\n#          time\n", (uint64_t)n);
		for (size_t i = 0; i < n; i++) {
			const struct mycl_stat_interval *iv = mycl_stat__interval(st, i);
			char time[32];

			snprintf(time, sizeof(time), "%4" PRIu64 ".%09" PRIu64, iv->time / 1000000000,
				 iv->time % 1000000000);
			for (size_t k = 0; k < iv->nr_rows; k++)
				text_row(out, &iv->rows[k], time);
		}
		fputs("#\n# The whole run:\n", out);
	}
	for (size_t k = 0; k < tot->nr_rows; k++)
		text_row(out, &tot->rows[k], "");
	return ferror(out) ? -EIO : 0;
}

static void json_rows(struct json *j, const char *key, const struct mycl_stat_interval *iv)
{
	json_begin_obj(j, key);
	json_u64(j, "time_ns", iv->time);
	json_u64(j, "length_ns", iv->length);
	json_begin_arr(j, "rows");
	for (size_t i = 0; i < iv->nr_rows; i++) {
		const struct mycl_stat_row *r = &iv->rows[i];

		json_begin_obj(j, NULL);
		json_str(j, "event", r->event);
		json_str(j, "unit", r->unit);
		if (r->cpu >= 0)
			json_i64(j, "cpu", r->cpu);
		if (r->pid >= 0) {
			json_i64(j, "pid", r->pid);
			json_str(j, "comm", r->comm);
		}
		json_u64(j, "value", r->val);
		json_u64(j, "enabled_ns", r->ena);
		json_u64(j, "running_ns", r->run);
		json_bool(j, "supported", r->supported);
		json_bool(j, "counted", r->counted);
		json_dbl(j, "count", r->count, 6);
		json_dbl(j, "running_percent", r->running, 2);
		json_str(j, "metric_unit", r->metric_unit);
		if (r->metric_unit)
			json_dbl(j, "metric", r->metric, 6);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

MYCL_API int mycl_report__stat_json(FILE *out, const struct mycl_stat *st,
				    const struct mycl_report_opts *opts)
{
	const struct mycl_perf_data *pd = mycl_stat__perf_data(st);
	const struct mycl_perf_info *in = mycl_perf_data__info(pd);
	struct json j;

	if (!OPTS_VALID(opts, mycl_report_opts))
		return MYCL_ERR_OPTS;
	(void)opts;
	json_init(&j, out);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-stat/1");
	json_begin_obj(&j, "header");
	json_str(&j, "file", mycl_perf_data__path(pd));
	json_str(&j, "hostname", in->hostname);
	json_str(&j, "os_release", in->os_release);
	json_str(&j, "perf_version", in->perf_version);
	json_str(&j, "cmdline", in->cmdline);
	json_end_obj(&j);
	json_str(&j, "aggregation", mycl_stat__aggregation(st));
	json_u64(&j, "interval_ms", mycl_perf_data__stat_config(pd)->interval_ms);
	json_u64(&j, "elapsed_ns", mycl_stat__total(st)->time);
	json_rows(&j, "total", mycl_stat__total(st));
	json_begin_arr(&j, "intervals");
	for (size_t i = 0; i < mycl_stat__nr_intervals(st); i++)
		json_rows(&j, NULL, mycl_stat__interval(st, i));
	json_end_arr(&j);
	json_end_obj(&j);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

/* A stat diff row's count, "<not counted>" or with its unit. */
static void count_cell(char *buf, size_t len, const char *state, double v, const char *unit)
{
	if (state)
		snprintf(buf, len, "%s", !strcmp(state, "absent") ? "-" : state);
	else if (unit)
		snprintf(buf, len, "%.2f %s", v, unit);
	else
		snprintf(buf, len, "%.0f", v);
}

static void metric_cell(char *buf, size_t len, const struct mycl_stat_diff_row *r)
{
	if (!r->metric_unit || r->base_state || r->new_state)
		buf[0] = '\0';
	else if (r->metric_unit[0] == '%')
		snprintf(buf, len, "%.2f%% -> %.2f%%%s", r->base_metric, r->new_metric,
			 r->metric_unit + 1);
	else
		snprintf(buf, len, "%.3f -> %.3f %s", r->base_metric, r->new_metric, r->metric_unit);
}

static void row_label(char *buf, size_t len, const struct mycl_stat_diff_row *r)
{
	if (r->pid >= 0)
		snprintf(buf, len, "%s (%s-%d)", r->event, r->comm ? r->comm : "?", r->pid);
	else if (r->cpu >= 0)
		snprintf(buf, len, "%s (CPU%d)", r->event, r->cpu);
	else
		snprintf(buf, len, "%s", r->event);
}

static bool any_noise(const struct mycl_stat_diff_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].noise_known)
			return true;
	return false;
}

static void stat_diff_head(FILE *f, const struct mycl_stat_diff_row *rows, size_t n,
			   const struct mycl_diff_write_opts *o, const char *lead)
{
	fprintf(f, "%sbase: %s\n%snew:  %s\n", lead, str_or(OPTS_GET(o, base_name, NULL), "?"),
		lead, str_or(OPTS_GET(o, new_name, NULL), "?"));
	if (any_noise(rows, n))
		fprintf(f, "%scompared: each event's count over the whole run; changed (*): the "
			"mean rate of the -I intervals moved by 4 standard errors or more (z)\n", lead);
	else
		fprintf(f, "%scompared: each event's count over the whole run; noise unknown: one "
			"count a side (record both with perf stat record -I 1000 to measure it)\n",
			lead);
}

MYCL_API int mycl_diff__write_stat_text(FILE *f, const struct mycl_stat_diff *d,
					const struct mycl_diff_write_opts *o)
{
	size_t n;
	const struct mycl_stat_diff_row *rows = mycl_diff__stat_rows(d, &n);

	if (!OPTS_VALID(o, mycl_diff_write_opts))
		return MYCL_ERR_OPTS;
	stat_diff_head(f, rows, n, o, "# ");
	fprintf(f, "#\n#  %17s %17s %8s %6s  %s\n", "base", "new", "change", "z", "event: figure");
	for (size_t i = 0; i < n; i++) {
		const struct mycl_stat_diff_row *r = &rows[i];
		char b[40], nw[40], m[96], l[96], z[16], ch[16];

		count_cell(b, sizeof(b), r->base_state, r->base, r->unit);
		count_cell(nw, sizeof(nw), r->new_state, r->new_count, r->unit);
		metric_cell(m, sizeof(m), r);
		row_label(l, sizeof(l), r);
		snprintf(z, sizeof(z), r->noise_known ? "%.1f" : "-", r->z);
		snprintf(ch, sizeof(ch), r->base_counted && r->new_counted && r->base ? "%+.2f%%" : "",
			 r->change);
		fprintf(f, "%c %17s %17s %8s %6s  %s%s%s\n", r->changed ? '*' : ' ', b, nw, ch, z, l,
			m[0] ? ": " : "", m);
	}
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_diff__write_stat_markdown(FILE *f, const struct mycl_stat_diff *d,
					    const struct mycl_diff_write_opts *o)
{
	size_t n;
	const struct mycl_stat_diff_row *rows = mycl_diff__stat_rows(d, &n);

	if (!OPTS_VALID(o, mycl_diff_write_opts))
		return MYCL_ERR_OPTS;
	fputs("base: ", f);
	report_md_text(f, str_or(OPTS_GET(o, base_name, NULL), "?"));
	fputs("  \nnew: ", f);
	report_md_text(f, str_or(OPTS_GET(o, new_name, NULL), "?"));
	fprintf(f, "  \n%s\n\n| | event | base | new | change | z | figure |\n"
		"|---|---|---:|---:|---:|---:|---|\n", any_noise(rows, n) ?
		"Changed: the mean rate of the -I intervals moved by 4 standard errors or more." :
		"Noise unknown: one count a side (record both with `perf stat record -I 1000`).");
	for (size_t i = 0; i < n; i++) {
		const struct mycl_stat_diff_row *r = &rows[i];
		char b[40], nw[40], m[96], l[96];

		count_cell(b, sizeof(b), r->base_state, r->base, r->unit);
		count_cell(nw, sizeof(nw), r->new_state, r->new_count, r->unit);
		metric_cell(m, sizeof(m), r);
		row_label(l, sizeof(l), r);
		fprintf(f, "| %s | ", r->changed ? "**changed**" : "");
		report_md_text(f, l);
		fprintf(f, " | %s | %s | ", b, nw);
		if (r->base_counted && r->new_counted && r->base)
			fprintf(f, "%+.2f%%", r->change);
		fputs(" | ", f);
		if (r->noise_known)
			fprintf(f, "%.1f", r->z);
		fprintf(f, " | %s |\n", m);
	}
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_diff__write_stat_json(FILE *f, const struct mycl_stat_diff *d,
					const struct mycl_diff_write_opts *o)
{
	size_t n;
	const struct mycl_stat_diff_row *rows = mycl_diff__stat_rows(d, &n);
	struct json j;

	if (!OPTS_VALID(o, mycl_diff_write_opts))
		return MYCL_ERR_OPTS;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-stat-diff/1");
	json_str(&j, "base", OPTS_GET(o, base_name, NULL));
	json_str(&j, "new", OPTS_GET(o, new_name, NULL));
	json_begin_arr(&j, "rows");
	for (size_t i = 0; i < n; i++) {
		const struct mycl_stat_diff_row *r = &rows[i];

		json_begin_obj(&j, NULL);
		json_str(&j, "event", r->event);
		if (r->cpu >= 0)
			json_i64(&j, "cpu", r->cpu);
		if (r->pid >= 0) {
			json_i64(&j, "pid", r->pid);
			json_str(&j, "comm", r->comm);
		}
		json_str(&j, "unit", r->unit);
		json_bool(&j, "base_counted", r->base_counted);
		json_bool(&j, "new_counted", r->new_counted);
		json_str(&j, "base_state", r->base_state);
		json_str(&j, "new_state", r->new_state);
		json_dbl(&j, "base", r->base, 6);
		json_dbl(&j, "new", r->new_count, 6);
		json_dbl(&j, "change_percent", r->change, 4);
		json_str(&j, "metric_unit", r->metric_unit);
		if (r->metric_unit) {
			json_dbl(&j, "base_metric", r->base_metric, 6);
			json_dbl(&j, "new_metric", r->new_metric, 6);
		}
		json_bool(&j, "noise_known", r->noise_known);
		if (r->noise_known) {
			json_dbl(&j, "base_rate", r->base_rate, 6);
			json_dbl(&j, "new_rate", r->new_rate, 6);
			json_dbl(&j, "z", isfinite(r->z) ? r->z : (r->z > 0 ? 1e9 : -1e9), 2);
		}
		json_bool(&j, "changed", r->changed);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_report__stat_html(FILE *out, const struct mycl_stat *st, const char *title)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int err;

	if (!m)
		return -ENOMEM;
	err = mycl_report__stat_text(m, st, NULL);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (err) {
		free(text);
		return err;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n<title>", out);
	xml_escape(out, title ? title : "mycl counters");
	fputs("</title>\n<style>body{font-family:'DejaVu Sans',sans-serif;margin:16px 24px}"
	      "pre{font-family:'DejaVu Sans Mono',monospace;font-size:12px;background:#f6f6f0;"
	      "padding:8px;overflow-x:auto}</style></head><body>\n<h1>", out);
	xml_escape(out, title ? title : "mycl counters");
	fputs("</h1>\n<p>Counter statistics of a perf stat recording, as perf stat report shows "
	      "them, with the figures it derives.</p>\n<pre>", out);
	xml_escape(out, text);
	fputs("</pre>\n</body></html>\n", out);
	free(text);
	return ferror(out) ? -EIO : 0;
}
