/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Functions named like std::thread's state functions, but cut short, with
 * unbalanced parentheses, empty class names, pointers to pointers: names
 * from the symbol table are the input's, and mycl-share parses them for the
 * callable's class and arguments (share_through.c's thread_state).  It must
 * read them without harm.  Regenerate the binary with gen.sh.
 */
#include <pthread.h>
struct W { long a, b; };
static struct W ws[4];
#define F(n, s) void n(void *p) __asm__("\"" s "\""); void n(void *p) { ((struct W *)p)->a++; }
F(f1, "std::thread::_State_impl<*)(")
F(f2, "std::thread::_State_impl<(::*)(((((")
F(f3, "std::thread::_State_impl<std::tuple<void (W::*)(), W*, , ,W*,std::reference_wrapper<W>>")
F(f4, "__thread_proxy<(W::*)()) const, W*")
F(f5, "__thread_proxy<void (*)(W*), std::reference_wrapper<>, std::reference_wrapper<W, W**, (*)*, W ***>")
F(f6, "W::W")
F(f7, "W::~W")
F(f8, "W::")
F(f9, "W::run")
F(f10, "__thread_proxy<void (::*)(W*), W*>")
static void *entry(void *p) { for (int i = 0; i < 100; i++) f9(p); return 0; }
int main(void)
{
	pthread_t t;
	void (*volatile fs[])(void *) = { f1, f2, f3, f4, f5, f6, f7, f8, f9, f10 };
	pthread_create(&t, 0, entry, &ws[0]);
	for (int i = 0; i < 10; i++) fs[i](&ws[i & 3]);
	pthread_join(t, 0);
	return 0;
}
