/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A shop's tills, for mycl-share --types: cashier threads sell through one
 * shared till (its sales counter on the line of the settings every sale
 * reads), count their scans in lanes of 16 bytes indexed by cashier, and in
 * padded lanes too; a turnstile's two atomic counters are written by the
 * cashiers and by the auditor, each its own.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct till_settings {
	int open;
	int nlanes;
	double tax;
	const char *label;
};

struct till {
	struct till_settings set;	/* read by every sale */
	unsigned long sales;		/* incremented by every sale */
	char note[40];
};

struct lane {
	unsigned long scanned;
	unsigned short id;
	unsigned short flags;
};

struct quiet_lane {
	unsigned long scanned;
	unsigned short id;
} __attribute__((aligned(64)));

struct turnstile {
	_Atomic unsigned int entered;
	_Atomic unsigned int left;
};

struct till *shop;
struct lane *lanes;
struct quiet_lane *quiet;
struct turnstile *gate;
static volatile int stop;

__attribute__((noinline)) double sell(struct till *t, unsigned long price)
{
	if (!t->set.open || price > (unsigned long)t->set.nlanes * 1000)
		return 0;
	t->sales++;
	return (double)price * (1.0 + t->set.tax);
}

__attribute__((noinline)) void scan(int id)
{
	lanes[id].scanned++;
	quiet[id].scanned += 2;
}

static void *cashier(void *arg)
{
	int id = (int)(long)arg;
	double sum = 0;

	for (unsigned long i = 0; i < 2000000; i++) {
		sum += sell(shop, i & 511);
		scan(id);
		atomic_fetch_add_explicit(&gate->entered, 1, memory_order_relaxed);
	}
	return sum > 0 ? NULL : arg;
}

static void *auditor(void *arg)
{
	while (!stop)
		atomic_fetch_add_explicit(&gate->left, 1, memory_order_relaxed);
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	pthread_t t[8], a;

	if (n < 1 || n > 8)
		n = 3;
	shop = calloc(1, sizeof(*shop));
	lanes = calloc(n, sizeof(*lanes));
	quiet = aligned_alloc(64, n * sizeof(*quiet));
	gate = calloc(1, sizeof(*gate));
	shop->set.open = 1;
	shop->set.nlanes = n;
	shop->set.tax = 0.2;
	shop->set.label = "main street";
	pthread_create(&a, NULL, auditor, NULL);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, cashier, (void *)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	stop = 1;
	pthread_join(a, NULL);
	printf("%lu %lu %u\n", shop->sales, lanes[0].scanned, gate->left > 0);
	return 0;
}
