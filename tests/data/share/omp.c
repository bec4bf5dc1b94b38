/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: threads started by OpenMP.  The parallel
 * loop's body (outlined by the compiler, handed to libgomp's GOMP_parallel
 * or libomp's __kmpc_fork_call) runs on the team's threads: hits[], one slot
 * per iteration written by whichever thread runs it, are per-thread slots.
 */
#include <stdio.h>

long hits[8];
int limit = 5;

int main(void)
{
#pragma omp parallel for
	for (int i = 0; i < 8; i++)
		for (long k = 0; k < 10000000; k++)
			hits[i] += k < limit;
	printf("%ld\n", hits[0]);
	return 0;
}
