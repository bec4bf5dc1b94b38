/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mycl-share's ground truth for threads handed a struct that holds the
 * address of their slot: a struct on the heap per thread (a->slot =
 * &heap_slots[i]; pthread_create(..., heap_worker, a)), and an array of
 * structs on the stack filled in one loop, handed in another; a worker that
 * hands its a->slot to a function counting into it.  Beside them a
 * slot whose address main stores into a struct it hands to a start-up
 * function (not a thread), and options read before the threads start.
 * Regenerate the binaries with gen.sh.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct slot {
	unsigned long hits, misses;
};
static struct slot heap_slots[4];
static struct slot stack_slots[4];
static struct slot call_slots[4];
static struct slot boot_slot;		/* filled once by init_slot, before the threads */
static int opt_rounds = 1000000;	/* set from argv before the threads */

struct targ {
	int id;
	struct slot *slot;
};

static void *heap_worker(void *p)
{
	struct targ *a = p;

	for (int i = 0; i < opt_rounds; i++) {
		a->slot->hits++;
		if ((i & 7) == 0)
			a->slot->misses++;
		if ((i & 1023) == 0)
			sched_yield();
	}
	free(a);
	return NULL;
}

static void *stack_worker(void *p)
{
	struct targ *a = p;

	for (int i = 0; i < opt_rounds; i++) {
		a->slot->hits++;
		if ((i & 1023) == 0)
			sched_yield();
	}
	return NULL;
}

static void __attribute__((noinline)) count(struct slot *s, int i)
{
	s->hits++;
	if ((i & 7) == 0)
		s->misses++;
}

static void *call_worker(void *p)
{
	struct targ *a = p;

	for (int i = 0; i < opt_rounds; i++)
		count(a->slot, i);
	free(a);
	return NULL;
}

static void __attribute__((noinline)) init_slot(struct targ *b)
{
	b->slot->hits = 1;
	b->slot->misses = 0;
}

int main(int argc, char **argv)
{
	pthread_t t[12];
	struct targ args[4], boot;

	if (argc > 1)
		opt_rounds = atoi(argv[1]);
	boot.id = -1;
	boot.slot = &boot_slot;
	init_slot(&boot);
	for (int i = 0; i < 4; i++) {
		struct targ *a = malloc(sizeof(*a));

		if (!a)
			return 1;
		a->id = i;
		a->slot = &heap_slots[i];
		pthread_create(&t[i], NULL, heap_worker, a);
	}
	for (int i = 0; i < 4; i++) {
		args[i].id = i;
		args[i].slot = &stack_slots[i];
	}
	for (int i = 0; i < 4; i++)
		pthread_create(&t[4 + i], NULL, stack_worker, &args[i]);
	for (int i = 0; i < 4; i++) {
		struct targ *a = malloc(sizeof(*a));

		if (!a)
			return 1;
		a->id = i;
		a->slot = &call_slots[i];
		pthread_create(&t[8 + i], NULL, call_worker, a);
	}
	for (int i = 0; i < 12; i++)
		pthread_join(t[i], NULL);
	printf("%lu %lu %lu %lu\n", heap_slots[0].hits, stack_slots[1].hits, call_slots[2].hits,
	       boot_slot.hits);
	return 0;
}
