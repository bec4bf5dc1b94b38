/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <mycl/perf_data.h>
#include "dso_prefetch.h"
#include "elfimage.h"
#include "inline.h"

enum pf_state {
	PF_PENDING,			/* nobody started it */
	PF_LOADING,			/* the thread is loading it */
	PF_DONE,			/* loaded, not taken yet */
	PF_GONE,			/* taken, or claimed by the reading thread */
};

struct pf_msg {
	enum mycl_print_level level;
	char *text;
};

struct pf_entry {
	const char *path;		/* the header's, lives with the recording */
	uint8_t build_id[20];
	uint8_t build_id_size;
	off_t size;			/* the file's, where the thread finds it first */
	off_t debug_size;		/* its separate debug file's, when inlined frames are wanted */
	enum pf_state state;
	struct dso *copy;
	struct pf_msg *msgs;
	size_t nr_msgs, msgs_cap;
};

struct dso_prefetch {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t done;		/* an entry left PF_LOADING */
	bool stop;
	bool finished;			/* the thread went through the list */
	bool inlines;
	struct sym_opts opts;
	struct pf_entry *v;		/* sorted by path, then build-id */
	size_t nr;
	struct pf_entry *cur;		/* the one being loaded: its messages */
};

static int entry_cmp(const void *a, const void *b)
{
	const struct pf_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->build_id_size != y->build_id_size)
		return x->build_id_size < y->build_id_size ? -1 : 1;
	return memcmp(x->build_id, y->build_id, x->build_id_size);
}

/* The loading's messages, kept to be said when (and if) the binary is taken. */
static void pf_print(enum mycl_print_level level, const char *msg, void *ctx)
{
	struct pf_entry *e = ((struct dso_prefetch *)ctx)->cur;
	char *text;

	if (!e || !(text = strdup(msg)))
		return;
	if (ARRAY_GROW(e->msgs, e->msgs_cap, e->nr_msgs + 1)) {
		free(text);
		return;
	}
	e->msgs[e->nr_msgs++] = (struct pf_msg){ level, text };
}

static int size_cmp(const void *a, const void *b)
{
	const struct pf_entry *x = *(struct pf_entry *const *)a, *y = *(struct pf_entry *const *)b;

	if (x->debug_size != y->debug_size)
		return x->debug_size < y->debug_size ? 1 : -1;
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

/*
 * Files loaded ahead, in bytes of the files: a header that names every
 * binary ever mapped (perf record --buildid-all), not only those with
 * samples, would otherwise have them all loaded and kept until the end.
 */
#define PREFETCH_BYTES (256ULL << 20)

/*
 * The longest loads first: the reading thread wants the first few binaries
 * at once and loads them itself when the thread has not started them, so
 * the thread does best to start with what would keep the reading thread
 * waiting longest.  When inlined frames are wanted (DWARF call graphs) that
 * is a binary with a separate debug file, largest first: its compressed
 * DWARF is inflated as it is opened (libc6-dbg's libc: 10 MB, 40 ms), many
 * times the cost of a symbol table of its size, and the first unwound
 * sample already wants it (every thread starts in libc).  Then, and without
 * inlined frames, the largest files: the large ones cost most.  Sizes of the
 * recorded paths, under --symfs when given (and then only inside it, as
 * dso_load() reads them).
 */
static void *pf_run(void *arg)
{
	struct dso_prefetch *pf = arg;
	struct pf_entry **order = malloc(pf->nr * sizeof(*order));

	for (size_t i = 0; i < pf->nr; i++) {
		struct stat st;
		char *p = dso_symfs_path(&pf->opts, pf->v[i].path);

		pf->v[i].size = p && !stat(p, &st) ? st.st_size : 0;
		free(p);
		if (pf->inlines)
			pf->v[i].debug_size = dso_debug_file_size(&pf->opts, pf->v[i].build_id,
								  pf->v[i].build_id_size);
		if (order)
			order[i] = &pf->v[i];
	}
	if (order)
		sort_array(order, pf->nr, sizeof(*order), size_cmp);
	for (size_t i = 0, bytes = 0; i < pf->nr; i++) {
		struct pf_entry *e = order ? order[i] : &pf->v[i];

		if (bytes + (size_t)e->size > PREFETCH_BYTES)
			continue;	/* left to the reading thread */
		bytes += (size_t)e->size;

		pthread_mutex_lock(&pf->lock);
		if (pf->stop) {
			pthread_mutex_unlock(&pf->lock);
			break;
		}
		if (e->state != PF_PENDING) {
			pthread_mutex_unlock(&pf->lock);
			continue;
		}
		e->state = PF_LOADING;
		pthread_mutex_unlock(&pf->lock);

		e->copy = dso_new(e->path, false);
		if (e->copy) {
			pf->cur = e;
			dso_set_build_id(e->copy, e->build_id, e->build_id_size);
			dso_load(e->copy, &pf->opts);
			if (pf->inlines && e->copy->status == DSO_OK)
				inline_prepare(e->copy);
			pf->cur = NULL;
		}

		pthread_mutex_lock(&pf->lock);
		e->state = PF_DONE;
		pthread_cond_broadcast(&pf->done);
		pthread_mutex_unlock(&pf->lock);
	}
	free(order);
	pthread_mutex_lock(&pf->lock);
	pf->finished = true;
	pthread_cond_broadcast(&pf->done);
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

struct dso_prefetch *dso_prefetch_start(const struct mycl_build_id *ids, size_t nr,
					const struct sym_opts *o, bool inlines)
{
	struct dso_prefetch *pf = calloc(1, sizeof(*pf));
	size_t n = 0;

	if (!pf)
		return NULL;
	pf->v = calloc(nr ? nr : 1, sizeof(*pf->v));
	if (!pf->v) {
		free(pf);
		return NULL;
	}
	/* User-space files with a build-id; the kernel's are machine.c's. */
	for (size_t i = 0; i < nr; i++) {
		const struct mycl_build_id *b = &ids[i];

		if (!b->filename || b->filename[0] != '/' || !b->size || b->size > 20 ||
		    b->pid != -1)
			continue;
		pf->v[n].path = b->filename;
		memcpy(pf->v[n].build_id, b->id, b->size);
		pf->v[n].build_id_size = b->size;
		n++;
	}
	sort_array(pf->v, n, sizeof(*pf->v), entry_cmp);
	/* (the same file twice: once; a look-up must find the one entry) */
	for (size_t i = 0; i < n; i++)
		if (!pf->nr || entry_cmp(&pf->v[pf->nr - 1], &pf->v[i]))
			pf->v[pf->nr++] = pf->v[i];
	pf->inlines = inlines;
	pf->opts = *o;
	pf->opts.log = (struct logger){ pf_print, pf };
	pf->opts.prefetch_kernel = false;
	if (!n || pthread_mutex_init(&pf->lock, NULL)) {
		free(pf->v);
		free(pf);
		return NULL;
	}
	pthread_cond_init(&pf->done, NULL);
	/*
	 * libelf's one global, its version, set here before the thread starts.
	 * (The unwinder's dwfl_begin() sets it again, to the same value, on the
	 * reading thread: the only sharing helgrind reports.)
	 */
	elf_library_init();
	if (pthread_create(&pf->tid, NULL, pf_run, pf)) {
		pthread_cond_destroy(&pf->done);
		pthread_mutex_destroy(&pf->lock);
		free(pf->v);
		free(pf);
		return NULL;
	}
	return pf;
}

static struct pf_entry *find(struct dso_prefetch *pf, const struct dso *d)
{
	struct pf_entry key = { .path = d->path, .build_id_size = d->build_id_size };

	memcpy(key.build_id, d->build_id, d->build_id_size);
	return bsearch(&key, pf->v, pf->nr, sizeof(*pf->v), entry_cmp);
}

static bool take(struct dso_prefetch *pf, struct dso *d, const struct logger *log, bool ready_only)
{
	struct pf_entry *e;
	bool got;

	if (!pf || d->kernel || d->status != DSO_PENDING || !d->build_id_size ||
	    !(e = find(pf, d)))
		return false;
	pthread_mutex_lock(&pf->lock);
	if (ready_only && e->state != PF_DONE) {
		pthread_mutex_unlock(&pf->lock);
		return false;
	}
	while (e->state == PF_LOADING)
		pthread_cond_wait(&pf->done, &pf->lock);
	got = e->state == PF_DONE && e->copy;
	e->state = PF_GONE;
	pthread_mutex_unlock(&pf->lock);
	if (!got)
		return false;
	for (size_t i = 0; i < e->nr_msgs; i++)
		mycl_log(log, e->msgs[i].level, "%s", e->msgs[i].text);
	dso_take_loaded(d, e->copy);
	return true;
}

bool dso_prefetch_take(struct dso_prefetch *pf, struct dso *d, const struct logger *log)
{
	return take(pf, d, log, false);
}

bool dso_prefetch_take_ready(struct dso_prefetch *pf, struct dso *d, const struct logger *log)
{
	return take(pf, d, log, true);
}

void dso_prefetch_wait(struct dso_prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	while (!pf->finished)
		pthread_cond_wait(&pf->done, &pf->lock);
	pthread_mutex_unlock(&pf->lock);
}

void dso_prefetch_end(struct dso_prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_mutex_unlock(&pf->lock);
	pthread_join(pf->tid, NULL);
	for (size_t i = 0; i < pf->nr; i++) {
		dso_free(pf->v[i].copy);
		for (size_t k = 0; k < pf->v[i].nr_msgs; k++)
			free(pf->v[i].msgs[k].text);
		free(pf->v[i].msgs);
	}
	pthread_cond_destroy(&pf->done);
	pthread_mutex_destroy(&pf->lock);
	free(pf->v);
	free(pf);
}
