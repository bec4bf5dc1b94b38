/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The library never prints: it hands messages to a callback of the caller's. */
#ifndef MYCL_LOG_H
#define MYCL_LOG_H

#ifdef __cplusplus
extern "C" {
#endif

enum mycl_print_level {
	MYCL_WARN,
	MYCL_INFO,
	MYCL_DEBUG,
};

/*
 * Called with one complete message (no trailing newline).  MSG is only valid
 * during the call.  CTX is the print_ctx given in the opts struct.
 */
typedef void (*mycl_print_fn)(enum mycl_print_level level, const char *msg, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
