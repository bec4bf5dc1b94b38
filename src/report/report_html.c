/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One self-contained HTML page per recording: what was recorded, the flame
 * graph, the flat profile as a table, the lock and spin sites, the hottest
 * code annotated, and the symbolization summary.  No fetch: the style and the
 * script are in the page.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "flame.h"
#include "mycl/annotate.h"
#include "mycl/locks.h"
#include "report_priv.h"

static const char html_style[] =
	"body{font-family:'DejaVu Sans',sans-serif;margin:16px 24px;color:#111;background:#fff}"
	"h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #ccc}"
	"p.what{color:#444;margin:4px 0 8px}"
	"pre{font-family:'DejaVu Sans Mono',monospace;font-size:12px;background:#f6f6f0;"
	"padding:8px;overflow-x:auto}"
	"pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}"
	"table.mycl-flat{border-collapse:collapse;font-size:12px;font-family:'DejaVu Sans Mono',monospace}"
	"table.mycl-flat th,table.mycl-flat td{padding:2px 8px;text-align:left;border-bottom:1px solid #eee}"
	"td.num{text-align:right}div.bar{height:10px;background:#e07020}"
	"nav a{margin-right:14px}";

/*
 * TEXT (lines of a text report) in a <pre>; with STRIP_HASH (the header and
 * the summary: prose) the leading "# " of each line dropped and long lines
 * wrapped where the page ends, not hidden past a scroll bar.
 */
static void pre_block(FILE *f, const char *text, bool strip_hash)
{
	fputs(strip_hash ? "<pre class=\"wrap\">" : "<pre>", f);
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *line = strndup(l, len);

		if (line) {
			const char *s = line;

			if (strip_hash && s[0] == '#')
				s += s[1] == ' ' ? 2 : 1;
			xml_escape(f, s);
			fputc('\n', f);
			free(line);
		}
		l += len + (nl ? 1 : 0);
	}
	fputs("</pre>\n", f);
}

static void flat_table(FILE *f, const struct mycl_profile_event *pe, size_t max_rows, bool lat)
{
	double top = 0;

	fprintf(f, "<table class=\"mycl-flat\"><thead><tr>%s<th>Self</th><th></th><th>Samples</th>"
		"<th>Command</th><th>Binary</th><th>Symbol</th></tr></thead><tbody>\n",
		lat ? "<th>Latency</th>" : "");
	if (pe->nr_rows)
		top = pct(pe->rows[0].period, pe->total_period_all);
	for (size_t i = 0; i < pe->nr_rows && i < max_rows; i++) {
		const struct mycl_hot_row *r = &pe->rows[i];
		double share = pct(r->period, pe->total_period_all);
		char sym[64];

		fputs("<tr>", f);
		if (lat)
			fprintf(f, "<td class=\"num\">%.2f%%</td>", pct(r->latency, pe->total_latency_all));
		fprintf(f, "<td class=\"num\">%.2f%%</td><td><div class=\"bar\" style=\"width:%.0fpx\">"
			"</div></td><td class=\"num\">%" PRIu64 "</td><td>", share,
			top > 0 ? 120.0 * share / top : 0, r->samples);
		xml_escape(f, str_or(r->comm, ""));
		fputs("</td><td>", f);
		xml_escape(f, str_or(r->dso, ""));
		fputs("</td><td>", f);
		if (r->sym) {
			xml_escape(f, r->sym);
			if (r->level == 'k')
				fputs(" [k]", f);
		} else {
			xml_escape(f, report_addr_name(sym, sizeof(sym), r->dso, r->addr));
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static int locks_section(FILE *f, const struct mycl_profile *p, size_t ev)
{
	struct mycl_lock_report *r = NULL;
	struct capture c;
	bool full = true;
	char *text;
	int err;

	err = mycl_profile__locks(p, ev, &r);
	if (err) {
		full = false;
		err = mycl_profile__lock_summary(p, ev, NULL, &r);
	}
	if (err)
		return err == -ENOMEM ? err : 0;
	fputs("<h2 id=\"locks\">Lock and spin sites</h2>\n<p class=\"what\">Time in lock and spin "
	      "primitives and, per lock site, the code that takes the lock.</p>\n", f);
	if (!r->samples) {
		fputs("<p>No sample fell in a lock or spin primitive.</p>\n", f);
		mycl_lock_report__free(r);
		return 0;
	}
	if (!capture_begin(&c)) {
		mycl_lock_report__free(r);
		return -ENOMEM;
	}
	err = mycl_report__locks_text(c.f, r, 0.5);
	if (!full)
		fputs("# Lock sites need a profile built with the lock analysis (mycl-hot --locks).\n",
		      c.f);
	text = capture_end(&c);
	mycl_lock_report__free(r);
	if (!text)
		return -ENOMEM;
	pre_block(f, text, false);
	free(text);
	return err;
}

static int html_annotation(const struct mycl_annotation *a, void *ctx)
{
	FILE *f = ctx;
	struct capture c;
	char *text;
	int err;

	if (!capture_begin(&c))
		return -ENOMEM;
	err = mycl_report__annotation_text(c.f, a, 8);
	text = capture_end(&c);
	if (!text)
		return -ENOMEM;
	pre_block(f, text, false);
	free(text);
	return err;
}

static int code_section(FILE *f, const struct mycl_profile *p, size_t ev,
			const struct mycl_html_opts *o)
{
	int n;

	fputs("<h2 id=\"code\">Hottest code</h2>\n<p class=\"what\">The hottest functions "
	      "disassembled, samples per instruction, with source lines and the globals each "
	      "instruction touches.</p>\n", f);
	n = report_hot_annotations(p, ev, OPTS_GET(o, annotate, 0), OPTS_GET(o, annotate_opts, NULL),
				   NULL, NULL, html_annotation, f);
	if (!n)
		fputs("<p>No user-space function with samples could be disassembled (see the "
		      "symbolization summary).</p>\n", f);
	return n < 0 ? n : 0;
}

MYCL_API int mycl_report__html(FILE *f, const struct mycl_profile *p, size_t ev,
			       const struct mycl_html_opts *o)
{
	const struct mycl_perf_data *pd = mycl_profile__perf_data(p);
	const struct mycl_profile_event *pe;
	size_t max_rows = OPTS_GET(o, max_rows, 0) ? OPTS_GET(o, max_rows, 0) : 50;
	struct capture c;
	char *text;
	int err;

	if (!OPTS_VALID(o, mycl_html_opts) ||
	    !OPTS_VALID(OPTS_GET(o, annotate_opts, NULL), mycl_annotate_opts))
		return MYCL_ERR_OPTS;
	if (ev >= mycl_profile__nr_events(p))
		return -EINVAL;
	pe = mycl_profile__event(p, ev);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>", f);
	xml_escape(f, OPTS_GET(o, title, NULL) ? OPTS_GET(o, title, NULL) : "mycl profile");
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>", html_style);
	xml_escape(f, OPTS_GET(o, title, NULL) ? OPTS_GET(o, title, NULL) : "mycl profile");
	fputs("</h1>\n<nav><a href=\"#recording\">Recording</a><a href=\"#flame\">Flame graph</a>"
	      "<a href=\"#time\">Over time</a><a href=\"#flat\">Flat profile</a><a href=\"#locks\">Locks</a><a href=\"#code\">Code</a>"
	      "<a href=\"#symbols\">Symbols</a></nav>\n", f);

	fputs("<h2 id=\"recording\">Recording</h2>\n<p class=\"what\">What was recorded, and what "
	      "the recording cannot answer well.</p>\n", f);
	if (!capture_begin(&c))
		return -ENOMEM;
	report_text_header(c.f, p);
	text = capture_end(&c);
	if (!text)
		return -ENOMEM;
	pre_block(f, text, true);
	free(text);

	if (mycl_profile__has_callgraph(p)) {
		MYCL_OPTS(mycl_flame_opts, fo, .inline_svg = true,
			  .title = "Where the time goes, through which call paths");
		fputs("<h2 id=\"flame\">Flame graph</h2>\n<p class=\"what\">Call paths, callers below: "
		      "click a frame to zoom, Search (or Ctrl-F) to highlight functions.</p>\n<div>", f);
		err = mycl_report__flamegraph(f, p, ev, &fo);
		fputs("</div>\n", f);
		if (!err)
			err = report_heatmap(f, p, ev);
		if (err)
			return err;
	}

	fprintf(f, "<h2 id=\"flat\">Flat profile</h2>\n<p class=\"what\">Self time by command, binary "
		"and function: %" PRIu64 " samples of '", pe->nr_samples);
	xml_escape(f, pe->event ? pe->event->name : "?");
	fprintf(f, "', the top %zu of %zu rows.</p>\n", max_rows < pe->nr_rows ? max_rows : pe->nr_rows,
		pe->nr_rows);
	if (mycl_profile__latency_method(p))
		fprintf(f, "<p class=\"what\">Latency: each sample's time over the threads running "
			"then (perf report --latency), counted from %s; rows by latency.</p>\n",
			!strcmp(mycl_profile__latency_method(p), "switches") ? "the context switches" :
			"each CPU's latest sample, by command");
	flat_table(f, pe, max_rows, mycl_profile__latency_method(p) != NULL);

	err = locks_section(f, p, ev);
	if (!err)
		err = code_section(f, p, ev, o);
	if (err)
		return err;

	fputs("<h2 id=\"symbols\">Symbolization</h2>\n<p class=\"what\">Where symbols came from, and "
	      "what to install where they are missing.</p>\n", f);
	if (!capture_begin(&c))
		return -ENOMEM;
	report_text_summary(c.f, p);
	text = capture_end(&c);
	if (!text)
		return -ENOMEM;
	pre_block(f, text, true);
	free(text);
	fputs("<p class=\"what\">Written by mycl from ", f);
	xml_escape(f, mycl_perf_data__path(pd));
	fputs(".</p>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
