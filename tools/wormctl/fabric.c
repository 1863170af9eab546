// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl fabric show | fabric set | stats | table show: FABRIC_GET (doit
 * and dump), FABRIC_SET, STATS_GET and TABLE_GET (dump) of the wormcast
 * generic netlink family, decoded into struct wc_fabric_info (displayed by
 * show.c) and struct wc_table_bytes (decoded and displayed by table.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/genetlink.h>

#include "commands.h"
#include "fabric.h"
#include "nl.h"

/* Fabrics of one answer; a dump may split a fabric over messages. */
struct fabric_list {
	struct wc_fabric_info *v;
	size_t n, cap;
	int error;		/* -ENOMEM while decoding */
};

static bool attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return false;
	*v = mnl_attr_get_u32(a);
	return true;
}

/* A u32 array (dims, coords) of at most @max entries. */
static uint32_t attr_u32_array(const struct nlattr *a, uint32_t *v,
			       uint32_t max)
{
	uint32_t n = mnl_attr_get_payload_len(a) / sizeof(uint32_t);

	if (n > max)
		n = max;
	memcpy(v, mnl_attr_get_payload(a), n * sizeof(uint32_t));
	return n;
}

/* A binary attribute of any length (TABLE_DATA). */
static void attr_bytes(const struct nlattr *a, const void **p, uint32_t *len)
{
	*p = mnl_attr_get_payload(a);
	*len = mnl_attr_get_payload_len(a);
}

static void attr_str(const struct nlattr *a, char *buf, size_t len)
{
	size_t n = mnl_attr_get_payload_len(a);

	if (n >= len)
		n = len - 1;
	memcpy(buf, mnl_attr_get_payload(a), n);
	buf[n] = '\0';
}

/* A nest of u64 values indexed by attribute type (counters, engine). */
static bool attr_u64_nest(const struct nlattr *nest, uint64_t *v, int max)
{
	const struct nlattr *a;
	int type;

	mnl_attr_for_each_nested(a, nest) {
		type = mnl_attr_get_type(a);
		if (type > 0 && type < max &&
		    mnl_attr_validate(a, MNL_TYPE_U64) == 0)
			v[type] = mnl_attr_get_u64(a);
	}
	return true;
}

static void decode_params(const struct nlattr *nest, struct wc_fabric_info *f)
{
	const struct nlattr *a;
	int type;

	mnl_attr_for_each_nested(a, nest) {
		type = mnl_attr_get_type(a);
		if (type <= 0 || type >= __WORMCAST_PARAM_MAX)
			continue;
		/* replication and fault-info are u8, the others u32 */
		if (mnl_attr_get_payload_len(a) == sizeof(uint8_t))
			f->param[type] = mnl_attr_get_u8(a);
		else if (!attr_u32(a, &f->param[type]))
			continue;
		f->has_param[type] = true;
	}
}

static int decode_node(const struct nlattr *nest, struct wc_fabric_info *f)
{
	struct wc_node_info *n = wc_fabric_add_node(f);
	const struct nlattr *a;
	uint32_t v;

	if (!n)
		return -ENOMEM;
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case WORMCAST_NODE_ID:
			attr_u32(a, &n->id);
			break;
		case WORMCAST_NODE_IFINDEX:
			attr_u32(a, &n->ifindex);
			break;
		case WORMCAST_NODE_NETNSID:
			if (attr_u32(a, &v)) {
				n->netnsid = (int32_t)v;
				n->has_netnsid = true;
			}
			break;
		case WORMCAST_NODE_IFNAME:
			attr_str(a, n->ifname, sizeof(n->ifname));
			break;
		case WORMCAST_NODE_COORDS:
			n->ncoords = attr_u32_array(a, n->coords,
						    WC_MAX_COORDS);
			break;
		case WORMCAST_NODE_ADDRESS:
			if (mnl_attr_get_payload_len(a) == sizeof(n->addr)) {
				memcpy(n->addr, mnl_attr_get_payload(a),
				       sizeof(n->addr));
				n->has_addr = true;
			}
			break;
		case WORMCAST_NODE_COUNTERS:
			n->has_counters = attr_u64_nest(a, n->cnt,
							__WORMCAST_CNT_MAX);
			break;
		}
	}
	return 0;
}

static bool attr_u64(const struct nlattr *a, uint64_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
		return false;
	*v = mnl_attr_get_u64(a);
	return true;
}

/* One WORMCAST_A_LINK nest of WORMCAST_A_LINKS (LINKS_GET). */
static int decode_link(const struct nlattr *nest, struct wc_fabric_info *f)
{
	struct wc_link_info *l = wc_fabric_add_link(f);
	const struct nlattr *a;

	if (!l)
		return -ENOMEM;
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case WORMCAST_LINK_NODE:
			attr_u32(a, &l->node);
			break;
		case WORMCAST_LINK_PORT:
			attr_u32(a, &l->port);
			break;
		case WORMCAST_LINK_PEER:
			attr_u32(a, &l->peer);
			break;
		case WORMCAST_LINK_BUSY:
			attr_u64(a, &l->busy);
			break;
		case WORMCAST_LINK_BLOCKED:
			attr_u64(a, &l->blocked);
			break;
		}
	}
	return 0;
}

/* One WORMCAST_A_FAULT nest of WORMCAST_A_FAULTS (FAULT_GET). */
static int decode_fault(const struct nlattr *nest, struct wc_fabric_info *f)
{
	struct wc_fault_info *v;
	const struct nlattr *a;
	uint32_t kind = 0, cap;

	if (f->nfaults == f->fault_cap) {
		cap = f->fault_cap ? 2 * f->fault_cap : 16;
		v = realloc(f->faults, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		f->faults = v;
		f->fault_cap = cap;
	}
	v = &f->faults[f->nfaults];
	memset(v, 0, sizeof(*v));
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case WORMCAST_FAULT_KIND:
			attr_u32(a, &kind);
			break;
		case WORMCAST_FAULT_NODE:
			attr_u32(a, &v->a);
			break;
		case WORMCAST_FAULT_PEER:
			attr_u32(a, &v->b);
			break;
		}
	}
	/* a kind this wormctl does not know is left out */
	if (kind == WORMCAST_FAULT_KIND_LINK || kind == WORMCAST_FAULT_KIND_NODE) {
		v->node = kind == WORMCAST_FAULT_KIND_NODE;
		f->nfaults++;
	}
	return 0;
}

/* The node ids of a bitmap of @len bytes (u32 words) into *@list, *@n. */
static int bitmap_node_ids(const void *p, uint32_t len, uint32_t **list,
			   uint32_t *n)
{
	const uint32_t *w = p;
	uint32_t nw = len / sizeof(uint32_t), i;

	free(*list);
	*n = 0;
	*list = calloc(nw ? (size_t)nw * 32 : 1, sizeof(uint32_t));
	if (!*list)
		return -ENOMEM;
	for (i = 0; i < nw * 32; i++)
		if (w[i / 32] & (1u << (i % 32)))
			(*list)[(*n)++] = i;
	return 0;
}

/* One WORMCAST_A_GROUP nest of WORMCAST_A_GROUPS (GROUPS_GET). */
static int decode_group(const struct nlattr *nest, struct wc_fabric_info *f)
{
	struct wc_group_info *g = wc_fabric_add_group(f);
	const struct nlattr *a;
	const void *p;
	uint32_t len;

	if (!g)
		return -ENOMEM;
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case WORMCAST_GROUP_ADDRESS:
			if (mnl_attr_get_payload_len(a) == sizeof(g->addr))
				memcpy(g->addr, mnl_attr_get_payload(a),
				       sizeof(g->addr));
			break;
		case WORMCAST_GROUP_NMEMBERS:
			attr_u32(a, &g->nmembers);
			break;
		case WORMCAST_GROUP_MEMBERS:
			attr_bytes(a, &p, &len);
			if (bitmap_node_ids(p, len, &g->members, &g->nlist))
				return -ENOMEM;
			break;
		case WORMCAST_GROUP_UNPLANNED:
			attr_bytes(a, &p, &len);
			if (bitmap_node_ids(p, len, &g->unplanned,
					    &g->nunplanned))
				return -ENOMEM;
			break;
		}
	}
	return 0;
}

/* One WORMCAST_A_TABLE nest of WORMCAST_A_TABLES: kind, generation, size. */
static void decode_table(const struct nlattr *nest, struct wc_fabric_info *f)
{
	struct wc_table_info t = { 0 };
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case WORMCAST_A_TABLE_KIND:
			attr_u32(a, &t.kind);
			break;
		case WORMCAST_A_TABLE_GEN:
			attr_u32(a, &t.gen);
			break;
		case WORMCAST_A_TABLE_SIZE:
			attr_u32(a, &t.size);
			break;
		}
	}
	if (t.kind && f->ntables < WC_MAX_TABLES)
		f->tables[f->ntables++] = t;
}

/* The entry of the fabric with this ifindex, a new one if none. */
static struct wc_fabric_info *fabric_slot(struct fabric_list *l,
					  uint32_t ifindex)
{
	struct wc_fabric_info *v;
	size_t i;

	for (i = 0; ifindex && i < l->n; i++)
		if (l->v[i].ifindex == ifindex)
			return &l->v[i];
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		v = realloc(l->v, l->cap * sizeof(*v));
		if (!v)
			return NULL;
		l->v = v;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].ifindex = ifindex;
	return &l->v[l->n++];
}

static int fabric_cb(const struct nlmsghdr *nlh, void *data)
{
	const unsigned int hdr = sizeof(struct genlmsghdr);
	struct fabric_list *l = data;
	struct wc_fabric_info *f;
	const struct nlattr *a, *n;
	uint32_t ifindex = 0, v;

	mnl_attr_for_each(a, nlh, hdr)
		if (mnl_attr_get_type(a) == WORMCAST_A_FABRIC_IFINDEX)
			attr_u32(a, &ifindex);
	f = fabric_slot(l, ifindex);
	if (!f)
		goto nomem;

	mnl_attr_for_each(a, nlh, hdr) {
		switch (mnl_attr_get_type(a)) {
		case WORMCAST_A_FABRIC_NAME:
			attr_str(a, f->name, sizeof(f->name));
			break;
		case WORMCAST_A_FABRIC_NETNSID:
			if (attr_u32(a, &v)) {
				f->netnsid = (int32_t)v;
				f->has_netnsid = true;
			}
			break;
		case WORMCAST_A_FABRIC_ID:
			f->has_id = attr_u32(a, &f->id);
			break;
		case WORMCAST_A_TOPOLOGY:
			attr_u32(a, &f->topology);
			break;
		case WORMCAST_A_DIMS:
			f->ndims = attr_u32_array(a, f->dims, WC_MAX_DIMS);
			break;
		case WORMCAST_A_NNODES:
			attr_u32(a, &f->nnodes);
			break;
		case WORMCAST_A_PARAMS:
			decode_params(a, f);
			break;
		case WORMCAST_A_NODES:
			mnl_attr_for_each_nested(n, a)
				if (mnl_attr_get_type(n) == WORMCAST_A_NODE &&
				    decode_node(n, f))
					goto nomem;
			break;
		case WORMCAST_A_NODE:
			if (decode_node(a, f))
				goto nomem;
			break;
		case WORMCAST_A_COUNTERS:
			f->has_counters = attr_u64_nest(a, f->cnt,
							__WORMCAST_CNT_MAX);
			break;
		case WORMCAST_A_TABLE_GEN:
			f->has_table_gen = attr_u32(a, &f->table_gen);
			break;
		case WORMCAST_A_TABLES:
			f->ntables = 0;
			mnl_attr_for_each_nested(n, a)
				if (mnl_attr_get_type(n) == WORMCAST_A_TABLE)
					decode_table(n, f);
			break;
		case WORMCAST_A_LINKS:
			mnl_attr_for_each_nested(n, a)
				if (mnl_attr_get_type(n) == WORMCAST_A_LINK &&
				    decode_link(n, f))
					goto nomem;
			break;
		case WORMCAST_A_FAULTS:
			f->has_faults = true;
			mnl_attr_for_each_nested(n, a)
				if (mnl_attr_get_type(n) == WORMCAST_A_FAULT &&
				    decode_fault(n, f))
					goto nomem;
			break;
		case WORMCAST_A_FAULT:
			/* a FAULT_ADD / FAULT_DEL notification */
			if (decode_fault(a, f))
				goto nomem;
			break;
		case WORMCAST_A_GROUPS_GEN:
			f->has_groups_gen = attr_u32(a, &f->groups_gen);
			break;
		case WORMCAST_A_GROUPS:
			mnl_attr_for_each_nested(n, a)
				if (mnl_attr_get_type(n) == WORMCAST_A_GROUP &&
				    decode_group(n, f))
					goto nomem;
			break;
		case WORMCAST_A_NODES_TRUNCATED:
			f->nodes_truncated = true;
			break;
		case WORMCAST_A_ENGINE:
			f->has_engine = attr_u64_nest(a, f->eng,
						      __WORMCAST_ENG_MAX);
			break;
		}
	}
	return MNL_CB_OK;
nomem:
	l->error = -ENOMEM;
	return MNL_CB_ERROR;
}

static int node_cmp(const void *a, const void *b)
{
	const struct wc_node_info *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void fabric_list_free(struct fabric_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		wc_fabric_free(&l->v[i]);
	free(l->v);
}

/* ifindex of DEV, or 0 after an error message as ip prints it. */
static uint32_t dev_ifindex(const char *dev)
{
	unsigned int ifindex = if_nametoindex(dev);

	if (!ifindex)
		fprintf(stderr, "Cannot find device \"%s\"\n", dev);
	return ifindex;
}

/*
 * FABRIC_GET or STATS_GET as a dump: of every fabric, or of DEV's fabric
 * only (the kernel filters on FABRIC_IFINDEX; a node device stands for
 * its fabric).  A dump carries every node, however big the fabric, where a
 * doit reply would be cut short.  Fills @l; returns 0 or -1 after printing
 * why.
 */
static int query(uint8_t cmd, const char *dev, struct fabric_list *l,
		 const char *what)
{
	struct nlmsghdr *nlh;
	struct wc_nl nl;
	uint32_t ifindex = 0;
	int r = 0, tries;
	size_t i;

	memset(l, 0, sizeof(*l));
	if (dev && !(ifindex = dev_ifindex(dev)))
		return -1;
	if (wc_nl_open(&nl))
		return -1;
	for (tries = 0; tries < WC_NL_DUMP_TRIES; tries++) {
		nlh = wc_nl_request(&nl, cmd, NLM_F_DUMP);
		if (dev)
			mnl_attr_put_u32(nlh, WORMCAST_A_FABRIC_IFINDEX, ifindex);
		r = wc_nl_talk(&nl, nlh, fabric_cb, l, what);
		if (r != -EINTR)
			break;
		fabric_list_free(l);
		memset(l, 0, sizeof(*l));
	}
	wc_nl_close(&nl);
	if (r == -EINTR)
		fprintf(stderr, "wormctl: %s: the fabrics changed during each of %d dumps: try again\n",
			what, WC_NL_DUMP_TRIES);
	if (r && l->error == -ENOMEM)
		fprintf(stderr, "wormctl: %s: out of memory\n", what);
	if (r) {
		fabric_list_free(l);
		memset(l, 0, sizeof(*l));
		return -1;
	}
	for (i = 0; i < l->n; i++)
		qsort(l->v[i].nodes, l->v[i].nnode_info,
		      sizeof(l->v[i].nodes[0]), node_cmp);
	return 0;
}

uint32_t wc_dev_ifindex(const char *dev)
{
	return dev_ifindex(dev);
}

int wc_fabric_decode_msg(const struct nlmsghdr *nlh, struct wc_fabric_info *f)
{
	struct fabric_list l = { 0 };
	int r = fabric_cb(nlh, &l);

	memset(f, 0, sizeof(*f));
	if (l.n)
		*f = l.v[0];
	free(l.v);
	return r == MNL_CB_OK ? 0 : -1;
}

int wc_fabric_query_one(uint8_t cmd, const char *dev, const char *what,
			struct wc_fabric_info *f)
{
	struct fabric_list l;

	memset(f, 0, sizeof(*f));
	if (query(cmd, dev, &l, what))
		return -1;
	if (l.n != 1) {
		fprintf(stderr, "wormctl: %s: no answer for \"%s\"\n", what, dev);
		fabric_list_free(&l);
		return -1;
	}
	*f = l.v[0];
	free(l.v);
	return 0;
}

int cmd_fabric_show(const struct wormctl_cmdline *c)
{
	struct fabric_list l;
	struct out o;
	size_t i;

	if (query(WORMCAST_CMD_FABRIC_GET, c->dev, &l, "fabric show"))
		return 1;
	out_init(&o, stdout, c->opts.json, c->opts.pretty);
	if (o.json)
		json_open_array(&o, NULL);
	for (i = 0; i < l.n; i++)
		show_fabric(&o, &l.v[i]);
	if (o.json)
		json_close_array(&o);
	fabric_list_free(&l);
	return 0;
}

int cmd_stats(const struct wormctl_cmdline *c)
{
	struct fabric_list l;
	struct out o;
	int status = 0;

	if (query(c->links ? WORMCAST_CMD_LINKS_GET : WORMCAST_CMD_STATS_GET,
		  c->dev, &l, "stats"))
		return 1;
	if (l.n != 1) {
		fprintf(stderr, "wormctl: stats: no answer for \"%s\"\n",
			c->dev);
		fabric_list_free(&l);
		return 1;
	}
	out_init(&o, stdout, c->opts.json, c->opts.pretty);
	/* Check first: an error must not leave half a JSON array. */
	if (c->node >= 0 && !wc_fabric_has_node(&l.v[0], (uint32_t)c->node)) {
		fprintf(stderr, "wormctl: stats: %s has no node %lld\n",
			c->dev, (long long)c->node);
		status = 1;
		goto out;
	}
	if (o.json)
		json_open_array(&o, NULL);
	if (c->links)
		show_links(&o, &l.v[0]);
	else
		show_stats(&o, &l.v[0], c->node);
	if (o.json)
		json_close_array(&o);
out:
	fabric_list_free(&l);
	return status;
}

int cmd_group_show(const struct wormctl_cmdline *c)
{
	struct fabric_list l;
	struct out o;

	if (query(WORMCAST_CMD_GROUPS_GET, c->dev, &l, "group show"))
		return 1;
	if (l.n != 1) {
		fprintf(stderr, "wormctl: group show: no answer for \"%s\"\n",
			c->dev);
		fabric_list_free(&l);
		return 1;
	}
	out_init(&o, stdout, c->opts.json, c->opts.pretty);
	if (o.json)
		json_open_array(&o, NULL);
	show_groups(&o, &l.v[0]);
	if (o.json)
		json_close_array(&o);
	fabric_list_free(&l);
	return 0;
}

int cmd_fabric_set(const struct wormctl_cmdline *c)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct wc_nl nl;
	uint32_t ifindex;
	int r;

	ifindex = dev_ifindex(c->dev);
	if (!ifindex)
		return 1;
	if (wc_nl_open(&nl))
		return 1;
	nlh = wc_nl_request(&nl, WORMCAST_CMD_FABRIC_SET, NLM_F_ACK);
	mnl_attr_put_u32(nlh, WORMCAST_A_FABRIC_IFINDEX, ifindex);
	nest = mnl_attr_nest_start(nlh, WORMCAST_A_PARAMS);
	if (c->set_cycle_ns)
		mnl_attr_put_u32(nlh, WORMCAST_PARAM_CYCLE_NS, c->cycle_ns);
	if (c->set_watchdog)
		mnl_attr_put_u32(nlh, WORMCAST_PARAM_WATCHDOG, c->watchdog);
	if (c->set_multicast)
		mnl_attr_put_u32(nlh, WORMCAST_PARAM_MULTICAST, c->multicast);
	if (c->set_fault_info)
		mnl_attr_put_u8(nlh, WORMCAST_PARAM_FAULT_INFO,
				(uint8_t)c->fault_info);
	if (c->set_send_ovh)
		mnl_attr_put_u32(nlh, WORMCAST_PARAM_SEND_OVH, c->send_ovh);
	if (c->set_recv_ovh)
		mnl_attr_put_u32(nlh, WORMCAST_PARAM_RECV_OVH, c->recv_ovh);
	mnl_attr_nest_end(nlh, nest);
	r = wc_nl_talk(&nl, nlh, NULL, NULL, "fabric set");
	wc_nl_close(&nl);
	return r ? 1 : 0;
}

/*
 * One message of a TABLE_GET dump: KIND, GEN, OFFSET and DATA, appended to
 * the bytes.  A refused piece is remembered in b->err (the rest of the
 * dump is read and ignored), so that kernel errors and ours stay apart.
 */
static int table_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	const unsigned int hdr = sizeof(struct genlmsghdr);
	struct wc_table_bytes *b = data;
	uint32_t kind = 0, gen = 0, offset = 0, len = 0;
	bool has_offset = false;
	const void *p = NULL;
	const struct nlattr *a;

	if (b->err[0])
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, hdr) {
		switch (mnl_attr_get_type(a)) {
		case WORMCAST_A_TABLE_KIND:
			attr_u32(a, &kind);
			break;
		case WORMCAST_A_TABLE_GEN:
			attr_u32(a, &gen);
			break;
		case WORMCAST_A_TABLE_OFFSET:
			has_offset = attr_u32(a, &offset);
			break;
		case WORMCAST_A_TABLE_DATA:
			attr_bytes(a, &p, &len);
			break;
		}
	}
	if (!p || !has_offset)
		snprintf(b->err, sizeof(b->err),
			 "a TABLE_GET dump message without OFFSET or DATA");
	else
		wc_table_bytes_add(b, kind, gen, offset, p, len);
	return MNL_CB_OK;
}

/*
 * The bytes of the table b->want, by a TABLE_GET dump: 0, -1 after
 * printing why, or 1 when the table was replaced meanwhile (read again).
 */
static int read_table(struct wc_nl *nl, uint32_t ifindex,
		      struct wc_table_bytes *b)
{
	struct nlmsghdr *nlh;
	int r;

	nlh = wc_nl_request(nl, WORMCAST_CMD_TABLE_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, WORMCAST_A_FABRIC_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, WORMCAST_A_TABLE_KIND, b->want.kind);
	r = wc_nl_talk(nl, nlh, table_dump_cb, b, "table show");
	if (r == -EINTR || b->replaced)
		return 1;
	if (r)
		return -1;
	if (b->err[0] || wc_table_bytes_done(b)) {
		fprintf(stderr, "wormctl: table show: %s\n", b->err);
		return -1;
	}
	return 0;
}

/* What one read of every table of a fabric holds. */
struct table_set {
	struct fabric_list l;		/* FABRIC_GET: which tables */
	struct wc_table_bytes b[WC_MAX_TABLES];
	struct wc_table_view v[WC_MAX_TABLES];
	bool decoded[WC_MAX_TABLES];
	uint32_t n;			/* b[] read (to free) */
};

static void table_set_free(struct table_set *s)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		wc_table_bytes_free(&s->b[i]);
	fabric_list_free(&s->l);
	memset(s, 0, sizeof(*s));
}

/*
 * Read and decode every table that FABRIC_GET lists for DEV: 0, -1 after
 * printing why, or 1 when one was replaced while being read.
 */
static int read_tables(const char *dev, struct table_set *s)
{
	const struct wc_fabric_info *f;
	uint32_t ifindex;
	struct wc_nl nl;
	char err[192];
	int r = -1;

	memset(s, 0, sizeof(*s));
	if (query(WORMCAST_CMD_FABRIC_GET, dev, &s->l, "table show"))
		return -1;
	if (s->l.n != 1) {
		fprintf(stderr, "wormctl: table show: no answer for \"%s\"\n",
			dev);
		return -1;
	}
	f = &s->l.v[0];
	if (!f->has_table_gen) {
		fprintf(stderr, "wormctl: table show: this wormcast module reports no tables\n");
		return -1;
	}
	/* DEV, not the fabric device: that one may be in another netns */
	ifindex = dev_ifindex(dev);
	if (!ifindex)
		return -1;
	if (!f->ntables)
		return 0;
	if (wc_nl_open(&nl))
		return -1;
	for (s->n = 0; s->n < f->ntables; s->n++) {
		struct wc_table_bytes *b = &s->b[s->n];

		if (wc_table_bytes_init(b, &f->tables[s->n])) {
			fprintf(stderr, "wormctl: table show: %s\n", b->err);
			s->n++;
			goto close;
		}
		r = read_table(&nl, ifindex, b);
		if (r) {
			s->n++;
			goto close;
		}
		r = wc_table_decode(b->want.kind, b->buf, b->len, &s->v[s->n],
				    err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "wormctl: table show: %s\n", err);
			s->n++;
			goto close;
		}
		s->decoded[s->n] = r == 0;	/* 1: a kind this wormctl cannot decode */
	}
	r = 0;
close:
	wc_nl_close(&nl);
	return r;
}

int cmd_table_show(const struct wormctl_cmdline *c)
{
	struct table_set s;
	struct out o;
	uint32_t i;
	int r = 1, tries;

	/* read and check everything first: an error must not leave half a JSON array */
	for (tries = 0; tries < WC_NL_DUMP_TRIES; tries++) {
		r = read_tables(c->dev, &s);
		if (r != 1)
			break;
		table_set_free(&s);
	}
	if (r == 1)
		fprintf(stderr, "wormctl: table show: the tables were replaced during each of %d reads: try again\n",
			WC_NL_DUMP_TRIES);
	if (r) {
		table_set_free(&s);
		return 1;
	}
	out_init(&o, stdout, c->opts.json, c->opts.pretty);
	if (o.json)
		json_open_array(&o, NULL);
	for (i = 0; i < s.n; i++)
		show_table(&o, &s.b[i].want, s.decoded[i] ? &s.v[i] : NULL,
			   c->opts.verbose);
	if (o.json)
		json_close_array(&o);
	table_set_free(&s);
	return 0;
}
