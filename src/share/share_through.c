/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writes made through an address rather than at it, credited to the
 * variable whose address it is: by a callee handed it (and the callees it
 * hands it on to), by a thread handed it as its argument, through the result
 * of a function returning it, through a pointer variable holding it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "apinames.h"
#include "callgraph.h"
#include "disasm.h"
#include "itable.h"
#include "disasm_ahead.h"
#include "elfimage.h"
#include "inline.h"
#include "insn.h"
#include "lockcode.h"
#include "lockrules.h"
#include "share_scan.h"
#include "symtab.h"

static int argref_cmp(const void *a, const void *b)
{
	const struct argref *x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

/*
 * Where V's hot writes land, for the lines V spans: an address; written
 * from WHERE on by a library function (SPREAD), somewhere in the member of V
 * holding WHERE, as the debug info lays V out; anywhere in V when that is
 * not known, or at a computed index (the index may hold a member's offset:
 * gcc folds slots[i] into 8*(i+0x84) from the object's start).
 */
static void place_hot_write(struct mycl_share *s, const struct mycl_share_var *v, uint64_t where,
			    bool spread, bool indexed, bool counter, uint64_t func)
{
	uint32_t var = (uint32_t)(v - s->vars);
	uint64_t end = where + 1, lo, hi;

	if (!s->hot_any && !(s->hot_any = calloc(s->nr_vars ? s->nr_vars : 1, sizeof(*s->hot_any))))
		return;		/* (then no line sets a part of a variable apart) */
	/* (the members' extents from the debug info, when the analysis reads it) */
	if (spread && !indexed && s->nr_dcode && where >= v->addr && where < v->addr + v->size &&
	    !inline_member_extent(s->dso, v->addr, where - v->addr, &lo, &hi) && hi <= v->size) {
		where = v->addr + lo;
		end = v->addr + hi;
		spread = false;
	}
	if (!where || spread || indexed || where < v->addr ||
	    where >= v->addr + (v->size ? v->size : 1) ||
	    ARRAY_GROW(s->hotw, s->hotw_cap, s->nr_hotw + 1)) {
		/* (anywhere in V; so is a write there was no memory to place) */
		s->hot_any[var].writes++;
		s->hot_any[var].counters += counter && !indexed;
		return;
	}
	if (end - where > s->hotw_span)
		s->hotw_span = end - where;
	s->hotw[s->nr_hotw++] = (struct share_hotw){ .var = var, .counter = counter,
						     .where = where, .end = end, .func = func };
}

static int hotw_cmp(const void *a, const void *b)
{
	const struct share_hotw *x = a, *y = b;

	if (x->var != y->var)
		return x->var < y->var ? -1 : 1;
	if (x->where != y->where)
		return x->where < y->where ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->counter - y->counter;
}

static int place_cmp(const void *a, const void *b)
{
	const struct share_place *x = a, *y = b;

	if (x->var != y->var)
		return x->var < y->var ? -1 : 1;
	return x->where < y->where ? -1 : x->where > y->where;
}

static bool in_places(const struct share_place *p, size_t n, uint32_t var, uint64_t where)
{
	size_t i = PARTITION_POINT(0, n, mid, p[mid].var < var ||
				   (p[mid].var == var && p[mid].where < where));

	return i < n && p[i].var == var && p[i].where == where;
}

/* Whether the place WHERE of VAR is a lock word: swapped, and subtracted from. */
static bool lock_word(const struct mycl_share *s, uint32_t var, uint64_t where)
{
	return in_places(s->swaps, s->nr_swaps, var, where) &&
	       in_places(s->downs, s->nr_downs, var, where);
}

void share_settle_swaps(struct mycl_share *s)
{
	size_t kept = 0;

	sort_array(s->incs, s->nr_incs, sizeof(*s->incs), place_cmp);
	if (!s->nr_swaps || !s->nr_downs)
		return;
	sort_array(s->swaps, s->nr_swaps, sizeof(*s->swaps), place_cmp);
	sort_array(s->downs, s->nr_downs, sizeof(*s->downs), place_cmp);
	for (size_t i = 0; i < s->nr_incs; i++) {
		if (!lock_word(s, s->incs[i].var, s->incs[i].where)) {
			s->incs[kept++] = s->incs[i];
			continue;
		}
		if (s->vars[s->incs[i].var].counter_writes)
			s->vars[s->incs[i].var].counter_writes--;
		/* (no memory: the lock word's readers are not looked for) */
		if ((!s->nr_lockw || s->lockw[s->nr_lockw - 1].where != s->incs[i].where ||
		     s->lockw[s->nr_lockw - 1].var != s->incs[i].var) &&
		    !ARRAY_GROW(s->lockw, s->lockw_cap, s->nr_lockw + 1))
			s->lockw[s->nr_lockw++] = s->incs[i];
	}
	s->nr_incs = kept;
	for (size_t i = 0; i < s->nr_hotw; i++)
		if (s->hotw[i].counter && lock_word(s, s->hotw[i].var, s->hotw[i].where))
			s->hotw[i].counter = false;
}

void share_sort_hot_writes(struct mycl_share *s)
{
	sort_array(s->hotw, s->nr_hotw, sizeof(*s->hotw), hotw_cmp);
}

/*
 * Whether byte OFF of V is a pointer: by the marks of its type (within
 * their budget), else by its member's type in the debug info, when the
 * analysis reads it (a 4,440-byte object's cursors past the budget).
 */
static bool pointer_at(struct mycl_share *s, const struct mycl_share_var *v, uint64_t off)
{
	return share_pointer_at(s, v, off) ||
	       (s->nr_dcode && off < v->size && inline_member_pointer(s->dso, v->addr, off));
}

/* (a place of V swapped or incremented, for share_settle_swaps; no memory: not kept) */
static void keep_place(struct share_place **p, size_t *nr, size_t *cap,
		       const struct mycl_share *s, const struct mycl_share_var *v, uint64_t where)
{
	if (where >= v->addr && where < v->addr + (v->size ? v->size : 1) &&
	    !ARRAY_GROW(*p, *cap, *nr + 1))
		(*p)[(*nr)++] = (struct share_place){ (uint32_t)(v - s->vars), where };
}

/* One write to V, by when it runs; AT explains where (for the hottest); WHERE: what it writes. */
void share_count_write(struct mycl_share *s, struct callgraph *cg, struct mycl_share_var *v,
		       enum cg_heat heat, uint64_t at, uint64_t where, bool spread, unsigned int kind,
		       bool indexed, unsigned int width)
{
	char why[200];
	uint64_t func = callgraph_func_start(cg, at);
	bool counter = kind & SHARE_W_COUNTER;
	/* (an add to a pointer moves it: a cursor, not a count) */
	bool cursor = counter && (heat == HEAT_HOT || heat == HEAT_WARM) &&
		      pointer_at(s, v, where - v->addr);

	if (heat == HEAT_HOT) {
		place_hot_write(s, v, where, spread, indexed, counter && where >= v->addr && !cursor,
				func);
		share_hot_access(s, cg, (size_t)(v - s->vars), at);
	}
	switch (heat) {
	case HEAT_HOT: v->hot_writes++; break;
	case HEAT_WARM: v->warm_writes++; break;
	case HEAT_STARTUP: case HEAT_EXIT: v->startup_writes++; break;
	default: v->unknown_writes++; break;
	}
	if ((heat == HEAT_HOT || heat == HEAT_WARM) && callgraph_spinning(cg, at))
		v->spin_writes++;
	if (kind & SHARE_W_SWAP)
		keep_place(&s->swaps, &s->nr_swaps, &s->swaps_cap, s, v, where);
	if (kind & SHARE_W_DOWN)
		keep_place(&s->downs, &s->nr_downs, &s->downs_cap, s, v, where);
	if (heat == HEAT_HOT || heat == HEAT_WARM) {
		v->counter_writes += counter && !cursor;
		if (counter && !cursor && !spread && !indexed)
			keep_place(&s->incs, &s->nr_incs, &s->incs_cap, s, v, where);
		/*
		 * A byte-scaled index is an offset computed into a struct, not an
		 * element -- unless the debug info says the variable is an array
		 * (compilers fold the element size into the index: shl $4; (%rax,%rdi,1)).
		 */
		if (indexed && (width != 1 || v->stride)) {
			v->indexed_writes++;
			if (width && (!v->elem_size || width < v->elem_size))
				v->elem_size = width;
		}
	}
	/* Who writes it (an allocation failure only shortens the writer list). */
	if (!ARRAY_GROW(s->wrs, s->wrs_cap, s->nr_wrs + 1))
		s->wrs[s->nr_wrs++] = (struct share_wr){ .var = (uint32_t)(v - s->vars),
							 .heat = (uint8_t)heat, .count = 1,
							 .func = func, .at = at };
	/* The first hot write explains the variable; a warm one when there is no hot one. */
	if ((heat == HEAT_HOT && v->hot_writes == 1) || (heat == HEAT_WARM && !v->hot_path))
		v->hot_path = share_keep(s, strdup(callgraph_why(cg, at, why, sizeof(why))));
}

void share_hot_access(struct mycl_share *s, struct callgraph *cg, size_t var, uint64_t at)
{
	uint64_t r;

	if (!s->hot_root && !(s->hot_root = calloc(s->nr_vars ? s->nr_vars : 1, sizeof(*s->hot_root))))
		return;		/* (no memory: no variable is said to stay on one thread) */
	if (s->hot_root[var] == ROOT_MIXED)
		return;
	r = callgraph_thread_root(cg, at);
	s->hot_root[var] = !r || (s->hot_root[var] && s->hot_root[var] != r) ? ROOT_MIXED : r;
}

void share_one_thread(struct mycl_share *s, struct callgraph *cg)
{
	uint64_t last = 0;
	bool one = false;

	if (!s->hot_root || !(s->one_thread = calloc(s->nr_vars ? s->nr_vars : 1, 1)))
		return;
	for (size_t i = 0; i < s->nr_vars; i++) {
		uint64_t r = s->hot_root[i];

		if (!r || r == ROOT_MIXED)
			continue;
		if (r != last) {
			last = r;
			one = callgraph_one_thread(cg, r);
		}
		s->one_thread[i] = one;
	}
}

void share_count_write_once(struct mycl_share *s, struct callgraph *cg, struct mycl_share_var *v,
			    uint8_t once, enum cg_heat heat, uint64_t at, uint64_t where,
			    bool spread, unsigned int kind, bool indexed, unsigned int width)
{
	size_t before = s->nr_wrs;
	bool explained = v->hot_path != NULL;

	share_count_write(s, cg, v, heat > HEAT_WARM ? HEAT_WARM : heat, at, where, spread, kind,
			  indexed, width);
	if (s->nr_wrs > before)
		s->wrs[before].once = once;
	if (!explained && v->hot_path)
		v->hot_path = savef(s, "%s; %s", v->hot_path, share_once_why(once));
}

void share_count_write_at(struct mycl_share *s, struct callgraph *cg, struct mycl_share_var *v,
			  enum cg_heat heat, uint64_t at, uint64_t where, bool spread, unsigned int kind,
			  bool indexed, unsigned int width)
{
	if (heat >= HEAT_WARM && callgraph_once_at(cg, at))
		share_count_write_once(s, cg, v, SHARE_ONCE_PAST, heat, at, where, spread, kind,
				       indexed, width);
	else
		share_count_write(s, cg, v, heat, at, where, spread, kind, indexed, width);
}

size_t share_callees(const struct scan *sc, uint64_t target, uint64_t slot, uint16_t stride,
		     uint64_t *out, size_t max)
{
	unsigned int ptr = elf_image_ptr_size(sc->img);
	const struct sym *obj;
	uint64_t lo = slot, hi = slot + ptr, step = stride >= ptr ? stride : ptr;
	size_t n = 0;

	if (target || !slot) {
		if (target && max)
			out[n++] = target;
		return n;
	}
	obj = symtab_find(&sc->s->dso->data_syms, slot);
	if (obj && obj->end - obj->start >= ptr) {
		/* (every element of the object, at most 4096 slots looked at) */
		lo = slot - (slot - obj->start) / step * step;
		hi = obj->end;
		if ((hi - lo) / step > 4096)
			hi = lo + 4096 * step;
	}
	for (uint64_t a = lo; a + ptr <= hi && n < max; a += step) {
		uint64_t t = elf_image_code_pointer(sc->img, a);
		bool seen = false;

		if (!t || callgraph_func_start(sc->cg, t) != t)
			continue;
		for (size_t k = 0; k < n && !seen; k++)
			seen = out[k] == t;
		if (!seen)
			out[n++] = t;
	}
	return n;
}

/*
 * Whether NAME, a function of a library the program calls, is a lock
 * primitive by the lock rules (pthread_mutex_lock, sem_post...): it writes
 * the lock word its first argument points to.  The library's code is not
 * in the binary, so the rules name what it does.
 */
static bool lock_call(const struct lock_rules *r, const char *name)
{
	static const char *const writes[] = { "mutex", "spin", "rwlock", "cond", "wait", "futex" };
	char b[128];
	int k = lock_rules_match(r, lock_plain_name(name, b, sizeof(b)));

	for (size_t i = 0; k >= 0 && i < sizeof(writes) / sizeof(writes[0]); i++)
		if (!strcmp(r->v[k].kind, writes[i]))
			return true;
	return false;
}

/*
 * What share_callee_writes reads of an instruction of a callee: a direct
 * call handing arguments on, a store through an argument.
 */
struct cfact {
	uint64_t addr, target;
	uint64_t call_slot;		/* a call through a table of functions (insn.call_slot) */
	uint16_t call_stride;
	int64_t mem_prm_off;
	int32_t call_arg_pass_off[6];
	uint8_t call_arg_pass[6];
	uint8_t mem_prm, mem_prm_access;
	bool call;
	uint8_t kind;			/* share_write_kind's */
	bool ix;			/* at a computed offset from the argument (insn.mem_prm_ix) */
	uint64_t call_arg[6];		/* what each argument holds, when known (an entry's address) */
	bool tail;			/* CALL: a jump out of the function's code, maybe a tail call */
	uint8_t atomic_op;		/* insn.atomic_op when atomic (aarch64: whether store-exclusive) */
};

/* Those facts of each callee read, by its address (decoded once however many argrefs it has). */
struct callee_facts {
	struct callee_entry {
		uint64_t fn;
		size_t first, nr;	/* its facts: F[FIRST .. FIRST + NR) */
	} *tab;				/* found through index, by fn */
	size_t cap, used;
	struct itable index;
	struct cfact *f;
	size_t nr_f, cap_f;
};

static uint64_t fn_hash(uint64_t fn)
{
	return (fn * 0x9e3779b97f4a7c15ULL) >> 20;
}

static bool fn_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = fn_hash(((const struct callee_facts *)ctx)->tab[i].fn);
	return true;
}

/* FN's entry, or NULL when its code was not read yet. */
static const struct callee_entry *facts_of(const struct callee_facts *c, uint64_t fn)
{
	size_t h;

	if (c->index.cap)
		itable_each(&c->index, fn_hash(fn), h)
			if (c->tab[c->index.slot[h]].fn == fn)
				return &c->tab[c->index.slot[h]];
	return NULL;
}

/*
 * Whether the facts from FIRST on hold the other way of IN's atomic update of
 * its place: a store-exclusive for an LSE instruction, or the reverse.
 */
static bool other_way(const struct callee_facts *c, size_t first, const struct insn *in)
{
	for (size_t k = first; k < c->nr_f; k++)
		if (c->f[k].atomic_op && (c->f[k].atomic_op == ATOM_SC) != (in->atomic_op == ATOM_SC) &&
		    !c->f[k].ix && !c->f[k].call && c->f[k].mem_prm == in->mem_prm &&
		    c->f[k].mem_prm_off == in->mem_prm_off)
			return true;
	return false;
}

/* FN's facts from its N instructions V; -ENOMEM. */
static int facts_add(struct callee_facts *c, uint64_t fn, const struct insn *v, size_t n)
{
	size_t first = c->nr_f, h;

	if ((itable_full(&c->index, c->used) &&
	     itable_grow(&c->index, c->used, 1024, fn_hash_at, c)) ||
	    ARRAY_GROW(c->tab, c->cap, c->used + 1))
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		const struct insn *in = &v[k];
		/* (a jump out of the function's code: a tail call, its arguments handed as a call's) */
		bool call = in->call || (in->jump && in->target &&
					 (in->target < fn || in->target > v[n - 1].addr));
		struct cfact *f;

		if (!(call && (in->target || in->call_slot)) && !in->mem_prm_ix &&
		    (!in->mem_prm || (in->mem_prm_access != ACC_WRITE && in->mem_prm_access != ACC_RMW)))
			continue;
		/*
		 * One atomic update of a place, made two ways (aarch64's outline
		 * atomics: the LSE instruction, or a load/store-exclusive loop on
		 * older CPUs), is one write a call.
		 */
		if (in->atomic && in->atomic_op && in->mem_prm && !in->mem_prm_ix && !call &&
		    other_way(c, first, in))
			continue;
		if (ARRAY_GROW(c->f, c->cap_f, c->nr_f + 1))
			return -ENOMEM;
		f = &c->f[c->nr_f++];
		*f = (struct cfact){ in->addr, in->target, in->call_slot, in->call_stride,
				     in->mem_prm_off, { 0 }, { 0 },
				     in->mem_prm_ix ? in->mem_prm_ix : in->mem_prm,
				     in->mem_prm_ix ? (uint8_t)ACC_WRITE : in->mem_prm_access,
				     call, (uint8_t)share_write_kind(in), in->mem_prm_ix != 0, { 0 },
				     !in->call && call,
				     in->atomic ? in->atomic_op : 0 };
		memcpy(f->call_arg_pass_off, in->call_arg_pass_off, sizeof(f->call_arg_pass_off));
		memcpy(f->call_arg_pass, in->call_arg_pass, sizeof(f->call_arg_pass));
		memcpy(f->call_arg, in->call_arg, sizeof(f->call_arg));
	}
	itable_each(&c->index, fn_hash(fn), h)
		if (c->tab[c->index.slot[h]].fn == fn) {
			c->tab[c->index.slot[h]] = (struct callee_entry){ fn, first, c->nr_f - first };
			return 0;
		}
	c->tab[c->used] = (struct callee_entry){ fn, first, c->nr_f - first };
	itable_put(&c->index, h, c->used++);
	return 0;
}

static void facts_free(struct callee_facts *c)
{
	free(c->tab);
	itable_free(&c->index);
	free(c->f);
}

/*
 * The code of CALLEE, a function of the binary (not a library's), when it is
 * to be read for what it does with an address handed to it: at most 64 KB.
 */
const uint8_t *share_callee_code(const struct scan *sc, uint64_t callee, size_t *len)
{
	const char *name;
	uint64_t end;

	if (callgraph_func_start(sc->cg, callee) != callee)
		return NULL;
	end = callgraph_func_end(sc->cg, callee, &name);
	if (!name || strchr(name, '@') || end - callee > 65536)
		return NULL;
	*len = end - callee;
	return elf_image_code(sc->img, callee, *len);
}

/*
 * The code of the functions argrefs [FROM, TO) hand addresses to that are
 * not read yet, in the order share_callee_writes comes to them: decoded
 * ahead on other threads.  (Without memory for the list: decoded as they
 * come.)
 */
static void decode_callees_ahead(struct scan *sc, const struct callee_facts *c, size_t from,
				 size_t to)
{
	struct dis_span *v = malloc((to > from ? to - from : 1) * sizeof(*v));
	size_t n = 0;

	for (size_t i = from; v && i < to; i++) {
		uint64_t callee = sc->args[i].callee;
		const uint8_t *code;
		bool seen = false;
		size_t len;

		if ((i > from && callee == sc->args[i - 1].callee) || facts_of(c, callee) ||
		    !(code = share_callee_code(sc, callee, &len)))
			continue;
		/* (argrefs handed on come unsorted: a callee once) */
		for (size_t k = n; k-- > 0 && k + 64 >= n && !seen;)
			seen = v[k].addr == callee;
		if (!seen)
			v[n++] = (struct dis_span){ code, len, callee };
	}
	if (v)
		disasm_decode_ahead(sc->d, v, n);
	free(v);
}

/*
 * HANDED, an address handed to a function whose argument a thread's callable
 * loads from its object (capfwds: a method's [this] lambda) or is handed on
 * its own thread (std::thread(&C::run, this)): that callable's pointer set,
 * and the argrefs of the calls its code hands that pointer to.
 */
static int capfwd_cmp(const void *a, const void *b)
{
	const struct capfwd *x = a, *y = b;

	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	return (int)x->prm - (int)y->prm;
}

static int apcall_fn_cmp(const void *a, const void *b)
{
	const struct argptr_call *x = a, *y = b;

	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * HANDED, an address handed to a function whose argument a thread's callable
 * loads from its object (capfwds: a method's [this] lambda) or is handed on
 * its own thread (std::thread(&C::run, this)): that callable's pointer set,
 * and the argrefs of the calls its code hands that pointer to.  capfwds and
 * apcalls sorted by function (share_callee_writes).
 */
static int share_forward_captures(struct scan *sc, const struct argref *handed)
{
	/* (HANDED is in sc->args, which grows here) */
	const struct argref arg = *handed, *a = &arg;
	size_t lo = PARTITION_POINT((size_t)0, sc->nr_capfwds, mid,
				    sc->capfwds[mid].fn < a->callee ||
				    (sc->capfwds[mid].fn == a->callee && sc->capfwds[mid].prm < a->arg));

	for (size_t i = lo; i < sc->nr_capfwds && sc->capfwds[i].fn == a->callee &&
			    sc->capfwds[i].prm == a->arg; i++) {
		const struct capfwd *f = &sc->capfwds[i];
		size_t c;

		if (f->as_arg) {
			/* (the method runs on the new thread: its own code says how often) */
			if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
				return -ENOMEM;
			sc->args[sc->nr_args++] = (struct argref){
				f->to, f->to, a->addr, f->arg, a->indexed, (uint8_t)(a->depth + 1),
				true, 0, false };
			continue;
		}
		if (ARRAY_GROW(sc->ptrsets, sc->ptrsets_cap, sc->nr_ptrsets + 1))
			return -ENOMEM;
		sc->ptrsets[sc->nr_ptrsets++] = (struct ptrset){ SHARE_ARG_PTR(f->to), a->addr,
								 a->indexed };
		/* (and what that function hands on of it: its loop's callee, this->loop()) */
		c = PARTITION_POINT((size_t)0, sc->nr_apcalls, mid, sc->apcalls[mid].fn < f->to);
		for (; c < sc->nr_apcalls && sc->apcalls[c].fn == f->to; c++) {
			const struct argptr_call *ap = &sc->apcalls[c];

			for (int k = 0; k < 6; k++) {
				if (!((ap->args >> k) & 1))
					continue;
				if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
					return -ENOMEM;
				sc->args[sc->nr_args++] = (struct argref){
					ap->at, ap->callee, a->addr, (uint8_t)k, a->indexed,
					(uint8_t)(a->depth + 1), false, 0, true };
			}
		}
	}
	return 0;
}

/*
 * Stores a callee makes through the address of a variable it was handed,
 * and the callees it hands that address on to (this->member.method(), up to
 * MAX_PASS_DEPTH calls down): counted as writes of that variable, running
 * when the first call runs.  A library's lock primitive handed a variable's
 * address (a mutex, a semaphore) writes it on every call.
 */
int share_callee_writes(struct scan *sc)
{
	struct mycl_share *s = sc->s;
	struct callee_facts facts = { 0 };
	const struct cfact *v = NULL;
	size_t n = 0, batch = 0;
	struct lock_rules rules = { 0 };
	int bad, err = 0;
	bool locks = false;
	int lib_arg = -1;
	uint64_t named = 0;		/* the callee LOCKS and LIB_ARG are for */
	uint64_t decoded = 0;		/* the callee V holds the facts of (N) */

	/*
	 * Addresses handed on are followed for at most this many calls in all
	 * (a hostile binary's functions could hand each other one at every call).
	 */
	size_t limit = sc->nr_args * 4 + 65536;

	if (lock_rules_parse(&rules, mycl_default_lock_rules, &bad))
		rules.nr = 0;		/* out of memory: no lock word counted as written */
	sort_array(sc->args, sc->nr_args, sizeof(*sc->args), argref_cmp);
	if (sc->nr_capfwds) {
		sort_array(sc->capfwds, sc->nr_capfwds, sizeof(*sc->capfwds), capfwd_cmp);
		sort_array(sc->apcalls, sc->nr_apcalls, sizeof(*sc->apcalls), apcall_fn_cmp);
	}
	for (size_t i = 0; i < sc->nr_args; i++) {
		const struct argref *a = &sc->args[i];
		uint64_t start = callgraph_func_start(sc->cg, a->callee);
		const char *name;
		const uint8_t *code;
		long lw;

		/*
		 * pthread_create(&t, NULL, entry, &slots[i]) and its wrappers: the
		 * argument after the entry is the entry's first, on the new thread.
		 */
		uint64_t entry = !a->own_heat && a->prev && a->arg &&
				 callgraph_thread_api(sc->cg, a->callee) == a->arg - 1 ?
				 callgraph_function_at(sc->cg, a->prev) : 0;

		/* (handed to a method that hands its object to a thread's callable: [this]) */
		if (sc->nr_capfwds) {
			if ((err = share_forward_captures(sc, a)))
				break;
			a = &sc->args[i];	/* the array may have moved */
		}
		/* (the argrefs there so far, then those they handed on, and so on) */
		if (i == batch) {
			batch = sc->nr_args;
			decode_callees_ahead(sc, &facts, i, batch);
		}

		if (entry) {
			long var = share_find_var(s, a->addr);
			/*
			 * An element of an array (by its debug info) handed to a thread:
			 * an element per thread, whether the pointer steps through it in
			 * a loop (unseen in straight-line code) or each call is unrolled.
			 */
			bool each = var >= 0 && s->vars[var].stride;
			struct argref t = { a->call, entry, a->addr, 0, a->indexed || each, a->depth,
					    true, 0, false };

			if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1)) {
				err = -ENOMEM;
				break;
			}
			sc->args[sc->nr_args++] = t;
			continue;
		}
		callgraph_func_end(sc->cg, a->callee, &name);
		/* (args are mostly sorted by callee: its name is matched once in a row) */
		if (a->callee != named) {
			bool lib = start == a->callee && name && strchr(name, '@');

			named = a->callee;
			locks = lib && rules.nr && lock_call(&rules, name);
			lib_arg = lib ? api_writes_arg(name) : -1;
		}
		/*
		 * A library's function writing through the address (a lock word the
		 * lock primitive takes; memset, snprintf, read into a buffer), when
		 * and as often as the call runs.
		 */
		if (((locks && a->arg == 0) || (lib_arg >= 0 && a->arg == lib_arg)) &&
		    (lw = share_find_var(s, a->addr)) >= 0) {
			enum cg_heat heat = callgraph_heat(sc->cg, a->call);

			s->vars[lw].callee_writes++;
			s->vars[lw].atomics += locks && a->arg == 0;
			/*
			 * (the library writes the object at the address, its size not
			 * known here: somewhere in the member holding it)
			 */
			share_count_write_at(s, sc->cg, &s->vars[lw], heat, a->call, a->addr, true,
					     false, a->indexed, 0);
			continue;
		}
		if (start != a->callee || !name || strchr(name, '@'))
			continue;
		if (a->callee != decoded) {
			const struct callee_entry *e = facts_of(&facts, a->callee);

			if (!e) {
				struct insn *in = NULL;
				size_t nr = 0, len;

				if ((code = share_callee_code(sc, a->callee, &len)))
					err = disasm_range(sc->d, code, len, start, &in, &nr);
				if (!err)
					err = facts_add(&facts, a->callee, in, nr);
				free(in);
				if (err)
					break;
				e = facts_of(&facts, a->callee);
			}
			n = e->nr;
			v = n ? facts.f + e->first : NULL;
			decoded = a->callee;
		}
		for (size_t k = 0; k < n; k++) {
			uint64_t callees[MAX_TABLE_TARGETS];
			size_t nr_callees = 0;
			enum cg_heat heat;
			long var;

			/* (a jump out of the code read is a tail call only to another function's start) */
			bool tail_ok = !v[k].tail ||
				       callgraph_function_at(sc->cg, v[k].target) == v[k].target;

			for (int j = 0; j < 6 && v[k].call && tail_ok && (v[k].target || v[k].call_slot) &&
					a->depth + 1 < MAX_PASS_DEPTH && sc->nr_args < limit; j++) {
				if (v[k].call_arg_pass[j] != a->arg + 1)
					continue;
				/* (a call through a table of functions: any function it holds) */
				if (!nr_callees)
					nr_callees = share_callees(sc, v[k].target, v[k].call_slot,
								   v[k].call_stride, callees,
								   MAX_TABLE_TARGETS);
				for (size_t c = 0; c < nr_callees && sc->nr_args < limit; c++) {
					/*
					 * (from a thread's entry: the call there says when;
					 * prev: the argument before, an entry's address when
					 * the callee starts a thread, server_start(s) calling
					 * pthread_create(&t, NULL, worker, s))
					 */
					struct argref on = {
						a->own_heat ? v[k].addr : a->call, callees[c],
						a->addr + (uint64_t)(int64_t)v[k].call_arg_pass_off[j],
						(uint8_t)j, a->indexed, (uint8_t)(a->depth + 1), false,
						j ? v[k].call_arg[j - 1] : 0, false };

					if (share_find_var(s, on.addr) < 0 || on.callee == a->callee)
						continue;
					if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1)) {
						err = -ENOMEM;
						goto out;
					}
					sc->args[sc->nr_args++] = on;
					a = &sc->args[i];	/* the array may have moved */
				}
			}
			if (v[k].mem_prm != a->arg + 1 ||
			    (v[k].mem_prm_access != ACC_WRITE && v[k].mem_prm_access != ACC_RMW))
				continue;
			var = share_find_var(s, a->addr + (uint64_t)v[k].mem_prm_off);
			if (var < 0)
				continue;
			if (a->own_heat) {
				heat = callgraph_heat(sc->cg, v[k].addr);
			} else {
				heat = callgraph_heat(sc->cg, a->call);
				/*
				 * (the thread's work loop in the function its entry hands
				 * the pointer to; not any callee's loop: one filling a
				 * buffer once a call looks the same, Redis's getRandomHexChars)
				 */
				if (heat == HEAT_WARM && a->loops && callgraph_in_loop(sc->cg, v[k].addr))
					heat = HEAT_HOT;
			}
			s->vars[var].callee_writes++;
			share_count_write_at(s, sc->cg, &s->vars[var], heat,
					     a->own_heat ? v[k].addr : a->call,
					     a->addr + (uint64_t)v[k].mem_prm_off, false, v[k].kind,
					     a->indexed || v[k].ix, 0);
		}
	}
out:
	disasm_decode_ahead_end(sc->d);
	facts_free(&facts);
	lock_rules_free(&rules);
	return err;
}

static int retref_cmp(const void *a, const void *b)
{
	const struct retref *x = a, *y = b;

	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

static int callref_cmp(const void *a, const void *b)
{
	const struct callref *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* A call of a function that returns a variable's address: kept. */
static int returning_call(uint64_t at, uint64_t caller, uint64_t callee, void *arg)
{
	struct scan *sc = arg;
	struct retref key = { .fn = callee }, *r;

	r = bsearch(&key, sc->rets, sc->nr_rets, sizeof(*sc->rets), retref_cmp);
	if (!r || !r->value)
		return 0;
	if (ARRAY_GROW(sc->calls, sc->calls_cap, sc->nr_calls + 1))
		return -ENOMEM;
	sc->calls[sc->nr_calls++] = (struct callref){ caller, at, r->value, r->alt, r->indexed };
	return 0;
}

/*
 * The calls [I, *J) of the K sorted calls that one caller makes, and the
 * code share_returned_writes reads for them into *SPAN: the caller's, from
 * the first such call on (what the result is used for comes after it);
 * false when there is none to read (over 64 KB, not in the file).
 */
static bool caller_span(const struct scan *sc, size_t i, size_t k, size_t *j,
			struct dis_span *span)
{
	uint64_t caller = sc->calls[i].caller, end = callgraph_func_end(sc->cg, caller, NULL);
	uint64_t start = sc->calls[i].at;

	for (*j = i; *j < k && sc->calls[*j].caller == caller; (*j)++)
		;
	if (!start || end <= start || end - start > 65536 ||
	    !(span->code = elf_image_code(sc->img, start, end - start)))
		return false;
	span->len = end - start;
	span->addr = start;
	return true;
}

/*
 * The code share_returned_writes reads, in its order, decoded ahead on
 * other threads.
 */
static void decode_callers_ahead(struct scan *sc, size_t k)
{
	struct dis_span *v = malloc((k ? k : 1) * sizeof(*v));
	size_t n = 0;

	for (size_t i = 0, j; v && i < k; i = j)
		n += caller_span(sc, i, k, &j, &v[n]);
	if (v)
		disasm_decode_ahead(sc->d, v, n);
	free(v);
}

/*
 * Stores through an address a callee returns (stats_for(id)->n++ with
 * stats_for returning &stats[id]): after each call of such a function, the
 * caller's accesses through the result are the variable's, running when the
 * caller does.
 */
int share_returned_writes(struct scan *sc)
{
	struct mycl_share *s = sc->s;
	size_t k = 0, nr_known;
	uint64_t *known;
	int err = 0;

	if (!sc->nr_rets)
		return 0;
	sort_array(sc->rets, sc->nr_rets, sizeof(*sc->rets), retref_cmp);
	/*
	 * One address per function, or one of two (its returns give two, or one
	 * that holds either); a function returning more is left out.
	 */
	for (size_t i = 0; i < sc->nr_rets; i++) {
		struct retref *o = k ? &sc->rets[k - 1] : NULL;

		if (o && o->fn == sc->rets[i].fn) {
			uint64_t a = sc->rets[i].value, b = sc->rets[i].alt;

			if (!o->value)
				continue;
			if (a != o->value && a != o->alt && !o->alt && !b)
				o->alt = a;
			else if ((a != o->value && a != o->alt) || (b && b != o->value && b != o->alt))
				o->value = o->alt = 0;
			continue;
		}
		sc->rets[k++] = sc->rets[i];
	}
	sc->nr_rets = k;
	/* The calls of those functions, by the function making them. */
	err = callgraph_for_each_call(sc->cg, returning_call, sc);
	if (err)
		return err;
	k = sc->nr_calls;
	sort_array(sc->calls, k, sizeof(*sc->calls), callref_cmp);
	/* The calls already handing a variable's address (the scan's): (call, argument) keys. */
	nr_known = sc->nr_args;
	known = malloc((nr_known ? nr_known : 1) * sizeof(*known));
	if (!known)
		return -ENOMEM;
	for (size_t a = 0; a < nr_known; a++)
		known[a] = sc->args[a].call << 3 | sc->args[a].arg;
	sort_array(known, nr_known, sizeof(*known), u64_cmp);
	decode_callers_ahead(sc, k);
	for (size_t i = 0, j; i < k && !err; i = j) {
		struct dis_span span;
		struct call_result *cr;
		struct insn *v = NULL;
		size_t n = 0;

		if (!caller_span(sc, i, k, &j, &span))
			continue;
		cr = calloc(j - i, sizeof(*cr));
		if (!cr)
			return -ENOMEM;
		for (size_t q = i; q < j; q++)
			cr[q - i] = (struct call_result){ sc->calls[q].at, sc->calls[q].value,
							  sc->calls[q].indexed, sc->calls[q].alt };
		disasm_set_call_results(sc->d, cr, j - i);
		err = disasm_range(sc->d, span.code, span.len, span.addr, &v, &n);
		disasm_set_call_results(sc->d, NULL, 0);
		for (size_t q = 0; q < n && !err; q++) {
			const struct call_result *c = NULL;
			long var;

			/* The result handed on to a callee (registry()->lookups++ at -O0): an argref. */
			for (int a = 0; v[q].call && v[q].target && a < 6 && !err; a++) {
				uint64_t key = v[q].addr << 3 | (uint64_t)a;
				size_t lo = 0, hi = nr_known;

				if (!v[q].call_arg[a] || share_find_var(s, v[q].call_arg[a]) < 0)
					continue;
				lo = PARTITION_POINT(lo, hi, mid, known[mid] < key);
				if (lo < nr_known && known[lo] == key)
					continue;
				if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1)) {
					err = -ENOMEM;
					break;
				}
				sc->args[sc->nr_args++] = (struct argref){
					v[q].addr, v[q].target, v[q].call_arg[a], (uint8_t)a,
					(v[q].call_arg_indexed >> a) & 1, 0, false,
					a ? v[q].call_arg[a - 1] : 0, false };
			}
			if (!v[q].data || (v[q].access != ACC_WRITE && v[q].access != ACC_RMW) ||
			    share_ref_at(s, v[q].addr, false))
				continue;
			/* (a result that is one of two addresses: the write to each) */
			for (int w = 0; w < 2; w++) {
				uint64_t at = w ? v[q].data_alt : v[q].data;

				c = NULL;
				if (!at || (var = share_find_var(s, at)) < 0)
					continue;
				/* Credited to the latest call before it whose result is this variable. */
				for (size_t p = 0; p < j - i; p++)
					if (cr[p].at < v[q].addr &&
					    (share_find_var(s, cr[p].value) == var ||
					     (cr[p].alt && share_find_var(s, cr[p].alt) == var)))
						c = &cr[p];
				if (!c)
					continue;
				s->vars[var].callee_writes++;
				share_count_write_at(s, sc->cg, &s->vars[var],
						     callgraph_heat(sc->cg, v[q].addr), v[q].addr, at,
						     false, share_write_kind(&v[q]),
						     c->indexed || v[q].indexed,
						     c->indexed ? 0 : v[q].scale);
			}
		}
		free(v);
		free(cr);
	}
	disasm_decode_ahead_end(sc->d);
	free(known);
	return err;
}

int share_ptrset_cmp(const void *a, const void *b)
{
	const struct ptrset *x = a, *y = b;

	if (x->ptr != y->ptr)
		return x->ptr < y->ptr ? -1 : 1;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	return (int)y->indexed - (int)x->indexed;
}

/*
 * Writes through a pointer variable (a global, or a thread-local: struct
 * stats *mine = &per_thread[id] at a thread's start, then mine->n++ on
 * every request): credited to every variable the code stores an address of
 * into that pointer, when the write runs.  The pointer's own initial value
 * is followed where it is loaded (disasm's data pointers).
 */
void share_pointer_writes(struct scan *sc)
{
	struct mycl_share *s = sc->s;
	size_t k = 0;

	if (!sc->nr_ptrsets || !sc->nr_ptrws)
		return;
	sort_array(sc->ptrsets, sc->nr_ptrsets, sizeof(*sc->ptrsets), share_ptrset_cmp);
	for (size_t i = 0; i < sc->nr_ptrsets; i++)	/* one per (pointer, target) */
		if (!k || sc->ptrsets[k - 1].ptr != sc->ptrsets[i].ptr ||
		    sc->ptrsets[k - 1].target != sc->ptrsets[i].target)
			sc->ptrsets[k++] = sc->ptrsets[i];
	sc->nr_ptrsets = k;
	for (size_t i = 0; i < sc->nr_ptrws; i++) {
		const struct ptrw *w = &sc->ptrws[i];
		size_t lo = 0, hi = sc->nr_ptrsets;

		lo = PARTITION_POINT(lo, hi, mid, sc->ptrsets[mid].ptr < w->ptr);
		/* (at most 64 targets a pointer: a hostile binary could store thousands in one) */
		for (size_t j = lo; j < sc->nr_ptrsets && sc->ptrsets[j].ptr == w->ptr && j < lo + 64;
		     j++) {
			const struct ptrset *t = &sc->ptrsets[j];
			long var = share_find_var(s, t->target + (uint64_t)w->off);

			if (var < 0)
				continue;
			s->vars[var].callee_writes++;
			share_count_write_at(s, sc->cg, &s->vars[var], callgraph_heat(sc->cg, w->at),
					     w->at, t->target + (uint64_t)w->off, false, w->kind, t->indexed,
					     0);
		}
	}
}
