// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ground truth for when a server's code runs, in C++ and with names of its
 * own, shaped like MariaDB's start-up:
 *  - a housekeeping thread starts before the set-up is done, so "after the
 *    first thread" does not end start-up: module_state[] is then written in
 *    a loop over modules, once (warm, never hot);
 *  - main then waits for connections in a poll() loop, counting each in
 *    conns_accepted (hot: written in the serving loop, read by workers);
 *  - Tuning::get()'s function-local static is built once under the C++
 *    guard (__cxa_guard_acquire), however often workers call it;
 *  - workers update stats_hits and read the read-mostly limit_ratio beside it
 *    (hot, flagged);
 *  - flag_bits is only tested (test/cmp on memory): read, never written.
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct Tuning {
	long window, depth;
	static const Tuning &get();
};

__attribute__((aligned(64))) int module_state[16];
__attribute__((aligned(64))) unsigned long conns_accepted;
int conns_limit = 1000;

__attribute__((aligned(64))) unsigned long stats_hits = 1;
int limit_ratio = 7;
unsigned int flag_bits = 5;

static volatile int stop;

__attribute__((noinline)) static long compute_window()
{
	return getpid() % 17 + 3;
}

const Tuning &Tuning::get()
{
	static Tuning t = { compute_window(), 4 };

	return t;
}

__attribute__((noinline)) static void *housekeeping(void *)
{
	while (!stop)
		usleep(1000);
	return nullptr;
}

__attribute__((noinline)) static void init_module(int i)
{
	module_state[i] = i * 3 + 1;
}

__attribute__((noinline)) static long serve_one(long key)
{
	const Tuning &t = Tuning::get();

	stats_hits = stats_hits * 31 + (unsigned long)key;
	if (flag_bits & 4)
		key += limit_ratio;
	return key % t.window + (long)conns_accepted % conns_limit;
}

static void *worker(void *arg)
{
	long acc = (long)arg;

	for (long i = 0; i < 1000000 && !stop; i++)
		acc += serve_one(i);
	return (void *)acc;
}

int main(int argc, char **argv)
{
	pthread_t hk, w[2];
	struct pollfd p = { 0, POLLIN, 0 };

	pthread_create(&hk, nullptr, housekeeping, nullptr);
	for (int i = 0; i < 16; i++)
		init_module(i);
	for (long i = 0; i < 2; i++)
		pthread_create(&w[i], nullptr, worker, (void *)i);
	for (int n = 0; n < argc * 3; n++) {
		if (poll(&p, 1, 10) > 0)
			conns_accepted++;
	}
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(w[i], nullptr);
	pthread_join(hk, nullptr);
	printf("%lu %d %lu\n", conns_accepted, module_state[3], stats_hits);
	(void)argv;
	return 0;
}
