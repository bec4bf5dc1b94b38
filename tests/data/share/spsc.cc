// tests/data/share/spsc.cc: a single-producer single-consumer ring whose two positions
// (std::atomic, written by two threads) share a line; a function-static stats
// singleton; a read-mostly level beside a counter every worker increments.
// clang splits the static atomics (prod_pos.0): names demangled with the part.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

static std::atomic<unsigned long> prod_pos{0};   // written by the producer
static std::atomic<unsigned long> cons_pos{0};   // written by the consumer, same line
static int ring_slots[256];

struct Stats { long produced; long consumed; };
static Stats &stats() { static Stats s; return s; }   // function-static singleton

int log_level = 1;               // read-mostly, set once by main
long requests_seen;              // written by every worker per request

static void producer(long n) {
	for (long i = 0; i < n; i++) {
		unsigned long p = prod_pos.load(std::memory_order_relaxed);
		while (p - cons_pos.load(std::memory_order_acquire) >= 256) {}
		ring_slots[p % 256] = (int)i;
		prod_pos.store(p + 1, std::memory_order_release);
		stats().produced++;
	}
}

static void consumer(long n) {
	long sum = 0;
	for (long i = 0; i < n; i++) {
		unsigned long c = cons_pos.load(std::memory_order_relaxed);
		while (prod_pos.load(std::memory_order_acquire) == c) {}
		sum += ring_slots[c % 256];
		cons_pos.store(c + 1, std::memory_order_release);
		stats().consumed++;
	}
	if (log_level > 2) std::printf("%ld\n", sum);
}

static void worker(long n) {
	for (long i = 0; i < n; i++) {
		if (log_level > 3) std::puts("req");
		__atomic_fetch_add(&requests_seen, 1, __ATOMIC_RELAXED);
	}
}

int main(int argc, char **argv) {
	long n = argc > 1 ? std::atol(argv[1]) : 1000000;
	log_level = argc > 2 ? std::atoi(argv[2]) : 1;
	std::vector<std::thread> t;
	t.emplace_back(producer, n);
	t.emplace_back(consumer, n);
	for (int i = 0; i < 2; i++) t.emplace_back(worker, n);
	for (auto &x : t) x.join();
	std::printf("%ld %ld %ld\n", stats().produced, stats().consumed, requests_seen);
}
