/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * When each function runs, once the instructions are read: thread entries
 * and how far below them threads start, main split at its first thread,
 * callbacks by what the code does with their address, and contexts and
 * repetition spread down the calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "apinames.h"
#include "callgraph_priv.h"
#include "disasm.h"
#include "elfimage.h"
#include "internal.h"

/*
 * Whether the ways on from V[I] (a call starting a thread) meet a call that
 * joins a thread before they start another (some way does; others may
 * return, as when the start failed): a thread run and waited for at
 * start-up (a configuration loader).  SEEN: scratch of N.
 */
static bool joined_after(const struct callgraph *cg, const struct cg_func *fn,
			 const struct insn *v, size_t n, size_t i, bool *seen, size_t *stack)
{
	size_t sp = 0;
	bool join = false;

	memset(seen, 0, n * sizeof(*seen));
	if (i + 1 >= n)
		return false;
	stack[sp++] = i + 1;
	while (sp) {
		size_t k = stack[--sp];
		uint32_t c;

		if (seen[k])
			continue;
		seen[k] = true;
		c = v[k].call && v[k].target ? cg_func_starting(cg, v[k].target) : NONE;
		if (c != NONE && cg->f[c].join_api) {
			join = true;
			continue;	/* this way waits for it */
		}
		if (v[k].ret)
			continue;
		if ((v[k].jump && !v[k].target) ||
		    (c != NONE && (cg->f[c].creates_threads || cg->f[c].thread_api >= 0)) ||
		    (v[k].call && !v[k].target))
			return false;
		if (v[k].jump && (v[k].target < fn->start || v[k].target >= fn->end))
			return false;	/* a tail call */
		if (!v[k].jump) {
			if (k + 1 >= n)
				return false;
			stack[sp++] = k + 1;
		}
		if (v[k].branch && !v[k].call && v[k].target >= fn->start && v[k].target < fn->end) {
			size_t lo = 0, hi = n;

			lo = PARTITION_POINT(lo, hi, mid, v[mid].addr < v[k].target);
			if (lo >= n || v[lo].addr != v[k].target)
				return false;
			stack[sp++] = lo;
		}
	}
	return join;
}

/*
 * Main and the functions that start threads on its behalf: the calls after a
 * call that starts threads (in the control flow) run while threads run; the
 * calls before run at start-up.  A thread started and joined before any
 * other starts runs at start-up, and what follows its join too.
 */
static int spine(struct callgraph *cg, struct disasm *d, uint32_t f, int depth)
{
	struct cg_func *fn = &cg->f[f];
	const uint8_t *code = elf_image_code(cg->img, fn->start, fn->end - fn->start);
	struct insn *v = NULL;
	size_t n = 0, ea, eb;
	bool *rt = NULL, *joined = NULL;
	size_t *stack = NULL, *jstack = NULL, sp = 0;
	int err;

	if (fn->spine || depth > 6 || !code)
		return 0;
	fn->spine = true;
	err = disasm_range(d, code, fn->end - fn->start, fn->start, &v, &n);
	if (err)
		return err;
	rt = calloc(n ? n : 1, sizeof(*rt));
	joined = calloc(n ? n : 1, sizeof(*joined));
	/* (each instruction pushes at most two, each start call one more) */
	stack = malloc((n ? n : 1) * 3 * sizeof(*stack));
	jstack = malloc((n ? n : 1) * 2 * sizeof(*jstack) + sizeof(*jstack));
	if (!rt || !joined || !stack || !jstack) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * From each call that starts threads: what runs after it.  A thread
	 * joined on every way on (joined_after) before any other starts runs at
	 * start-up: nothing after it is marked for it, unless a thread started
	 * before it (marked) or not joined reaches it.
	 */
	for (size_t i = 0; i < n; i++) {
		uint32_t c = v[i].call && v[i].target ? cg_func_starting(cg, v[i].target) : NONE;

		if (c == NONE || !(cg->f[c].creates_threads || cg->f[c].thread_api >= 0) || i + 1 >= n)
			continue;
		if (cg->f[c].thread_api >= 0 && cg->f[c].thread_api < 6 &&
		    joined_after(cg, fn, v, n, i, rt, jstack))
			joined[i] = true;
		else
			stack[sp++] = i + 1;
	}
	memset(rt, 0, n * sizeof(*rt));
	while (sp) {
		size_t i = stack[--sp];

		if (rt[i])
			continue;
		rt[i] = true;
		/* (a joined start reached while a thread runs: one more thread, not joined first) */
		joined[i] = false;
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
	for (size_t i = 0; i < n; i++) {
		if (!joined[i])
			continue;
		if (ARRAY_GROW(cg->joined, cg->joined_cap, cg->nr_joined + 1)) {
			err = -ENOMEM;
			goto out;
		}
		cg->joined[cg->nr_joined++] = v[i].addr;
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
	cg_out_edges(cg, f, &ea, &eb);
	for (size_t k = ea; k < eb; k++) {
		struct cg_edge *e = &cg->e[k];
		uint32_t c = e->callee;

		e->ctx = cg_has_addr(fn->rt, fn->nr_rt, e->at) ? CG_RUNTIME : CG_STARTUP;
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
	free(jstack);
	free(joined);
	return err;
}

/*
 * Thread entries every start of which is a thread started and joined at
 * start-up (spine's joined calls): they run at start-up, not while threads
 * run.
 */
static int startup_threads(struct callgraph *cg)
{
	/* Per function: 0 no start seen, 1 every start joined at start-up, 2 some not. */
	uint8_t *starts;

	if (!cg->nr_joined)
		return 0;
	starts = calloc(cg->nr ? cg->nr : 1, sizeof(*starts));
	if (!starts)
		return -ENOMEM;
	sort_array(cg->joined, cg->nr_joined, sizeof(*cg->joined), u64_cmp);
	for (size_t i = 0; i < cg->nr_t; i++) {
		const struct cg_take *t = &cg->t[i];

		if (t->passed_to == NONE || t->arg < 0 || cg->f[t->passed_to].thread_api != t->arg)
			continue;
		if (!cg_has_addr(cg->joined, cg->nr_joined, t->at))
			starts[t->fn] = 2;
		else if (!starts[t->fn])
			starts[t->fn] = 1;
	}
	for (size_t i = 0; i < cg->nr; i++) {
		struct cg_func *e = &cg->f[i];

		if (e->thread_entry && starts[i] == 1) {
			e->ctx = (uint8_t)((e->ctx & ~CG_RUNTIME) | CG_STARTUP);
			e->rt_root = false;
		}
	}
	free(starts);
	return 0;
}

/*
 * FN's address, taken by TAKER, stays: stored to memory, or taken into a
 * register that none of TAKER's calls gets (kept in a vector register, a
 * structure built in place).  The takes of FN start at LO.
 */
/*
 * Stored into a local just before a call that installs signal handlers: a
 * struct sigaction's handler (or a struct sigevent's), run when a signal
 * comes.
 */
static bool handler(const struct callgraph *cg, const struct cg_take *t)
{
	return t->arg == TAKE_STACK && t->next_call != NONE && cg->f[t->next_call].signal_api;
}

/*
 * Stored into a local just before a call that runs an initialiser once
 * (pthread_once): std::call_once's callable, which the once-proxy calls
 * through a thread-local pointer to that local.
 */
static bool once_local(const struct callgraph *cg, const struct cg_take *t)
{
	return t->arg == TAKE_STACK && t->next_call != NONE && cg->f[t->next_call].once_api;
}

/*
 * TAKER hands FN to one of its calls (STACK: or stores it into one of its
 * locals); the takes of FN start at LO.
 */
static bool handed(const struct callgraph *cg, size_t lo, uint32_t fn, uint32_t taker, bool stack)
{
	for (size_t i = lo; i < cg->nr_t && cg->t[i].fn == fn; i++)
		if (cg->t[i].taker == taker &&
		    (cg->t[i].passed_to != NONE || (stack && cg->t[i].arg == TAKE_STACK)))
			return true;
	return false;
}

static bool kept(const struct callgraph *cg, size_t lo, uint32_t fn, const struct cg_take *t)
{
	if (t->arg == TAKE_STORED || (t->arg == TAKE_STACK && !handler(cg, t) && !once_local(cg, t)))
		return true;
	/* Handed to a function of the binary that stores that argument (a queue's push). */
	if (t->passed_to != NONE && t->arg >= 0 && t->arg < 8 &&
	    (cg->f[t->passed_to].keeps_args >> t->arg & 1))
		return true;
	if (t->passed_to != NONE || t->arg == TAKE_STACK)
		return false;
	return !handed(cg, lo, fn, t->taker, true);
}

/*
 * When FN runs, by its takes (sorted by function): handed to whom, by whom.
 * *ONCE: only handed to functions that run it once (an initialiser).
 */
static uint8_t callback_ctx(const struct callgraph *cg, uint32_t fn, bool *looped, bool *once,
			    bool *signal)
{
	bool any = false, startup = true;

	*signal = !cg->f[fn].taken_data;
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

		/*
		 * A signal handler installed through a struct sigaction: it runs
		 * when a signal comes, at any time; repeatedly as far as the taker
		 * repeats.  A spill of what a call then gets (-O0): that call
		 * decides.  Stored into another local (a task built on the stack,
		 * then queued): kept, as in memory.
		 */
		if (t->arg == TAKE_STACK && handed(cg, lo, fn, t->taker, false))
			continue;
		if (handler(cg, t)) {
			*once = false;	/* (*signal stays) */
			if (tc & CG_RUNTIME)
				*looped = true;
			startup = false;
			continue;
		}
		/* Taken into the register one of the taker's calls gets: that call decides. */
		if (t->passed_to == NONE && !stays && !once_local(cg, t))
			continue;
		/* Run once however often the call is made (an initialiser): never repeatedly. */
		if ((t->passed_to != NONE && cg->f[t->passed_to].once_api) || once_local(cg, t)) {
			*signal = false;
			if ((tc & CG_RUNTIME) || !tc)
				startup = false;
			continue;
		}
		*once = false;
		*signal &= t->passed_to != NONE && cg->f[t->passed_to].signal_api;
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
			if ((cg_dying(a) || e->on_exit) && ctx)
				ctx = CG_EXIT;
			/*
			 * main's once-run part (its spine after the first thread, what that
			 * calls once); a call past the test of a flag set once.
			 */
			bool once = (a->spine && !(a->ctx & CG_RUNTIME)) ||
				    ((a->ctx & CG_RUNTIME) && !a->rt_root && !a->looped) || e->once;
			bool rep = (ctx & CG_RUNTIME) && !e->once &&
				   (once ? cg_serving_loop(cg, e->caller, e->at) :
					   e->in_loop || e->recursive || a->looped);

			if ((ctx & CG_RUNTIME) && !once && !b->rt_root) {
				b->rt_root = true;
				changed = true;
			}

			if ((b->ctx | ctx) != b->ctx) {
				if ((ctx & CG_RUNTIME) && !(b->ctx & CG_RUNTIME) && b->parent == NONE) {
					b->parent = e->caller;
					b->once_parent = e->once;
				}
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
	/*
	 * Stored into a local handed to a function that starts a thread whose
	 * entry it loads from the memory its argument points to (a pool built
	 * on the stack: struct pool p = { worker }; pool_start(&p)).
	 */
	for (size_t i = 0; i < cg->nr_t; i++) {
		const struct cg_take *t = &cg->t[i];

		if (t->arg == TAKE_STACK && t->next_call != NONE &&
		    cg->f[t->next_call].thread_api_member && !cg->f[t->fn].thread_entry &&
		    list_entry(cg, t->fn))
			return -ENOMEM;
	}
	for (size_t i = 0; i < cg->nr; i++)
		if (cg->f[i].thread_entry && list_entry(cg, (uint32_t)i))
			return -ENOMEM;
	return 0;
}

/* What a serving loop calls, a few calls down (a connection's hand-off to its thread). */
static void served_depth(struct callgraph *cg)
{
	for (size_t i = 0; i < cg->nr; i++)
		cg->f[i].served = 255;
	for (size_t k = 0; k < cg->nr_e; k++)
		if (cg->e[k].in_loop && cg_serving_loop(cg, cg->e[k].caller, cg->e[k].at))
			cg->f[cg->e[k].callee].served = 1;
	for (int round = 1; round < MAX_SERVED_DEPTH; round++)
		for (size_t k = 0; k < cg->nr_e; k++) {
			uint8_t d = cg->f[cg->e[k].caller].served;

			if (d == round && cg->f[cg->e[k].callee].served > d + 1)
				cg->f[cg->e[k].callee].served = (uint8_t)(d + 1);
		}
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
			/* (select on no descriptors waits a time, not for work) */
			if (wc < 255 && wc + 1 < cg->f[cg->e[k].caller].wait_dist && !cg->e[k].sleeps) {
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
		uint32_t lo = f->first_loop, hi = f->first_loop + f->nr_loops;

		for (uint32_t l = lo; l < hi; l++) {
			if (cg->l[l].from > e->at || e->at > cg->l[l].to)
				continue;
			/* (with the runs of the same loop joined to it) */
			for (uint32_t o = l; o < hi && (o == l || cg->l[o].joined); o++)
				cg->l[o].serving = true;
			for (uint32_t o = l; o > lo && cg->l[o].joined; o--)
				cg->l[o - 1].serving = true;
		}
	}
	served_depth(cg);
	for (size_t i = 0; i < cg->nr; i++) {
		cg->f[i].creates_threads = cg->f[i].dist <= MAX_THREAD_DEPTH;
		cg->threaded |= cg->f[i].creates_threads || cg->f[i].thread_entry;
	}
	/*
	 * Threads joined but none started here: a library starts them (a pool's
	 * spawn handed the entry, a framework's thread class), and what is
	 * handed to other libraries may run on them.
	 */
	for (size_t k = 0; k < cg->nr_e && !cg->threaded; k++)
		if (cg->f[cg->e[k].callee].join_api) {
			cg->threaded = true;
			cg->joined_elsewhere = cg->f[cg->e[k].callee].name;
		}
}

/*
 * A thread started for each piece of work: the call that starts it sits in a
 * loop that waits for work (an accept loop handing each connection a thread
 * of its own), or a few calls down from one.  Its code runs again for every
 * connection or request, however loop-free its own body (thread per request).
 * Returns the function whose serving loop starts it, or NONE.
 */
static uint32_t started_per_request(const struct callgraph *cg, uint32_t fn)
{
	for (size_t i = 0; i < cg->nr_t; i++) {
		const struct cg_take *t = &cg->t[i];

		if (t->fn != fn || t->taker == NONE || t->passed_to == NONE || t->arg < 0 ||
		    cg->f[t->passed_to].thread_api != t->arg)
			continue;
		if (cg->f[t->taker].served <= MAX_SERVED_DEPTH ||
		    cg_serving_loop(cg, t->taker, t->at))
			return t->taker;
	}
	return NONE;
}

/* What the entry point hands to its first argument (__libc_start_main's main), or NONE. */
static uint32_t entry_arg0(const struct callgraph *cg)
{
	uint32_t entry = cg_func_starting(cg, elf_image_entry(cg->img));

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
	uint32_t main_fn = NONE, entry = cg_func_starting(cg, elf_image_entry(cg->img));

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
			bool looped, once, signal;
			uint8_t c;

			if (f->thread_entry || (uint32_t)i == main_fn || (uint32_t)i == way_in ||
			    f->why == W_CTOR || f->why == W_DTOR)
				continue;
			c = callback_ctx(cg, (uint32_t)i, &looped, &once, &signal);
			/* Repetition found in the second round (its taker's came later) counts too. */
			if (!c || ((f->ctx & c) == c && !((c & CG_RUNTIME) && looped && !f->looped)))
				continue;
			f->ctx |= c;
			/* Run once: its own loops are no repetition either (a table filled once). */
			f->rt_root |= (c & CG_RUNTIME) && !once;
			if (!f->why || f->why == W_CALLBACK)	/* (what the report says of it) */
				f->why = once && (c & CG_RUNTIME) ? W_ONCE :
					 signal && (c & CG_RUNTIME) ? W_SIGNAL : W_CALLBACK;
			if ((c & CG_RUNTIME) && looped)
				f->looped = true;
		}
		spread(cg);
	}
}

int callgraph_finish(struct callgraph *cg)
{
	uint32_t main_fn;
	int err = cg_index_loops(cg);

	if (!err)
		err = elf_image_for_each_pointer(cg->img, cg_on_pointer, cg);
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
			uint32_t by = started_per_request(cg, (uint32_t)i);

			f->ctx |= CG_RUNTIME;
			f->rt_root = true;
			f->why = W_THREAD;
			if (by != NONE) {
				f->looped = true;
				f->loop_parent = by;
			}
		}
		/* A library's exported functions run when its callers call them. */
		if (main_fn == NONE && !elf_image_executable(cg->img) && !strchr(f->name, '@') &&
		    f->name[0] != '_' && !f->ctx)
			f->api = true;
	}
	if (main_fn != NONE) {
		err = main_roots(cg, main_fn);
		if (!err)
			err = startup_threads(cg);
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
	/* (what the roots say, kept for callgraph_once_calls) */
	cg->main_fn = main_fn;
	cg->roots = malloc((cg->nr ? cg->nr : 1) * sizeof(*cg->roots));
	for (size_t i = 0; cg->roots && i < cg->nr; i++) {
		const struct cg_func *f = &cg->f[i];

		cg->roots[i] = (struct cg_roots){ f->ctx, f->why, f->looped, f->rt_root, f->parent,
						  f->loop_parent };
	}
	spread(cg);
	callbacks(cg, main_fn);
	return 0;
}

static int keyed_at_cmp(const void *a, const void *b)
{
	const struct cg_keyed *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Whether function FN is called in a loop anywhere up its callers (main's
 * loops too, which heat calls warm), looking at no more than *BUDGET
 * functions: a thread started there is started more than once.
 */
static bool called_in_loop(const struct callgraph *cg, uint32_t fn, int *budget)
{
	for (size_t i = 0; i < cg->nr_e; i++) {
		const struct cg_edge *e = &cg->e[i];

		if (e->callee != fn || e->caller == fn)
			continue;
		if (e->in_loop || --*budget <= 0)
			return true;	/* (past the budget: not known to run once) */
		if (called_in_loop(cg, e->caller, budget))
			return true;
	}
	return false;
}

bool callgraph_one_thread(const struct callgraph *cg, uint64_t root)
{
	uint32_t f = cg_func_starting(cg, root);
	size_t n = 0, lo = 0, hi = cg->nr_t;
	int budget;

	if (f == NONE)
		return false;
	if (cg->f[f].why == W_MAIN)
		return true;
	if (!cg->f[f].thread_entry || cg->f[f].looped || cg->f[f].taken_data)
		return false;	/* (started for each piece of work, or from a table) */
	/* (the takes are sorted by function since callbacks()) */
	lo = PARTITION_POINT(lo, hi, mid, cg->t[mid].fn < f);
	for (size_t i = lo; i < cg->nr_t && cg->t[i].fn == f; i++) {
		const struct cg_take *t = &cg->t[i];
		enum cg_heat h;

		if (t->taker != NONE && t->passed_to == NONE && t->arg == -1)
			continue;	/* (taken into a register: the call it goes to counts) */
		if (t->taker == NONE || t->passed_to == NONE || t->arg < 0 ||
		    cg->f[t->passed_to].thread_api != t->arg || cg->f[t->passed_to].thread_team)
			return false;	/* kept, handed elsewhere, run by a team: more than one thread */
		h = callgraph_heat(cg, t->at);
		if (h == HEAT_HOT || h == HEAT_UNKNOWN || cg_in_loop(cg, t->taker, t->at) || n++)
			return false;
		budget = 32;
		if (called_in_loop(cg, t->taker, &budget))
			return false;	/* (pool_start(&pools[i]) in main's loop) */
	}
	return n == 1;
}

bool callgraph_once_at(const struct callgraph *cg, uint64_t at)
{
	size_t lo = 0, hi = cg->roots ? cg->nr_gcalls : 0;

	lo = PARTITION_POINT(lo, hi, mid, cg->gcalls[mid].at < at);
	return lo < hi && cg->gcalls[lo].at == at;
}

int callgraph_once_calls(struct callgraph *cg, bool (*once)(uint64_t key, void *arg), void *arg)
{
	size_t n = 0, marked = 0;

	if (!cg->roots || !cg->nr_gcalls) {
		cg->nr_gcalls = 0;
		return 0;
	}
	/* The calls kept by a flag set once, sorted (a call may be kept by several). */
	for (size_t i = 0; i < cg->nr_gcalls; i++)
		if (once(cg->gcalls[i].key, arg))
			cg->gcalls[n++] = cg->gcalls[i];
	cg->nr_gcalls = n;
	sort_array(cg->gcalls, n, sizeof(*cg->gcalls), keyed_at_cmp);
	for (size_t k = 0; k < cg->nr_e; k++) {
		size_t lo = 0, hi = n;

		lo = PARTITION_POINT(lo, hi, mid, cg->gcalls[mid].at < cg->e[k].at);
		if (lo < n && cg->gcalls[lo].at == cg->e[k].at && !cg->e[k].once) {
			cg->e[k].once = true;
			marked++;
		}
	}
	if (!marked)
		return 0;
	/* Spread again from the roots, those calls running once. */
	for (size_t i = 0; i < cg->nr; i++) {
		struct cg_func *f = &cg->f[i];
		const struct cg_roots *r = &cg->roots[i];

		f->ctx = r->ctx;
		f->why = r->why;
		f->looped = r->looped;
		f->rt_root = r->rt_root;
		f->parent = r->parent;
		f->loop_parent = r->loop_parent;
		f->once_parent = false;
	}
	spread(cg);
	callbacks(cg, cg->main_fn);
	return (int)(marked > INT32_MAX ? INT32_MAX : marked);
}
