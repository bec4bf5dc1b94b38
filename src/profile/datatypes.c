/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the time goes by data type: every sampled instruction of a binary
 * with a symbol, its function's memory operands named once (code/datatype.c),
 * the samples summed by type or by type and member.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/annotate.h"
#include "datatype.h"
#include "disasm.h"
#include "elfimage.h"
#include "profile_state.h"

#define NOT_MEMORY "not a memory access"
#define NOT_FOLLOWED "kernel code or code without a symbol: not followed"

/* One sampled instruction's share, before the sums. */
struct item {
	const char *type, *member, *where, *unknown, *example;
	int64_t offset;
	uint64_t size, samples, period;
	bool by_address;		/* named by a sampled data address */
};

struct types_priv {
	struct mycl_data_types pub;
	char **strs;
	size_t nr_strs, cap_strs;
	struct item *items;
	size_t nr_items, cap_items;
};

static const char *keep(struct types_priv *t, const char *s)
{
	char *c;

	if (!s)
		return NULL;
	/* (the same string twice in a row is common: one function's accesses) */
	if (t->nr_strs && !strcmp(t->strs[t->nr_strs - 1], s))
		return t->strs[t->nr_strs - 1];
	if (ARRAY_GROW(t->strs, t->cap_strs, t->nr_strs + 1) || !(c = strdup(s)))
		return NULL;
	t->strs[t->nr_strs++] = c;
	return c;
}

static int add(struct types_priv *t, const struct item *it)
{
	if (ARRAY_GROW(t->items, t->cap_items, t->nr_items + 1))
		return -ENOMEM;
	t->items[t->nr_items++] = *it;
	return 0;
}

static const char *const where_names[] = {
	[DT_HEAP] = "heap", [DT_GLOBAL] = "global", [DT_STACK] = "stack",
};

static int by_dso_addr(const void *a, const void *b)
{
	const struct hent *x = *(const struct hent *const *)a, *y = *(const struct hent *const *)b;

	if (x->dso != y->dso)
		return (uintptr_t)x->dso < (uintptr_t)y->dso ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static size_t insn_at(const struct insn *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].addr == addr ? lo : SIZE_MAX;
}

bool profile_event_skids(const struct mycl_profile *p, size_t ev)
{
	const struct mycl_event *e = ev < p->nr_events ? p->events[ev].event : NULL;

	/* a group member read by its leader's samples ('{a,b}:S'): taken where the leader's are */
	if (e && e->group_leader >= 0 && (size_t)e->group_leader != ev &&
	    (size_t)e->group_leader < p->nr_events && p->events[e->group_leader].event)
		e = p->events[e->group_leader].event;
	/*
	 * (perf_event_attr: type 1 software, precise_ip in bits 15-16 of the
	 * flags.)  Of the software events the clocks (cpu-clock 0, task-clock
	 * 1) interrupt the code; the faults are taken at the instruction.
	 */
	if (e && e->type == 1)
		return e->config <= 1;
	return !e || !((e->flags >> 15) & 3);
}

const void *profile_data_credit(const struct dt_result *r, const struct insn *v, size_t i, bool skid)
{
	if (i >= r->n)
		return NULL;
	if (skid && i && r->v[i - 1].where && !v[i - 1].jump && !v[i - 1].ret)
		return &r->v[i - 1];
	return r->v[i].where ? &r->v[i] : NULL;
}

#define CODE_FETCH "its data address is code: a fault fetching instructions"
#define NO_CODE "the binary's code is not available"
#define NOT_INSN "not an instruction of the function's code"

/* *IT named by access A of an instruction (NULL: none), or UNKNOWN. */
static int code_item(struct types_priv *t, const char *unknown, const struct dt_access *a,
		     struct item *it)
{
	if (unknown)
		it->unknown = unknown;
	else if (!a)
		it->unknown = NOT_MEMORY;
	else if (a->unknown)
		it->unknown = keep(t, a->unknown);
	else {
		it->type = keep(t, a->type);
		it->member = keep(t, a->member);
		it->offset = a->offset;
		it->size = a->size;
		it->where = where_names[a->where];
		it->example = keep(t, a->expr);
		if (!it->type)
			return -ENOMEM;
	}
	return 0;
}

/* The sampled data addresses of each instruction row (profile_state.h's daddrs), by row. */
struct addrs {
	const struct hent **v;
	size_t n;
	const struct hent *rows;	/* the profile's insns rows */
};

static int by_row(const void *a, const void *b)
{
	const struct hent *x = *(const struct hent *const *)a, *y = *(const struct hent *const *)b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Instruction row E's data addresses: *N of them from the returned one. */
static const struct hent *const *addrs_of(const struct addrs *ad, const struct hent *e, size_t *n)
{
	int32_t row = (int32_t)(e - ad->rows);
	size_t lo = PARTITION_POINT(0, ad->n, mid, ad->v[mid]->tid < row);

	*n = PARTITION_POINT(lo, ad->n, mid, ad->v[mid]->tid <= row) - lo;
	return ad->v + lo;
}

/* S with every index written "[i]" ("bins[0]" and "bins[i]" are one member), in BUF. */
static const char *any_index(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 4 < len; s++) {
		if (*s == '[' && s[1] >= '0' && s[1] <= '9') {
			const char *e = s + 1;

			while (*e >= '0' && *e <= '9')
				e++;
			if (*e == ']') {
				memcpy(buf + n, "[i]", 3);
				n += 3;
				s = e;
				continue;
			}
		}
		buf[n++] = *s;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * Whether the code's access A and the address's DA name one object, seen
 * from different depths: the code's pointer may point into the variable
 * (a list head inside a struct: "prev" of struct list_head where the
 * address gives _dl_stack_user.prev of struct rtld_global), or its type
 * may be the member's own (an int through a pointer to the int member).
 */
static bool same_object(const struct dt_access *da, const struct dt_access *a)
{
	char x[256], y[256];
	size_t lx, ly;

	if (!a->member)
		return (!da->member && !strcmp(a->type, da->type)) ||
		       (da->member_type && !strcmp(a->type, da->member_type));
	if (!da->member)
		return false;
	any_index(da->member, x, sizeof(x));
	any_index(a->member, y, sizeof(y));
	if (!strcmp(x, y))
		return !strcmp(a->type, da->type);
	lx = strlen(x);
	ly = strlen(y);
	return lx > ly && x[lx - ly - 1] == '.' && !strcmp(x + lx - ly, y) && a->member_type &&
	       da->member_type && !strcmp(a->member_type, da->member_type);
}

/*
 * The samples X of instruction IN (NULL: not decoded) that carry a data
 * address, into *IT: named by the variable the address falls in, which
 * the code's naming A (or NULL) is checked against; else the code's.
 */
static int address_item(struct types_priv *t, const struct hent *x, const struct insn *in,
			const struct dt_access *a, struct dso *d, struct dt_memo *memo, struct item *it)
{
	struct mycl_data_types *pub = &t->pub;
	const struct insn none = { .access = ACC_READ };
	struct dt_result dr;
	const struct dt_access *da;
	bool code_knows = a && !a->unknown && a->type;
	int err;

	pub->addr_samples += x->samples;
	it->samples = x->samples;
	it->period = x->period;
	if (!x->dso && x->level == 'x') {
		/* a page fault on the instruction's own page: no data was touched */
		pub->addr_code += x->samples;
		*it = (struct item){ .unknown = CODE_FETCH, .samples = x->samples,
				     .period = x->period };
		return 0;
	}
	if (!x->dso) {
		/* heap, stack, shared memory: the code's naming stands; not a global */
		pub->addr_elsewhere += x->samples;
		if (code_knows && a->where == DT_GLOBAL)
			pub->addr_outside += x->samples;
		return 0;
	}
	err = datatype_name_data(x->dso, x->addr, in ? in : &none, &dr, x->dso == d ? memo : NULL);
	if (err)
		return err;
	da = &dr.v[0];
	if (da->unknown || !da->type) {
		pub->addr_undescribed += x->samples;
		datatype_free(&dr);
		return 0;
	}
	if (code_knows && same_object(da, a)) {
		/* (the code's words: "table[i].key" for every element the addresses hit) */
		pub->addr_agree += x->samples;
		it->by_address = true;
		datatype_free(&dr);
		return 0;
	}
	if (code_knows)
		pub->addr_differ += x->samples;
	else
		pub->addr_only += x->samples;
	*it = (struct item){ .type = keep(t, da->type), .member = keep(t, da->member),
			     .offset = da->offset, .size = da->size, .where = where_names[DT_GLOBAL],
			     .example = keep(t, da->expr), .samples = x->samples, .period = x->period,
			     .by_address = true };
	datatype_free(&dr);
	return it->type ? 0 : -ENOMEM;
}

/* The items of the sampled instructions E[0..N) of function FN of D. */
static int function_items(struct types_priv *t, struct dso *d, const struct sym *fn,
			  const struct hent *const *e, size_t n, bool skid, struct dt_memo *memo,
			  const struct addrs *ad)
{
	struct elf_image *img = dso_image(d);
	const uint8_t *code = img ? elf_image_code(img, fn->start, fn->end - fn->start) : NULL;
	struct disasm *dis = NULL;
	struct insn *v = NULL;
	struct dt_result r = { 0 };
	size_t nv = 0;
	int err = 0;

	if (code && !disasm_for_image(&dis, img)) {
		disasm_set_type_facts(dis, true);
		err = disasm_range(dis, code, fn->end - fn->start, fn->start, &v, &nv);
		disasm_close(dis);
		if (!err)
			err = datatype_walk_memo(d, elf_image_machine(img), v, nv, &r, memo);
		if (err) {
			free(v);
			return err;
		}
	}
	for (size_t k = 0; k < n && !err; k++) {
		size_t i = nv ? insn_at(v, nv, e[k]->addr) : SIZE_MAX;
		const struct dt_access *a = i != SIZE_MAX ? profile_data_credit(&r, v, i, skid) : NULL;
		struct item it = { .samples = e[k]->samples, .period = e[k]->period };
		const struct hent *const *x;
		size_t nx = 0;

		err = code_item(t, code ? (i == SIZE_MAX ? NOT_INSN : NULL) : NO_CODE, a, &it);
		/* Samples with a data address: the instruction's own access, where it was taken. */
		x = ad->n ? addrs_of(ad, e[k], &nx) : NULL;
		for (size_t j = 0; j < nx && !err; j++) {
			const struct dt_access *own = i != SIZE_MAX && r.v[i].where ? &r.v[i] : NULL;
			struct item ai = { 0 };

			err = code_item(t, code ? (i == SIZE_MAX ? NOT_INSN : NULL) : NO_CODE, own, &ai);
			if (!err)
				err = address_item(t, x[j], i != SIZE_MAX ? &v[i] : NULL, own, d, memo,
						   &ai);
			if (!err)
				err = add(t, &ai);
			it.samples -= x[j]->samples < it.samples ? x[j]->samples : it.samples;
			it.period -= x[j]->period < it.period ? x[j]->period : it.period;
		}
		if (!err && (it.samples || it.period || !nx))
			err = add(t, &it);
	}
	free(v);
	datatype_free(&r);
	return err;
}

static int strcmp0(const char *a, const char *b)
{
	return !a || !b ? (a ? 1 : b ? -1 : 0) : strcmp(a, b);
}

static int item_key_cmp(const void *a, const void *b, void *by_member)
{
	const struct item *x = a, *y = b;
	int c = strcmp0(x->unknown, y->unknown);

	if (c || (c = strcmp0(x->type, y->type)))
		return c;
	if (!*(bool *)by_member)
		return 0;
	if ((c = strcmp0(x->member, y->member)))
		return c;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int row_cmp(const void *a, const void *b)
{
	const struct mycl_data_type_row *x = a, *y = b;
	int c;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	/* (equal time: the known before the rest, then by name, for the same order each run) */
	if (!x->unknown != !y->unknown)
		return x->unknown ? 1 : -1;
	c = strcmp0(x->type ? x->type : x->unknown, y->type ? y->type : y->unknown);
	return c ? c : strcmp0(x->member, y->member);
}

/* The items summed into rows by their key. */
static int sum_rows(struct types_priv *t)
{
	struct mycl_data_types *pub = &t->pub;

	if (t->nr_items)
		qsort_r(t->items, t->nr_items, sizeof(*t->items), item_key_cmp, &pub->by_member);
	pub->rows = calloc(t->nr_items ? t->nr_items : 1, sizeof(*pub->rows));
	if (!pub->rows)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_items; i++) {
		const struct item *it = &t->items[i];
		struct mycl_data_type_row *r;

		if (!i || item_key_cmp(it, &t->items[i - 1], &pub->by_member)) {
			r = &pub->rows[pub->nr_rows++];
			r->type = it->type;
			r->unknown = it->unknown;
			r->where = it->where;
			r->example = it->example;
			if (pub->by_member) {
				r->member = it->member;
				r->offset = it->offset;
				r->size = it->size;
			}
		}
		r = &pub->rows[pub->nr_rows - 1];
		r->samples += it->samples;
		r->period += it->period;
		if (it->by_address)
			r->address_samples += it->samples;
		if (!it->unknown)
			pub->known_samples += it->samples;
		/* the example of the most samples; the place of the first */
		if (it->example && (!r->example || it->samples > r->samples - it->samples))
			r->example = it->example;
	}
	for (size_t i = 0; i < pub->nr_rows; i++)
		pub->rows[i].pct = pub->period ?
				   100.0 * (double)pub->rows[i].period / (double)pub->period : 0;
	if (pub->nr_rows)
		qsort(pub->rows, pub->nr_rows, sizeof(*pub->rows), row_cmp);
	return 0;
}

MYCL_API int mycl_profile__data_types(const struct mycl_profile *p, size_t ev, bool member,
				      struct mycl_data_types **out)
{
	const struct mycl_profile_event *pe;
	const struct hent **e = NULL;
	struct types_priv *t;
	struct dt_memo *memo = NULL;
	const struct dso *memo_dso = NULL;
	struct addrs ad = { 0 };
	uint64_t in_items = 0, in_samples = 0;
	size_t n = 0;
	bool skid;
	int err = 0;

	*out = NULL;
	if (!p->annotate || ev >= p->nr_events)
		return -EINVAL;
	pe = &p->events[ev];
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->pub.event = pe->event ? pe->event->name : NULL;
	skid = profile_event_skids(p, ev);
	t->pub.by_member = member;
	t->pub.skid = skid;
	t->pub.samples = pe->nr_samples;
	t->pub.period = pe->total_period;
	e = malloc((p->insns.nr ? p->insns.nr : 1) * sizeof(*e));
	ad.rows = p->insns.ents;
	ad.v = malloc((p->daddrs.nr ? p->daddrs.nr : 1) * sizeof(*ad.v));
	if (!e || !ad.v) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < p->daddrs.nr; i++)
		if (p->daddrs.ents[i].ev == (int)ev)
			ad.v[ad.n++] = &p->daddrs.ents[i];
	if (ad.n)
		qsort(ad.v, ad.n, sizeof(*ad.v), by_row);
	for (size_t i = 0; i < p->insns.nr; i++)
		if (p->insns.ents[i].ev == (int)ev)
			e[n++] = &p->insns.ents[i];
	if (n)
		qsort(e, n, sizeof(*e), by_dso_addr);
	/* one function at a time: its sampled instructions together; a binary's types memoized */
	for (size_t i = 0; i < n && !err;) {
		struct dso *d = e[i]->dso;
		const struct sym *fn = symtab_find(&d->syms, e[i]->addr);
		size_t k = i + 1;

		while (k < n && e[k]->dso == d && fn && e[k]->addr < fn->end)
			k++;
		if (fn && d != memo_dso) {
			datatype_memo_free(memo);
			memo = datatype_memo_new();	/* (NULL: walked without one) */
			memo_dso = d;
		}
		if (fn) {
			err = function_items(t, d, fn, e + i, k - i, skid, memo, &ad);
		} else {
			for (size_t j = i; j < k && !err; j++)
				err = add(t, &(struct item){ .unknown = NOT_FOLLOWED,
							     .samples = e[j]->samples,
							     .period = e[j]->period });
		}
		for (size_t j = i; j < k; j++) {
			in_items += e[j]->period;
			in_samples += e[j]->samples;
		}
		i = k;
	}
	/* the rest of the event: kernel code, code without a symbol */
	if (!err && t->pub.period > in_items)
		err = add(t, &(struct item){ .unknown = NOT_FOLLOWED,
					     .samples = t->pub.samples > in_samples ?
							t->pub.samples - in_samples : 0,
					     .period = t->pub.period - in_items });
	if (!err)
		err = sum_rows(t);
out:
	datatype_memo_free(memo);
	free(ad.v);
	free(e);
	free(t->items);
	t->items = NULL;
	if (err) {
		mycl_data_types__free(&t->pub);
		return err;
	}
	*out = &t->pub;
	return 0;
}

MYCL_API void mycl_data_types__free(struct mycl_data_types *pub)
{
	struct types_priv *t = (struct types_priv *)pub;

	if (!t)
		return;
	for (size_t i = 0; i < t->nr_strs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->items);
	free(pub->rows);
	free(t);
}
