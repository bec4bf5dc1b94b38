// SPDX-License-Identifier: LGPL-2.1-or-later
// Ground truth for mycl-share: a C++ pool of std::function tasks behind a
// mutex and a condition variable.  The lambda's invoker is stored into each
// std::function by main after the threads start (in vector registers at -O2):
// g_hits, which every task increments, is a hot shared counter;
// g_config_loaded is written by main before the pool starts only.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

alignas(64) std::atomic<long> g_hits{0};
int g_verbose = 0;
alignas(64) long g_config_loaded = 0;
int g_shards = 16;

class Pool {
public:
	explicit Pool(int n)
	{
		for (int i = 0; i < n; i++)
			th_.emplace_back([this] { run(); });
	}
	~Pool()
	{
		{
			std::lock_guard<std::mutex> l(m_);
			stop_ = true;
		}
		cv_.notify_all();
		for (auto &t : th_)
			t.join();
	}
	void submit(std::function<void()> f)
	{
		{
			std::lock_guard<std::mutex> l(m_);
			q_.push(std::move(f));
		}
		cv_.notify_one();
	}

private:
	void run()
	{
		for (;;) {
			std::function<void()> f;
			{
				std::unique_lock<std::mutex> l(m_);
				cv_.wait(l, [this] { return stop_ || !q_.empty(); });
				if (q_.empty())
					return;
				f = std::move(q_.front());
				q_.pop();
			}
			f();
		}
	}
	std::vector<std::thread> th_;
	std::mutex m_;
	std::condition_variable cv_;
	std::queue<std::function<void()>> q_;
	bool stop_ = false;
};

static long work(long i)
{
	g_hits.fetch_add(1, std::memory_order_relaxed);
	if (g_verbose)
		std::printf("%ld\n", i);
	return i % g_shards;
}

int main(int argc, char **argv)
{
	(void)argv;
	g_config_loaded = argc;
	std::atomic<long> sum{0};
	{
		Pool p(4);
		for (long i = 0; i < 100000; i++)
			p.submit([i, &sum] { sum += work(i); });
	}
	return (int)(sum.load() & 1);
}
