/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topologies of the emulated fabric: mesh and torus (1 to 3 dimensions),
 * binary hypercube and star graph.  Pure functions over a small descriptor;
 * shared by the kernel, the daemon's algorithm library and the tools.
 *
 * Node ids are 0 .. nnodes-1.
 *  - mesh/torus: id = x0 + d0 * (x1 + d1 * x2), coordinate 0 varies fastest.
 *  - hypercube:  id is the bit string of the node; coordinate i is bit i.
 *  - star S_n:   nodes are the permutations of the symbols 1..n, numbered by
 *                their rank in lexicographic order (12..n is node 0);
 *                coordinate i is the symbol at position i.
 *
 * Ports: every node has nports port numbers, some of which may lead nowhere
 * (mesh borders).
 *  - mesh/torus: port 2d goes to +d, port 2d+1 to -d.
 *  - hypercube:  port i flips bit i.
 *  - star:       port i swaps the first symbol with the symbol at position
 *                i + 1 (the generator g_{i+2} of the star paper).
 */
#ifndef WC_TOPOLOGY_H
#define WC_TOPOLOGY_H

#include "compat.h"

/* Values are those of enum wormcast_topology in uapi/linux/wormcast.h. */
enum wc_topo_kind {
	WC_TOPO_MESH = 1,
	WC_TOPO_TORUS = 2,
	WC_TOPO_HYPERCUBE = 3,
	WC_TOPO_STAR = 4,
};

#define WC_MAX_DIMS		3	/* mesh and torus */
#define WC_MAX_COORDS		12	/* hypercube dimension bound */
#define WC_MAX_HYPERCUBE_DIM	12
#define WC_MIN_STAR_N		2
#define WC_MAX_STAR_N		7
#define WC_MAX_NODES		5040	/* 7!: bound of an emulated fabric */
#define WC_MAX_PLAN_NODES	1048576u	/* 2^20: bound for offline planning */
#define WC_MAX_PORTS		12
#define WC_NO_NODE		U32_MAX
#define WC_NO_PORT		U32_MAX	/* wc_topo_port_to(): not neighbours */

struct wc_topo {
	u32 kind;		/* enum wc_topo_kind */
	u32 ndims;		/* mesh/torus: 1..3; hypercube, star: 1 */
	u32 dims[WC_MAX_DIMS];	/* mesh/torus: sizes; hypercube: dimension; star: n */
	u32 nnodes;
	u32 nports;		/* port numbers per node */
	u32 ncoords;		/* entries filled by wc_topo_coords() */
};

/*
 * Fill @t after validating the request.  Returns 0, or -EINVAL with *why
 * (if not NULL) set to a static human-readable reason.
 */
int wc_topo_init(struct wc_topo *t, u32 kind, u32 ndims, const u32 *dims,
		 const char **why);

/*
 * The same, with another bound on the node count: the daemon's planners
 * work on topologies larger than a fabric (up to WC_MAX_PLAN_NODES).
 */
int wc_topo_init_bounded(struct wc_topo *t, u32 kind, u32 ndims,
			 const u32 *dims, u32 max_nodes, const char **why);

/* Neighbour of @node through @port, or WC_NO_NODE. */
u32 wc_topo_neighbor(const struct wc_topo *t, u32 node, u32 port);

/* Port of @a that leads to @b, or WC_NO_PORT if they are not neighbours. */
u32 wc_topo_port_to(const struct wc_topo *t, u32 a, u32 b);

/* Port of neighbour(@node, @port) that leads back over the same link. */
u32 wc_topo_reverse_port(const struct wc_topo *t, u32 node, u32 port);

/*
 * A faulty link a table names by one end, @node and its @port: a node of
 * @t, a port it has, leading to a neighbour.  Returns 0 with the far end
 * and its port in *@far and *@far_port, or -EINVAL with *@why set.
 */
int wc_topo_fault_link(const struct wc_topo *t, u32 node, u32 port, u32 *far,
		       u32 *far_port, const char **why);

/* Coordinates of @node (t->ncoords entries, see above). */
void wc_topo_coords(const struct wc_topo *t, u32 node, u32 *coords);

/* Node with these coordinates, or WC_NO_NODE if they are out of range. */
u32 wc_topo_node(const struct wc_topo *t, const u32 *coords);

/* Length of a shortest path, in links. */
u32 wc_topo_distance(const struct wc_topo *t, u32 a, u32 b);

/* Number of links (each bidirectional link counted once). */
u32 wc_topo_nlinks(const struct wc_topo *t);

/* "mesh", "torus", "hypercube", "star" or "?" */
const char *wc_topo_kind_name(u32 kind);

/* Star graph helpers: permutation <-> rank, symbols 1..n. */
void wc_star_unrank(u32 n, u32 rank, u8 *perm);
u32 wc_star_rank(u32 n, const u8 *perm);

#endif /* WC_TOPOLOGY_H */
