/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The layout of one type from DWARF (share_typelayout.h). */
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>
#include "dwarf_files.h"
#include "inline.h"
#include "share_state.h"
#include "share_typelayout.h"

#define MAX_DEPTH 8		/* nested structs and base classes unfolded */

static bool record_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type;
}

uint64_t share_die_size(Dwarf_Die *t)
{
	Dwarf_Die s = *t;
	Dwarf_Word n;

	if (!inline_strip_type(&s))
		return 0;
	if (dwarf_tag(&s) == DW_TAG_pointer_type || dwarf_tag(&s) == DW_TAG_reference_type ||
	    dwarf_tag(&s) == DW_TAG_rvalue_reference_type || dwarf_tag(&s) == DW_TAG_ptr_to_member_type)
		return dwarf_aggregate_size(&s, &n) ? 8 : n;
	return dwarf_aggregate_size(&s, &n) ? 0 : n;
}

/* The alignment of TYPE: declared (alignas), else its members' (scalars their size, at most 16). */
static uint64_t die_align_in(Dwarf_Die *t, int depth, size_t *budget);

/* The alignment of TYPE (a bounded look: corrupt DWARF may nest types without end). */
static uint64_t die_align(Dwarf_Die *t, int depth)
{
	size_t budget = 4 * MAX_LEAVES;

	return die_align_in(t, depth, &budget);
}

static uint64_t die_align_in(Dwarf_Die *t, int depth, size_t *budget)
{
	Dwarf_Die s = *t, c, mt;
	Dwarf_Attribute at;
	Dwarf_Word a;
	uint64_t best = 1;

	if (dwarf_attr_integrate(t, DW_AT_alignment, &at) && !dwarf_formudata(&at, &a) && a)
		return a;
	if (!inline_strip_type(&s) || depth > MAX_DEPTH)
		return 1;
	if (dwarf_attr_integrate(&s, DW_AT_alignment, &at) && !dwarf_formudata(&at, &a) && a)
		return a;
	switch (dwarf_tag(&s)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_child(&s, &c) == 0) {
			int n = 0;

			do {
				uint64_t m;

				if ((dwarf_tag(&c) != DW_TAG_member && dwarf_tag(&c) != DW_TAG_inheritance) ||
				    dwarf_hasattr(&c, DW_AT_external) || ++n > MAX_LEAVES || !*budget)
					continue;
				--*budget;
				if (dwarf_attr_integrate(&c, DW_AT_alignment, &at) &&
				    !dwarf_formudata(&at, &a) && a)
					m = a;
				else if (dwarf_attr_integrate(&c, DW_AT_type, &at) &&
					 dwarf_formref_die(&at, &mt))
					m = die_align_in(&mt, depth + 1, budget);
				else
					m = 1;
				if (m > best)
					best = m;
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		return best;
	case DW_TAG_array_type:
		return dwarf_attr_integrate(&s, DW_AT_type, &at) && dwarf_formref_die(&at, &mt) ?
		       die_align_in(&mt, depth + 1, budget) : 1;
	default: {
		uint64_t n = share_die_size(&s);

		return n >= 16 ? 16 : n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
	}
	}
}

/* The printed name of a member's type: "long", "struct stat", "char[64]", "Latch *". */
static void type_words(Dwarf_Die *t, char *buf, size_t len, int depth)
{
	Dwarf_Attribute at;
	Dwarf_Die in;
	const char *name = dwarf_diename(t);
	int tag = dwarf_tag(t);

	buf[0] = '\0';
	if (depth > 6)
		return;
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (dwarf_attr_integrate(t, DW_AT_type, &at) && dwarf_formref_die(&at, &in))
			type_words(&in, buf, len, depth + 1);
		else
			snprintf(buf, len, "void");
		snprintf(buf + strlen(buf), len - strlen(buf), tag == DW_TAG_pointer_type ? " *" : " &");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_atomic_type: {
		const char *q = tag == DW_TAG_const_type ? "const " : tag == DW_TAG_volatile_type ?
				"volatile " : "_Atomic ";

		snprintf(buf, len, "%s", q);
		if (dwarf_attr_integrate(t, DW_AT_type, &at) && dwarf_formref_die(&at, &in))
			type_words(&in, buf + strlen(buf), len - strlen(buf), depth + 1);
		return;
	}
	case DW_TAG_array_type: {
		Dwarf_Die sub;
		Dwarf_Word n = 0;

		if (dwarf_attr_integrate(t, DW_AT_type, &at) && dwarf_formref_die(&at, &in))
			type_words(&in, buf, len, depth + 1);
		if (dwarf_child(t, &sub) == 0 && dwarf_tag(&sub) == DW_TAG_subrange_type &&
		    ((dwarf_attr_integrate(&sub, DW_AT_count, &at) && !dwarf_formudata(&at, &n)) ||
		     (dwarf_attr_integrate(&sub, DW_AT_upper_bound, &at) && !dwarf_formudata(&at, &n) &&
		      (n += 1))))
			snprintf(buf + strlen(buf), len - strlen(buf), "[%" PRIu64 "]", (uint64_t)n);
		else
			snprintf(buf + strlen(buf), len - strlen(buf), "[]");
		return;
	}
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		snprintf(buf, len, "%s %s", tag == DW_TAG_structure_type ? "struct" :
			 tag == DW_TAG_class_type ? "class" : tag == DW_TAG_union_type ? "union" : "enum",
			 name ? name : "{...}");
		return;
	case DW_TAG_subroutine_type:
		snprintf(buf, len, "function");
		return;
	default:
		snprintf(buf, len, "%s", name ? name : "?");
	}
}

static bool member_location(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Word w;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr_integrate(m, DW_AT_data_member_location, &at)) {
		*off = 0;	/* a union's members, and C++ members at 0 */
		return true;
	}
	if (!dwarf_formudata(&at, &w)) {
		*off = w;
		return true;
	}
	if (dwarf_getlocation(&at, &ops, &nops) == 0 && nops == 1 &&
	    ops[0].atom == DW_OP_plus_uconst) {
		*off = ops[0].number;
		return true;
	}
	return false;
}

/*
 * Whether T is a type for words several threads or processes touch at once:
 * _Atomic, std::atomic, or a struct holding one such word.
 */
static bool sync_type(struct unit_files *files, Dwarf_Die *t, int depth)
{
	Dwarf_Die s = *t, c, mt;
	Dwarf_Attribute at;
	const char *n;
	int members = 0;
	bool sync = false;

	for (int k = 0; k < 16; k++) {
		int tag = dwarf_tag(&s);

		/* (volatile alone is no sign: a flag a signal handler sets is one too) */
		if (tag == DW_TAG_atomic_type)
			return true;
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_volatile_type)
			break;
		if (!dwarf_attr_integrate(&s, DW_AT_type, &at) || !dwarf_formref_die(&at, &s))
			return false;
	}
	if (dwarf_tag(&s) != DW_TAG_structure_type && dwarf_tag(&s) != DW_TAG_class_type)
		return false;
	n = dwarf_diename(&s);
	if (n && (!strncmp(n, "atomic<", 7) || !strncmp(n, "__atomic_base<", 14) ||
		  !strncmp(n, "atomic_", 7)) && share_library_type(files, &s))
		return true;
	if (depth > 2 || dwarf_child(&s, &c))
		return false;
	do {
		if (dwarf_tag(&c) != DW_TAG_member || dwarf_hasattr(&c, DW_AT_external))
			continue;
		if (++members > 1)
			return false;
		sync = dwarf_attr_integrate(&c, DW_AT_type, &at) && dwarf_formref_die(&at, &mt) &&
		       sync_type(files, &mt, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
	return sync;
}

static int add_leaf(struct flat *f, const char *name, Dwarf_Die *type, uint64_t off, uint64_t size)
{
	char tw[160];

	if (f->n >= MAX_LEAVES) {
		f->truncated = true;
		return 0;
	}
	if (ARRAY_GROW(f->v, f->cap, f->n + 1))
		return -ENOMEM;
	if (type)
		type_words(type, tw, sizeof(tw), 0);
	else
		snprintf(tw, sizeof(tw), "?");
	f->v[f->n].name = strdup(name);
	f->v[f->n].type = strdup(tw);
	f->v[f->n].off = off;
	f->v[f->n].size = size;
	f->v[f->n].sync = type && sync_type(f->files, type, 0);
	if (!f->v[f->n].name || !f->v[f->n].type) {
		free(f->v[f->n].name);
		free(f->v[f->n].type);
		return -ENOMEM;
	}
	f->n++;
	return 0;
}

/*
 * The members of the struct or class T at BASE, nested structs and base
 * classes unfolded ("stat.n_page_gets"; a base class's members under their
 * own names), unions and arrays whole; bit fields by the bytes they lie in.
 */
static int flatten(struct flat *f, Dwarf_Die *t, uint64_t base, uint64_t limit, const char *prefix,
		   int depth)
{
	Dwarf_Die c;
	int err = 0, n = 0;

	if (dwarf_child(t, &c))
		return 0;
	do {
		Dwarf_Die mt, st;
		Dwarf_Attribute at;
		const char *mname;
		char name[256];
		uint64_t off, size;
		int tag = dwarf_tag(&c);

		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
		    dwarf_hasattr(&c, DW_AT_external) || dwarf_hasattr(&c, DW_AT_declaration))
			continue;
		if (++n > MAX_LEAVES || ++f->visits > 4 * MAX_LEAVES || f->truncated) {
			f->truncated = true;
			break;
		}
		if (!dwarf_attr_integrate(&c, DW_AT_type, &at) || !dwarf_formref_die(&at, &mt))
			continue;
		if (!member_location(&c, &off))
			continue;
		size = share_die_size(&mt);
		if (dwarf_hasattr(&c, DW_AT_bit_size)) {
			Dwarf_Word bits = 0, boff = 0;

			if (dwarf_attr_integrate(&c, DW_AT_bit_size, &at))
				dwarf_formudata(&at, &bits);
			if (dwarf_attr_integrate(&c, DW_AT_data_bit_offset, &at) &&
			    !dwarf_formudata(&at, &boff)) {
				off = boff / 8;
				size = (boff % 8 + bits + 7) / 8;
			}
		}
		off += base;
		if (off >= limit || (size && off + size > limit) || size > MAX_TYPE_SIZE)
			continue;	/* past the end: corrupt, or a flexible member's elements */
		mname = tag == DW_TAG_inheritance ? NULL : dwarf_diename(&c);
		snprintf(name, sizeof(name), "%s%s%s", prefix, prefix[0] && mname ? "." : "",
			 mname ? mname : "");
		st = mt;
		/* (a library's type, std::atomic or pthread_mutex_t: one member, its insides not ours) */
		if (inline_strip_type(&st) && (dwarf_tag(&st) == DW_TAG_structure_type ||
					dwarf_tag(&st) == DW_TAG_class_type) &&
		    depth < MAX_DEPTH && size && !share_library_type(f->files, &st)) {
			size_t before = f->n;

			err = flatten(f, &st, off, off + size, mname || !prefix[0] ? name : prefix,
				      depth + 1);
			if (err)
				return err;
			if (f->n > before || tag == DW_TAG_inheritance)
				continue;
		}
		if (!name[0])
			continue;
		err = add_leaf(f, name, &mt, off, size);
	} while (!err && dwarf_siblingof(&c, &c) == 0);
	return err;
}

static int leaf_cmp(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}


/* Whether TYPE is declared in a header of the system or the compiler, not the program's. */
bool share_library_type(struct unit_files *files, Dwarf_Die *type)
{
	static const char *const dirs[] = { "/usr/include/", "/usr/lib/gcc/", "/usr/lib/llvm",
					    "/usr/local/include/" };
	/* (as clang writes them: /usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++) */
	static const char *const parts[] = { "/include/c++/", "/lib/gcc/", "/lib/llvm-" };
	const char *f = unit_decl_file(files, type);

	for (size_t i = 0; f && i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(f, dirs[i], strlen(dirs[i])))
			return true;
	for (size_t i = 0; f && f[0] == '/' && i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(f, parts[i]))
			return true;
	return false;
}

/* The name of the struct, class or union behind entry DIE, and that type: false when none. */
bool share_type_name_of(Dwarf *dw, uint64_t die, Dwarf_Die *st, char *buf, size_t len)
{
	Dwarf_Die t;
	const char *n;

	if (!dwarf_offdie(dw, die, &t))
		return false;
	*st = t;
	if (!inline_strip_type(st) || !record_tag(dwarf_tag(st)) || dwarf_hasattr(st, DW_AT_declaration))
		return false;
	n = dwarf_diename(st);
	if (n)
		type_words(st, buf, len, 0);
	else if (dwarf_tag(&t) == DW_TAG_typedef && dwarf_diename(&t))
		snprintf(buf, len, "%s", dwarf_diename(&t));
	else
		return false;	/* an anonymous type inside another: its members are the outer's */
	return true;
}

/*
 * A union's members that only pad it to a size (char pad[LINE] beside the
 * real member, PostgreSQL's LWLockPadded): an array of bytes, when the union
 * has another member.
 */
static bool pad_member(Dwarf_Die *m)
{
	Dwarf_Attribute at;
	Dwarf_Die t, e;

	if (!dwarf_attr_integrate(m, DW_AT_type, &at) || !dwarf_formref_die(&at, &t) ||
	    !inline_strip_type(&t) || dwarf_tag(&t) != DW_TAG_array_type ||
	    !dwarf_attr_integrate(&t, DW_AT_type, &at) || !dwarf_formref_die(&at, &e))
		return false;
	return share_die_size(&e) == 1;
}

/*
 * The layout of type ST: its leaves, sorted, bytes shared by several (bit
 * fields) merged into one.  A union is laid out as its widest real member
 * (what pads it counts as padding: *PADDED_BY gets its size).
 */
static int layout(Dwarf_Die *st, uint64_t size, struct flat *f, uint64_t *padded_by)
{
	int err = 0;

	*padded_by = 0;
	if (dwarf_tag(st) == DW_TAG_union_type) {
		Dwarf_Die c, best;
		uint64_t bsz = 0;
		int n = 0, pads = 0;

		if (dwarf_child(st, &c) == 0) {
			do {
				Dwarf_Attribute at;
				Dwarf_Die mt;
				uint64_t z;

				if (dwarf_tag(&c) != DW_TAG_member || ++n > MAX_LEAVES ||
				    !dwarf_attr_integrate(&c, DW_AT_type, &at) ||
				    !dwarf_formref_die(&at, &mt))
					continue;
				z = share_die_size(&mt);
				if (pad_member(&c)) {
					pads++;
					if (z > *padded_by)
						*padded_by = z;
					continue;
				}
				if (z > bsz) {
					bsz = z;
					best = c;
				}
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		if (!bsz && pads)
			return 0;
		if (bsz) {
			Dwarf_Attribute at;
			Dwarf_Die mt, s2;
			const char *mn = dwarf_diename(&best);

			if (dwarf_attr_integrate(&best, DW_AT_type, &at) && dwarf_formref_die(&at, &mt)) {
				s2 = mt;
				if (inline_strip_type(&s2) && (dwarf_tag(&s2) == DW_TAG_structure_type ||
							dwarf_tag(&s2) == DW_TAG_class_type))
					err = flatten(f, &s2, 0, bsz, mn ? mn : "", 1);
				if (!err && !f->n)
					err = add_leaf(f, mn ? mn : "?", &mt, 0, bsz);
			}
		}
		if (*padded_by <= bsz)
			*padded_by = 0;
	} else {
		err = flatten(f, st, 0, size, "", 0);
	}
	if (err)
		return err;
	sort_array(f->v, f->n, sizeof(*f->v), leaf_cmp);
	/* bit fields and overlapping members: one leaf per run of shared bytes */
	{
		size_t o = 0;

		for (size_t i = 0; i < f->n; i++) {
			struct leaf *p = o ? &f->v[o - 1] : NULL;

			if (p && f->v[i].off < p->off + (p->size ? p->size : 1)) {
				char *nm = NULL, *bare = p->name;
				size_t bl = strlen(bare);

				if (bl && bare[0] == '{' && bare[bl - 1] == '}')
					nm = str_printf("%.*s,%s}", (int)(bl - 1), bare, f->v[i].name);
				else
					nm = str_printf("{%s,%s}", bare, f->v[i].name);
				if (!nm)
					return -ENOMEM;
				if (f->v[i].off + f->v[i].size > p->off + p->size)
					p->size = f->v[i].off + f->v[i].size - p->off;
				free(p->name);
				p->name = nm;
				p->sync |= f->v[i].sync;
				free(f->v[i].name);
				free(f->v[i].type);
				continue;
			}
			f->v[o++] = f->v[i];
		}
		f->n = o;
	}
	return 0;
}

void share_flat_free(struct flat *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].type);
	}
	free(f->v);
}


void share_lay_out(Dwarf *dw, struct unit_files *files, struct tlay *l)
{
	Dwarf_Die st;
	Dwarf_Attribute at;

	if (!dwarf_offdie(dw, l->sdie, &st))
		return;
	l->found = true;
	l->f.files = files;
	l->err = layout(&st, l->size, &l->f, &l->padded_by);
	if (l->err || !l->f.n)
		return;
	l->align = die_align(&st, 0);
	l->align_declared = dwarf_hasattr_integrate(&st, DW_AT_alignment) ||
			    dwarf_attr_integrate(&st, DW_AT_alignment, &at);
	l->library = share_library_type(files, &st);
}
