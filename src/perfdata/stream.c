/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Filling the reader's window (stream.h): plain reads, or a read-ahead
 * thread that pread()s a regular file into a ring mapped twice in a row.
 *
 * The ring's protocol: the thread owns file offsets [filled, released + cap),
 * the caller owns [released, filled).  Each side publishes its offset with a
 * sequentially consistent store, then wakes the other if it sleeps.  A side
 * spins briefly before it sleeps: the other CPU usually answers within a few
 * microseconds.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mycl/tuning.h"
#include "mycl/perf_data.h"
#include "internal.h"
#include "stream.h"

#define STREAM_BUF (4u << 20)
#define READ_CHUNK (256u << 10)
#define RING_MIN (8u << 20)
#define AHEAD_CHUNK (512u << 10)
#define AHEAD_MIN_DATA (4u << 20)	/* below this a thread does not pay */
#define SPINS 512

enum ahead_state { AHEAD_RUNNING, AHEAD_EOF, AHEAD_ERROR };

struct stream_ahead {
	uint8_t *base;			/* cap bytes, mapped twice in a row */
	size_t cap;
	int fd;
	uint64_t limit;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	_Atomic uint64_t filled;	/* file offset read up to */
	_Atomic uint64_t released;	/* bytes before this offset may be overwritten */
	_Atomic int state;
	_Atomic bool stop;
	_Atomic int sleepers;		/* threads blocked, or about to block, on cond */
	int err;			/* -errno once state is AHEAD_ERROR */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* CAP bytes of shared memory mapped at base and again at base + CAP. */
static uint8_t *ring_map(size_t cap)
{
	uint8_t *base;
	int fd = memfd_create("mycl-read-ahead", MFD_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)cap) < 0) {
		close(fd);
		return NULL;
	}
	base = mmap(NULL, 2 * cap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	if (mmap(base, cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	    mmap(base + cap, cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    MAP_FAILED) {
		munmap(base, 2 * cap);
		close(fd);
		return NULL;
	}
	close(fd);
	return base;
}

static void ahead_wake(struct stream_ahead *ra)
{
	if (atomic_load(&ra->sleepers)) {
		pthread_mutex_lock(&ra->lock);
		pthread_cond_broadcast(&ra->cond);
		pthread_mutex_unlock(&ra->lock);
	}
}

/* Waits until READY(ra, arg). */
static void ahead_wait(struct stream_ahead *ra, bool (*ready)(struct stream_ahead *, uint64_t),
		       uint64_t arg)
{
	for (int i = 0; i < SPINS; i++) {
		if (ready(ra, arg))
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&ra->lock);
	atomic_fetch_add(&ra->sleepers, 1);
	while (!ready(ra, arg))
		pthread_cond_wait(&ra->cond, &ra->lock);
	atomic_fetch_sub(&ra->sleepers, 1);
	pthread_mutex_unlock(&ra->lock);
}

static bool room_at(struct stream_ahead *ra, uint64_t pos)
{
	return atomic_load(&ra->stop) || atomic_load(&ra->released) + ra->cap > pos;
}

static bool filled_to(struct stream_ahead *ra, uint64_t want)
{
	return atomic_load(&ra->filled) >= want || atomic_load(&ra->state) != AHEAD_RUNNING;
}

static void ahead_finish(struct stream_ahead *ra, int state, int err)
{
	ra->err = err;
	atomic_store(&ra->state, state);
	ahead_wake(ra);
}

static void *ahead_main(void *arg)
{
	struct stream_ahead *ra = arg;
	uint64_t pos = atomic_load(&ra->filled);

	for (;;) {
		uint64_t n;
		ssize_t r;

		if (pos >= ra->limit) {
			ahead_finish(ra, AHEAD_EOF, 0);
			break;
		}
		ahead_wait(ra, room_at, pos);
		if (atomic_load(&ra->stop))
			break;
		n = atomic_load(&ra->released) + ra->cap - pos;
		if (n > AHEAD_CHUNK)
			n = AHEAD_CHUNK;
		if (n > ra->limit - pos)
			n = ra->limit - pos;
		r = pread(ra->fd, ra->base + pos % ra->cap, (size_t)n, (off_t)pos);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ahead_finish(ra, AHEAD_ERROR, -errno);
			break;
		}
		if (r == 0) {
			ahead_finish(ra, AHEAD_EOF, 0);
			break;
		}
		pos += (uint64_t)r;
		atomic_store(&ra->filled, pos);
		ahead_wake(ra);
	}
	return NULL;
}

static int ahead_start(struct stream_ahead *ra)
{
	sigset_t all, old;
	int err;

	/* Signals stay with the caller's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	atomic_store(&ra->stop, false);
	err = pthread_create(&ra->thread, NULL, ahead_main, ra);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	ra->started = true;
	return 0;
}

static void ahead_stop(struct stream_ahead *ra)
{
	if (!ra->started)
		return;
	atomic_store(&ra->stop, true);
	pthread_mutex_lock(&ra->lock);
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	ra->started = false;
}

static void ahead_free(struct stream_ahead *ra)
{
	ahead_stop(ra);
	munmap(ra->base, 2 * ra->cap);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->cond);
	free(ra);
}

/* Whether a thread pays for ST read in MODE (read_ahead_mode()'s answer). */
static bool ahead_pays(const struct stream *st, int mode)
{
	struct stat sb;
	uint64_t end;

	if (mode == MYCL_READ_AHEAD_ON)
		return true;
	if (fstat(st->fd, &sb) < 0)
		return false;
	end = (uint64_t)sb.st_size < st->limit ? (uint64_t)sb.st_size : st->limit;
	if (end < st->off || end - st->off < AHEAD_MIN_DATA)
		return false;
	return cpus_available() > 1;
}

/* The read_ahead switch (mycl_tuning__set) decides for AUTO (tests and measurements). */
static int read_ahead_mode(int asked)
{
	int sw = tuning_get()->read_ahead;

	if (asked != MYCL_READ_AHEAD_AUTO)
		return asked;
	return sw == MYCL_SWITCH_ON ? MYCL_READ_AHEAD_ON :
	       sw == MYCL_SWITCH_OFF ? MYCL_READ_AHEAD_OFF : asked;
}

bool stream_reads_ahead(const struct stream *st)
{
	int mode = read_ahead_mode(st->read_ahead);

	return mode != MYCL_READ_AHEAD_OFF && st->seekable && !st->buf && !st->ahead &&
	       ahead_pays(st, mode);
}

void stream_begin(struct stream *st)
{
	struct stream_ahead *ra;
	bool ahead = stream_reads_ahead(st);

	st->read_ahead = read_ahead_mode(st->read_ahead);
	if (!ahead)
		return;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return;
	ra->cap = RING_MIN;
	ra->base = ring_map(ra->cap);
	if (!ra->base) {
		free(ra);
		return;
	}
	ra->fd = st->fd;
	ra->limit = st->limit;
	atomic_init(&ra->filled, st->off);
	atomic_init(&ra->released, st->off);
	atomic_init(&ra->state, AHEAD_RUNNING);
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	if (ahead_start(ra)) {
		ahead_free(ra);
		return;
	}
	st->ahead = ra;
	st->buf = ra->base + st->off % ra->cap;
	st->cap = ra->cap;
	st->head = st->tail = 0;
}

void stream_end(struct stream *st)
{
	if (st->ahead)
		ahead_stop(st->ahead);
}

void stream_free(struct stream *st)
{
	if (st->ahead)
		ahead_free(st->ahead);
	else
		free(st->buf);
	st->ahead = NULL;
	st->buf = NULL;
}

static void ahead_refresh(struct stream *st)
{
	st->tail = (size_t)(atomic_load_explicit(&st->ahead->filled, memory_order_acquire) - st->off);
}

/* A ring of at least 2 * NEED bytes holding the same window; the thread is stopped. */
static int ahead_grow(struct stream *st, size_t need)
{
	struct stream_ahead *ra = st->ahead;
	size_t ncap = ra->cap;
	uint8_t *nbase;

	while (ncap < 2 * need)
		ncap *= 2;
	nbase = ring_map(ncap);
	if (!nbase)
		return -ENOMEM;
	ahead_refresh(st);
	memcpy(nbase + st->off % ncap, st->buf, st->tail);
	munmap(ra->base, 2 * ra->cap);
	ra->base = nbase;
	ra->cap = ncap;
	st->buf = nbase + st->off % ncap;
	st->cap = ncap;
	return 0;
}

static int ahead_fill(struct stream *st, size_t need)
{
	struct stream_ahead *ra = st->ahead;
	uint64_t drop_to = st->off + st->head;

	if (st->keep_from < drop_to)
		drop_to = st->keep_from;
	if (drop_to > st->off) {
		/* Drop consumed bytes: the window moves, the bytes stay. */
		size_t drop = (size_t)(drop_to - st->off);

		st->off = drop_to;
		st->head -= drop;
		st->tail -= drop;
		st->buf = ra->base + st->off % ra->cap;
		atomic_store(&ra->released, st->off);
		ahead_wake(ra);
	}
	ahead_refresh(st);
	if (st->tail - st->head >= need)
		return FILL_OK;
	if (st->head + need > ra->cap) {
		bool was_running = ra->started;
		int err;

		ahead_stop(ra);
		err = ahead_grow(st, st->head + need);
		if (!err && was_running && atomic_load(&ra->state) == AHEAD_RUNNING)
			err = ahead_start(ra);
		if (err)
			return err;
	}
	if (ra->started)
		ahead_wait(ra, filled_to, st->off + st->head + need);
	ahead_refresh(st);
	if (st->tail - st->head >= need)
		return FILL_OK;
	if (atomic_load(&ra->state) == AHEAD_ERROR)
		return ra->err;
	st->eof = true;
	return FILL_SHORT;
}

/* Moves kept and unconsumed bytes to the front; grows so that 2 * NEED fit after them. */
static int plain_compact(struct stream *st, size_t need)
{
	size_t drop = st->head;

	if (st->keep_from != UINT64_MAX && st->keep_from < st->off + st->head)
		drop = (size_t)(st->keep_from - st->off);
	if (drop) {
		memmove(st->buf, st->buf + drop, st->tail - drop);
		st->off += drop;
		st->tail -= drop;
		st->head -= drop;
	}
	if (st->head + need > st->cap / 2 || !st->buf) {
		size_t ncap = st->cap ? st->cap : STREAM_BUF;
		uint8_t *n;

		/* A small input gets a buffer its size (a fuzzer opens thousands a second). */
		if (!st->cap && st->limit != UINT64_MAX && st->limit - st->off < STREAM_BUF / 4)
			for (ncap = 64u << 10; ncap / 4 < st->limit - st->off; ncap *= 2)
				;

		while (ncap / 2 < st->head + need)
			ncap *= 2;
		if (ncap != st->cap || !st->buf) {
			n = realloc(st->buf, ncap);
			if (!n)
				return -ENOMEM;
			st->buf = n;
			st->cap = ncap;
		}
	}
	return 0;
}

static int plain_fill(struct stream *st, size_t need)
{
	/*
	 * Compact only when the room left is short: bytes kept for ordering
	 * (a round or two) would otherwise be moved at every read.
	 */
	if (!st->buf || st->cap - st->tail < need - (st->tail - st->head) + READ_CHUNK) {
		int err = plain_compact(st, need);

		if (err)
			return err;
	}
	while (st->tail - st->head < need && !st->eof) {
		size_t room = st->cap - st->tail;
		uint64_t pos = st->off + st->tail;
		ssize_t r;

		/* Small reads keep the bytes in cache until they are parsed. */
		if (room > READ_CHUNK && need - (st->tail - st->head) <= READ_CHUNK)
			room = READ_CHUNK;
		if (st->limit != UINT64_MAX) {
			if (pos >= st->limit) {
				st->eof = true;
				break;
			}
			if (room > st->limit - pos)
				room = (size_t)(st->limit - pos);
		}
		r = read(st->fd, st->buf + st->tail, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			st->eof = true;
		st->tail += (size_t)r;
	}
	return st->tail - st->head >= need ? FILL_OK : FILL_SHORT;
}

int stream_fill(struct stream *st, size_t need)
{
	if (st->tail - st->head >= need)
		return FILL_OK;
	return st->ahead ? ahead_fill(st, need) : plain_fill(st, need);
}

bool stream_has(struct stream *st, uint64_t n)
{
	if (st->ahead)
		ahead_refresh(st);
	return st->tail - st->head >= n;
}

int stream_skip(struct stream *st, uint64_t n)
{
	struct stream_ahead *ra = st->ahead;
	uint64_t target;

	if (stream_has(st, n)) {
		st->head += (size_t)n;
		return FILL_OK;
	}
	target = st->off + st->head + n;
	if (ra) {
		ahead_stop(ra);
		st->off = target;
		st->head = st->tail = 0;
		st->buf = ra->base + target % ra->cap;
		atomic_store(&ra->filled, target);
		atomic_store(&ra->released, target);
		if (st->limit != UINT64_MAX && target > st->limit) {
			st->eof = true;
			return FILL_SHORT;
		}
		atomic_store(&ra->state, AHEAD_RUNNING);
		return ahead_start(ra);
	}
	n -= st->tail - st->head;
	st->off += st->tail;
	st->head = st->tail = 0;
	if (st->seekable) {
		target = st->off + n;
		if (st->limit != UINT64_MAX && target > st->limit)
			return FILL_SHORT;
		if (lseek(st->fd, (off_t)target, SEEK_SET) < 0)
			return -errno;
		st->off = target;
		return FILL_OK;
	}
	while (n) {
		int r = stream_fill(st, 1);
		uint64_t have;

		if (r)
			return r;
		have = st->tail - st->head;
		if (have > n)
			have = n;
		st->head += (size_t)have;
		n -= have;
	}
	return FILL_OK;
}
