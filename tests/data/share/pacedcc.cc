// SPDX-License-Identifier: LGPL-2.1-or-later
// Ground truth for mycl-share: a C++ housekeeping thread paced by
// std::this_thread::sleep_for (a call of its own at -O0, nanosleep inlined
// at -O2): sweeps is written while threads run, not hot; served, by the
// workers' loop, is.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

alignas(64) long sweeps;
long served;
static std::atomic<bool> stop_all{false};

int main(int argc, char **)
{
	std::thread sweeper([] {
		while (!stop_all.load()) {
			std::this_thread::sleep_for(std::chrono::milliseconds(10));
			sweeps++;
		}
	});
	std::vector<std::thread> workers;
	for (int i = 0; i < 2; i++)
		workers.emplace_back([] {
			for (int k = 0; k < 1000000; k++)
				__atomic_add_fetch(&served, 1, __ATOMIC_RELAXED);
		});
	for (auto &w : workers)
		w.join();
	stop_all = true;
	sweeper.join();
	return (int)(sweeps + served) + argc;
}
