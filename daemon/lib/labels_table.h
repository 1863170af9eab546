/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WORMCAST_TABLE_LABELS table (struct wormcast_labels, uapi) of a
 * label-based multicast scheme (hamiltonian, dual-path, multipath,
 * star-tree, ocms, otms): a Hamiltonian labeling of the topology
 * (labeling.h), label[node], and the faulty links it avoids.  What
 * wormcastd pushes into the kernel and
 * what wormsim and the tests feed the engine (wc_label_set_build()).
 * Pure: the same inputs give the same bytes.
 */
#ifndef WC_LABELS_TABLE_H
#define WC_LABELS_TABLE_H

#include <linux/wormcast.h>

#include "topology.h"

/* 16 + 4 * nnodes + 8 * nfaults. */
static inline size_t wc_labels_table_size(u32 nnodes, u32 nfaults)
{
	return sizeof(struct wormcast_labels) + (size_t)nnodes * sizeof(u32) +
	       (size_t)nfaults * sizeof(struct wormcast_trees_fault);
}

/*
 * Build the table of @scheme for @t: *@bytes (malloc'ed, the caller frees
 * it) of *@len bytes.  Returns 0, -EINVAL for a scheme that is not
 * label-based or a topology without a canonical labeling, -ENOMEM.
 */
int wc_labels_table_build(const struct wc_topo *t, u32 scheme, void **bytes,
			  size_t *len);

/*
 * The same around the @nlinks faulty links @links (link ids, wc_link_id(),
 * at most WORMCAST_TREES_MAX_FAULTS) and the @nnodes failed nodes @nodes:
 * the labeling of wc_labeling_init_faults(), and the dead links its path
 * avoids (the faulty ones and the failed nodes' links), each once by its
 * canonical end (wc_link_ends()), by node and port; the first
 * WORMCAST_TREES_MAX_FAULTS of them (*@unlisted gets how many more: the
 * routers take those as alive, and a worm that meets one is absorbed and
 * counted).  *@crossed gets how many hops of the path use a dead link
 * (those links are left out of the table), a failed node at an end
 * excepted.
 */
int wc_labels_table_build_faults(const struct wc_topo *t, u32 scheme,
				 const u32 *links, u32 nlinks,
				 const u32 *nodes, u32 nnodes, void **bytes,
				 size_t *len, u32 *crossed, u32 *unlisted);

/*
 * The labeling a labels table gives the routers, as the kernel builds it
 * (wc_label_set_build() validates @len bytes at @table against @t): labels
 * and the faulty links absent (lb->dead).  0, -EINVAL with *@why, -ENOMEM.
 */
struct wc_labeling;
int wc_labeling_from_table(struct wc_labeling *lb, const struct wc_topo *t,
			   const void *table, size_t len, const char **why);

#endif /* WC_LABELS_TABLE_H */
