/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bzip2 (what `perf archive` writes), decoded by libbz2 into pieces for a
 * consumer.  Concatenated streams (pbzip2, `cat a.bz2 b.bz2`) are read in
 * turn.
 */
#ifndef MYCL_BUNZIP_H
#define MYCL_BUNZIP_H

#include <stddef.h>
#include <stdint.h>

/* Takes LEN decoded bytes; nonzero stops decoding and is returned. */
typedef int (*bunzip_out_fn)(const uint8_t *buf, size_t len, void *ctx);

/* True when BUF starts as a bzip2 stream does ("BZh1".."BZh9"). */
int bunzip_magic(const uint8_t *buf, size_t len);

/*
 * Decodes IN, handing the output to OUT in pieces.  0, a nonzero value OUT
 * returned, or MYCL_ERR_CORRUPT with what is wrong said in ERR (input ends
 * early, bad table, CRC mismatch...) and the offset of the block.
 */
int bunzip(const uint8_t *in, size_t len, bunzip_out_fn out, void *ctx, char *err, size_t errlen);

#endif
