/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The C and C++ runtimes' functions the call graph knows by name (apinames.c). */
#ifndef MYCL_APINAMES_H
#define MYCL_APINAMES_H

#include <stdbool.h>

/*
 * A function that starts a thread running one of its arguments: that
 * argument's index; 9: std::thread's (the entry is its state's _M_run);
 * -1: none.
 */
int api_thread_start(const char *name);
/* A call that blocks a thread until I/O or a signal comes (accept, poll, epoll_wait...). */
bool api_waits(const char *name);
/* A function that never returns to its caller (exit, abort, __cxa_throw...). */
bool api_noreturn(const char *name);
/* A function that registers an exit handler (atexit, __cxa_atexit...). */
bool api_exit_handler(const char *name);
/*
 * A C library function that writes through one of its arguments (memset,
 * memcpy, strcpy, snprintf, read, clock_gettime...): that argument's index;
 * -1: none known.
 */
int api_writes_arg(const char *name);
/* A function that installs a signal handler, or a timer's notification (sigaction, signal...). */
bool api_signal(const char *name);
/* A function that runs its callback argument once per process (pthread_once, call_once). */
bool api_once(const char *name);
/* libstdc++'s std::thread::_State_impl<...>::_M_run, demangled or not. */
bool api_std_thread_run(const char *name);

#endif
