/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: function addresses stored into locals.  A
 * struct sigaction's handlers (on_term, on_hup) run when a signal comes:
 * stop_requested and reloads are written while threads run, not hot.  A
 * task built on main's stack and queued (its handler, handle_req, run by
 * the workers for every request): served is a hot shared counter.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define WORKERS 2

struct task { void (*fn)(long); long n; };

_Alignas(64) volatile sig_atomic_t stop_requested;
_Alignas(64) long reloads;
_Alignas(64) long served;
_Alignas(64) struct task queue[4];
int nr_queued;

static void on_term(int s)
{
	(void)s;
	stop_requested = 1;
}

static void on_hup(int s)
{
	(void)s;
	reloads++;
}

static void handle_req(long n)
{
	__atomic_fetch_add(&served, n, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void push(const struct task *t)
{
	queue[nr_queued++ & 3] = *t;
}

static void *worker(void *arg)
{
	for (long i = 0; i < 1000000 && !stop_requested; i++)
		queue[i & 3].fn(1);
	return arg;
}

int main(void)
{
	struct sigaction sa;
	struct task t;
	pthread_t th[WORKERS];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
	for (int i = 0; i < 4; i++) {
		t.fn = handle_req;
		t.n = i;
		push(&t);
	}
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(th[i], NULL);
	printf("%ld %ld\n", served, reloads);
	return 0;
}
