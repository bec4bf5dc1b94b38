/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * share_typewalk.c, for share_types.c: the walk of every function (started
 * with share_types_start, share_state.h) joined, and types laid out on the
 * walk's threads.
 */
#ifndef MYCL_SHARE_TYPEWALK_H
#define MYCL_SHARE_TYPEWALK_H

#include <stdint.h>
#include <elfutils/libdw.h>

struct mycl_share;
struct callgraph;
struct tlay;

/*
 * This thread's part of the walk once the globals' scan is done, the
 * threads' waited for: the accesses into S->taccs in the functions' order,
 * what needs the finished call graph CG added.  0 or -ENOMEM.
 */
int share_types_walked(struct mycl_share *s, struct callgraph *cg);
/*
 * The N types of JOBS laid out (share_lay_out), each on the walk's thread
 * WALKER[i] names (its DWARF has read that unit), the others with DW on this
 * one; the threads free their DWARF after.  JOBS may be reordered.
 */
void share_types_lay_out(struct mycl_share *s, Dwarf *dw, struct tlay *jobs, size_t n,
			 const uint8_t *walker);

#endif
