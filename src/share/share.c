/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Global variables on cache lines, their writers and readers, verdicts per line. */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "callgraph.h"
#include "disasm.h"
#include "lockcode.h"
#include "lockrules.h"
#include "elfimage.h"
#include "pkghint.h"
#include "share_state.h"


static unsigned int arch_line(uint16_t machine, const char **arch)
{
	switch (machine) {
	case EM_X86_64: *arch = "x86_64"; return 64;
	case EM_AARCH64: *arch = "aarch64"; return 128;
	case EM_PPC64: *arch = "ppc64"; return 128;
	case EM_S390: *arch = "s390x"; return 256;
	/* The lines Linux aligns to on these (L1_CACHE_SHIFT 6). */
	case EM_386: *arch = "i386"; return 64;
	case EM_ARM: *arch = "arm"; return 64;
	case 243: *arch = "riscv64"; return 64;	/* EM_RISCV */
	default: *arch = "unknown"; return 64;
	}
}

/* A machine mycl-share cannot read, by name for the message. */
static const char *machine_name(uint16_t m)
{
	switch (m) {
	case EM_MIPS: return "mips";
	case EM_SPARCV9: return "sparc64";
	case EM_PPC: return "ppc (32-bit)";
	case EM_IA_64: return "ia64";
	case 258: return "loongarch";	/* EM_LOONGARCH */
	default: return NULL;
	}
}

/*
 * What PATH is when it is no ELF binary: a directory, an empty file, text,
 * or other bytes.  0 when it starts like an ELF file.
 */
static int not_elf(const char *path, char *errbuf, size_t errlen)
{
	unsigned char head[64];
	struct stat sb;
	ssize_t n;
	int fd;

	if (stat(path, &sb))
		return 0;	/* said by the caller */
	if (S_ISDIR(sb.st_mode)) {
		snprintf(errbuf, errlen, "%s: is a directory, not an ELF binary", path);
		return MYCL_ERR_ELF;
	}
	if (!S_ISREG(sb.st_mode))
		return 0;
	if (!sb.st_size) {
		snprintf(errbuf, errlen, "%s: is empty (0 bytes), not an ELF binary", path);
		return MYCL_ERR_ELF;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n >= 4 && !memcmp(head, "\177ELF", 4))
		return 0;
	for (ssize_t i = 0; i < n; i++) {
		if (!isprint(head[i]) && !isspace(head[i])) {
			snprintf(errbuf, errlen, "%s: not an ELF file (no \\177ELF magic at its start)",
				 path);
			return MYCL_ERR_ELF;
		}
	}
	snprintf(errbuf, errlen, "%s: a text file, not an ELF binary", path);
	return MYCL_ERR_ELF;
}

static unsigned int arch_line_named(const char *name)
{
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64") || !strcmp(name, "i386") ||
	    !strcmp(name, "i686") || !strcmp(name, "arm") || !strcmp(name, "armhf") ||
	    !strcmp(name, "riscv64"))
		return 64;
	if (!strcmp(name, "aarch64") || !strcmp(name, "arm64") || !strncmp(name, "ppc64", 5) ||
	    !strcmp(name, "power"))
		return 128;
	if (!strcmp(name, "s390x") || !strcmp(name, "s390"))
		return 256;
	return 0;
}

static int var_cmp(const void *a, const void *b)
{
	const struct mycl_share_var *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

/* The variable holding ADDR, or -1. */
static long find_var(const struct mycl_share *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr_vars;

	lo = PARTITION_POINT(lo, hi, mid, s->vars[mid].addr <= addr);
	if (lo && addr < s->vars[lo - 1].addr + (s->vars[lo - 1].size ? s->vars[lo - 1].size : 1))
		return (long)lo - 1;
	return -1;
}

/* ---- scanning the code ---- */

/* A call handing a variable's address to a function of the binary. */
struct argref {
	uint64_t call, callee, addr;
	uint8_t arg;
	bool indexed;			/* the address of an element at a computed index */
	uint8_t depth;			/* calls between CALL and CALLEE (handed on by callees) */
	bool own_heat;			/* CALLEE is a thread's entry: its own code says how often */
	uint64_t prev;			/* what the argument before ARG holds (a thread's entry) */
};

/* How many calls down a variable's address is followed when callees hand it on. */
#define MAX_PASS_DEPTH 3

struct scan {
	struct mycl_share *s;
	struct disasm *d;
	struct callgraph *cg;
	struct elf_image *img;
	struct argref *args;
	size_t nr_args, args_cap;
	uint64_t guard_fn;		/* the function inside a __cxa_guard_acquire'd block, or 0 */
	/* Functions returning a variable's address (&stats[id]), and every direct call. */
	struct retref { uint64_t fn, value; bool indexed; } *rets;
	size_t nr_rets, rets_cap;
	struct callref { uint64_t caller, at, value; bool indexed; } *calls;
	size_t nr_calls, calls_cap;
	/* Writes through what a pointer variable holds, and what is stored in such variables. */
	struct ptrw { uint64_t at, ptr; int64_t off; bool counter; } *ptrws;
	size_t nr_ptrws, ptrws_cap;
	struct ptrset { uint64_t ptr, target; bool indexed; } *ptrsets;
	size_t nr_ptrsets, ptrsets_cap;
};

/*
 * C++ function-local statics are set up once, between __cxa_guard_acquire
 * and __cxa_guard_release (the Itanium C++ ABI's guard): writes there run
 * once however often the function does.
 */
static void guard_call(struct scan *sc, const struct insn *in)
{
	const char *name = NULL;
	char b[32];

	callgraph_func_end(sc->cg, in->target, &name);
	if (!name || !strstr(name, "cxa_guard_"))
		return;
	lock_plain_name(name, b, sizeof(b));
	if (!strcmp(b, "cxa_guard_acquire"))
		sc->guard_fn = callgraph_func_start(sc->cg, in->addr);
	else if (!strcmp(b, "cxa_guard_release") || !strcmp(b, "cxa_guard_abort"))
		sc->guard_fn = 0;
}

static int scan_insn(const struct insn *in, void *arg)
{
	struct scan *sc = arg;
	struct mycl_share *s = sc->s;
	long v;
	int err = callgraph_insn(sc->cg, in);

	if (err)
		return err;
	if (in->call && in->target)
		guard_call(sc, in);
	if (in->ret && in->ret_value && find_var(s, in->ret_value) >= 0) {
		if (ARRAY_GROW(sc->rets, sc->rets_cap, sc->nr_rets + 1))
			return -ENOMEM;
		sc->rets[sc->nr_rets++] = (struct retref){ callgraph_func_start(sc->cg, in->addr),
							   in->ret_value, in->ret_indexed };
	}
	if (in->call && in->target) {
		for (int k = 0; k < 6; k++) {
			if (!in->call_arg[k] || find_var(s, in->call_arg[k]) < 0)
				continue;
			if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
				return -ENOMEM;
			sc->args[sc->nr_args++] = (struct argref){
				in->addr, in->target, in->call_arg[k], (uint8_t)k,
				(in->call_arg_indexed >> k) & 1, 0, false, k ? in->call_arg[k - 1] : 0 };
		}
	}
	if (in->via && (in->via_access == ACC_WRITE || in->via_access == ACC_RMW)) {
		if (ARRAY_GROW(sc->ptrws, sc->ptrws_cap, sc->nr_ptrws + 1))
			return -ENOMEM;
		sc->ptrws[sc->nr_ptrws++] = (struct ptrw){ in->addr, in->via, in->via_off,
							   in->counter_op };
	}
	if (in->stored && (in->data || in->tls) && find_var(s, in->stored) >= 0) {
		if (ARRAY_GROW(sc->ptrsets, sc->ptrsets_cap, sc->nr_ptrsets + 1))
			return -ENOMEM;
		sc->ptrsets[sc->nr_ptrsets++] = (struct ptrset){ in->data ? in->data : in->tls,
								 in->stored, in->stored_indexed };
	}
	if (!in->data)
		return 0;
	if ((v = find_var(s, in->data)) < 0) {
		const struct elf_section *sec;

		if ((in->access == ACC_WRITE || in->access == ACC_RMW) &&
		    (sec = elf_image_section_at(sc->img, in->data)) && sec->write && !sec->exec &&
		    !sec->tls && strcmp(sec->name, ".got") && strcmp(sec->name, ".got.plt"))
			s->unnamed_writes++;
		return 0;
	}
	switch (in->access) {
	case ACC_READ: s->vars[v].loads++; break;
	case ACC_WRITE: s->vars[v].stores++; break;
	case ACC_RMW: s->vars[v].rmws++; break;
	case ACC_ADDR: s->vars[v].addr_taken++; break;
	default: break;
	}
	if (in->atomic && in->access != ACC_ADDR)
		s->vars[v].atomics++;
	if (ARRAY_GROW(s->refs, s->refs_cap, s->nr_refs + 1))
		return -ENOMEM;
	s->refs[s->nr_refs++] = (struct share_ref){
		.addr = in->addr, .end = in->addr + in->size, .var = (uint32_t)v,
		.off = (uint32_t)(in->data - s->vars[v].addr),
		.access = in->access, .atomic = in->atomic, .counter = in->counter_op,
		.indexed = in->indexed, .scale = in->scale,
		.once = sc->guard_fn && (in->access == ACC_WRITE || in->access == ACC_RMW) &&
			callgraph_func_start(sc->cg, in->addr) == sc->guard_fn };
	return 0;
}

static int scan_section(uint64_t addr, const uint8_t *bytes, size_t len, void *arg)
{
	struct scan *sc = arg;

	return disasm_iter(sc->d, bytes, len, addr, scan_insn, sc);
}

static int ref_cmp(const void *a, const void *b)
{
	const struct share_ref *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int argref_cmp(const void *a, const void *b)
{
	const struct argref *x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

/* One write to V, by when it runs; AT explains where (for the hottest). */
static void count_write(struct mycl_share *s, struct callgraph *cg, struct mycl_share_var *v,
			enum cg_heat heat, uint64_t at, bool counter, bool indexed, unsigned int width)
{
	char why[200];

	switch (heat) {
	case HEAT_HOT: v->hot_writes++; break;
	case HEAT_WARM: v->warm_writes++; break;
	case HEAT_STARTUP: case HEAT_EXIT: v->startup_writes++; break;
	default: v->unknown_writes++; break;
	}
	if (heat == HEAT_HOT || heat == HEAT_WARM) {
		v->counter_writes += counter;
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
		s->wrs[s->nr_wrs++] = (struct share_wr){ (uint32_t)(v - s->vars), (uint8_t)heat, 1,
							 callgraph_func_start(cg, at), at };
	/* The first hot write explains the variable; a warm one when there is no hot one. */
	if ((heat == HEAT_HOT && v->hot_writes == 1) || (heat == HEAT_WARM && !v->hot_path))
		v->hot_path = share_keep(s, strdup(callgraph_why(cg, at, why, sizeof(why))));
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
 * Stores a callee makes through the address of a variable it was handed,
 * and the callees it hands that address on to (this->member.method(), up to
 * MAX_PASS_DEPTH calls down): counted as writes of that variable, running
 * when the first call runs.  A library's lock primitive handed a variable's
 * address (a mutex, a semaphore) writes it on every call.
 */
static int callee_writes(struct scan *sc)
{
	struct mycl_share *s = sc->s;
	struct insn *v = NULL;
	size_t n = 0;
	struct lock_rules rules = { 0 };
	int bad, err = 0;
	bool locks = false;

	if (lock_rules_parse(&rules, mycl_default_lock_rules, &bad))
		rules.nr = 0;		/* out of memory: no lock word counted as written */
	sort_array(sc->args, sc->nr_args, sizeof(*sc->args), argref_cmp);
	for (size_t i = 0; i < sc->nr_args; i++) {
		const struct argref *a = &sc->args[i];
		uint64_t start = callgraph_func_start(sc->cg, a->callee), end;
		const char *name;
		const uint8_t *code;
		long lw;

		/*
		 * pthread_create(&t, NULL, entry, &slots[i]) and its wrappers: the
		 * argument after the entry is the entry's first, on the new thread.
		 */
		if (!a->own_heat && a->prev && a->arg &&
		    callgraph_thread_api(sc->cg, a->callee) == a->arg - 1 &&
		    callgraph_function_at(sc->cg, a->prev)) {
			long var = find_var(s, a->addr);
			/*
			 * An element of an array (by its debug info) handed to a thread:
			 * an element per thread, whether the pointer steps through it in
			 * a loop (unseen in straight-line code) or each call is unrolled.
			 */
			bool each = var >= 0 && s->vars[var].stride;
			struct argref t = { a->call, callgraph_function_at(sc->cg, a->prev), a->addr, 0,
					    a->indexed || each, a->depth, true, 0 };

			if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1)) {
				err = -ENOMEM;
				break;
			}
			sc->args[sc->nr_args++] = t;
			continue;
		}
		end = callgraph_func_end(sc->cg, a->callee, &name);
		/* (args are sorted by callee: its name is matched once) */
		if (!i || sc->args[i - 1].callee != a->callee)
			locks = start == a->callee && name && strchr(name, '@') && rules.nr &&
				lock_call(&rules, name);
		if (locks && a->arg == 0 && (lw = find_var(s, a->addr)) >= 0) {
			enum cg_heat heat = callgraph_heat(sc->cg, a->call);

			if (heat == HEAT_WARM && callgraph_in_loop(sc->cg, a->call))
				heat = HEAT_HOT;
			s->vars[lw].callee_writes++;
			s->vars[lw].atomics++;
			count_write(s, sc->cg, &s->vars[lw], heat, a->call, false, a->indexed, 0);
			continue;
		}
		if (start != a->callee || !name || strchr(name, '@'))
			continue;
		if (!i || sc->args[i - 1].callee != a->callee) {
			free(v);
			v = NULL;
			n = 0;
			code = elf_image_code(sc->img, start, end - start);
			if (!code || end - start > 65536)
				continue;
			err = disasm_range(sc->d, code, end - start, start, &v, &n);
			if (err)
				break;
		}
		for (size_t k = 0; k < n; k++) {
			enum cg_heat heat;
			long var;

			for (int j = 0; j < 6 && v[k].call && v[k].target &&
					a->depth + 1 < MAX_PASS_DEPTH; j++) {
				struct argref on;

				if (v[k].call_arg_pass[j] != a->arg + 1)
					continue;
				/* (from a thread's entry: the call there says when) */
				on = (struct argref){ a->own_heat ? v[k].addr : a->call, v[k].target,
						      a->addr + (uint64_t)(int64_t)v[k].call_arg_pass_off[j],
						      (uint8_t)j, a->indexed, (uint8_t)(a->depth + 1),
						      false, 0 };
				if (find_var(s, on.addr) < 0 || on.callee == a->callee)
					continue;
				if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1)) {
					err = -ENOMEM;
					goto out;
				}
				sc->args[sc->nr_args++] = on;
				a = &sc->args[i];	/* the array may have moved */
			}
			if (v[k].mem_prm != a->arg + 1 ||
			    (v[k].mem_prm_access != ACC_WRITE && v[k].mem_prm_access != ACC_RMW))
				continue;
			var = find_var(s, a->addr + (uint64_t)v[k].mem_prm_off);
			if (var < 0)
				continue;
			if (a->own_heat) {
				heat = callgraph_heat(sc->cg, v[k].addr);
			} else {
				heat = callgraph_heat(sc->cg, a->call);
				if (heat == HEAT_WARM && callgraph_in_loop(sc->cg, v[k].addr))
					heat = HEAT_HOT;
			}
			s->vars[var].callee_writes++;
			count_write(s, sc->cg, &s->vars[var], heat, a->own_heat ? v[k].addr : a->call,
				    v[k].counter_op, a->indexed, 0);
		}
	}
out:
	free(v);
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
	sc->calls[sc->nr_calls++] = (struct callref){ caller, at, r->value, r->indexed };
	return 0;
}

/*
 * Stores through an address a callee returns (stats_for(id)->n++ with
 * stats_for returning &stats[id]): after each call of such a function, the
 * caller's accesses through the result are the variable's, running when the
 * caller does.
 */
static int returned_writes(struct scan *sc)
{
	struct mycl_share *s = sc->s;
	size_t k = 0;
	int err = 0;

	if (!sc->nr_rets)
		return 0;
	sort_array(sc->rets, sc->nr_rets, sizeof(*sc->rets), retref_cmp);
	/* One address per function; a function returning two different ones is left out. */
	for (size_t i = 0; i < sc->nr_rets; i++) {
		if (k && sc->rets[k - 1].fn == sc->rets[i].fn) {
			if (sc->rets[k - 1].value != sc->rets[i].value)
				sc->rets[k - 1].value = 0;
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
	for (size_t i = 0, j; i < k && !err; i = j) {
		uint64_t start = sc->calls[i].caller, end = callgraph_func_end(sc->cg, start, NULL);
		const uint8_t *code;
		struct call_result *cr;
		struct insn *v = NULL;
		size_t n = 0;

		for (j = i; j < k && sc->calls[j].caller == start; j++)
			;
		/* From the first such call on: what the result is used for comes after it. */
		start = sc->calls[i].at;
		if (!start || end <= start || end - start > 65536 ||
		    !(code = elf_image_code(sc->img, start, end - start)))
			continue;
		cr = calloc(j - i, sizeof(*cr));
		if (!cr)
			return -ENOMEM;
		for (size_t q = i; q < j; q++)
			cr[q - i] = (struct call_result){ sc->calls[q].at, sc->calls[q].value,
							  sc->calls[q].indexed };
		disasm_set_call_results(sc->d, cr, j - i);
		err = disasm_range(sc->d, code, end - start, start, &v, &n);
		disasm_set_call_results(sc->d, NULL, 0);
		for (size_t q = 0; q < n && !err; q++) {
			const struct call_result *c = NULL;
			long var;

			if (!v[q].data || (v[q].access != ACC_WRITE && v[q].access != ACC_RMW) ||
			    (var = find_var(s, v[q].data)) < 0 || share_ref_at(s, v[q].addr, false))
				continue;
			/* Credited to the latest call before it whose result is this variable. */
			for (size_t p = 0; p < j - i; p++)
				if (cr[p].at < v[q].addr && find_var(s, cr[p].value) == var)
					c = &cr[p];
			if (!c)
				continue;
			s->vars[var].callee_writes++;
			count_write(s, sc->cg, &s->vars[var], callgraph_heat(sc->cg, v[q].addr), v[q].addr,
				    v[q].counter_op, c->indexed || v[q].indexed, c->indexed ? 0 : v[q].scale);
		}
		free(v);
		free(cr);
	}
	return err;
}

static int ptrset_cmp(const void *a, const void *b)
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
static void pointer_writes(struct scan *sc)
{
	struct mycl_share *s = sc->s;
	size_t k = 0;

	if (!sc->nr_ptrsets || !sc->nr_ptrws)
		return;
	sort_array(sc->ptrsets, sc->nr_ptrsets, sizeof(*sc->ptrsets), ptrset_cmp);
	for (size_t i = 0; i < sc->nr_ptrsets; i++)	/* one per (pointer, target) */
		if (!k || sc->ptrsets[k - 1].ptr != sc->ptrsets[i].ptr ||
		    sc->ptrsets[k - 1].target != sc->ptrsets[i].target)
			sc->ptrsets[k++] = sc->ptrsets[i];
	sc->nr_ptrsets = k;
	for (size_t i = 0; i < sc->nr_ptrws; i++) {
		const struct ptrw *w = &sc->ptrws[i];
		size_t lo = 0, hi = sc->nr_ptrsets;

		lo = PARTITION_POINT(lo, hi, mid, sc->ptrsets[mid].ptr < w->ptr);
		for (size_t j = lo; j < sc->nr_ptrsets && sc->ptrsets[j].ptr == w->ptr; j++) {
			const struct ptrset *t = &sc->ptrsets[j];
			long var = find_var(s, t->target + (uint64_t)w->off);

			if (var < 0)
				continue;
			s->vars[var].callee_writes++;
			count_write(s, sc->cg, &s->vars[var], callgraph_heat(sc->cg, w->at), w->at,
				    w->counter, t->indexed, 0);
		}
	}
}

/* Every reference counted by when it runs. */
static void count_refs(struct mycl_share *s, struct callgraph *cg)
{
	for (size_t i = 0; i < s->nr_refs; i++) {
		const struct share_ref *r = &s->refs[i];
		struct mycl_share_var *v = &s->vars[r->var];
		enum cg_heat heat = r->once ? HEAT_STARTUP : callgraph_heat(cg, r->addr);

		if (r->access == ACC_WRITE || r->access == ACC_RMW)
			count_write(s, cg, v, heat, r->addr, r->counter, r->indexed, r->scale);
		else if (r->access == ACC_READ && heat >= HEAT_WARM)
			v->runtime_reads++, v->hot_reads += heat == HEAT_HOT;
		else if (r->access == ACC_READ && heat == HEAT_UNKNOWN)
			v->runtime_reads++;
	}
}

static int scan_code(struct mycl_share *s, struct elf_image *img)
{
	struct scan sc = { .s = s, .img = img };
	const uint64_t *starts;
	size_t nstarts;
	int err = disasm_for_image(&sc.d, img);

	if (err)
		return err;
	err = callgraph_new(&sc.cg, &s->dso->syms, img);
	if (err) {
		disasm_close(sc.d);
		return err;
	}
	starts = callgraph_starts(sc.cg, &nstarts);
	disasm_set_text(sc.d, false);
	disasm_set_share_facts(sc.d, true);
	disasm_set_starts(sc.d, starts, nstarts);
	err = elf_image_for_each_code(img, scan_section, &sc);
	disasm_set_starts(sc.d, NULL, 0);
	if (!err)
		err = callgraph_finish(sc.cg);
	sort_array(s->refs, s->nr_refs, sizeof(*s->refs), ref_cmp);
	if (!err) {
		count_refs(s, sc.cg);
		err = share_member_writers(s, sc.cg);
	}
	if (!err)
		err = callee_writes(&sc);
	if (!err)
		err = returned_writes(&sc);
	if (!err)
		pointer_writes(&sc);
	if (!err)
		err = share_make_writers(s, sc.cg);
	if (!err)
		share_mark_linked(s);
	if (!err) {
		s->threaded = callgraph_threaded(sc.cg);
		s->nr_entries = callgraph_nr_thread_entries(sc.cg);
		if (s->nr_entries)
			s->first_entry = share_keep(s, strdup(callgraph_thread_entry(sc.cg, 0)));
	}
	callgraph_free(sc.cg);
	disasm_close(sc.d);
	free(sc.args);
	free(sc.rets);
	free(sc.calls);
	free(sc.ptrws);
	free(sc.ptrsets);
	return err;
}

MYCL_API int mycl_share__analyze(const char *path, const struct mycl_share_opts *o,
				 struct mycl_share **out, char *errbuf, size_t errlen)
{
	struct sym_opts so = { .demangle = true };
	const char *arch_opt = OPTS_GET(o, arch, NULL);
	unsigned int line = OPTS_GET(o, line_size, 0);
	struct mycl_share *s;
	struct elf_image *img;
	char *abs;
	int err;

	*out = NULL;
	so.debug_dir = dso_debug_dir(OPTS_GET(o, debug_dir, NULL));
	so.archive = OPTS_GET(o, archive, NULL);
	abs = realpath(path, NULL);
	if (!abs && errno == ENOENT && !access(path, R_OK))
		abs = strdup(path);	/* a file with no name to resolve to (an archive's memfd) */
	if (!abs) {
		err = -errno;
		snprintf(errbuf, errlen, "%s: cannot open: %s", path, strerror(errno));
		return err;
	}
	err = not_elf(path, errbuf, errlen);
	if (err) {
		free(abs);
		return err;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		free(abs);
		return -ENOMEM;
	}
	s->assume_threads = OPTS_GET(o, assume_threads, false);
	s->log.print = OPTS_GET(o, print, NULL);
	s->log.ctx = OPTS_GET(o, print_ctx, NULL);
	s->dso = dso_new(abs, false);
	free(abs);
	if (!s->dso) {
		mycl_share__free(s);
		return -ENOMEM;
	}
	s->name = s->dso->path;
	if (OPTS_GET(o, name, NULL) && share_keep(s, strdup(o->name)))
		s->name = s->strs[s->nr_strs - 1];
	dso_load(s->dso, &so);
	img = dso_image(s->dso);
	if (!img) {
		char why[200];

		if (!elf_header_problem(s->dso->path, why, sizeof(why)))
			snprintf(errbuf, errlen, "%s: not a readable ELF file: %s", path, why);
		else
			snprintf(errbuf, errlen, "%s: not an ELF file with code (%s)", path,
				 dso_status_str(s->dso->status));
		mycl_share__free(s);
		return MYCL_ERR_ELF;
	}
	s->line_size = arch_line(elf_image_machine(img), &s->arch);
	if (!strcmp(s->arch, "unknown")) {
		const char *name = machine_name(elf_image_machine(img));

		if (name)
			snprintf(errbuf, errlen, "%s: an ELF binary for %s; mycl-share reads x86_64, "
				 "i386, aarch64, arm, ppc64, s390x and riscv64", path, name);
		else
			snprintf(errbuf, errlen, "%s: an ELF binary for machine %u; mycl-share reads "
				 "x86_64, i386, aarch64, arm, ppc64, s390x and riscv64", path, elf_image_machine(img));
		mycl_share__free(s);
		return MYCL_ERR_UNSUPPORTED;
	}
	if (arch_opt) {
		unsigned int l = arch_line_named(arch_opt);

		if (!l) {
			snprintf(errbuf, errlen, "unknown architecture '%s' (x86_64, i386, aarch64, arm, "
				 "ppc64, s390x, riscv64)",
				 arch_opt);
			mycl_share__free(s);
			return -EINVAL;
		}
		s->line_size = l;
		s->arch = arch_opt;
	}
	if (line)
		s->line_size = line;
	err = share_symbol_vars(s, img, OPTS_GET(o, include_readonly, false));
	if (!err && !OPTS_GET(o, no_dwarf, false) && s->dso->sym_path)
		err = share_dwarf_vars(s, s->dso->sym_path, OPTS_GET(o, include_readonly, false));
	if (!err) {
		size_t out_n = 0;

		sort_array(s->vars, s->nr_vars, sizeof(*s->vars), var_cmp);
		/* One entry per address: aliases keep the preferred name (sorted first). */
		for (size_t i = 0; i < s->nr_vars; i++)
			if (!out_n || s->vars[i].addr != s->vars[out_n - 1].addr)
				s->vars[out_n++] = s->vars[i];
		s->nr_vars = out_n;
		err = scan_code(s, img);
	}
	/* Stores the symbols cannot name: a stripped program's own data. */
	if (!err && s->unnamed_writes && !s->dso->symtab_full)
		s->debug_hint = share_keep(s, pkg_debug_hint(s->dso->path));
	if (!err && OPTS_GET(o, perf_data, NULL))
		err = share_weigh(s, OPTS_GET(o, perf_data, NULL), errbuf, errlen);
	if (!err)
		err = mycl_share__regroup(s, s->line_size);
	if (err) {
		if (errbuf && errlen && !*errbuf)
			snprintf(errbuf, errlen, "%s: %s", path, mycl_strerror(err));
		mycl_share__free(s);
		return err;
	}
	*out = s;
	return 0;
}

MYCL_API void mycl_share__free(struct mycl_share *s)
{
	if (!s)
		return;
	dso_free(s->dso);
	free(s->vars);
	free(s->refs);
	free(s->wrs);
	free(s->writers);
	free(s->wfuncs);
	free(s->lines);
	free(s->members);
	free(s->buckets);
	for (size_t i = 0; i < s->nr_strs; i++)
		free(s->strs[i]);
	free(s->strs);
	free(s->dcode);
	free(s->described);
	free(s->splits);
	free(s);
}

MYCL_API bool mycl_share__threaded(const struct mycl_share *s)
{
	return s->threaded;
}

MYCL_API bool mycl_share__static_blind(const struct mycl_share *s)
{
	return s->static_blind;
}

MYCL_API uint64_t mycl_share__binary_samples(const struct mycl_share *s)
{
	return s->binary_samples;
}

MYCL_API const char *mycl_share__arch(const struct mycl_share *s)
{
	return s->arch;
}

MYCL_API unsigned int mycl_share__line_size(const struct mycl_share *s)
{
	return s->line_size;
}

MYCL_API size_t mycl_share__nr_vars(const struct mycl_share *s)
{
	return s->nr_vars;
}

MYCL_API const struct mycl_share_var *mycl_share__var(const struct mycl_share *s, size_t i)
{
	return i < s->nr_vars ? &s->vars[i] : NULL;
}

MYCL_API size_t mycl_share__nr_lines(const struct mycl_share *s)
{
	return s->nr_lines;
}

MYCL_API const struct mycl_share_line *mycl_share__line(const struct mycl_share *s, size_t i)
{
	return i < s->nr_lines ? &s->lines[i] : NULL;
}

static const char *access_word(uint8_t a)
{
	static const char *const w[] = { "", "read", "write", "rmw", "address" };

	return a < 5 ? w[a] : "";
}

MYCL_API int mycl_share__disassemble(FILE *f, const struct mycl_share *s, const char *func)
{
	struct elf_image *img = dso_image(s->dso);
	const struct sym *fn = NULL;
	struct disasm *d;
	struct insn *v;
	size_t n;
	const uint8_t *code;
	int err;

	for (size_t i = 0; i < s->dso->syms.nr && !fn; i++)
		if (!strcmp(s->dso->syms.syms[i].name, func))
			fn = &s->dso->syms.syms[i];
	if (!fn || !img)
		return -ENOENT;
	code = elf_image_code(img, fn->start, fn->end - fn->start);
	if (!code)
		return -ENOENT;
	err = disasm_for_image(&d, img);
	if (err)
		return err;
	err = disasm_range(d, code, fn->end - fn->start, fn->start, &v, &n);
	disasm_close(d);
	if (err)
		return err;
	fprintf(f, "# %s (%s):\n", func, s->arch);
	for (size_t i = 0; i < n; i++) {
		long k = v[i].data ? find_var(s, v[i].data) : -1;

		fprintf(f, "  %8" PRIx64 ":  %s", v[i].addr, v[i].text);
		if (k >= 0)
			fprintf(f, "  # %s%s %s", s->vars[k].name,
				v[i].data == s->vars[k].addr ? "" : "+off", access_word(v[i].access));
		else if (v[i].data)
			fprintf(f, "  # 0x%" PRIx64 " %s", v[i].data, access_word(v[i].access));
		if (v[i].atomic)
			fputs(" atomic", f);
		if (v[i].spin_hint)
			fputs(" spin hint", f);
		fputc('\n', f);
	}
	free(v);
	return ferror(f) ? -EIO : 0;
}
