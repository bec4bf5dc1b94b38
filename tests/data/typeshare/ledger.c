/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A large global struct (3.5 KB, like a server's binary log object) whose one
 * counter, in the middle, clerk threads increment beside a switch they read:
 * mycl-share judges the counter's line, not every line the object spans.
 */
#include <pthread.h>
#include <stdio.h>

struct ledger {
	char title[512];
	int posting;			/* read by every clerk */
	long entries;			/* incremented by every clerk */
	char pages[3000];
	long closed;
};

struct ledger books;

static void *clerk(void *arg)
{
	for (long i = 0; i < 1000000; i++) {
		if (books.posting)
			__atomic_fetch_add(&books.entries, 1, __ATOMIC_RELAXED);
		__asm__ volatile("" ::: "memory");
	}
	return arg;
}

int main(void)
{
	pthread_t t[3];

	books.posting = 1;
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, clerk, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	books.closed = books.entries;
	printf("%ld\n", books.closed);
	return 0;
}
