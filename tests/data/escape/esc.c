/* A program whose names carry terminal escapes: its thread name (comm), a
 * function's symbol, and (by gen.sh) its own file name.  A report must print
 * them escaped. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

/* The symbol is "spin\033]0;owned\007\033[2J", set by an assembler label. */
__attribute__((noinline)) unsigned long spin(unsigned long n) __asm__("spin\033]0;owned\007\033[2J");
__attribute__((noinline)) unsigned long spin(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec t0, t;
	unsigned long sink = 0;

	prctl(PR_SET_NAME, "e\033[31m\302\233x\n#", 0, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sink += spin(2000000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	printf("%lu\n", sink & 1);
	return 0;
}
