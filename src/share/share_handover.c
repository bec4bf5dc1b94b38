/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Addresses handed over where no register flow follows them: to a
 * std::thread's callable through its state, to a thread through the struct
 * it is handed (a->slot), to a callback with its context (submit(fn, &ctx),
 * or stored side by side into a queue).  Each becomes an argref (or a
 * pointer set) that share_through.c's passes follow to the stores.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "apinames.h"
#include "callgraph.h"
#include "disasm.h"
#include "elfimage.h"
#include "insn.h"
#include "share_scan.h"

/* An argument of a std::thread's callable that is an object of a class: its place, its class. */
struct state_obj {
	int arg;			/* the callable's parameter (a method's object: 0) */
	char cls[128];
};

/* The class ELEM ("Ctx*", "std::reference_wrapper<Ctx>", "app::Ctx *") points to, into CLS. */
static bool obj_class(const char *elem, size_t n, char *cls, size_t cls_len)
{
	static const char ref[] = "std::reference_wrapper<";

	while (n && elem[n - 1] == ' ')
		n--;
	if (n > sizeof(ref) && !strncmp(elem, ref, sizeof(ref) - 1) && elem[n - 1] == '>') {
		elem += sizeof(ref) - 1;
		n -= sizeof(ref);
	} else if (n > 1 && elem[n - 1] == '*' && elem[n - 2] != '*' && elem[n - 2] != ')') {
		n--;
	} else {
		return false;
	}
	while (n && elem[n - 1] == ' ')
		n--;
	if (!n || n >= cls_len || memchr(elem, '(', n) || memchr(elem, '<', n))
		return false;
	memcpy(cls, elem, n);
	cls[n] = 0;
	return true;
}

/*
 * A std::thread's state function, by its name (libstdc++'s
 * _State_impl<_Invoker<tuple<F, A...>>>::_M_run, libc++'s
 * __thread_proxy<tuple<..., F, A...>>): the callable F is a pointer to a
 * function or to a member function (its class into PM_CLS, else ""), the
 * arguments A... are handed to it; those that point to an object of a class
 * into OUT (at most MAX); how many.
 */
static size_t thread_state(const char *name, char *pm_cls, size_t pm_len, struct state_obj *out,
			   size_t max)
{
	const char *p = strstr(name, "std::thread::_State_impl<");
	const char *star, *open;
	size_t n = 0, depth = 0;
	int arg = 0;

	if (!p && !(p = strstr(name, "__thread_proxy<")))
		return 0;
	/* The callable's type: "R (*)(P...)" or "R (C::*)(P...)", its parameters' parentheses. */
	if (!(star = strstr(p, "*)(")))
		return 0;
	for (open = star; open > p && open[-1] != '('; open--)
		;
	if (open == p)
		return 0;
	pm_cls[0] = 0;
	if (star - open > 2 && !strncmp(star - 2, "::", 2)) {
		if ((size_t)(star - 2 - open) >= pm_len)
			return 0;
		memcpy(pm_cls, open, (size_t)(star - 2 - open));
		pm_cls[star - 2 - open] = 0;
	} else if (star != open) {
		return 0;
	}
	for (p = star + 2; *p; p++) {
		depth += *p == '(';
		if (*p == ')' && --depth == 0)
			break;
	}
	if (!*p++)
		return 0;
	if (!strncmp(p, " const", 6))
		p += 6;
	/* Then ", A0, A1...>": top-level commas, up to the tuple's '>'. */
	while (*p == ',' && n < max) {
		const char *e;

		p++;
		while (*p == ' ')
			p++;
		for (e = p, depth = 0; *e; e++) {
			if (*e == '<' || *e == '(')
				depth++;
			else if ((*e == '>' || *e == ')') && depth)
				depth--;
			else if ((*e == ',' || *e == '>') && !depth)
				break;
		}
		if (obj_class(p, (size_t)(e - p), out[n].cls, sizeof(out[n].cls)))
			out[n++].arg = arg;
		arg++;
		p = e;
	}
	return n;
}

/* The last name of class CLS ("Worker" of "app::Worker"). */
static const char *class_last(const char *cls)
{
	const char *last = cls;

	for (const char *q = cls; (q = strstr(q, "::")); q += 2)
		last = q + 2;
	return last;
}

/* Whether variable type TYPE ("Worker", "Worker[4]", "const app::Worker") is class CLS. */
static bool type_is_class(const char *type, const char *cls)
{
	size_t n;

	if (!type)
		return false;
	while (!strncmp(type, "const ", 6) || !strncmp(type, "volatile ", 9))
		type += type[0] == 'c' ? 6 : 9;
	n = strcspn(type, "[");
	while (n && type[n - 1] == ' ')
		n--;
	if (n == strlen(cls) && !strncmp(type, cls, n))
		return true;
	/* (DWARF names a class without its namespaces) */
	return class_last(cls) != cls && n == strlen(class_last(cls)) &&
	       !strncmp(type, class_last(cls), n);
}

/* Whether function NAME is a method of class CLS, not a constructor or destructor. */
static bool method_of(const char *name, const char *cls)
{
	size_t c = strlen(cls), n;
	const char *m, *paren;

	if (strncmp(name, cls, c) || strncmp(name + c, "::", 2) || name[c + 2] == '~')
		return false;
	m = name + c + 2;
	paren = strchr(m, '(');
	n = paren ? (size_t)(paren - m) : strlen(m);
	if (memmem(m, n, "::", 2))
		return false;
	return n != strlen(class_last(cls)) || strncmp(m, class_last(cls), n);
}

static int take_add(uint64_t taker, uint64_t taken, uint64_t to, int k, uint64_t at, void *arg)
{
	struct scan *sc = arg;

	if (ARRAY_GROW(sc->fntakes, sc->fntakes_cap, sc->nr_fntakes + 1))
		return -ENOMEM;
	sc->fntakes[sc->nr_fntakes++] = (struct fntake){ taker, taken, to, at, k };
	return 0;
}

static int take_at_cmp(const void *a, const void *b)
{
	const struct fntake *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->k - y->k;
}

/* The call graph's function addresses taken (sc->fntakes), read once, by the call handing them. */
static int read_takes(struct scan *sc)
{
	int err;

	if (sc->fntakes_read)
		return 0;
	sc->fntakes_read = true;
	err = callgraph_for_each_take(sc->cg, take_add, sc);
	if (!err)
		sort_array(sc->fntakes, sc->nr_fntakes, sizeof(*sc->fntakes), take_at_cmp);
	return err;
}

/* The addresses of the direct calls, sorted. */
struct call_sites {
	uint64_t *at;
	size_t nr, cap;
};

static int call_site_add(uint64_t at, uint64_t caller, uint64_t callee, void *arg)
{
	struct call_sites *c = arg;

	(void)caller;
	(void)callee;
	if (ARRAY_GROW(c->at, c->cap, c->nr + 1))
		return -ENOMEM;
	c->at[c->nr++] = at;
	return 0;
}

static int argref_dedup_cmp(const void *a, const void *b)
{
	const struct argref *x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)x->arg - (int)y->arg;
}

/*
 * A thread's entry handing a pointer loaded from its argument's struct to a
 * function (count(a->slot)): that function is handed the addresses the
 * struct was filled with, when and as often as the call runs.
 */
static int argptr_calls(struct scan *sc)
{
	size_t first = sc->nr_ptrsets;

	if (!sc->nr_apcalls || !sc->nr_ptrsets)
		return 0;
	sort_array(sc->ptrsets, sc->nr_ptrsets, sizeof(*sc->ptrsets), share_ptrset_cmp);
	for (size_t i = 0; i < sc->nr_apcalls; i++) {
		const struct argptr_call *c = &sc->apcalls[i];
		uint64_t key = SHARE_ARG_PTR(c->fn);
		size_t lo = 0, hi = first;

		lo = PARTITION_POINT(lo, hi, mid, sc->ptrsets[mid].ptr < key);
		for (size_t j = lo; j < hi && j < lo + 64 && sc->ptrsets[j].ptr == key; j++) {
			for (int k = 0; k < 6; k++) {
				if (!((c->args >> k) & 1))
					continue;
				if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
					return -ENOMEM;
				sc->args[sc->nr_args++] = (struct argref){
					c->at, c->callee, sc->ptrsets[j].target, (uint8_t)k,
					sc->ptrsets[j].indexed, 0, false, 0, true };
			}
		}
	}
	return 0;
}

/*
 * By function, then address: struct argstore, struct dstore and struct
 * prmstore all begin with uint64_t fn, at.
 */
static int fn_at_cmp(const void *a, const void *b)
{
	uint64_t x[2], y[2];

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* A call: where, by whom, to what (by address). */
struct call3 {
	uint64_t at, caller, callee;
};

struct calls3 {
	struct call3 *c;
	size_t nr, cap;
};

static int call3_add(uint64_t at, uint64_t caller, uint64_t callee, void *arg)
{
	struct calls3 *c = arg;

	if (ARRAY_GROW(c->c, c->cap, c->nr + 1))
		return -ENOMEM;
	c->c[c->nr++] = (struct call3){ at, caller, callee };
	return 0;
}

static int call3_cmp(const void *a, const void *b)
{
	const struct call3 *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Whether NAME holds type TYPE (N bytes) as a template's argument or a
 * parameter's type: "emplace_back<main::{lambda()#1}>(main::{lambda()#1}&&)",
 * "vtable for ...tuple<Pump> > >"; not a member's name ("Pump::reset").
 */
static bool names_type(const char *name, const char *type, size_t n)
{
	for (const char *p = name; name && (p = strstr(p, type)); p++)
		if (p > name && strchr("<(, ", p[-1]) && p[n] && strchr(">),&* ", p[n]))
			return true;
	return false;
}

/*
 * The callable's type of a std::thread's state function whose callable has
 * no arguments (a lambda, a function object): "main::{lambda()#1}" of
 * std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::{lambda()#1}> > >::_M_run(),
 * into OUT.  False for a function's pointer and for arguments (thread_state's).
 */
static bool state_callable(const char *name, char *out, size_t len)
{
	static const char pre[] = "std::thread::_State_impl<std::thread::_Invoker<std::tuple<";
	const char *p = name ? strstr(name, pre) : NULL, *e;
	int depth = 0;
	size_t n;

	if (!p || !api_std_thread_run(name))
		return false;
	p += sizeof(pre) - 1;
	for (e = p; *e; e++) {
		if (*e == '<' || *e == '(' || *e == '{' || *e == '[') {
			depth++;
		} else if (*e == '>' || *e == ')' || *e == '}' || *e == ']') {
			if (!depth)
				break;
			depth--;
		} else if (*e == ',' && !depth) {
			return false;
		}
	}
	n = (size_t)(e - p);
	while (n && p[n - 1] == ' ')
		n--;
	if (*e != '>' || !n || n >= len || p[n - 1] == '*' || p[n - 1] == '&' ||
	    memmem(p, n, "(*)", 3))
		return false;
	memcpy(out, p, n);
	out[n] = 0;
	return true;
}

/* A callable object's type and the functions that run it: its state's _M_run, its operator(). */
struct callable {
	char type[192];
	size_t len;
	uint64_t fns[4];
	size_t nr_fns;
};

/* The first of CALLER's stores of its own arguments after SINCE (prmstores sorted). */
static size_t prm_first(const struct scan *sc, uint64_t caller, uint64_t since)
{
	return PARTITION_POINT((size_t)0, sc->nr_prmstores, mid,
			       sc->prmstores[mid].fn < caller ||
			       (sc->prmstores[mid].fn == caller && sc->prmstores[mid].at <= since));
}

/* Whether CALLER stores an argument of its own in (SINCE, AT). */
static bool prm_stored(const struct scan *sc, uint64_t caller, uint64_t since, uint64_t at)
{
	size_t i = prm_first(sc, caller, since);

	return i < sc->nr_prmstores && sc->prmstores[i].fn == caller && sc->prmstores[i].at < at;
}

/*
 * The arguments of CALLER it stores in (SINCE, AT) -- a lambda capturing
 * this in a method -- are what the callable CL's functions load from their
 * object: forwarded when an address is handed to CALLER (capfwds).
 */
static int param_captures(struct scan *sc, uint64_t caller, uint64_t since, uint64_t at,
			  const struct callable *cl)
{
	size_t lo = prm_first(sc, caller, since);

	for (size_t i = lo; i < sc->nr_prmstores && i < lo + 16 && sc->prmstores[i].fn == caller &&
			    sc->prmstores[i].at < at; i++) {
		for (size_t f = 0; f < cl->nr_fns; f++) {
			if (ARRAY_GROW(sc->capfwds, sc->capfwds_cap, sc->nr_capfwds + 1))
				return -ENOMEM;
			sc->capfwds[sc->nr_capfwds++] = (struct capfwd){ caller,
									 sc->prmstores[i].prm,
									 cl->fns[f], false, 0 };
		}
	}
	return 0;
}

/*
 * std::thread([&c] { c.record(); }), std::thread(Task{&slots[i]}): the
 * callable object holds the addresses, copied into the thread's state, and
 * its code loads them from the object (this->c).  What a function stores
 * into memory just before it hands the object over -- before a call whose
 * name holds the callable's type (-O0: emplace_back<main::{lambda()#1}>), or
 * before std::thread::_M_start_thread with the state's vtable stored beside
 * (-O2) -- is what the callable's _M_run and operator() load from their
 * object: pointer sets of theirs, as for a thread's argument struct.
 */
static int callable_captures(struct scan *sc)
{
	const struct mycl_share *s = sc->s;
	struct callable *cl = NULL;
	size_t nr_cl = 0, cl_cap = 0, nstarts;
	struct calls3 calls = { 0 };
	const uint64_t *starts = callgraph_starts(sc->cg, &nstarts);
	int err = 0;

	for (size_t i = 0; i < nstarts && nr_cl < 256; i++) {
		const char *name;
		struct callable c = { .nr_fns = 1 };

		callgraph_func_end(sc->cg, starts[i], &name);
		if (!state_callable(name, c.type, sizeof(c.type)))
			continue;
		c.len = strlen(c.type);
		c.fns[0] = starts[i];
		if (ARRAY_GROW(cl, cl_cap, nr_cl + 1)) {
			free(cl);
			return -ENOMEM;
		}
		cl[nr_cl++] = c;
	}
	if (!nr_cl)
		return 0;
	/* Its operator() (several: const and not, or a functor's overloads; at most 3). */
	for (size_t i = 0; i < nstarts; i++) {
		const char *name;

		callgraph_func_end(sc->cg, starts[i], &name);
		for (size_t k = 0; name && k < nr_cl; k++)
			if (!strncmp(name, cl[k].type, cl[k].len) &&
			    !strncmp(name + cl[k].len, "::operator()", 12) && cl[k].nr_fns < 4)
				cl[k].fns[cl[k].nr_fns++] = starts[i];
	}
	err = callgraph_for_each_call(sc->cg, call3_add, &calls);
	sort_array(calls.c, calls.nr, sizeof(*calls.c), call3_cmp);
	sort_array(sc->argstores, sc->nr_argstores, sizeof(*sc->argstores), fn_at_cmp);
	sort_array(sc->prmstores, sc->nr_prmstores, sizeof(*sc->prmstores), fn_at_cmp);
	for (size_t c = 0; c < calls.nr && !err; c++) {
		const struct call3 *k = &calls.c[c];
		uint64_t since = c ? calls.c[c - 1].at : 0;
		size_t lo = PARTITION_POINT((size_t)0, sc->nr_argstores, mid,
					    sc->argstores[mid].fn < k->caller ||
					    (sc->argstores[mid].fn == k->caller &&
					     sc->argstores[mid].at <= since));
		/*
		 * (built in place, the state's allocation is the call before: the
		 * callable may have been made on the stack before it, copied in)
		 */
		uint64_t since2 = c > 1 ? calls.c[c - 2].at : 0;
		size_t lo2 = PARTITION_POINT((size_t)0, lo, mid,
					     sc->argstores[mid].fn < k->caller ||
					     (sc->argstores[mid].fn == k->caller &&
					      sc->argstores[mid].at <= since2));
		size_t hi = lo;
		const char *callee;
		bool start;

		while (hi < sc->nr_argstores && hi < lo + 64 && sc->argstores[hi].fn == k->caller &&
		       sc->argstores[hi].at < k->at)
			hi++;
		if (lo2 + 64 < lo)
			lo2 = lo - 64;
		/* (nothing stored in either window, no address nor own argument: nothing handed) */
		if (hi == lo2 && !prm_stored(sc, k->caller, since2, k->at))
			continue;
		callgraph_func_end(sc->cg, k->callee, &callee);
		start = callgraph_state_start(sc->cg, k->callee);
		for (size_t l = 0; l < nr_cl && !err; l++) {
			bool handed = names_type(callee, cl[l].type, cl[l].len);

			/* -O2: the state built in place, its vtable (named by the callable) stored */
			for (size_t i = lo; start && !handed && i < hi; i++) {
				long v = share_find_var(s, sc->argstores[i].target);
				const char *vn = v >= 0 ? s->vars[v].name :
						 share_relro_name(s, sc->argstores[i].target);

				handed = vn && names_type(vn, cl[l].type, cl[l].len);
			}
			if (!handed)
				continue;
			err = param_captures(sc, k->caller, start ? since2 : since, k->at, &cl[l]);
			for (size_t i = start ? lo2 : lo; i < hi && !err; i++) {
				long v = share_find_var(s, sc->argstores[i].target);

				/* (the state's own vtable and type information are no capture) */
				if (v < 0 || names_type(s->vars[v].name, cl[l].type, cl[l].len))
					continue;
				for (size_t f = 0; f < cl[l].nr_fns && !err; f++) {
					if (ARRAY_GROW(sc->ptrsets, sc->ptrsets_cap, sc->nr_ptrsets + 1)) {
						err = -ENOMEM;
						break;
					}
					sc->ptrsets[sc->nr_ptrsets++] = (struct ptrset){
						SHARE_ARG_PTR(cl[l].fns[f]), sc->argstores[i].target,
						sc->argstores[i].indexed || s->vars[v].stride };
				}
			}
		}
	}
	free(calls.c);
	free(cl);
	return err;
}

int share_thread_args(struct scan *sc)
{
	struct call_sites calls = { 0 };
	const struct fntake *takes;
	int err;

	err = callable_captures(sc);
	if (err || !sc->nr_argstores)
		return err;
	if (!err)
		err = read_takes(sc);
	takes = sc->fntakes;
	if (!err)
		err = callgraph_for_each_call(sc->cg, call_site_add, &calls);
	sort_array(calls.at, calls.nr, sizeof(*calls.at), u64_cmp);
	sort_array(sc->argstores, sc->nr_argstores, sizeof(*sc->argstores), fn_at_cmp);
	for (size_t t = 0; t < sc->nr_fntakes && !err; t++) {
		uint64_t taker = takes[t].taker, at = takes[t].at, since;
		size_t lo = 0, hi = sc->nr_argstores, c;

		/* An entry handed to a function starting threads with it (pthread_create, a wrapper). */
		if (!takes[t].to || takes[t].k < 0 ||
		    callgraph_thread_api(sc->cg, takes[t].to) != takes[t].k)
			continue;
		/* The struct handed is the one filled since the call before (no call between). */
		c = PARTITION_POINT((size_t)0, calls.nr, mid, calls.at[mid] < at);
		since = c ? calls.at[c - 1] : 0;
		lo = PARTITION_POINT(lo, hi, mid, sc->argstores[mid].fn < taker ||
					      (sc->argstores[mid].fn == taker &&
					       sc->argstores[mid].at <= since));
		/* (at most 64 addresses a call: a hostile binary could store thousands) */
		for (size_t i = lo; i < hi && i < lo + 64 && sc->argstores[i].fn == taker &&
				    sc->argstores[i].at < at; i++) {
			long var = share_find_var(sc->s, sc->argstores[i].target);

			if (ARRAY_GROW(sc->ptrsets, sc->ptrsets_cap, sc->nr_ptrsets + 1)) {
				err = -ENOMEM;
				break;
			}
			/* (an array's element: one per thread, as for pthread_create's own argument) */
			sc->ptrsets[sc->nr_ptrsets++] = (struct ptrset){
				SHARE_ARG_PTR(takes[t].taken), sc->argstores[i].target,
				sc->argstores[i].indexed || (var >= 0 && sc->s->vars[var].stride) };
		}
	}
	free(calls.at);
	return err ? err : argptr_calls(sc);
}

/*
 * std::thread(f, &object, ...) and std::thread(&C::method, &object, ...):
 * the callable and its arguments reach the new thread through its state on
 * the heap (at -O2 through SSE registers too), where the register flow does
 * not follow them.  The state's type names them: an argument pointing to an
 * object of class C (C*, std::reference_wrapper<C>) is handed, as the
 * callable's parameter at its place, to each function whose address a
 * function takes beside the address of a variable of class C (a method of
 * the member pointer's class, not its constructor or destructor): a thread's
 * entry handed that variable, its own code saying how often.
 */
int share_thread_methods(struct scan *sc)
{
	const struct mycl_share *s = sc->s;
	struct argref *found = NULL;
	size_t nr_found = 0, found_cap = 0, nstarts;
	const uint64_t *starts;
	char pm_cls[128];
	int err = 0;

	starts = callgraph_starts(sc->cg, &nstarts);
	for (size_t i = 0; i < nstarts && !err; i++) {
		struct state_obj objs[6];
		const char *name;
		size_t nobj;

		callgraph_func_end(sc->cg, starts[i], &name);
		if (!name || !(nobj = thread_state(name, pm_cls, sizeof(pm_cls), objs, 6)))
			continue;
		if ((err = read_takes(sc)))
			break;
		for (size_t t = 0; t < sc->nr_fntakes && !err; t++) {
			const struct fntake *tk = &sc->fntakes[t];
			uint64_t taker = tk->taker, end;
			const char *fname, *tname;
			size_t r;

			callgraph_func_end(sc->cg, tk->taken, &fname);
			if (pm_cls[0] && (!fname || !method_of(fname, pm_cls)))
				continue;
			end = callgraph_func_end(sc->cg, taker, &tname);
			/*
			 * A method of the object's class taking it (start() running
			 * std::thread(&C::run, this)): what its callers hand it as this.
			 */
			for (size_t o = 0; tname && o < nobj && !err; o++) {
				if (!method_of(tname, objs[o].cls))
					continue;
				if (ARRAY_GROW(sc->capfwds, sc->capfwds_cap, sc->nr_capfwds + 1))
					err = -ENOMEM;
				else
					sc->capfwds[sc->nr_capfwds++] = (struct capfwd){
						taker, 0, tk->taken, true, (uint8_t)objs[o].arg };
			}
			/* The taker's variables of those classes whose address it takes. */
			r = PARTITION_POINT((size_t)0, s->nr_refs, mid, s->refs[mid].addr < taker);
			for (; r < s->nr_refs && s->refs[r].addr < end && !err; r++) {
				const struct mycl_share_var *v = &s->vars[s->refs[r].var];

				if (s->refs[r].access != ACC_ADDR)
					continue;
				for (size_t o = 0; o < nobj; o++) {
					if (!type_is_class(v->type, objs[o].cls))
						continue;
					if (ARRAY_GROW(found, found_cap, nr_found + 1)) {
						err = -ENOMEM;
						break;
					}
					found[nr_found++] = (struct argref){
						tk->taken, tk->taken, v->addr,
						(uint8_t)objs[o].arg, v->stride != 0, 0, true, 0, false };
				}
			}
		}
	}
	/* (each function handed each variable once, however many takes pair them) */
	if (!err && nr_found) {
		sort_array(found, nr_found, sizeof(*found), argref_dedup_cmp);
		for (size_t i = 0; i < nr_found && !err; i++) {
			if (i && !argref_dedup_cmp(&found[i], &found[i - 1]))
				continue;
			if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
				err = -ENOMEM;
			else
				sc->args[sc->nr_args++] = found[i];
		}
	}
	free(found);
	return err;
}

/*
 * The one parameter of FN (its start) that FN stores through, or -1: none,
 * several, or its code not readable.
 */
static int stored_param(struct scan *sc, uint64_t fn)
{
	struct insn *in = NULL;
	const uint8_t *code;
	size_t nr = 0, len;
	int p = -1;

	if (!(code = share_callee_code(sc, fn, &len)) || disasm_range(sc->d, code, len, fn, &in, &nr))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		if (!in[i].mem_prm ||
		    (in[i].mem_prm_access != ACC_WRITE && in[i].mem_prm_access != ACC_RMW))
			continue;
		if (p >= 0 && p != in[i].mem_prm - 1) {
			p = -1;
			break;
		}
		p = in[i].mem_prm - 1;
	}
	free(in);
	return p;
}

int share_callback_contexts(struct scan *sc)
{
	const struct fntake *takes;
	size_t nr = sc->nr_args;
	int err = read_takes(sc);

	takes = sc->fntakes;
	for (size_t i = 0; i < nr && !err; i++) {
		const struct argref a = sc->args[i];
		size_t lo = 0, hi = sc->nr_fntakes;
		int p;

		/* (a thread's entry and its argument: share_callee_writes' own rule) */
		if (a.own_heat || a.depth || !a.arg ||
		    callgraph_thread_api(sc->cg, a.callee) == a.arg - 1)
			continue;
		lo = PARTITION_POINT(lo, hi, mid, takes[mid].at < a.call ||
					      (takes[mid].at == a.call && takes[mid].k < a.arg - 1));
		/* (a handler run at exit, a destructor __cxa_atexit is handed: not while threads run) */
		if (lo == hi || takes[lo].at != a.call || takes[lo].k != a.arg - 1 ||
		    takes[lo].to != a.callee || callgraph_exit_api(sc->cg, a.callee) ||
		    callgraph_heat(sc->cg, takes[lo].taken) == HEAT_EXIT ||
		    (p = stored_param(sc, takes[lo].taken)) < 0)
			continue;
		if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
			err = -ENOMEM;
		else
			/* (as often as it is handed over: a task queued runs once a call) */
			sc->args[sc->nr_args++] = (struct argref){
				a.call, takes[lo].taken, a.addr, (uint8_t)p, a.indexed, 1, false, 0,
				false };
	}
	return err;
}

int share_stored_contexts(struct scan *sc)
{
	unsigned int ptr = elf_image_machine(sc->img) == EM_X86_64 ||
			   elf_image_machine(sc->img) == EM_AARCH64 ? 8 : 4;

	sort_array(sc->dstores, sc->nr_dstores, sizeof(*sc->dstores), fn_at_cmp);
	for (size_t i = 0; i < sc->nr_dstores; i++) {
		const struct dstore *f = &sc->dstores[i];
		int p = -2;

		if (!f->is_fn || callgraph_heat(sc->cg, f->value) == HEAT_EXIT)
			continue;
		/* (its context: stored by the same function a few instructions either side) */
		for (size_t j = i > 8 ? i - 8 : 0; j < sc->nr_dstores && j <= i + 8; j++) {
			const struct dstore *v = &sc->dstores[j];

			if (v->is_fn || v->fn != f->fn || v->data != f->data + ptr ||
			    (v->at > f->at ? v->at - f->at : f->at - v->at) > 64)
				continue;
			if (p == -2)
				p = stored_param(sc, f->value);
			if (p < 0)
				break;
			if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
				return -ENOMEM;
			sc->args[sc->nr_args++] = (struct argref){
				f->at, f->value, v->value, (uint8_t)p, v->indexed, 1, false, 0, false };
		}
	}
	return 0;
}
