// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl: display of fabrics and their statistics, as text or as one JSON
 * object per fabric.  No netlink here, so that the unit test can drive it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/wc_params.h"
#include "../common/wc_util.h"
#include "fabric.h"
#include "names.h"

struct wc_node_info *wc_fabric_add_node(struct wc_fabric_info *f)
{
	struct wc_node_info *n;
	uint32_t cap;

	if (f->nnode_info == f->node_cap) {
		cap = f->node_cap ? 2 * f->node_cap : 16;
		n = realloc(f->nodes, cap * sizeof(*n));
		if (!n)
			return NULL;
		f->nodes = n;
		f->node_cap = cap;
	}
	n = &f->nodes[f->nnode_info++];
	memset(n, 0, sizeof(*n));
	return n;
}

struct wc_link_info *wc_fabric_add_link(struct wc_fabric_info *f)
{
	struct wc_link_info *l;
	uint32_t cap;

	if (f->nlinks == f->link_cap) {
		cap = f->link_cap ? 2 * f->link_cap : 64;
		l = realloc(f->links, cap * sizeof(*l));
		if (!l)
			return NULL;
		f->links = l;
		f->link_cap = cap;
	}
	l = &f->links[f->nlinks++];
	memset(l, 0, sizeof(*l));
	return l;
}

struct wc_group_info *wc_fabric_add_group(struct wc_fabric_info *f)
{
	struct wc_group_info *g;
	uint32_t cap;

	if (f->ngroups == f->group_cap) {
		cap = f->group_cap ? 2 * f->group_cap : 16;
		g = realloc(f->groups, cap * sizeof(*g));
		if (!g)
			return NULL;
		f->groups = g;
		f->group_cap = cap;
	}
	g = &f->groups[f->ngroups++];
	memset(g, 0, sizeof(*g));
	return g;
}

void wc_fabric_free(struct wc_fabric_info *f)
{
	uint32_t i;

	for (i = 0; i < f->ngroups; i++) {
		free(f->groups[i].members);
		free(f->groups[i].unplanned);
	}
	free(f->groups);
	f->groups = NULL;
	f->ngroups = 0;
	f->group_cap = 0;
	free(f->faults);
	f->faults = NULL;
	f->nfaults = 0;
	f->fault_cap = 0;
	free(f->links);
	f->links = NULL;
	f->nlinks = 0;
	f->link_cap = 0;
	free(f->nodes);
	f->nodes = NULL;
	f->nnode_info = 0;
	f->node_cap = 0;
}

/* "dims 4x4" / "coords 1,2": text and JSON. */
static void show_list(struct out *o, const char *key, const uint32_t *v,
		      uint32_t n, char sep)
{
	char buf[WC_MAX_COORDS * 12];

	if (o->json) {
		json_u32_array(o, key, v, n);
		return;
	}
	wc_format_u32_list(buf, sizeof(buf), v, n, sep);
	fprintf(o->fp, " %s %s", key, buf);
}

/* Identification shared by both displays: "wc: fabric 1 torus 4x4". */
static void show_head(struct out *o, const struct wc_fabric_info *f)
{
	const char *topo = wc_topo_kind_name(f->topology);

	/* no name: the fabric device is in another netns (netnsid) */
	if (f->name[0] || !o->json)
		out_string(o, "ifname", "%s:", f->name[0] ? f->name : "?");
	if (f->ifindex)
		out_u64(o, "ifindex", " ifindex %" PRIu64, f->ifindex);
	if (f->has_netnsid) {
		if (o->json)
			json_s64(o, "netnsid", f->netnsid);
		else
			fprintf(o->fp, " netnsid %d", f->netnsid);
	}
	if (f->has_id)
		out_u64(o, "fabric", " fabric %" PRIu64, f->id);
	if (f->topology)
		out_string(o, "topology", " topology %s", topo);
	if (f->ndims)
		show_list(o, "dims", f->dims, f->ndims, 'x');
	if (f->nnodes)
		out_u64(o, "nodes", " nodes %" PRIu64, f->nnodes);
}

static void show_params(struct out *o, const struct wc_fabric_info *f)
{
	const struct wc_param_desc *d;
	const char *name;
	bool any = false;
	size_t i;

	for (i = 0; i < WC_NPARAMS; i++)
		any |= f->has_param[wc_params[i].param];
	if (!any)
		return;
	if (o->json)
		json_open_object(o, "params");
	else
		fputs("\n   ", o->fp);
	for (i = 0; i < WC_NPARAMS; i++) {
		d = &wc_params[i];
		if (!f->has_param[d->param])
			continue;
		name = wc_param_value_name(d, f->param[d->param]);
		if (o->json) {
			if (name)
				json_string(o, d->name, name);
			else
				json_u64(o, d->name, f->param[d->param]);
		} else if (name) {
			fprintf(o->fp, " %s %s", d->name, name);
		} else {
			fprintf(o->fp, " %s %u", d->name, f->param[d->param]);
		}
	}
	if (o->json)
		json_close_object(o);
}

static void show_node(struct out *o, const struct wc_node_info *n)
{
	char mac[18];

	if (o->json)
		json_open_object(o, NULL);
	else
		fputs("\n    ", o->fp);
	out_u64(o, "node", "node %" PRIu64, n->id);
	if (n->ifname[0])
		out_string(o, "ifname", " %s", n->ifname);
	if (n->ifindex)
		out_u64(o, "ifindex", " ifindex %" PRIu64, n->ifindex);
	if (n->has_netnsid) {
		if (o->json)
			json_s64(o, "netnsid", n->netnsid);
		else if (n->netnsid >= 0)
			fprintf(o->fp, " netnsid %d", n->netnsid);
	}
	if (n->ncoords)
		show_list(o, "coords", n->coords, n->ncoords, ',');
	if (n->has_addr) {
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
			 n->addr[0], n->addr[1], n->addr[2], n->addr[3],
			 n->addr[4], n->addr[5]);
		out_string(o, "address", " address %s", mac);
	}
	if (o->json)
		json_close_object(o);
}

/* "table_gen 3" and a line per installed table: kind, generation, size. */
static void show_tables(struct out *o, const struct wc_fabric_info *f)
{
	const struct wc_table_info *t;
	const char *kind;
	char buf[24];
	uint32_t i;

	if (!f->has_table_gen)
		return;		/* a kernel without tables */
	out_text(o, "\n   ");
	out_u64(o, "table_gen", " table_gen %" PRIu64, f->table_gen);
	if (o->json)
		json_open_array(o, "tables");
	for (i = 0; i < f->ntables; i++) {
		t = &f->tables[i];
		kind = wc_table_kind_name(t->kind);
		if (!kind) {
			snprintf(buf, sizeof(buf), "kind-%u", t->kind);
			kind = buf;
		}
		if (o->json) {
			json_open_object(o, NULL);
			json_string(o, "kind", kind);
			json_u64(o, "gen", t->gen);
			json_u64(o, "size", t->size);
			json_close_object(o);
		} else {
			fprintf(o->fp, "\n    table %s gen %u size %u", kind,
				t->gen, t->size);
		}
	}
	if (o->json)
		json_close_array(o);
}

void show_fabric(struct out *o, const struct wc_fabric_info *f)
{
	uint32_t i;

	if (o->json)
		json_open_object(o, NULL);
	show_head(o, f);
	show_params(o, f);
	show_tables(o, f);
	if (f->nnode_info) {
		if (o->json)
			json_open_array(o, "node_devices");
		for (i = 0; i < f->nnode_info; i++)
			show_node(o, &f->nodes[i]);
		if (o->json)
			json_close_array(o);
	}
	if (o->json)
		json_close_object(o);
	else
		fputc('\n', o->fp);
}

/*
 * A block of named u64 values: a JSON object, or "title:" and one
 * "    name: value" line per value (as ethtool -S).
 */
static void show_values(struct out *o, const char *key, const char *title,
			const char *const *names, const uint64_t *v, int n)
{
	int i;

	if (o->json)
		json_open_object(o, key);
	else
		fprintf(o->fp, "%s:\n", title);
	for (i = 0; i < n; i++) {
		if (!names[i])
			continue;
		if (o->json)
			json_u64(o, names[i], v[i]);
		else
			fprintf(o->fp, "    %s: %" PRIu64 "\n", names[i], v[i]);
	}
	if (o->json)
		json_close_object(o);
}

/* One node's counters in one text line, the non-zero ones only. */
static void show_node_line(struct out *o, const struct wc_node_info *n)
{
	bool any = false;
	int i;

	fprintf(o->fp, "node %u", n->id);
	if (n->ifname[0])
		fprintf(o->fp, " (%s)", n->ifname);
	fputc(':', o->fp);
	for (i = 0; n->has_counters && i < __WORMCAST_CNT_MAX; i++) {
		if (!wc_counter_names[i] || !n->cnt[i])
			continue;
		fprintf(o->fp, " %s %" PRIu64, wc_counter_names[i], n->cnt[i]);
		any = true;
	}
	fputs(any ? "\n" : " all zero\n", o->fp);
}

/*
 * A node's counters: a JSON object, or in text a full block for a node
 * asked for by id and a line of non-zero counters per node otherwise (a
 * 32x32 torus would print 20000 lines of zeros).
 */
static void show_node_stats(struct out *o, const struct wc_node_info *n,
			    bool alone)
{
	char title[64];

	if (!o->json && !alone) {
		show_node_line(o, n);
		return;
	}
	if (o->json) {
		json_open_object(o, NULL);
		json_u64(o, "node", n->id);
		if (n->ifname[0])
			json_string(o, "ifname", n->ifname);
	}
	if (n->ifname[0])
		snprintf(title, sizeof(title), "node %u (%s)", n->id,
			 n->ifname);
	else
		snprintf(title, sizeof(title), "node %u", n->id);
	if (n->has_counters)
		show_values(o, "counters", title, wc_counter_names, n->cnt,
			    __WORMCAST_CNT_MAX);
	if (o->json)
		json_close_object(o);
}

bool wc_fabric_has_node(const struct wc_fabric_info *f, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < f->nnode_info; i++)
		if (f->nodes[i].id == id)
			return true;
	return false;
}

void show_stats(struct out *o, const struct wc_fabric_info *f, int64_t node)
{
	uint32_t i;

	if (o->json)
		json_open_object(o, NULL);
	show_head(o, f);
	out_text(o, "\n");
	if (f->has_engine)
		show_values(o, "engine", "engine", wc_engine_stat_names,
			    f->eng, __WORMCAST_ENG_MAX);
	if (f->has_counters)
		show_values(o, "counters", "total", wc_counter_names, f->cnt,
			    __WORMCAST_CNT_MAX);
	if (node != SHOW_NO_NODES && f->nodes_truncated) {
		if (o->json)
			json_bool(o, "nodes_truncated", true);
		else
			fprintf(o->fp, "(the kernel sent the first %u nodes only)\n",
				f->nnode_info);
	}
	if (node != SHOW_NO_NODES && f->nnode_info) {
		if (o->json)
			json_open_array(o, "per_node");
		for (i = 0; i < f->nnode_info; i++)
			if (node < 0 || f->nodes[i].id == (uint64_t)node)
				show_node_stats(o, &f->nodes[i], node >= 0);
		if (o->json)
			json_close_array(o);
	}
	if (o->json)
		json_close_object(o);
}

void show_links(struct out *o, const struct wc_fabric_info *f)
{
	const struct wc_link_info *l;
	uint32_t i;

	if (o->json)
		json_open_object(o, NULL);
	show_head(o, f);
	if (f->has_engine)
		out_u64(o, "cycles", " cycles %" PRIu64,
			f->eng[WORMCAST_ENG_CYCLES]);
	if (o->json)
		json_open_array(o, "links");
	else
		out_text(o, "\n");
	for (i = 0; i < f->nlinks; i++) {
		l = &f->links[i];
		if (!o->json) {
			fprintf(o->fp, "    link %u port %u -> %u busy %" PRIu64
				" blocked %" PRIu64 "\n", l->node, l->port,
				l->peer, l->busy, l->blocked);
			continue;
		}
		json_open_object(o, NULL);
		json_u64(o, "node", l->node);
		json_u64(o, "port", l->port);
		json_u64(o, "peer", l->peer);
		json_u64(o, "busy", l->busy);
		json_u64(o, "blocked", l->blocked);
		json_close_object(o);
	}
	if (o->json) {
		json_close_array(o);
		json_close_object(o);
	}
}

void show_groups(struct out *o, const struct wc_fabric_info *f)
{
	const struct wc_group_info *g;
	char addr[18];
	uint32_t i, j;

	if (o->json)
		json_open_object(o, NULL);
	show_head(o, f);
	if (f->has_groups_gen)
		out_u64(o, "groups_gen", " groups_gen %" PRIu64, f->groups_gen);
	if (o->json)
		json_open_array(o, "groups");
	else
		out_text(o, "\n");
	for (i = 0; i < f->ngroups; i++) {
		g = &f->groups[i];
		snprintf(addr, sizeof(addr), "%02x:%02x:%02x:%02x:%02x:%02x",
			 g->addr[0], g->addr[1], g->addr[2], g->addr[3],
			 g->addr[4], g->addr[5]);
		if (o->json) {
			json_open_object(o, NULL);
			json_string(o, "address", addr);
			json_u64(o, "nmembers", g->nmembers);
			json_u32_array(o, "members", g->members, g->nlist);
			json_u32_array(o, "unplanned", g->unplanned,
				       g->nunplanned);
			json_close_object(o);
			continue;
		}
		fprintf(o->fp, "    group %s members %u:", addr, g->nmembers);
		for (j = 0; j < g->nlist; j++)
			fprintf(o->fp, " %u", g->members[j]);
		if (g->nunplanned)
			fprintf(o->fp, "\n      unplanned sources:");
		for (j = 0; j < g->nunplanned; j++)
			fprintf(o->fp, " %u", g->unplanned[j]);
		fputc('\n', o->fp);
	}
	if (o->json) {
		json_close_array(o);
		json_close_object(o);
	}
}
