/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault information on a 2-D mesh (Wu and Chen, section 3.3):
 *  - faulty blocks: Definition 1 applied until nothing changes (a healthy
 *    node with faulty or disabled neighbours in both dimensions is
 *    disabled); every connected set of faulty and disabled nodes is a
 *    rectangle, checked when built;
 *  - a faulty link is treated as a fault of one of its end nodes (the one
 *    with the larger node id);
 *  - the safety vector (E, S, W, N) of every node: hops to the closest
 *    faulty block in each direction along its row or column;
 *  - safe and extended-safe sources;
 *  - the block records held on the adjacent lines, with the transfer
 *    between intersecting blocks (Fig. 4), for each of the four virtual
 *    subnetworks (in subnetwork q the lines "L1" and "L3" of ftmesh.h are
 *    read in q's canonical frame, so all four physical adjacent lines are
 *    used, each split at the block's corner);
 *  - router-table shapes: per node, its safety vector and its records.
 *
 * Node ids follow topology.h for a 2-D mesh: id = x + w * y.  The mesh is
 * given by its sides so that meshes larger than a fabric (WC_MAX_NODES)
 * can be studied offline; wc_fi_build_topo() takes a struct wc_topo.
 *
 * Memory is proportional to the mesh plus the records: for a 256 x 256
 * mesh with hundreds of blocks, a few megabytes.
 */
#ifndef WC_FAULTINFO_H
#define WC_FAULTINFO_H

#include "topology.h"
#include "ftmesh.h"

#define WC_FI_NONE	U32_MAX
#define WC_FI_INF	0xffff		/* safety element: no block that way */
#define WC_FI_MAX_SIDE	1024

/* Safety vector (E, S, W, N) = (+X, -Y, -X, +Y); 0 inside a block. */
struct wc_fi_safety {
	u16 e, s, w, n;
};

/* A block record held by a router (router-table shape). */
struct wc_fi_record {
	u32 block;		/* index into wc_faultinfo.blocks */
	u8 subnet;		/* enum wc_ft_subnet */
	u8 line;		/* enum wc_ft_line, in the subnet's frame */
	u8 transferred;		/* 1: received from an intersecting block */
};

struct wc_faultinfo {
	u32 w, h, nnodes;
	u8 *faulty;		/* per node: 1 if faulty (node or link fault) */
	u32 *block_of;		/* per node: block index, or WC_FI_NONE */
	u32 nblocks;
	struct wc_ft_rect *blocks;	/* physical coordinates */
	struct wc_fi_safety *safety;	/* per node */
	/* per subnetwork: blocks in its canonical frame */
	struct wc_ft_rect *cblocks[WC_FT_NSUBNETS];
	/*
	 * Transfer closure, per subnetwork and line (0: L1, 1: L3): the
	 * blocks whose records are held on that line of block b are
	 * carry[q][l][carry_off[q][l][b] .. carry_off[q][l][b + 1]), b first.
	 */
	u32 *carry_off[WC_FT_NSUBNETS][2];
	u32 *carry[WC_FT_NSUBNETS][2];
};

/*
 * Build the fault information of a w x h mesh.  @faulty lists faulty node
 * ids; @links lists faulty links as pairs of adjacent node ids (may be
 * NULL with nlinks 0).  Repeated entries are allowed.  Returns 0, -EINVAL
 * (with *why) on bad input, -ENOMEM.
 */
int wc_fi_build(struct wc_faultinfo *fi, u32 w, u32 h, const u32 *faulty,
		u32 nfaulty, const u32 (*links)[2], u32 nlinks,
		const char **why);
/* The same for a 2-D mesh wc_topo. */
int wc_fi_build_topo(struct wc_faultinfo *fi, const struct wc_topo *t,
		     const u32 *faulty, u32 nfaulty, const u32 (*links)[2],
		     u32 nlinks, const char **why);
void wc_fi_free(struct wc_faultinfo *fi);

static inline u32 wc_fi_node(const struct wc_faultinfo *fi, u32 x, u32 y)
{
	return x + fi->w * y;
}

static inline u32 wc_fi_x(const struct wc_faultinfo *fi, u32 node)
{
	return node % fi->w;
}

static inline u32 wc_fi_y(const struct wc_faultinfo *fi, u32 node)
{
	return node / fi->w;
}

/* Manhattan distance, the length of a minimal path. */
static inline u32 wc_fi_distance(const struct wc_faultinfo *fi, u32 a, u32 b)
{
	u32 ax = wc_fi_x(fi, a), ay = wc_fi_y(fi, a);
	u32 bx = wc_fi_x(fi, b), by = wc_fi_y(fi, b);

	return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

/* The mesh neighbours of @node (-x, +x, -y, +y order) into @nb; how many. */
static inline u32 wc_fi_neighbours(const struct wc_faultinfo *fi, u32 node,
				   u32 nb[4])
{
	u32 x = wc_fi_x(fi, node), y = wc_fi_y(fi, node), cnt = 0;

	if (x > 0)
		nb[cnt++] = node - 1;
	if (x + 1 < fi->w)
		nb[cnt++] = node + 1;
	if (y > 0)
		nb[cnt++] = node - fi->w;
	if (y + 1 < fi->h)
		nb[cnt++] = node + fi->w;
	return cnt;
}

static inline bool wc_fi_in_block(const struct wc_faultinfo *fi, u32 node)
{
	return fi->block_of[node] != WC_FI_NONE;
}

/* Definition 2: no faulty block on the node's row or column. */
bool wc_fi_safe(const struct wc_faultinfo *fi, u32 node);

/*
 * Extended safety of @src to @dst: no faulty block on the source's row
 * between it and dst's column, nor on its column between it and dst's row
 * (from the safety vector).  False if either is inside a block.
 */
bool wc_fi_ext_safe(const struct wc_faultinfo *fi, u32 src, u32 dst);
bool wc_fi_ext_safe_set(const struct wc_faultinfo *fi, u32 src,
			const u32 *dst, u32 ndst);

/*
 * Exact test: is there a path of length |dx - sx| + |dy - sy| from @src to
 * @dst through nodes outside every faulty block?  O(area of the box).
 */
bool wc_fi_minimal_path_exists(const struct wc_faultinfo *fi, u32 src,
			       u32 dst);

/*
 * The records held by @node in @subnet, each (block, line) once.  Writes at most @max into @out and
 * returns the total count.
 */
u32 wc_fi_records(const struct wc_faultinfo *fi, u32 node, u32 subnet,
		  struct wc_fi_record *out, u32 max);

/*
 * What the router at canonical (cx, cy) of @subnet knows, as an ftmesh
 * view (v->recs points into @buf).  @scratch and @buf must each hold
 * 2 * nblocks entries.
 */
void wc_fi_view(const struct wc_faultinfo *fi, u32 subnet, u32 cx, u32 cy,
		struct wc_fi_record *scratch, struct wc_ft_rec *buf,
		struct wc_ft_view *v);

/* Router-table shapes for every node. */
struct wc_fi_tables {
	u32 nnodes;
	struct wc_fi_safety *safety;	/* per node (a copy) */
	u32 *off;			/* node n: rec[off[n] .. off[n + 1]) */
	struct wc_fi_record *rec;
	u32 nrec;
};

int wc_fi_tables_build(const struct wc_faultinfo *fi, struct wc_fi_tables *t);
void wc_fi_tables_free(struct wc_fi_tables *t);

#endif /* WC_FAULTINFO_H */
