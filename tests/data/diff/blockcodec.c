/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mycl-diff's ground truth: a fixed amount of work in four functions.  Built
 * twice; the "new" build (-DSLOW_CHECKSUM) does checksum_block's work twice
 * and changes nothing else, so a comparison of the two recordings should find
 * checksum_block and nothing else above sampling noise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 4096

static uint8_t block[BLOCK];

__attribute__((noinline)) static uint32_t parse_header(uint32_t seed)
{
	for (int i = 0; i < BLOCK; i++)
		seed = seed * 1103515245u + 12345u + block[i];
	return seed;
}

__attribute__((noinline)) static void decode_block(uint32_t seed)
{
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < BLOCK; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			block[i] = (uint8_t)(block[i] + seed);
		}
}

__attribute__((noinline)) static uint32_t checksum_block(void)
{
	uint32_t a = 1, b = 0;
#ifdef SLOW_CHECKSUM
	const int rounds = 4;
#else
	const int rounds = 2;
#endif

	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < BLOCK; i++) {
			a = (a + block[i]) % 65521u;
			b = (b + a) % 65521u;
		}
	return b << 16 | a;
}

__attribute__((noinline)) static uint64_t write_out(uint32_t sum)
{
	uint64_t h = sum;

	for (int i = 0; i < BLOCK / 2; i++)
		h = (h ^ block[i]) * 0x100000001b3ull;
	return h;
}

int main(int argc, char **argv)
{
	long blocks = argc > 1 ? atol(argv[1]) : 20000;
	uint64_t total = 0;
	uint32_t seed = 7;

	for (long n = 0; n < blocks; n++) {
		seed = parse_header(seed);
		decode_block(seed);
		total += write_out(checksum_block());
	}
	printf("%llu\n", (unsigned long long)total);
	return 0;
}
