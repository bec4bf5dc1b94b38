/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dso_prefetch.h"
#include "itable.h"
#include "perf_abi.h"
#include "machine.h"

/* Interned strings: one copy of each, found by its text. */
struct strpool {
	char **strs;
	size_t nr, cap;
	struct itable index;
};

/* Indices 0..nr-1 into an array by the hash of a name: equal names share a run. */
struct nameidx {
	struct itable index;
	size_t nr;
};

struct machine {
	struct sym_opts opts;
	const struct mycl_perf_info *info;
	struct strpool strs;
	struct thread **threads;	/* the latest of each tid, found through threads_index */
	size_t threads_cap, nr_threads;
	struct itable threads_index;
	struct dso **dsos;
	size_t nr_dsos, dsos_cap;
	struct nameidx dso_paths;	/* dsos by path */
	struct nameidx bid_names;	/* the header's build-ids by file name */
	size_t nr_bids_indexed;
	struct maps kmaps;		/* kernel and modules */
	struct dso *kernel;
	uint64_t kernel_pgoff;		/* runtime _text from the kernel MMAP */
	struct map kernel_mark;		/* the kernel's last MMAP record */
	bool kernel_empty;		/* ... was empty: the kernel reaches up from its start */
	struct symtab dyn_ksyms;	/* KSYMBOL records (BPF, trampolines) */
	struct thread *recent[4];	/* look-up cache, replaced round-robin */
	unsigned int recent_next;
	struct rslot *rcache;		/* RCACHE_SIZE resolutions, direct-mapped by ip */
	uint32_t generation;
	uint32_t kernel_version;	/* moves with the kernel's maps and dynamic symbols */
	bool dyn_sorted;
	struct kprefetch *kp;		/* the kernel's symbols being read (opts.prefetch_kernel) */
	struct dso_prefetch *up;	/* the header's user-space binaries being loaded */
};

/*
 * The kernel's symbols read on a thread from the kernel's map on, into a copy
 * of its dso: taken, with the messages the reading logged, when the first
 * kernel sample wants them (where they would have been read); dropped, and
 * the messages with them, when none does.
 */
struct kprefetch {
	pthread_t tid;
	struct dso *copy;
	struct sym_opts opts;
	struct kmsg {
		enum mycl_print_level level;
		char *text;
	} *msgs;
	size_t nr_msgs, msgs_cap;
};

/*
 * A resolution (address space, ip) -> (dso, symbol, address), valid while
 * the machine's generation is the one it was made under.  Samples repeat
 * the same few thousand ips: this skips the thread's map search, the
 * offset translation and the symbol search for nearly all of them.
 */
#define RCACHE_BITS 12
#define RCACHE_SIZE (1u << RCACHE_BITS)
struct rslot {
	uint64_t ip;
	const struct maps *maps;	/* the thread's, or the kernel's */
	uint32_t gen;
	uint8_t cpumode;
	bool valid;
	struct dso *dso;
	const struct sym *sym;
	uint64_t addr;
};

static bool str_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = str_hash(((const struct strpool *)ctx)->strs[i]);
	return true;
}

const char *machine_intern(struct machine *m, const char *s)
{
	struct strpool *p = &m->strs;
	size_t h;

	if (itable_full(&p->index, p->nr) && itable_grow(&p->index, p->nr, 256, str_hash_at, p))
		return NULL;
	itable_each(&p->index, str_hash(s), h)
		if (!strcmp(p->strs[p->index.slot[h]], s))
			return p->strs[p->index.slot[h]];
	if (ARRAY_GROW(p->strs, p->cap, p->nr + 1) || !(p->strs[p->nr] = strdup(s)))
		return NULL;
	itable_put(&p->index, h, p->nr);
	return p->strs[p->nr++];
}

const char *machine_intern_ctx(void *m, const char *s)
{
	return machine_intern(m, s);
}

const struct sym_opts *machine_opts(const struct machine *m)
{
	return &m->opts;
}

struct machine *machine_new(const struct sym_opts *o, const struct mycl_perf_info *info)
{
	struct machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->rcache = calloc(RCACHE_SIZE, sizeof(*m->rcache));
	if (!m->rcache) {
		free(m);
		return NULL;
	}
	m->opts = *o;
	m->info = info;
	m->kmaps.refcnt = 1;
	return m;
}

static void kernel_prefetch_end(struct machine *m, bool use);

void machine_free(struct machine *m)
{
	if (!m)
		return;
	kernel_prefetch_end(m, false);
	dso_prefetch_end(m->up);
	for (size_t i = 0; i < m->nr_threads; i++) {
		if (!m->threads[i])
			continue;
		maps_put(m->threads[i]->maps);
		free(m->threads[i]);
	}
	free(m->threads);
	for (size_t i = 0; i < m->nr_dsos; i++)
		dso_free(m->dsos[i]);
	free(m->dsos);
	itable_free(&m->threads_index);
	itable_free(&m->dso_paths.index);
	itable_free(&m->bid_names.index);
	maps_clear(&m->kmaps);
	symtab_free(&m->dyn_ksyms);
	for (size_t i = 0; i < m->strs.nr; i++)
		free(m->strs.strs[i]);
	free(m->strs.strs);
	itable_free(&m->strs.index);
	free(m->rcache);
	free(m);
}

size_t machine_nr_dsos(const struct machine *m)
{
	return m->nr_dsos;
}

struct dso *machine_dso(const struct machine *m, size_t i)
{
	return i < m->nr_dsos ? m->dsos[i] : NULL;
}

/* ---- DSOs ---- */

/* A name's hash in a nameidx. */
static uint64_t nameidx_hash(uint64_t h)
{
	return h ^ h >> 29;
}

struct nameidx_ctx {
	const char *(*name_of)(const struct machine *m, size_t i);
	const struct machine *m;
};

static bool nameidx_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	const struct nameidx_ctx *c = ctx;

	*h = nameidx_hash(str_hash(c->name_of(c->m, i)));
	return true;
}

/* Adds index I (the next: X->nr) under HASH; NAME_OF gives an entry's name to rehash. */
static int nameidx_add(struct nameidx *x, uint64_t hash, size_t i,
		       const char *(*name_of)(const struct machine *m, size_t i), const struct machine *m)
{
	struct nameidx_ctx c = { name_of, m };
	size_t h;

	if (itable_full(&x->index, x->nr) && itable_grow(&x->index, x->nr, 64, nameidx_hash_at, &c))
		return -ENOMEM;
	itable_each(&x->index, nameidx_hash(hash), h)
		;
	itable_put(&x->index, h, i);
	x->nr++;
	return 0;
}

static const char *dso_path_of(const struct machine *m, size_t i)
{
	return m->dsos[i]->path;
}

static const char *bid_name_of(const struct machine *m, size_t i)
{
	return m->info->build_ids[i].filename;
}

static struct dso *find_dso(struct machine *m, const char *path, bool kernel,
			    const uint8_t *bid, uint8_t bid_size)
{
	const struct nameidx *x = &m->dso_paths;
	uint64_t hash = str_hash(path);
	struct dso *d, *found = NULL;
	size_t h, last = 0;

	/* The latest one of that path and kind whose build-id does not say it is another binary. */
	if (x->index.cap)
		itable_each(&x->index, nameidx_hash(hash), h) {
			size_t i = x->index.slot[h] + 1;

			d = m->dsos[i - 1];
			if (i <= last || d->kernel != kernel || strcmp(d->path, path))
				continue;
			if (bid_size && d->build_id_size &&
			    (bid_size != d->build_id_size || memcmp(bid, d->build_id, bid_size)))
				continue;	/* same path, another binary (rebuilt while recording) */
			found = d;
			last = i;
		}
	if (found)
		return found;
	if (ARRAY_GROW(m->dsos, m->dsos_cap, m->nr_dsos + 1))
		return NULL;
	d = dso_new(path, kernel);
	if (!d)
		return NULL;
	if (bid_size)
		dso_set_build_id(d, bid, bid_size);
	m->dsos[m->nr_dsos] = d;
	if (nameidx_add(&m->dso_paths, hash, m->nr_dsos, dso_path_of, m)) {
		dso_free(d);
		return NULL;
	}
	m->nr_dsos++;
	return d;
}

/*
 * The build-id the header recorded for D's file.  Looked up when symbols are
 * first needed: in pipe mode the build-ids arrive after the maps.
 */
static void attach_header_build_id(struct machine *m, struct dso *d)
{
	const struct nameidx *x = &m->bid_names;
	const struct mycl_build_id *first = NULL;
	uint64_t hash;
	size_t h;

	if (d->build_id_size || d->status != DSO_PENDING)
		return;
	/* Indexed as they come: in pipe mode they arrive with the records. */
	for (; m->nr_bids_indexed < m->info->nr_build_ids; m->nr_bids_indexed++) {
		hash = str_hash(m->info->build_ids[m->nr_bids_indexed].filename);
		if (nameidx_add(&m->bid_names, hash, m->nr_bids_indexed, bid_name_of, m))
			return;
	}
	/* The first one for its file, or for a kernel's, the first of the host's kernel. */
	for (int pass = 0; pass < 2; pass++) {
		const char *name = pass ? "[kernel.kallsyms]" : d->path;

		if (pass && (!d->kernel || strncmp(d->path, name, 17)))
			break;
		hash = str_hash(name);
		if (x->index.cap)
			itable_each(&x->index, nameidx_hash(hash), h) {
				const struct mycl_build_id *b = &m->info->build_ids[x->index.slot[h]];

				if ((!first || b < first) && !strcmp(b->filename, name) &&
				    (!pass || b->pid == -1))
					first = b;
			}
	}
	if (first)
		dso_set_build_id(d, first->id, first->size);
}

static void kp_print(enum mycl_print_level level, const char *msg, void *ctx)
{
	struct kprefetch *kp = ctx;
	char *text = strdup(msg);

	if (!text || ARRAY_GROW(kp->msgs, kp->msgs_cap, kp->nr_msgs + 1)) {
		free(text);
		return;
	}
	kp->msgs[kp->nr_msgs++] = (struct kmsg){ level, text };
}

static void *kp_run(void *arg)
{
	struct kprefetch *kp = arg;

	dso_load(kp->copy, &kp->opts);
	return NULL;
}

/* What load_dso() does before dso_load(). */
static void prepare_load(struct machine *m, struct dso *d)
{
	attach_header_build_id(m, d);
	if (d->kernel && d == m->kernel && !m->opts.kernel_build_id && d->build_id_size) {
		m->opts.kernel_build_id = d->build_id;
		m->opts.kernel_build_id_size = d->build_id_size;
	}
}

static struct dso *kernel_dso(struct machine *m);

static void kernel_prefetch(struct machine *m, struct dso *d)
{
	struct kprefetch *kp;

	if (!m->opts.prefetch_kernel || m->kp || d != m->kernel || d->status != DSO_PENDING ||
	    m->opts.archive || !m->info || m->info->pipe_mode)
		return;
	m->opts.prefetch_kernel = false;	/* once */
	prepare_load(m, d);
	kp = calloc(1, sizeof(*kp));
	if (!kp || !(kp->copy = dso_new(d->path, true))) {
		free(kp);
		return;
	}
	if (d->build_id_size)
		dso_set_build_id(kp->copy, d->build_id, d->build_id_size);
	kp->opts = m->opts;
	kp->opts.log = (struct logger){ kp_print, kp };
	if (pthread_create(&kp->tid, NULL, kp_run, kp)) {
		dso_free(kp->copy);
		free(kp);
		return;
	}
	m->kp = kp;
}

void machine_prefetch_kernel(struct machine *m)
{
	if (m->opts.kernel_build_id_size)
		kernel_prefetch(m, kernel_dso(m));
}

/* USE: the kernel's symbols and the reading's messages are wanted; else dropped. */
static void kernel_prefetch_end(struct machine *m, bool use)
{
	struct kprefetch *kp = m->kp;

	if (!kp)
		return;
	m->kp = NULL;
	pthread_join(kp->tid, NULL);
	for (size_t i = 0; i < kp->nr_msgs; i++) {
		if (use)
			mycl_log(&m->opts.log, kp->msgs[i].level, "%s", kp->msgs[i].text);
		free(kp->msgs[i].text);
	}
	if (use)
		dso_take_loaded(m->kernel, kp->copy);
	dso_free(kp->copy);
	free(kp->msgs);
	free(kp);
}

void machine_prefetch_dsos(struct machine *m, bool inlines)
{
	if (m->up || m->opts.archive || !m->info || m->info->pipe_mode || !m->info->nr_build_ids)
		return;
	m->up = dso_prefetch_start(m->info->build_ids, m->info->nr_build_ids, &m->opts, inlines);
}

void machine_settle(struct machine *m)
{
	if (!m)
		return;
	kernel_prefetch_end(m, false);
	dso_prefetch_end(m->up);
	m->up = NULL;
}

static void load_dso(struct machine *m, struct dso *d)
{
	if (m->kp && d == m->kernel)
		kernel_prefetch_end(m, true);
	if (d->status != DSO_PENDING)
		return;
	prepare_load(m, d);
	if (!dso_prefetch_take(m->up, d, &m->opts.log))
		dso_load(d, &m->opts);
}

void machine_load(struct machine *m, struct dso *d)
{
	load_dso(m, d);
}

static struct dso *kernel_dso(struct machine *m)
{
	if (!m->kernel)
		m->kernel = find_dso(m, "[kernel.kallsyms]", true, NULL, 0);
	return m->kernel;
}

/* ---- maps ---- */

/* ---- threads ---- */

static uint64_t tid_hash(int32_t tid)
{
	return (uint32_t)tid * 2654435761u;
}

static bool thread_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	*h = tid_hash(((const struct machine *)ctx)->threads[i]->tid);
	return true;
}

static struct thread *thread_lookup(struct machine *m, int32_t tid)
{
	size_t h;

	if (!m->threads_index.cap)
		return NULL;
	itable_each(&m->threads_index, tid_hash(tid), h)
		if (m->threads[m->threads_index.slot[h]]->tid == tid)
			return m->threads[m->threads_index.slot[h]];
	return NULL;
}

/* T as the thread of its tid, in place of the one before. */
static int thread_store(struct machine *m, struct thread *t)
{
	size_t h;

	if (itable_full(&m->threads_index, m->nr_threads) &&
	    itable_grow(&m->threads_index, m->nr_threads, 256, thread_hash_at, m))
		return -ENOMEM;
	itable_each(&m->threads_index, tid_hash(t->tid), h)
		if (m->threads[m->threads_index.slot[h]]->tid == t->tid) {
			m->threads[m->threads_index.slot[h]] = t;
			return 0;
		}
	if (ARRAY_GROW(m->threads, m->threads_cap, m->nr_threads + 1))
		return -ENOMEM;
	m->threads[m->nr_threads] = t;
	itable_put(&m->threads_index, h, m->nr_threads++);
	return 0;
}

static struct thread *thread_create(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = calloc(1, sizeof(*t));
	char name[32];

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	if (tid == 0) {
		t->comm = machine_intern(m, "swapper");
		t->comm_set = true;
	} else {
		snprintf(name, sizeof(name), ":%d", tid);
		t->comm = machine_intern(m, name);
	}
	if (pid >= 0 && pid != tid) {
		struct thread *leader = machine_thread(m, pid, pid);

		if (leader && leader->maps) {
			t->maps = leader->maps;
			t->maps->refcnt++;
		}
	}
	if (!t->maps)
		t->maps = maps_new();
	if (!t->comm || !t->maps || thread_store(m, t)) {
		maps_put(t->maps);
		free(t);
		return NULL;
	}
	return t;
}

struct thread *machine_thread(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t;

	if (tid < 0)
		tid = pid;
	/* Samples come from a few threads at a time (one per CPU). */
	for (size_t i = 0; i < ARRAY_SIZE(m->recent); i++) {
		t = m->recent[i];
		if (t && t->tid == tid && t->pid == pid)
			return t;
	}
	t = thread_lookup(m, tid);
	if (t && t->pid == pid)
		m->recent[m->recent_next++ % ARRAY_SIZE(m->recent)] = t;
	if (t) {
		if (t->pid < 0 && pid >= 0)
			t->pid = pid;
		return t;
	}
	return thread_create(m, pid, tid);
}

/* ---- records ---- */

int machine_mmap(struct machine *m, const struct mycl_mmap *ev)
{
	bool kernel = (ev->misc & MISC_CPUMODE_MASK) == 1 /* KERNEL */ || ev->pid == -1;
	struct map nm = { .start = ev->start, .end = ev->start + ev->len, .pgoff = ev->pgoff };
	struct thread *t;
	char anon[64];
	const char *path = ev->filename;

	if (ev->misc & MISC_MMAP_DATA)
		return 0;
	m->generation++;
	if (nm.end < nm.start)
		nm.end = UINT64_MAX;
	if (kernel) {
		bool is_kernel = !strncmp(path, "[kernel.kallsyms]", 17) || !strcmp(path, "[kernel]");

		nm.dso = is_kernel ? kernel_dso(m) : find_dso(m, path, true, NULL, 0);
		if (!nm.dso)
			return -ENOMEM;
		if (is_kernel) {
			m->kernel_pgoff = ev->pgoff;
			kernel_prefetch(m, nm.dso);
			/* Kept aside: an empty map holds no address. */
			m->kernel_empty = nm.start == nm.end;
			m->kernel_mark = nm;
		}
		m->kernel_version++;
		/* A module's empty record maps nothing (the kernel's stands for all of it). */
		return maps_insert(&m->kmaps, &nm);
	}
	t = machine_thread(m, ev->pid, ev->tid);
	if (!t)
		return -ENOMEM;
	if (!strncmp(path, "//anon", 6) || !strncmp(path, "/dev/zero", 9) ||
	    !strncmp(path, "/anon_hugepage", 14)) {
		/* JIT code: perf looks for /tmp/perf-PID.map. */
		snprintf(anon, sizeof(anon), "/tmp/perf-%d.map", ev->pid);
		path = anon;
	}
	nm.dso = find_dso(m, path, false, ev->build_id, ev->build_id_size);
	if (!nm.dso)
		return -ENOMEM;
	if (path == anon)
		nm.dso->identity = true;
	return maps_insert(t->maps, &nm);
}

int machine_comm(struct machine *m, const struct mycl_comm *ev)
{
	struct thread *t = machine_thread(m, ev->pid, ev->tid);

	if (!t)
		return -ENOMEM;
	if (str_has_ctl(ev->comm, strlen(ev->comm))) {
		/* The thread's name as shown: control characters escaped. */
		char *esc = str_escape_ctl(ev->comm, strlen(ev->comm));

		t->comm = esc ? machine_intern(m, esc) : NULL;
		free(esc);
	} else {
		t->comm = machine_intern(m, ev->comm);
	}
	t->comm_set = true;
	return t->comm ? 0 : -ENOMEM;
}

int machine_fork(struct machine *m, const struct mycl_task *ev)
{
	struct thread *parent, *child;
	struct maps *pm;

	if (ev->pid == ev->ppid && ev->tid == ev->ptid)
		return 0;
	m->generation++;
	parent = machine_thread(m, ev->ppid, ev->ptid);
	if (!parent)
		return -ENOMEM;
	/* Held across the child's reset: a corrupt FORK may name the parent as its child. */
	pm = parent->maps;
	pm->refcnt++;
	child = thread_lookup(m, ev->tid);
	if (!child) {
		child = calloc(1, sizeof(*child));
		if (child)
			child->tid = ev->tid;
		if (!child || thread_store(m, child)) {
			free(child);
			maps_put(pm);
			return -ENOMEM;
		}
	} else {
		maps_put(child->maps);
	}
	child->pid = ev->pid;
	child->comm = parent->comm;
	child->comm_set = parent->comm_set;
	if (ev->pid == ev->ppid) {
		child->maps = pm;
		return 0;
	}
	child->maps = maps_clone(pm);
	maps_put(pm);
	return child->maps ? 0 : -ENOMEM;
}

int machine_ksymbol(struct machine *m, const struct mycl_ksymbol *ev)
{
	if (ev->flags & 1)
		return 0;	/* unregistration: keep the name for samples before it */
	m->dyn_sorted = false;
	m->generation++;	/* the table may move: cached symbols go stale */
	m->kernel_version++;
	return symtab_add(&m->dyn_ksyms, ev->addr, ev->len, ev->name, SYMB_GLOBAL, false);
}

static const struct sym *dyn_ksym(struct machine *m, uint64_t ip)
{
	if (!m->dyn_ksyms.nr)
		return NULL;
	if (!m->dyn_sorted) {
		symtab_finish(&m->dyn_ksyms, 0);
		m->dyn_sorted = true;
	}
	return symtab_find(&m->dyn_ksyms, ip);
}

static const struct sym *kernel_sym(struct machine *m, uint64_t ip)
{
	struct dso *k = kernel_dso(m);
	const struct sym *s = NULL;

	if (!k)
		return NULL;
	load_dso(m, k);
	if (k->status == DSO_OK) {
		uint64_t addr = ip;

		if (m->kernel_pgoff && k->kernel_text)
			addr = ip - (m->kernel_pgoff - k->kernel_text);
		s = symtab_find(&k->syms, addr);
	}
	if (!s)
		s = dyn_ksym(m, ip);
	return s;
}

/*
 * A BPF program or trampoline a KSYMBOL record named, outside every map (they
 * live among the modules): shown as perf does, a binary of its own name.
 */
static bool ksymbol_at(struct machine *m, uint64_t ip, struct resolved *r)
{
	const struct sym *s = dyn_ksym(m, ip);
	struct dso *d;

	if (!s || !(d = find_dso(m, s->name, true, NULL, 0)))
		return false;
	if (d->status == DSO_PENDING) {
		d->status = DSO_OK;
		d->sym_path = strdup("the recording's KSYMBOL records");
	}
	r->dso = d;
	r->sym = s;
	return true;
}

/*
 * The kernel's MMAP record covers its text only (_text to _etext); init text,
 * freed after boot but still where the boot CPU's idle stack returns to, lies
 * above it.  As perf does, the kernel's map reaches up to the next map (a
 * module's); an empty record (simpleperf writes the kernel's as 0 bytes at 0,
 * and the modules' too: those are not kept) stands for the whole kernel.  The
 * kernel's map if it is the nearest below IP; NULL if a module's is.
 */
static const struct map *kernel_reaching(const struct machine *m, uint64_t ip)
{
	const struct map *map = maps_below(&m->kmaps, ip);

	if (map && map->dso == m->kernel)
		return map;
	if (m->kernel_empty && m->kernel_mark.start <= ip && (!map || map->start < m->kernel_mark.start))
		return &m->kernel_mark;
	return NULL;
}

static void resolve_map(struct machine *m, uint64_t ip, enum mycl_cpumode cpumode,
			struct resolved *r)
{
	const struct map *map;

	if (cpumode == MYCL_CPUMODE_KERNEL) {
		map = maps_find(&m->kmaps, ip);
		if (!map && ksymbol_at(m, ip, r))
			return;
		if (!map)
			map = kernel_reaching(m, ip);
		r->dso = map ? map->dso : (m->kmaps.nr || m->kernel_empty ? NULL : kernel_dso(m));
		if (r->dso) {
			r->sym = kernel_sym(m, ip);
			if (r->dso != m->kernel)
				load_dso(m, r->dso);
		}
		return;
	}
	map = maps_find(r->thread->maps, ip);
	if (!map)
		return;
	r->dso = map->dso;
	load_dso(m, r->dso);
	if (r->dso->identity) {
		r->sym = symtab_find(&r->dso->syms, ip);
		return;
	}
	r->addr = ip - map->start + map->pgoff;
	if (r->dso->status == DSO_OK)
		r->sym = symtab_find(&r->dso->syms, dso_offset_to_vaddr(r->dso, r->addr));
}

int machine_resolve(struct machine *m, int32_t pid, int32_t tid, uint64_t ip,
		    enum mycl_cpumode cpumode, struct resolved *r)
{
	static const char levels[] = { '.', 'k', '.', 'H', 'g', 'u', '.', '.' };
	const struct maps *ms;
	struct rslot *sl;

	r->thread = machine_thread(m, pid, tid);
	if (!r->thread)
		return -ENOMEM;
	r->level = levels[cpumode & 7];
	r->addr = ip;
	r->dso = NULL;
	r->sym = NULL;
	if (cpumode != MYCL_CPUMODE_KERNEL && cpumode != MYCL_CPUMODE_USER)
		return 0;
	ms = cpumode == MYCL_CPUMODE_KERNEL ? &m->kmaps : r->thread->maps;
	sl = &m->rcache[((ip ^ ip >> 12) * 0x9E3779B97F4A7C15ULL ^ (uintptr_t)ms) >> (64 - RCACHE_BITS) &
			(RCACHE_SIZE - 1)];
	if (sl->valid && sl->ip == ip && sl->maps == ms && sl->gen == m->generation &&
	    sl->cpumode == cpumode) {
		r->dso = sl->dso;
		r->sym = sl->sym;
		r->addr = sl->addr;
		return 0;
	}
	resolve_map(m, ip, cpumode, r);
	*sl = (struct rslot){ .ip = ip, .maps = ms, .gen = m->generation, .cpumode = (uint8_t)cpumode,
			      .valid = true, .dso = r->dso, .sym = r->sym, .addr = r->addr };
	return 0;
}

uint32_t machine_generation(const struct machine *m)
{
	return m->generation;
}

uint64_t machine_chain_version(struct machine *m, int32_t pid, int32_t tid)
{
	return machine_maps_stamp(m, pid, tid) << 24 | (m->kernel_version & 0xffffff);
}

uint64_t machine_maps_stamp(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = machine_thread(m, pid, tid);

	return t ? t->maps->stamp : 0;
}

int machine_for_each_map(struct machine *m, int32_t pid, int32_t tid,
			 int (*fn)(const struct map *mp, void *arg), void *arg)
{
	struct thread *t = machine_thread(m, pid, tid);
	struct maps_iter it = { 0 };
	const struct map *mp;

	if (!t)
		return -ENOMEM;
	while ((mp = maps_next(t->maps, &it))) {
		struct dso *d = mp->dso;
		int err;

		/* Located only: most mapped binaries have no sample; their symbols load when one does. */
		if (d && d->status == DSO_PENDING && !d->kernel) {
			prepare_load(m, d);
			if (!dso_prefetch_take_ready(m->up, d, &m->opts.log))
				dso_locate(d, &m->opts);
		}
		err = fn(mp, arg);
		if (err)
			return err;
	}
	return 0;
}

int machine_data_at(struct machine *m, int32_t pid, int32_t tid, uint64_t addr, struct dso **dso,
		    uint64_t *vaddr)
{
	struct thread *t = machine_thread(m, pid, tid);
	const struct map *mp = t ? maps_below(t->maps, addr) : NULL;
	struct dso *d = mp ? mp->dso : NULL;
	uint64_t v;

	/*
	 * Only code is mapped here (perf's data mappings are left out): a
	 * binary's data and bss lie above its code, nearer than any other
	 * binary's.
	 */
	if (!d || d->kernel || d->identity)
		return -ENOENT;
	if (addr < mp->end)
		return 1;	/* code: a fault fetching the instruction */
	load_dso(m, d);
	if (!d->data_syms.nr)
		return -ENOENT;
	v = addr - dso_map_bias(d, mp->start, mp->pgoff);
	if (!symtab_find(&d->data_syms, v))
		return -ENOENT;
	*dso = d;
	*vaddr = v;
	return 0;
}

char *machine_data_symbol(struct machine *m, int32_t pid, int32_t tid, uint64_t addr)
{
	struct dso *d;
	const struct sym *s;
	uint64_t v;
	char *out = NULL;

	if (machine_data_at(m, pid, tid, addr, &d, &v) || !(s = symtab_find(&d->data_syms, v)))
		return NULL;
	if ((v == s->start ? asprintf(&out, "%s (%s)", s->name, d->short_name) :
	     asprintf(&out, "%s+0x%" PRIx64 " (%s)", s->name, v - s->start, d->short_name)) < 0)
		out = NULL;
	return out;
}
