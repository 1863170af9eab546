// SPDX-License-Identifier: GPL-2.0
/* wormctl plan: shared parsing and SVG file handling (see plan_common.h). */
#include <errno.h>
#include <string.h>

#include "plan_common.h"

static const char *scan_u64(const char *s, u64 max, u64 *v)
{
	u64 x = 0;

	if (!s || *s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		u32 digit = (u32)(*s - '0');

		if (digit > max || x > (max - digit) / 10)
			return NULL;	/* x * 10 + digit > max */
		x = x * 10 + digit;
	}
	*v = x;
	return s;
}

const char *plan_scan_u32(const char *s, u32 max, u32 *v)
{
	u64 x;

	s = scan_u64(s, max, &x);
	if (s)
		*v = (u32)x;
	return s;
}

int plan_parse_u64(const char *s, u64 max, u64 *v)
{
	u64 x;
	const char *end = scan_u64(s, max, &x);

	if (!end || *end)
		return -1;
	*v = x;
	return 0;
}

int plan_parse_u32(const char *s, u32 max, u32 *v)
{
	u64 x;

	if (plan_parse_u64(s, max, &x))
		return -1;
	*v = (u32)x;
	return 0;
}

int plan_parse_dims(const char *s, u32 *dims, u32 maxdims, u32 max)
{
	u32 n = 0;

	for (;;) {
		if (n == maxdims)
			return -1;
		s = plan_scan_u32(s, max, &dims[n++]);
		if (!s)
			return -1;
		if (!*s)
			return (int)n;
		if (*s++ != 'x')
			return -1;
	}
}

const char *plan_scan_coords(const char *s, u32 ndims, const u32 *dims,
			     u32 *node)
{
	u32 i, c, id = 0, scale = 1;

	for (i = 0; i < ndims; i++) {
		if (i && *s++ != ',')
			return NULL;
		if (!dims[i])
			return NULL;
		s = plan_scan_u32(s, dims[i] - 1, &c);
		if (!s)
			return NULL;
		id += c * scale;
		scale *= dims[i];
	}
	*node = id;
	return s;
}

FILE *plan_svg_create(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "wormctl: cannot write %s: %s\n", path,
			strerror(errno));
	return f;
}

int plan_svg_finish(FILE *f, const char *path)
{
	bool bad;

	fprintf(f, "</svg>\n");
	bad = ferror(f);
	if (fclose(f) || bad) {
		fprintf(stderr, "wormctl: cannot write %s: %s\n", path,
			strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}
