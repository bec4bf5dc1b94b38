/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: loops paced by a sleep.  A housekeeping
 * thread goes round only through sleep(1) (flushes, last_flush) or a 5 ms
 * nanosleep (ticks): written while threads run, not hot.  A worker that backs
 * off with usleep() when its queue is empty still goes round without
 * sleeping when there is work: processed is hot, and so is requests.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

_Alignas(64) long requests;
long flushes;
time_t last_flush;
_Alignas(64) long ticks;
_Alignas(64) long processed;
_Alignas(64) int queued;
static volatile int stop;

static void *housekeeper(void *arg)
{
	(void)arg;
	while (!stop) {
		sleep(1);
		flushes++;
		last_flush = time(NULL);
	}
	return NULL;
}

static void *ticker(void *arg)
{
	struct timespec ts = { 0, 5000000 };

	(void)arg;
	while (!stop) {
		nanosleep(&ts, NULL);
		__atomic_add_fetch(&ticks, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

__attribute__((noinline)) static int try_pop(void)
{
	int q = __atomic_load_n(&queued, __ATOMIC_ACQUIRE);

	return q > 0 && __atomic_compare_exchange_n(&queued, &q, q - 1, 0, __ATOMIC_ACQ_REL,
						    __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	for (long i = 0; i < (long)arg; i++) {
		while (!try_pop() && !stop)
			usleep(50);
		__atomic_add_fetch(&processed, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&requests, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];

	(void)argv;
	pthread_create(&t[0], NULL, housekeeper, NULL);
	pthread_create(&t[1], NULL, ticker, NULL);
	for (int i = 2; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)1000L);
	for (int i = 0; i < 1000 * 2; i++)
		__atomic_add_fetch(&queued, 1, __ATOMIC_RELEASE);
	for (int i = 2; i < 4; i++)
		pthread_join(t[i], NULL);
	stop = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return (int)(requests + flushes + ticks + processed) + argc;
}
