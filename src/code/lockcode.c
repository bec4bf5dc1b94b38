/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "apinames.h"
#include "disasm.h"
#include "dso.h"
#include "itable.h"
#include "elfimage.h"
#include "internal.h"
#include "lockcode.h"
#include "x86len.h"

#define MAX_LOOP_BYTES 512		/* a retry loop, not a function's main loop */
#define ENTER_BYTES 1536		/* a lock's fast path: pthread_mutex_lock is 726 bytes */
#define MAX_DEPTH 32			/* callees looked into, for a call's kind */
#define WRAPPER_BYTES 512
#define TAS_BYTES 160
#define FUTEX_BYTES 640			/* a wait or wake, not a thread's start or exit */
#define SAME_OBJECT 64			/* stores this close to the lock word are the lock's */

/* x86_64 and aarch64 system call numbers that wait or yield. */
struct sysnos {
	int futex, yield, nanosleep, clock_nanosleep;
};

static const struct sysnos *sysnos_of(uint16_t machine)
{
	static const struct sysnos x86_64 = { 202, 24, 35, 230 };
	static const struct sysnos aarch64 = { 98, 124, 101, 115 };

	return machine == 62 ? &x86_64 : machine == 183 ? &aarch64 : NULL;
}

struct fn_entry {
	uint64_t start;
	bool busy;			/* being analysed: a call cycle */
	const char *own_store;		/* the first global it writes plainly */
	struct lock_code c;
};

struct shallow_kind {
	uint64_t start;
	uint8_t kind;
};

struct lock_cache {
	struct fn_entry **tab;		/* found through index, by start */
	size_t cap, nr;
	struct itable index;
	struct shallow_kind *sh;	/* lock_code_kind_shallow's answers, found through sh_index */
	size_t sh_cap, sh_nr;
	struct itable sh_index;
	struct disasm *dis;		/* the binary's, opened once (done before recursing) */
	bool dis_tried;
};

const char *lock_kind_name(uint8_t k)
{
	static const char *const names[] = {
		"unknown", "none", "lock-free update", "test-and-set", "delay", "futex",
		"spin acquire", "lock fast path", "wrapper",
	};

	return k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}

static void cache_free(struct dso *d)
{
	struct lock_cache *c = d->spins;

	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		free(c->tab[i]->c.loops);
		free(c->tab[i]->c.calls);
		free(c->tab[i]);
	}
	free(c->tab);
	itable_free(&c->index);
	free(c->sh);
	itable_free(&c->sh_index);
	disasm_close(c->dis);
	free(c);
	d->spins = NULL;
}

static uint64_t start_hash(uint64_t start)
{
	return (start * 0x9e3779b97f4a7c15ULL) >> 20;
}

static bool tab_hash(const void *ctx, size_t i, uint64_t *h)
{
	*h = start_hash(((const struct lock_cache *)ctx)->tab[i]->start);
	return true;
}

static bool sh_hash(const void *ctx, size_t i, uint64_t *h)
{
	*h = start_hash(((const struct lock_cache *)ctx)->sh[i].start);
	return true;
}

static const char *var_name(struct dso *d, uint64_t addr)
{
	const struct sym *s = addr ? symtab_find(&d->data_syms, addr) : NULL;

	return s ? s->name : NULL;
}

struct ctx {
	struct dso *d;
	lock_named_fn named;
	void *named_ctx;
	int depth;
	bool shallow;			/* callees by name only: no analysis of them */
	bool decode_all;		/* no scan by instruction lengths first (tests) */
};

static struct fn_entry *entry_of(struct ctx *x, const struct sym *fn);

/* What a call to TARGET does: the callee's kind, or what a rule says of its name. */
static uint8_t callee_kind(struct ctx *x, uint64_t target, const char **seed,
			   const struct lock_code **code)
{
	const struct sym *s = target ? symtab_find(&x->d->syms, target) : NULL;
	struct fn_entry *e;
	const char *plt;
	int r;

	*seed = NULL;
	*code = NULL;
	if (!s || s->start != target || !s->name)
		return LK_UNKNOWN;
	plt = strstr(s->name, "@plt");
	/* What the code does decides; a rule's name counts where the code cannot tell. */
	if (!plt && !x->shallow && x->depth < MAX_DEPTH) {
		x->depth++;
		e = entry_of(x, s);
		x->depth--;
		if (e && !e->busy)
			*code = &e->c;
		if (e && !e->busy && lock_kind_primitive(e->c.kind)) {
			*seed = e->c.kind == LK_DELAY ? e->c.seed : e->own_store;
			return e->c.kind;
		}
	} else {
		e = NULL;
	}
	if (x->named) {
		r = x->named(x->named_ctx, s->name);
		if (r > 0)
			return LK_ENTER;
		if (r < 0)
			return LK_NONE;
	}
	/* The C library's code is not here: what its API says the import does. */
	if (plt && !x->shallow && api_pauses(s->name))
		return LK_DELAY;
	if (!e || e->busy)
		return LK_UNKNOWN;
	*seed = e->c.kind == LK_DELAY ? e->c.seed : e->own_store;
	return e->c.kind;
}

/* The instruction at ADDR among V (sorted), or N. */
static size_t insn_at(const struct insn *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].addr == addr ? lo : n;
}

/*
 * An exchange whose old value nobody reads is a store (x86 compilers store
 * seq_cst with xchg): no test-and-set.  Looks at the instructions after
 * V[I], falling through branches: a test-and-set tests its result at once.
 */
static bool xchg_result_used(const struct insn *v, size_t n, size_t i)
{
	uint32_t bit = v[i].val_reg ? 1u << v[i].val_reg : 0;

	if (!bit)
		return true;		/* not x86, or no register: assume a test-and-set */
	for (size_t k = i + 1, steps = 0; k < n && steps < 8; k++, steps++) {
		if (v[k].regs_read & bit)
			return true;
		if (v[k].regs_written & bit)
			return false;
		if (v[k].call || v[k].ret)
			return false;
		/* Down a jump (into a loop's test at its bottom). */
		if (v[k].jump && v[k].target && (k = insn_at(v, n, v[k].target)) < n)
			k--;
	}
	return false;
}

/* Whether an instruction of the loop from FROM to V[END] loads the global at DATA. */
static bool loop_reads(const struct insn *v, size_t end, uint64_t from, uint64_t data)
{
	for (size_t i = end + 1; i-- > 0 && v[i].addr >= from;)
		if (v[i].data == data && v[i].mem && !v[i].plain_store && v[i].access != ACC_ADDR)
			return true;
	return false;
}

/*
 * Whether the loop V[..END] reads what the call V[K] returns (x86_64's rax,
 * family 1) before it is written again: a back-off count drawn from a
 * generator, a test of what a helper said.  Without register facts (other
 * architectures) a call in the loop is taken to feed it.
 */
static bool call_result_used(const struct insn *v, size_t n, size_t k, size_t end)
{
	const uint32_t rax = 1u << 1;
	bool facts = false;

	for (size_t i = k + 1; i <= end && i < n; i++)
		facts |= v[i].regs_read || v[i].regs_written;
	if (!facts)
		return true;
	for (size_t i = k + 1; i <= end && i < n; i++) {
		if (v[i].regs_read & rax)
			return true;
		if ((v[i].regs_written & rax) || v[i].call || v[i].ret)
			return false;
	}
	return false;
}

/*
 * Whether the backward branch V[B] closes a cycle: from its target, staying
 * inside [target, V[B]], control can come back to it.  A jump back to code
 * shared by two paths (a compiler's layout) is no loop.  SEEN: scratch, N.
 */
static bool is_cycle(const struct insn *v, size_t n, size_t b, uint8_t *seen)
{
	size_t t = insn_at(v, n, v[b].target), stack[64], sp = 0;
	bool found = false;

	if (t >= n || t > b)
		return false;
	memset(seen + t, 0, b - t + 1);
	stack[sp++] = t;
	while (sp && !found) {
		size_t i = stack[--sp];

		for (; i <= b && !seen[i]; i++) {
			seen[i] = 1;
			if (i == b) {
				found = true;
				break;
			}
			if (v[i].ret)
				break;
			if (v[i].branch && v[i].target) {
				size_t j = insn_at(v, n, v[i].target);

				if (j >= t && j <= b && !seen[j] && sp < 64)
					stack[sp++] = j;
				if (v[i].jump)
					break;
			} else if (v[i].branch) {
				break;	/* through a register: not followed */
			}
		}
	}
	return found;
}

/*
 * The instructions on the way round the loop the backward branch V[B]
 * closes: reached from its head without leaving [head, B] and reaching B
 * again (a CAS the loop's head can branch to on its way out is not on it).
 * BODY[k] set for them, the rest of [head, B] cleared.
 */
static void loop_body(const struct insn *v, size_t n, size_t b, uint8_t *body)
{
	size_t t = insn_at(v, n, v[b].target), stack[64], sp = 0;
	uint8_t *back;
	bool more = true;

	if (t >= n || t > b)
		return;
	memset(body + t, 0, b - t + 1);
	stack[sp++] = t;
	while (sp) {
		for (size_t i = stack[--sp]; i <= b && !(body[i] & 1); i++) {
			body[i] |= 1;
			if (i == b || v[i].ret || (v[i].branch && !v[i].target && !v[i].call))
				break;
			if (v[i].branch && !v[i].call) {
				size_t j = insn_at(v, n, v[i].target);

				if (j >= t && j <= b && sp < 64)
					stack[sp++] = j;
				if (v[i].jump)
					break;
			}
		}
	}
	/* Bit 1: reaches B (backwards to a fixed point: a few rounds for the loops this sees). */
	back = body;
	back[b] |= 2;
	for (int round = 0; more && round < 8; round++) {
		more = false;
		for (size_t i = b; i-- > t;) {
			bool falls = !v[i].ret && !v[i].jump && !(v[i].branch && !v[i].target && !v[i].call);
			size_t j = v[i].branch && !v[i].call && v[i].target ? insn_at(v, n, v[i].target) : n;

			if (!(back[i] & 2) && ((falls && (back[i + 1] & 2)) ||
					       (j >= t && j <= b && (back[j] & 2)))) {
				back[i] |= 2;
				more = true;
			}
		}
	}
	for (size_t i = t; i <= b; i++)
		body[i] = body[i] == 3;
}

struct word_ref {
	uint64_t data;			/* direct address, or 0 */
	uint16_t base;
	int64_t disp;
	bool param;			/* x86_64: the function's first argument plus param_off */
	int64_t param_off;
};

static struct word_ref word_of(const struct insn *in)
{
	return (struct word_ref){ in->data, in->mem_base, in->mem_disp, in->mem_param,
				  in->mem_param ? in->mem_prm_off : 0 };
}

/* Whether IN's memory operand is the word R. */
static bool same_word(const struct word_ref *r, const struct insn *in)
{
	if (r->data || in->data)
		return r->data == in->data;
	if (r->param || in->mem_param)
		return r->param && in->mem_param && r->param_off == in->mem_prm_off;
	return r->base && in->mem_base == r->base && in->mem_disp == r->disp;
}

/*
 * The last atomic read-modify-write before FROM whose result the code reads
 * (an exchange, CAS, fetch-and-add): a ticket's fetch-and-add, a queue
 * lock's exchange of the tail; N when there is none.
 */
static size_t rmw_before(const struct insn *v, size_t n, uint64_t from)
{
	size_t found = n;

	for (size_t i = 0; i < n && v[i].addr < from; i++)
		if (v[i].atomic && v[i].mem && !v[i].stack_mem &&
		    (v[i].atomic_op == ATOM_CAS || v[i].atomic_op == ATOM_SC ||
		     v[i].atomic_op == ATOM_LL || xchg_result_used(v, n, i)))
			found = i;
	return found;
}

/*
 * Whether, once the loop [FROM, TO] is left, control reaches a store to
 * REF: a plain store, or an atomic one whose old value nobody reads (a
 * ticket's serving += 1; an add of a constant tested at once, lock decl;
 * jne, is a retry: its flags are read).  A lock released after its wait is
 * inlined here.  SEEN: scratch, N.
 */
static bool released_after(const struct insn *v, size_t n, uint64_t from, uint64_t to,
			   const struct word_ref *ref, uint8_t *seen)
{
	size_t stack[64], sp = 0, i;

	memset(seen, 0, n);
	for (i = insn_at(v, n, from); i < n && v[i].addr <= to; i++)
		if (v[i].branch && v[i].target && (v[i].target < from || v[i].target > to) && sp < 64)
			stack[sp++] = insn_at(v, n, v[i].target);
	if (i < n && i && !v[i - 1].jump && sp < 64)
		stack[sp++] = i;	/* falling out past the closing branch */
	while (sp) {
		for (i = stack[--sp]; i < n && !seen[i] && (v[i].addr < from || v[i].addr > to);
		     i++) {
			const struct insn *in = &v[i];

			seen[i] = 1;
			if (in->mem && !in->stack_mem && same_word(ref, in) &&
			    (in->plain_store ||
			     (in->atomic_op == ATOM_ARITH && !(in->val_reg ? xchg_result_used(v, n, i) :
							      i + 1 < n && v[i + 1].branch &&
							      !v[i + 1].jump && !v[i + 1].call)) ||
			     (in->atomic_op == ATOM_XCHG && !xchg_result_used(v, n, i))))
				return true;
			if (in->ret || (in->branch && !in->target))
				break;
			if (in->branch && !in->call) {
				if (sp < 64)
					stack[sp++] = insn_at(v, n, in->target);
				if (in->jump)
					break;
			}
		}
	}
	return false;
}

struct loop_acc {
	uint64_t from, to;
	struct word_ref ref;		/* the word of its acquire atomic, or the one it waits on */
	bool atom, konst, hint, wait, reads;
	bool stores;			/* writes memory off the stack */
	bool waits;			/* only reads and waits, after an exchange or fetch-and-add */
	struct word_ref wref;		/* the first word it reads */
	int other_calls;		/* indirect, or to what is no primitive */
	const char *word, *seed;
	const char *fed;		/* a global a function it calls writes, whose result the
					 * loop reads: a back-off drawn from a generator */
	size_t b;			/* the index of its closing branch */
};

/*
 * A leaf of a few instructions doing one atomic operation on what an
 * argument points to (aarch64's outline atomics: an LSE instruction, and a
 * load/store-exclusive loop for older CPUs): C->helper is that operation.
 */
static void atomic_helper(const struct insn *v, size_t n, struct lock_code *c)
{
	uint8_t op = 0;
	int ptr = -1, val = -1;

	for (size_t i = 0; i < n; i++) {
		const struct insn *in = &v[i];
		int p;

		if (!in->atomic || in->atomic_op == ATOM_LL || in->atomic_op == ATOM_SC)
			continue;
		p = in->mem_prm && !in->mem_prm_off ? in->mem_prm - 1 :
		    in->mem_param && !in->mem_prm_off ? 0 : -1;
		if (!in->mem || in->stack_mem || p < 0 || (op && (op != in->atomic_op || p != ptr)))
			return;
		op = in->atomic_op;
		ptr = p;
		val = in->stored_prm ? in->stored_prm - 1 : -1;
	}
	c->helper = op;
	c->helper_ptr = (int8_t)ptr;
	c->helper_val = (int8_t)val;
}

/* Where a function's code is, for decoded_size. */
struct code_at {
	struct disasm *dis;
	const uint8_t *code;
	uint64_t addr;
};

/* The size of the instruction at INSN as the function's decoder reads it (x86len's other). */
static size_t decoded_size(const uint8_t *insn, size_t left, unsigned int *facts, void *arg)
{
	const struct code_at *v = arg;

	return disasm_insn_size(v->dis, insn, left, v->addr + (uint64_t)(insn - v->code), facts);
}

static void analyse(struct ctx *x, const struct sym *fn, struct fn_entry *e)
{
	struct dso *d = x->d;
	struct elf_image *img = dso_image(d);
	const struct sysnos *sn;
	struct disasm *dis = NULL;
	struct insn *v = NULL;
	uint8_t *ck = NULL;			/* per instruction: the kind of what it calls */
	uint8_t *seen = NULL;
	const char **cseed = NULL;
	struct loop_acc *lp = NULL;
	size_t n = 0, nl = 0, cap = 0, loop_bytes = 0;
	uint64_t size = fn->end - fn->start;
	bool any_atomic = false, konst_atomic = false, futex = false, sleeps = false, hint = false;
	bool hint_reads = false, other_stores = false, calls_strong = false, calls_any = false;
	bool update_loop = false, calls_other = false, releases = false, has_loop = false;
	bool same_object = false;	/* an atomic on what a strong primitive it calls gets */
	uint64_t strong_target = 0;	/* the strong primitives it calls: a lock and its */
	int strong_targets = 0;		/* unlock is a critical section, no lock's fast path */
	bool passes_own = false;	/* hands its own first argument to a strong primitive */
	const uint8_t *code;
	uint8_t *copy;
	uint8_t kind;

	e->c.kind = LK_UNKNOWN;
	if (!img || d->kernel || d->identity || !size || size > (1u << 20) ||
	    !(sn = sysnos_of(elf_image_machine(img))))
		return;
	/* A copy, freed once decoded: thousands of callees' code is no resident file page. */
	copy = malloc(size);
	if (copy && !elf_image_read_code(img, fn->start, size, copy)) {
		code = copy;
	} else if (!(code = elf_image_code(img, fn->start, size))) {
		free(copy);
		return;
	}
	if (!d->spins->dis_tried) {
		d->spins->dis_tried = true;
		if (!disasm_for_image(&d->spins->dis, img)) {
			disasm_set_text(d->spins->dis, false);
			disasm_set_lock_facts(d->spins->dis, true);
		}
	}
	/*
	 * Callees unseen, x86_64 code with no pause or syscall (no futex
	 * wrapper, no delay) and no exchange or CAS is none (most code, locked
	 * counters too); longer than a
	 * test-and-set it is a primitive only as an acquire loop, which spans a
	 * third of it: when its short loops around an exchange or CAS cannot,
	 * it is none (an update at most).  Told without decoding.
	 */
	if (x->shallow && !x->decode_all && elf_image_machine(img) == 62 /* EM_X86_64 */) {
		struct x86_lock_scan sc;

		if (!x86_64_lock_scan(code, size, MAX_LOOP_BYTES, d->spins->dis ? decoded_size : NULL,
				      &(struct code_at){ d->spins->dis, code, fn->start }, &sc) &&
		    !sc.unknown && !sc.pause && !sc.syscall &&
		    (!sc.atomics || (size > TAS_BYTES && !sc.branch_unknown &&
				     size > 3 * sc.loop_bound + 256))) {
			e->c.kind = sc.atomics ? LK_UPDATE : LK_NONE;
			free(copy);
			return;
		}
	}
	if (!(dis = d->spins->dis) || disasm_range(dis, code, size, fn->start, &v, &n)) {
		free(copy);
		return;
	}
	free(copy);
	ck = calloc(n ? n : 1, 1);
	seen = malloc(n ? n : 1);
	cseed = calloc(n ? n : 1, sizeof(*cseed));
	if (!ck || !cseed || !seen)
		goto out;
	e->c.kind = LK_NONE;

	/* The calls first: what each one reaches (a cycle is cut by the busy mark). */
	for (size_t i = 0; i < n; i++) {
		const struct lock_code *cc = NULL;

		if (!v[i].call)
			continue;
		if (v[i].target) {
			ck[i] = callee_kind(x, v[i].target, &cseed[i], &cc);
			if (cc && cc->helper && ck[i] == LK_UPDATE) {
				/* A call to an atomic helper is that atomic, on what it hands it. */
				v[i].call = v[i].branch = false;
				v[i].target = 0;
				v[i].atomic = v[i].mem = true;
				v[i].stack_mem = false;
				v[i].atomic_op = cc->helper;
				v[i].data = cc->helper_ptr > 0 ? v[i].call_arg[cc->helper_ptr] :
					    cc->helper_ptr ? 0 : v[i].arg0;
				v[i].new_const = cc->helper_val >= 0 &&
						 (v[i].call_arg_imm >> cc->helper_val & 1);
				v[i].mem_base = 0;
				v[i].val_reg = 0;
				ck[i] = LK_UNKNOWN;
				continue;
			}
		}
		calls_any = true;
		calls_other |= !v[i].target;
		if (v[i].target) {
			calls_strong |= lock_kind_strong(ck[i]);
			/* (a callee that reads no argument is handed none: rdi left as it was) */
			passes_own |= lock_kind_strong(ck[i]) && v[i].arg0_param && !v[i].arg0_off &&
				      (!cc || cc->uses_arg0);
			if (lock_kind_strong(ck[i]) && v[i].target != strong_target) {
				strong_targets++;
				strong_target = v[i].target;
			}
			calls_other |= !lock_kind_primitive(ck[i]);
			if (!ARRAY_GROW(e->c.calls, cap, e->c.nr_calls + 1))
				e->c.calls[e->c.nr_calls++] = (struct lock_call){
					v[i].addr + v[i].size, v[i].target, v[i].arg0, ck[i],
					!v[i].arg0 && v[i].arg0_param, v[i].arg0_off,
					v[i].arg0 ? 0 : v[i].arg0_deref, v[i].arg0_deref_off };
		}
	}
	cap = 0;
	/* Function-wide facts. */
	for (size_t i = 0; i < n; i++) {
		const struct insn *in = &v[i];

		e->c.uses_arg0 |= (in->mem && (in->mem_param || in->mem_prm == 1)) ||
				  (in->call && in->arg0_param);

		if (in->atomic && in->mem && !in->stack_mem) {
			any_atomic = true;
			/* The object it works on: its own argument's, or a global. */
			for (size_t k = 0; k < e->c.nr_calls; k++) {
				const struct lock_call *c = &e->c.calls[k];

				if (lock_kind_strong(c->kind))
					same_object |= in->mem_param ? c->arg0_param :
						       in->data && c->arg0 && c->arg0 <= in->data &&
						       in->data < c->arg0 + SAME_OBJECT;
			}
			konst_atomic |= ((in->atomic_op == ATOM_XCHG && xchg_result_used(v, n, i)) ||
					 in->atomic_op == ATOM_CAS || in->atomic_op == ATOM_SC) &&
					in->new_const;
		}
		if (in->syscall) {
			e->c.syscalls = true;
			futex |= in->sysno == sn->futex;
			sleeps |= in->sysno == sn->yield || in->sysno == sn->nanosleep ||
				  in->sysno == sn->clock_nanosleep;
		}
		hint |= in->spin_hint;
		if (in->plain_store && !in->stack_mem) {
			other_stores = true;
			if (in->data && !e->own_store)
				e->own_store = var_name(d, in->data);
		}
	}
	/* The loops: short backward branches inside the function. */
	for (size_t i = 0; i < n; i++) {
		struct loop_acc a = { 0 };
		size_t r;

		if (!v[i].branch || !v[i].target || v[i].target >= v[i].addr || v[i].target < fn->start)
			continue;
		if (!is_cycle(v, n, i, seen))
			continue;
		has_loop = true;
		if (v[i].addr - v[i].target > MAX_LOOP_BYTES)
			continue;
		a.from = v[i].target;
		a.to = v[i].addr;
		a.b = i;
		loop_body(v, n, i, seen);
		for (size_t k = insn_at(v, n, a.from); k <= i; k++) {
			const struct insn *in = &v[k];

			if (!seen[k])
				continue;	/* between its ends, not on its way round */
			if (in->atomic && in->mem && !in->stack_mem &&
			    (in->atomic_op == ATOM_CAS || in->atomic_op == ATOM_SC ||
			     (in->atomic_op == ATOM_XCHG && xchg_result_used(v, n, k)))) {
				a.atom = true;
				a.konst |= in->new_const || in->atomic_op == ATOM_XCHG;
				a.ref = word_of(in);
				if (in->data && !a.word)
					a.word = var_name(d, in->data);
			}
			if (in->call && ck[k] == LK_TAS)
				a.atom = a.konst = true;
			if (in->call && !lock_kind_primitive(ck[k])) {
				a.other_calls += in->target ? 1 : 100;
				/* a generator the loop draws from: the global it writes */
				if (cseed[k] && !a.fed && call_result_used(v, n, k, i))
					a.fed = cseed[k];
			}
			a.hint |= in->spin_hint;
			if (in->call && (ck[k] == LK_DELAY || lock_kind_strong(ck[k]))) {
				a.wait = true;
				if (!a.seed)
					a.seed = cseed[k];
			}
			if (in->syscall && (in->sysno == sn->futex || in->sysno == sn->yield ||
					    in->sysno == sn->nanosleep || in->sysno == sn->clock_nanosleep))
				a.wait = true;
			if (in->mem && !in->stack_mem && !in->plain_store && !in->atomic) {
				if (!a.reads && !in->call && !in->branch)
					a.wref = word_of(in);
				a.reads = true;
			}
			a.stores |= in->mem && !in->stack_mem && (in->plain_store || in->atomic);
			/* a generator's state: read and written back in the loop (not a cursor set) */
			if (in->plain_store && !in->stack_mem && in->data && !a.seed &&
			    loop_reads(v, i, a.from, in->data)) {
				const char *s = var_name(d, in->data);

				if (s != a.word)
					a.seed = s;
			}
		}
		if (!a.seed)
			a.seed = a.fed;
		if (a.hint && a.reads)
			hint_reads = true;
		if (a.atom && !a.konst && !a.wait)
			update_loop = true;	/* a CAS of a computed value, retried: lock-free */
		/*
		 * A loop that only reads and waits (a pause, a delay, a yield), after
		 * an exchange or fetch-and-add whose result is read, waits for its
		 * turn: a ticket lock's (serving == mine) or a queue lock's (its node
		 * handed over).  A wait with no atomic before it is a flag's; one
		 * calling other functions does work while it waits.
		 */
		if (!a.atom && (a.wait || a.hint) && a.reads && !a.stores && !a.other_calls &&
		    (a.wref.data || a.wref.base || a.wref.param) &&
		    (r = rmw_before(v, n, a.from)) < n) {
			/* The lock: what the atomic took a turn of (a queue's tail), else what it waits on. */
			a.waits = true;
			a.ref = a.wref;
			if (!a.word)
				a.word = v[r].data ? var_name(d, v[r].data) :
					 a.wref.data ? var_name(d, a.wref.data) : NULL;
		}
		/*
		 * A retry loop does little else: one calling through a pointer, or
		 * several other functions, is a program's loop (start_thread's).
		 */
		if ((!a.waits && (!a.atom || !(a.konst || a.wait))) || a.other_calls > 2)
			continue;
		if (ARRAY_GROW(lp, cap, nl + 1))
			goto out;
		lp[nl++] = a;
	}
	/* Acquire loops, outermost kept: nested ones are inside them. */
	cap = 0;
	for (size_t i = 0; i < nl; i++) {
		bool inner = false;

		for (size_t k = 0; k < nl && !inner; k++)
			inner = k != i && lp[k].from <= lp[i].from && lp[k].to >= lp[i].to &&
				(lp[k].from != lp[i].from || lp[k].to != lp[i].to || k < i);
		if (!e->c.word && lp[i].word)
			e->c.word = lp[i].word;
		if (!e->c.seed && lp[i].seed)
			e->c.seed = lp[i].seed;
		if (inner)
			continue;
		/* Its instructions, in runs: not what lies between its ends on other ways. */
		loop_body(v, n, lp[i].b, seen);
		for (size_t k = insn_at(v, n, lp[i].from), run = n; k <= lp[i].b; k++) {
			if (seen[k])
				loop_bytes += v[k].size;
			if (seen[k] && run == n)
				run = k;
			if (run == n || (k < lp[i].b && seen[k + 1]))
				continue;
			if (ARRAY_GROW(e->c.loops, cap, e->c.nr_loops + 1))
				goto out;
			e->c.loops[e->c.nr_loops++] = (struct lock_loop){
				v[run].addr, v[k].addr + v[k].size - 1, lp[i].word };
			run = n;
		}
	}

	/*
	 * Taking a lock and releasing it (a plain store, or an exchange whose old
	 * value nobody reads, to the word acquired) is a critical section: the lock is
	 * inlined here, this is its site, not a primitive.
	 */
	for (size_t i = 0; i < n && !releases; i++) {
		const struct insn *in = &v[i];

		if (!in->mem || in->stack_mem ||
		    !(in->plain_store || (in->atomic_op == ATOM_XCHG && !xchg_result_used(v, n, i))))
			continue;
		for (size_t k = 0; k < nl && !releases; k++)
			releases = !lp[k].waits &&
				   (lp[k].ref.data ? in->data == lp[k].ref.data :
				    lp[k].ref.base && in->mem_base == lp[k].ref.base &&
				    in->mem_disp == lp[k].ref.disp && !in->data);
	}
	/* A wait's word is released by what runs after the wait (a ticket's serving += 1). */
	for (size_t k = 0; k < nl && !releases; k++)
		releases = lp[k].waits && released_after(v, n, lp[k].from, lp[k].to, &lp[k].ref, seen);
	/* A futex call in a lock-free update's retry (cancellation state) is no lock's wait. */
	if (futex && size <= FUTEX_BYTES && !update_loop)
		kind = LK_FUTEX;
	else if (e->c.nr_loops && size <= 3 * loop_bytes + 256 && !releases)
		kind = LK_ACQUIRE;
	else if (any_atomic && same_object && !releases && strong_targets == 1 && size <= ENTER_BYTES)
		kind = LK_ENTER;
	else if ((hint || sleeps) && !any_atomic && !hint_reads)
		kind = LK_DELAY;
	else if (calls_strong && (!calls_other || passes_own) && !other_stores && !any_atomic &&
		 size <= WRAPPER_BYTES)
		kind = LK_WRAPPER;
	else if (konst_atomic && !calls_any && !update_loop && size <= TAS_BYTES)
		kind = LK_TAS;
	else if (any_atomic)
		kind = LK_UPDATE;
	else
		kind = LK_NONE;
	e->c.kind = kind;
	e->c.thin = !any_atomic && !other_stores && calls_any && size <= WRAPPER_BYTES &&
		    !lock_code_loop_at(&e->c, fn->start) && !has_loop;
	if (kind == LK_UPDATE && !calls_any && !other_stores && !e->c.syscalls && size <= TAS_BYTES)
		atomic_helper(v, n, &e->c);
	if (kind == LK_DELAY && !e->c.seed) {
		/* The seed a delay draws from: written here, or by what it calls. */
		e->c.seed = e->own_store;
		for (size_t i = 0; i < n && !e->c.seed; i++)
			if (v[i].call)
				e->c.seed = cseed[i];
	}
out:
	/* Kept for every function analysed, callees of callees too: no room to spare. */
	if (e->c.nr_calls) {
		struct lock_call *t = realloc(e->c.calls, e->c.nr_calls * sizeof(*t));

		if (t)
			e->c.calls = t;
	}
	free(lp);
	free(seen);
	free(ck);
	free(cseed);
	free(v);
}

/* D's cache of answers, made on first use; NULL when memory runs out. */
static struct lock_cache *spins_of(struct dso *d)
{
	if (!d->spins) {
		d->spins = calloc(1, sizeof(*d->spins));
		if (d->spins)
			d->spins_free = cache_free;
	}
	return d->spins;
}

static struct fn_entry *entry_of(struct ctx *x, const struct sym *fn)
{
	struct lock_cache *c = spins_of(x->d);
	struct fn_entry *e;
	size_t i;

	if (!c)
		return NULL;
	if (itable_full(&c->index, c->nr) && itable_grow(&c->index, c->nr, 256, tab_hash, c))
		return NULL;
	itable_each(&c->index, start_hash(fn->start), i)
		if (c->tab[c->index.slot[i]]->start == fn->start)
			return c->tab[c->index.slot[i]];
	if (ARRAY_GROW(c->tab, c->cap, c->nr + 1) || !(e = calloc(1, sizeof(*e))))
		return NULL;
	e->start = fn->start;
	e->busy = true;
	c->tab[c->nr] = e;
	itable_put(&c->index, i, c->nr++);
	analyse(x, fn, e);
	e->busy = false;
	return e;
}

const struct lock_code *lock_code_of(struct dso *d, const struct sym *fn, lock_named_fn named,
				     void *ctx)
{
	struct ctx x = { d, named, ctx, 0, false, false };
	struct fn_entry *e;

	if (!d || !fn)
		return NULL;
	e = entry_of(&x, fn);
	return e ? &e->c : NULL;
}

/* START's shallow answer in C, or NULL. */
static struct shallow_kind *shallow_of(struct lock_cache *c, uint64_t start)
{
	size_t i;

	if (c->sh_index.cap)
		itable_each(&c->sh_index, start_hash(start), i)
			if (c->sh[c->sh_index.slot[i]].start == start)
				return &c->sh[c->sh_index.slot[i]];
	return NULL;
}

/* START's shallow answer KIND kept; memory running out loses it, nothing more. */
static void shallow_keep(struct lock_cache *c, uint64_t start, uint8_t kind)
{
	size_t i;

	if ((itable_full(&c->sh_index, c->sh_nr) &&
	     itable_grow(&c->sh_index, c->sh_nr, 64, sh_hash, c)) ||
	    ARRAY_GROW(c->sh, c->sh_cap, c->sh_nr + 1))
		return;
	itable_each(&c->sh_index, start_hash(start), i)
		;
	c->sh[c->sh_nr] = (struct shallow_kind){ start, kind };
	itable_put(&c->sh_index, i, c->sh_nr++);
}

uint8_t lock_code_kind_decoded(struct dso *d, const struct sym *fn)
{
	struct ctx x = { d, NULL, NULL, 0, true, true };
	struct fn_entry e = { .start = fn ? fn->start : 0 };

	if (!d || !fn || !spins_of(d))
		return LK_UNKNOWN;
	analyse(&x, fn, &e);
	free(e.c.loops);
	free(e.c.calls);
	return e.c.kind;
}

uint8_t lock_code_kind_shallow(struct dso *d, const struct sym *fn)
{
	struct ctx x = { d, NULL, NULL, 0, true, false };
	struct fn_entry e = { .start = fn ? fn->start : 0 };
	const struct shallow_kind *k;

	if (!d || !fn || !spins_of(d))
		return LK_UNKNOWN;
	/* One function is the row of each process that ran it: looked at once. */
	if (fn->start && (k = shallow_of(d->spins, fn->start)))
		return k->kind;
	analyse(&x, fn, &e);
	free(e.c.loops);
	free(e.c.calls);
	if (fn->start)
		shallow_keep(d->spins, fn->start, e.c.kind);
	return e.c.kind;
}

const struct lock_loop *lock_code_loop_at(const struct lock_code *c, uint64_t vaddr)
{
	for (size_t i = 0; c && i < c->nr_loops; i++)
		if (vaddr >= c->loops[i].from && vaddr <= c->loops[i].to)
			return &c->loops[i];
	return NULL;
}

const struct lock_call *lock_code_call_at(const struct lock_code *c, uint64_t ret)
{
	for (size_t i = 0; c && i < c->nr_calls; i++)
		if (c->calls[i].ret == ret)
			return &c->calls[i];
	return NULL;
}
