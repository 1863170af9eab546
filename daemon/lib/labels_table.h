/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WORMCAST_TABLE_LABELS table (struct wormcast_labels, uapi) of a
 * label-based multicast scheme (hamiltonian, dual-path, multipath,
 * star-tree): the topology's canonical Hamiltonian labeling
 * (labeling.h), label[node].  What wormcastd pushes into the kernel and
 * what wormsim and the tests feed the engine (wc_label_set_build()).
 * Pure: the same inputs give the same bytes.
 */
#ifndef WC_LABELS_TABLE_H
#define WC_LABELS_TABLE_H

#include <linux/wormcast.h>

#include "topology.h"

/* 16 + 4 * nnodes. */
static inline size_t wc_labels_table_size(u32 nnodes)
{
	return sizeof(struct wormcast_labels) + (size_t)nnodes * sizeof(u32);
}

/*
 * Build the table of @scheme for @t: *@bytes (malloc'ed, the caller frees
 * it) of *@len bytes.  Returns 0, -EINVAL for a scheme that is not
 * label-based or a topology without a canonical labeling, -ENOMEM.
 */
int wc_labels_table_build(const struct wc_topo *t, u32 scheme, void **bytes,
			  size_t *len);

#endif /* WC_LABELS_TABLE_H */
