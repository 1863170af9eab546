// SPDX-License-Identifier: GPL-2.0 -- STUB: replaced by the engine's tree_mcast.c at merge
/*
 * STUB of the tree multicast API (tree_mcast.h), only so that the kernel
 * branch links until the real tree_mcast.c lands: it builds no tree set,
 * accepts no scheme and routes nothing.  No engine logic lives here.
 */
#include "tree_mcast.h"

static const char wc_tree_stub_why[] =
	"tree multicast is not built in (engine STUB)";

int wc_tree_set_build(struct wc_tree_set *s, const struct wc_topo *t,
		      const void *table, size_t len, const char **why)
{
	memset(s, 0, sizeof(*s));
	*why = wc_tree_stub_why;
	return -EINVAL;
}

void wc_tree_set_free(struct wc_tree_set *s)
{
}

int wc_tree_scheme_check(u32 scheme, const struct wc_topo *t,
			 const struct wc_engine_params *p, const char **why)
{
	*why = wc_tree_stub_why;
	return -EINVAL;
}

u32 wc_tree_set_distance(const struct wc_tree_set *s, u32 tree, u32 a, u32 b)
{
	return 0;
}

static bool wc_tree_stub_next_worm(const struct wc_route_ctx *ctx,
				   struct wc_msg *m, u32 *words, u32 max_words,
				   struct wc_hdr *hdr)
{
	return false;
}

static int wc_tree_stub_route(const struct wc_route_ctx *ctx,
			      const struct wc_hdr *hdr,
			      struct wc_route_req *req)
{
	return -EINVAL;
}

static int wc_tree_stub_check(const struct wc_topo *t,
			      const struct wc_engine_params *p,
			      const char **why)
{
	*why = wc_tree_stub_why;
	return -EINVAL;
}

const struct wc_algo wc_algo_tree = {
	.name = "tree (STUB)",
	.next_worm = wc_tree_stub_next_worm,
	.route = wc_tree_stub_route,
	.check = wc_tree_stub_check,
	.hdr_words = wc_tree_hdr_words,
};
