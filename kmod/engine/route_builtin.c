// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in algorithm, used until the daemon installs another: a
 * multicast is sent as one unicast worm per destination (the unicast-based
 * baseline of the papers), each routed by a deadlock-free minimal rule:
 *
 *  - mesh: dimension order (lowest dimension first); one VC suffices.
 *  - torus: dimension order along the shorter way round (ties go +), with
 *    datelines: the VCs are split into two classes; a worm travels on
 *    class 0 in each dimension until it takes the wrap-around link, and on
 *    class 1 from that hop on; back to class 0 in the next dimension.
 *    Needs vcs >= 2.
 *  - hypercube: e-cube (lowest differing bit first); one VC suffices.
 *  - star graph: the minimal greedy rule of Akers, Harel and Krishnamurthy
 *    (send the first symbol home, or, when it is home, swap in the first
 *    misplaced symbol), on hop-indexed VCs (hop h uses VC h), which keeps
 *    the channel dependency graph acyclic.  Needs vcs >= diameter.
 *
 * Header: one word, the destination node; one header flit.
 */
#include "engine.h"

bool wc_unicast_next_worm(const struct wc_route_ctx *ctx, struct wc_msg *m,
			  u32 *words, u32 max_words, struct wc_hdr *hdr)
{
	u32 n = ctx->topo->nnodes, i;

	for (i = m->next_dst; i < n; i++) {
		if (!((m->dstmap[i / 32] >> (i % 32)) & 1))
			continue;
		m->next_dst = i + 1;
		words[0] = i;
		hdr->words = words;
		hdr->nwords = 1;
		hdr->nflits = 1;
		return true;
	}
	m->next_dst = n;
	return false;
}

static u32 vc_all(const struct wc_engine_params *p)
{
	return (1u << p->vcs) - 1;
}

/* Dimension order on mesh and torus; returns the port, sets *vc_mask. */
static u32 grid_route(const struct wc_route_ctx *ctx, u32 dst, u32 *vc_mask)
{
	const struct wc_topo *t = ctx->topo;
	u32 cur[WC_MAX_DIMS], want[WC_MAX_DIMS], d;

	wc_topo_coords(t, ctx->node, cur);
	wc_topo_coords(t, dst, want);
	for (d = 0; d < t->ndims; d++) {
		u32 k = t->dims[d], fwd, port;
		bool plus, wrap, crossed;
		u32 half = ctx->params->vcs / 2;

		if (cur[d] == want[d])
			continue;
		if (t->kind == WC_TOPO_MESH) {
			*vc_mask = vc_all(ctx->params);
			return cur[d] < want[d] ? 2 * d : 2 * d + 1;
		}
		fwd = (want[d] + k - cur[d]) % k;	/* hops going + */
		plus = fwd <= k - fwd;
		port = plus ? 2 * d : 2 * d + 1;
		wrap = plus ? cur[d] == k - 1 : cur[d] == 0;
		/* Still in this dimension and direction, past the dateline? */
		crossed = ctx->in_port != WC_PORT_INJ &&
			  (ctx->in_port ^ 1) == port && ctx->in_vc >= half;
		if (wrap || crossed)
			*vc_mask = vc_all(ctx->params) & ~((1u << half) - 1);
		else
			*vc_mask = (1u << half) - 1;
		return port;
	}
	return U32_MAX;
}

/* Akers-Harel-Krishnamurthy greedy step on the star graph. */
static u32 star_route(const struct wc_route_ctx *ctx, u32 dst)
{
	u32 n = ctx->topo->dims[0], i;
	u8 cur[WC_MAX_STAR_N], want[WC_MAX_STAR_N], home[WC_MAX_STAR_N + 1] = { 0 };

	wc_star_unrank(n, ctx->node, cur);
	wc_star_unrank(n, dst, want);
	for (i = 0; i < n; i++)
		home[want[i]] = (u8)i;
	/* The first symbol goes to the position it has in dst... */
	if (home[cur[0]] != 0)
		return home[cur[0]] - 1;
	/* ...unless it is home already: bring in a misplaced symbol. */
	for (i = 1; i < n; i++)
		if (cur[i] != want[i])
			return i - 1;
	return U32_MAX;
}

int wc_unicast_route_start(const struct wc_route_ctx *ctx,
			   const struct wc_hdr *hdr, struct wc_route_req *req,
			   u32 *dst)
{
	struct wc_route_out *o = &req->out[0];

	if (hdr->nwords < 1 || hdr->words[0] >= ctx->topo->nnodes)
		return -EINVAL;
	*dst = hdr->words[0];
	req->nout = 1;
	o->hdr_words = 1;
	o->hdr_flits = (u16)hdr->nflits;
	if (*dst == ctx->node) {
		o->consume = true;
		return 0;
	}
	return 1;
}

static int unicast_route(const struct wc_route_ctx *ctx,
			 const struct wc_hdr *hdr, struct wc_route_req *req)
{
	const struct wc_topo *t = ctx->topo;
	struct wc_route_out *o = &req->out[0];
	u32 dst, port = U32_MAX, mask = 0;
	int r = wc_unicast_route_start(ctx, hdr, req, &dst);

	if (r <= 0)
		return r;
	switch (t->kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		port = grid_route(ctx, dst, &mask);
		break;
	case WC_TOPO_HYPERCUBE:
		port = __builtin_ctz(ctx->node ^ dst);
		mask = vc_all(ctx->params);
		break;
	case WC_TOPO_STAR: {
		u32 hop = ctx->in_port == WC_PORT_INJ ? 0 : ctx->in_vc + 1;

		port = star_route(ctx, dst);
		if (hop >= ctx->params->vcs)
			return -ERANGE;
		mask = 1u << hop;
		break;
	}
	}
	if (port == U32_MAX)
		return -EINVAL;
	o->port = (u8)port;
	o->vc_mask = (u16)mask;
	return 0;
}

static int unicast_check(const struct wc_topo *t,
			 const struct wc_engine_params *p, const char **why)
{
	if (t->kind == WC_TOPO_TORUS && p->vcs < 2) {
		if (why)
			*why = "a torus needs vcs >= 2 (dateline virtual channels)";
		return -EINVAL;
	}
	if (t->kind == WC_TOPO_STAR && p->vcs < (3 * (t->dims[0] - 1)) / 2) {
		if (why)
			*why = "a star graph needs vcs >= its diameter (hop-indexed VCs)";
		return -EINVAL;
	}
	return 0;
}

const struct wc_algo wc_algo_unicast_based = {
	.name = "unicast-based",
	.next_worm = wc_unicast_next_worm,
	.route = unicast_route,
	.check = unicast_check,
};
