/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include "internal.h"
#include "machine.h"
#include "unwind.h"

enum arch { ARCH_UNKNOWN, ARCH_X86_64, ARCH_AARCH64, ARCH_PPC64, ARCH_S390X };

/* A binary as reported to a process's Dwfl: the file and where it is loaded. */
struct reported {
	struct dso *dso;
	uint64_t bias;
	struct machine *m;	/* (the module's userdata: the debug file is found through it) */
};

struct uproc {
	int32_t pid;
	Dwfl *dwfl;
	uint64_t stamp;			/* the maps' stamp when made */
	struct reported *rep;		/* what DWFL was made of, in order */
	size_t nr_rep, rep_cap;
	bool attached;
};

struct unwind_ctx {
	const struct mycl_sample *s;
	uint64_t sp;
	uint64_t *ips;
	size_t max, n;
	enum unwind_end end;
};

struct unwinder {
	struct machine *m;
	enum arch arch;
	struct uproc *procs;
	size_t nr, cap;
	struct unwind_ctx *cur;
	char *debuginfo_path;
	Dwfl_Callbacks cb;
};

static const char *const end_str[] = {
	[UNWIND_COMPLETE] = "complete",
	[UNWIND_NO_CFI] = "no unwind information",
	[UNWIND_STACK_END] = "end of the stack copy",
	[UNWIND_NOT_SUPPORTED] = "cannot unwind",
	[UNWIND_MAX_DEPTH] = "too deep",
};

const char *unwind_end_str(enum unwind_end e)
{
	return end_str[e];
}

/*
 * find_debuginfo: the separate debug file dso_load chose for the module's
 * binary (beside the binary as recorded, in the debug directories, perf's
 * build-id cache; under --symfs only inside it), then, without --symfs,
 * libdwfl's own search.  libdwfl's alone follows the debuglink of the file
 * reported, which may be the build-id cache's copy, away from the debug file.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct reported *r = *userdata;
	struct dso *d = r ? r->dso : NULL;

	/* The binary was only located to be reported: its symbols' loading chooses the file. */
	if (d)
		machine_load(r->m, d);
	if (d && d->sym_path && !(d->runtime_path && !strcmp(d->sym_path, d->runtime_path))) {
		int fd = open_regular(d->sym_path);

		if (fd >= 0) {
			*debuginfo_file_name = strdup(d->sym_path);
			return fd;
		}
	}
	if (!r || machine_opts(r->m)->symfs)
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					    debuglink_file, debuglink_crc, debuginfo_file_name);
}

struct unwinder *unwinder_new(struct machine *m, const char *arch)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->m = m;
	if (arch && !strcmp(arch, "x86_64"))
		u->arch = ARCH_X86_64;
	else if (arch && (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64")))
		u->arch = ARCH_AARCH64;
	else if (arch && !strncmp(arch, "ppc64", 5))
		u->arch = ARCH_PPC64;
	else if (arch && !strcmp(arch, "s390x"))
		u->arch = ARCH_S390X;
	u->cb.find_elf = dwfl_build_id_find_elf;
	/* The debug file found for the symbols; under --symfs, no file outside it. */
	u->cb.find_debuginfo = find_debuginfo;
	u->cb.debuginfo_path = &u->debuginfo_path;
	return u;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr; i++) {
		dwfl_end(u->procs[i].dwfl);
		free(u->procs[i].rep);
	}
	free(u->procs);
	free(u);
}

/* perf register N of the sample's user registers, or false when not sampled. */
static bool user_reg(const struct mycl_sample *s, unsigned int n, uint64_t *v)
{
	if (n >= 64 || !(s->user_regs_mask >> n & 1))
		return false;
	*v = s->user_regs[__builtin_popcountll(s->user_regs_mask & ((1ULL << n) - 1))];
	return true;
}

/* The stack pointer among perf's user registers: rsp, sp, r1, r15. */
static bool sample_sp(const struct unwinder *u, const struct mycl_sample *s, uint64_t *sp)
{
	static const unsigned int sp_reg[] = {
		[ARCH_X86_64] = 7, [ARCH_AARCH64] = 31, [ARCH_PPC64] = 1, [ARCH_S390X] = 15,
	};

	return user_reg(s, sp_reg[u->arch], sp);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)arg;
	(void)thread_argp;
	return 0;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* The unwinder reads the sample's copy of the stack; nothing else is available. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;
	struct unwind_ctx *c = u->cur;
	uint64_t len = c->s->user_stack_dyn_size ? c->s->user_stack_dyn_size : c->s->user_stack_size;

	(void)dwfl;
	/* addr - sp + 8 wraps for an address 8 bytes short of sp + 2^64: no sum. */
	if (addr < c->sp || addr - c->sp > len || len - (addr - c->sp) < sizeof(*result)) {
		if (addr >= c->sp)
			c->end = UNWIND_STACK_END;
		return false;
	}
	memcpy(result, (const uint8_t *)c->s->user_stack + (addr - c->sp), sizeof(*result));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	const struct mycl_sample *s = u->cur->s;
	Dwarf_Word regs[33];

	if (u->arch == ARCH_X86_64) {
		/* DWARF order: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip; perf's: ax bx cx dx si di bp sp ip ... r8-r15 at 16. */
		static const unsigned int perf_of_dwarf[17] = {
			0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
		};

		for (int i = 0; i < 17; i++) {
			uint64_t v = 0;

			if (!user_reg(s, perf_of_dwarf[i], &v) && (i == 7 || i == 16))
				return false;
			regs[i] = v;
		}
		return dwfl_thread_state_registers(thread, 0, 17, regs);
	}
	if (u->arch == ARCH_AARCH64) {
		uint64_t pc;

		for (unsigned int i = 0; i < 32; i++) {
			uint64_t v = 0;

			user_reg(s, i, &v);
			regs[i] = v;
		}
		if (!user_reg(s, 32, &pc) || !dwfl_thread_state_registers(thread, 0, 32, regs))
			return false;
		dwfl_thread_state_register_pc(thread, pc);
		return true;
	}
	if (u->arch == ARCH_PPC64 || u->arch == ARCH_S390X) {
		/* r0-r31 (r0-r15 on s390x) are DWARF 0-31 (0-15); pc apart; ppc64's LR is 65. */
		unsigned int ngpr = u->arch == ARCH_PPC64 ? 32 : 16;
		uint64_t pc, lr;

		for (unsigned int i = 0; i < ngpr; i++) {
			uint64_t v = 0;

			user_reg(s, i, &v);
			regs[i] = v;
		}
		if (!user_reg(s, u->arch == ARCH_PPC64 ? 32 : 33, &pc) ||
		    !dwfl_thread_state_registers(thread, 0, ngpr, regs))
			return false;
		if (u->arch == ARCH_PPC64 && user_reg(s, 36, &lr)) {
			Dwarf_Word w = lr;

			dwfl_thread_state_registers(thread, 65, 1, &w);
		}
		dwfl_thread_state_register_pc(thread, pc);
		return true;
	}
	return false;
}

static const Dwfl_Thread_Callbacks thread_cb = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* The binaries of a process's maps that its Dwfl is made of (no kernel, no JIT, no anonymous). */
static bool reportable(const struct map *mp, uint64_t *bias)
{
	const struct dso *d = mp->dso;

	if (!d || d->kernel || d->identity || !d->runtime_path)
		return false;
	*bias = dso_map_bias(d, mp->start, mp->pgoff);
	return true;
}

struct collect {
	struct reported *v;
	size_t nr, cap;
	int err;
	struct machine *m;
};

static int collect_map(const struct map *mp, void *arg)
{
	struct collect *c = arg;
	uint64_t bias;

	if (!reportable(mp, &bias))
		return 0;
	/* A file's several maps (text, data, ...) report it once: libdwfl keeps the first anyway. */
	for (size_t i = c->nr; i-- > 0 && i + 8 >= c->nr;)
		if (c->v[i].dso == mp->dso && c->v[i].bias == bias)
			return 0;
	if (ARRAY_GROW(c->v, c->cap, c->nr + 1)) {
		c->err = -ENOMEM;
		return c->err;
	}
	c->v[c->nr++] = (struct reported){ mp->dso, bias, c->m };
	return 0;
}

static struct uproc *proc_for(struct unwinder *u, const struct mycl_sample *s)
{
	uint64_t stamp = machine_maps_stamp(u->m, s->pid, s->tid);
	struct collect c = { .m = u->m };
	struct uproc *p = NULL;

	for (size_t i = 0; i < u->nr; i++)
		if (u->procs[i].pid == s->pid)
			p = &u->procs[i];
	if (p && p->dwfl && p->stamp == stamp)
		return p;
	/*
	 * New, or its maps changed: a Dwfl is made of the binaries mapped and where.  When those
	 * are what they were (JIT code and anonymous maps came and went), it stays: rebuilding it
	 * opens every binary and inflates compressed debug frames again.
	 */
	machine_for_each_map(u->m, s->pid, s->tid, collect_map, &c);
	if (c.err) {
		free(c.v);
		return NULL;
	}
	if (p && p->dwfl && c.nr == p->nr_rep && (!c.nr || !memcmp(c.v, p->rep, c.nr * sizeof(*c.v)))) {
		p->stamp = stamp;
		free(c.v);
		return p;
	}
	if (p) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
		free(p->rep);
	} else {
		if (ARRAY_GROW(u->procs, u->cap, u->nr + 1)) {
			free(c.v);
			return NULL;
		}
		p = &u->procs[u->nr++];
		memset(p, 0, sizeof(*p));
		p->pid = s->pid;
	}
	p->rep = c.v;
	p->nr_rep = c.nr;
	p->rep_cap = c.cap;
	p->stamp = stamp;
	p->attached = false;
	p->dwfl = dwfl_begin(&u->cb);
	if (!p->dwfl)
		return NULL;
	dwfl_report_begin(p->dwfl);
	/* A failure leaves the range unknown. */
	for (size_t i = 0; i < c.nr; i++) {
		/* opened here, a regular file only (libdwfl's own open() waits on a FIFO) */
		int fd = open_regular(c.v[i].dso->runtime_path);
		Dwfl_Module *mod = fd < 0 ? NULL :
				   dwfl_report_elf(p->dwfl, c.v[i].dso->short_name,
						   c.v[i].dso->runtime_path, fd, c.v[i].bias, false);
		void **ud;

		if (fd >= 0 && !mod)
			close(fd);	/* consumed only on success */

		if (mod && dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
			*ud = &p->rep[i];
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	p->attached = dwfl_attach_state(p->dwfl, NULL, s->pid, &thread_cb, u);
	return p;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	struct unwind_ctx *c = u->cur;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	if (c->n == c->max) {
		c->end = UNWIND_MAX_DEPTH;
		return DWARF_CB_ABORT;
	}
	c->ips[c->n++] = pc;
	return DWARF_CB_OK;
}

int unwinder_unwind(struct unwinder *u, const struct mycl_sample *s, uint64_t *ips, size_t max,
		    size_t *n, enum unwind_end *end)
{
	struct unwind_ctx c = { .s = s, .ips = ips, .max = max, .end = UNWIND_COMPLETE };
	struct uproc *p;
	int rc;

	*n = 0;
	*end = UNWIND_NOT_SUPPORTED;
	if (u->arch == ARCH_UNKNOWN || !s->user_regs_abi || !s->user_stack_size || !s->user_stack ||
	    !sample_sp(u, s, &c.sp))
		return 0;
	p = proc_for(u, s);
	if (!p)
		return -ENOMEM;
	if (!p->attached)
		return 0;
	u->cur = &c;
	rc = dwfl_getthread_frames(p->dwfl, s->tid, frame_cb, u);
	u->cur = NULL;
	if (rc != 0 && c.end == UNWIND_COMPLETE)
		c.end = c.n ? UNWIND_NO_CFI : UNWIND_NOT_SUPPORTED;
	*n = c.n;
	*end = c.end;
	return 0;
}
