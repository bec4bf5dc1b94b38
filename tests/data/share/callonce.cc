// SPDX-License-Identifier: LGPL-2.1-or-later
// Ground truth for mycl-share: a C++ service whose table is built once by
// std::call_once from the request path (inlined at -O2: the callable is kept
// in a local the once-proxy reaches through a thread-local pointer, then
// pthread_once), beside counters every request writes: a std::atomic, a
// plain error count, a function-local static's member, a std::mutex and the
// ring it guards; options parsed by main before the threads (start-up only)
// and a thread_local scratch buffer (never shared).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

struct Options {
	int workers = 2;
	int port = 0;
	bool verbose = false;
};

Options g_opts;
std::once_flag g_table_once;
int *g_table;
alignas(64) std::atomic<long> g_requests{0};
long g_errors;
alignas(64) std::mutex g_qlock;
int g_ring[64];
unsigned g_ring_pos;
thread_local char t_scratch[256];

class Stats {
public:
	static Stats &get()
	{
		static Stats s;
		return s;
	}
	void hit() { hits_++; }
	long hits() const { return hits_; }
private:
	long hits_ = 0;
};

static void build_table()
{
	g_table = new int[64];
	for (int i = 0; i < 64; i++)
		g_table[i] = i % 7 ? i * 3 : -1;
}

static int handle(int k)
{
	std::call_once(g_table_once, build_table);
	g_requests.fetch_add(1, std::memory_order_relaxed);
	Stats::get().hit();
	t_scratch[k & 255] = (char)k;
	int v = g_table[k & 63];
	if (v < 0)
		g_errors++;
	{
		std::lock_guard<std::mutex> g(g_qlock);
		g_ring[g_ring_pos++ & 63] = v;
	}
	return v;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!std::strcmp(argv[i], "-v"))
			g_opts.verbose = true;
		else if (!std::strcmp(argv[i], "-p") && i + 1 < argc)
			g_opts.port = std::atoi(argv[++i]);
		else if (!std::strcmp(argv[i], "-w") && i + 1 < argc)
			g_opts.workers = std::atoi(argv[++i]) > 0 && std::atoi(argv[i]) <= 8 ? std::atoi(argv[i]) : 2;
	}
	std::atomic<bool> stop{false};
	std::thread ts[8];
	for (int w = 0; w < g_opts.workers; w++)
		ts[w] = std::thread([&stop, w] {
			for (int k = w; !stop.load(std::memory_order_relaxed); k++)
				handle(k);
		});
	std::this_thread::sleep_for(std::chrono::milliseconds(100));
	stop = true;
	for (int w = 0; w < g_opts.workers; w++)
		ts[w].join();
	std::printf("%ld %ld %ld\n", g_requests.load(), g_errors, Stats::get().hits());
	return 0;
}
