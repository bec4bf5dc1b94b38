/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "cursor.h"
#include "dwarf_locs.h"
#include "dwarf_raw.h"
#include "internal.h"

/* The sections of R->dw's file the lists live in (absent: compressed, hidden, not there). */
static void read_sections(struct loc_reader *r)
{
	static const char *const names[] = { ".debug_loc", ".debug_loclists", ".debug_addr",
					     ".debug_info" };
	const uint8_t *buf[4];
	size_t len[4];

	r->read = true;
	dwarf_raw_sections(r->dw, names, 4, buf, len);
	r->loc = buf[0], r->loc_len = len[0];
	r->loclists = buf[1], r->loclists_len = len[1];
	r->addr = buf[2], r->addr_len = len[2];
	r->info = buf[3], r->info_len = len[3];
}

/* The one operation of expression [P, P+LEN) into *OP when it is of the kinds decoded. */
static bool one_op(const uint8_t *p, size_t len, bool swap, Dwarf_Op *op)
{
	struct cursor c;
	uint8_t atom;

	cursor_init(&c, p, len, swap);
	atom = cursor_u8(&c);
	memset(op, 0, sizeof(*op));
	op->atom = atom;
	if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31)
		;
	else if (atom == DW_OP_regx)
		op->number = cursor_uleb128(&c);
	else if ((atom >= DW_OP_breg0 && atom <= DW_OP_breg31) || atom == DW_OP_fbreg)
		op->number = (Dwarf_Word)cursor_sleb128(&c);
	else if (atom == DW_OP_bregx) {
		op->number = cursor_uleb128(&c);
		op->number2 = (Dwarf_Word)cursor_sleb128(&c);
	} else
		return false;
	return !c.bad && !cursor_left(&c);
}

static int add(struct loc_reader *r, uint64_t lo, uint64_t hi, const uint8_t *expr, size_t len,
	       bool swap)
{
	struct loc_entry *e;

	if (ARRAY_GROW(r->v, r->cap, r->n + 1))
		return -ENOMEM;
	e = &r->v[r->n++];
	e->lo = lo;
	e->hi = hi;
	e->one = one_op(expr, len, swap, &e->op);
	return 0;
}

static uint64_t read_addr(struct cursor *c, uint8_t size)
{
	return size == 4 ? cursor_u32(c) : size == 8 ? cursor_u64(c) : (c->bad = true, 0);
}

/* Entry IDX of the unit's address table; false when it cannot be read. */
static bool addrx(const struct loc_reader *r, uint64_t base, uint64_t idx, uint8_t size, bool swap,
		  uint64_t *out)
{
	struct cursor c;

	if (!r->addr || base > r->addr_len || idx >= (r->addr_len - base) / size)
		return false;
	cursor_init(&c, r->addr + base + idx * size, size, swap);
	*out = read_addr(&c, size);
	return !c.bad;
}

/* The base address of a unit's lists, as libdw takes it: low_pc, else entry_pc, else 0. */
static uint64_t cu_base(Dwarf_Die *cu)
{
	Dwarf_Attribute at;
	Dwarf_Addr a;

	if (dwarf_lowpc(cu, &a) == 0)
		return a;
	if (dwarf_attr(cu, DW_AT_entry_pc, &at) && dwarf_formaddr(&at, &a) == 0)
		return a;
	return 0;
}

/* DWARF 2-4: .debug_loc's pairs of addresses, a base selection, lengths of two bytes. */
static int read_loc(struct loc_reader *r, struct cursor *c, uint64_t base, uint8_t size)
{
	uint64_t top = size == 4 ? UINT32_MAX : UINT64_MAX;

	for (;;) {
		uint64_t b = read_addr(c, size), e = read_addr(c, size);
		uint16_t len;
		const uint8_t *expr;
		int err;

		if (c->bad)
			return -ENOTSUP;
		if (!b && !e)
			return 0;
		if (b == top) {
			base = e;
			continue;
		}
		len = cursor_u16(c);
		expr = cursor_bytes(c, len);
		if (!expr)
			return -ENOTSUP;
		if ((err = add(r, base + b, base + e, expr, len, c->swap)))
			return err;
	}
}

/* DWARF 5: .debug_loclists' entries. */
static int read_loclists(struct loc_reader *r, struct cursor *c, uint64_t base, uint64_t addr_base,
			 uint8_t size)
{
	for (;;) {
		uint8_t kind = cursor_u8(c);
		uint64_t b = 0, e = 0, len;
		const uint8_t *expr;
		int err;

		switch (kind) {
		case DW_LLE_end_of_list:
			return c->bad ? -ENOTSUP : 0;
		case DW_LLE_base_addressx:
			if (!addrx(r, addr_base, cursor_uleb128(c), size, c->swap, &base))
				return -ENOTSUP;
			continue;
		case DW_LLE_base_address:
			base = read_addr(c, size);
			continue;
		case 0x09:	/* DW_LLE_GNU_view_pair: the views of the next entry */
			cursor_uleb128(c);
			cursor_uleb128(c);
			if (c->bad)
				return -ENOTSUP;
			continue;
		case DW_LLE_startx_endx:
			if (!addrx(r, addr_base, cursor_uleb128(c), size, c->swap, &b) ||
			    !addrx(r, addr_base, cursor_uleb128(c), size, c->swap, &e))
				return -ENOTSUP;
			break;
		case DW_LLE_startx_length:
			if (!addrx(r, addr_base, cursor_uleb128(c), size, c->swap, &b))
				return -ENOTSUP;
			e = b + cursor_uleb128(c);
			break;
		case DW_LLE_offset_pair:
			b = base + cursor_uleb128(c);
			e = base + cursor_uleb128(c);
			break;
		case DW_LLE_start_end:
			b = read_addr(c, size);
			e = read_addr(c, size);
			break;
		case DW_LLE_start_length:
			b = read_addr(c, size);
			e = b + cursor_uleb128(c);
			break;
		default:	/* DW_LLE_default_location, a vendor's */
			return -ENOTSUP;
		}
		len = cursor_uleb128(c);
		expr = c->bad || len > cursor_left(c) ? NULL : cursor_bytes(c, len);
		if (!expr)
			return -ENOTSUP;
		if ((err = add(r, b, e, expr, len, c->swap)))
			return err;
	}
}

int loc_read(struct loc_reader *r, Dwarf_Die *var, Dwarf_Attribute *at)
{
	Dwarf_Half version;
	uint8_t unit_type, size, offset_size;
	Dwarf_Die cu;
	Dwarf_Block block;
	Dwarf_Word off;
	Dwarf_Attribute ab;
	uint64_t addr_base = UINT64_MAX;
	const uint8_t *sec;
	size_t sec_len;
	struct cursor c;
	Elf *e;
	GElf_Ehdr eh;
	bool swap;
	int form = dwarf_whatform(at);

	r->n = 0;
	if (dwarf_cu_info(var->cu, &version, &unit_type, &cu, NULL, NULL, &size, &offset_size) ||
	    dwarf_cu_getdwarf(var->cu) != r->dw || (size != 4 && size != 8) ||
	    (unit_type != DW_UT_compile && unit_type != DW_UT_partial && unit_type != DW_UT_type))
		return -ENOTSUP;
	if (!(e = dwarf_getelf(r->dw)) || !gelf_getehdr(e, &eh))
		return -ENOTSUP;
	swap = (eh.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (form == DW_FORM_exprloc || form == DW_FORM_block1 || form == DW_FORM_block2 ||
	    form == DW_FORM_block4 || form == DW_FORM_block) {
		/* one expression wherever the variable's scope is */
		if (dwarf_formblock(at, &block))
			return -ENOTSUP;
		return add(r, 0, UINT64_MAX, block.data, block.length, swap);
	}
	if (form != DW_FORM_sec_offset && form != DW_FORM_loclistx &&
	    !(version < 4 && (form == DW_FORM_data4 || form == DW_FORM_data8)))
		return -ENOTSUP;
	if (!r->read)
		read_sections(r);
	sec = version < 5 ? r->loc : r->loclists;
	sec_len = version < 5 ? r->loc_len : r->loclists_len;
	if (!sec)
		return -ENOTSUP;
	if (form == DW_FORM_loclistx) {
		/* an index into the offsets after the unit's DW_AT_loclists_base */
		Dwarf_Word lbase, idx;

		/* (the index's bytes inside .debug_info, wherever the attribute is) */
		if (!r->info || (const uint8_t *)at->valp < r->info ||
		    (const uint8_t *)at->valp >= r->info + r->info_len)
			return -ENOTSUP;
		cursor_init(&c, at->valp, (size_t)(r->info + r->info_len - (const uint8_t *)at->valp),
			    swap);
		idx = cursor_uleb128(&c);
		if (c.bad || !dwarf_attr(&cu, DW_AT_loclists_base, &ab) ||
		    dwarf_formudata(&ab, &lbase) || lbase > sec_len ||
		    idx >= (sec_len - lbase) / offset_size)
			return -ENOTSUP;
		cursor_init(&c, sec + lbase + idx * offset_size, offset_size, swap);
		off = lbase + (offset_size == 4 ? cursor_u32(&c) : cursor_u64(&c));
	} else if (dwarf_formudata(at, &off)) {
		return -ENOTSUP;
	}
	if (off >= sec_len)
		return -ENOTSUP;
	if (dwarf_attr(&cu, DW_AT_addr_base, &ab) || dwarf_attr(&cu, DW_AT_GNU_addr_base, &ab)) {
		Dwarf_Word v;

		if (dwarf_formudata(&ab, &v) == 0)
			addr_base = v;
	}
	cursor_init(&c, sec + off, sec_len - off, swap);
	return version < 5 ? read_loc(r, &c, cu_base(&cu), size) :
			     read_loclists(r, &c, cu_base(&cu), addr_base, size);
}

void loc_reader_free(struct loc_reader *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
