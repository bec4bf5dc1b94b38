/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The call graph is built from what the code does: direct calls and tail
 * jumps, function addresses taken in code or stored in data, the arguments
 * handed to thread-creating calls.  Names decide only which imported
 * functions create threads or register exit handlers (the C and C++ APIs).
 * When each function runs is decided in callgraph_roots.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apinames.h"
#include "callgraph_priv.h"
#include "disasm.h"
#include "elfimage.h"
#include "internal.h"
#include "lockcode.h"
#include "scc.h"
#include "symtab.h"

/* What one of F's names says it is: a thread or exit API, a wait, a call that never returns. */
static void name_roles(struct cg_func *f, const char *name)
{
	struct api_roles r;

	if (!name)
		return;
	api_roles(name, &r);
	if (f->thread_api < 0) {
		f->thread_api = (int8_t)r.thread_arg;
		f->thread_team = r.thread_team;
	}
	f->wait_api |= r.waits;
	f->sleep_api |= r.sleeps;
	if (r.sleeps_if_zero >= 0 && !f->sleep_zero_arg)
		f->sleep_zero_arg = (uint8_t)(r.sleeps_if_zero + 1);
	f->noreturn |= r.noreturn;
	f->exit_api |= r.exit_handler;
	f->once_api |= r.once;
	f->signal_api |= r.signal;
	f->join_api |= r.joins;
}

static int start_cmp(const void *a, const void *b)
{
	const struct cg_func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* a named entry first */
	return (x->name == NULL) - (y->name == NULL);
}

/*
 * The functions: the symbol table's, and those .eh_frame_hdr lists that it
 * does not name (a stripped program's static functions), named by address.
 */
static uint64_t start_hash(uint64_t addr)
{
	return (addr * 0x9e3779b97f4a7c15ULL) >> 32;
}

int callgraph_new(struct callgraph **out, const struct symtab *t, const struct elf_image *img)
{
	struct callgraph *cg = calloc(1, sizeof(*cg));
	uint64_t *fde = NULL;
	size_t nfde = 0, n = 0, all;
	int err;

	*out = NULL;
	if (!cg)
		return -ENOMEM;
	cg->img = img;
	cg->cur = cg->buf_func = NONE;
	err = elf_image_fde_starts(img, &fde, &nfde);
	if (err) {
		free(cg);
		return err;
	}
	all = t->nr + nfde;
	cg->f = calloc(all ? all : 1, sizeof(*cg->f));
	cg->starts = malloc((all ? all : 1) * sizeof(*cg->starts));
	cg->names = calloc(nfde ? nfde : 1, 20);
	if (!cg->f || !cg->starts || !cg->names) {
		free(fde);
		callgraph_free(cg);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->nr; i++)
		cg->f[i] = (struct cg_func){ .start = t->syms[i].start, .end = t->syms[i].end,
					     .name = t->syms[i].name };
	for (size_t i = 0; i < nfde; i++)
		cg->f[t->nr + i] = (struct cg_func){ .start = fde[i] };
	free(fde);
	sort_array(cg->f, all, sizeof(*cg->f), start_cmp);
	for (size_t i = 0; i < all; i++) {
		struct cg_func *f;

		if (n && cg->f[n - 1].start == cg->f[i].start) {
			/* an alias, or a named function: any of its names may be the API */
			name_roles(&cg->f[n - 1], cg->f[i].name);
			continue;
		}
		f = &cg->f[n];
		*f = cg->f[i];
		if (!f->name) {
			char *nm = cg->names + 20 * cg->nr_names++;

			snprintf(nm, 20, "0x%" PRIx64, f->start);
			f->name = nm;
		}
		if (n && (cg->f[n - 1].end > f->start || cg->f[n - 1].end <= cg->f[n - 1].start))
			cg->f[n - 1].end = f->start;
		f->parent = f->loop_parent = NONE;
		f->thread_api = -1;
		name_roles(f, f->name);
		/* libstdc++'s std::thread runs the state's _M_run on the new thread. */
		f->thread_entry = api_std_thread_run(f->name);
		cg->starts[n++] = f->start;
	}
	if (n && cg->f[n - 1].end <= cg->f[n - 1].start)
		cg->f[n - 1].end = cg->f[n - 1].start + 1;
	/* A symbol's size may run past an unnamed function: the next start ends it. */
	cg->nr = n;
	/* the starts by their hash: a call's callee found in one probe or two, not 15 */
	if (itable_reserve(&cg->start_index, n, 16)) {
		callgraph_free(cg);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		size_t h;

		itable_each(&cg->start_index, start_hash(cg->starts[i]), h)
			;
		itable_put(&cg->start_index, h, i);
	}
	*out = cg;
	return 0;
}

void callgraph_free(struct callgraph *cg)
{
	if (!cg)
		return;
	for (size_t i = 0; i < cg->nr; i++)
		free(cg->f[i].rt);
	free(cg->f);
	free(cg->names);
	free(cg->starts);
	itable_free(&cg->start_index);
	free(cg->e);
	free(cg->t);
	free(cg->l);
	free(cg->maxend);
	free(cg->back);
	free(cg->entries);
	free(cg->joined);
	free(cg->sleepers);
	free(cg->gtests);
	free(cg->gstores);
	free(cg->guarded);
	free(cg->gcalls);
	free(cg->roots);
	free(cg->revisit_v);
	free(cg->buf);
	free(cg->x);
	free(cg);
}

const uint64_t *callgraph_starts(const struct callgraph *cg, size_t *n)
{
	*n = cg->nr;
	return cg->starts;
}

/* The function holding ADDR, or NONE. */
uint32_t cg_func_at(const struct callgraph *cg, uint64_t addr)
{
	size_t lo = 0, hi = cg->nr;

	lo = PARTITION_POINT(lo, hi, mid, cg->starts[mid] <= addr);
	if (lo && addr < cg->f[lo - 1].end)
		return (uint32_t)(lo - 1);
	return NONE;
}

/*
 * The function starting at ADDR, or NONE.  On ppc64 (ELFv2) a function has
 * a second, local entry past its TOC set-up, where calls from within the
 * module enter.  On arm a Thumb function's address has its low bit set.
 */
uint32_t cg_func_starting(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i;

	if (elf_image_machine(cg->img) == 40 /* EM_ARM */ && (addr & 1))
		addr &= ~1ULL;
	if (elf_image_machine(cg->img) != 21 /* EM_PPC64 */) {
		/* (every function ends past its start: the one starting at ADDR holds it) */
		size_t h;

		itable_each(&cg->start_index, start_hash(addr), h)
			if (cg->starts[cg->start_index.slot[h]] == addr)
				return cg->start_index.slot[h];
		return NONE;
	}
	i = cg_func_at(cg, addr);

	if (i == NONE)
		return NONE;
	if (cg->f[i].start == addr ||
	    (elf_image_machine(cg->img) == 21 /* EM_PPC64 */ && addr - cg->f[i].start <= 8))
		return i;
	return NONE;
}

static int function_loops(struct callgraph *cg);

/*
 * Calls after which every path goes forward to a call that ends the process
 * (exit, abort), with no return on the way, run once, on the way out: a
 * fatal error's report (redis's rdbReportError calls redis_check_rdb_main,
 * maybe logs, then exits).  Loops back and switches count as a way out.
 */
static void on_the_way_out(struct callgraph *cg, size_t n)
{
	const struct cfg_node *v = cg->buf;
	bool *doomed = calloc(n + 1, sizeof(*doomed)), any = false;

	for (size_t i = 0; i < n && !any; i++)
		any = v[i].dies;
	if (!doomed || !any) {
		free(doomed);
		return;
	}
	for (size_t i = n; i-- > 0;) {
		size_t t = v[i].target > v[i].addr ? cfg_node_at(v, n, v[i].target) : SIZE_MAX;

		if (v[i].dies)
			doomed[i] = true;
		else if (v[i].ret || v[i].indirect)
			doomed[i] = false;
		else if (v[i].jump)
			doomed[i] = t != SIZE_MAX && doomed[t];
		else if (v[i].branch)
			doomed[i] = doomed[i + 1] && t != SIZE_MAX && doomed[t];
		else
			doomed[i] = doomed[i + 1];
	}
	for (size_t k = cg->first_e; k < cg->nr_e; k++) {
		size_t i = cg->e[k].caller == cg->buf_func ? cfg_node_at(v, n, cg->e[k].at) : SIZE_MAX;

		if (i != SIZE_MAX && i + 1 < n && doomed[i + 1])
			cg->e[k].on_exit = true;
	}
	free(doomed);
}

static int take(struct callgraph *cg, uint32_t fn, uint32_t taker, uint32_t to, int arg,
		uint64_t at)
{
	if (ARRAY_GROW(cg->t, cg->t_cap, cg->nr_t + 1))
		return -ENOMEM;
	cg->t[cg->nr_t++] = (struct cg_take){ fn, taker, to, (int8_t)arg, NONE, at };
	return 0;
}

/* A function's address V, stored to memory by TAKER (KIND: TAKE_STORED, TAKE_STACK). */
static int take_stored(struct callgraph *cg, uint64_t v, uint32_t taker, int kind)
{
	uint32_t fn;

	/* (most stored addresses are data's: only those inside the code are looked up) */
	if (!v || !cg->nr || v < cg->f[0].start || v >= cg->f[cg->nr - 1].end ||
	    (fn = cg_func_starting(cg, v)) == NONE || fn == taker)
		return 0;
	return take(cg, fn, taker, NONE, kind, 0);
}

/*
 * A switch's jump table, read from the binary: entries while they point into
 * the function (32-bit offsets from the table, or addresses).  The jump goes
 * there and nowhere else.
 */
static int switch_targets(struct callgraph *cg, uint32_t c, const struct insn *in)
{
	const struct cg_func *f = &cg->f[c];
	unsigned int w = in->table_rel ? 4 : elf_image_machine(cg->img) == 3 /* EM_386 */ ? 4 : 8;
	bool be = elf_image_big_endian(cg->img);
	size_t found = 0;

	for (unsigned int k = 0; k < 4096; k++) {
		const uint8_t *p = elf_image_rodata(cg->img, in->table + (uint64_t)k * w, w);
		uint64_t v = 0, t;

		if (!p)
			break;
		for (unsigned int b = 0; b < w; b++)
			v |= (uint64_t)p[be ? w - 1 - b : b] << (8 * b);
		t = in->table_rel ? in->table + (uint64_t)(int64_t)(int32_t)v : v;
		if (t < f->start || t >= f->end)
			break;
		if (ARRAY_GROW(cg->x, cg->x_cap, cg->nr_x + 1))
			return -ENOMEM;
		cg->x[cg->nr_x++] = (struct cfg_xedge){ (uint32_t)(cg->nr_buf - 1), t };
		found++;
	}
	/* Read: not a jump to anywhere any more. */
	if (found)
		cg->buf[cg->nr_buf - 1].indirect = false;
	return 0;
}

/* The call or jump IN to CALLEE waits a time: always, or with the arguments it is given. */
static bool call_sleeps(const struct cg_func *callee, const struct insn *in)
{
	return callee->sleep_api ||
	       (callee->sleep_zero_arg && ((in->call_arg_zero >> (callee->sleep_zero_arg - 1)) & 1));
}

int callgraph_insn(struct callgraph *cg, const struct insn *in)
{
	uint32_t c = cg->cur, callee = NONE, fn;
	bool sleeps;
	int err;

	if (c == NONE || in->addr < cg->f[c].start || in->addr >= cg->f[c].end)
		c = cg->cur = cg_func_at(cg, in->addr);
	if (c != cg->buf_func || c == NONE) {
		err = function_loops(cg);
		if (err)
			return err;
		cg->buf_func = c;
		cg->first_e = cg->nr_e;
		cg->first_pending = cg->nr_t;
		cg->buf_used = false;
	}
	if (c == NONE)
		return 0;
	cg->f[c].pauses |= in->spin_hint;
	cg->f[c].atomics |= in->atomic;
	if (in->target && (in->call || in->jump))
		callee = cg_func_starting(cg, in->target);
	sleeps = (in->call || in->jump) && callee != NONE && call_sleeps(&cg->f[callee], in);
	cg->buf_used |= in->call || in->data || in->mem_prm || (in->jump && in->target) ||
			cg->revisit;
	if (ARRAY_GROW(cg->buf, cg->buf_cap, cg->nr_buf + 1))
		return -ENOMEM;
	cg->buf[cg->nr_buf++] = (struct cfg_node){
		.addr = in->addr, .target = in->call ? 0 : in->target,
		.jump = in->jump, .branch = in->branch && !in->call,
		.ret = in->ret || (in->call && callee != NONE && cg->f[callee].noreturn),
		.dies = (in->call || in->jump) && callee != NONE && cg->f[callee].noreturn,
		.indirect = in->jump && !in->target, .call = in->call, .atomic = in->may_fail,
		.takes = in->exchange, .on_zero = in->on_zero,
		.spin = in->spin_hint, .sleeps = sleeps, .cond_ret = in->cond_ret,
		.store = (in->access == ACC_WRITE || in->access == ACC_RMW ||
			  in->via_access == ACC_WRITE || in->via_access == ACC_RMW ||
			  in->mem_prm_access == ACC_WRITE || in->mem_prm_access == ACC_RMW) };
	if (in->jump && in->table) {
		err = switch_targets(cg, c, in);
		if (err)
			return err;
	}
	/* Read again: only the loops are remade (callgraph_revisits). */
	if (cg->revisit)
		return 0;
	/* (a tail call returns to the caller, unless what it jumps to never returns) */
	if (in->ret || (in->jump && !in->call && callee != NONE && callee != c &&
			!cg->f[callee].noreturn))
		cg->f[c].has_ret = true;
	if (callee != NONE && cg->f[callee].noreturn && (in->call || in->jump))
		cg->f[c].calls_noreturn = true;
	if (callee != NONE && (in->call || callee != c)) {
		if (ARRAY_GROW(cg->e, cg->e_cap, cg->nr_e + 1))
			return -ENOMEM;
		cg->e[cg->nr_e++] = (struct cg_edge){ .caller = c, .callee = callee, .at = in->addr,
						      .sleeps = sleeps };
	}
	if (in->stored_prm && in->stored_prm <= 8)
		cg->f[c].keeps_args |= (uint8_t)(1u << (in->stored_prm - 1));
	/* A function's address stored into a local before this call: the call it goes with. */
	if (in->call) {
		for (size_t i = cg->first_pending; i < cg->nr_t; i++)
			if (cg->t[i].arg == TAKE_STACK && cg->t[i].next_call == NONE)
				cg->t[i].next_call = callee;
		cg->first_pending = cg->nr_t;
	}
	/* Function addresses handed to a call, or taken and kept. */
	if (in->call) {
		for (int k = 0; k < 6; k++) {
			if (!in->call_arg[k] || (fn = cg_func_starting(cg, in->call_arg[k])) == NONE)
				continue;
			if (take(cg, fn, c, callee, k, in->addr))
				return -ENOMEM;
		}
		if (callee != NONE && cg->f[callee].thread_api >= 0 && cg->f[callee].thread_api < 6 &&
		    in->call_arg_prm[cg->f[callee].thread_api]) {
			/* A wrapper: its own argument becomes the thread's entry. */
			cg->f[c].thread_api = (int8_t)(in->call_arg_prm[cg->f[callee].thread_api] - 1);
			cg->f[c].thread_team = cg->f[callee].thread_team;
		}
		/* A wrapper whose argument points to the entry (a pool's struct: pool->fn). */
		if (callee != NONE && cg->f[callee].thread_api >= 0 && cg->f[callee].thread_api < 6 &&
		    ((in->call_arg_member >> cg->f[callee].thread_api) & 1))
			cg->f[c].thread_api_member = true;
	} else {
		uint64_t a = in->access == ACC_ADDR ? in->data : in->imm;

		if (a && (fn = cg_func_starting(cg, a)) != NONE && fn != c && take(cg, fn, c, NONE, -1, 0))
			return -ENOMEM;
		if (take_stored(cg, in->stored, c, TAKE_STORED) ||
		    take_stored(cg, in->stored_stack, c, TAKE_STACK))
			return -ENOMEM;
	}
	return 0;
}

/* Instructions between two runs of one loop that still make them one (a break's jump). */
#define JOIN_GAP 5

static int add_loop(struct callgraph *cg, uint64_t from, uint64_t to, bool joined)
{
	if (ARRAY_GROW(cg->l, cg->l_cap, cg->nr_l + 1))
		return -ENOMEM;
	cg->l[cg->nr_l++] = (struct cg_loop){ cg->buf_func, from, to, joined, false };
	return 0;
}

/*
 * A few instructions around a CAS or store-conditional, no call, no pause:
 * an atomic's retry (a CAS loop, load-exclusive/store-exclusive, aarch64's
 * outlined atomics), which repeats only while another CPU writes too: no
 * repetition of the code.  A spin-wait (with its pause or yield) stays a
 * loop, and so do a loop of atomic adds (they never fail) and a loop around
 * the retry (two branches back).
 */
static bool retry_loop(const struct cfg_node *v, size_t n)
{
	bool atomic = false;
	size_t back = 0;

	if (n > 8)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i].call || v[i].spin)
			return false;
		atomic |= v[i].atomic;
		/* (a second branch back: a loop around the retry, counting on) */
		back += (v[i].branch || v[i].jump) && v[i].target && v[i].target <= v[i].addr &&
			v[i].target >= v[0].addr;
	}
	return atomic && back == 1;
}

static int add_keyed(struct cg_keyed **v, size_t *nr, size_t *cap, uint64_t at, uint64_t key)
{
	if (ARRAY_GROW(*v, *cap, *nr + 1))
		return -ENOMEM;
	(*v)[(*nr)++] = (struct cg_keyed){ at, key };
	return 0;
}

int callgraph_guard_test(struct callgraph *cg, uint64_t at, uint64_t key)
{
	return cg->revisit ? 0 : add_keyed(&cg->gtests, &cg->nr_gtests, &cg->gtests_cap, at, key);
}

int callgraph_guard_store(struct callgraph *cg, uint64_t at, uint64_t key)
{
	return cg->revisit ? 0 : add_keyed(&cg->gstores, &cg->nr_gstores, &cg->gstores_cap, at, key);
}

bool callgraph_guarded(const struct callgraph *cg, uint64_t at)
{
	return cg_has_addr(cg->guarded, cg->nr_guarded, at);
}

/* The function just read (N instructions) waits a time on every way through it: a sleep. */
static int note_sleeper(struct callgraph *cg, size_t n)
{
	struct cg_func *f = &cg->f[cg->buf_func];

	if (f->sleep_api || !cg_always_sleeps(cg, n))
		return 0;
	f->sleep_api = f->sleeper = true;
	if (ARRAY_GROW(cg->sleepers, cg->sleepers_cap, cg->nr_sleepers + 1))
		return -ENOMEM;
	cg->sleepers[cg->nr_sleepers++] = cg->buf_func;
	return 0;
}

/* The loops of the function now remade: its loops found before go. */
static void drop_loops(struct callgraph *cg, uint32_t fn)
{
	size_t w = 0;

	for (size_t i = 0; i < cg->nr_l; i++)
		if (cg->l[i].func != fn)
			cg->l[w++] = cg->l[i];
	cg->nr_l = w;
	w = 0;
	for (size_t i = 0; i < cg->nr_back; i++)
		if (cg->back[i].func != fn)
			cg->back[w++] = cg->back[i];
	cg->nr_back = w;
}

/*
 * The loops of the function just read: its instructions on a cycle of the
 * control flow (cfgcycles.c), kept as runs of addresses.
 */
static int function_loops(struct callgraph *cg)
{
	size_t n = cg->nr_buf;
	uint32_t *cycle;
	bool *in;
	int err;

	if (!n || cg->buf_func == NONE) {
		cg->nr_buf = 0;
		cg->nr_x = 0;
		cg->nr_gtests = cg->nr_gstores = 0;
		return 0;
	}
	if (!cg->revisit)
		cg->f[cg->buf_func].visit = ++cg->nr_visits;
	else
		drop_loops(cg, cg->buf_func);
	if (note_sleeper(cg, n))
		return -ENOMEM;
	cycle = calloc(n, sizeof(*cycle) + sizeof(*in));
	if (!cycle)
		return -ENOMEM;
	in = (bool *)(cycle + n);
	/* Loops matter to calls and to the accesses the analyses count: none, no loops needed. */
	err = cg->buf_used ? cfg_cycles(cg->buf, n, cg->x, cg->nr_x, in, cycle) : 0;
	if (!err && cg->buf_used)
		err = cg_back_edges(cg, n, in);
	if (!err && !cg->revisit)
		on_the_way_out(cg, n);
	if (!err && !cg->revisit)
		err = cg_function_guards(cg, n);
	/*
	 * Runs of one loop's instructions.  A loop whose exit lies inside it (a
	 * break's jump out, placed between its blocks) is two runs: the second
	 * is joined to the first when a few instructions apart.
	 */
	for (size_t i = 0, last = SIZE_MAX; i < n && !err; i++) {
		size_t j = i;
		bool joined = last != SIZE_MAX && cycle[last] == cycle[i] && i - last <= JOIN_GAP;

		if (!in[i])
			continue;
		while (j + 1 < n && in[j + 1] && cycle[j + 1] == cycle[i])
			j++;
		if (!retry_loop(cg->buf + i, j - i + 1))
			err = add_loop(cg, cg->buf[i].addr, cg->buf[j].addr, joined);
		last = j;
		i = j;
	}
	cg->nr_buf = 0;
	cg->nr_x = 0;
	free(cycle);
	return err;
}

int callgraph_revisits(struct callgraph *cg, const uint64_t **v, size_t *n)
{
	size_t first = cg->sleepers_done, nv = 0;
	int err = function_loops(cg);	/* the last function fed */

	*v = NULL;
	*n = 0;
	if (err)
		return err;
	cg->buf_func = cg->cur = NONE;
	cg->sleepers_done = cg->nr_sleepers;
	/* (wrappers of wrappers of ...: a few rounds; a caller read again may be one) */
	if (first == cg->nr_sleepers || cg->revisit_round++ >= 8) {
		cg->revisit = false;
		return 0;
	}
	/*
	 * Callers read before the sleeper was found (in the first round; after
	 * it, every caller: each was read before).  Edges are in the order read.
	 */
	for (size_t i = first; i < cg->nr_sleepers; i++)
		cg->f[cg->sleepers[i]].fresh = true;
	for (size_t k = 0; k < cg->nr_e; k++) {
		const struct cg_edge *e = &cg->e[k];
		struct cg_func *c = &cg->f[e->caller], *s = &cg->f[e->callee];

		if (!s->fresh || e->caller == e->callee || c->queued ||
		    (!cg->revisit && c->visit > s->visit))
			continue;
		if (ARRAY_GROW(cg->revisit_v, cg->revisit_cap, nv + 2))
			return -ENOMEM;
		c->queued = true;
		cg->revisit_v[nv++] = c->start;
		cg->revisit_v[nv++] = c->end;
	}
	for (size_t i = 0; i < nv; i += 2)
		cg->f[cg_func_at(cg, cg->revisit_v[i])].queued = false;
	for (size_t i = first; i < cg->nr_sleepers; i++)
		cg->f[cg->sleepers[i]].fresh = false;
	cg->revisit = nv > 0;
	*v = cg->revisit_v;
	*n = nv / 2;
	return 0;
}

int cg_on_pointer(uint64_t slot, uint64_t target, void *arg)
{
	struct callgraph *cg = arg;
	const struct elf_section *sec = elf_image_section_at(cg->img, slot);
	uint32_t fn = cg_func_starting(cg, target);

	if (fn == NONE)
		return 0;
	if (sec && (!strcmp(sec->name, ".init_array") || !strcmp(sec->name, ".preinit_array") ||
		    !strcmp(sec->name, ".ctors"))) {
		cg->f[fn].ctx |= CG_STARTUP;
		cg->f[fn].why = W_CTOR;
		return 0;
	}
	if (sec && (!strcmp(sec->name, ".fini_array") || !strcmp(sec->name, ".dtors"))) {
		cg->f[fn].ctx |= CG_EXIT;
		cg->f[fn].why = W_DTOR;
		return 0;
	}
	/* .got slots of functions called through the GOT are no stored pointers. */
	if (sec && !strcmp(sec->name, ".got"))
		return 0;
	cg->f[fn].taken_data = true;
	return 0;
}

static int loop_cmp(const void *a, const void *b)
{
	const struct cg_loop *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

int callgraph_for_each_loop(const struct callgraph *cg, uint64_t fn,
			    int (*cb)(uint64_t from, uint64_t to, void *arg), void *arg)
{
	uint32_t f = cg_func_at(cg, fn);

	return f == NONE ? 0 : cg_for_each_loop(cg, f, cb, arg);
}

bool callgraph_spinning(const struct callgraph *cg, uint64_t addr)
{
	uint32_t f = cg_func_at(cg, addr);

	return f != NONE && (cg->f[f].spun || cg_in_spin(cg, f, addr));
}

bool cg_in_loop(const struct callgraph *cg, uint32_t f, uint64_t addr)
{
	const struct cg_func *fn = &cg->f[f];
	size_t lo = fn->first_loop, hi = fn->first_loop + fn->nr_loops;

	lo = PARTITION_POINT(lo, hi, mid, cg->l[mid].from <= addr);
	return lo > fn->first_loop && cg->maxend[lo - 1] >= addr;
}

/*
 * Main's part after its threads start runs once unless in a loop that waits
 * for work (a server's accept or poll loop): loops over options, plugins or
 * storage engines there do not make it repeat.
 */
bool cg_serving_loop(const struct callgraph *cg, uint32_t f, uint64_t addr)
{
	const struct cg_func *fn = &cg->f[f];

	for (uint32_t l = fn->first_loop; l < fn->first_loop + fn->nr_loops; l++)
		if (cg->l[l].serving && cg->l[l].from <= addr && addr <= cg->l[l].to)
			return true;
	return false;
}

static int edge_callee_cmp(const void *a, const void *b)
{
	const struct cg_edge *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* Edges are sorted by caller: F's outgoing edges. */
void cg_out_edges(const struct callgraph *cg, uint32_t f, size_t *from, size_t *to)
{
	size_t lo = 0, hi = cg->nr_e;

	lo = PARTITION_POINT(lo, hi, mid, cg->e[mid].caller < f);
	*from = lo;
	while (lo < cg->nr_e && cg->e[lo].caller == f)
		lo++;
	*to = lo;
}

bool cg_has_addr(const uint64_t *v, size_t n, uint64_t a)
{
	return n && bsearch(&a, v, n, sizeof(*v), u64_cmp);
}

/* Never returns, ends the process, and is no root of its own (main, a thread entry). */
bool cg_dying(const struct cg_func *f)
{
	return !f->has_ret && f->calls_noreturn && !f->spine && !f->thread_entry &&
	       f->why != W_MAIN && f->why != W_THREAD;
}

/*
 * Recursion is repetition: a call whose callee calls its caller back,
 * directly or through others (a parser's item and list, a tree walk at -O0,
 * which -O2 may turn into a loop of its own), repeats like a call in a loop.
 * The cycles are the strongly connected parts of the direct calls (util's
 * scc_parts); edges sorted by caller.
 */
static int mark_recursion(struct callgraph *cg)
{
	size_t n = cg->nr, *first = calloc(2 * n + 1 + cg->nr_e, sizeof(*first));
	size_t *comp = first + n + 1, *succ = comp + n;
	int err;

	if (!first)
		return -ENOMEM;
	for (size_t k = 0; k < cg->nr_e; k++) {
		first[cg->e[k].caller + 1]++;
		succ[k] = cg->e[k].callee;
	}
	for (size_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	err = scc_parts(n, first, succ, comp);
	for (size_t k = 0; k < cg->nr_e && !err; k++)
		cg->e[k].recursive = comp[cg->e[k].caller] == comp[cg->e[k].callee];
	free(first);
	return err;
}

/* Loops, per function, with the running largest end for look-ups; calls in loops. */
int cg_index_loops(struct callgraph *cg)
{
	int err = function_loops(cg);

	if (err)
		return err;
	sort_array(cg->l, cg->nr_l, sizeof(*cg->l), loop_cmp);
	sort_array(cg->guarded, cg->nr_guarded, sizeof(*cg->guarded), u64_cmp);
	cg->maxend = malloc((cg->nr_l ? cg->nr_l : 1) * sizeof(*cg->maxend));
	if (!cg->maxend)
		return -ENOMEM;
	for (size_t i = 0; i < cg->nr_l; i++) {
		struct cg_func *f = &cg->f[cg->l[i].func];

		if (!i || cg->l[i - 1].func != cg->l[i].func) {
			f->first_loop = (uint32_t)i;
			cg->maxend[i] = cg->l[i].to;
		} else {
			cg->maxend[i] = cg->maxend[i - 1] > cg->l[i].to ? cg->maxend[i - 1] : cg->l[i].to;
		}
		f->nr_loops++;
	}
	sort_array(cg->e, cg->nr_e, sizeof(*cg->e), edge_callee_cmp);
	for (size_t k = 0; k < cg->nr_e; k++)
		cg->e[k].in_loop = cg_in_loop(cg, cg->e[k].caller, cg->e[k].at);
	cg_index_spins(cg);
	return mark_recursion(cg);
}

static bool spine_runtime(const struct cg_func *f, uint64_t addr)
{
	return cg_has_addr(f->rt, f->nr_rt, addr);
}

enum cg_heat callgraph_heat(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = cg_func_at(cg, addr);
	const struct cg_func *f;

	if (i == NONE)
		return HEAT_UNKNOWN;
	f = &cg->f[i];
	if (f->spine && !(f->ctx & CG_RUNTIME))
		return spine_runtime(f, addr) ? (cg_serving_loop(cg, i, addr) ? HEAT_HOT : HEAT_WARM) :
		       HEAT_STARTUP;
	if (cg_dying(f) && f->ctx)
		return HEAT_EXIT;
	if ((f->ctx & CG_RUNTIME) && !f->rt_root && !f->looped)
		return cg_serving_loop(cg, i, addr) ? HEAT_HOT : HEAT_WARM;
	if (f->ctx & CG_RUNTIME)
		return f->looped || cg_in_loop(cg, i, addr) ? HEAT_HOT : HEAT_WARM;
	if (f->ctx & CG_STARTUP)
		return HEAT_STARTUP;
	if (f->ctx & CG_EXIT)
		return HEAT_EXIT;
	return HEAT_UNKNOWN;
}

uint64_t callgraph_func_start(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = cg_func_at(cg, addr);

	return i == NONE ? 0 : cg->f[i].start;
}

uint64_t callgraph_func_end(const struct callgraph *cg, uint64_t addr, const char **name)
{
	uint32_t i = cg_func_at(cg, addr);

	if (name)
		*name = i == NONE ? NULL : cg->f[i].name;
	return i == NONE ? 0 : cg->f[i].end;
}

int callgraph_for_each_call(const struct callgraph *cg,
			    int (*fn)(uint64_t at, uint64_t caller, uint64_t callee, void *arg),
			    void *arg)
{
	int err = 0;

	for (size_t k = 0; k < cg->nr_e && !err; k++)
		err = fn(cg->e[k].at, cg->f[cg->e[k].caller].start, cg->f[cg->e[k].callee].start, arg);
	return err;
}

int callgraph_for_each_take(const struct callgraph *cg,
			    int (*fn)(uint64_t taker, uint64_t taken, uint64_t to, int k, uint64_t at,
				      void *arg),
			    void *arg)
{
	int err = 0;

	for (size_t i = 0; i < cg->nr_t && !err; i++) {
		const struct cg_take *t = &cg->t[i];

		if (t->taker != NONE)
			err = fn(cg->f[t->taker].start, cg->f[t->fn].start,
				 t->passed_to != NONE ? cg->f[t->passed_to].start : 0,
				 t->passed_to != NONE ? t->arg : -1, t->passed_to != NONE ? t->at : 0,
				 arg);
	}
	return err;
}

bool callgraph_in_loop(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = cg_func_at(cg, addr);

	return i != NONE && cg_in_loop(cg, i, addr);
}

static const char *why_word(uint8_t w)
{
	switch (w) {
	case W_THREAD: return "thread entry";
	case W_CALLBACK: return "callback";
	case W_MAIN: return "main";
	case W_API: return "exported function";
	case W_CTOR: return "constructor";
	case W_DTOR: return "destructor";
	case W_ONCE: return "initialiser run once (pthread_once)";
	case W_SIGNAL: return "signal handler";
	default: return "";
	}
}

/* WHY with its article, for "it is itself ...": "a thread entry", "an exported function". */
static const char *why_phrase(uint8_t w)
{
	switch (w) {
	case W_THREAD: return "a thread entry";
	case W_CALLBACK: return "a callback (its address is handed on)";
	case W_MAIN: return "main";
	case W_API: return "an exported function";
	case W_CTOR: return "a constructor";
	case W_DTOR: return "a destructor";
	case W_ONCE: return "an initialiser run once (pthread_once)";
	case W_SIGNAL: return "a signal handler";
	default: return "";
	}
}

const char *callgraph_why(const struct callgraph *cg, uint64_t addr, char *buf, size_t len)
{
	uint32_t i = cg_func_at(cg, addr), r;
	const struct cg_func *f;
	size_t off = 0;
	int hops = 0;

	buf[0] = 0;
	if (i == NONE)
		return buf;
	f = &cg->f[i];
	if (cg_in_loop(cg, i, addr))
		off += (size_t)snprintf(buf + off, len - off, "in a loop of %s", f->name);
	else if (f->looped && f->loop_parent != NONE) {
		/*
		 * The function whose loop repeats it, up the chain; a chain that
		 * comes back on itself is repeated by calls that recurse.
		 */
		uint32_t lp = f->loop_parent, seen[64];
		bool rec = false;
		int k = 0;

		seen[k++] = i;
		for (; k < 64; k++) {
			for (int s = 0; s < k; s++)
				rec |= seen[s] == lp;
			if (rec || !cg->f[lp].looped || cg->f[lp].loop_parent == NONE)
				break;
			seen[k] = lp;
			lp = cg->f[lp].loop_parent;
		}
		if (rec && lp == i && f->loop_parent == i)
			off += (size_t)snprintf(buf + off, len - off, "in %s, which calls itself",
						f->name);
		else if (rec && lp == i)
			off += (size_t)snprintf(buf + off, len - off, "in %s, which calls itself through %s",
						f->name, cg->f[f->loop_parent].name);
		else
			off += (size_t)snprintf(buf + off, len - off, rec ? "in %s, under the recursion of %s" :
						"in %s, under a loop of %s", f->name, cg->f[lp].name);
	}
	else if (f->name >= cg->names && f->name < cg->names + 20 * cg->nr_names)
		/* (a start the unwind tables give and no symbol names) */
		off += (size_t)snprintf(buf + off, len - off, "in the function at %s (no symbol "
					"names it)", f->name);
	else
		off += (size_t)snprintf(buf + off, len - off, "in %s", f->name);
	if (off < len && f->once_parent && f->parent != NONE && !f->looped)
		off += (size_t)snprintf(buf + off, len - off,
					", called once by %s (past the test of a flag set once)",
					cg->f[f->parent].name);
	/* Up to the root that makes it run at runtime. */
	for (r = i; off < len && cg->f[r].parent != NONE && hops < 64; hops++)
		r = cg->f[r].parent;
	if (off < len && cg->f[r].why == W_MAIN && r != i)
		snprintf(buf + off, len - off, "; from %s", cg->f[r].name);
	else if (off < len && cg->f[r].why && r != i)
		snprintf(buf + off, len - off, "; from %s %s", why_word(cg->f[r].why), cg->f[r].name);
	else if (off < len && cg->f[r].why)
		snprintf(buf + off, len - off, "; it is itself %s", why_phrase(cg->f[r].why));
	return buf;
}

uint64_t callgraph_thread_root(const struct callgraph *cg, uint64_t addr)
{
	uint32_t r = cg_func_at(cg, addr);

	for (int hops = 0; r != NONE && cg->f[r].parent != NONE && hops < 64; hops++)
		r = cg->f[r].parent;
	if (r == NONE || (cg->f[r].why != W_THREAD && cg->f[r].why != W_MAIN))
		return 0;
	return cg->f[r].start;
}

uint64_t callgraph_function_at(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = cg_func_starting(cg, addr);

	return i == NONE ? 0 : cg->f[i].start;
}

int callgraph_thread_api(const struct callgraph *cg, uint64_t fn)
{
	uint32_t i = cg_func_starting(cg, fn);

	return i == NONE || cg->f[i].thread_api >= 6 ? -1 : cg->f[i].thread_api;
}

bool callgraph_state_start(const struct callgraph *cg, uint64_t fn)
{
	uint32_t i = cg_func_starting(cg, fn);

	return i != NONE && cg->f[i].thread_api == 9;
}

bool callgraph_exit_api(const struct callgraph *cg, uint64_t fn)
{
	uint32_t i = cg_func_starting(cg, fn);

	return i != NONE && cg->f[i].exit_api;
}

bool callgraph_threaded(const struct callgraph *cg)
{
	return cg->threaded;
}

const char *callgraph_joined_elsewhere(const struct callgraph *cg)
{
	return cg->joined_elsewhere;
}

size_t callgraph_nr_thread_entries(const struct callgraph *cg)
{
	return cg->nr_entries;
}

const char *callgraph_thread_entry(const struct callgraph *cg, size_t i)
{
	return i < cg->nr_entries ? cg->f[cg->entries[i]].name : NULL;
}
