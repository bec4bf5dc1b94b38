/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A declaration's file from its unit's line table header (dwarf_files.h). */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "cursor.h"
#include "dwarf_files.h"
#include "dwarf_raw.h"
#include "internal.h"

#define MAX_DIRS 65536
#define MAX_FILES 65536

/* One unit's file names, by index (LIBDW: the unit is libdw's to read). */
struct unit_names {
	Dwarf_Off cu;
	bool libdw;
	char **v;
	size_t n;
};

struct unit_files {
	Dwarf *dw;
	bool read, swap;
	const uint8_t *line, *line_str, *str;
	size_t line_len, line_str_len, str_len;
	struct unit_names *units;	/* sorted by unit */
	size_t nr, cap;
};

struct unit_files *unit_files_new(Dwarf *dw)
{
	struct unit_files *f = calloc(1, sizeof(*f));

	if (f)
		f->dw = dw;
	return f;
}

static void names_free(struct unit_names *u)
{
	for (size_t i = 0; i < u->n; i++)
		free(u->v[i]);
	free(u->v);
	u->v = NULL;
	u->n = 0;
}

void unit_files_free(struct unit_files *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr; i++)
		names_free(&f->units[i]);
	free(f->units);
	free(f);
}

/* The sections the headers and their names live in (absent: compressed, not there). */
static void read_sections(struct unit_files *f)
{
	static const char *const names[] = { ".debug_line", ".debug_line_str", ".debug_str" };
	const uint8_t *buf[3];
	size_t len[3];
	Elf *e = dwarf_getelf(f->dw);
	GElf_Ehdr eh;

	f->read = true;
	if (!e || !gelf_getehdr(e, &eh))
		return;
	f->swap = (eh.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	dwarf_raw_sections(f->dw, names, 3, buf, len);
	f->line = buf[0], f->line_len = len[0];
	f->line_str = buf[1], f->line_str_len = len[1];
	f->str = buf[2], f->str_len = len[2];
}

/* The string at OFF of section [SEC, SEC+LEN), or NULL. */
static const char *sec_str(const uint8_t *sec, size_t len, uint64_t off)
{
	if (!sec || off >= len || !memchr(sec + off, '\0', len - off))
		return NULL;
	return (const char *)sec + off;
}

/* DIR, a slash and NAME as libdw joins them (an absolute NAME alone; no DIR: NAME). */
static char *joined(const char *dir, const char *name)
{
	return name[0] == '/' || !dir ? strdup(name) : str_printf("%s/%s", dir, name);
}

/*
 * One DWARF 5 entry of FMT (N pairs of content type and form) at C: its
 * path and directory index.  False on a form not read here.
 */
static bool entry5(struct unit_files *f, struct cursor *c, const uint64_t *fmt, size_t n,
		   unsigned offset_size, const char **path, uint64_t *dir)
{
	*path = NULL;
	*dir = 0;
	for (size_t k = 0; k < n && !c->bad; k++) {
		uint64_t type = fmt[2 * k], form = fmt[2 * k + 1], v = 0;
		const char *s = NULL;

		switch (form) {
		case DW_FORM_string:
			s = cursor_cstr(c);
			break;
		case DW_FORM_line_strp:
		case DW_FORM_strp:
			v = offset_size == 8 ? cursor_u64(c) : cursor_u32(c);
			s = form == DW_FORM_line_strp ? sec_str(f->line_str, f->line_str_len, v) :
							sec_str(f->str, f->str_len, v);
			if (!s)
				return false;
			break;
		case DW_FORM_udata:
			v = cursor_uleb128(c);
			break;
		case DW_FORM_data1:
			v = cursor_u8(c);
			break;
		case DW_FORM_data2:
			v = cursor_u16(c);
			break;
		case DW_FORM_data4:
			v = cursor_u32(c);
			break;
		case DW_FORM_data8:
			v = cursor_u64(c);
			break;
		case DW_FORM_data16:
			cursor_skip(c, 16);
			break;
		case DW_FORM_block:
			cursor_skip(c, cursor_uleb128(c));
			break;
		default:
			return false;
		}
		if (type == DW_LNCT_path) {
			if (!s)
				return false;
			*path = s;
		} else if (type == DW_LNCT_directory_index) {
			if (s)
				return false;
			*dir = v;
		}
	}
	return !c->bad && *path;
}

/* A DWARF 5 table's entry formats at C into FMT (pairs); their number, or -1. */
static int formats5(struct cursor *c, uint64_t *fmt)
{
	uint8_t n = cursor_u8(c);

	for (unsigned k = 0; k < 2u * n; k++)
		fmt[k] = cursor_uleb128(c);
	return c->bad ? -1 : n;
}

/*
 * The file names of the line table at OFF into U (index 0 libdw's "???"
 * before DWARF 5), each joined to its directory (before DWARF 5 the
 * directory 0 is COMP_DIR).  0, -ENOMEM, or -ENOTSUP where libdw must read it.
 */
static int read_names(struct unit_files *f, uint64_t off, const char *comp_dir,
		      struct unit_names *u)
{
	struct cursor c;
	uint64_t len, fmt[2 * 255];
	const char **dirs = NULL;
	size_t nd = 0, capd = 0, capf = 0;
	unsigned offset_size = 4;
	uint16_t version;
	uint8_t opcode_base;
	int err = -ENOTSUP;

	if (!f->line || off >= f->line_len)
		return -ENOTSUP;
	cursor_init(&c, f->line + off, f->line_len - off, f->swap);
	len = cursor_u32(&c);
	if (len == 0xffffffff) {
		offset_size = 8;
		len = cursor_u64(&c);
	} else if (len >= 0xfffffff0) {
		return -ENOTSUP;
	}
	if (c.bad || len > cursor_left(&c))
		return -ENOTSUP;
	c.end = c.p + len;
	version = cursor_u16(&c);
	if (version < 2 || version > 5)
		return -ENOTSUP;
	if (version >= 5)
		cursor_skip(&c, 2);		/* address and segment selector sizes */
	cursor_skip(&c, offset_size);		/* header_length */
	cursor_skip(&c, version >= 4 ? 5 : 4);	/* instruction lengths, is_stmt, line base, range */
	opcode_base = cursor_u8(&c);
	cursor_skip(&c, opcode_base ? opcode_base - 1u : 0);
	if (version < 5) {
		/* directory 0 the unit's own; then the include directories, an empty string ending */
		if (ARRAY_GROW(dirs, capd, 1))
			return -ENOMEM;
		dirs[nd++] = comp_dir;
		for (const char *s; (s = cursor_cstr(&c)) && *s;) {
			if (nd >= MAX_DIRS)
				goto out;
			if (ARRAY_GROW(dirs, capd, nd + 1)) {
				err = -ENOMEM;
				goto out;
			}
			dirs[nd++] = s;
		}
		if (ARRAY_GROW(u->v, capf, 1) || !(u->v[0] = strdup("???"))) {
			err = -ENOMEM;
			goto out;
		}
		u->n = 1;
		for (const char *s; (s = cursor_cstr(&c)) && *s;) {
			uint64_t d = cursor_uleb128(&c);

			cursor_uleb128(&c);		/* modification time */
			cursor_uleb128(&c);		/* length */
			if (c.bad || d >= nd || u->n >= MAX_FILES)
				goto out;
			if (ARRAY_GROW(u->v, capf, u->n + 1) || !(u->v[u->n] = joined(dirs[d], s))) {
				err = -ENOMEM;
				goto out;
			}
			u->n++;
		}
	} else {
		int nf = formats5(&c, fmt);
		uint64_t count = cursor_uleb128(&c);

		if (nf < 0 || count > MAX_DIRS)
			goto out;
		for (uint64_t k = 0; k < count; k++) {
			const char *s;
			uint64_t d;

			if (!entry5(f, &c, fmt, (size_t)nf, offset_size, &s, &d))
				goto out;
			if (ARRAY_GROW(dirs, capd, nd + 1)) {
				err = -ENOMEM;
				goto out;
			}
			dirs[nd++] = s;
		}
		nf = formats5(&c, fmt);
		count = cursor_uleb128(&c);
		if (nf < 0 || count > MAX_FILES)
			goto out;
		for (uint64_t k = 0; k < count; k++) {
			const char *s;
			uint64_t d;

			if (!entry5(f, &c, fmt, (size_t)nf, offset_size, &s, &d) || d >= nd)
				goto out;
			if (ARRAY_GROW(u->v, capf, u->n + 1) || !(u->v[u->n] = joined(dirs[d], s))) {
				err = -ENOMEM;
				goto out;
			}
			u->n++;
		}
	}
	err = c.bad ? -ENOTSUP : 0;
out:
	free(dirs);
	if (err)
		names_free(u);
	return err;
}

/* The names of unit CU (of handle F's), read once: NULL when out of memory. */
static struct unit_names *unit_names_of(struct unit_files *f, Dwarf_CU *cu)
{
	Dwarf_Die cudie;
	Dwarf_Attribute at;
	Dwarf_Word stmt;
	Dwarf_Half version;
	uint8_t unit_type;
	struct unit_names *u;
	Dwarf_Off off;
	size_t k;
	int err;

	if (dwarf_cu_info(cu, &version, &unit_type, &cudie, NULL, NULL, NULL, NULL))
		return NULL;
	off = dwarf_dieoffset(&cudie);
	k = PARTITION_POINT(0, f->nr, mid, f->units[mid].cu < off);
	if (k < f->nr && f->units[k].cu == off)
		return &f->units[k];
	if (ARRAY_GROW(f->units, f->cap, f->nr + 1))
		return NULL;
	memmove(&f->units[k + 1], &f->units[k], (f->nr - k) * sizeof(*f->units));
	f->nr++;
	u = &f->units[k];
	*u = (struct unit_names){ .cu = off, .libdw = true };
	if (!f->read)
		read_sections(f);
	if (dwarf_cu_getdwarf(cu) != f->dw ||
	    (unit_type != DW_UT_compile && unit_type != DW_UT_partial && unit_type != DW_UT_type) ||
	    !dwarf_attr(&cudie, DW_AT_stmt_list, &at) || dwarf_formudata(&at, &stmt))
		return u;
	err = read_names(f, stmt, dwarf_attr(&cudie, DW_AT_comp_dir, &at) ?
				 dwarf_formstring(&at) : NULL, u);
	if (err == -ENOMEM)
		return NULL;
	u->libdw = err != 0;
	return u;
}

const char *unit_decl_file(struct unit_files *f, Dwarf_Die *die)
{
	Dwarf_Attribute at;
	Dwarf_Word idx;
	struct unit_names *u;

	if (!f)
		return dwarf_decl_file(die);
	/* (the attribute's own unit: through DW_AT_specification it may be another's) */
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &at) || dwarf_formudata(&at, &idx) || !idx)
		return NULL;
	u = unit_names_of(f, at.cu);
	if (!u || u->libdw || idx >= u->n)
		return dwarf_decl_file(die);
	return u->v[idx];
}
