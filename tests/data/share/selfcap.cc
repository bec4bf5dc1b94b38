// SPDX-License-Identifier: LGPL-2.1-or-later
// A server object's method starts its workers with a lambda capturing this
// ([this] { loop(); }), another with a member pointer and this
// (std::thread(&Poller::run, this)); main calls start() on globals.  Also
// std::async(std::launch::async, f, &accs[i]).  The object reaches the
// threads through start()'s own argument, not an address main's code stores
// there.  mycl-share's ground truth (share_checks.py).
#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>
#include <vector>

class Server {
public:
	long requests = 0;		// every worker, every request
	long errors = 0;
	int port = 0;			// set by main before start()
	void __attribute__((noinline)) start(int n)
	{
		for (int i = 0; i < n; i++)
			workers.emplace_back([this] { loop(); });
	}
	void stop()
	{
		for (auto &t : workers)
			t.join();
	}

private:
	void __attribute__((noinline)) loop()
	{
		for (long k = 0; k < 1000000; k++) {
			__atomic_fetch_add(&requests, 1, __ATOMIC_RELAXED);
			if (k % 1000 == port)
				errors++;
		}
	}
	std::vector<std::thread> workers;
};
Server g_server;

class Poller {
public:
	unsigned long polls = 0;	// written by its two threads
	void __attribute__((noinline)) start()
	{
		for (int i = 0; i < 2; i++)
			threads.emplace_back(&Poller::run, this);
	}
	void stop()
	{
		for (auto &t : threads)
			t.join();
	}

private:
	void __attribute__((noinline)) run()
	{
		for (int k = 0; k < 1000000; k++)
			__atomic_fetch_add(&polls, 1, __ATOMIC_RELAXED);
	}
	std::vector<std::thread> threads;
};
Poller g_poller;

struct Acc {
	long sum;
} accs[4];				// std::async's tasks, one element each

static long __attribute__((noinline)) accumulate(Acc *a, long n)
{
	for (long k = 0; k < n; k++)
		a->sum += k ^ (long)a;
	return a->sum;
}

int main(int argc, char **argv)
{
	std::vector<std::future<long>> fs;
	long t = 0;

	g_server.port = argc > 1 ? atoi(argv[1]) : 7;
	g_server.start(4);
	g_poller.start();
	for (int i = 0; i < 4; i++)
		fs.push_back(std::async(std::launch::async, accumulate, &accs[i], 1000000L));
	for (auto &f : fs)
		t += f.get();
	g_server.stop();
	g_poller.stop();
	printf("%ld %lu %ld\n", g_server.requests, g_poller.polls, t);
	return 0;
}
