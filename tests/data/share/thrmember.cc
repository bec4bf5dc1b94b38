// SPDX-License-Identifier: LGPL-2.1-or-later
// mycl-share's ground truth for std::thread running a member function on an
// object: std::thread(&Worker::run, &workers[i], n), whose object pointer
// reaches the method through the thread's state on the heap (and SSE
// registers at -O2), std::thread(&Server::loop, &g_server), and functions
// handed an object: std::thread(run_ctx, &ctxs[i], n), std::thread(run_ref,
// std::ref(solo[i])); beside them a
// Worker and a Stats no thread runs (written by main once), options parsed
// before the threads, and per-thread rows padded to a line each.
// Regenerate the binaries with gen.sh.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

struct Worker {
	unsigned long done = 0;
	unsigned long bytes = 0;
	void run(int n);
};
static Worker workers[4];
static Worker spare_worker;		/* never run: written once by main */

struct Server {
	std::atomic<unsigned long> accepted{0};
	int port = 0;
	void loop();
};
static Server g_server;

struct Stats {
	unsigned long bumps = 0;
	void bump() { bumps++; }
};
static Stats g_stats;			/* its method runs in main only */
static void report(Stats *st) { st->bump(); }

struct Options { int threads = 4; int verbose = 0; char name[16] = "srv"; };
static Options g_opts;

alignas(64) static unsigned long padded_hits[4][8];

struct Ctx {
	unsigned long n;
	unsigned long bytes;
};
static Ctx ctxs[4];
static Ctx solo[2];

static void run_ctx(Ctx *c, int iters)
{
	for (int i = 0; i < iters; i++) {
		c->n++;
		c->bytes += i & 3;
	}
}

static void run_ref(Ctx &c)
{
	for (int i = 0; i < 1000000; i++)
		c.n++;
}

void Worker::run(int n)
{
	for (int i = 0; i < n; i++) {
		done++;
		bytes += i & 7;
	}
}

void Server::loop()
{
	for (int i = 0; i < 1000000; i++)
		accepted.fetch_add(1, std::memory_order_relaxed);
}

static void padded_worker(int id)
{
	for (int i = 0; i < 1000000; i++)
		padded_hits[id][0]++;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			g_opts.verbose++;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			g_opts.threads = atoi(argv[++i]);
	}
	g_server.port = 8080;
	spare_worker.done = 1;
	report(&g_stats);
	std::vector<std::thread> ts;
	for (int i = 0; i < 4; i++)
		ts.emplace_back(&Worker::run, &workers[i], 1000000);
	ts.emplace_back(&Server::loop, &g_server);
	for (int i = 0; i < 4; i++)
		ts.emplace_back(padded_worker, i);
	for (int i = 0; i < 4; i++)
		ts.emplace_back(run_ctx, &ctxs[i], 1000000);
	for (int i = 0; i < 2; i++)
		ts.emplace_back(run_ref, std::ref(solo[i]));
	for (auto &t : ts)
		t.join();
	if (g_opts.verbose)
		printf("%lu %lu %lu %lu %lu %lu %lu\n", workers[0].done, g_server.accepted.load(),
		       padded_hits[1][0], spare_worker.done, g_stats.bumps, ctxs[1].n, solo[0].n);
	return 0;
}
