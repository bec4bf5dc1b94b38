/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The HTML page's heat map (FlameScope's view): columns of time, each cut
 * into rows of a fraction of it, coloured by samples.  Selecting a range of
 * cells shows that slice's flame graph and flat profile in the page, from
 * data in the page itself: each call path's frames and its samples per
 * timeline bucket (mycl_profile__timed_stacks()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/profile.h"
#include "internal.h"
#include "itable.h"
#include "report_priv.h"

/* S as a JavaScript string safe inside <script>: no quote, backslash, '<' or line break raw. */
static void js_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c < 0x20 || *c == '<' || *c == '>' || *c == '&' || *c == 0x7f)
			fprintf(f, "\\u%04x", *c);
		else if (c[0] == 0xe2 && c[1] == 0x80 && (c[2] == 0xa8 || c[2] == 0xa9)) {
			fprintf(f, "\\u%04x", c[2] == 0xa8 ? 0x2028 : 0x2029);
			c += 2;
		} else
			fputc(*c, f);
	}
	fputc('"', f);
}

/* Frame names, each written once: found by name through index. */
struct names {
	const char **name;
	struct itable index;
	size_t nr, cap;
	char **owned;			/* names made here (unresolved frames), freed at the end */
	size_t nr_owned;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static bool name_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = hash_str(((const struct names *)ctx)->name[i]);
	return true;
}

static long name_id(struct names *n, const char *s)
{
	size_t h;

	if ((itable_full(&n->index, n->nr) && itable_grow(&n->index, n->nr, 1024, name_hash_at, n)) ||
	    ARRAY_GROW(n->name, n->cap, n->nr + 1))
		return -ENOMEM;
	itable_each(&n->index, hash_str(s), h)
		if (!strcmp(n->name[n->index.slot[h]], s))
			return n->index.slot[h];
	n->name[n->nr] = s;
	itable_put(&n->index, h, n->nr);
	return (long)n->nr++;
}

struct emit {
	struct names names;
	FILE *f;
	bool first;
	char buf[4200];
};

static const char *frame_name(const struct mycl_cg_node *fr, char *buf, size_t len)
{
	if (fr->sym)
		return fr->sym;
	snprintf(buf, len, "%s+0x%" PRIx64, fr->dso ? fr->dso : "[unknown]", fr->addr);
	return buf;
}

/* "id:[frame indexes, outermost first]"; new frame names go to the names list. */
static int emit_stack(const struct mycl_stack *s, void *ctx)
{
	struct emit *e = ctx;

	fprintf(e->f, "%s\"%" PRIu32 "\":[", e->first ? "" : ",", s->id);
	e->first = false;
	if (s->comm) {
		long k = name_id(&e->names, s->comm);

		if (k < 0)
			return (int)k;
		fprintf(e->f, "%ld", k);
	}
	for (size_t i = 0; i < s->nr_frames; i++) {
		const char *nm = frame_name(&s->frames[i], e->buf, sizeof(e->buf));
		long k;

		if (nm == e->buf) {
			/* an unresolved frame's name lives in BUF: a copy kept with the names */
			char **o = realloc(e->names.owned, (e->names.nr_owned + 1) * sizeof(*o));

			if (!o)
				return -ENOMEM;
			e->names.owned = o;
			if (!(o[e->names.nr_owned] = strdup(e->buf)))
				return -ENOMEM;
			nm = o[e->names.nr_owned++];
		}
		k = name_id(&e->names, nm);
		if (k < 0)
			return (int)k;
		fprintf(e->f, "%s%ld", i || s->comm ? "," : "", k);
	}
	fputc(']', e->f);
	return 0;
}

static const char heat_style[] =
	"#hm-grid{display:grid;grid-auto-flow:column;gap:1px;user-select:none;"
	"width:max-content;max-width:100%;overflow-x:auto}"
	"#hm-grid div{width:14px;height:8px;background:#f4f4f4;cursor:crosshair}"
	"#hm-grid div.sel{outline:1px solid #0050c0}"
	"#hm-flame div.fr{position:absolute;height:15px;font-size:11px;overflow:hidden;"
	"white-space:nowrap;border:1px solid #fff;box-sizing:border-box;font-family:monospace}"
	"#hm-flame{position:relative;width:100%}";

/* Grid, selection, the slice's flame graph (callers above their callees) and flat profile. */
static const char heat_script[] =
	"(function(){var D=JSON.parse(document.getElementById('hm-data').textContent);"
	"var R=Math.min(50,D.n),C=Math.ceil(D.n/R),g=document.getElementById('hm-grid');"
	"g.style.gridTemplateRows='repeat('+R+',8px)';var max=0,cells=[];"
	"for(var i=0;i<D.n;i++)max=Math.max(max,D.counts[i]);"
	"for(var i=0;i<C*R;i++){var d=document.createElement('div'),v=i<D.n?D.counts[i]:0;"
	"d.dataset.b=i;if(v){var t=v/max;d.style.background='rgb(255,'+Math.round(230-200*t)+','"
	"+Math.round(200-200*t)+')';}"
	"d.title='+'+(i*D.width/1e9).toFixed(3)+' s: '+v+' samples';g.appendChild(d);cells.push(d);}"
	"var a=-1,b=-1,down=false;"
	"function mark(){var lo=Math.min(a,b),hi=Math.max(a,b);cells.forEach(function(d,i){"
	"d.classList.toggle('sel',i>=lo&&i<=hi);});}"
	"g.addEventListener('mousedown',function(e){if(!e.target.dataset.b)return;down=true;"
	"a=b=+e.target.dataset.b;mark();});"
	"g.addEventListener('mouseover',function(e){if(down&&e.target.dataset.b){b=+e.target.dataset.b;"
	"mark();}});"
	"document.addEventListener('mouseup',function(){if(!down)return;down=false;show(Math.min(a,b),"
	"Math.min(Math.max(a,b),D.n-1));});"
	"function esc(s){var x=document.createElement('span');x.textContent=s;return x.innerHTML;}"
	"function secs(ns){var s=Math.floor(ns/1e9),f=ns-s*1e9;"
	"return s+'.'+String(f).padStart(9,'0');}"
	"function show(lo,hi){var per={},n=0;D.cells.forEach(function(c){if(c[0]>=lo&&c[0]<=hi){"
	"per[c[1]]=(per[c[1]]||0)+c[2];n+=c[2];}});"
	"var root={n:'all',v:0,k:{}},self={};"
	"Object.keys(per).forEach(function(id){var p=D.paths[id]||[],v=per[id],t=root;root.v+=v;"
	"p.forEach(function(f){var c=t.k[f];if(!c)c=t.k[f]={n:D.names[f],v:0,k:{}};c.v+=v;t=c;});"
	"var leaf=p.length?D.names[p[p.length-1]]:'?';self[leaf]=(self[leaf]||0)+v;});"
	"document.getElementById('hm-what').textContent='Selected: +'+(lo*D.width/1e9).toFixed(3)+"
	"' to +'+((hi+1)*D.width/1e9).toFixed(3)+' s, '+n+' samples (mycl-hot --time '+"
	"secs(D.start+lo*D.width)+','+secs(D.start+(hi+1)*D.width-1)+')';"
	"var fl=document.getElementById('hm-flame');fl.innerHTML='';var depth=0;"
	"function draw(t,x,w,d){if(w<0.05)return;depth=Math.max(depth,d);var e=document."
	"createElement('div');e.className='fr';e.style.left=x+'%';e.style.width=w+'%';"
	"e.style.top=(d*16)+'px';e.style.background='hsl('+(20+(d*37)%40)+',80%,'+(62+(d%3)*6)+'%)';"
	"e.textContent=t.n;e.title=t.n+' ('+t.v+' samples, '+(100*t.v/root.v).toFixed(2)+'%)';"
	"e.dataset.n=t.n;e.dataset.v=t.v;fl.appendChild(e);var xx=x;"
	"Object.keys(t.k).sort(function(p,q){return t.k[q].v-t.k[p].v;}).forEach(function(k){"
	"var c=t.k[k],cw=w*c.v/t.v;draw(c,xx,cw,d+1);xx+=cw;});}"
	"if(root.v)draw(root,0,100,0);fl.style.height=((depth+1)*16)+'px';"
	"var rows=Object.keys(self).sort(function(p,q){return self[q]-self[p];}).slice(0,30);"
	"document.getElementById('hm-flat').innerHTML='<tr><th>Self</th><th>Samples</th>"
	"<th>Function</th></tr>'+rows.map(function(k){return '<tr><td class=\"num\">'+"
	"(100*self[k]/n).toFixed(2)+'%</td><td class=\"num\">'+self[k]+'</td><td>'+esc(k)+"
	"'</td></tr>';}).join('');}"
	"show(0,D.n-1);})();";

#define MAX_CELLS 1024

static int cell_cmp(const void *a, const void *b)
{
	const struct mycl_timed_stack *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return x->stack < y->stack ? -1 : x->stack > y->stack;
}

int report_heatmap(FILE *f, const struct mycl_profile *p, size_t ev)
{
	struct mycl_timeline tl;
	const struct mycl_timed_stack *ts;
	size_t nts = mycl_profile__timed_stacks(p, ev, &ts), k, nr, ncells = 0;
	struct emit e = { .f = f, .first = true };
	struct mycl_timed_stack *cells;
	uint64_t *counts;
	int err;

	if (mycl_profile__timeline(p, ev, &tl) || !nts || tl.nr < 2)
		return 0;
	/* at most MAX_CELLS cells: the timeline's buckets merged K by K (a page stays small) */
	k = (tl.nr + MAX_CELLS - 1) / MAX_CELLS;
	nr = (tl.nr + k - 1) / k;
	cells = malloc(nts * sizeof(*cells));
	counts = calloc(nr, sizeof(*counts));
	if (!cells || !counts) {
		free(cells);
		free(counts);
		return -ENOMEM;
	}
	for (size_t i = 0; i < tl.nr; i++)
		counts[i / k] += tl.samples[i];
	for (size_t i = 0; i < nts; i++) {
		cells[i] = ts[i];
		cells[i].bucket = (uint32_t)(ts[i].bucket / k);
	}
	qsort(cells, nts, sizeof(*cells), cell_cmp);
	for (size_t i = 0; i < nts; i++) {
		if (ncells && !cell_cmp(&cells[ncells - 1], &cells[i]))
			cells[ncells - 1].samples += cells[i].samples;
		else
			cells[ncells++] = cells[i];
	}
	tl.width *= k;
	tl.nr = nr;
	fprintf(f, "<h2 id=\"time\">Over time</h2>\n<p class=\"what\">Samples over time, as "
		"FlameScope shows them: each column %.3g s, cut into rows of %.3g s from the top, "
		"the darker the more samples. Drag over cells to see that slice's flame graph and "
		"flat profile below.</p>\n<style>%s</style>\n<div id=\"hm-grid\"></div>\n"
		"<p class=\"what\" id=\"hm-what\"></p>\n<div id=\"hm-flame\"></div>\n"
		"<table class=\"mycl-flat\" id=\"hm-flat\"></table>\n"
		"<script type=\"application/json\" id=\"hm-data\">{\"start\":%" PRIu64
		",\"width\":%" PRIu64 ",\"n\":%zu,\"counts\":[",
		(double)tl.width * (double)(tl.nr < 50 ? tl.nr : 50) / 1e9, (double)tl.width / 1e9,
		heat_style, tl.start, tl.width, tl.nr);
	for (size_t i = 0; i < tl.nr; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", counts[i]);
	fputs("],\"paths\":{", f);
	err = mycl_profile__for_each_stack(p, ev, emit_stack, &e);
	fputs("},\"cells\":[", f);
	for (size_t i = 0; i < ncells; i++)
		fprintf(f, "%s[%" PRIu32 ",%" PRIu32 ",%" PRIu64 "]", i ? "," : "", cells[i].bucket,
			cells[i].stack, cells[i].samples);
	free(cells);
	free(counts);
	fputs("],\"names\":[", f);
	for (size_t i = 0; i < e.names.nr; i++) {
		if (i)
			fputc(',', f);
		js_str(f, e.names.name[i]);
	}
	fprintf(f, "]}</script>\n<script>%s</script>\n", heat_script);
	itable_free(&e.names.index);
	free(e.names.name);
	for (size_t i = 0; i < e.names.nr_owned; i++)
		free(e.names.owned[i]);
	free(e.names.owned);
	return err ? err : ferror(f) ? -EIO : 0;
}
