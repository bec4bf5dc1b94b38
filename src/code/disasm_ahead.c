/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding ahead (disasm_ahead.h): a ring of chunks of decoded
 * instructions, filled by the thread in the walk's order and read by the
 * caller, each chunk handed over under a mutex (a few thousand hand-overs
 * for a large program's code, none per instruction).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "disasm_ahead.h"

#define CHUNK 64			/* instructions a hand-over */
#define NR_CHUNKS 4

struct slot {
	uint64_t pc;
	cs_insn *ci;			/* (its own detail buffer, reused) */
	bool ok;			/* an instruction decodes at PC */
};

struct chunk {
	struct slot s[CHUNK];
	size_t n;
	bool ready;			/* filled, not yet given back */
	bool last;			/* the walk ends with it */
};

struct dis_ahead {
	csh cs;
	const uint8_t *code;
	size_t len, skip;
	uint64_t addr;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled, freed;
	bool stop;
	struct chunk *ch;		/* NR_CHUNKS */
	size_t cur, pos;		/* the reader's chunk and place in it */
	bool holding;			/* the reader has chunk CUR */
};

static void *fill(void *arg)
{
	struct dis_ahead *a = arg;
	const uint8_t *p = a->code;
	size_t len = a->len;
	uint64_t pc = a->addr;

	for (size_t c = 0; len; c = (c + 1) % NR_CHUNKS) {
		struct chunk *ch = &a->ch[c];
		size_t n = 0;
		bool stop;

		pthread_mutex_lock(&a->lock);
		while (ch->ready && !a->stop)
			pthread_cond_wait(&a->freed, &a->lock);
		stop = a->stop;
		pthread_mutex_unlock(&a->lock);
		if (stop)
			break;
		for (; n < CHUNK && len; n++) {
			struct slot *s = &ch->s[n];

			s->pc = pc;
			s->ok = cs_disasm_iter(a->cs, &p, &len, &pc, s->ci);
			if (s->ok)
				continue;
			/* (as disasm_iter: where nothing decodes, bytes skipped; past the end, stop) */
			if (a->skip > len) {
				len = 0;
			} else {
				p += a->skip;
				pc += a->skip;
				len -= a->skip;
			}
		}
		pthread_mutex_lock(&a->lock);
		ch->n = n;
		ch->last = !len;
		ch->ready = true;
		pthread_cond_signal(&a->filled);
		pthread_mutex_unlock(&a->lock);
	}
	return NULL;
}

static bool wanted(void)
{
	const char *env = getenv("MYCL_DECODE_AHEAD");

	return !env || strcmp(env, "off");
}

static void free_ahead(struct dis_ahead *a)
{
	for (size_t c = 0; a->ch && c < NR_CHUNKS; c++)
		for (size_t i = 0; i < CHUNK; i++)
			if (a->ch[c].s[i].ci)
				cs_free(a->ch[c].s[i].ci, 1);
	free(a->ch);
	if (a->cs)
		cs_close(&a->cs);
	free(a);
}

/* Every slot's instruction, with its own detail buffer (the decoder's). */
static bool alloc_slots(struct dis_ahead *a)
{
	a->ch = calloc(NR_CHUNKS, sizeof(*a->ch));
	for (size_t c = 0; a->ch && c < NR_CHUNKS; c++)
		for (size_t i = 0; i < CHUNK; i++)
			if (!(a->ch[c].s[i].ci = cs_malloc(a->cs)))
				return false;
	return a->ch != NULL;
}

struct dis_ahead *dis_ahead_start(cs_arch arch, cs_mode mode, bool att, const uint8_t *code,
				  size_t len, uint64_t addr, size_t skip)
{
	struct dis_ahead *a;

	if (len < DIS_AHEAD_MIN || !skip || !wanted() || !(a = calloc(1, sizeof(*a))))
		return NULL;
	a->code = code;
	a->len = len;
	a->addr = addr;
	a->skip = skip;
	if (cs_open(arch, mode, &a->cs) != CS_ERR_OK) {
		a->cs = 0;
		free_ahead(a);
		return NULL;
	}
	cs_option(a->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (att)
		cs_option(a->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	if (!alloc_slots(a)) {
		free_ahead(a);
		return NULL;
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->filled, NULL);
	pthread_cond_init(&a->freed, NULL);
	if (pthread_create(&a->thread, NULL, fill, a)) {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->filled);
		pthread_cond_destroy(&a->freed);
		free_ahead(a);
		return NULL;
	}
	return a;
}

bool dis_ahead_next(struct dis_ahead *a, uint64_t pc, const cs_insn **ci)
{
	struct chunk *ch = &a->ch[a->cur];
	const struct slot *s;

	if (a->holding && a->pos == ch->n) {
		if (ch->last)
			return false;
		pthread_mutex_lock(&a->lock);
		ch->ready = false;	/* given back */
		pthread_cond_signal(&a->freed);
		pthread_mutex_unlock(&a->lock);
		a->cur = (a->cur + 1) % NR_CHUNKS;
		a->holding = false;
		ch = &a->ch[a->cur];
	}
	if (!a->holding) {
		pthread_mutex_lock(&a->lock);
		while (!ch->ready)
			pthread_cond_wait(&a->filled, &a->lock);
		pthread_mutex_unlock(&a->lock);
		a->holding = true;
		a->pos = 0;
	}
	if (a->pos == ch->n)
		return false;
	s = &ch->s[a->pos];
	if (s->pc != pc)
		return false;
	a->pos++;
	*ci = s->ok ? s->ci : NULL;
	return true;
}

void dis_ahead_stop(struct dis_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->freed);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->filled);
	pthread_cond_destroy(&a->freed);
	free_ahead(a);
}
