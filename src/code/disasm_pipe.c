/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * disasm_iter_piped (disasm.h): the walk (decoding and the register flow)
 * on a thread of its own, the caller's FN on the caller's thread, the
 * instructions handed over in batches through a ring.  FN sees the same
 * instructions in the same order as under disasm_iter; it must not use the
 * disassembler (nothing the walk reads may change under it).
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/tuning.h"
#include "disasm.h"
#include "disasm_regs.h"

#define BATCH 256			/* instructions a hand-over */
#define NR_BATCHES 8			/* batches in the ring */

struct batch {
	struct insn *v;
	size_t n;
};

struct pipe {
	struct disasm *d;
	const uint8_t *code;
	size_t len;
	uint64_t addr;
	size_t copy;			/* the bytes of an instruction handed over */
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	struct batch b[NR_BATCHES];
	size_t head, tail;		/* batches filled: [tail, head), modulo NR_BATCHES */
	bool done, stop;
	int err;			/* the walk's */
	struct batch *cur;		/* the walk's batch being filled (its thread only) */
};

/* Hands the walk's current batch over (waits while the ring is full); false: stop. */
static bool hand_over(struct pipe *p)
{
	bool stop;

	pthread_mutex_lock(&p->lock);
	p->head++;
	pthread_cond_signal(&p->filled);
	while (!p->stop && p->head - p->tail == NR_BATCHES)
		pthread_cond_wait(&p->emptied, &p->lock);
	stop = p->stop;
	pthread_mutex_unlock(&p->lock);
	p->cur = &p->b[p->head % NR_BATCHES];
	p->cur->n = 0;
	return !stop;
}

static int put(const struct insn *in, void *arg)
{
	struct pipe *p = arg;

	memcpy(&p->cur->v[p->cur->n++], in, p->copy);
	if (p->cur->n == BATCH && !hand_over(p))
		return -ECANCELED;
	return 0;
}

static void *walk(void *arg)
{
	struct pipe *p = arg;
	int err;

	p->cur = &p->b[0];
	p->cur->n = 0;
	err = disasm_iter(p->d, p->code, p->len, p->addr, put, p);
	pthread_mutex_lock(&p->lock);
	if (p->cur->n)
		p->head++;		/* (the last, partly filled) */
	p->err = err == -ECANCELED ? 0 : err;
	p->done = true;
	pthread_cond_signal(&p->filled);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Whether a second CPU may run the walk (the scan_thread switch decides, else 2 CPUs or more). */
static bool worth_a_thread(void)
{
	int sw = tuning_get()->scan_thread;

	if (sw != MYCL_SWITCH_AUTO)
		return sw == MYCL_SWITCH_ON;
	return cpus_available() >= 2;
}

int disasm_iter_piped(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		      int (*fn)(const struct insn *in, void *arg), void *arg)
{
	struct pipe p = { .d = d, .code = code, .len = len, .addr = addr };
	pthread_t t;
	int err = 0;
	size_t i;

	if (d->machine != EM_X86_64 || len < DIS_PIPE_MIN || !worth_a_thread())
		return disasm_iter(d, code, len, addr, fn, arg);
	p.copy = d->no_text ? INSN_NO_TEXT_SIZE : sizeof(struct insn);
	for (i = 0; i < NR_BATCHES; i++)
		if (!(p.b[i].v = malloc(BATCH * sizeof(struct insn))))
			break;
	if (i < NR_BATCHES || pthread_mutex_init(&p.lock, NULL)) {
		while (i--)
			free(p.b[i].v);
		return disasm_iter(d, code, len, addr, fn, arg);
	}
	pthread_cond_init(&p.filled, NULL);
	pthread_cond_init(&p.emptied, NULL);
	if (pthread_create(&t, NULL, walk, &p)) {
		err = disasm_iter(d, code, len, addr, fn, arg);
		goto out;
	}
	for (;;) {
		struct batch *b;

		pthread_mutex_lock(&p.lock);
		while (p.tail == p.head && !p.done)
			pthread_cond_wait(&p.filled, &p.lock);
		if (p.tail == p.head) {
			pthread_mutex_unlock(&p.lock);
			break;		/* done, every batch taken */
		}
		pthread_mutex_unlock(&p.lock);
		b = &p.b[p.tail % NR_BATCHES];
		for (size_t k = 0; k < b->n && !err; k++)
			err = fn(&b->v[k], arg);
		pthread_mutex_lock(&p.lock);
		p.tail++;
		if (err)
			p.stop = true;	/* (the walk stops at its next hand-over) */
		pthread_cond_signal(&p.emptied);
		pthread_mutex_unlock(&p.lock);
		if (err)
			break;
	}
	pthread_join(t, NULL);
	if (!err)
		err = p.err;
out:
	pthread_cond_destroy(&p.filled);
	pthread_cond_destroy(&p.emptied);
	pthread_mutex_destroy(&p.lock);
	for (i = 0; i < NR_BATCHES; i++)
		free(p.b[i].v);
	return err;
}
