/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * False sharing inside types: the struct, class and union types code
 * reaches through pointers (and the globals of such types), each member's
 * writers and readers from the data-type walk of every function the debug
 * info describes (code/datatype.c), laid out on lines as the type's
 * alignment allows, and a verdict per type.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "datatype.h"
#include "inline.h"
#include "share_state.h"
#include "share_typelayout.h"
#include "share_typewalk.h"


/* ---- naming the types ---- */

struct cand {
	uint64_t die;			/* the type entry the walk named */
	uint64_t sdie;			/* ... its struct, class or union */
	char *name;
	uint64_t size;
	uint32_t type;
	uint8_t walker;			/* the walk's thread that reached it first */
};

static int cand_by_name(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->die < y->die ? -1 : x->die > y->die;
}

static int cand_by_die(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return x->die < y->die ? -1 : x->die > y->die;
}

static int tacc_by_die(const void *a, const void *b)
{
	const struct share_tacc *x = a, *y = b;

	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int tacc_by_addr(const void *a, const void *b)
{
	const struct share_tacc *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}


/* ---- members and their accesses ---- */


/* The member of type T holding byte OFF, or UINT32_MAX. */
static uint32_t member_at(const struct mycl_share *s, const struct mycl_share_type *t, uint64_t off)
{
	const struct mycl_share_member *m = t->members;
	size_t k = PARTITION_POINT(0, t->nr_members, mid, m[mid].offset <= off);

	if (!k || off >= m[k - 1].offset + (m[k - 1].size ? m[k - 1].size : 1))
		return UINT32_MAX;
	return (uint32_t)(&m[k - 1] - s->tmembers);
}

static bool runtime_heat(uint8_t h)
{
	return h == HEAT_HOT || h == HEAT_WARM || h == HEAT_UNKNOWN;
}

static bool is_write(uint8_t a)
{
	return a == ACC_WRITE || a == ACC_RMW;
}

/* Each type's members and what the accesses do to them. */
static int count_members(struct mycl_share *s, struct callgraph *cg)
{
	for (size_t i = 0; i < s->nr_taccs; i++) {
		struct share_tacc *a = &s->taccs[i];
		struct mycl_share_type *t;
		struct mycl_share_member *m;
		bool w = is_write(a->access), hot = a->heat == HEAT_HOT && !a->once;

		if (a->type == UINT32_MAX)
			continue;
		t = &s->types[a->type];
		t->accesses++;
		a->member = member_at(s, t, a->off);
		if (hot && s->tinfo[a->type].root != ROOT_MIXED) {
			uint64_t *r = &s->tinfo[a->type].root;

			*r = !*r && a->root ? a->root : *r == a->root ? *r : ROOT_MIXED;
		}
		s->tinfo[a->type].atomics += a->atomic;
		if (hot) {
			s->tinfo[a->type].via_global += a->via_global;
			/*
			 * (a thread's code started more than once, or in a loop; a root not
			 * known, a callback's, says nothing of how many threads run it)
			 */
			s->tinfo[a->type].several |= a->root && !callgraph_one_thread(cg, a->root);
			s->tinfo[a->type].unknown_root |= !a->root;
		}
		if (a->member == UINT32_MAX)
			continue;
		m = &s->tmembers[a->member];
		if (w) {
			if (hot) {
				m->hot_writes++;
				t->hot_writes++;
				if (!m->example)
					m->example = a->expr;
				if (!m->writer)
					m->writer = a->fname;
			}
			if (runtime_heat(a->heat) && !a->once) {
				m->runtime_writes++;
				m->element_writes += a->element;
				/* (an add to a pointer moves it: it counts nothing) */
				m->counters += a->counter && !strchr(m->type, '*');
				if (!m->writer)
					m->writer = a->fname;
			} else {
				m->startup_writes++;
			}
			m->atomics += a->atomic;
		} else if (runtime_heat(a->heat)) {
			m->runtime_reads++;
			if (a->heat == HEAT_HOT) {
				m->hot_reads++;
				if (!m->reader)
					m->reader = a->fname;
			}
		}
		if (!m->reader && !w && runtime_heat(a->heat))
			m->reader = a->fname;
	}
	for (size_t k = 0; k < s->nr_types; k++) {
		struct share_tinfo *ti = &s->tinfo[k];

		ti->one_thread = ti->root && ti->root != ROOT_MIXED &&
				 callgraph_one_thread(cg, ti->root);
	}
	return 0;
}

static int make_types(struct mycl_share *s, Dwarf *dw)
{
	struct cand *c = NULL;
	struct tlay *jobs = NULL;
	uint8_t *walker = NULL;
	size_t nc = 0, cap = 0, nj = 0, *job_of = NULL;
	int err = 0;

	sort_array(s->taccs, s->nr_taccs, sizeof(*s->taccs), tacc_by_die);
	for (size_t i = 0; i < s->nr_taccs; i++) {
		char name[256];
		Dwarf_Die st;

		if (i && s->taccs[i].die == s->taccs[i - 1].die)
			continue;
		if (!share_type_name_of(dw, s->taccs[i].die, &st, name, sizeof(name)))
			continue;
		if (ARRAY_GROW(c, cap, nc + 1) || !(c[nc].name = strdup(name))) {
			err = -ENOMEM;
			goto out;
		}
		c[nc].die = s->taccs[i].die;
		c[nc].sdie = dwarf_dieoffset(&st);
		c[nc].size = share_die_size(&st);
		c[nc].type = UINT32_MAX;
		c[nc].walker = s->taccs[i].walker;
		nc++;
	}
	sort_array(c, nc, sizeof(*c), cand_by_name);
	/* the first of each name and size laid out (on the threads that walked them) */
	jobs = calloc(nc ? nc : 1, sizeof(*jobs));
	walker = malloc(nc ? nc : 1);
	job_of = malloc((nc ? nc : 1) * sizeof(*job_of));
	if (!jobs || !walker || !job_of) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nc; i++) {
		job_of[i] = SIZE_MAX;
		if ((i && !strcmp(c[i].name, c[i - 1].name) && c[i].size == c[i - 1].size) ||
		    !c[i].size || c[i].size > MAX_TYPE_SIZE)
			continue;
		jobs[nj] = (struct tlay){ .sdie = c[i].sdie, .size = c[i].size, .cand = i };
		walker[nj] = c[i].walker;
		job_of[i] = nj++;
	}
	share_types_lay_out(s, dw, jobs, nj, walker);
	/* (the jobs sorted by thread: found again by their candidate) */
	for (size_t k = 0; k < nj; k++)
		job_of[jobs[k].cand] = k;
	for (size_t i = 0; i < nc; i++) {
		struct tlay *l = job_of[i] == SIZE_MAX ? NULL : &jobs[job_of[i]];
		struct flat *f;
		struct mycl_share_type *t;

		if (i && !strcmp(c[i].name, c[i - 1].name) && c[i].size == c[i - 1].size) {
			c[i].type = c[i - 1].type;
			continue;
		}
		if (!l || !l->found)
			continue;
		if (l->err) {
			err = l->err;
			goto out;
		}
		f = &l->f;
		if (!f->n)
			continue;
		if (ARRAY_GROW(s->types, s->types_cap, s->nr_types + 1) ||
		    ARRAY_GROW(s->tinfo, s->tinfo_cap, s->nr_types + 1) ||
		    ARRAY_GROW(s->tmembers, s->tmembers_cap, s->nr_tmembers + f->n)) {
			err = -ENOMEM;
			goto out;
		}
		t = &s->types[s->nr_types];
		memset(t, 0, sizeof(*t));
		memset(&s->tinfo[s->nr_types], 0, sizeof(s->tinfo[0]));
		t->name = share_keep(s, strdup(c[i].name));
		t->size = c[i].size;
		t->align = l->align;
		t->align_declared = l->align_declared;
		t->padded_by = l->padded_by;
		t->truncated = f->truncated;
		s->tinfo[s->nr_types].library = l->library;
		s->tinfo[s->nr_types].first = s->nr_tmembers;
		for (size_t k = 0; k < f->n; k++) {
			struct mycl_share_member *m = &s->tmembers[s->nr_tmembers + k];

			memset(m, 0, sizeof(*m));
			m->name = share_keep(s, f->v[k].name);
			m->type = share_keep(s, f->v[k].type);
			f->v[k].name = f->v[k].type = NULL;
			m->offset = f->v[k].off;
			m->size = f->v[k].size;
			m->sync = f->v[k].sync;
		}
		t->nr_members = f->n;
		s->nr_tmembers += f->n;
		c[i].type = (uint32_t)s->nr_types++;
	}
	/* (the members' storage moved while it grew: pointers set now) */
	for (size_t k = 0; k < s->nr_types; k++)
		s->types[k].members = &s->tmembers[s->tinfo[k].first];
	sort_array(c, nc, sizeof(*c), cand_by_die);
	for (size_t i = 0; i < s->nr_taccs; i++) {
		struct cand key = { .die = s->taccs[i].die };
		struct cand *hit = nc ? bsearch(&key, c, nc, sizeof(*c), cand_by_die) : NULL;

		s->taccs[i].type = hit ? hit->type : UINT32_MAX;
	}
out:
	for (size_t i = 0; i < nc; i++)
		free(c[i].name);
	for (size_t k = 0; jobs && k < nj; k++)
		share_flat_free(&jobs[k].f);
	free(c);
	free(jobs);
	free(walker);
	free(job_of);
	return err;
}

static int order_cmp(const void *a, const void *b, void *arg)
{
	const struct share_tacc *t = arg;
	const struct share_tacc *x = &t[*(const uint32_t *)a], *y = &t[*(const uint32_t *)b];

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->member != y->member)
		return x->member < y->member ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The accesses by type, then function: each type's range of them. */
static int order_by_type(struct mycl_share *s)
{
	size_t n = 0;

	s->torder = malloc((s->nr_taccs ? s->nr_taccs : 1) * sizeof(*s->torder));
	if (!s->torder)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_taccs; i++)
		if (s->taccs[i].type != UINT32_MAX)
			s->torder[n++] = (uint32_t)i;
	if (n)
		qsort_r(s->torder, n, sizeof(*s->torder), order_cmp, s->taccs);
	for (size_t i = 0; i < n; i++) {
		struct share_tinfo *ti = &s->tinfo[s->taccs[s->torder[i]].type];

		if (!i || s->taccs[s->torder[i - 1]].type != s->taccs[s->torder[i]].type)
			ti->ofirst = i;
		ti->oend = i + 1;
	}
	return 0;
}


void share_types_free(struct mycl_share *s)
{
	share_types_end(s);
	free(s->taccs);
	free(s->torder);
	free(s->types);
	free(s->tinfo);
	free(s->tmembers);
	s->taccs = NULL;
	s->torder = NULL;
	s->types = NULL;
	s->tinfo = NULL;
	s->tmembers = NULL;
	s->nr_taccs = s->nr_types = s->nr_tmembers = 0;
}


/*
 * Whether the debug info is split (-gsplit-dwarf): skeleton units whose
 * variables and types are in .dwo files, which the walk does not read.
 */
static bool split_dwarf(Dwarf *dw)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t ut;
	int n = 0;

	while (n++ < 100000 && dwarf_get_units(dw, cu, &cu, NULL, &ut, &cudie, NULL) == 0) {
		if (ut == DW_UT_skeleton || dwarf_hasattr(&cudie, DW_AT_GNU_dwo_name) ||
		    dwarf_hasattr(&cudie, DW_AT_dwo_name))
			return true;
	}
	return false;
}

/*
 * Every function the debug info describes, walked for its data types: the
 * accesses of struct, class and union types, by member.
 */
int share_types_scan(struct mycl_share *s, struct callgraph *cg)
{
	Dwarf *dw = inline_dwarf(s->dso);
	int err;

	if (!s->twalk)
		return 0;
	err = share_types_walked(s, cg);
	/* (the walk's threads joined and its storage freed with share_types_end) */
	if (!err)
		s->split_dwarf = split_dwarf(dw);
	if (!err)
		err = make_types(s, dw);
	if (!err)
		err = count_members(s, cg);
	sort_array(s->taccs, s->nr_taccs, sizeof(*s->taccs), tacc_by_addr);
	if (!err)
		err = order_by_type(s);
	return err;
}

/* A sample on the instruction at VADDR: to the member it touches (skid: the one before). */
void share_types_credit(struct mycl_share *s, uint64_t vaddr, uint64_t samples)
{
	size_t lo = PARTITION_POINT(0, s->nr_taccs, mid, s->taccs[mid].addr < vaddr);
	const struct share_tacc *r = lo < s->nr_taccs && s->taccs[lo].addr == vaddr ?
				     &s->taccs[lo] : NULL;
	const struct share_tacc *p = lo > 0 && s->taccs[lo - 1].end == vaddr ? &s->taccs[lo - 1] :
				     NULL;

	if (p && (!r || (p->atomic && !r->atomic)) && !share_ref_at(s, vaddr, false))
		r = p;
	if (!r || r->type == UINT32_MAX)
		return;
	s->types[r->type].samples += samples;
	if (r->member != UINT32_MAX) {
		s->tmembers[r->member].samples += samples;
		if (is_write(r->access))
			s->tmembers[r->member].sampled_writes += samples;
	}
}
