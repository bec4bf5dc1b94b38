/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Data addresses for the data-type view: each page of these objects is first
 * touched by one function, so a page-fault recording (perf record -d -e
 * page-faults) samples that function's instruction with the address it
 * touched.  Stations are reached from their embedded link (container_of:
 * the code cannot name them, the address can); the ledger directly and
 * through a returned pointer (both name it); cells live on the heap, and so
 * do the nodes a list head in the program's data (initialised to point at
 * itself) points to: its pointer is whatever the program stored last.
 */
#include <stddef.h>
#include <stdlib.h>

#define PAGE 4096
#define N 48

struct link { struct link *next; };
struct station {
	char name[24];
	long visits;
	struct link link;
	char pad[PAGE - 48];
};
struct entry { long count; long sum; char pad[PAGE - 16]; };
struct ledger { long total; struct entry entries[N]; };
struct cell { int id; unsigned hits; char pad[PAGE - 8]; };
struct node { struct node *next; long seen; char pad[PAGE - 16]; };

struct station stations[N];
struct ledger ledger, spare;
struct node head = { &head, 0, { 0 } };

#define container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))

static void __attribute__((noinline)) visit(struct link *l)
{
	struct station *s = container_of(l, struct station, link);

	s->visits += 1;
}

static struct entry *__attribute__((noinline)) pick(struct ledger *g, int i)
{
	return &g->entries[i];
}

static void __attribute__((noinline)) book(int i, long v)
{
	ledger.entries[i].count = v;
}

static void __attribute__((noinline)) fill(struct cell *c, int n)
{
	for (int i = 0; i < n; i++)
		c[i].hits = (unsigned)i;
}

static void __attribute__((noinline)) mark(long v)
{
	head.next->seen = v;
}

int main(void)
{
	struct cell *cells = malloc(N * sizeof(*cells));
	struct node *nodes = malloc(N * sizeof(*nodes));
	long sum = 0;

	for (int i = 0; i < N; i++)
		visit(&stations[i].link);
	for (int i = 0; i < N; i++)
		book(i, i);
	for (int i = 0; i < N; i++)
		pick(&spare, i)->sum = i;
	if (!cells || !nodes)
		return 1;
	fill(cells, N);
	for (int i = 0; i < N; i++) {
		head.next = &nodes[i];
		mark(i);
	}
	for (int i = 0; i < N; i++)
		sum += stations[i].visits + ledger.entries[i].count + spare.entries[i].sum + cells[i].hits;
	sum += head.next->seen;
	free(cells);
	free(nodes);
	return sum == 0;
}
