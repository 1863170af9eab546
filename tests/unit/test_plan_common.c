// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl plan's shared parsing (tools/wormctl/plan_common.c): numbers,
 * sizes and coordinates against an independent strtoull-based reference
 * on every short string over a small alphabet, plus the edge values.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../tools/wormctl/plan_common.c"

/* Reference: digits only, then strtoull with its overflow report. */
static int ref_parse_u64(const char *s, u64 max, u64 *v)
{
	unsigned long long x;
	const char *p;
	char *end;

	if (!*s)
		return -1;
	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > max)
		return -1;
	*v = x;
	return 0;
}

/* Reference: exactly three ','-separated numbers, each below grid[i]. */
static bool ref_coords(const char *s, const u32 *grid, u32 *node)
{
	u32 c[3], n = 0;
	const char *p = s;

	for (;;) {
		char part[8];
		size_t l = strcspn(p, ",");
		u64 v;

		if (n == 3 || l >= sizeof(part))
			return false;
		memcpy(part, p, l);
		part[l] = 0;
		if (ref_parse_u64(part, grid[n] - 1, &v))
			return false;
		c[n++] = (u32)v;
		if (!p[l])
			break;
		p += l + 1;
	}
	if (n != 3)
		return false;
	*node = c[0] + grid[0] * (c[1] + grid[1] * c[2]);
	return true;
}

/* Every string of up to 5 characters over "0179x,- ". */
static void test_exhaustive(void)
{
	static const char alpha[] = "0179x,- ";
	const u32 na = sizeof(alpha) - 1, grid[3] = { 8, 10, 3 };
	u32 len, idx, total, i, bad_num = 0, bad_dims = 0, bad_xy = 0;
	char s[8];

	for (len = 0; len <= 5; len++) {
		for (total = 1, i = 0; i < len; i++)
			total *= na;
		for (idx = 0; idx < total; idx++) {
			u32 rest = idx, dims[3], rdims[3], n = 0, node, want;
			u64 a = 0, b = 0;
			int got, ref, rn;
			const char *p, *end;

			for (i = 0; i < len; i++, rest /= na)
				s[i] = alpha[rest % na];
			s[len] = 0;
			got = plan_parse_u64(s, 1000, &a);
			ref = ref_parse_u64(s, 1000, &b);
			if (got != ref || (!got && a != b))
				bad_num++;
			/* dims: split on 'x', each part a number <= 99 */
			rn = 0;
			for (p = s; rn >= 0;) {
				char part[8];
				size_t l = strcspn(p, "x");
				u64 v;

				memcpy(part, p, l);
				part[l] = 0;
				if (n == 3 || ref_parse_u64(part, 99, &v)) {
					rn = -1;
					break;
				}
				rdims[n++] = (u32)v;
				rn = (int)n;
				if (!p[l])
					break;
				p += l + 1;
			}
			got = plan_parse_dims(s, dims, 3, 99);
			if (got != rn ||
			    (got > 0 && memcmp(dims, rdims, got * sizeof(u32))))
				bad_dims++;
			/* coordinates: "x,y,z" inside an 8x10x3 grid */
			end = plan_scan_coords(s, 3, grid, &node);
			if ((end && !*end) != ref_coords(s, grid, &want) ||
			    (end && !*end && node != want))
				bad_xy++;
		}
	}
	is_int(bad_num, 0, "plan_parse_u64 agrees with strtoull on every short string");
	is_int(bad_dims, 0, "plan_parse_dims agrees with a split-and-parse reference");
	is_int(bad_xy, 0, "plan_scan_coords agrees with a split-and-parse reference");
}

static void test_edges(void)
{
	u32 v = 7, dims[4], node;
	u64 w = 0;
	const char *end;

	ok(!plan_parse_u32("4294967295", U32_MAX, &v) && v == U32_MAX,
	   "U32_MAX parses");
	ok(plan_parse_u32("4294967296", U32_MAX, &v) && v == U32_MAX,
	   "U32_MAX + 1 is refused, value untouched");
	ok(!plan_parse_u64("18446744073709551615", ~0ull, &w) && w == ~0ull,
	   "U64_MAX parses");
	ok(plan_parse_u64("18446744073709551616", ~0ull, &w),
	   "U64_MAX + 1 is refused");
	ok(plan_parse_u32("8", 7, &v) && plan_parse_u32("+1", 9, &v) &&
	   plan_parse_u32(" 1", 9, &v) && plan_parse_u32("", 9, &v),
	   "over the bound, signs, blanks and empty strings are refused");
	is_int(plan_parse_dims("16x16x16", dims, 3, 1024), 3, "three dims");
	is_int(plan_parse_dims("16x16x16x2", dims, 3, 1024), -1,
	       "one dim too many");
	is_int(plan_parse_dims("8xx8", dims, 3, 1024), -1, "empty dim");
	end = plan_scan_coords("3,4:5,6", 2, (const u32[]){ 8, 8 }, &node);
	ok(end && *end == ':' && node == 35, "coordinates stop at the list separator");
}

int main(void)
{
	test_edges();
	test_exhaustive();
	return done_testing();
}
