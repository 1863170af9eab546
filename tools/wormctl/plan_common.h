/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "wormctl plan" modes share: strict parsing of numbers, sizes
 * ("8x8") and coordinates ("3,4"), and creating and finishing SVG files.
 */
#ifndef WORMCTL_PLAN_COMMON_H
#define WORMCTL_PLAN_COMMON_H

#include <stdio.h>

#include "compat.h"

/*
 * A decimal number at the start of @s: digits only (no sign, blank or base
 * prefix), value at most @max.  Returns the first character after it, or
 * NULL (no digit, or too large).
 */
const char *plan_scan_u32(const char *s, u32 max, u32 *v);

/* The whole of @s is such a number: 0, or -1 leaving *@v untouched. */
int plan_parse_u32(const char *s, u32 max, u32 *v);
int plan_parse_u64(const char *s, u64 max, u64 *v);

/*
 * A size "N", "NxM" or "NxMxK": 1 to @maxdims numbers, each at most @max,
 * separated by 'x'.  Returns how many, or -1.
 */
int plan_parse_dims(const char *s, u32 *dims, u32 maxdims, u32 max);

/*
 * Grid coordinates "x,y[,z]" at the start of @s: exactly @ndims numbers
 * separated by ',', coordinate i below @dims[i].  *@node is the node id
 * (x varies fastest, as in kmod/engine/topology.h).  Returns the first
 * character after them, or NULL.
 */
const char *plan_scan_coords(const char *s, u32 ndims, const u32 *dims,
			     u32 *node);

/* Create the SVG file @path; NULL with the error printed. */
FILE *plan_svg_create(const char *path);

/*
 * Close the SVG document (write "</svg>") and the file; returns 0, or 1
 * with the error printed (for instance a full disk).
 */
int plan_svg_finish(FILE *f, const char *path);

#endif /* WORMCTL_PLAN_COMMON_H */
