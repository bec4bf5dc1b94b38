/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A CPU-bound workload with a known shape, for checking profilers: about
 * half the time in checksum(), a quarter in mix_hash(), the rest in libc
 * (qsort with cmp_u32, memcpy), on two threads.
 *   hotloop [seconds]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t checksum(const uint8_t *p, size_t n)
{
	uint64_t c = 0;

	for (size_t i = 0; i < n; i++)
		c = (c << 5) + c + p[i];
	return c;
}

__attribute__((noinline)) static uint64_t mix_hash(uint64_t x, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdULL;
		x ^= x >> 29;
	}
	return x;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	double end = now() + *(double *)arg;
	static __thread uint8_t buf[1 << 14], copy[1 << 14];
	uint32_t v[512];
	uint64_t seed = (uintptr_t)&seed;

	while (now() < end) {
		for (int r = 0; r < 8; r++)
			sink += checksum(buf, sizeof(buf));
		sink += mix_hash(seed++, 30000);
		for (size_t i = 0; i < 512; i++)
			v[i] = (uint32_t)mix_hash(seed + i, 1);
		qsort(v, 512, sizeof(v[0]), cmp_u32);
		for (int r = 0; r < 16; r++) {
			memcpy(copy, buf, sizeof(buf));
			buf[r] ^= copy[sizeof(copy) - 1 - r];
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	pthread_t t;

	if (pthread_create(&t, NULL, worker, &secs))
		return 1;
	worker(&secs);
	pthread_join(t, NULL);
	printf("%llu\n", (unsigned long long)(sink & 1));
	return 0;
}
