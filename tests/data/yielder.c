/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Yields for 0.3 s: time in the kernel, for the artefact fixture (gen.sh). */
#include <sched.h>
#include <time.h>
int main(void){ struct timespec t0,t; clock_gettime(CLOCK_MONOTONIC,&t0); do { for(int i=0;i<1000;i++) sched_yield(); clock_gettime(CLOCK_MONOTONIC,&t);} while((t.tv_sec-t0.tv_sec)*1000000000L+(t.tv_nsec-t0.tv_nsec) < 300000000L); return 0; }
