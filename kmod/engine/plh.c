// SPDX-License-Identifier: GPL-2.0
/*
 * Dimension-ordered routing on the p/l/h virtual channels (plh.h).
 */
#include "plh.h"

bool wc_plh_side_ok(u32 side)
{
	return side >= WC_PLH_MIN_SIDE && side <= WC_PLH_MAX_SIDE &&
	       !(side & (side - 1));
}

bool wc_plh_hop(u32 side, u32 cur, u32 dst, u32 *port, u32 *cls)
{
	u32 c[2] = { cur % side, cur / side }, w[2] = { dst % side, dst / side };
	u32 dim;

	for (dim = 0; dim < 2; dim++) {
		u32 diff = (w[dim] + side - c[dim]) % side, n, wrap_hop;
		bool plus = diff <= side / 2;

		if (!diff)
			continue;
		n = plus ? diff : side - diff;
		/* hops before the one over the wraparound link, if any */
		wrap_hop = plus ? side - 1 - c[dim] : c[dim];
		*port = 2 * dim + (plus ? 0 : 1);
		*cls = wrap_hop < n ? WC_PLH_P : WC_PLH_LH;
		return true;
	}
	return false;
}

int wc_plh_check(const struct wc_topo *t, const struct wc_engine_params *p,
		 const char **why)
{
	if (t->kind != WC_TOPO_TORUS || t->ndims != 2 ||
	    t->dims[0] != t->dims[1] || !wc_plh_side_ok(t->dims[0])) {
		if (why)
			*why = "p/l/h routing needs an n x n torus, n a power of two, 4 to 64";
		return -EINVAL;
	}
	if (p->vcs < 2) {
		if (why)
			*why = "p/l/h routing needs vcs >= 2 (p and l/h)";
		return -EINVAL;
	}
	return 0;
}

static int plh_route(const struct wc_route_ctx *ctx, const struct wc_hdr *hdr,
		     struct wc_route_req *req)
{
	struct wc_route_out *o = &req->out[0];
	u32 half = ctx->params->vcs / 2, dst, port, cls;
	int r = wc_unicast_route_start(ctx, hdr, req, &dst);

	if (r <= 0)
		return r;
	if (!wc_plh_hop(ctx->topo->dims[0], ctx->node, dst, &port, &cls))
		return -EINVAL;
	o->port = (u8)port;
	o->vc_mask = (u16)(cls == WC_PLH_P ?
			   ((1u << ctx->params->vcs) - 1) & ~((1u << half) - 1) :
			   (1u << half) - 1);
	return 0;
}

const struct wc_algo wc_algo_plh = {
	.name = "dcf-plh",
	.next_worm = wc_unicast_next_worm,
	.route = plh_route,
	.check = wc_plh_check,
};
