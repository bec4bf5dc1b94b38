/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: a C++ server whose threads run a member
 * function (std::thread(&Server::run, &s)); each request takes a std::mutex
 * with std::lock_guard (at -O0 the mutex reaches pthread_mutex_lock four calls
 * down, through the guard's member), adds to a std::atomic and to static
 * class members; the switches beside them are set by main before the threads.
 */
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>
#include <cstdio>

namespace app {
struct Stats { static long served; static long errors; };
long Stats::served;
long Stats::errors;
int log_level;               // read on every request, set at start-up
std::mutex table_lock;       // taken on every request
int table_size;              // read on every request
std::atomic<long> bytes_in;  // every worker adds
int max_bytes;               // read on every request

class Server {
public:
	explicit Server(int n) : n_(n) {}
	void run() {
		for (int i = 0; i < n_; i++)
			handle(i);
	}
private:
	void handle(int key) {
		if (log_level > 2)
			std::fputs("req\n", stderr);
		{
			std::lock_guard<std::mutex> g(table_lock);
			key += table_size;
		}
		bytes_in.fetch_add(key & 7, std::memory_order_relaxed);
		if (key > max_bytes)
			Stats::errors++;
		Stats::served++;
	}
	int n_;
};
}

int main(int argc, char **argv)
{
	app::log_level = argc;
	app::table_size = 64;
	app::max_bytes = 1 << 20;
	app::Server s(100000);
	std::vector<std::thread> ts;
	for (int i = 0; i < 4; i++)
		ts.emplace_back(&app::Server::run, &s);
	for (auto &t : ts)
		t.join();
	std::printf("%ld %ld\n", app::Stats::served, app::bytes_in.load());
	(void)argv;
	return 0;
}
