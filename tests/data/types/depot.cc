// SPDX-License-Identifier: LGPL-2.1-or-later
// The data-type fixture in C++: a class with a base, a template member, a
// latch whose word is an atomic, methods reached through this, and a vector
// of per-worker records.  serve() and Gate::enter() are what the tests read.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

namespace depot {
struct Meter { unsigned long hits, misses; };
class Gate {
public:
	std::atomic<int> word{0};
	unsigned int waits = 0;
	__attribute__((noinline)) void enter()
	{
		while (word.exchange(1, std::memory_order_acquire)) {
			waits++;
			while (word.load(std::memory_order_relaxed))
				;
		}
	}
	void leave() { word.store(0, std::memory_order_release); }
};
struct Named { const char *label; long serial; };
template <typename T> struct Ring { T head, tail; T cells[6]; };
struct Bay : Named {
	Ring<long> ring;
	Meter meter;
	Gate gate;
	Meter **spares;
};
struct Worker { long done; long pad[7]; };
}

depot::Bay *bay;
std::vector<depot::Worker> crew(2);

__attribute__((noinline)) void serve(depot::Bay *b, int id)
{
	b->gate.enter();
	b->meter.hits++;
	b->ring.cells[id & 3]++;
	b->spares[id & 1]->misses++;
	b->gate.leave();
	crew[id].done++;
}

int main()
{
	bay = new depot::Bay();
	bay->spares = new depot::Meter *[2];
	bay->spares[0] = new depot::Meter();
	bay->spares[1] = new depot::Meter();
	std::vector<std::thread> t;
	for (int i = 0; i < 2; i++)
		t.emplace_back([i] { for (int k = 0; k < 1000000; k++) serve(bay, i); });
	for (auto &x : t)
		x.join();
	std::printf("%lu\n", bay->meter.hits);
}
