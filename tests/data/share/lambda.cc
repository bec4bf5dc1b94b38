// SPDX-License-Identifier: LGPL-2.1-or-later
// std::thread running a lambda that captures an element of a global array by
// reference or by pointer, and a function object holding one: the address
// reaches the thread inside the callable object (its state on the heap),
// loaded back from the object by its operator() -- inlined into the state's
// _M_run at -O2, a tail call there.  mycl-share's ground truth (share_checks.py).
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

struct Counter {
	long hits = 0, misses = 0;
	void __attribute__((noinline)) record(long k)
	{
		if (k & 1)
			hits++;
		else
			misses++;
	}
};
Counter counters[4];			// a thread's element each, 16 B: 4 to a line
struct Shard {
	long ops;
} shards[4];				// 8 B each
struct Tally {
	unsigned long n;
} tallies[4];				// written by a function object's threads
bool verbose;				// start-up only

static void __attribute__((noinline)) run_shard(Shard *s, long n)
{
	for (long k = 0; k < n; k++)
		s->ops += k;
}

struct Pump {
	Tally *t;
	long rounds;
	void operator()() const
	{
		for (long k = 0; k < rounds; k++)
			__atomic_fetch_add(&t->n, 1, __ATOMIC_RELAXED);
	}
};

int main(int argc, char **argv)
{
	std::vector<std::thread> ts;
	long n = argc > 1 ? atol(argv[1]) : 1000000;

	verbose = argc > 2;
	for (int i = 0; i < 4; i++) {
		Counter &c = counters[i];
		ts.emplace_back([&c, n] {
			for (long k = 0; k < n; k++)
				c.record(k);
		});
	}
	for (int i = 0; i < 4; i++) {
		Shard *s = &shards[i];
		ts.emplace_back([s, n] { run_shard(s, n); });
	}
	for (int i = 0; i < 4; i++)
		ts.emplace_back(Pump{ &tallies[i], n });
	for (auto &t : ts)
		t.join();
	printf("%ld %ld %lu\n", counters[0].hits, shards[1].ops, tallies[2].n);
	return 0;
}
