/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Call graphs as text trees (laid out like perf report -g) and as JSON. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "internal.h"
#include "json.h"
#include "report_priv.h"

void report_node_name(const struct mycl_cg_node *n, char *buf, size_t len)
{
	if (n->sym)
		snprintf(buf, len, "%s", n->sym);
	else if (n->addr == MYCL_CG_ADDR_MERGED)
		snprintf(buf, len, "%s+[unresolved]", n->dso ? n->dso : "[unknown]");
	else
		report_addr_name(buf, len, n->dso, n->addr);
}

static size_t kept(const struct mycl_cg_node *n, uint64_t total, double limit)
{
	size_t k = 0;

	while (k < n->nr_children && pct(n->children[k].period, total) >= limit)
		k++;		/* children are sorted, largest first */
	return k;
}

static void children(FILE *f, const struct mycl_cg_node *n, const char *prefix, uint64_t total,
		     double limit)
{
	size_t nk = kept(n, total, limit);
	char name[512], next[1024];

	for (size_t i = 0; i < nk; i++) {
		const struct mycl_cg_node *c = &n->children[i], *d = c;
		bool last = i + 1 == nk;
		int w;

		report_node_name(c, name, sizeof(name));
		fprintf(f, "%s|\n", prefix);
		w = fprintf(f, "%s%s%.2f%%--", prefix, last ? " --" : "|--", pct(c->period, total));
		fprintf(f, "%s\n", name);
		w -= (int)strlen(prefix);
		snprintf(next, sizeof(next), "%s%s%*s", prefix, last ? " " : "|", w - 1, "");
		/* A chain with no branch prints as a column, without repeating percentages. */
		while (kept(d, total, limit) == 1 && d->children[0].period == d->period) {
			d = &d->children[0];
			report_node_name(d, name, sizeof(name));
			fprintf(f, "%s%s\n", next, name);
		}
		children(f, d, next, total, limit);
	}
}

void report_tree_text(FILE *f, const struct mycl_cg_node *root, uint64_t total, double limit,
		      int indent)
{
	char name[512], prefix[64];

	snprintf(prefix, sizeof(prefix), "%*s", indent + 3, "");
	report_node_name(root, name, sizeof(name));
	fprintf(f, "%*s|\n%*s---%s\n", indent, "", indent, "", name);
	children(f, root, prefix, total, limit);
	fputc('\n', f);
}

void report_tree_json(void *json, const char *key, const struct mycl_cg_node *n, uint64_t total,
		      double limit)
{
	struct json *j = json;
	size_t nk = kept(n, total, limit);

	json_begin_obj(j, key);
	json_str(j, "symbol", n->sym);
	json_str(j, "dso", n->dso);
	if (!n->sym)
		json_hex(j, "address", n->addr);
	json_dbl(j, "overhead", pct(n->period, total), 4);
	json_u64(j, "samples", n->samples);
	json_u64(j, "period", n->period);
	if (nk) {
		json_begin_arr(j, "children");
		for (size_t i = 0; i < nk; i++)
			report_tree_json(j, NULL, &n->children[i], total, limit);
		json_end_arr(j);
	}
	json_end_obj(j);
}

MYCL_API int mycl_report__graph_text(FILE *f, const struct mycl_profile *p, size_t ev,
				     const struct mycl_cg_node *root, bool callees,
				     const struct mycl_report_opts *o)
{
	const struct mycl_profile_event *pe = mycl_profile__event(p, ev);
	uint64_t total = pe ? pe->total_period_all : 0;
	double limit = REPORT_GRAPH_LIMIT(o);
	char name[512];

	if (!OPTS_VALID(o, mycl_report_opts))
		return MYCL_ERR_OPTS;
	report_node_name(root, name, sizeof(name));
	fprintf(f, "# %s of %s in event '%s': %.2f%% of all samples (%" PRIu64 " samples)\n",
		callees ? "Callees" : "Callers", name, pe && pe->event ? pe->event->name : "?",
		pct(root->period, total), root->samples);
	fprintf(f, "# branches under %.2f%% are not shown\n#\n", limit);
	fprintf(f, "  %7.2f%%  %s\n", pct(root->period, total), name);
	report_tree_text(f, root, total, limit, 12);
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_report__graph_json(FILE *f, const struct mycl_profile *p, size_t ev,
				     const struct mycl_cg_node *root, bool callees,
				     const struct mycl_report_opts *o)
{
	const struct mycl_profile_event *pe = mycl_profile__event(p, ev);
	uint64_t total = pe ? pe->total_period_all : 0;
	double limit = REPORT_GRAPH_LIMIT(o);
	struct json j;

	if (!OPTS_VALID(o, mycl_report_opts))
		return MYCL_ERR_OPTS;
	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "mycl-hot-graph/1");
	json_str(&j, "event", pe && pe->event ? pe->event->name : NULL);
	json_str(&j, "direction", callees ? "callees" : "callers");
	json_u64(&j, "event_count", total);
	report_tree_json(&j, "graph", root, total, limit);
	json_end_obj(&j);
	return json_finish(&j);
}
