// SPDX-License-Identifier: LGPL-2.1-or-later
// Ground truth for mycl-share: globals written by methods, the object's
// address handed down through calls (this, then this->member, then that
// member's own method): at -O0 every layer is a call.  g_server's counters
// are written by every worker on every request (hot); g_config is loaded by
// main before the threads through the same kind of chain (start-up only).
#include <cstdio>
#include <thread>
#include <vector>

struct Counter {
	long v = 0;
	void add(long n) { v += n; }
};

struct Stats {
	Counter requests, bytes;
	void record(long n)
	{
		requests.add(1);
		bytes.add(n);
	}
};

struct Server {
	int max_clients = 64;
	Stats stats;
	void handle(long i)
	{
		if (i < max_clients * 1000000L)
			stats.record(i & 255);
	}
};

struct Config {
	Counter generation;
	long limits[4] = { 1, 2, 3, 4 };
	void load(int argc)
	{
		generation.add(argc);
		limits[0] = argc;
	}
};

Server g_server;
Config g_config;

static void worker(int id)
{
	for (long i = 0; i < 200000; i++)
		g_server.handle(i + id);
}

int main(int argc, char **argv)
{
	(void)argv;
	g_config.load(argc);
	std::vector<std::thread> th;
	for (int i = 0; i < 4; i++)
		th.emplace_back(worker, i);
	for (auto &t : th)
		t.join();
	std::printf("%ld %ld\n", g_server.stats.requests.v, g_config.limits[0]);
	return 0;
}
