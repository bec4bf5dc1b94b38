/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the names of the C and C++ runtimes' functions say they do, where the
 * code that does it is in a library, not in the binary read: start a thread
 * (and with which argument), block waiting for work, never return, register
 * an exit handler, run a callback once, install a signal handler, write
 * through an argument.  The call graph (callgraph.c) and mycl-share decide
 * everything else from the code; these names are the only ones they know.
 */
#include <string.h>
#include "apinames.h"

#define NAMES(list) (list), sizeof(list) / sizeof((list)[0])

const char *lock_plain_name(const char *name, char *buf, size_t len)
{
	size_t n;
	const char *at;

	if (!name || !len)
		return name;
	/* ppc64 call stubs: "0000004a.plt_call.pthread_create@@GLIBC_2.34". */
	if ((at = strstr(name, ".plt_call.")))
		name = at + 10;
	if (!strncmp(name, "__GI_", 5))
		name += 5;
	else if (!strncmp(name, "__libc_", 7))
		name += 7;
	while (*name == '_')
		name++;
	at = strchr(name, '@');
	n = at ? (size_t)(at - name) : strlen(name);
	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return buf;
}

/* PLAIN (a name as lock_plain_name gives it) is one of LIST's N. */
static bool named(const char *plain, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(plain, list[i]))
			return true;
	return false;
}

/*
 * Imported functions that start a thread running one of their arguments.
 * Names as glibc's own (static) code has them count too: __pthread_create,
 * and the versioned pthread_create_2_1.
 */
static int thread_start(const char *name, const char *b, bool *team)
{
	static const struct { const char *name; int arg; bool team; } api[] = {
		{ "pthread_create", 2, false }, { "thrd_create", 1, false }, { "clone", 0, false },
		{ "g_thread_new", 1, false }, { "g_thread_try_new", 1, false },
		{ "uv_thread_create", 1, false },
		/* OpenMP (libgomp): a parallel region's outlined body runs on the team's threads */
		{ "GOMP_parallel", 0, true }, { "GOMP_parallel_start", 0, true },
		{ "GOMP_parallel_loop_static", 0, true }, { "GOMP_parallel_loop_dynamic", 0, true },
		{ "GOMP_parallel_loop_guided", 0, true }, { "GOMP_parallel_loop_runtime", 0, true },
		{ "GOMP_parallel_sections", 0, true },
		{ "kmpc_fork_call", 2, true },	/* LLVM's libomp: __kmpc_fork_call */
	};

	*team = false;
	/* Demangled, or mangled as its PLT entry is named ("_ZNSt6thread15_M_start_thread...@plt"). */
	if (!strncmp(name, "std::thread::_M_start_thread", 28) ||
	    !strncmp(name, "_ZNSt6thread15_M_start_thread", 29))
		return 9;		/* the entry is in the state object: its _M_run */
	for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
		size_t n = strlen(api[i].name);

		if (!strncmp(b, api[i].name, n) &&
		    (!b[n] || (b[n] == '_' && b[n + 1] >= '0' && b[n + 1] <= '9'))) {
			*team = api[i].team;
			return api[i].arg;
		}
	}
	return -1;
}

/*
 * Imported calls that block a thread until I/O or a signal comes: what a
 * server's main loop waits in (accept, poll, an event loop), as opposed to a
 * loop over options or plugins.  Reads, sleeps and condition variables are
 * not among them: start-up code waits in those too (for a file, for a
 * thread it started).
 */
static bool waits(const char *b)
{
	static const char *const api[] = {
		"accept", "accept4", "poll", "ppoll", "epoll_wait", "epoll_pwait", "epoll_pwait2",
		"select", "pselect", "pselect6", "kevent", "sigwait", "sigwaitinfo", "sigtimedwait",
		"sigsuspend", "pause", "io_getevents", "io_uring_enter", "io_uring_wait_cqe",
		"msgrcv", "event_base_loop", "event_base_dispatch", "uv_run",
	};

	return named(b, NAMES(api));
}

/*
 * Calls that wait a time whatever happens: a loop that goes round only
 * through one (a housekeeping thread's "sleep(1); flush();") repeats at the
 * pace of its sleep, not of the work.  Condition variables, poll and the like
 * wait for work too, and are not among them.
 */
static bool sleeps(const char *b)
{
	static const char *const api[] = {
		"sleep", "usleep", "nanosleep", "clock_nanosleep", "thrd_sleep",
	};

	return named(b, NAMES(api)) || !strncmp(b, "ZNSt11this_thread9sleep_for", 27) ||
	       !strncmp(b, "ZNSt11this_thread11sleep_until", 30) ||
	       !strncmp(b, "std::this_thread::sleep_for<", 28) ||
	       !strncmp(b, "std::this_thread::sleep_until<", 30);
}

/*
 * Calls that wait for I/O on a count of descriptors, and only a time when
 * that count is 0: MariaDB's my_sleep() and WiredTiger's __wt_sleep() are
 * select(0, NULL, NULL, NULL, &tv).  The count's argument, or -1.
 */
static int sleeps_if_zero(const char *b)
{
	static const struct { const char *name; int arg; } api[] = {
		{ "select", 0 }, { "pselect", 0 }, { "pselect6", 0 }, { "poll", 1 }, { "ppoll", 1 },
	};

	for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++)
		if (!strcmp(b, api[i].name))
			return api[i].arg;
	return -1;
}

/*
 * Functions that never return to their caller (the C library's and the C++
 * ABI's): the code after a call to one belongs to another path, not this
 * one's fall-through, or the control flow grows cycles that are not there.
 */
static bool noreturn(const char *name, const char *b)
{
	static const char *const api[] = {
		"exit", "Exit", "abort", "quick_exit", "assert_fail", "assert_perror_fail",
		"stack_chk_fail", "fortify_fail", "chk_fail", "longjmp", "siglongjmp", "longjmp_chk",
		"pthread_exit", "cxa_throw", "cxa_rethrow", "cxa_bad_cast", "cxa_bad_typeid",
		"cxa_throw_bad_array_new_length", "Unwind_Resume", "thrd_exit",
	};
	/* Names a program may well give a function of its own that returns: imports only. */
	static const char *const imported[] = { "err", "errx", "verr", "verrx" };

	if (named(b, NAMES(api)) || (strchr(name, '@') && named(b, NAMES(imported))))
		return true;
	return !strncmp(b, "ZSt20__throw_", 13) || !strncmp(b, "ZSt19__throw_", 13) ||
	       !strncmp(b, "ZSt16__throw_", 13) || !strncmp(b, "ZSt17__throw_", 13) ||
	       !strncmp(b, "ZSt21__throw_", 13) || !strncmp(b, "ZSt24__throw_", 13) ||
	       !strncmp(b, "std::__throw_", 13);
}


int api_writes_arg(const char *name)
{
	/* Names as lock_plain_name gives them: no leading underscores, no @version. */
	static const struct { const char *name; int arg; } w[] = {
		{ "memset", 0 }, { "memcpy", 0 }, { "memmove", 0 }, { "mempcpy", 0 },
		{ "bzero", 0 }, { "explicit_bzero", 0 }, { "strcpy", 0 }, { "strncpy", 0 },
		{ "stpcpy", 0 }, { "stpncpy", 0 }, { "strcat", 0 }, { "strncat", 0 },
		{ "sprintf", 0 }, { "snprintf", 0 }, { "vsprintf", 0 }, { "vsnprintf", 0 },
		{ "memset_chk", 0 }, { "memcpy_chk", 0 }, { "memmove_chk", 0 },
		{ "mempcpy_chk", 0 }, { "strcpy_chk", 0 }, { "strncpy_chk", 0 },
		{ "stpcpy_chk", 0 }, { "strcat_chk", 0 }, { "sprintf_chk", 0 },
		{ "snprintf_chk", 0 }, { "vsprintf_chk", 0 }, { "vsnprintf_chk", 0 },
		{ "strftime", 0 }, { "fgets", 0 }, { "fread", 0 }, { "time", 0 },
		{ "read", 1 }, { "pread", 1 }, { "pread64", 1 }, { "recv", 1 },
		{ "recvfrom", 1 }, { "clock_gettime", 1 }, { "gettimeofday", 0 },
		{ "localtime_r", 1 }, { "gmtime_r", 1 }, { "getrusage", 1 },
	};
	char b[64];

	lock_plain_name(name, b, sizeof(b));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(b, w[i].name))
			return w[i].arg;
	return -1;
}

/* Calls that give up the CPU for a moment; B: NAME as lock_plain_name gives it. */
static bool yields(const char *name, const char *b)
{
	static const char *const api[] = { "sched_yield", "thrd_yield", "pthread_yield",
					   "ZNSt11this_thread5yieldEv" };

	return named(b, NAMES(api)) || !strcmp(name, "std::this_thread::yield()");
}

bool api_pauses(const char *name)
{
	char b[128];

	lock_plain_name(name, b, sizeof(b));
	return sleeps(b) || yields(name, b);
}

void api_roles(const char *name, struct api_roles *r)
{
	static const char *const exits[] = {
		"atexit", "cxa_atexit", "on_exit", "cxa_thread_atexit_impl",
	};
	static const char *const signals[] = {
		"sigaction", "signal", "bsd_signal", "sysv_signal", "sigset", "timer_create",
	};
	static const char *const once[] = { "pthread_once", "call_once", "gthread_once" };
	static const char *const joins[] = { "pthread_join", "pthread_timedjoin_np", "thrd_join",
					     "g_thread_join", "uv_thread_join" };
	char b[128];

	lock_plain_name(name, b, sizeof(b));	/* once for every question */
	r->thread_arg = thread_start(name, b, &r->thread_team);
	r->waits = waits(b);
	r->noreturn = noreturn(name, b);
	r->exit_handler = named(b, NAMES(exits));
	/* (std::call_once<F>, a template of the binary: its instances by their mangled or plain name) */
	r->once = named(b, NAMES(once)) || !strncmp(b, "ZSt9call_onceI", 14) ||
		  !strncmp(name, "std::call_once<", 15);
	r->signal = named(b, NAMES(signals));
	r->sleeps = sleeps(b);
	r->yields = yields(name, b);
	r->joins = named(b, NAMES(joins)) || !strncmp(b, "ZNSt6thread4joinEv", 18) ||
		   !strncmp(name, "std::thread::join(", 18) || !strcmp(name, "std::thread::join");
	r->sleeps_if_zero = sleeps_if_zero(b);
}

/*
 * libstdc++'s std::thread::_State_impl<...>::_M_run, as demangled (with or
 * without its parameters) or mangled.
 */
bool api_std_thread_run(const char *name)
{
	const char *run;
	size_t n;

	if (!strncmp(name, "_ZNSt6thread11_State_impl", 25))
		return strstr(name, "6_M_runEv") != NULL;
	if (strncmp(name, "std::thread::_State_impl<", 25) || !(run = strstr(name, ">::_M_run")))
		return false;
	n = strlen(run);
	return n == 9 || !strcmp(run + 9, "()");
}
