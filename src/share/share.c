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
#include "apinames.h"
#include "callgraph.h"
#include "datatype.h"
#include "disasm.h"
#include "lockcode.h"
#include "lockrules.h"
#include "elfimage.h"
#include "pkghint.h"
#include "share_scan.h"


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
	if (!S_ISREG(sb.st_mode)) {
		snprintf(errbuf, errlen, "%s: not a regular file (%s), not an ELF binary", path,
			 S_ISFIFO(sb.st_mode) ? "a FIFO" : S_ISCHR(sb.st_mode) ? "a character device" :
			 S_ISBLK(sb.st_mode) ? "a block device" : S_ISSOCK(sb.st_mode) ? "a socket" :
			 "a special file");
		return MYCL_ERR_ELF;
	}
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
	if (n >= 8 && !memcmp(head, "!<arch>\n", 8))
		snprintf(errbuf, errlen, "%s: a static library (ar archive), not an ELF binary: give "
			 "the program built from it, or one of its objects (ar x)", path);
	else
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

/* ---- scanning the code ---- */

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

/* How many instructions after a variable's read a conditional branch tests it. */
#define TEST_WINDOW 8

/*
 * A conditional branch testing a variable read just before it (cmpb $0, v;
 * jne / ldrb w0, [v]; cbnz w0): the call graph weighs the stores of the
 * variable it guards ("if (!ready) ready = 1").
 */
static int note_tests(struct scan *sc, const struct insn *in, long v)
{
	bool x86 = sc->flags_known;
	int err = 0;

	for (int k = 0; k < 4; k++)
		if (sc->tested[k].key && ++sc->tested[k].age > TEST_WINDOW)
			sc->tested[k].key = 0;
	if (in->call || in->ret || in->jump) {
		memset(sc->tested, 0, sizeof(sc->tested));
		return 0;
	}
	if (in->branch && in->target)
		for (int k = 0; k < 4 && !err; k++)
			if (sc->tested[k].key && (!x86 || sc->tested[k].flags))
				err = callgraph_guard_test(sc->cg, in->addr, sc->tested[k].key);
	for (int k = 0; x86 && !in->branch && k < 4; k++) {
		bool from = (in->regs_read & sc->tested[k].regs) != 0;

		if (!sc->tested[k].key)
			continue;
		if (in->sets_flags)
			sc->tested[k].flags = from;
		sc->tested[k].regs = from ? sc->tested[k].regs | in->regs_written :
				     sc->tested[k].regs & ~in->regs_written;
	}
	if (v >= 0 && in->access == ACC_READ) {
		int k = 0;

		for (int j = 1; j < 4; j++)
			if (sc->tested[j].age > sc->tested[k].age || !sc->tested[j].key)
				k = j;
		sc->tested[k].key = in->data;
		sc->tested[k].age = 0;
		sc->tested[k].regs = in->regs_written & ~1u;
		sc->tested[k].flags = in->sets_flags;	/* cmpb $0, var */
	}
	/* (every plain store: a flag's constant, or a value stored only when a test says so) */
	if (v >= 0 && in->access == ACC_WRITE && !in->atomic && !err)
		err = callgraph_guard_store(sc->cg, in->addr, in->data);
	return err;
}

static int note_access(struct scan *sc, const struct insn *in, uint64_t data, long v);

static int scan_insn(const struct insn *in, void *arg)
{
	struct scan *sc = arg;
	struct mycl_share *s = sc->s;
	long v;
	bool tail;
	int err = callgraph_insn(sc->cg, in);

	if (err)
		return err;
	if (in->call && in->target)
		guard_call(sc, in);
	if (in->ret && in->ret_value && share_find_var(s, in->ret_value) >= 0) {
		if (ARRAY_GROW(sc->rets, sc->rets_cap, sc->nr_rets + 1))
			return -ENOMEM;
		sc->rets[sc->nr_rets++] = (struct retref){
			callgraph_func_start(sc->cg, in->addr), in->ret_value,
			in->ret_alt && share_find_var(s, in->ret_alt) >= 0 ? in->ret_alt : 0,
			in->ret_indexed };
	}
	/* (a jump to another function's start: a tail call, handing its arguments as a call) */
	tail = in->jump && in->target && !in->call &&
	       callgraph_function_at(sc->cg, in->target) == in->target &&
	       callgraph_func_start(sc->cg, in->addr) != in->target;
	if ((in->call || tail) && (in->target || in->call_slot)) {
		uint64_t callees[MAX_TABLE_TARGETS];
		size_t nr_callees = 0;

		/* (an argument that is one of two addresses: each) */
		for (int j = 0; j < 7; j++) {
			int k = j < 6 ? j : in->call_alt_arg;
			uint64_t a = j < 6 ? in->call_arg[k] : in->call_alt;

			if (!a || share_find_var(s, a) < 0)
				continue;
			/* (a call through a table of functions: to any function it holds) */
			if (!nr_callees)
				nr_callees = share_callees(sc, in->target, in->call_slot,
							   in->call_stride, callees, MAX_TABLE_TARGETS);
			for (size_t c = 0; c < nr_callees; c++) {
				if (ARRAY_GROW(sc->args, sc->args_cap, sc->nr_args + 1))
					return -ENOMEM;
				sc->args[sc->nr_args++] = (struct argref){
					in->addr, callees[c], a, (uint8_t)k,
					(in->call_arg_indexed >> k) & 1, 0, false,
					k ? in->call_arg[k - 1] : 0, false };
			}
		}
	}
	if (in->via && (in->via_access == ACC_WRITE || in->via_access == ACC_RMW)) {
		uint64_t ptr = in->via != INSN_ARG_KEY ? in->via :
			       SHARE_ARG_PTR(callgraph_func_start(sc->cg, in->addr));

		if (ARRAY_GROW(sc->ptrws, sc->ptrws_cap, sc->nr_ptrws + 1))
			return -ENOMEM;
		sc->ptrws[sc->nr_ptrws++] = (struct ptrw){ in->addr, ptr, in->via_off,
							   (uint8_t)share_write_kind(in) };
	}
	if ((in->call || tail) && in->target && in->call_arg_argptr) {
		if (ARRAY_GROW(sc->apcalls, sc->apcalls_cap, sc->nr_apcalls + 1))
			return -ENOMEM;
		sc->apcalls[sc->nr_apcalls++] = (struct argptr_call){
			callgraph_func_start(sc->cg, in->addr), in->addr, in->target,
			in->call_arg_argptr };
	}
	/* A function's or a variable's address stored into the program's data. */
	if (in->stored && in->data && !in->tls) {
		bool fn = callgraph_function_at(sc->cg, in->stored) == in->stored;

		if (fn || share_find_var(s, in->stored) >= 0) {
			if (ARRAY_GROW(sc->dstores, sc->dstores_cap, sc->nr_dstores + 1))
				return -ENOMEM;
			sc->dstores[sc->nr_dstores++] = (struct dstore){
				callgraph_func_start(sc->cg, in->addr), in->addr, in->data, in->stored,
				fn, in->indexed || in->stored_indexed };
		}
	}
	/* The function's own argument stored (a lambda capturing this). */
	if (in->stored_prm || in->stored_prm_stack) {
		if (ARRAY_GROW(sc->prmstores, sc->prmstores_cap, sc->nr_prmstores + 1))
			return -ENOMEM;
		sc->prmstores[sc->nr_prmstores++] = (struct prmstore){
			callgraph_func_start(sc->cg, in->addr), in->addr,
			(uint8_t)((in->stored_prm ? in->stored_prm : in->stored_prm_stack) - 1) };
	}
	/*
	 * A variable's address stored into a struct on the heap or the stack;
	 * or a read-only object's the symbols name (a std::thread state's vtable).
	 */
	for (int k = 0; k < 2; k++) {
		uint64_t val = k ? in->stored_stack : in->data || in->tls ? 0 : in->stored;

		if (!val || (share_find_var(s, val) < 0 && !share_relro_name(s, val)))
			continue;
		if (ARRAY_GROW(sc->argstores, sc->argstores_cap, sc->nr_argstores + 1))
			return -ENOMEM;
		sc->argstores[sc->nr_argstores++] = (struct argstore){
			callgraph_func_start(sc->cg, in->addr), in->addr, val, in->stored_indexed };
	}
	/* Addresses stored in a pointer variable (stp: a second one 8 bytes on). */
	for (int k = 0; k < 2 && (in->data || in->tls); k++) {
		uint64_t val = k ? in->stored_pair : in->stored;

		if (!val || share_find_var(s, val) < 0)
			continue;
		if (ARRAY_GROW(sc->ptrsets, sc->ptrsets_cap, sc->nr_ptrsets + 1))
			return -ENOMEM;
		sc->ptrsets[sc->nr_ptrsets++] = (struct ptrset){
			(in->data ? in->data : in->tls) + 8 * (uint64_t)k, val, in->stored_indexed };
	}
	v = in->data ? share_find_var(s, in->data) : -1;
	err = note_tests(sc, in, v);
	if (err)
		return err;
	if (!in->data)
		return 0;
	err = note_access(sc, in, in->data, v);
	if (!err && in->data_alt && (v = share_find_var(s, in->data_alt)) >= 0)
		err = note_access(sc, in, in->data_alt, v);	/* (one of two addresses: each) */
	return err;
}

/* IN's access of DATA, in variable V (or none: < 0). */
static int note_access(struct scan *sc, const struct insn *in, uint64_t data, long v)
{
	struct mycl_share *s = sc->s;

	if (v < 0) {
		const struct elf_section *sec;

		if ((in->access == ACC_WRITE || in->access == ACC_RMW) &&
		    (sec = elf_image_section_at(sc->img, data)) && sec->write && !sec->exec &&
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
		.off = (uint32_t)(data - s->vars[v].addr),
		.access = in->access, .atomic = in->atomic, .kind = (uint8_t)share_write_kind(in),
		.self = in->store_self, .indexed = in->indexed, .scale = in->scale,
		.konst = in->store_const && in->access == ACC_WRITE, .val = in->store_val,
		.once = sc->guard_fn && (in->access == ACC_WRITE || in->access == ACC_RMW) &&
			callgraph_func_start(sc->cg, in->addr) == sc->guard_fn };
	return 0;
}

static int scan_section(uint64_t addr, const uint8_t *bytes, size_t len, void *arg)
{
	struct scan *sc = arg;

	return disasm_iter_piped(sc->d, bytes, len, addr, scan_insn, sc);
}

static int revisit_insn(const struct insn *in, void *arg)
{
	return callgraph_insn(arg, in);
}

/*
 * The callers read before a function of theirs was found to wait a time (a
 * sleep wrapper), read again for their loops only: what they access was
 * counted the first time.
 */
static int revisit(struct scan *sc, const struct elf_image *img)
{
	const uint64_t *v;
	size_t n;
	int err;

	while (!(err = callgraph_revisits(sc->cg, &v, &n)) && n) {
		for (size_t i = 0; i < n && !err; i++) {
			const uint8_t *bytes = v[2 * i + 1] > v[2 * i] ?
				elf_image_code(img, v[2 * i], v[2 * i + 1] - v[2 * i]) : NULL;

			if (bytes)
				err = disasm_iter(sc->d, bytes, v[2 * i + 1] - v[2 * i], v[2 * i],
						  revisit_insn, sc->cg);
		}
	}
	return err;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct share_ref *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Flags set once: variables whose every write while threads run stores one
 * constant, each only on one side of a test of the variable ("if (!ready) {
 * ...; ready = 1; }", a warning given once): after the first, the test
 * keeps the store from running, however hot the code around it.  SET_ONCE
 * (one per variable) gets them.
 */
static void flags_set_once(const struct mycl_share *s, struct callgraph *cg, const uint8_t *heat,
			   bool *set_once)
{
	uint8_t *state = calloc(s->nr_vars ? s->nr_vars : 1, 1);	/* 0 none, 1 so far, 2 not */
	uint64_t *val = calloc(s->nr_vars ? s->nr_vars : 1, sizeof(*val));

	if (!state || !val) {
		free(state);
		free(val);
		return;		/* (nothing set apart: the writes stay as hot as they are) */
	}
	for (size_t i = 0; i < s->nr_refs; i++) {
		const struct share_ref *r = &s->refs[i];

		if ((r->access != ACC_WRITE && r->access != ACC_RMW) || state[r->var] == 2 ||
		    heat[i] == HEAT_STARTUP || heat[i] == HEAT_EXIT)
			continue;
		if (!r->konst || r->access != ACC_WRITE || r->indexed || r->atomic ||
		    (state[r->var] == 1 && val[r->var] != r->val) || !callgraph_guarded(cg, r->addr)) {
			state[r->var] = 2;
			continue;
		}
		state[r->var] = 1;
		val[r->var] = r->val;
	}
	for (size_t k = 0; k < s->nr_vars; k++)
		set_once[k] = state[k] == 1;
	free(state);
	free(val);
}


struct once_flags {
	const struct mycl_share *s;
	const bool *set_once;
};

/* KEY (an address tested and stored) is a flag set once. */
static bool key_set_once(uint64_t key, void *arg)
{
	const struct once_flags *o = arg;
	long v = share_find_var(o->s, key);

	return v >= 0 && o->set_once[v];
}

/* When reference R runs: a guarded static initialisation's writes at start-up. */
static enum cg_heat ref_heat(const struct callgraph *cg, const struct share_ref *r)
{
	return r->once ? HEAT_STARTUP : callgraph_heat(cg, r->addr);
}

/* Every reference counted by when it runs. */
static int count_refs(struct mycl_share *s, struct callgraph *cg, bool strict_tests)
{
	uint8_t *heat = malloc(s->nr_refs ? s->nr_refs : 1);
	bool *set_once = calloc(s->nr_vars ? s->nr_vars : 1, sizeof(*set_once));
	int err = 0;

	for (size_t i = 0; heat && i < s->nr_refs; i++)
		heat[i] = (uint8_t)ref_heat(cg, &s->refs[i]);
	if (heat && set_once) {
		struct once_flags o = { s, set_once };

		flags_set_once(s, cg, heat, set_once);
		/*
		 * What runs only past the test of a flag set once ("if (!ready) {
		 * fill(); ready = 1; }") runs once: fill's writes too, when nothing
		 * else calls it hot.  (The flags stay set once: their stores only
		 * cool.)
		 */
		err = callgraph_once_calls(cg, key_set_once, &o);
		for (size_t i = 0; err > 0 && i < s->nr_refs; i++)
			heat[i] = (uint8_t)ref_heat(cg, &s->refs[i]);
		err = err < 0 ? err : 0;
	}
	for (size_t i = 0; i < s->nr_refs; i++) {
		const struct share_ref *r = &s->refs[i];
		struct mycl_share_var *v = &s->vars[r->var];
		enum cg_heat h = heat ? (enum cg_heat)heat[i] : ref_heat(cg, r);

		/* A flag set once: counted once while threads run, however hot the code around it. */
		if ((r->access == ACC_WRITE || r->access == ACC_RMW) && set_once &&
		    set_once[r->var] && h >= HEAT_WARM)
			share_count_write_once(s, cg, v, SHARE_ONCE_FLAG, HEAT_WARM, r->addr,
					       v->addr + r->off, false, r->kind, r->indexed,
					       r->scale);
		/*
		 * A value (no constant: a flag's toggles run as often as their
		 * code; not the variable's own plus something: a counter tested
		 * against its bound) stored only on one side of a test of the
		 * variable itself:
		 * a time stamp stored when the last is old enough, a watermark
		 * when passed, a pointer when unset, a value when it differs.
		 * How often the test passes the code does not say; that the
		 * code tests before it stores says the store is not every pass
		 * (the habit that keeps a shared line clean).  Only where a
		 * test is known to be of the variable's value (x86: the flags
		 * computed from it; elsewhere any branch just after a read).
		 */
		else if (strict_tests && r->access == ACC_WRITE && !r->konst &&
			 !(r->kind & SHARE_W_COUNTER) && !r->self &&
			 !r->indexed && !r->atomic && h == HEAT_HOT && callgraph_guarded(cg, r->addr))
			share_count_write_once(s, cg, v, SHARE_ONCE_TESTED, HEAT_WARM, r->addr,
					       v->addr + r->off, false, r->kind, r->indexed,
					       r->scale);
		else if (r->access == ACC_WRITE || r->access == ACC_RMW)
			share_count_write_at(s, cg, v, h, r->addr, v->addr + r->off, false, r->kind,
					     r->indexed, r->scale);
		else if (r->access == ACC_READ && h >= HEAT_WARM) {
			v->runtime_reads++, v->hot_reads += h == HEAT_HOT;
			if (h == HEAT_HOT)
				share_hot_access(s, cg, r->var, r->addr);
		}
		else if (r->access == ACC_READ && h == HEAT_UNKNOWN)
			v->runtime_reads++;
	}
	free(heat);
	free(set_once);
	return err;
}

/* What the scan made, and the types' walk, freed (SC zeroed or started). */
static void scan_free(struct scan *sc)
{
	if (sc->s)
		share_types_end(sc->s);
	callgraph_free(sc->cg);
	disasm_close(sc->d);
	free(sc->args);
	free(sc->rets);
	free(sc->calls);
	free(sc->ptrws);
	free(sc->ptrsets);
	free(sc->argstores);
	free(sc->apcalls);
	free(sc->prmstores);
	free(sc->capfwds);
	free(sc->dstores);
	free(sc->fntakes);
	memset(sc, 0, sizeof(*sc));
}

/*
 * The scan's start: the call graph of the functions, and with --types the
 * walk of their data types set going on other threads (it needs the
 * functions and the code the debug info describes, s->dcode), to run while
 * this one reads the variables and scans.
 */
static int scan_start(struct mycl_share *s, struct elf_image *img, struct scan *sc)
{
	/* x86: registers and flags are known, so a test is what the flags came from. */
	int err;

	*sc = (struct scan){ .img = img,
			     .flags_known = elf_image_machine(img) == 62 /* EM_X86_64 */ ||
					    elf_image_machine(img) == 3 /* EM_386 */ };
	err = disasm_for_image(&sc->d, img);
	if (!err)
		err = callgraph_new(&sc->cg, &s->dso->syms, img);
	/* (the walk on its own thread reads the image while scan_insn does: nothing left to fill in) */
	if (!err)
		err = elf_image_read_relocs(img);
	sc->s = s;
	if (!err && s->want_types)
		err = share_types_start(s, img, sc->cg);
	if (err)
		scan_free(sc);
	return err;
}

static int scan_code(struct mycl_share *s, struct elf_image *img, struct scan *scp)
{
	struct scan sc = *scp;
	const uint64_t *starts;
	size_t nstarts;
	int err;

	starts = callgraph_starts(sc.cg, &nstarts);
	disasm_set_text(sc.d, false);
	disasm_set_share_facts(sc.d, true);
	disasm_set_starts(sc.d, starts, nstarts);
	err = elf_image_for_each_code(img, scan_section, &sc);
	if (!err)
		err = revisit(&sc, img);
	disasm_set_starts(sc.d, NULL, 0);
	/* (the walk's threads done with this analysis's DWARF handle: the counting reads it) */
	share_types_ready(s);
	if (!err)
		err = callgraph_finish(sc.cg);
	sort_array(s->refs, s->nr_refs, sizeof(*s->refs), ref_cmp);
	if (!err)
		err = count_refs(s, sc.cg, sc.flags_known);
	if (!err)
		err = share_member_writers(s, sc.cg);
	/* (returned addresses first: the calls they are handed on to join the callees') */
	if (!err)
		err = share_returned_writes(&sc);
	if (!err)
		err = share_thread_methods(&sc);
	if (!err)
		err = share_thread_args(&sc);
	if (!err)
		err = share_callback_contexts(&sc);
	if (!err)
		err = share_stored_contexts(&sc);
	if (!err)
		err = share_callee_writes(&sc);
	if (!err) {
		share_pointer_writes(&sc);
		share_settle_swaps(s);
		share_sort_hot_writes(s);
		err = share_lock_word_readers(s, sc.cg);
	}
	if (!err)
		err = share_make_writers(s, sc.cg);
	if (!err)
		share_mark_linked(s);
	if (!err)
		share_one_thread(s, sc.cg);
	if (!err && s->want_types)
		err = share_types_scan(s, sc.cg);
	if (!err) {
		s->threaded = callgraph_threaded(sc.cg);
		s->nr_entries = callgraph_nr_thread_entries(sc.cg);
		if (s->nr_entries)
			s->first_entry = share_keep(s, strdup(callgraph_thread_entry(sc.cg, 0)));
		if (callgraph_joined_elsewhere(sc.cg)) {
			char buf[128];

			s->joined_elsewhere = share_keep(s, strdup(lock_plain_name(
				callgraph_joined_elsewhere(sc.cg), buf, sizeof(buf))));
		}
	}
	scan_free(&sc);
	memset(scp, 0, sizeof(*scp));
	return err;
}

/* mycl_share__analyze, its words in ERRBUF. */
static int analyze(const char *path, const struct mycl_share_opts *o, struct mycl_share **out,
		   char *errbuf, size_t errlen)
{
	struct sym_opts so = { .demangle = true };
	const char *arch_opt = OPTS_GET(o, arch, NULL);
	unsigned int line = OPTS_GET(o, line_size, 0);
	struct mycl_share *s;
	struct elf_image *img;
	struct share_dwarf *dh = NULL;
	struct scan sc = { 0 };
	char *abs, why[200];
	int err, kind;

	if (!OPTS_VALID(o, mycl_share_opts))
		return MYCL_ERR_OPTS;
	if (OPTS_GET(o, perf_data, NULL) && OPTS_GET(o, profile, NULL)) {
		snprintf(errbuf, errlen, "%s: weighed by a recording or by a profile, not both", path);
		return -EINVAL;
	}
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
	s->want_types = OPTS_GET(o, types, false);
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
	/* (a core dump or a debug file may load, but holds no code to read) */
	kind = elf_header_problem(s->dso->path, why, sizeof(why));
	if (!img || kind == 1) {
		if (!kind)
			snprintf(errbuf, errlen, "%s: not a readable ELF file: %s", path, why);
		else if (kind == 1)
			snprintf(errbuf, errlen, "%s: %s", path, why);
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
		err = share_dwarf_open(s, s->dso->sym_path, &dh);
	/* (the types' walk runs from here, beside the variables' reading and the scan) */
	if (!err)
		err = scan_start(s, img, &sc);
	if (!err && dh)
		err = share_dwarf_vars(s, dh, OPTS_GET(o, include_readonly, false));
	share_dwarf_close(dh);
	if (err)
		scan_free(&sc);
	if (!err) {
		size_t out_n = 0;

		sort_array(s->vars, s->nr_vars, sizeof(*s->vars), var_cmp);
		/* One entry per address: aliases keep the preferred name (sorted first). */
		for (size_t i = 0; i < s->nr_vars; i++)
			if (!out_n || s->vars[i].addr != s->vars[out_n - 1].addr)
				s->vars[out_n++] = s->vars[i];
		s->nr_vars = out_n;
		err = scan_code(s, img, &sc);
	}
	/* Stores the symbols cannot name: a stripped program's own data. */
	if (!err && s->unnamed_writes && !s->dso->symtab_full)
		s->debug_hint = share_keep(s, pkg_debug_hint(s->dso->path));
	if (!err && OPTS_GET(o, perf_data, NULL))
		err = share_weigh(s, OPTS_GET(o, perf_data, NULL), OPTS_GET(o, perf_time, NULL),
				  errbuf, errlen);
	else if (!err && OPTS_GET(o, profile, NULL))
		err = share_weigh_profile(s, OPTS_GET(o, profile, NULL));
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

MYCL_API int mycl_share__analyze(const char *path, const struct mycl_share_opts *o,
				 struct mycl_share **out)
{
	char why[1024] = "";
	int err;

	error_clear();
	err = analyze(path, o, out, why, sizeof(why));
	if (err && why[0])
		error_set(err, "%s", why);
	return err;
}

MYCL_API void mycl_share__free(struct mycl_share *s)
{
	if (!s)
		return;
	share_dwarf_end(s);
	dso_free(s->dso);
	free(s->vars);
	free(s->refs);
	free(s->wrs);
	free(s->writers);
	for (size_t i = 0; i < s->nr_wfuncs; i++)
		free(s->wfuncs[i].loops);
	free(s->wfuncs);
	free(s->wsites);
	free(s->wspans);
	free(s->lines);
	free(s->members);
	free(s->buckets);
	for (size_t i = 0; i < s->nr_strs; i++)
		free(s->strs[i]);
	free(s->strs);
	free(s->dcode);
	free(s->described);
	free(s->splits);
	free(s->inner);
	free(s->hotw);
	free(s->hot_any);
	free(s->swaps);
	free(s->downs);
	free(s->incs);
	free(s->lockw);
	free(s->hot_root);
	free(s->one_thread);
	share_types_free(s);
	free(s);
}

MYCL_API size_t mycl_share__nr_types(const struct mycl_share *s)
{
	return s->nr_types;
}

MYCL_API const struct mycl_share_type *mycl_share__type(const struct mycl_share *s, size_t i)
{
	return i < s->nr_types ? &s->types[i] : NULL;
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

static const struct sym *sym_named(const struct mycl_share *s, const char *name)
{
	for (size_t i = 0; name && i < s->dso->syms.nr; i++)
		if (!strcmp(s->dso->syms.syms[i].name, name))
			return &s->dso->syms.syms[i];
	return NULL;
}

/*
 * The function FUNC names, as the reports name it ("Query_cache::insert"),
 * with its parameters ("app::Server::handle(int)"), mangled ("_ZN3app6...")
 * or, unnamed, by its start ("0x968180", a function .eh_frame lists): its
 * [*START, *END).  0 or -ENOENT.
 */
static int function_named(const struct mycl_share *s, const struct elf_image *img, const char *func,
			  uint64_t *start, uint64_t *end)
{
	const struct sym *fn = sym_named(s, func);
	char *alt = NULL, *e;
	uint64_t *fde = NULL, addr;
	size_t nfde = 0;

	if (!fn && is_mangled(func) && (alt = demangle_name(func)))
		fn = sym_named(s, alt);
	free(alt);
	if (!fn && strchr(func, '(') && (alt = strdup(func))) {
		demangle_strip_signature(alt);
		fn = sym_named(s, alt);
		free(alt);
	}
	if (fn) {
		*start = fn->start;
		*end = fn->end;
		return 0;
	}
	if (strncmp(func, "0x", 2) || (errno = 0, addr = strtoull(func + 2, &e, 16), *e || errno))
		return -ENOENT;
	fn = symtab_find(&s->dso->syms, addr);
	if (fn && fn->start == addr) {
		*start = fn->start;
		*end = fn->end;
		return 0;
	}
	if (elf_image_fde_starts(img, &fde, &nfde))
		return -ENOENT;
	*start = *end = 0;
	for (size_t i = 0; i < nfde; i++) {
		if (fde[i] == addr)
			*start = addr;
		else if (fde[i] > addr && (!*end || fde[i] < *end))
			*end = fde[i];
	}
	free(fde);
	for (size_t i = 0; *start && i < s->dso->syms.nr; i++)
		if (s->dso->syms.syms[i].start > addr && s->dso->syms.syms[i].start < *end)
			*end = s->dso->syms.syms[i].start;
	return *start && *end > *start && *end - *start < (1u << 24) ? 0 : -ENOENT;
}

MYCL_API int mycl_share__disassemble(FILE *f, const struct mycl_share *s, const char *func)
{
	struct elf_image *img = dso_image(s->dso);
	uint64_t start, end;
	struct disasm *d;
	struct insn *v;
	struct dt_result types;
	size_t n;
	const uint8_t *code;
	int err;

	if (!img || function_named(s, img, func, &start, &end))
		return -ENOENT;
	code = elf_image_code(img, start, end - start);
	if (!code)
		return -ENOENT;
	err = disasm_for_image(&d, img);
	if (err)
		return err;
	disasm_set_type_facts(d, true);
	err = disasm_range(d, code, end - start, start, &v, &n);
	disasm_close(d);
	if (err)
		return err;
	err = datatype_walk(s->dso, elf_image_machine(img), v, n, &types);
	if (err) {
		free(v);
		return err;
	}
	fprintf(f, "# %s (%s):\n", func, s->arch);
	for (size_t i = 0; i < n; i++) {
		long k = v[i].data ? share_find_var(s, v[i].data) : -1;
		const struct dt_access *t = &types.v[i];

		fprintf(f, "  %8" PRIx64 ":  %s", v[i].addr, v[i].text);
		/* what a register points to (data types): c->hits, slots[i].served */
		if (!v[i].data && t->where && !t->unknown && t->expr)
			fprintf(f, "  # %s %s (%s%s%s)", t->expr, access_word(t->access), t->type,
				t->member ? "." : "", t->member ? t->member : "");
		else if (k >= 0)
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
	datatype_free(&types);
	return ferror(f) ? -EIO : 0;
}
