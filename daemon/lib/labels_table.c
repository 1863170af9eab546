// SPDX-License-Identifier: GPL-2.0
/* The label table of the label-based schemes; see labels_table.h. */
#include <stdlib.h>
#include <string.h>

#include "labels_table.h"
#include "labeling.h"
#include "path_mcast.h"
#include "sptree.h"

int wc_labels_table_build_faults(const struct wc_topo *t, u32 scheme,
				 const u32 *links, u32 nlinks,
				 const u32 *nodes, u32 nnodes, void **bytes,
				 size_t *len, u32 *crossed, u32 *unlisted)
{
	struct wormcast_trees_fault *f;
	struct wormcast_labels *h;
	struct wc_labeling lb;
	u32 v, p, nf = 0, a, pa, b, pb;
	int err;

	*bytes = NULL;
	*len = 0;
	*crossed = 0;
	*unlisted = 0;
	if (!wc_label_scheme(scheme) || nlinks > WORMCAST_TREES_MAX_FAULTS)
		return -EINVAL;
	err = wc_labeling_init_faults(&lb, t, links, nlinks, nodes, nnodes,
				      crossed);
	if (err)
		return err;
	h = calloc(1, wc_labels_table_size(t->nnodes,
					   WORMCAST_TREES_MAX_FAULTS));
	if (!h) {
		wc_labeling_free(&lb);
		return -ENOMEM;
	}
	h->scheme = scheme;
	h->nnodes = t->nnodes;
	for (v = 0; v < t->nnodes; v++)
		h->label[v] = lb.label[v];
	f = (struct wormcast_trees_fault *)(h->label + t->nnodes);
	for (v = 0; v < t->nnodes; v++) {
		for (p = 0; p < t->nports; p++) {
			if (wc_topo_neighbor(t, v, p) == WC_NO_NODE ||
			    !wc_labeling_dead(&lb, v, p))
				continue;
			wc_link_ends(t, wc_link_id(t, v, p), &a, &pa, &b, &pb);
			if (a != v || pa != p)
				continue;	/* listed from its canonical end */
			if (nf == WORMCAST_TREES_MAX_FAULTS) {
				(*unlisted)++;
				continue;
			}
			f[nf].node = a;
			f[nf++].port = pa;
		}
	}
	h->nfaults = nf;
	wc_labeling_free(&lb);
	*bytes = h;
	*len = wc_labels_table_size(t->nnodes, nf);
	return 0;
}

int wc_labels_table_build(const struct wc_topo *t, u32 scheme, void **bytes,
			  size_t *len)
{
	u32 crossed, unlisted;

	return wc_labels_table_build_faults(t, scheme, NULL, 0, NULL, 0, bytes,
					    len, &crossed, &unlisted);
}

int wc_labeling_from_table(struct wc_labeling *lb, const struct wc_topo *t,
			   const void *table, size_t len, const char **why)
{
	struct wc_label_set s;
	u32 v, p;
	int err;

	memset(lb, 0, sizeof(*lb));
	err = wc_label_set_build(&s, t, table, len, why);
	if (err)
		return err;
	err = wc_labeling_from_order(lb, t, s.node_of_label, why);
	if (!err) {
		lb->dead = wc_zalloc((size_t)t->nnodes * t->nports);
		if (!lb->dead) {
			wc_labeling_free(lb);
			err = -ENOMEM;
		}
	}
	for (v = 0; !err && v < t->nnodes; v++)
		for (p = 0; p < t->nports; p++)
			lb->dead[(size_t)v * t->nports + p] =
				s.nbr[v * t->nports + p] == WC_LABEL_NONE &&
				wc_topo_neighbor(t, v, p) != WC_NO_NODE;
	wc_label_set_free(&s);
	return err;
}
