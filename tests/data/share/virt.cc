// SPDX-License-Identifier: LGPL-2.1-or-later
// Ground truth for mycl-share: virtual calls on global objects.  Every
// worker calls g_handler->on_request(), g_handler pointing to g_impl: at -O0
// a call through the vtable the object's data holds, devirtualized from the
// binary's own data.  g_impl.seen is written on every request (hot); g_spare,
// another Impl nothing calls, is never written.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

struct Handler {
	virtual void on_request(long) = 0;
	virtual ~Handler() {}
};

struct Impl : Handler {
	std::atomic<long> seen{0};
	int verbose = 0;
	void on_request(long n) override
	{
		seen.fetch_add(n, std::memory_order_relaxed);
		if (verbose)
			std::printf("request %ld\n", n);
	}
};

alignas(64) Impl g_impl;
alignas(64) Impl g_spare;
alignas(64) Handler *g_handler = &g_impl;

static void worker()
{
	for (long i = 0; i < 1000000; i++)
		g_handler->on_request(1);
}

int main()
{
	std::vector<std::thread> th;
	for (int i = 0; i < 4; i++)
		th.emplace_back(worker);
	for (auto &t : th)
		t.join();
	std::printf("%ld %ld\n", g_impl.seen.load(), g_spare.seen.load());
	return 0;
}
