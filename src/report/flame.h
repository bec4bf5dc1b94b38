/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Flame graphs: the call paths of one event (or of two, for a comparison)
 * merged by name into one tree, command at the base, and written as a
 * self-contained interactive SVG (zoom on click, search, tooltips).
 */
#ifndef MYCL_FLAME_H
#define MYCL_FLAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "mycl/report.h"

struct flame;

/* A tree of NV (1, or 2 for base and new) counts per frame; NULL on -ENOMEM. */
struct flame *flame_new(int nv);
void flame_free(struct flame *fl);
/* Adds event EV's paths of P as count WHICH (samples, or period with BY_PERIOD). */
int flame_add_profile(struct flame *fl, const struct mycl_profile *p, size_t ev, int which,
		      bool by_period);

struct flame_svg {
	const char *title;		/* shown at the top */
	const char *subtitle;		/* a second line, or NULL */
	const char *unit;		/* "samples", "ns"... */
	unsigned int width;		/* px; 0: 1200 */
	bool diff;			/* colour by the change from count 0 to 1 */
	bool by_share;			/* diff: the change of share, not of amount */
	bool inline_svg;		/* no XML prologue: inside an HTML page */
};

/* Writes the tree as SVG.  0, or -EIO when writing failed. */
int flame_write_svg(FILE *f, const struct flame *fl, const struct flame_svg *o);

/* TEXT with &, <, >, " and ' as XML entities. */
void xml_escape(FILE *f, const char *text);

#endif
