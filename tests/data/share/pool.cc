// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ground truth for mycl-share in C++: threads started by std::thread (a
 * lambda, a member function), per-worker structs by reference, an array
 * padded to a line per element (no sharing), a static constructor, writes
 * after the join, an atomic counter every worker bumps.
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

struct Config { int verbose; int max_conn; long timeout_ms; long buf_size; };
struct Counters { long requests; long bytes; };
struct Slot { long done; long failed; };
struct alignas(64) PaddedSlot { long done; };

Config g_config = {0, 100, 5000, 4096};      // read on every request, set at start-up
Counters g_counters;                         // every worker, every request (plain ++)
Slot per_worker[8];                          // one per worker, by reference
PaddedSlot padded[8];                        // one per worker, padded: fine
long g_build_tag;                            // static constructor only
int g_shutdown_reason;                       // after the join only
unsigned g_rng_state = 7;                    // every request
std::atomic<long> g_served;                  // every worker, every request: a hot shared counter

static struct Init { Init() { g_build_tag = 20261125; } } init_once;

class Server {
public:
	explicit Server(int id) : id_(id) {}
	void run(long n)
	{
		Slot &mine = per_worker[id_];
		for (long i = 0; i < n; i++) {
			long got = handle(i);
			if (got < 0)
				mine.failed++;
			else
				mine.done++;
			padded[id_].done++;
		}
	}
private:
	__attribute__((noinline)) long handle(long key)
	{
		g_served.fetch_add(1, std::memory_order_relaxed);
		g_counters.requests++;
		g_counters.bytes += key & 63;
		g_rng_state = g_rng_state * 1103515245u + 12345u;
		if (key > g_config.max_conn * g_config.timeout_ms)
			return -1;
		return (long)(g_rng_state >> 16) + g_config.buf_size;
	}
	int id_;
};

__attribute__((noinline)) static void parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		std::string a(argv[i]);
		if (a.rfind("-v", 0) == 0)
			g_config.verbose++;
		else if (a.rfind("-c", 0) == 0)
			g_config.max_conn = std::atoi(argv[i] + 2);
		else if (a.rfind("-t", 0) == 0)
			g_config.timeout_ms = std::atol(argv[i] + 2);
	}
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	int n = 4;
	std::vector<std::thread> pool;
	for (int i = 0; i < n; i++)
		pool.emplace_back([i] { Server s(i); s.run(3000000); });
	for (auto &t : pool)
		t.join();
	g_shutdown_reason = 3;
	std::printf("%ld %ld %ld %ld %d\n", g_counters.requests, per_worker[0].done,
		    padded[0].done, g_build_tag, g_shutdown_reason);
	return 0;
}
