// SPDX-License-Identifier: LGPL-2.1-or-later
// A lookup cache, for mycl-share --types: a class derived from a base with
// a virtual table, whose first members lie in the base's tail padding
// (capacity at +12 of a 16-byte base); a lookup count every thread
// increments under the cache's mutex beside the limits every lookup reads;
// per-thread buckets of a template type in a std::vector.  g++ -O2 turns
// the lookup into a clone (.isra) that ends in a tail call to the unlock and
// calls a function that never returns (the lock's error): it returns all the
// same, through the tail call.
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

template <typename K> struct Bucket {
	K key;
	unsigned hits;
	unsigned misses;
};

struct Base {
	virtual ~Base() {}
	int kind = 1;
};

struct Cache : Base {
	int capacity = 1024;
	int ttl = 60;
	std::mutex lock;
	long lookups = 0;
	std::vector<Bucket<long>> buckets;
	Cache() : buckets(8) {}
	__attribute__((noinline)) bool get(long k, int tid)
	{
		std::lock_guard<std::mutex> g(lock);
		lookups++;
		Bucket<long> &b = buckets[tid];
		if (k % capacity < ttl) {
			b.hits++;
			return true;
		}
		b.misses++;
		return false;
	}
};

int main()
{
	Cache *c = new Cache;
	std::vector<std::thread> ts;
	for (int t = 0; t < 4; t++)
		ts.emplace_back([c, t] {
			for (long i = 0; i < 1000000; i++)
				c->get(i, t);
		});
	for (auto &t : ts)
		t.join();
	std::printf("%ld\n", c->lookups);
}
