/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The walk of every function for mycl-share --types (share_typewalk.h):
 * the accesses of each to members of types, on threads with a libdw handle
 * each, beside the globals' scan; the types then laid out on the threads
 * whose walk reached them.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "datatype.h"
#include "disasm.h"
#include "dwarf_files.h"
#include "elfimage.h"
#include "inline.h"
#include "insn.h"
#include "mycl/tuning.h"
#include "share_state.h"
#include "share_typelayout.h"
#include "share_typewalk.h"

#define MAX_FUNC_BYTES (1u << 20)	/* functions longer are not walked (the walk's own limit) */
#define MAX_TYPE_THREADS 8
#define CHUNKS_PER_THREAD 64	/* (the last ones short: the threads end together) */
#define MIN_FUNCS_PER_THREAD 16


/* Whether [A, E) lies inside the code the debug info describes. */
static bool described(const struct mycl_share *s, uint64_t a, uint64_t e)
{
	size_t k = PARTITION_POINT(0, s->nr_dcode, mid, s->dcode[mid].start <= a);

	return k && e <= s->dcode[k - 1].end;
}

/*
 * Whether the store at V[I] puts back what a load of the same member a few
 * instructions before gave plus a constant (ldr; add; str, or -O0's reload
 * and lea): a counter, where the instruction set has no add to memory or
 * the compiler does not use it.  R: the walk's names of the accesses.
 */
static bool stored_increment(const struct insn *v, const struct dt_result *r, size_t i)
{
	const struct insn *st = &v[i];

	if (st->ty_op != TY_STORE || !st->ty_src || !r->v[i].type_die)
		return false;
	for (size_t k = i; k-- > 0 && i - k <= 8;) {
		uint8_t reg;
		bool added = false;

		if (v[k].jump || v[k].call || v[k].ret || v[k].branch)
			return false;
		if (v[k].ty_op != TY_LOAD || r->v[k].access != ACC_READ ||
		    r->v[k].type_die != r->v[i].type_die || r->v[k].offset != r->v[i].offset)
			continue;
		reg = v[k].ty_dst;
		for (size_t j = k + 1; j < i && reg; j++) {
			const struct insn *x = &v[j];

			if (x->ty_op == TY_ADD_IMM && x->ty_imm &&
			    (x->ty_src ? x->ty_src == reg : x->ty_dst == reg)) {
				reg = x->ty_dst;
				added = true;
			} else if (x->ty_op == TY_LEA && x->ty_base == reg && !x->ty_index && x->ty_disp) {
				reg = x->ty_dst;
				added = true;
			} else if (x->ty_op == TY_MOVE && x->ty_src == reg) {
				reg = x->ty_dst;
			}
		}
		return added && reg == st->ty_src;
	}
	return false;
}

static const char *func_name(struct mycl_share *s, struct callgraph *cg, uint64_t fn)
{
	const char *name = NULL;

	callgraph_func_end(cg, fn, &name);
	return name ? share_keep(s, strdup(name)) : savef(s, "0x%" PRIx64, fn);
}

/*
 * aarch64's out-of-line atomics (gcc's -moutline-atomics, the default on
 * Debian): a call to __aarch64_ldadd4_relax(v, p) and the like is an atomic
 * read-modify-write of what its pointer argument points to (x1; a
 * compare-and-swap's is x2): made a memory operand for the walk.  The
 * helpers' starts, found before the walk (the walk reads no call graph).
 */
struct oatomic {
	uint64_t start;
	uint8_t op, bytes;		/* op: an index into ops, 5 the compare-and-swap */
};

static struct oatomic *outline_atomics(struct callgraph *cg, size_t *nr)
{
	static const char *const ops[] = { "ldadd", "ldset", "ldclr", "ldeor", "swp", "cas" };
	const uint64_t *starts;
	struct oatomic *v = NULL;
	size_t n, cap = 0;

	*nr = 0;
	starts = callgraph_starts(cg, &n);
	for (size_t i = 0; i < n; i++) {
		const char *name = NULL, *p;
		char *e;
		unsigned long bytes;

		callgraph_func_end(cg, starts[i], &name);
		if (!name || strncmp(name, "__aarch64_", 10))
			continue;
		p = name + 10;
		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			size_t l = strlen(ops[k]);

			if (strncmp(p, ops[k], l))
				continue;
			bytes = strtoul(p + l, &e, 10);
			if (e == p + l || *e != '_' || (bytes != 1 && bytes != 2 && bytes != 4 &&
							 bytes != 8 && bytes != 16))
				break;
			if (ARRAY_GROW(v, cap, *nr + 1)) {
				free(v);
				*nr = 0;
				return NULL;
			}
			v[(*nr)++] = (struct oatomic){ starts[i], (uint8_t)k, (uint8_t)bytes };
			break;
		}
	}
	return v;
}

static void outline_atomic(struct insn *in, const struct oatomic *oa, size_t nr)
{
	size_t k;

	if (!in->call || !in->target)
		return;
	k = PARTITION_POINT(0, nr, mid, oa[mid].start < in->target);
	if (k >= nr || oa[k].start != in->target)
		return;
	in->ty_op = TY_MEM;
	in->ty_base = oa[k].op == 5 ? 3 : 2;	/* x2, x1: DWARF's register plus one */
	in->ty_index = 0;
	in->ty_disp = 0;
	in->ty_size = oa[k].bytes;
	in->ty_access = ACC_RMW;
	in->atomic = true;
	in->counter_op = oa[k].op == 0;
}

/*
 * The walk of every function, on as many threads as the process may use,
 * while the globals' scan runs: the functions in runs of consecutive ones
 * (chunks), each walked by one thread with a DWARF handle of its own
 * (inline_twin), the accesses joined in the functions' order afterwards
 * (share_types_scan), where what depends on the finished call graph is
 * added.  What a chunk holds is what one thread walking them all finds: the
 * output does not depend on the threads.
 */
struct tfn {
	uint64_t start, end;
};

/*
 * A call handing its callee FN an array's element (&slots[id]) in the
 * arguments of MASK, the element's type by name and size (KEY: the caller's
 * and the callee's units describe it apart).
 */
struct ecall {
	uint64_t fn;
	uint64_t key;
	uint8_t mask;
};

/* A type entry's name and size as one number (0: no name, or not found). */
static uint64_t type_key(Dwarf *dw, uint64_t off)
{
	Dwarf_Die t;
	Dwarf_Word size = 0;
	const char *name;

	if (!dw || !dwarf_offdie(dw, off, &t) || !inline_strip_type(&t) ||
	    !(name = dwarf_diename(&t)) || dwarf_aggregate_size(&t, &size) != 0)
		return 0;
	return str_hash(name) ^ u64_hash(size);
}

struct tchunk {
	size_t from, to;		/* fns[from..to) */
	uint64_t longest;		/* its longest function's bytes */
	struct share_tacc *v;		/* heat, root, once, fname unset; expr: any write's, owned */
	size_t n, cap;
	struct ecall *calls;		/* calls handing on an array's element */
	size_t nr_calls, calls_cap;
	size_t walked;
	uint8_t walker;			/* the thread that walked it (SELF: the joining one) */
};

#define SELF MAX_TYPE_THREADS


struct tworker {
	struct share_twalk *tw;
	struct dso *dso;		/* a twin of the analysis's, or (joining last) its own */
	uint8_t id;			/* its index in the walk's threads (DSO a twin, freed after
					 * the layouts or by share_types_end), or SELF */
	struct insn *v;			/* the function decoded (kept from one to the next) */
	size_t cap;
	pthread_t tid;
	/* then a run of the types laid out with its DWARF (share_types_lay_out) */
	pthread_t lid;
	bool laying;
	struct tlay *jobs;
	size_t nr_jobs;
};

struct share_twalk {
	struct elf_image *img;
	struct dso *dso;		/* the analysis's, whose globals' index the twins borrow */
	bool globals_ready;		/* ... read (by the first walking thread: under lock) */
	pthread_cond_t ready;
	struct tfn *fns;
	struct oatomic *oa;
	size_t nr_oa;
	struct tchunk *chunks;
	size_t nr_chunks;
	size_t *order;			/* the chunks as taken: the longest functions first */
	atomic_size_t next;
	atomic_int err;
	/* the threads still walking: the last one's done wakes the joining thread */
	pthread_mutex_t lock;
	pthread_cond_t done;
	size_t walking, laying;
	struct tworker k[MAX_TYPE_THREADS];
	size_t nk;
};

/* The accesses of the function at [START, END) to members of types, into OUT. */
static int function_accesses(struct tworker *k, struct disasm *d, struct dt_memo *memo,
			     struct tchunk *out, uint64_t start, uint64_t end)
{
	struct share_twalk *tw = k->tw;
	uint16_t machine = elf_image_machine(tw->img);
	const uint8_t *code = elf_image_code(tw->img, start, end - start);
	struct insn *v;
	struct dt_result r;
	size_t n = 0;
	int err;

	if (!code)
		return 0;
	err = disasm_range_into(d, code, end - start, start, &k->v, &k->cap, &n);
	v = k->v;
	if (err)
		return err == -ENOMEM ? err : 0;
	for (size_t i = 0; machine == 183 /* EM_AARCH64 */ && i < n; i++)
		outline_atomic(&v[i], tw->oa, tw->nr_oa);
	err = datatype_walk_memo(k->dso, machine, v, n, &r, memo);
	if (err)
		return err;
	for (size_t i = 0; i < n && !err; i++) {
		const struct dt_access *a = &r.v[i];
		char *expr = NULL;
		uint8_t acc = a->access;

		if (a->elem_args && v[i].target) {
			uint64_t key = type_key(inline_dwarf(k->dso), a->elem_type);

			if (key && ARRAY_GROW(out->calls, out->calls_cap, out->nr_calls + 1)) {
				err = -ENOMEM;
				break;
			}
			if (key)
				out->calls[out->nr_calls++] = (struct ecall){ v[i].target, key,
									      a->elem_args };
		}
		if ((a->where != DT_HEAP && a->where != DT_GLOBAL) || a->unknown || !a->type_die ||
		    (acc != ACC_READ && acc != ACC_WRITE && acc != ACC_RMW) || a->offset < 0 ||
		    a->offset > MAX_TYPE_SIZE)
			continue;
		if (ARRAY_GROW(out->v, out->cap, out->n + 1) ||
		    (acc != ACC_READ && a->expr && !(expr = strdup(a->expr)))) {
			err = -ENOMEM;
			break;
		}
		out->v[out->n++] = (struct share_tacc){
			.expr = expr,
			.addr = v[i].addr, .end = v[i].addr + v[i].size, .func = start,
			.die = a->type_die,
			.off = (uint32_t)a->offset, .size = (uint32_t)(a->size < 1u << 20 ? a->size : 0),
			.access = acc,
			.atomic = v[i].atomic,
			.counter = (acc == ACC_RMW && v[i].counter_op) ||
				   (acc == ACC_WRITE && stored_increment(v, &r, i)),
			.element = a->element, .param = a->param,
			.via_global = a->via_global || a->where == DT_GLOBAL };
	}
	datatype_free(&r);
	return err;
}

/* Takes chunks until none is left (or a thread failed). */
static void *types_worker(void *arg)
{
	struct tworker *k = arg;
	struct share_twalk *tw = k->tw;
	struct dt_memo *memo = datatype_memo_new();
	struct disasm *d = NULL;
	int err = memo ? disasm_for_image(&d, tw->img) : -ENOMEM;

	if (!err) {
		datatype_memo_lean(memo);
		disasm_set_type_facts(d, true);
		disasm_set_text(d, false);
	}
	/*
	 * (the analysis's index of the globals, read by the first thread here
	 * while the calling one reads the variables and scans: it waits for it
	 * in share_types_ready before it reads that DWARF again)
	 */
	if (k->id != SELF) {
		pthread_mutex_lock(&tw->lock);
		inline_twin_globals(k->dso, tw->dso);
		tw->globals_ready = true;
		pthread_cond_broadcast(&tw->ready);
		pthread_mutex_unlock(&tw->lock);
	}
	while (!err && !atomic_load(&tw->err)) {
		size_t c = atomic_fetch_add(&tw->next, 1);
		struct tchunk *ch;

		if (c >= tw->nr_chunks)
			break;
		ch = &tw->chunks[tw->order[c]];
		ch->walker = k->id;
		for (size_t f = ch->from; f < ch->to && !err; f++) {
			ch->walked++;
			err = function_accesses(k, d, memo, ch, tw->fns[f].start, tw->fns[f].end);
		}
	}
	if (err) {
		int none = 0;

		atomic_compare_exchange_strong(&tw->err, &none, err);
	}
	disasm_close(d);
	datatype_memo_free(memo);
	free(k->v);
	k->v = NULL;
	pthread_mutex_lock(&tw->lock);
	if (k->id != SELF && !--tw->walking)
		pthread_cond_signal(&tw->done);
	pthread_mutex_unlock(&tw->lock);
	return NULL;
}

/* The functions to walk: those the debug info describes, within the walk's limits. */
static struct tfn *types_functions(struct mycl_share *s, struct callgraph *cg, size_t *nr,
				   uint64_t *bytes)
{
	size_t n;
	const uint64_t *starts = callgraph_starts(cg, &n);
	struct tfn *fns = malloc((n ? n : 1) * sizeof(*fns));

	*nr = 0;
	*bytes = 0;
	for (size_t i = 0; fns && i < n; i++) {
		uint64_t end = callgraph_func_end(cg, starts[i], NULL);

		if (i + 1 < n && (!end || end > starts[i + 1]))
			end = starts[i + 1];
		if (!end || end <= starts[i] || end - starts[i] > MAX_FUNC_BYTES ||
		    !described(s, starts[i], end))
			continue;
		fns[(*nr)++] = (struct tfn){ starts[i], end };
		*bytes += end - starts[i];
	}
	return fns;
}

/* NR functions of BYTES in all into chunks of about equal code, for THREADS threads. */
static struct tchunk *types_chunks(const struct tfn *fns, size_t nr, uint64_t bytes, int threads,
				   size_t *nr_chunks)
{
	size_t want = threads > 1 ? (size_t)threads * CHUNKS_PER_THREAD : 1;
	struct tchunk *ch = calloc(want, sizeof(*ch));
	uint64_t done = 0;
	size_t c = 0;

	if (!ch)
		return NULL;
	for (size_t f = 0; f < nr; f++) {
		done += fns[f].end - fns[f].start;
		if (fns[f].end - fns[f].start > ch[c].longest)
			ch[c].longest = fns[f].end - fns[f].start;
		/* (a chunk ends where the code done passes its share of all) */
		if (c + 1 < want && done * want >= bytes * (c + 1)) {
			ch[c].to = f + 1;
			ch[++c].from = f + 1;
		}
	}
	ch[c].to = nr;
	*nr_chunks = c + 1;
	return ch;
}

static int by_longest(const void *a, const void *b, void *arg)
{
	const struct tchunk *ch = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (ch[x].longest != ch[y].longest)
		return ch[x].longest > ch[y].longest ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void twalk_free(struct share_twalk *tw)
{
	if (!tw)
		return;
	for (size_t c = 0; tw->chunks && c < tw->nr_chunks; c++) {
		for (size_t i = 0; i < tw->chunks[c].n; i++)
			free((char *)tw->chunks[c].v[i].expr);
		free(tw->chunks[c].v);
		free(tw->chunks[c].calls);
	}
	free(tw->chunks);
	free(tw->order);
	free(tw->fns);
	free(tw->oa);
	pthread_mutex_destroy(&tw->lock);
	pthread_cond_destroy(&tw->done);
	pthread_cond_destroy(&tw->ready);
	free(tw);
}

/*
 * The call that maps memory several processes share (System V or POSIX
 * shared memory), when the binary makes one: its objects there are shared
 * as threads' heap is, threads or not (PostgreSQL's buffer pool).
 */
static const char *shared_memory_call(const struct mycl_share *s)
{
	static const char *const calls[] = { "shmget", "shmat", "shm_open" };

	for (size_t i = 0; i < s->dso->syms.nr; i++) {
		const char *n = s->dso->syms.syms[i].name;

		for (size_t k = 0; n && k < sizeof(calls) / sizeof(calls[0]); k++) {
			size_t l = strlen(calls[k]);

			if (!strncmp(n, calls[k], l) && (!n[l] || !strcmp(n + l, "@plt")))
				return calls[k];
		}
	}
	return NULL;
}
int share_types_start(struct mycl_share *s, struct elf_image *img, struct callgraph *cg)
{
	struct share_twalk *tw;
	int threads = cpus_available();
	uint64_t bytes;
	size_t nr;

	s->types_done = true;
	s->shm_call = shared_memory_call(s);
	if (!inline_dwarf(s->dso))
		return 0;
	tw = calloc(1, sizeof(*tw));
	if (!tw)
		return -ENOMEM;
	tw->img = img;
	tw->dso = s->dso;
	tw->fns = types_functions(s, cg, &nr, &bytes);
	if (elf_image_machine(img) == 183 /* EM_AARCH64 */)
		tw->oa = outline_atomics(cg, &tw->nr_oa);
	if (threads > MAX_TYPE_THREADS)
		threads = MAX_TYPE_THREADS;
	/* (MYCL_TYPE_THREADS: off, none; on, at least two threads whatever the functions) */
	if (tuning_get()->type_threads == MYCL_SWITCH_ON && threads < 2)
		threads = 2;
	else if (tuning_get()->type_threads == MYCL_SWITCH_OFF ||
		 (tuning_get()->type_threads != MYCL_SWITCH_ON &&
		  nr < (size_t)threads * MIN_FUNCS_PER_THREAD))
		threads = 1;
	tw->chunks = tw->fns ? types_chunks(tw->fns, nr, bytes, threads, &tw->nr_chunks) : NULL;
	tw->order = tw->chunks ? malloc(tw->nr_chunks * sizeof(*tw->order)) : NULL;
	if (!tw->order) {
		twalk_free(tw);
		return -ENOMEM;
	}
	/* (a long function walked last would keep the others waiting) */
	for (size_t c = 0; c < tw->nr_chunks; c++)
		tw->order[c] = c;
	qsort_r(tw->order, tw->nr_chunks, sizeof(*tw->order), by_longest, tw->chunks);
	atomic_init(&tw->next, 0);
	atomic_init(&tw->err, 0);
	pthread_mutex_init(&tw->lock, NULL);
	pthread_cond_init(&tw->done, NULL);
	pthread_cond_init(&tw->ready, NULL);
	s->twalk = tw;
	/*
	 * Threads with twins of the binary's DWARF from now on, while this one
	 * scans for the globals; this one joins them when it is done
	 * (share_types_scan).  One CPU: it walks alone then.
	 */
	for (int t = 1; t < threads; t++) {
		struct tworker *k = &tw->k[tw->nk];

		*k = (struct tworker){ .tw = tw, .dso = inline_twin(s->dso), .id = (uint8_t)tw->nk };
		if (!k->dso)
			break;
		tw->walking++;
		if (pthread_create(&k->tid, NULL, types_worker, k)) {
			tw->walking--;
			inline_twin_free(k->dso);
			break;
		}
		tw->nk++;
	}
	return 0;
}

/* The walk's and the layouts' threads joined, the twins they did not free freed. */
static void types_stop(struct share_twalk *tw)
{
	for (size_t t = 0; t < tw->nk; t++) {
		struct tworker *k = &tw->k[t];

		pthread_join(k->tid, NULL);
		if (k->laying)
			pthread_join(k->lid, NULL);
		k->laying = false;
		inline_twin_free(k->dso);
		k->dso = NULL;
	}
	tw->nk = 0;
}

void share_types_ready(struct mycl_share *s)
{
	struct share_twalk *tw = s->twalk;

	if (!tw)
		return;
	pthread_mutex_lock(&tw->lock);
	while (tw->nk && !tw->globals_ready)
		pthread_cond_wait(&tw->ready, &tw->lock);
	pthread_mutex_unlock(&tw->lock);
}

static int ecall_cmp(const void *a, const void *b)
{
	const struct ecall *x = a, *y = b;

	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Every chunk's calls handing on elements, by callee and type (the arguments' union). */
static int element_calls(struct share_twalk *tw, struct ecall **out, size_t *nr)
{
	size_t n = 0, k = 0;

	for (size_t c = 0; c < tw->nr_chunks; c++)
		n += tw->chunks[c].nr_calls;
	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	if (!(*out = malloc(n * sizeof(**out))))
		return -ENOMEM;
	for (size_t c = 0; c < tw->nr_chunks; c++) {
		if (!tw->chunks[c].nr_calls)
			continue;
		memcpy(*out + k, tw->chunks[c].calls, tw->chunks[c].nr_calls * sizeof(**out));
		k += tw->chunks[c].nr_calls;
	}
	sort_array(*out, n, sizeof(**out), ecall_cmp);
	for (size_t i = 0; i < n; i++) {
		if (*nr && (*out)[*nr - 1].fn == (*out)[i].fn && (*out)[*nr - 1].key == (*out)[i].key)
			(*out)[*nr - 1].mask |= (*out)[i].mask;
		else
			(*out)[(*nr)++] = (*out)[i];
	}
	return 0;
}

/*
 * Whether some call hands FN an element of an array of type DIE (read in
 * DW only when some call hands FN an element there) in its argument K.
 */
static bool element_param(const struct ecall *calls, size_t nr, uint64_t fn, unsigned int k,
			  Dwarf *dw, uint64_t die)
{
	uint64_t key = 0;

	for (size_t i = PARTITION_POINT(0, nr, mid, calls[mid].fn < fn);
	     i < nr && calls[i].fn == fn; i++) {
		if (k >= 8 || !((calls[i].mask >> k) & 1))
			continue;
		if (!key && !(key = type_key(dw, die)))
			return false;
		if (calls[i].key == key)
			return true;
	}
	return false;
}

int share_types_walked(struct mycl_share *s, struct callgraph *cg)
{
	struct share_twalk *tw = s->twalk;
	struct tworker self = { .tw = tw, .dso = s->dso, .id = SELF };
	struct ecall *calls = NULL;
	size_t nr_calls = 0;
	int err;

	types_worker(&self);
	pthread_mutex_lock(&tw->lock);
	while (tw->walking)
		pthread_cond_wait(&tw->done, &tw->lock);
	pthread_mutex_unlock(&tw->lock);
	err = atomic_load(&tw->err);
	if (!err)
		err = element_calls(tw, &calls, &nr_calls);
	/* joined in the functions' order, each function's name kept once */
	for (size_t c = 0; c < tw->nr_chunks && !err; c++) {
		struct tchunk *ch = &tw->chunks[c];
		const char *fname = NULL;
		uint64_t func = 0;

		s->types_walked += ch->walked;
		if (ARRAY_GROW(s->taccs, s->taccs_cap, s->nr_taccs + ch->n)) {
			err = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < ch->n && !err; i++) {
			struct share_tacc t = ch->v[i];
			uint8_t heat = (uint8_t)callgraph_heat(cg, t.addr);

			ch->v[i].expr = NULL;
			if (!fname || t.func != func) {
				func = t.func;
				if (!(fname = func_name(s, cg, func)))
					err = -ENOMEM;
			}
			/* (a hot write's words kept) */
			if (t.expr && heat != HEAT_HOT) {
				free((char *)t.expr);
				t.expr = NULL;
			}
			if (!err && t.expr && !(t.expr = share_keep(s, (char *)t.expr)))
				err = -ENOMEM;
			if (err) {
				free((char *)t.expr);
				break;
			}
			t.fname = fname;
			t.walker = ch->walker;
			/* (through a parameter some call hands an element of its type: one) */
			t.element |= t.param && !t.element &&
				     element_param(calls, nr_calls, t.func, t.param - 1,
						   inline_dwarf(s->dso), t.die);
			t.heat = heat;
			t.root = callgraph_thread_root(cg, t.addr);
			t.once = callgraph_once_at(cg, t.addr);
			s->taccs[s->nr_taccs++] = t;
		}
	}
	free(calls);
	return err;
}

/* A walk's thread laying out its run of the types, then freeing its DWARF. */
static void *layout_worker(void *arg)
{
	struct tworker *k = arg;
	struct share_twalk *tw = k->tw;
	Dwarf *dw = inline_dwarf(k->dso);
	struct unit_files *files = unit_files_new(dw);

	for (size_t i = 0; i < k->nr_jobs; i++)
		share_lay_out(dw, files, &k->jobs[i]);
	unit_files_free(files);
	pthread_mutex_lock(&tw->lock);
	if (!--tw->laying)
		pthread_cond_signal(&tw->done);
	pthread_mutex_unlock(&tw->lock);
	/* (its DWARF freed while the analysis goes on: joined at share_types_end) */
	inline_twin_free(k->dso);
	k->dso = NULL;
	return NULL;
}

/*
 * The types to lay out in N jobs, each on the thread whose walk reached it
 * (its handle has read that unit's DWARF), the others on this one.
 */
void share_types_lay_out(struct mycl_share *s, Dwarf *dw, struct tlay *jobs, size_t n,
			const uint8_t *walker)
{
	struct share_twalk *tw = s->twalk;
	size_t parts = tw ? tw->nk + 1 : 1, from = 0;
	uint64_t *order;
	struct tlay *sorted;
	struct unit_files *files = unit_files_new(dw);	/* (none: libdw names the files) */

	/*
	 * The jobs by the thread whose walk reached them (the joining one's
	 * last), cut into equal runs, one per thread: most of each run on the
	 * handle that read its units, none waiting on another's.
	 */
	order = parts > 1 ? malloc(n * sizeof(*order)) : NULL;
	sorted = order ? malloc(n * sizeof(*sorted)) : NULL;
	if (!sorted) {
		free(order);
		for (size_t i = 0; i < n; i++)
			share_lay_out(dw, files, &jobs[i]);
		unit_files_free(files);
		return;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (uint64_t)(walker[i] < tw->nk ? walker[i] : tw->nk) * n + i;
	sort_array(order, n, sizeof(*order), u64_cmp);
	for (size_t i = 0; i < n; i++)
		sorted[i] = jobs[order[i] % n];
	memcpy(jobs, sorted, n * sizeof(*jobs));
	free(sorted);
	free(order);
	for (size_t t = 0; t < tw->nk; t++) {
		struct tworker *k = &tw->k[t];
		size_t to = n * (t + 1) / parts;

		k->jobs = jobs + from;
		k->nr_jobs = to - from;
		pthread_mutex_lock(&tw->lock);
		tw->laying++;
		pthread_mutex_unlock(&tw->lock);
		if (k->dso && !pthread_create(&k->lid, NULL, layout_worker, k)) {
			k->laying = true;
			from = to;
			continue;
		}
		/* (no thread: its run laid out here, with the last) */
		pthread_mutex_lock(&tw->lock);
		tw->laying--;
		pthread_mutex_unlock(&tw->lock);
		k->nr_jobs = 0;
	}
	for (size_t i = from; i < n; i++)
		share_lay_out(dw, files, &jobs[i]);
	unit_files_free(files);
	pthread_mutex_lock(&tw->lock);
	while (tw->laying)
		pthread_cond_wait(&tw->done, &tw->lock);
	pthread_mutex_unlock(&tw->lock);
}

void share_types_end(struct mycl_share *s)
{
	int none = 0;

	if (!s->twalk)
		return;
	atomic_compare_exchange_strong(&s->twalk->err, &none, -ECANCELED);
	types_stop(s->twalk);
	twalk_free(s->twalk);
	s->twalk = NULL;
}
