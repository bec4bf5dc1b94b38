/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Data addresses for the data-type view: each page of these objects is first
 * touched by one function, so a page-fault recording (perf record -d -e
 * page-faults) samples that function's instruction with the address it
 * touched.  Stations are reached from their embedded link (container_of:
 * the code cannot name them, the address can); the ledger directly and
 * through a returned pointer (both name it); cells live on the heap.
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

struct station stations[N];
struct ledger ledger, spare;

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

int main(void)
{
	struct cell *cells = malloc(N * sizeof(*cells));
	long sum = 0;

	for (int i = 0; i < N; i++)
		visit(&stations[i].link);
	for (int i = 0; i < N; i++)
		book(i, i);
	for (int i = 0; i < N; i++)
		pick(&spare, i)->sum = i;
	if (!cells)
		return 1;
	fill(cells, N);
	for (int i = 0; i < N; i++)
		sum += stations[i].visits + ledger.entries[i].count + spare.entries[i].sum + cells[i].hits;
	free(cells);
	return sum == 0;
}
