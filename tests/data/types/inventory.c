/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The data-type fixture in C: a ledger read on every request beside the
 * counters each request writes, per-worker slots two to a cache line, a
 * pointer to pointers, a union, bit fields, an anonymous member, a packed
 * struct and a flexible array member.  pick() and work() are what the tests
 * read; main() only sets the scene.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct counters { unsigned long picked, restocked; };
struct shelf { unsigned int sku, qty; struct shelf *next; };
struct ledger {
	struct shelf **aisles;			/* read on every request */
	unsigned long naisles;			/* read on every request */
	struct counters *tally;			/* written through, every request */
	unsigned long requests;			/* written on every request */
	union { unsigned long raw; struct { unsigned int lo, hi; } half; } stamp;
	unsigned int open : 1, audited : 1, zone : 6;
	struct { unsigned long last_sku; };	/* anonymous */
};
struct tally_slot { unsigned long served; char note[8]; };
struct __attribute__((packed)) wire { char tag; unsigned int len; };
struct batch { unsigned int n; unsigned long items[]; };

struct ledger *books;
struct tally_slot *slots;
struct wire *inbox;
struct batch *pending;

__attribute__((noinline)) unsigned int pick(struct ledger *l, unsigned int sku)
{
	struct shelf *s = l->aisles[sku % l->naisles];

	l->requests++;
	for (; s; s = s->next)
		if (s->sku == sku) {
			l->tally->picked++;
			l->stamp.half.lo = sku;
			l->audited = 1;
			l->last_sku = sku;
			return s->qty;
		}
	l->tally->restocked++;
	return inbox->len;
}

__attribute__((noinline)) unsigned long settle(const struct batch *b)
{
	unsigned long sum = 0;

	for (unsigned int i = 0; i < b->n; i++)
		sum += b->items[i];
	return sum;
}

static void *work(void *arg)
{
	long id = (long)arg;
	unsigned long got = 0;

	for (unsigned int i = 0; i < 4000000; i++) {
		got += pick(books, i * 2654435761u);
		slots[id].served++;
		if (!(i & 1023))
			got += settle(pending);
	}
	return (void *)got;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;

	books = calloc(1, sizeof(*books));
	books->naisles = n;
	books->aisles = calloc(n, sizeof(*books->aisles));
	books->tally = calloc(1, sizeof(*books->tally));
	for (unsigned int k = 0; k < 8 * n; k++) {
		struct shelf *s = malloc(sizeof(*s));

		s->sku = k * 3;
		s->qty = k;
		s->next = books->aisles[s->sku % n];
		books->aisles[s->sku % n] = s;
	}
	slots = calloc(2, sizeof(*slots));
	inbox = calloc(1, sizeof(*inbox));
	pending = calloc(1, sizeof(*pending) + 16 * sizeof(unsigned long));
	pending->n = 16;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (long i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%lu %lu\n", books->requests, slots[0].served);
	return 0;
}
