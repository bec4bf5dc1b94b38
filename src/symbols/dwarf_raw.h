/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bytes of a libdw handle's debug sections, for the readers that take
 * them from the file instead of through libdw (dwarf_locs.c, dwarf_files.c).
 */
#ifndef MYCL_DWARF_RAW_H
#define MYCL_DWARF_RAW_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

/*
 * The sections of DW's file named NAMES[0..N) into BUF[k] and LEN[k]: NULL
 * and 0 for a section not there, compressed, or hidden (SHT_NOBITS).
 */
void dwarf_raw_sections(Dwarf *dw, const char *const *names, size_t n, const uint8_t **buf,
			size_t *len);

#endif
