/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The file a declaration names (DW_AT_decl_file), from its unit's line
 * table header alone: the name dwarf_decl_file gives, without the line
 * program elfutils 0.188 decodes to give it (every row of the unit's lines,
 * 150 us a unit on PostgreSQL, to name one file).  The headers of DWARF 2
 * to 5 (.debug_line, with .debug_line_str and .debug_str names); anything
 * else (split units, a compressed or absent section, a form not read here,
 * an index past the header's files) is asked of dwarf_decl_file.  One
 * handle's, one thread's.  doc/data-types.md has the measurement.
 */
#ifndef MYCL_DWARF_FILES_H
#define MYCL_DWARF_FILES_H

#include <elfutils/libdw.h>

struct unit_files;

/* A reader of DW's units' file names; NULL when out of memory. */
struct unit_files *unit_files_new(Dwarf *dw);
void unit_files_free(struct unit_files *f);
/* DIE's declaration file as dwarf_decl_file names it, or NULL (F NULL: libdw's answer). */
const char *unit_decl_file(struct unit_files *f, Dwarf_Die *die);

#endif
