// SPDX-License-Identifier: LGPL-2.1-or-later
// A scorer, for mycl-share --types: the only writer of a heap object's
// counter is a lambda declared inside a block of the function that makes it
// (a block with an object to destroy at its end, so gcc writes the block's
// scope and the lambda's closure type inside it) and handed to a function
// template.  The lambda's code is described inside that block, where no
// index of the unit's functions (nor dwarf_getscopes) looks by default.
#include <cstdio>
#include <thread>
#include <vector>

struct Board {
	long rounds = 0;
	int width = 8;
	int depth = 2;
	long cells[4];
};

long sink;

struct Tag {
	long v;
	~Tag() { sink += v; }
};

template <class F> __attribute__((noinline)) long apply(Board *b, long n, F f)
{
	return f(b, n);
}

static void serve(Board *b, int id)
{
	for (long i = id; i < 2000000; i++) {
		if (i & 1) {
			Tag tag{i};
			int extra = (int)(i & 3);
			sink += apply(b, i, [&](Board *p, long n) __attribute__((noinline)) {
				if (n % p->width < p->depth + extra)
					__atomic_fetch_add(&p->rounds, 1, __ATOMIC_RELAXED);
				return tag.v;
			});
		}
	}
}

int main()
{
	Board *b = new Board;
	std::vector<std::thread> t;
	for (int i = 0; i < 3; i++)
		t.emplace_back(serve, b, i);
	for (auto &x : t)
		x.join();
	std::printf("%ld\n", b->rounds);
}
