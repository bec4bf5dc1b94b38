/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding ahead (disasm_ahead.h).  The code range is cut into chunks of
 * CHUNK_BYTES; chunk K holds capstone's walk (an instruction, or SKIP bytes
 * where none decodes) from the chunk's first byte up to its end.  Helper
 * threads, and the caller while it waits, decode the chunks in order into a
 * ring; the caller's walk takes from chunk K the instruction at its own pc.
 *
 * A chunk's walk starts at its first byte, where the caller's walk may be
 * in the middle of an instruction: there the two walks differ for a few
 * instructions, until they meet at a pc both reach (x86 code realigns in a
 * few instructions), and the caller decodes those few itself.  What the
 * caller gets is always capstone's decoding at its own pc, as if it had
 * decoded everything itself.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "disasm_ahead.h"

#define CHUNK_BYTES 4096
#define MAX_HELPERS 3			/* threads besides the caller's */
#define RING_PER_WORKER 4		/* chunks decoded ahead, per decoding thread */
#define MAX_RING (RING_PER_WORKER * (MAX_HELPERS + 1))

struct slot {
	uint64_t pc;
	bool ok;			/* an instruction decodes at PC: CI, its detail in the chunk's DET */
	cs_insn ci;
};

enum chunk_state { CH_FREE, CH_CLAIMED, CH_READY };

struct chunk {
	struct slot *s;
	uint8_t *det;			/* the slots' details, DET_SIZE bytes each */
	size_t n, cap;
	enum chunk_state state;
};

/* A decoding thread's own decoder and scratch instruction. */
struct worker {
	struct dis_ahead *a;
	csh cs;
	cs_insn *ci;
	pthread_t thread;
	bool started;
};

struct dis_ahead {
	const uint8_t *code;
	size_t len, skip;
	uint64_t addr;
	size_t det_size;		/* the part of cs_detail the architecture fills */
	size_t nr_chunks;		/* of the whole range */
	size_t ring;			/* chunks in RING */
	pthread_mutex_t lock;
	pthread_cond_t ready;		/* a chunk was decoded (the caller waits) */
	pthread_cond_t freed;		/* a chunk can be claimed, or stop (the helpers wait) */
	bool stop;
	size_t next_claim;		/* the next chunk to decode */
	size_t base;			/* the caller's chunk: every one before it given back */
	struct chunk ch[MAX_RING];	/* chunk K in ch[K % ring] */
	/* The caller's side, no lock needed: */
	bool holding;			/* chunk BASE is decoded and being walked */
	size_t pos;			/* the caller's place in it */
	struct worker self;		/* the caller, decoding while it would wait */
	size_t nr_helpers;
	struct worker helper[MAX_HELPERS];
};

/* The detail bytes capstone fills for ARCH: the common part and the architecture's own. */
static size_t detail_size(cs_arch arch)
{
	switch (arch) {
	case CS_ARCH_X86: return offsetof(cs_detail, x86) + sizeof(cs_x86);
	case CS_ARCH_ARM64: return offsetof(cs_detail, arm64) + sizeof(cs_arm64);
	case CS_ARCH_PPC: return offsetof(cs_detail, ppc) + sizeof(cs_ppc);
	case CS_ARCH_SYSZ: return offsetof(cs_detail, sysz) + sizeof(cs_sysz);
	default: return sizeof(cs_detail);
	}
}

/* Room for one more slot; false without memory (the chunk ends there: the caller decodes on). */
static bool room(struct dis_ahead *a, struct chunk *ch)
{
	size_t ncap;
	struct slot *ns;
	uint8_t *nd;

	if (ch->n < ch->cap)
		return true;
	ncap = ch->cap ? ch->cap * 2 : CHUNK_BYTES / 4;
	ns = realloc(ch->s, ncap * sizeof(*ns));
	if (!ns)
		return false;
	ch->s = ns;
	nd = realloc(ch->det, ncap * a->det_size);
	if (!nd)
		return false;
	ch->det = nd;
	ch->cap = ncap;
	return true;
}

/*
 * Capstone's walk from chunk K's first byte to its end, the last instruction
 * decoded from the whole range's bytes (it may end past the chunk).
 */
static void decode_chunk(struct dis_ahead *a, struct worker *w, struct chunk *ch, size_t k)
{
	size_t off = k * CHUNK_BYTES;
	const uint8_t *p = a->code + off;
	size_t len = a->len - off;
	uint64_t pc = a->addr + off;
	uint64_t end = pc + (len < CHUNK_BYTES ? len : CHUNK_BYTES);

	ch->n = 0;
	while (len && pc < end && room(a, ch)) {
		struct slot *s = &ch->s[ch->n];

		s->pc = pc;
		s->ok = cs_disasm_iter(w->cs, &p, &len, &pc, w->ci);
		if (s->ok) {
			s->ci = *w->ci;
			memcpy(ch->det + ch->n * a->det_size, w->ci->detail, a->det_size);
		} else if (a->skip > len) {
			/* (as disasm_iter: where nothing decodes, bytes skipped; past the end, stop) */
			len = 0;
		} else {
			p += a->skip;
			pc += a->skip;
			len -= a->skip;
		}
		ch->n++;
	}
}

static bool claimable(const struct dis_ahead *a)
{
	return a->next_claim < a->nr_chunks && a->next_claim < a->base + a->ring;
}

/* With the lock held: decodes the next chunk in order (the lock dropped meanwhile). */
static void claim_and_decode(struct dis_ahead *a, struct worker *w)
{
	size_t k = a->next_claim++;
	struct chunk *ch = &a->ch[k % a->ring];

	ch->state = CH_CLAIMED;
	pthread_mutex_unlock(&a->lock);
	decode_chunk(a, w, ch, k);
	pthread_mutex_lock(&a->lock);
	ch->state = CH_READY;
	pthread_cond_signal(&a->ready);
}

static void *helper(void *arg)
{
	struct worker *w = arg;
	struct dis_ahead *a = w->a;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->stop && !claimable(a))
			pthread_cond_wait(&a->freed, &a->lock);
		if (a->stop)
			break;
		claim_and_decode(a, w);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/*
 * The caller moves on to chunk K: the chunks before it are given back (once
 * decoded: a helper may still be writing one), and chunk K is waited for,
 * the caller decoding the next chunks meanwhile.
 */
static void move_to(struct dis_ahead *a, size_t k)
{
	pthread_mutex_lock(&a->lock);
	for (; a->base < k; a->base++) {
		struct chunk *ch = &a->ch[a->base % a->ring];

		while (ch->state == CH_CLAIMED)
			pthread_cond_wait(&a->ready, &a->lock);
		ch->state = CH_FREE;
	}
	pthread_cond_broadcast(&a->freed);
	while (a->ch[k % a->ring].state != CH_READY) {
		if (claimable(a))
			claim_and_decode(a, &a->self);
		else
			pthread_cond_wait(&a->ready, &a->lock);
	}
	pthread_mutex_unlock(&a->lock);
	a->holding = true;
	a->pos = 0;
}

bool dis_ahead_next(struct dis_ahead *a, uint64_t pc, const cs_insn **ci)
{
	struct chunk *ch;
	struct slot *s;
	size_t k;

	if (pc < a->addr || pc - a->addr >= a->len)
		return false;
	k = (pc - a->addr) / CHUNK_BYTES;
	if (k < a->base)
		return false;		/* (the walk went back: not done by disasm_iter) */
	if (k > a->base || !a->holding)
		move_to(a, k);
	ch = &a->ch[k % a->ring];
	while (a->pos < ch->n && ch->s[a->pos].pc < pc)
		a->pos++;
	if (a->pos == ch->n || ch->s[a->pos].pc != pc)
		return false;
	s = &ch->s[a->pos];
	if (s->ok) {
		s->ci.detail = (cs_detail *)(ch->det + a->pos * a->det_size);
		*ci = &s->ci;
	} else {
		*ci = NULL;
	}
	a->pos++;
	return true;
}

/* Decoding threads besides the caller's: one fewer than the CPUs it may run on (at most 3). */
static size_t nr_helpers(void)
{
	const char *env = getenv("MYCL_DECODE_AHEAD");
	cpu_set_t cpus;
	size_t n = 1;

	if (env && !strcmp(env, "off"))
		return 0;
	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0)
		n = (size_t)CPU_COUNT(&cpus);
	n = n > MAX_HELPERS + 1 ? MAX_HELPERS : n - (n > 0);
	/* MYCL_DECODE_AHEAD=on: a helper even on one CPU (the tests' way to try it anywhere) */
	return !n && env && !strcmp(env, "on") ? 1 : n;
}

static bool open_worker(struct dis_ahead *a, struct worker *w, cs_arch arch, cs_mode mode, bool att)
{
	w->a = a;
	if (cs_open(arch, mode, &w->cs) != CS_ERR_OK) {
		w->cs = 0;
		return false;
	}
	cs_option(w->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (att)
		cs_option(w->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	return (w->ci = cs_malloc(w->cs)) != NULL;
}

static void close_worker(struct worker *w)
{
	if (w->ci)
		cs_free(w->ci, 1);
	if (w->cs)
		cs_close(&w->cs);
}

static void free_ahead(struct dis_ahead *a)
{
	for (size_t c = 0; c < MAX_RING; c++) {
		free(a->ch[c].s);
		free(a->ch[c].det);
	}
	close_worker(&a->self);
	for (size_t i = 0; i < MAX_HELPERS; i++)
		close_worker(&a->helper[i]);
	free(a);
}

struct dis_ahead *dis_ahead_start(cs_arch arch, cs_mode mode, bool att, const uint8_t *code,
				  size_t len, uint64_t addr, size_t skip)
{
	size_t helpers = len >= DIS_AHEAD_MIN && skip ? nr_helpers() : 0;
	struct dis_ahead *a;

	if (!helpers || !(a = calloc(1, sizeof(*a))))
		return NULL;
	a->code = code;
	a->len = len;
	a->addr = addr;
	a->skip = skip;
	a->det_size = detail_size(arch);
	a->nr_chunks = (len + CHUNK_BYTES - 1) / CHUNK_BYTES;
	a->ring = RING_PER_WORKER * (helpers + 1);
	if (!open_worker(a, &a->self, arch, mode, att)) {
		free_ahead(a);
		return NULL;
	}
	for (size_t i = 0; i < helpers; i++)
		if (!open_worker(a, &a->helper[i], arch, mode, att)) {
			free_ahead(a);
			return NULL;
		}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->ready, NULL);
	pthread_cond_init(&a->freed, NULL);
	for (size_t i = 0; i < helpers; i++) {
		if (pthread_create(&a->helper[i].thread, NULL, helper, &a->helper[i]))
			break;		/* (fewer helpers: the caller decodes the rest) */
		a->helper[i].started = true;
		a->nr_helpers++;
	}
	return a;
}

void dis_ahead_stop(struct dis_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->freed);
	pthread_mutex_unlock(&a->lock);
	for (size_t i = 0; i < MAX_HELPERS; i++)
		if (a->helper[i].started)
			pthread_join(a->helper[i].thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->ready);
	pthread_cond_destroy(&a->freed);
	free_ahead(a);
}
