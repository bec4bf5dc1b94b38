// SPDX-License-Identifier: LGPL-2.1-or-later
// A C++ work queue (std::deque under a std::mutex, std::condition_variable)
// drained by a pool of std::thread lambdas: the deque's cursors are pointers
// its push and pop move (an add to memory, like a counter's) -- no counter;
// the request count, an atomic alone on its line, is one; per-worker stats
// by index; a timestamp written per request beside a level read per request;
// options parsed at start-up.  mycl-share's ground truth (share_checks.py).
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

struct WorkerStats {
	unsigned long served, bytes;
};
WorkerStats wstats[8];					// 16 B a worker: 4 to a line
alignas(64) std::atomic<unsigned long> total_requests;	// every request, every worker
alignas(64) long last_request_time;			// every request
int verbose_level;					// read every request, set at start-up
char config_name[40];					// start-up only
alignas(64) std::mutex qlock;
std::condition_variable qcv;
std::deque<int> queue_items;
bool shutting_down;

static void parse_config(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose_level++;
		else
			strncpy(config_name, argv[i], sizeof config_name - 1);
	}
}

static void handle(int id, int item)
{
	wstats[id].served++;
	wstats[id].bytes += item;
	total_requests.fetch_add(1, std::memory_order_relaxed);
	last_request_time = time(nullptr);
	if (verbose_level > 2)
		printf("%d %d\n", id, item);
}

static void serve(int id)
{
	for (;;) {
		std::unique_lock<std::mutex> l(qlock);
		qcv.wait(l, [] { return !queue_items.empty() || shutting_down; });
		if (queue_items.empty())
			return;
		int item = queue_items.front();
		queue_items.pop_front();
		l.unlock();
		handle(id, item);
	}
}

int main(int argc, char **argv)
{
	std::vector<std::thread> pool;

	parse_config(argc, argv);
	for (int i = 0; i < 4; i++)
		pool.emplace_back([i] { serve(i); });
	for (int n = 0; n < 1000000; n++) {
		std::lock_guard<std::mutex> g(qlock);
		queue_items.push_back(n & 255);
		qcv.notify_one();
	}
	{
		std::lock_guard<std::mutex> g(qlock);
		shutting_down = true;
	}
	qcv.notify_all();
	for (auto &t : pool)
		t.join();
	printf("%lu %s\n", total_requests.load(), config_name);
	return 0;
}
