// SPDX-License-Identifier: LGPL-2.1-or-later
// Ground truth for mycl-share: globals reached through accessors, as C++
// often reaches them: a function returning a global's address
// (registry()), a function-local static (stats()::s, a Meyers singleton),
// the result handed to a method at -O0 (registry()->lookups++ is
// std::atomic's operator++ on it).  Every worker writes both on every
// iteration (hot); g_settings, reached the same way, is written by main
// before the threads start only.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

struct Stats {
	std::atomic<long> hits{0};
	long misses = 0;
};

struct Registry {
	int verbose = 0;
	std::atomic<long> lookups{0};
};

struct Settings {
	long generation = 0;
	void bump() { generation++; }
};

alignas(64) Registry g_registry;
alignas(64) Settings g_settings;

static Stats &stats()
{
	static Stats s;
	return s;
}

Registry *registry() { return &g_registry; }
Settings *settings() { return &g_settings; }

__attribute__((noinline)) long work(long i) { return i * 7; }

static void worker()
{
	for (long i = 0; i < 1000000; i++) {
		stats().hits.fetch_add(1, std::memory_order_relaxed);
		registry()->lookups++;
		if (registry()->verbose)
			std::printf("%ld\n", work(i));
	}
}

int main()
{
	settings()->bump();
	std::vector<std::thread> th;
	for (int i = 0; i < 4; i++)
		th.emplace_back(worker);
	for (auto &t : th)
		t.join();
	std::printf("%ld %ld\n", stats().hits.load(), g_settings.generation);
	return 0;
}
