// SPDX-License-Identifier: GPL-2.0
/* Per-hop decisions of the fault-tolerant minimal multicast; see ftmesh.h. */
#include "ftmesh.h"

u32 wc_ft_subnet_of(u32 sx, u32 sy, u32 dx, u32 dy)
{
	bool west = dx < sx, south = dy < sy;

	if (west)
		return south ? WC_FT_NXNY : WC_FT_NXPY;
	return south ? WC_FT_PXNY : WC_FT_PXPY;
}

void wc_ft_canon(u32 subnet, u32 w, u32 h, u32 x, u32 y, u32 *cx, u32 *cy)
{
	*cx = wc_ft_sx(subnet) > 0 ? x : w - 1 - x;
	*cy = wc_ft_sy(subnet) > 0 ? y : h - 1 - y;
}

void wc_ft_canon_rect(u32 subnet, u32 w, u32 h, const struct wc_ft_rect *r,
		      struct wc_ft_rect *c)
{
	u32 ax, ay, bx, by;

	wc_ft_canon(subnet, w, h, r->x0, r->y0, &ax, &ay);
	wc_ft_canon(subnet, w, h, r->x1, r->y1, &bx, &by);
	c->x0 = (u16)min_t(u32, ax, bx);
	c->x1 = (u16)max_t(u32, ax, bx);
	c->y0 = (u16)min_t(u32, ay, by);
	c->y1 = (u16)max_t(u32, ay, by);
}

u32 wc_ft_region(const struct wc_ft_rect *b, u32 x, u32 y)
{
	/* column class 0 west, 1 within, 2 east; likewise rows */
	u32 col = x < b->x0 ? 0 : x <= b->x1 ? 1 : 2;
	u32 row = y < b->y0 ? 0 : y <= b->y1 ? 1 : 2;
	static const u8 region[3][3] = {
		/* row:   south     within      north */
		[0] = { WC_FT_R1, WC_FT_R2, WC_FT_R3 },
		[1] = { WC_FT_R8, WC_FT_INSIDE, WC_FT_R4 },
		[2] = { WC_FT_R7, WC_FT_R6, WC_FT_R5 },
	};

	return region[col][row];
}

u32 wc_ft_bound(const struct wc_ft_view *v, u32 dx, u32 dy)
{
	bool can_x, can_y, must_x, must_y;
	u32 i;

	if (dx < v->x || dy < v->y || (dx == v->x && dy == v->y))
		return WC_FT_NO_WAY;
	can_x = dx > v->x && !v->east_blocked;
	can_y = dy > v->y && !v->north_blocked;
	/* Definition 3, first condition: same row (column) as the header. */
	must_x = dy == v->y;
	must_y = dx == v->x;
	/* Definition 3, second condition: critical adjacent line. */
	for (i = 0; i < v->nrecs; i++) {
		u32 r = wc_ft_region(&v->recs[i].b, dx, dy);

		if (v->recs[i].line == WC_FT_L1 && r == WC_FT_R6)
			must_x = true;
		else if (v->recs[i].line == WC_FT_L3 && r == WC_FT_R4)
			must_y = true;
	}
	if (must_x && must_y)
		return WC_FT_NO_WAY;
	if (must_x)
		return can_x ? WC_FT_XBOUND : WC_FT_NO_WAY;
	if (must_y)
		return can_y ? WC_FT_YBOUND : WC_FT_NO_WAY;
	/* An adjacent block leaves one way (both: the node would be disabled). */
	if (!can_x && !can_y)
		return WC_FT_NO_WAY;
	if (!can_x)
		return WC_FT_YBOUND;
	if (!can_y)
		return WC_FT_XBOUND;
	return WC_FT_UNDETERMINED;
}

u32 wc_ft_state(bool any_xbound, bool any_ybound)
{
	if (any_xbound && any_ybound)
		return WC_FT_IN_CONFLICT;
	if (any_xbound)
		return WC_FT_1D_FREE_X;
	if (any_ybound)
		return WC_FT_1D_FREE_Y;
	return WC_FT_2D_FREE;
}

u32 wc_ft_strategy1(u32 random_bit)
{
	return (random_bit & 1) ? WC_FT_YBOUND : WC_FT_XBOUND;
}

u32 wc_ft_rand_bit(u64 seed, u32 node, u32 dst)
{
	/* splitmix64 finaliser over the three inputs */
	u64 z = seed + 0x9e3779b97f4a7c15ull * (((u64)node << 32 | dst) + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (u32)(z >> 40) & 1;
}

bool wc_ft_ext_safe(const u16 s[4], u32 sx, u32 sy, u32 dx, u32 dy)
{
	if (dx > sx && s[0] <= dx - sx)
		return false;
	if (dy < sy && s[1] <= sy - dy)
		return false;
	if (dx < sx && s[2] <= sx - dx)
		return false;
	if (dy > sy && s[3] <= dy - sy)
		return false;
	return true;
}

u32 wc_ft_strategy2(u32 ux, u32 uy, u32 dx, u32 dy, u32 tie)
{
	u32 xoff = dx - ux, yoff = dy - uy;

	if (xoff > yoff)
		return WC_FT_XBOUND;
	if (xoff < yoff)
		return WC_FT_YBOUND;
	return tie;
}

u32 wc_ft_free_step(u32 ux, u32 uy, u32 tx, u32 ty)
{
	return ty - uy > tx - ux ? WC_FT_YBOUND : WC_FT_XBOUND;
}

bool wc_ft_eligible(u32 wx, u32 wy, u32 dx, u32 dy,
		    const struct wc_ft_rect *known, u32 nknown)
{
	u32 i;

	if (wx > dx || wy > dy)
		return false;
	for (i = 0; i < nknown; i++) {
		const struct wc_ft_rect *b = &known[i];

		/* the row segment (wx..dx, wy), w itself included */
		if (wy >= b->y0 && wy <= b->y1 && b->x0 <= dx && b->x1 >= wx)
			return false;
		/* the column segment (wx, wy..dy) */
		if (wx >= b->x0 && wx <= b->x1 && b->y0 <= dy && b->y1 >= wy)
			return false;
	}
	return true;
}

bool wc_ft_best_w(u32 ax, u32 ay, u32 bx, u32 by, u32 dx, u32 dy,
		  const struct wc_ft_rect *known, u32 nknown,
		  u32 *wx, u32 *wy, u32 *dist)
{
	u32 cx, cy, k, best = U32_MAX;

	if (ax > dx || ay > dy || ax > bx || ay > by)
		return false;
	/* Theorem 3's cases: R4 -> (dx, by), R6 -> (bx, dy), R5 -> b. */
	cx = min_t(u32, bx, dx);
	cy = min_t(u32, by, dy);
	if (wc_ft_eligible(cx, cy, dx, dy, known, nknown)) {
		*wx = cx;
		*wy = cy;
		*dist = (dx - cx) + (dy - cy);
		return true;
	}
	/* back down the column through the clamp, then back along the row */
	for (k = 1; cy >= ay + k; k++) {
		if (wc_ft_eligible(cx, cy - k, dx, dy, known, nknown)) {
			best = (dx - cx) + (dy - cy) + k;
			*wx = cx;
			*wy = cy - k;
			break;
		}
	}
	for (k = 1; cx >= ax + k; k++) {
		u32 d = (dx - cx) + (dy - cy) + k;

		if (d >= best)
			break;
		if (wc_ft_eligible(cx - k, cy, dx, dy, known, nknown)) {
			best = d;
			*wx = cx - k;
			*wy = cy;
			break;
		}
	}
	if (best == U32_MAX)
		return false;
	*dist = best;
	return true;
}
