// SPDX-License-Identifier: GPL-2.0
/* Topologies of the emulated fabric; see topology.h for the numbering. */
#include "topology.h"

static const char *const kind_names[] = {
	[WC_TOPO_MESH] = "mesh",
	[WC_TOPO_TORUS] = "torus",
	[WC_TOPO_HYPERCUBE] = "hypercube",
	[WC_TOPO_STAR] = "star",
};

const char *wc_topo_kind_name(u32 kind)
{
	if (kind >= ARRAY_SIZE(kind_names) || !kind_names[kind])
		return "?";
	return kind_names[kind];
}

static u32 factorial(u32 n)
{
	u32 f = 1;

	while (n > 1)
		f *= n--;
	return f;
}

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

int wc_topo_init(struct wc_topo *t, u32 kind, u32 ndims, const u32 *dims,
		 const char **why)
{
	return wc_topo_init_bounded(t, kind, ndims, dims, WC_MAX_NODES, why);
}

int wc_topo_init_bounded(struct wc_topo *t, u32 kind, u32 ndims,
			 const u32 *dims, u32 max_nodes, const char **why)
{
	u64 nnodes = 1;
	u32 i;

	memset(t, 0, sizeof(*t));
	switch (kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		if (ndims < 1 || ndims > WC_MAX_DIMS)
			return fail(why, "mesh and torus take 1 to 3 dimensions");
		for (i = 0; i < ndims; i++) {
			if (dims[i] < 2)
				return fail(why, "every dimension needs at least 2 nodes");
			nnodes *= dims[i];
			if (nnodes > max_nodes)
				return fail(why, max_nodes == WC_MAX_NODES ?
					    "too many nodes (at most 5040)" :
					    "too many nodes");
			t->dims[i] = dims[i];
		}
		t->ndims = ndims;
		t->nports = 2 * ndims;
		t->ncoords = ndims;
		break;
	case WC_TOPO_HYPERCUBE:
		if (ndims != 1 || dims[0] < 1 || dims[0] > WC_MAX_HYPERCUBE_DIM)
			return fail(why, "hypercube dimension must be 1 to 12");
		t->ndims = 1;
		t->dims[0] = dims[0];
		nnodes = 1u << dims[0];
		if (nnodes > max_nodes)
			return fail(why, "too many nodes");
		t->nports = dims[0];
		t->ncoords = dims[0];
		break;
	case WC_TOPO_STAR:
		if (ndims != 1 || dims[0] < WC_MIN_STAR_N ||
		    dims[0] > WC_MAX_STAR_N)
			return fail(why, "star graph order n must be 2 to 7");
		t->ndims = 1;
		t->dims[0] = dims[0];
		nnodes = factorial(dims[0]);
		if (nnodes > max_nodes)
			return fail(why, "too many nodes");
		t->nports = dims[0] - 1;
		t->ncoords = dims[0];
		break;
	default:
		return fail(why, "unknown topology");
	}
	t->kind = kind;
	t->nnodes = (u32)nnodes;
	return 0;
}

static u32 grid_stride(const struct wc_topo *t, u32 dim)
{
	u32 s = 1, i;

	for (i = 0; i < dim; i++)
		s *= t->dims[i];
	return s;
}

static u32 grid_coord(const struct wc_topo *t, u32 node, u32 dim)
{
	return (node / grid_stride(t, dim)) % t->dims[dim];
}

/* Lehmer code rank of a permutation of 1..n in lexicographic order. */
u32 wc_star_rank(u32 n, const u8 *perm)
{
	u32 rank = 0, i, j;

	for (i = 0; i < n; i++) {
		u32 smaller = 0;

		for (j = i + 1; j < n; j++)
			if (perm[j] < perm[i])
				smaller++;
		rank = rank * (n - i) + smaller;
	}
	return rank;
}

void wc_star_unrank(u32 n, u32 rank, u8 *perm)
{
	u8 avail[WC_MAX_STAR_N];
	u32 i, j;

	for (i = 0; i < n; i++)
		avail[i] = (u8)(i + 1);
	for (i = 0; i < n; i++) {
		u32 f = factorial(n - 1 - i);
		u32 k = rank / f;

		rank %= f;
		perm[i] = avail[k];
		for (j = k; j + 1 < n - i; j++)
			avail[j] = avail[j + 1];
	}
}

u32 wc_topo_neighbor(const struct wc_topo *t, u32 node, u32 port)
{
	if (node >= t->nnodes || port >= t->nports)
		return WC_NO_NODE;

	switch (t->kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS: {
		u32 dim = port / 2, k = t->dims[dim];
		u32 c = grid_coord(t, node, dim), nc;
		u32 stride = grid_stride(t, dim);

		if (!(port & 1))	/* +dim */
			nc = c + 1 < k ? c + 1 :
			     (t->kind == WC_TOPO_TORUS ? 0 : WC_NO_NODE);
		else			/* -dim */
			nc = c > 0 ? c - 1 :
			     (t->kind == WC_TOPO_TORUS ? k - 1 : WC_NO_NODE);
		if (nc == WC_NO_NODE)
			return WC_NO_NODE;
		return node - c * stride + nc * stride;
	}
	case WC_TOPO_HYPERCUBE:
		return node ^ (1u << port);
	case WC_TOPO_STAR: {
		u8 perm[WC_MAX_STAR_N], tmp;
		u32 n = t->dims[0];

		wc_star_unrank(n, node, perm);
		tmp = perm[0];
		perm[0] = perm[port + 1];
		perm[port + 1] = tmp;
		return wc_star_rank(n, perm);
	}
	}
	return WC_NO_NODE;
}

u32 wc_topo_port_to(const struct wc_topo *t, u32 a, u32 b)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (wc_topo_neighbor(t, a, p) == b)
			return p;
	return WC_NO_PORT;
}

u32 wc_topo_reverse_port(const struct wc_topo *t, u32 node, u32 port)
{
	(void)node;
	if (port >= t->nports)
		return U32_MAX;
	if (t->kind == WC_TOPO_MESH || t->kind == WC_TOPO_TORUS)
		return port ^ 1;
	/* Hypercube bit flips and star transpositions are involutions. */
	return port;
}

int wc_topo_fault_link(const struct wc_topo *t, u32 node, u32 port, u32 *far,
		       u32 *far_port, const char **why)
{
	if (node >= t->nnodes)
		return fail(why, "a faulty link's node is out of range");
	if (port >= t->nports)
		return fail(why, "a faulty link's port does not exist");
	*far = wc_topo_neighbor(t, node, port);
	if (*far == WC_NO_NODE)
		return fail(why, "a faulty link's port leads to no neighbour");
	*far_port = wc_topo_reverse_port(t, node, port);
	return 0;
}

void wc_topo_coords(const struct wc_topo *t, u32 node, u32 *coords)
{
	u32 i;

	switch (t->kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		for (i = 0; i < t->ndims; i++)
			coords[i] = grid_coord(t, node, i);
		break;
	case WC_TOPO_HYPERCUBE:
		for (i = 0; i < t->dims[0]; i++)
			coords[i] = (node >> i) & 1;
		break;
	case WC_TOPO_STAR: {
		u8 perm[WC_MAX_STAR_N];

		wc_star_unrank(t->dims[0], node, perm);
		for (i = 0; i < t->dims[0]; i++)
			coords[i] = perm[i];
		break;
	}
	}
}

u32 wc_topo_node(const struct wc_topo *t, const u32 *coords)
{
	u32 i, node = 0;

	switch (t->kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		for (i = t->ndims; i-- > 0;) {
			if (coords[i] >= t->dims[i])
				return WC_NO_NODE;
			node = node * t->dims[i] + coords[i];
		}
		return node;
	case WC_TOPO_HYPERCUBE:
		for (i = 0; i < t->dims[0]; i++) {
			if (coords[i] > 1)
				return WC_NO_NODE;
			node |= coords[i] << i;
		}
		return node;
	case WC_TOPO_STAR: {
		u8 perm[WC_MAX_STAR_N];
		u32 seen = 0, n = t->dims[0];

		for (i = 0; i < n; i++) {
			if (coords[i] < 1 || coords[i] > n ||
			    (seen & (1u << coords[i])))
				return WC_NO_NODE;
			seen |= 1u << coords[i];
			perm[i] = (u8)coords[i];
		}
		return wc_star_rank(n, perm);
	}
	}
	return WC_NO_NODE;
}

/*
 * Star graph distance (Akers, Harel, Krishnamurthy): with the permutation
 * taken relative to the destination, c = number of cycles of length >= 2
 * and m = number of symbols out of place; the distance is c + m, minus 2
 * if the first position is out of place.
 */
static u32 star_distance(u32 n, u32 a, u32 b)
{
	u8 pa[WC_MAX_STAR_N], pb[WC_MAX_STAR_N], pos[WC_MAX_STAR_N + 1];
	u8 rel[WC_MAX_STAR_N];
	bool seen[WC_MAX_STAR_N] = { false };
	u32 i, cycles = 0, misplaced = 0;

	wc_star_unrank(n, a, pa);
	wc_star_unrank(n, b, pb);
	for (i = 0; i < n; i++)
		pos[pb[i]] = (u8)i;
	/* rel maps each position to the position its symbol has in b. */
	for (i = 0; i < n; i++)
		rel[i] = pos[pa[i]];
	for (i = 0; i < n; i++) {
		u32 len = 0, j = i;

		if (seen[i])
			continue;
		while (!seen[j]) {
			seen[j] = true;
			j = rel[j];
			len++;
		}
		if (len >= 2) {
			cycles++;
			misplaced += len;
		}
	}
	if (!misplaced)
		return 0;
	return cycles + misplaced - (rel[0] != 0 ? 2 : 0);
}

u32 wc_topo_distance(const struct wc_topo *t, u32 a, u32 b)
{
	u32 d = 0, i;

	switch (t->kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		for (i = 0; i < t->ndims; i++) {
			u32 ca = grid_coord(t, a, i), cb = grid_coord(t, b, i);
			u32 diff = ca > cb ? ca - cb : cb - ca;

			if (t->kind == WC_TOPO_TORUS && t->dims[i] - diff < diff)
				diff = t->dims[i] - diff;
			d += diff;
		}
		return d;
	case WC_TOPO_HYPERCUBE:
		for (i = a ^ b; i; i &= i - 1)
			d++;
		return d;
	case WC_TOPO_STAR:
		return star_distance(t->dims[0], a, b);
	}
	return 0;
}

u32 wc_topo_nlinks(const struct wc_topo *t)
{
	u32 node, port, n = 0;

	for (node = 0; node < t->nnodes; node++)
		for (port = 0; port < t->nports; port++)
			if (wc_topo_neighbor(t, node, port) != WC_NO_NODE)
				n++;
	return n / 2;
}
