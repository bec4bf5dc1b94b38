/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: loops paced by a program's own sleep
 * functions, defined after the threads that call them.
 *  - doze_ms() wraps nanosleep and sleeps again when a signal cut it short;
 *    rest_us() waits with select() on no descriptors (MariaDB's my_sleep,
 *    WiredTiger's __wt_sleep); settle() waits with poll() on none; pace()
 *    calls doze_ms(), then notes the time: a wrapper of a wrapper.
 *  - The janitor goes round through pace() (sweeps), the reaper through
 *    rest_us() (reaped, last_reap), the beacon through settle() (beacons):
 *    written while threads run, not hot.
 *  - maybe_rest() dozes only when idle: the worker still goes round without
 *    sleeping (handled is hot), and so does the listener, whose select()
 *    waits on a descriptor for work (polled is hot).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

_Alignas(64) long sweeps;
long last_sweep;
_Alignas(64) long reaped;
long last_reap;
_Alignas(64) long beacons;
_Alignas(64) long handled;
_Alignas(64) long polled;
_Alignas(64) int backlog;
static volatile int quit;

static void doze_ms(long ms);
static void rest_us(long us);
static void settle(int ms);
static void pace(void);
static void maybe_rest(int idle);

static void *janitor(void *arg)
{
	(void)arg;
	while (!quit) {
		pace();
		sweeps++;
	}
	return NULL;
}

static void *reaper(void *arg)
{
	(void)arg;
	while (!quit) {
		rest_us(20000);
		__atomic_add_fetch(&reaped, 1, __ATOMIC_RELAXED);
		last_reap = (long)time(NULL);
	}
	return NULL;
}

static void *beacon(void *arg)
{
	(void)arg;
	while (!quit) {
		settle(10);
		beacons++;
	}
	return NULL;
}

static void *worker(void *arg)
{
	for (long i = 0; i < (long)arg && !quit; i++) {
		int q = __atomic_load_n(&backlog, __ATOMIC_ACQUIRE);

		maybe_rest(q == 0);
		__atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *listener(void *arg)
{
	int fd = (int)(long)arg;

	while (!quit) {
		fd_set r;
		struct timeval tv = { 0, 1000 };

		FD_ZERO(&r);
		FD_SET(fd, &r);
		if (select(fd + 1, &r, NULL, NULL, &tv) > 0)
			__atomic_add_fetch(&polled, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

__attribute__((noinline)) static void doze_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

__attribute__((noinline)) static void rest_us(long us)
{
	struct timeval t = { us / 1000000, us % 1000000 };

	select(0, NULL, NULL, NULL, &t);
}

__attribute__((noinline)) static void settle(int ms)
{
	poll(NULL, 0, ms);
}

__attribute__((noinline)) static void pace(void)
{
	doze_ms(50);
	last_sweep = (long)time(NULL);
}

__attribute__((noinline)) static void maybe_rest(int idle)
{
	if (idle)
		doze_ms(1);
}

int main(int argc, char **argv)
{
	pthread_t t[5];

	(void)argv;
	pthread_create(&t[0], NULL, janitor, NULL);
	pthread_create(&t[1], NULL, reaper, NULL);
	pthread_create(&t[2], NULL, beacon, NULL);
	pthread_create(&t[3], NULL, worker, (void *)1000L);
	pthread_create(&t[4], NULL, listener, (void *)0L);
	for (int i = 0; i < 1000; i++)
		__atomic_add_fetch(&backlog, 1, __ATOMIC_RELEASE);
	pthread_join(t[3], NULL);
	quit = 1;
	for (int i = 0; i < 5; i++)
		if (i != 3)
			pthread_join(t[i], NULL);
	return (int)(sweeps + reaped + beacons + handled + polled + last_sweep + last_reap) + argc;
}
