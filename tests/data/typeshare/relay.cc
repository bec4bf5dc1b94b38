// SPDX-License-Identifier: LGPL-2.1-or-later
// A message relay, for mycl-share --types: a class whose two std::atomic
// counters are written by the sender and the reaper threads, each its own;
// sessions (a class with a base holding a lock word) in an array indexed by
// worker, 24 bytes apart; a template mailbox whose head and tail the
// producer and the consumer move.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

namespace relay {

struct Tally {
	std::atomic<long> sent{0};
	std::atomic<long> dropped{0};
};

class Endpoint {
public:
	int mtu = 1500;
	int flags = 1;
	Tally tally;
};

class Guarded {
public:
	std::atomic<int> word{0};
};

class Session : public Guarded {
public:
	long bytes = 0;
	int peer = 0;
	void add(long n) { bytes += n; }
};

template <int N> struct Mailbox {
	long cells[N];
	std::atomic<unsigned> head{0};
	std::atomic<unsigned> tail{0};
	bool put(long v)
	{
		unsigned h = head.load(std::memory_order_relaxed);
		if (h - tail.load(std::memory_order_acquire) == N)
			return false;
		cells[h % N] = v;
		head.store(h + 1, std::memory_order_release);
		return true;
	}
	bool get(long *v)
	{
		unsigned t = tail.load(std::memory_order_relaxed);
		if (head.load(std::memory_order_acquire) == t)
			return false;
		*v = cells[t % N];
		tail.store(t + 1, std::memory_order_release);
		return true;
	}
};

} // namespace relay

relay::Endpoint *endpoint;
relay::Session *sessions;
relay::Mailbox<64> *box;

__attribute__((noinline)) void send_one(relay::Endpoint *e, long n)
{
	if (n < e->mtu)
		e->tally.sent.fetch_add(1, std::memory_order_relaxed);
}

__attribute__((noinline)) void reap(relay::Endpoint *e)
{
	e->tally.dropped.fetch_add(1, std::memory_order_relaxed);
}

static void worker(int id)
{
	for (long i = 0; i < 1000000; i++) {
		send_one(endpoint, i & 2047);
		sessions[id].add(i & 7);
	}
}

static void reaper()
{
	for (long i = 0; i < 1000000; i++)
		reap(endpoint);
}

static void producer()
{
	for (long i = 0; i < 1000000; i++)
		while (!box->put(i))
			;
}

static void consumer()
{
	long v, s = 0;
	for (long i = 0; i < 1000000; i++) {
		while (!box->get(&v))
			;
		s += v;
	}
	std::printf("%ld\n", s);
}

int main()
{
	endpoint = new relay::Endpoint;
	sessions = new relay::Session[4];
	box = new relay::Mailbox<64>;
	std::vector<std::thread> t;
	for (int i = 0; i < 2; i++)
		t.emplace_back(worker, i);
	t.emplace_back(reaper);
	t.emplace_back(producer);
	t.emplace_back(consumer);
	for (auto &x : t)
		x.join();
	std::printf("%ld %ld\n", endpoint->tally.sent.load(), sessions[0].bytes);
	return 0;
}
