/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The C and C++ runtimes' functions the call graph knows by name (apinames.c). */
#ifndef MYCL_APINAMES_H
#define MYCL_APINAMES_H

#include <stdbool.h>
#include <stddef.h>

/* What the runtimes' name NAME says its function does (a library's code the binary lacks). */
struct api_roles {
	/*
	 * It starts a thread running one of its arguments: that argument's
	 * index; 9: std::thread's (the entry is its state's _M_run); -1: none.
	 */
	int thread_arg;
	bool thread_team;	/* ... on each of a team's threads, not on one (OpenMP's parallel) */
	bool waits;		/* blocks a thread until I/O or a signal comes (accept, poll...) */
	bool noreturn;		/* never returns to its caller (exit, abort, __cxa_throw...) */
	bool exit_handler;	/* registers an exit handler (atexit, __cxa_atexit...) */
	bool once;		/* runs its callback once per process (pthread_once, call_once) */
	bool signal;		/* installs a signal handler or a timer's notification (sigaction) */
	bool sleeps;		/* waits a time, whatever happens (sleep, nanosleep, sleep_for) */
	bool yields;		/* gives up the CPU for a moment (sched_yield, thrd_yield) */
	bool joins;		/* waits for a thread to end (pthread_join, thrd_join, std::thread::join) */
	/*
	 * It waits for I/O on as many descriptors as its argument SLEEPS_IF_ZERO
	 * says, and only a time when that is the constant 0 (select(0, NULL,
	 * NULL, NULL, &tv), poll(NULL, 0, ms)); -1: no such argument.
	 */
	int sleeps_if_zero;
};

void api_roles(const char *name, struct api_roles *r);
/* NAME sleeps or yields (api_roles' sleeps || yields, without its other questions). */
bool api_pauses(const char *name);
/*
 * NAME without glibc's internal prefixes (__GI_, __libc_), leading underscores
 * and version suffix (ppc64's call stubs too), into BUF of LEN: how the lists
 * here and the lock rules match names.
 */
const char *lock_plain_name(const char *name, char *buf, size_t len);
/*
 * A C library function that writes through one of its arguments (memset,
 * memcpy, strcpy, snprintf, read, clock_gettime...): that argument's index;
 * -1: none known.
 */
int api_writes_arg(const char *name);
/* libstdc++'s std::thread::_State_impl<...>::_M_run, demangled or not. */
bool api_std_thread_run(const char *name);

#endif
