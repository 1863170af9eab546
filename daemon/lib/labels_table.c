// SPDX-License-Identifier: GPL-2.0
/* The label table of the label-based schemes; see labels_table.h. */
#include <stdlib.h>

#include "labels_table.h"
#include "labeling.h"
#include "path_mcast.h"

int wc_labels_table_build(const struct wc_topo *t, u32 scheme, void **bytes,
			  size_t *len)
{
	struct wormcast_labels *h;
	struct wc_labeling lb;
	u32 v;
	int err;

	*bytes = NULL;
	*len = 0;
	if (!wc_label_scheme(scheme))
		return -EINVAL;
	err = wc_labeling_init(&lb, t);
	if (err)
		return err;
	h = calloc(1, wc_labels_table_size(t->nnodes));
	if (!h) {
		wc_labeling_free(&lb);
		return -ENOMEM;
	}
	h->scheme = scheme;
	h->nnodes = t->nnodes;
	for (v = 0; v < t->nnodes; v++)
		h->label[v] = lb.label[v];
	wc_labeling_free(&lb);
	*bytes = h;
	*len = wc_labels_table_size(t->nnodes);
	return 0;
}
