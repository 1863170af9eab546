// SPDX-License-Identifier: GPL-2.0
/* The bcast table of the dcf and edn schemes (bcast_table.h). */
#include <stdlib.h>

#include "bcast_table.h"
#include "dcf.h"

int wc_bcast_table_build(const struct wc_topo *t, u32 scheme, void **bytes,
			 size_t *len, const char **why)
{
	struct wormcast_bcast *h;
	struct wormcast_bcast_send *s;
	struct dcf_sched sc;
	u32 i, dscheme;
	int err;

	*bytes = NULL;
	*len = 0;
	if (scheme != WORMCAST_MCAST_DCF && scheme != WORMCAST_MCAST_EDN) {
		*why = "not a broadcast schedule scheme (dcf, edn)";
		return -EINVAL;
	}
	if (t->kind != WC_TOPO_TORUS || t->ndims != 2 ||
	    t->dims[0] != t->dims[1] || !dcf_side_ok(t->dims[0])) {
		*why = "broadcast schedules need an n x n torus, n a power of two, 4 to 64";
		return -EINVAL;
	}
	dscheme = scheme == WORMCAST_MCAST_DCF ? DCF_SCHEME_DCF : DCF_SCHEME_EDN;
	err = dcf_build(&sc, dscheme, t->dims[0], 0, NULL, why);
	if (err)
		return err;
	if (sc.nuni != t->nnodes - 1) {
		dcf_free(&sc);
		*why = "the schedule does not reach every node once";
		return -EINVAL;
	}
	h = calloc(1, wc_bcast_table_size(t->nnodes));
	if (!h) {
		dcf_free(&sc);
		return -ENOMEM;
	}
	h->scheme = scheme;
	h->nnodes = t->nnodes;
	h->nsends = sc.nuni;
	s = (struct wormcast_bcast_send *)(h + 1);
	for (i = 0; i < sc.nuni; i++) {
		s[i].step = sc.uni[i].step;
		s[i].from = sc.uni[i].src;	/* node 0's schedule: offsets */
		s[i].to = sc.uni[i].dst;
	}
	dcf_free(&sc);
	*bytes = h;
	*len = wc_bcast_table_size(t->nnodes);
	return 0;
}
