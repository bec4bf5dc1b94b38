/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The call graph is built from what the code does: direct calls and tail
 * jumps, function addresses taken in code or stored in data, the arguments
 * handed to thread-creating calls.  Names decide only which imported
 * functions create threads or register exit handlers (the C and C++ APIs).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apinames.h"
#include "callgraph.h"
#include "cfgcycles.h"
#include "disasm.h"
#include "elfimage.h"
#include "internal.h"
#include "lockcode.h"
#include "symtab.h"

#define NONE UINT32_MAX
#define MAX_THREAD_DEPTH 3		/* calls down to pthread_create that count as starting threads */

struct cg_func {
	uint64_t start, end;
	const char *name;
	uint8_t ctx;			/* enum cg_ctx */
	bool looped;			/* runs repeatedly */
	bool thread_entry, listed, creates_threads, spine, api, taken_data;
	int8_t thread_api;		/* an imported thread-creating function: its entry argument */
	bool exit_api;			/* ... an exit-handler registration */
	bool once_api;			/* ... runs its callback once (pthread_once) */
	uint8_t dist;			/* calls down to a thread-creating call (255: none) */
	uint8_t wait_dist;		/* calls down to a call that blocks for work (255: none) */
	bool wait_api;			/* an imported function that blocks (accept, poll...) */
	bool noreturn;			/* exit, abort, longjmp, __cxa_throw...: no code after its call */
	bool has_ret, calls_noreturn;	/* seen in its code: a return; a call that never returns */
	/*
	 * Run while threads run from a root of its own (a thread entry, a
	 * callback, main without threads, an API), not only from main's part
	 * after its first thread: code main runs once repeats only in a loop
	 * that waits for I/O.
	 */
	bool rt_root;
	uint32_t first_loop, nr_loops;
	uint32_t parent;		/* who made it run at runtime (for the explanation) */
	uint32_t loop_parent;		/* the caller whose loop makes it repeat */
	uint8_t why;			/* enum root_why */
	uint64_t *rt;			/* spine: its instructions that run after a thread starts */
	size_t nr_rt;
};

enum root_why { W_NONE, W_THREAD, W_CALLBACK, W_MAIN, W_API, W_CTOR, W_DTOR };

struct cg_edge {
	uint32_t caller, callee;
	uint64_t at;
	uint8_t ctx;			/* spine edges: when the call runs */
	bool in_loop;
	bool on_exit;			/* straight on from it, a call that ends the process */
};

struct cg_take {
	uint32_t fn, taker;		/* taker NONE: a word in data */
	uint32_t passed_to;		/* the callee it is handed to, NONE: kept or stored */
	int8_t arg;			/* ... as its argument ARG; TAKE_STORED: stored to memory */
};

#define TAKE_STORED (-2)

struct cg_loop {
	uint32_t func;
	uint64_t from, to;
	bool serving;			/* its body blocks waiting for work (accept, poll...) */
};

struct callgraph {
	const struct elf_image *img;
	struct cg_func *f;
	size_t nr;
	uint64_t *starts;
	struct cg_edge *e;
	size_t nr_e, e_cap;
	struct cg_take *t;
	size_t nr_t, t_cap;
	struct cg_loop *l;
	size_t nr_l, l_cap;
	uint64_t *maxend;		/* per loop: the largest end among its function's loops so far */
	uint32_t cur;			/* the function of the last instruction */
	uint32_t *entries;
	size_t nr_entries, entries_cap;
	char *names;			/* "0x..." names of unnamed functions, 20 bytes each */
	size_t nr_names;
	/* The current function's instructions, for its loops, and its switches' targets. */
	struct cfg_node *buf;
	size_t nr_buf, buf_cap;
	struct cfg_xedge *x;
	size_t nr_x, x_cap;
	size_t first_e;			/* the current function's first edge */
	bool buf_used;			/* the current function calls or touches memory it names */
	uint32_t buf_func;
	bool threaded;
};

/* How many calls down a serving loop's wait may be (ServerLoop, WaitEventSetWait, epoll_wait). */
#define MAX_WAIT_DEPTH 2

/* What one of F's names says it is: a thread or exit API, a wait, a call that never returns. */
static void name_roles(struct cg_func *f, const char *name)
{
	if (!name)
		return;
	if (f->thread_api < 0)
		f->thread_api = (int8_t)api_thread_start(name);
	f->wait_api |= api_waits(name);
	f->noreturn |= api_noreturn(name);
	f->exit_api |= api_exit_handler(name);
	f->once_api |= api_once(name);
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
	free(cg->e);
	free(cg->t);
	free(cg->l);
	free(cg->maxend);
	free(cg->entries);
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
static uint32_t func_at(const struct callgraph *cg, uint64_t addr)
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
static uint32_t func_starting(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i;

	if (elf_image_machine(cg->img) == 40 /* EM_ARM */ && (addr & 1))
		addr &= ~1ULL;
	i = func_at(cg, addr);

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

static int take(struct callgraph *cg, uint32_t fn, uint32_t taker, uint32_t to, int arg)
{
	if (ARRAY_GROW(cg->t, cg->t_cap, cg->nr_t + 1))
		return -ENOMEM;
	cg->t[cg->nr_t++] = (struct cg_take){ fn, taker, to, (int8_t)arg };
	return 0;
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

int callgraph_insn(struct callgraph *cg, const struct insn *in)
{
	uint32_t c = cg->cur, callee = NONE, fn;
	int err;

	if (c == NONE || in->addr < cg->f[c].start || in->addr >= cg->f[c].end)
		c = cg->cur = func_at(cg, in->addr);
	if (c != cg->buf_func || c == NONE) {
		err = function_loops(cg);
		if (err)
			return err;
		cg->buf_func = c;
		cg->first_e = cg->nr_e;
		cg->buf_used = false;
	}
	if (c == NONE)
		return 0;
	if (in->target && (in->call || in->jump))
		callee = func_starting(cg, in->target);
	cg->buf_used |= in->call || in->data || in->mem_prm || (in->jump && in->target);
	if (ARRAY_GROW(cg->buf, cg->buf_cap, cg->nr_buf + 1))
		return -ENOMEM;
	cg->buf[cg->nr_buf++] = (struct cfg_node){
		.addr = in->addr, .target = in->call ? 0 : in->target,
		.jump = in->jump, .branch = in->branch && !in->call,
		.ret = in->ret || (in->call && callee != NONE && cg->f[callee].noreturn),
		.dies = (in->call || in->jump) && callee != NONE && cg->f[callee].noreturn,
		.indirect = in->jump && !in->target, .call = in->call, .atomic = in->may_fail,
		.spin = in->spin_hint };
	if (in->jump && in->table) {
		err = switch_targets(cg, c, in);
		if (err)
			return err;
	}
	if (in->ret)
		cg->f[c].has_ret = true;
	if (callee != NONE && cg->f[callee].noreturn && (in->call || in->jump))
		cg->f[c].calls_noreturn = true;
	if (callee != NONE && (in->call || callee != c)) {
		if (ARRAY_GROW(cg->e, cg->e_cap, cg->nr_e + 1))
			return -ENOMEM;
		cg->e[cg->nr_e++] = (struct cg_edge){ c, callee, in->addr, 0, false, false };
	}
	/* Function addresses handed to a call, or taken and kept. */
	if (in->call) {
		for (int k = 0; k < 6; k++) {
			if (!in->call_arg[k] || (fn = func_starting(cg, in->call_arg[k])) == NONE)
				continue;
			if (take(cg, fn, c, callee, k))
				return -ENOMEM;
		}
		if (callee != NONE && cg->f[callee].thread_api >= 0 && cg->f[callee].thread_api < 6 &&
		    in->call_arg_prm[cg->f[callee].thread_api]) {
			/* A wrapper: its own argument becomes the thread's entry. */
			cg->f[c].thread_api = (int8_t)(in->call_arg_prm[cg->f[callee].thread_api] - 1);
		}
	} else {
		uint64_t a = in->access == ACC_ADDR ? in->data : in->imm;

		if (a && (fn = func_starting(cg, a)) != NONE && fn != c && take(cg, fn, c, NONE, -1))
			return -ENOMEM;
		if (in->stored && (fn = func_starting(cg, in->stored)) != NONE && fn != c &&
		    take(cg, fn, c, NONE, TAKE_STORED))
			return -ENOMEM;
	}
	return 0;
}

static int add_loop(struct callgraph *cg, uint64_t from, uint64_t to)
{
	if (ARRAY_GROW(cg->l, cg->l_cap, cg->nr_l + 1))
		return -ENOMEM;
	cg->l[cg->nr_l++] = (struct cg_loop){ cg->buf_func, from, to, false };
	return 0;
}

/*
 * A few instructions around a CAS or store-conditional, no call, no pause:
 * an atomic's retry (a CAS loop, load-exclusive/store-exclusive, aarch64's
 * outlined atomics), which repeats only while another CPU writes too: no
 * repetition of the code.  A spin-wait (with its pause or yield) stays a
 * loop, and so does a loop of atomic adds (they never fail).
 */
static bool retry_loop(const struct cfg_node *v, size_t n)
{
	bool atomic = false;

	if (n > 8)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i].call || v[i].spin)
			return false;
		atomic |= v[i].atomic;
	}
	return atomic;
}

/*
 * The loops of the function just read: its instructions on a cycle of the
 * control flow (cfgcycles.c), kept as runs of addresses.
 */
static int function_loops(struct callgraph *cg)
{
	size_t n = cg->nr_buf;
	bool *in;
	int err;

	if (!n || cg->buf_func == NONE) {
		cg->nr_buf = 0;
		cg->nr_x = 0;
		return 0;
	}
	in = calloc(n, sizeof(*in));
	if (!in)
		return -ENOMEM;
	/* Loops matter to calls and to the accesses the analyses count: none, no loops needed. */
	err = cg->buf_used ? cfg_cycles(cg->buf, n, cg->x, cg->nr_x, in) : 0;
	if (!err)
		on_the_way_out(cg, n);
	for (size_t i = 0; i < n && !err; i++) {
		size_t j = i;

		if (!in[i])
			continue;
		while (j + 1 < n && in[j + 1])
			j++;
		if (!retry_loop(cg->buf + i, j - i + 1))
			err = add_loop(cg, cg->buf[i].addr, cg->buf[j].addr);
		i = j;
	}
	cg->nr_buf = 0;
	cg->nr_x = 0;
	free(in);
	return err;
}

static int on_pointer(uint64_t slot, uint64_t target, void *arg)
{
	struct callgraph *cg = arg;
	const struct elf_section *sec = elf_image_section_at(cg->img, slot);
	uint32_t fn = func_starting(cg, target);

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

static bool in_loop(const struct callgraph *cg, uint32_t f, uint64_t addr)
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
static bool serving_loop(const struct callgraph *cg, uint32_t f, uint64_t addr)
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
static void out_edges(const struct callgraph *cg, uint32_t f, size_t *from, size_t *to)
{
	size_t lo = 0, hi = cg->nr_e;

	lo = PARTITION_POINT(lo, hi, mid, cg->e[mid].caller < f);
	*from = lo;
	while (lo < cg->nr_e && cg->e[lo].caller == f)
		lo++;
	*to = lo;
}

static bool has_addr(const uint64_t *v, size_t n, uint64_t a)
{
	return n && bsearch(&a, v, n, sizeof(*v), u64_cmp);
}

/*
 * Main and the functions that start threads on its behalf: the calls after a
 * call that starts threads (in the control flow) run while threads run; the
 * calls before run at start-up.
 */
static int spine(struct callgraph *cg, struct disasm *d, uint32_t f, int depth)
{
	struct cg_func *fn = &cg->f[f];
	const uint8_t *code = elf_image_code(cg->img, fn->start, fn->end - fn->start);
	struct insn *v = NULL;
	size_t n = 0, ea, eb;
	bool *rt = NULL;
	size_t *stack = NULL, sp = 0;
	int err;

	if (fn->spine || depth > 6 || !code)
		return 0;
	fn->spine = true;
	err = disasm_range(d, code, fn->end - fn->start, fn->start, &v, &n);
	if (err)
		return err;
	rt = calloc(n ? n : 1, sizeof(*rt));
	stack = malloc((n ? n : 1) * 2 * sizeof(*stack));
	if (!rt || !stack) {
		err = -ENOMEM;
		goto out;
	}
	/* From each call that starts threads: what runs after it. */
	for (size_t i = 0; i < n; i++) {
		uint32_t c = v[i].call && v[i].target ? func_starting(cg, v[i].target) : NONE;

		if (c != NONE && (cg->f[c].creates_threads || cg->f[c].thread_api >= 0) && i + 1 < n)
			stack[sp++] = i + 1;
	}
	while (sp) {
		size_t i = stack[--sp];

		if (rt[i])
			continue;
		rt[i] = true;
		if (v[i].ret)
			continue;
		if (!v[i].jump && i + 1 < n && !rt[i + 1])
			stack[sp++] = i + 1;
		if (v[i].branch && !v[i].call && v[i].target >= fn->start && v[i].target < fn->end) {
			size_t lo = 0, hi = n;

			lo = PARTITION_POINT(lo, hi, mid, v[mid].addr < v[i].target);
			if (lo < n && v[lo].addr == v[i].target && !rt[lo])
				stack[sp++] = lo;
		}
	}
	for (size_t i = 0; i < n; i++)
		fn->nr_rt += rt[i];
	fn->rt = malloc((fn->nr_rt ? fn->nr_rt : 1) * sizeof(*fn->rt));
	if (!fn->rt) {
		err = -ENOMEM;
		goto out;
	}
	fn->nr_rt = 0;
	for (size_t i = 0; i < n; i++)
		if (rt[i])
			fn->rt[fn->nr_rt++] = v[i].addr;
	out_edges(cg, f, &ea, &eb);
	for (size_t k = ea; k < eb; k++) {
		struct cg_edge *e = &cg->e[k];
		uint32_t c = e->callee;

		e->ctx = has_addr(fn->rt, fn->nr_rt, e->at) ? CG_RUNTIME : CG_STARTUP;
		/* A start-up call that starts threads: the same split inside it. */
		if (e->ctx == CG_STARTUP && cg->f[c].creates_threads && cg->f[c].thread_api < 0) {
			err = spine(cg, d, c, depth + 1);
			if (err)
				goto out;
		}
	}
out:
	free(v);
	free(rt);
	free(stack);
	return err;
}

/*
 * FN's address, taken by TAKER, stays: stored to memory, or taken into a
 * register that none of TAKER's calls gets (kept in a vector register, a
 * structure built in place).  The takes of FN start at LO.
 */
static bool kept(const struct callgraph *cg, size_t lo, uint32_t fn, const struct cg_take *t)
{
	if (t->arg == TAKE_STORED)
		return true;
	if (t->passed_to != NONE)
		return false;
	for (size_t i = lo; i < cg->nr_t && cg->t[i].fn == fn; i++)
		if (cg->t[i].taker == t->taker && cg->t[i].passed_to != NONE)
			return false;
	return true;
}

/*
 * When FN runs, by its takes (sorted by function): handed to whom, by whom.
 * *ONCE: only handed to functions that run it once (an initialiser).
 */
static uint8_t callback_ctx(const struct callgraph *cg, uint32_t fn, bool *looped, bool *once)
{
	bool any = false, startup = true;

	*once = !cg->f[fn].taken_data;
	*looped = cg->f[fn].taken_data;
	if (cg->f[fn].taken_data)
		return CG_RUNTIME;
	size_t lo = 0, hi = cg->nr_t;

	lo = PARTITION_POINT(lo, hi, mid, cg->t[mid].fn < fn);
	for (size_t i = lo; i < cg->nr_t && cg->t[i].fn == fn; i++) {
		const struct cg_take *t = &cg->t[i];
		uint8_t tc;

		if (t->taker == NONE)
			continue;
		any = true;
		tc = cg->f[t->taker].ctx;
		if (t->passed_to != NONE && cg->f[t->passed_to].exit_api)
			return CG_EXIT;
		/*
		 * Kept (a task's, a handler's, an object's slot): called through it
		 * later, from anywhere, as often as what a table or a vtable in data
		 * holds.
		 */
		bool stays = kept(cg, lo, fn, t);

		/* Taken into the register one of the taker's calls gets: that call decides. */
		if (t->passed_to == NONE && !stays)
			continue;
		/* Run once however often the call is made (an initialiser): never repeatedly. */
		if (t->passed_to != NONE && cg->f[t->passed_to].once_api) {
			if ((tc & CG_RUNTIME) || !tc)
				startup = false;
			continue;
		}
		*once = false;
		if ((tc & CG_RUNTIME) || stays)
			*looped = true;
		/*
		 * Handed at start-up to a function of this binary that runs only at
		 * start-up: called there (an option handler).  Handed to another
		 * library, or kept: it may run at any time, and again and again.
		 */
		if ((tc & CG_RUNTIME) || !tc || stays ||
		    (t->passed_to != NONE && ((cg->f[t->passed_to].ctx & CG_RUNTIME) ||
					      strchr(cg->f[t->passed_to].name, '@'))))
			startup = false;
	}
	if (!any)
		return 0;
	return startup ? CG_STARTUP : CG_RUNTIME;
}

/* Never returns, ends the process, and is no root of its own (main, a thread entry). */
static bool dying(const struct cg_func *f)
{
	return !f->has_ret && f->calls_noreturn && !f->spine && !f->thread_entry &&
	       f->why != W_MAIN && f->why != W_THREAD;
}

/* Spreads contexts and repetition down the calls until nothing changes. */
static void spread(struct callgraph *cg)
{
	bool changed = true;

	for (int round = 0; changed && round < 64; round++) {
		changed = false;
		for (size_t k = 0; k < cg->nr_e; k++) {
			const struct cg_edge *e = &cg->e[k];
			struct cg_func *a = &cg->f[e->caller], *b = &cg->f[e->callee];
			uint8_t ctx = a->spine && !(a->ctx & CG_RUNTIME) ? (a->ctx ? e->ctx : 0) : a->ctx;

			/*
			 * A function that never returns and ends the process (no return,
			 * a call to exit or abort: a fatal-error path) makes its calls
			 * once, on the way out.
			 */
			if ((dying(a) || e->on_exit) && ctx)
				ctx = CG_EXIT;
			/* main's once-run part (its spine after the first thread, what that calls once) */
			bool once = (a->spine && !(a->ctx & CG_RUNTIME)) ||
				    ((a->ctx & CG_RUNTIME) && !a->rt_root && !a->looped);
			bool rep = (ctx & CG_RUNTIME) &&
				   (once ? serving_loop(cg, e->caller, e->at) : e->in_loop || a->looped);

			if ((ctx & CG_RUNTIME) && !once && !b->rt_root) {
				b->rt_root = true;
				changed = true;
			}

			if ((b->ctx | ctx) != b->ctx) {
				if ((ctx & CG_RUNTIME) && !(b->ctx & CG_RUNTIME) && b->parent == NONE)
					b->parent = e->caller;
				b->ctx |= ctx;
				changed = true;
			}
			if (rep && !b->looped) {
				b->looped = true;
				b->loop_parent = e->caller;
				changed = true;
			}
		}
	}
}

/* Loops, per function, with the running largest end for look-ups; calls in loops. */
static int index_loops(struct callgraph *cg)
{
	int err = function_loops(cg);

	if (err)
		return err;
	sort_array(cg->l, cg->nr_l, sizeof(*cg->l), loop_cmp);
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
		cg->e[k].in_loop = in_loop(cg, cg->e[k].caller, cg->e[k].at);
	return 0;
}

static int list_entry(struct callgraph *cg, uint32_t fn)
{
	if (cg->f[fn].listed)
		return 0;
	if (ARRAY_GROW(cg->entries, cg->entries_cap, cg->nr_entries + 1))
		return -ENOMEM;
	cg->f[fn].thread_entry = cg->f[fn].listed = true;
	cg->entries[cg->nr_entries++] = fn;
	return 0;
}

/* Thread entries: handed to a thread-creating call, or to a wrapper of one; std::thread's. */
static int thread_entries(struct callgraph *cg)
{
	for (size_t i = 0; i < cg->nr_t; i++) {
		const struct cg_take *t = &cg->t[i];

		if (t->passed_to != NONE && t->arg >= 0 && cg->f[t->passed_to].thread_api == t->arg &&
		    !cg->f[t->fn].thread_entry && list_entry(cg, t->fn))
			return -ENOMEM;
	}
	for (size_t i = 0; i < cg->nr; i++)
		if (cg->f[i].thread_entry && list_entry(cg, (uint32_t)i))
			return -ENOMEM;
	return 0;
}

/*
 * Who starts threads: a thread-creating call here, or a few calls down
 * (a wrapper, a start_something()): what may start one only deep down
 * some rare path does not mark where the threads start.
 */
static void thread_depth(struct callgraph *cg)
{
	bool changed = true;

	for (size_t i = 0; i < cg->nr; i++) {
		cg->f[i].dist = cg->f[i].thread_api >= 0 ? (strchr(cg->f[i].name, '@') ? 0 : 1) : 255;
		cg->f[i].wait_dist = cg->f[i].wait_api ? 0 : 255;
	}
	for (int round = 0; changed && round < 8; round++) {
		changed = false;
		for (size_t k = 0; k < cg->nr_e; k++) {
			const struct cg_func *ce = &cg->f[cg->e[k].callee];
			uint8_t dc = ce->dist, wc = ce->wait_dist;
			/*
			 * A thin wrapper on the way (no loop, a few instructions: the
			 * -O0 template layers of std::thread, emplace_back, construct)
			 * is no step further from the thread's creation.
			 */
			uint8_t step = ce->thread_api < 0 && !ce->nr_loops && ce->end - ce->start < 256 &&
				       dc ? 0 : 1;

			if (dc < 255 && dc + step < cg->f[cg->e[k].caller].dist) {
				cg->f[cg->e[k].caller].dist = (uint8_t)(dc + step);
				changed = true;
			}
			if (wc < 255 && wc + 1 < cg->f[cg->e[k].caller].wait_dist) {
				cg->f[cg->e[k].caller].wait_dist = (uint8_t)(wc + 1);
				changed = true;
			}
		}
	}
	/* A loop that calls, within a few calls, something that blocks for work: a serving loop. */
	for (size_t k = 0; k < cg->nr_e; k++) {
		const struct cg_edge *e = &cg->e[k];
		const struct cg_func *f = &cg->f[e->caller];

		if (!e->in_loop || cg->f[e->callee].wait_dist > MAX_WAIT_DEPTH)
			continue;
		for (uint32_t l = f->first_loop; l < f->first_loop + f->nr_loops; l++)
			if (cg->l[l].from <= e->at && e->at <= cg->l[l].to)
				cg->l[l].serving = true;
	}
	for (size_t i = 0; i < cg->nr; i++) {
		cg->f[i].creates_threads = cg->f[i].dist <= MAX_THREAD_DEPTH;
		cg->threaded |= cg->f[i].creates_threads || cg->f[i].thread_entry;
	}
}

/* What the entry point hands to its first argument (__libc_start_main's main), or NONE. */
static uint32_t entry_arg0(const struct callgraph *cg)
{
	uint32_t entry = func_starting(cg, elf_image_entry(cg->img));

	for (size_t i = 0; i < cg->nr_t && entry != NONE; i++)
		if (cg->t[i].taker == entry && cg->t[i].arg == 0)
			return cg->t[i].fn;
	return NONE;
}

/*
 * main: by name, or what the entry point hands to __libc_start_main; a
 * program without C's main (-nostdlib): its entry point.  NONE in a library,
 * whose callers' threads run it.
 */
static uint32_t find_main(struct callgraph *cg)
{
	uint32_t main_fn = NONE, entry = func_starting(cg, elf_image_entry(cg->img));

	for (size_t i = 0; i < cg->nr && main_fn == NONE; i++)
		if (!strcmp(cg->f[i].name, "main"))
			main_fn = (uint32_t)i;
	if (main_fn == NONE)
		main_fn = entry_arg0(cg);
	if (!elf_image_executable(cg->img))
		cg->threaded |= main_fn == NONE;
	else if (main_fn == NONE)
		main_fn = entry;
	return main_fn;
}

/* main's part: split where its threads start, or all of it when it starts none. */
static int main_roots(struct callgraph *cg, uint32_t main_fn)
{
	struct cg_func *m = &cg->f[main_fn];
	struct disasm *d;
	int err;

	m->why = W_MAIN;
	if (!m->creates_threads) {
		/*
		 * No thread: main's work is the program's work.  Threads started
		 * only by callbacks (a module's init handler): main runs once, its
		 * own loops no repetition unless they wait for work (a serving
		 * loop), like its part after a first thread.
		 */
		m->ctx |= CG_RUNTIME;
		m->rt_root = !cg->threaded;
		return 0;
	}
	err = disasm_for_image(&d, cg->img);
	if (err)
		return err;
	disasm_set_text(d, false);
	m->ctx |= CG_STARTUP;
	err = spine(cg, d, main_fn, 0);
	disasm_close(d);
	return err;
}

static int take_fn_cmp(const void *a, const void *b)
{
	const struct cg_take *x = a, *y = b;

	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* Callbacks handed over in code, by where they are handed over (after the rest spread). */
static void callbacks(struct callgraph *cg, uint32_t main_fn)
{
	/* main's way in (glibc's __wrap_main in programs at a fixed address): no callback. */
	uint32_t way_in = entry_arg0(cg);

	/* By function: each callback's takes in one run. */
	sort_array(cg->t, cg->nr_t, sizeof(*cg->t), take_fn_cmp);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < cg->nr; i++) {
			struct cg_func *f = &cg->f[i];
			bool looped, once;
			uint8_t c;

			if (f->thread_entry || (uint32_t)i == main_fn || (uint32_t)i == way_in ||
			    f->why == W_CTOR || f->why == W_DTOR)
				continue;
			c = callback_ctx(cg, (uint32_t)i, &looped, &once);
			/* Repetition found in the second round (its taker's came later) counts too. */
			if (!c || ((f->ctx & c) == c && !((c & CG_RUNTIME) && looped && !f->looped)))
				continue;
			f->ctx |= c;
			/* Run once: its own loops are no repetition either (a table filled once). */
			f->rt_root |= (c & CG_RUNTIME) && !once;
			if (!f->why)
				f->why = W_CALLBACK;
			if ((c & CG_RUNTIME) && looped)
				f->looped = true;
		}
		spread(cg);
	}
}

int callgraph_finish(struct callgraph *cg)
{
	uint32_t main_fn;
	int err = index_loops(cg);

	if (!err)
		err = elf_image_for_each_pointer(cg->img, on_pointer, cg);
	if (!err)
		err = thread_entries(cg);
	if (err)
		return err;
	thread_depth(cg);
	main_fn = find_main(cg);
	/* Roots. */
	for (size_t i = 0; i < cg->nr; i++) {
		struct cg_func *f = &cg->f[i];

		if (!strcmp(f->name, "_init")) {
			f->ctx |= CG_STARTUP;
			f->why = W_CTOR;
		} else if (!strcmp(f->name, "_fini")) {
			f->ctx |= CG_EXIT;
			f->why = W_DTOR;
		}
		if (f->thread_entry) {
			f->ctx |= CG_RUNTIME;
			f->rt_root = true;
			f->why = W_THREAD;
		}
		/* A library's exported functions run when its callers call them. */
		if (main_fn == NONE && !elf_image_executable(cg->img) && !strchr(f->name, '@') &&
		    f->name[0] != '_' && !f->ctx)
			f->api = true;
	}
	if (main_fn != NONE) {
		err = main_roots(cg, main_fn);
		if (err)
			return err;
	}
	/* Stored in data: run at any time, repeatedly (tables, vtables). */
	for (size_t i = 0; i < cg->nr; i++) {
		struct cg_func *f = &cg->f[i];

		if (f->taken_data && !f->ctx) {
			f->ctx |= CG_RUNTIME;
			f->rt_root = true;
			f->looped = true;
			f->why = W_CALLBACK;
		}
		if (f->api) {
			f->ctx |= CG_RUNTIME;
			f->rt_root = true;
			f->looped = true;
			f->why = W_API;
		}
	}
	spread(cg);
	callbacks(cg, main_fn);
	return 0;
}

static bool spine_runtime(const struct cg_func *f, uint64_t addr)
{
	return has_addr(f->rt, f->nr_rt, addr);
}

enum cg_heat callgraph_heat(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = func_at(cg, addr);
	const struct cg_func *f;

	if (i == NONE)
		return HEAT_UNKNOWN;
	f = &cg->f[i];
	if (f->spine && !(f->ctx & CG_RUNTIME))
		return spine_runtime(f, addr) ? (serving_loop(cg, i, addr) ? HEAT_HOT : HEAT_WARM) :
		       HEAT_STARTUP;
	if (dying(f) && f->ctx)
		return HEAT_EXIT;
	if ((f->ctx & CG_RUNTIME) && !f->rt_root && !f->looped)
		return serving_loop(cg, i, addr) ? HEAT_HOT : HEAT_WARM;
	if (f->ctx & CG_RUNTIME)
		return f->looped || in_loop(cg, i, addr) ? HEAT_HOT : HEAT_WARM;
	if (f->ctx & CG_STARTUP)
		return HEAT_STARTUP;
	if (f->ctx & CG_EXIT)
		return HEAT_EXIT;
	return HEAT_UNKNOWN;
}

uint64_t callgraph_func_start(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = func_at(cg, addr);

	return i == NONE ? 0 : cg->f[i].start;
}

uint64_t callgraph_func_end(const struct callgraph *cg, uint64_t addr, const char **name)
{
	uint32_t i = func_at(cg, addr);

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

bool callgraph_in_loop(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = func_at(cg, addr);

	return i != NONE && in_loop(cg, i, addr);
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
	default: return "";
	}
}

const char *callgraph_why(const struct callgraph *cg, uint64_t addr, char *buf, size_t len)
{
	uint32_t i = func_at(cg, addr), r;
	const struct cg_func *f;
	size_t off = 0;
	int hops = 0;

	buf[0] = 0;
	if (i == NONE)
		return buf;
	f = &cg->f[i];
	if (in_loop(cg, i, addr))
		off += (size_t)snprintf(buf + off, len - off, "in a loop of %s", f->name);
	else if (f->looped && f->loop_parent != NONE) {
		/* The function whose loop repeats it, up the chain. */
		uint32_t lp = f->loop_parent;

		for (int k = 0; k < 64 && cg->f[lp].looped && cg->f[lp].loop_parent != NONE; k++)
			lp = cg->f[lp].loop_parent;
		off += (size_t)snprintf(buf + off, len - off, "in %s, under a loop of %s", f->name,
					cg->f[lp].name);
	}
	else
		off += (size_t)snprintf(buf + off, len - off, "in %s", f->name);
	/* Up to the root that makes it run at runtime. */
	for (r = i; off < len && cg->f[r].parent != NONE && hops < 64; hops++)
		r = cg->f[r].parent;
	if (off < len && cg->f[r].why && r != i)
		snprintf(buf + off, len - off, "; from %s %s", why_word(cg->f[r].why), cg->f[r].name);
	else if (off < len && cg->f[r].why)
		snprintf(buf + off, len - off, "; itself %s", why_word(cg->f[r].why));
	return buf;
}

uint64_t callgraph_thread_root(const struct callgraph *cg, uint64_t addr)
{
	uint32_t r = func_at(cg, addr);

	for (int hops = 0; r != NONE && cg->f[r].parent != NONE && hops < 64; hops++)
		r = cg->f[r].parent;
	if (r == NONE || (cg->f[r].why != W_THREAD && cg->f[r].why != W_MAIN))
		return 0;
	return cg->f[r].start;
}

uint64_t callgraph_function_at(const struct callgraph *cg, uint64_t addr)
{
	uint32_t i = func_starting(cg, addr);

	return i == NONE ? 0 : cg->f[i].start;
}

int callgraph_thread_api(const struct callgraph *cg, uint64_t fn)
{
	uint32_t i = func_starting(cg, fn);

	return i == NONE || cg->f[i].thread_api >= 6 ? -1 : cg->f[i].thread_api;
}

bool callgraph_threaded(const struct callgraph *cg)
{
	return cg->threaded;
}

size_t callgraph_nr_thread_entries(const struct callgraph *cg)
{
	return cg->nr_entries;
}

const char *callgraph_thread_entry(const struct callgraph *cg, size_t i)
{
	return i < cg->nr_entries ? cg->f[cg->entries[i]].name : NULL;
}
