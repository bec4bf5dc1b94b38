/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Flame graphs (Brendan Gregg's layout): one box per frame of the merged call
 * paths, the command at the base, callers below callees, siblings in name
 * order, each box as wide as the samples in and under it.  The SVG carries
 * its own script: a click zooms on a frame, "Search" highlights the frames a
 * regular expression matches and says what share they cover, each frame has
 * a tooltip, and the line at the bottom names the frame under the pointer.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "flame.h"
#include "idmap.h"
#include "report_priv.h"

#define FLAME_NONE UINT32_MAX

struct fnode {
	uint32_t name;			/* id in names */
	uint32_t parent, first_child, next_sibling;
	uint32_t depth;
	char kind;			/* 'r' root, 'c' command, 'k' kernel, 'u' user, '?' unresolved */
	uint64_t v[2];
	uint64_t n[2];			/* samples, for the noise test of a comparison */
};

struct flame {
	int nv;
	struct fnode *nodes;
	size_t nr, cap;
	struct idmap names;		/* NUL-terminated names */
	struct idmap kids;		/* (parent, name) -> node index */
	/* adding a path */
	int which;
	bool by_period;
};

static const char *name_of(const struct flame *fl, const struct fnode *n)
{
	return idmap_key(&fl->names, n->name);
}

/* PARENT's child named NAME, made when new; FLAME_NONE on -ENOMEM. */
static uint32_t child(struct flame *fl, uint32_t parent, const char *name, char kind)
{
	bool fresh;
	uint64_t nid = idmap_get(&fl->names, name, strlen(name) + 1, &fresh), id;
	uint32_t key[2] = { parent, (uint32_t)nid };
	struct fnode *n;

	if (!nid || nid > UINT32_MAX)
		return FLAME_NONE;
	id = idmap_get(&fl->kids, key, sizeof(key), &fresh);
	if (!id)
		return FLAME_NONE;
	if (!fresh)
		return (uint32_t)id;
	/* Node ids follow the map's: the root is 0, the first child 1. */
	if (id >= FLAME_NONE - 1 || ARRAY_GROW(fl->nodes, fl->cap, fl->nr + 1))
		return FLAME_NONE;
	n = &fl->nodes[fl->nr];
	*n = (struct fnode){ .name = (uint32_t)nid, .parent = parent, .first_child = FLAME_NONE,
			     .next_sibling = fl->nodes[parent].first_child,
			     .depth = fl->nodes[parent].depth + 1, .kind = kind };
	fl->nodes[parent].first_child = (uint32_t)fl->nr;
	return (uint32_t)fl->nr++;
}

struct flame *flame_new(int nv)
{
	struct flame *fl = calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	bool fresh;
	uint64_t nid;

	fl->nv = nv == 2 ? 2 : 1;
	nid = idmap_get(&fl->names, "all", 4, &fresh);
	if (!nid || ARRAY_GROW(fl->nodes, fl->cap, 1)) {
		flame_free(fl);
		return NULL;
	}
	fl->nodes[0] = (struct fnode){ .name = (uint32_t)nid, .parent = FLAME_NONE, .first_child = FLAME_NONE,
				       .next_sibling = FLAME_NONE, .kind = 'r' };
	fl->nr = 1;
	return fl;
}

void flame_free(struct flame *fl)
{
	if (!fl)
		return;
	free(fl->nodes);
	idmap_free(&fl->names);
	idmap_free(&fl->kids);
	free(fl);
}

static int add_path(const char *comm, const struct mycl_cg_node *frames, size_t n,
		    uint64_t samples, uint64_t period, void *ctx)
{
	struct flame *fl = ctx;
	uint64_t v = fl->by_period ? period : samples;
	uint32_t at = 0;
	char name[512];

	/* The command at the base, when the profile kept it. */
	if (comm)
		at = child(fl, at, comm, 'c');
	for (size_t i = 0; i < n && at != FLAME_NONE; i++) {
		const struct mycl_cg_node *fr = &frames[i];

		report_node_name(fr, name, sizeof(name));
		at = child(fl, at, name, !fr->sym ? '?' : fr->level == 'k' ? 'k' : 'u');
	}
	if (at == FLAME_NONE)
		return -ENOMEM;
	for (; at != FLAME_NONE; at = fl->nodes[at].parent) {
		fl->nodes[at].v[fl->which] += v;
		fl->nodes[at].n[fl->which] += samples;
	}
	return 0;
}

int flame_add_profile(struct flame *fl, const struct mycl_profile *p, size_t ev, int which,
		      bool by_period)
{
	fl->which = which == 1 && fl->nv == 2 ? 1 : 0;
	fl->by_period = by_period;
	return mycl_profile__for_each_path(p, ev, add_path, fl);
}

void xml_escape(FILE *f, const char *s)
{
	while (*s) {
		size_t run = 0;

		/* plain ASCII goes out as it is; the rest is looked at a byte at a time */
		while ((unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x80 &&
		       !strchr("&<>\"'", s[run]))
			run++;
		if (run)
			fwrite(s, 1, run, f);
		s += run;
		if ((unsigned char)*s >= 0x80 || ((unsigned char)*s < 0x20 && *s &&
						  !strchr("\t\n\r", *s))) {
			/*
			 * XML is UTF-8 without most C0 controls: a byte that is no UTF-8
			 * or such a control would make the whole page or picture
			 * unreadable (a browser stops at it); U+FFFD there.
			 */
			s += str_put_utf8(f, s, "&#xfffd;");
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\0': continue;	/* the end */
		default: fputc(*s, f); break;	/* \t \n \r */
		}
		s++;
	}
}

/* Layout constants, shared with the script. */
#define FRAME_H 16
#define PAD 10
#define TOP 56
#define BOTTOM 34
#define CHAR_W 7.0		/* 12px monospace-ish: what a label may hold */

struct layout {
	FILE *f;
	const struct flame *fl;
	const struct flame_svg *o;
	double scale;		/* px per unit of count 'w' */
	double min_units;	/* narrower frames (and their subtrees) are left out */
	int w;			/* the count that sets widths */
	uint32_t max_depth;
	uint64_t total[2];
	double max_delta;	/* diff: largest |change| of a function */
	/*
	 * diff: per name id, the function's samples and counts in and under it
	 * over the whole run (each sample once, however deep it recurses): a
	 * frame is coloured by its function's change, as the table compares
	 * functions, not by its path's (a path that moved under a new caller is
	 * all new, its functions unchanged).
	 */
	struct fnode *func;
	uint32_t *order;	/* children, sorted: scratch */
	size_t omitted;
};

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct flame *fl = ctx;
	const struct fnode *x = &fl->nodes[*(const uint32_t *)a], *y = &fl->nodes[*(const uint32_t *)b];

	return strcmp(name_of(fl, x), name_of(fl, y));
}

static double share(const struct layout *l, const struct fnode *n, int which)
{
	return pct(n->v[which], l->total[which]);
}

/* A comparison's change at N: share points, or the amount (runs that did the same work). */
static double change(const struct layout *l, const struct fnode *n)
{
	if (l->o->by_share)
		return share(l, n, 1) - share(l, n, 0);
	return (double)n->v[1] - (double)n->v[0];
}

/* Whether N's change is past 4 standard errors of sampling (counts of samples). */
static bool beyond_noise(const struct layout *l, const struct fnode *n)
{
	const struct fnode *root = &l->fl->nodes[0];
	double n0 = (double)n->n[0], n1 = (double)n->n[1], z;

	if (l->o->by_share) {
		double t0 = (double)root->n[0], t1 = (double)root->n[1], p0, p1, se;

		if (!t0 || !t1)
			return false;
		p0 = n0 / t0;
		p1 = n1 / t1;
		se = sqrt(p0 * (1 - p0) / t0 + p1 * (1 - p1) / t1);
		z = se > 0 ? (p1 - p0) / se : 0;
	} else {
		z = n0 + n1 > 0 ? (n1 - n0) / sqrt(n0 + n1) : 0;
	}
	return z >= 4 || z <= -4;
}

/* The whole run's counts of N's function (N itself without them). */
static const struct fnode *func_of(const struct layout *l, const struct fnode *n)
{
	return l->func ? &l->func[n->name] : n;
}

/*
 * Each function's counts over the run: a node's counts go to its name unless
 * a caller above it on its path has that name (recursion counted once).
 */
static int func_totals(struct layout *l)
{
	const struct flame *fl = l->fl;

	l->func = calloc(fl->names.nr + 1, sizeof(*l->func));
	if (!l->func)
		return -ENOMEM;
	for (size_t i = 0; i < fl->nr; i++) {
		const struct fnode *n = &fl->nodes[i];
		struct fnode *f = &l->func[n->name];
		bool above = false;

		for (uint32_t p = n->parent; p != FLAME_NONE && !above; p = fl->nodes[p].parent)
			above = fl->nodes[p].name == n->name;
		if (above)
			continue;
		for (int w = 0; w < 2; w++) {
			f->v[w] += n->v[w];
			f->n[w] += n->n[w];
		}
	}
	return 0;
}

static void colour(const struct layout *l, const struct fnode *n, char *buf, size_t len)
{
	uint64_t h = str_hash(name_of(l->fl, n));

	if (l->o->diff) {
		const struct fnode *f = func_of(l, n);
		double d = change(l, f);
		double s = l->max_delta > 0 ? d / l->max_delta : 0;
		int c;

		if (!beyond_noise(l, f))
			s = 0;

		if (s > 1)
			s = 1;
		if (s < -1)
			s = -1;
		c = 235 - (int)((s < 0 ? -s : s) * 200);
		if (s >= 0)
			snprintf(buf, len, "rgb(255,%d,%d)", c, c);
		else
			snprintf(buf, len, "rgb(%d,%d,255)", c, c);
		return;
	}
	switch (n->kind) {
	case 'r': snprintf(buf, len, "rgb(200,200,200)"); break;
	case 'c': snprintf(buf, len, "rgb(%d,%d,%d)", 90 + (int)(h % 40), 160 + (int)((h >> 8) % 50),
			   200 + (int)((h >> 16) % 50)); break;
	case 'k': snprintf(buf, len, "rgb(%d,%d,%d)", 200 + (int)(h % 40), 120 + (int)((h >> 8) % 50),
			   40 + (int)((h >> 16) % 30)); break;
	case '?': snprintf(buf, len, "rgb(%d,%d,%d)", 170 + (int)(h % 30), 170 + (int)(h % 30),
			   170 + (int)(h % 30)); break;
	default: snprintf(buf, len, "rgb(%d,%d,%d)", 205 + (int)(h % 50), (int)((h >> 8) % 230),
			  (int)((h >> 16) % 55)); break;
	}
}

/* What a label of WIDTH px shows of NAME. */
static void label(FILE *f, const char *name, double width)
{
	size_t room = width > 6 ? (size_t)((width - 6) / CHAR_W) : 0, len = strlen(name);
	char buf[512];

	if (room < 3)
		return;
	if (len <= room) {
		xml_escape(f, name);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*s..", (int)(room - 2 < sizeof(buf) - 3 ? room - 2 :
						  sizeof(buf) - 3), name);
	xml_escape(f, buf);
}

static void frame(struct layout *l, uint32_t id, double x)
{
	const struct fnode *n = &l->fl->nodes[id];
	const char *name = name_of(l->fl, n);
	double width = (double)n->v[l->w] * l->scale;
	double y = TOP + (double)(l->max_depth - n->depth) * FRAME_H;
	char fill[64];

	colour(l, n, fill, sizeof(fill));
	fprintf(l->f, "<g class=\"fg-f\" data-d=\"%u\" data-n=\"", n->depth);
	xml_escape(l->f, name);
	fputs("\"><title>", l->f);
	xml_escape(l->f, name);
	if (l->o->diff) {
		const struct fnode *f = func_of(l, n);

		fprintf(l->f, " (the function: base %" PRIu64 ", new %" PRIu64 " %s: %+.0f; share "
			"%.2f%% to %.2f%%%s. This path: base %" PRIu64 ", new %" PRIu64 ")", f->v[0],
			f->v[1], l->o->unit, (double)f->v[1] - (double)f->v[0], share(l, f, 0),
			share(l, f, 1), beyond_noise(l, f) ? "; beyond sampling noise" :
			"; within sampling noise", n->v[0], n->v[1]);
	}
	else
		fprintf(l->f, " (%" PRIu64 " %s, %.2f%%)", n->v[0], l->o->unit, share(l, n, 0));
	fprintf(l->f, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\"/><text x=\"%.1f\" y=\"%.1f\">", x, y, width, FRAME_H - 1, fill, x + 3,
		y + FRAME_H - 4.5);
	label(l->f, name, width);
	fputs("</text></g>\n", l->f);
}

static size_t nr_children(const struct flame *fl, uint32_t id)
{
	size_t k = 0;

	for (uint32_t c = fl->nodes[id].first_child; c != FLAME_NONE; c = fl->nodes[c].next_sibling)
		k++;
	return k;
}

/* Writes ID and its subtree from X (px); the children in name order. */
static int subtree(struct layout *l, uint32_t id, double x)
{
	const struct flame *fl = l->fl;
	size_t k = nr_children(fl, id), i = 0;
	uint32_t *kids;

	frame(l, id, x);
	if (!k)
		return 0;
	kids = malloc(k * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	for (uint32_t c = fl->nodes[id].first_child; c != FLAME_NONE; c = fl->nodes[c].next_sibling)
		kids[i++] = c;
	qsort_r(kids, k, sizeof(*kids), by_name, (void *)fl);
	for (i = 0; i < k; i++) {
		const struct fnode *c = &fl->nodes[kids[i]];
		int err;

		if ((double)c->v[l->w] < l->min_units) {
			l->omitted++;
			continue;
		}
		err = subtree(l, kids[i], x);
		if (err) {
			free(kids);
			return err;
		}
		x += (double)c->v[l->w] * l->scale;
	}
	free(kids);
	return 0;
}

static const char flame_style[] =
	"text{font-family:'DejaVu Sans Mono',monospace;font-size:12px;fill:#000}"
	".fg-f text{pointer-events:none}.fg-f rect{stroke:#fff;stroke-width:0.5}"
	".fg-f:hover rect{stroke:#000;stroke-width:1}.fg-f{cursor:pointer}"
	".fg-btn{cursor:pointer;fill:#036}.fg-btn:hover{text-decoration:underline}"
	".fg-parent rect{opacity:0.55}.fg-hide{display:none}"
	"#fg-title{font-size:16px;font-weight:bold}";

/*
 * The script: frames keep their first geometry in fgX/fgW; a zoom lays out
 * the clicked frame's subtree across the width, shows its callers as full
 * bars and hides the rest; labels are cut to what their box holds.
 */
static const char flame_script[] =
	"(function(){\n"
	"var svg=document.getElementById('fg-svg'),W=+svg.getAttribute('data-width'),P=%d,CW=%.1f;\n"
	"var frames=Array.prototype.slice.call(svg.querySelectorAll('.fg-f'));\n"
	"var details=document.getElementById('fg-details'),reset=document.getElementById('fg-reset');\n"
	"var matched=document.getElementById('fg-matched'),sbtn=document.getElementById('fg-search');\n"
	"frames.forEach(function(g){var r=g.querySelector('rect');g.fgX=+r.getAttribute('x');"
	"g.fgW=+r.getAttribute('width');g.fgD=+g.getAttribute('data-d');g.fgC=r.getAttribute('fill');});\n"
	"function fit(g,x,w){var r=g.querySelector('rect'),t=g.querySelector('text'),n=g.getAttribute('data-n');"
	"r.setAttribute('x',x.toFixed(1));r.setAttribute('width',w.toFixed(1));t.setAttribute('x',(x+3).toFixed(1));"
	"var room=Math.floor((w-6)/CW);t.textContent=room<3?'':n.length<=room?n:n.slice(0,room-2)+'..';}\n"
	"function zoom(z){var x0=z.fgX,w0=z.fgW,s=(W-2*P)/w0;\n"
	"frames.forEach(function(g){g.classList.remove('fg-hide','fg-parent');\n"
	"if(g.fgD>=z.fgD&&g.fgX>=x0-0.05&&g.fgX+g.fgW<=x0+w0+0.05)fit(g,P+(g.fgX-x0)*s,g.fgW*s);\n"
	"else if(g.fgD<z.fgD&&g.fgX<=x0+0.05&&g.fgX+g.fgW>=x0+w0-0.05){g.classList.add('fg-parent');fit(g,P,W-2*P);}\n"
	"else g.classList.add('fg-hide');});\n"
	"svg.setAttribute('data-zoomed',z.getAttribute('data-n'));reset.classList.remove('fg-hide');}\n"
	"function unzoom(){frames.forEach(function(g){g.classList.remove('fg-hide','fg-parent');fit(g,g.fgX,g.fgW);});"
	"svg.removeAttribute('data-zoomed');reset.classList.add('fg-hide');}\n"
	"function search(re){var iv=[],rx;try{rx=new RegExp(re);}catch(e){matched.textContent='bad expression';return;}\n"
	"frames.forEach(function(g){var r=g.querySelector('rect'),hit=rx.test(g.getAttribute('data-n'));"
	"r.setAttribute('fill',hit?'rgb(230,0,230)':g.fgC);if(hit&&g.fgD>0)iv.push([g.fgX,g.fgX+g.fgW]);});\n"
	"iv.sort(function(a,b){return a[0]-b[0];});var sum=0,end=-1;\n"
	"iv.forEach(function(v){if(v[0]>=end){sum+=v[1]-v[0];end=v[1];}else if(v[1]>end){sum+=v[1]-end;end=v[1];}});\n"
	"var root=frames.filter(function(g){return g.fgD==0;})[0];\n"
	"matched.textContent='Matched: '+(root?(100*sum/root.fgW).toFixed(1):'0')+'%%';"
	"svg.setAttribute('data-search',re);sbtn.textContent='Reset search';}\n"
	"function unsearch(){frames.forEach(function(g){g.querySelector('rect').setAttribute('fill',g.fgC);});"
	"matched.textContent='';svg.removeAttribute('data-search');sbtn.textContent='Search';}\n"
	"frames.forEach(function(g){g.addEventListener('click',function(){zoom(g);});\n"
	"g.addEventListener('mouseover',function(){details.textContent=g.querySelector('title').textContent;});\n"
	"g.addEventListener('mouseout',function(){details.textContent=' ';});});\n"
	"reset.addEventListener('click',unzoom);\n"
	"sbtn.addEventListener('click',function(){if(svg.hasAttribute('data-search')){unsearch();return;}"
	"var re=window.prompt('Search frames (regular expression)','');if(re)search(re);});\n"
	"window.addEventListener('keydown',function(e){if((e.ctrlKey||e.metaKey)&&e.key=='f'){e.preventDefault();"
	"var re=window.prompt('Search frames (regular expression)','');if(re)search(re);}});\n"
	"svg.fgZoom=zoom;svg.fgSearch=search;svg.fgReset=unzoom;\n"
	"var q=/[?&]s=([^&]*)/.exec(window.location.search);if(q)search(decodeURIComponent(q[1]));\n"
	"})();\n";

static void max_delta(struct layout *l)
{
	for (size_t i = 1; i < l->fl->nr; i++) {
		const struct fnode *n = func_of(l, &l->fl->nodes[i]);
		double d = change(l, n);

		if (d < 0)
			d = -d;
		if (d > l->max_delta)
			l->max_delta = d;
	}
}

int flame_write_svg(FILE *f, const struct flame *fl, const struct flame_svg *o)
{
	struct layout l = { .f = f, .fl = fl, .o = o, .w = fl->nv - 1 };
	unsigned int width = o->width ? o->width : 1200;
	const struct fnode *root = &fl->nodes[0];
	unsigned int height;
	int err;

	l.total[0] = root->v[0];
	l.total[1] = root->v[fl->nv - 1];
	/* Frames under 0.1 px are left out, with their subtrees. */
	l.scale = root->v[l.w] ? (double)(width - 2 * PAD) / (double)root->v[l.w] : 0;
	l.min_units = l.scale > 0 ? 0.1 / l.scale : 1;
	for (size_t i = 0; i < fl->nr; i++)
		if ((double)fl->nodes[i].v[l.w] >= l.min_units && fl->nodes[i].depth > l.max_depth)
			l.max_depth = fl->nodes[i].depth;
	if (o->diff) {
		if (func_totals(&l))
			return -ENOMEM;
		max_delta(&l);
	}
	height = TOP + (l.max_depth + 1) * FRAME_H + BOTTOM;
	if (!o->inline_svg)
		fputs("<?xml version=\"1.0\" standalone=\"no\"?>\n", f);
	fprintf(f, "<svg version=\"1.1\" id=\"fg-svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"data-width=\"%u\" data-total=\"%" PRIu64 "\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		width, height, width, height, width, root->v[l.w]);
	fprintf(f, "<style>%s</style>\n", flame_style);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#fbfbf5\"/>\n", width, height);
	fprintf(f, "<text id=\"fg-title\" x=\"%u\" y=\"22\" text-anchor=\"middle\">", width / 2);
	xml_escape(f, o->title ? o->title : "Flame graph");
	fputs("</text>\n", f);
	if (o->subtitle) {
		fprintf(f, "<text id=\"fg-subtitle\" x=\"%u\" y=\"40\" text-anchor=\"middle\">", width / 2);
		xml_escape(f, o->subtitle);
		fputs("</text>\n", f);
	}
	fputs("<text id=\"fg-reset\" class=\"fg-btn fg-hide\" x=\"10\" y=\"22\">Reset zoom</text>\n", f);
	fprintf(f, "<text id=\"fg-search\" class=\"fg-btn\" x=\"%u\" y=\"22\" text-anchor=\"end\">"
		"Search</text>\n", width - 10);
	fprintf(f, "<text id=\"fg-details\" x=\"10\" y=\"%u\"> </text>\n", height - 12);
	fprintf(f, "<text id=\"fg-matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"></text>\n",
		width - 10, height - 12);
	fputs("<g id=\"fg-frames\">\n", f);
	err = root->v[l.w] ? subtree(&l, 0, PAD) : 0;
	fputs("</g>\n", f);
	if (!root->v[l.w]) {
		fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">no call paths in this "
			"event</text>\n", width / 2, TOP + 10);
	}
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", f);
	fprintf(f, flame_script, PAD, CHAR_W);
	fputs("]]></script>\n</svg>\n", f);
	free(l.func);
	if (err)
		return err;
	return ferror(f) ? -EIO : 0;
}

MYCL_API int mycl_report__flamegraph(FILE *f, const struct mycl_profile *p, size_t ev,
				     const struct mycl_flame_opts *opts)
{
	const struct mycl_profile_event *pe;
	struct flame *fl;
	char title[512], sub[600];
	struct flame_svg o = { 0 };
	bool by_period = OPTS_GET(opts, by_period, false);
	int err;

	if (!OPTS_VALID(opts, mycl_flame_opts))
		return MYCL_ERR_OPTS;
	if (ev >= mycl_profile__nr_events(p) || !mycl_profile__has_callgraph(p))
		return -EINVAL;
	pe = mycl_profile__event(p, ev);
	fl = flame_new(1);
	if (!fl)
		return -ENOMEM;
	err = flame_add_profile(fl, p, ev, 0, by_period);
	if (!err) {
		snprintf(title, sizeof(title), "%s", OPTS_GET(opts, title, NULL) ?
			 OPTS_GET(opts, title, NULL) : "Flame graph");
		snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples of '%s'; width: %s in and under "
			 "each function, callers below", mycl_perf_data__path(mycl_profile__perf_data(p)),
			 pe->nr_samples, pe->event ? pe->event->name : "?",
			 by_period ? "period" : "samples");
		o.title = title;
		o.subtitle = sub;
		o.unit = by_period ? "period" : "samples";
		o.width = (unsigned int)OPTS_GET(opts, width, 0);
		o.inline_svg = OPTS_GET(opts, inline_svg, false);
		err = flame_write_svg(f, fl, &o);
	}
	flame_free(fl);
	return err;
}

MYCL_API int mycl_report__flamegraph_diff(FILE *f, const struct mycl_profile *base, size_t base_ev,
					  const struct mycl_profile *new_p, size_t new_ev,
					  const struct mycl_flame_opts *opts)
{
	bool by_period = OPTS_GET(opts, by_period, false);
	struct flame_svg o = { 0 };
	char title[512], sub[1200];
	struct flame *fl;
	int err;

	if (!OPTS_VALID(opts, mycl_flame_opts))
		return MYCL_ERR_OPTS;
	if (base_ev >= mycl_profile__nr_events(base) || new_ev >= mycl_profile__nr_events(new_p) ||
	    !mycl_profile__has_callgraph(base) || !mycl_profile__has_callgraph(new_p))
		return -EINVAL;
	fl = flame_new(2);
	if (!fl)
		return -ENOMEM;
	err = flame_add_profile(fl, base, base_ev, 0, by_period);
	if (!err)
		err = flame_add_profile(fl, new_p, new_ev, 1, by_period);
	if (!err) {
		snprintf(title, sizeof(title), "%s", OPTS_GET(opts, title, NULL) ?
			 OPTS_GET(opts, title, NULL) : "Differential flame graph");
		snprintf(sub, sizeof(sub), "widths: %s of %s; colour: change of each function's %s "
			 "in and under it, all its paths, from %s (red grew, blue shrank; white: "
			 "within sampling noise)",
			 by_period ? "period" : "samples",
			 OPTS_GET(opts, by_share, false) ? "share" : "amount",
			 mycl_perf_data__path(mycl_profile__perf_data(new_p)),
			 mycl_perf_data__path(mycl_profile__perf_data(base)));
		o.title = title;
		o.subtitle = sub;
		o.unit = by_period ? "period" : "samples";
		o.width = (unsigned int)OPTS_GET(opts, width, 0);
		o.inline_svg = OPTS_GET(opts, inline_svg, false);
		o.diff = true;
		o.by_share = OPTS_GET(opts, by_share, false);
		err = flame_write_svg(f, fl, &o);
	}
	flame_free(fl);
	return err;
}
