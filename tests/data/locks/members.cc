// SPDX-License-Identifier: LGPL-2.1-or-later
// C++ locks in member functions: a std::mutex in a journal, a
// std::shared_mutex in a registry (mostly writers), taken through
// lock_guard, unique_lock and shared_lock.
//   members [seconds] [threads]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

static volatile bool stop_all;
static unsigned long sink;

__attribute__((noinline)) static void spend(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sink = sink * 2862933555777941757UL + i;
}

class Journal {
public:
	__attribute__((noinline)) void append(long v)
	{
		std::lock_guard<std::mutex> g(append_mutex);
		tail_ += v;
		spend(300);
	}
	long tail() const { return tail_; }

private:
	long tail_ = 0;
	std::mutex append_mutex;
};

class Registry {
public:
	__attribute__((noinline)) void publish(int k, long v)
	{
		std::unique_lock<std::shared_mutex> w(names_mutex);
		slots_[k & 15] = v;
		spend(250);
	}
	__attribute__((noinline)) long find(int k)
	{
		std::shared_lock<std::shared_mutex> r(names_mutex);
		spend(40);
		return slots_[k & 15];
	}

private:
	std::shared_mutex names_mutex;
	long slots_[16] = {};
};

Journal journal;
Registry registry;

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	int n = argc > 2 ? atoi(argv[2]) : 4;
	std::vector<std::thread> v;

	for (int i = 0; i < n; i++)
		v.emplace_back([i] {
			for (unsigned k = 0; !stop_all; k++) {
				if (i % 2)
					journal.append(k);
				else if (k % 3)
					registry.publish((int)k, k);
				else
					sink += registry.find((int)k);
				spend(20);
			}
		});
	std::this_thread::sleep_for(std::chrono::duration<double>(secs));
	stop_all = true;
	for (auto &t : v)
		t.join();
	std::printf("%ld\n", journal.tail());
	return 0;
}
