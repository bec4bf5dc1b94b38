/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding ahead (disasm_ahead.h).  Each span is cut into pieces of at most
 * CHUNK_BYTES; a piece holds capstone's walk (an instruction, or SKIP bytes
 * where none decodes) from the piece's first byte up to its end, and a chunk
 * holds consecutive pieces of about CHUNK_BYTES in all (a whole .text's
 * pieces one a chunk, a thousand small functions' a few to a chunk).
 * Helper threads, and the caller while it waits, decode the chunks in order
 * into a ring; the caller's walk takes from the piece its pc is in the
 * instruction at its own pc.
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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/tuning.h"
#include "disasm_ahead.h"
#include "internal.h"

#define CHUNK_BYTES 4096
#define MAX_HELPERS 3			/* threads besides the caller's */
#define RING_PER_WORKER 4		/* chunks decoded ahead, per decoding thread */
#define MAX_RING (RING_PER_WORKER * (MAX_HELPERS + 1))

struct slot {
	uint64_t pc;
	uint32_t piece;
	bool ok;			/* an instruction decodes at PC: CI, its detail in the chunk's DET */
	cs_insn ci;
};

struct piece {
	size_t span;
	size_t off, len;		/* from the span's start */
};

/* The spans by address, for dis_ahead_find. */
struct by_addr {
	uint64_t addr;
	size_t span;
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
};

struct dis_ahead {
	struct dis_span *spans;
	struct by_addr *sorted;
	size_t nr_spans;
	size_t *first_piece;		/* of each span */
	struct piece *pieces;
	size_t nr_pieces;
	size_t *chunk_of;		/* each piece's chunk */
	size_t *first_of;		/* each chunk's first piece; NR_CHUNKS + 1 */
	size_t skip;
	size_t det_size;		/* the part of cs_detail the architecture fills */
	size_t nr_chunks;
	size_t ring;			/* chunks in RING */
	pthread_mutex_t lock;
	pthread_cond_t ready;		/* a chunk was decoded (the caller waits) */
	pthread_cond_t freed;		/* a chunk can be claimed, or stop (the helpers wait) */
	bool stop;
	size_t next_claim;		/* the next chunk to decode */
	size_t base;			/* the caller's chunk: every one before it given back */
	struct chunk ch[MAX_RING];	/* chunk K in ch[K % ring] */
	/* The caller's side, no lock needed: */
	size_t span;			/* the span it walks */
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
 * Capstone's walk of each piece of chunk K from its first byte to its end,
 * the last instruction decoded from the span's bytes (it may end past the
 * piece).
 */
static void decode_chunk(struct dis_ahead *a, struct worker *w, struct chunk *ch, size_t k)
{
	ch->n = 0;
	for (size_t i = a->first_of[k]; i < a->first_of[k + 1]; i++) {
		const struct piece *pc_ = &a->pieces[i];
		const struct dis_span *sp = &a->spans[pc_->span];
		const uint8_t *p = sp->code + pc_->off;
		size_t len = sp->len - pc_->off;
		uint64_t pc = sp->addr + pc_->off, end = pc + pc_->len;

		while (len && pc < end && room(a, ch)) {
			struct slot *s = &ch->s[ch->n];

			s->pc = pc;
			s->piece = (uint32_t)i;
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

void dis_ahead_span(struct dis_ahead *a, size_t i)
{
	a->span = i;
}

size_t dis_ahead_find(const struct dis_ahead *a, const uint8_t *code, size_t len, uint64_t addr)
{
	size_t lo = 0, hi = a->nr_spans, found = DIS_AHEAD_NONE;

	/* (the span the walk is on or one after it, or else the first one of that address) */
	if (a->span + 1 < a->nr_spans && a->spans[a->span + 1].addr == addr &&
	    a->spans[a->span + 1].len == len && a->spans[a->span + 1].code == code)
		return a->span + 1;
	lo = PARTITION_POINT(lo, hi, mid, a->sorted[mid].addr < addr);
	for (; lo < a->nr_spans && a->sorted[lo].addr == addr; lo++) {
		const struct dis_span *sp = &a->spans[a->sorted[lo].span];

		if (sp->len == len && sp->code == code &&
		    (found == DIS_AHEAD_NONE || (found < a->span && a->sorted[lo].span >= a->span)))
			found = a->sorted[lo].span;
	}
	return found;
}

/* Whether slot S comes before PC of PIECE in the walks' order. */
static bool before(const struct slot *s, size_t piece, uint64_t pc)
{
	return s->piece < piece || (s->piece == piece && s->pc < pc);
}

bool dis_ahead_next(struct dis_ahead *a, uint64_t pc, const cs_insn **ci)
{
	const struct dis_span *sp = &a->spans[a->span];
	struct chunk *ch;
	struct slot *s;
	size_t k, piece;

	if (pc < sp->addr || pc - sp->addr >= sp->len)
		return false;
	piece = a->first_piece[a->span] + (pc - sp->addr) / CHUNK_BYTES;
	k = a->chunk_of[piece];
	if (k < a->base)
		return false;		/* (a walk gone back, or a span walked again) */
	if (k > a->base || !a->holding)
		move_to(a, k);
	ch = &a->ch[k % a->ring];
	/* (a span of this chunk walked again, or one before the last: from the chunk's start) */
	if (a->pos && !before(&ch->s[a->pos - 1], piece, pc))
		a->pos = 0;
	while (a->pos < ch->n && before(&ch->s[a->pos], piece, pc))
		a->pos++;
	if (a->pos == ch->n || ch->s[a->pos].piece != piece || ch->s[a->pos].pc != pc)
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
	int sw = tuning_get()->decode_ahead;
	size_t n = (size_t)cpus_available();

	if (sw == MYCL_SWITCH_OFF)
		return 0;
	n = n > MAX_HELPERS + 1 ? MAX_HELPERS : n - (n > 0);
	/* on: a helper even on one CPU (the tests' way to try it anywhere) */
	return !n && sw == MYCL_SWITCH_ON ? 1 : n;
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
	free(a->spans);
	free(a->sorted);
	free(a->first_piece);
	free(a->pieces);
	free(a->chunk_of);
	free(a->first_of);
	for (size_t c = 0; c < MAX_RING; c++) {
		free(a->ch[c].s);
		free(a->ch[c].det);
	}
	close_worker(&a->self);
	for (size_t i = 0; i < MAX_HELPERS; i++)
		close_worker(&a->helper[i]);
	free(a);
}

static int by_addr_cmp(const void *x, const void *y)
{
	const struct by_addr *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->span < b->span ? -1 : a->span > b->span;
}

/* The spans' pieces and the chunks they make; false without memory. */
static bool cut(struct dis_ahead *a, const struct dis_span *v, size_t n)
{
	size_t np = 0, k = 0, bytes = 0;

	for (size_t i = 0; i < n; i++)
		np += (v[i].len + CHUNK_BYTES - 1) / CHUNK_BYTES;
	a->spans = malloc((n ? n : 1) * sizeof(*a->spans));
	a->sorted = malloc((n ? n : 1) * sizeof(*a->sorted));
	a->first_piece = malloc((n ? n : 1) * sizeof(*a->first_piece));
	a->pieces = malloc((np ? np : 1) * sizeof(*a->pieces));
	a->chunk_of = malloc((np ? np : 1) * sizeof(*a->chunk_of));
	a->first_of = malloc((np + 1) * sizeof(*a->first_of));
	if (!a->spans || !a->sorted || !a->first_piece || !a->pieces || !a->chunk_of || !a->first_of)
		return false;
	memcpy(a->spans, v, n * sizeof(*v));
	a->nr_spans = n;
	for (size_t i = 0; i < n; i++) {
		a->sorted[i] = (struct by_addr){ v[i].addr, i };
		a->first_piece[i] = a->nr_pieces;
		for (size_t off = 0; off < v[i].len; off += CHUNK_BYTES) {
			size_t l = v[i].len - off < CHUNK_BYTES ? v[i].len - off : CHUNK_BYTES;

			if (!bytes)
				a->first_of[k] = a->nr_pieces;
			a->pieces[a->nr_pieces] = (struct piece){ i, off, l };
			a->chunk_of[a->nr_pieces++] = k;
			bytes += l;
			if (bytes >= CHUNK_BYTES) {
				k++;
				bytes = 0;
			}
		}
	}
	if (bytes)
		k++;
	a->first_of[k] = a->nr_pieces;
	a->nr_chunks = k;
	sort_array(a->sorted, n, sizeof(*a->sorted), by_addr_cmp);
	return true;
}

struct dis_ahead *dis_ahead_start(cs_arch arch, cs_mode mode, bool att, const struct dis_span *v,
				  size_t n, size_t skip)
{
	size_t helpers = 0, total = 0;
	struct dis_ahead *a;

	for (size_t i = 0; i < n; i++)
		total += v[i].len;
	if (total >= DIS_AHEAD_MIN && skip)
		helpers = nr_helpers();
	if (!helpers || !(a = calloc(1, sizeof(*a))))
		return NULL;
	a->skip = skip;
	a->det_size = detail_size(arch);
	a->ring = RING_PER_WORKER * (helpers + 1);
	if (!cut(a, v, n) || !open_worker(a, &a->self, arch, mode, att)) {
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
		a->nr_helpers++;	/* (helpers [0, nr_helpers) run) */
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
	for (size_t i = 0; i < a->nr_helpers; i++)
		pthread_join(a->helper[i].thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->ready);
	pthread_cond_destroy(&a->freed);
	free_ahead(a);
}
