// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "wormcast", version 1: fabric queries, statistics,
 * runtime parameters, routing table transactions and the "events"
 * multicast group.  Every handler runs under RTNL, which keeps fabrics and
 * their devices in place.
 */
#include <linux/etherdevice.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "wormcast.h"

enum {
	WC_MCGRP_EVENTS,
};

static const struct genl_multicast_group wc_mcgrps[] = {
	[WC_MCGRP_EVENTS] = { .name = WORMCAST_GENL_MCGRP_EVENTS },
};

#define WC_READ_ONLY { .type = NLA_REJECT, \
		       .reject_message = "attribute is read-only" }

static const struct nla_policy wc_param_policy[WORMCAST_PARAM_MAX + 1] = {
	[WORMCAST_PARAM_CYCLE_NS] = { .type = NLA_U32 },
	[WORMCAST_PARAM_WATCHDOG] = { .type = NLA_U32 },
	[WORMCAST_PARAM_SEND_OVH] = { .type = NLA_U32 },
	[WORMCAST_PARAM_RECV_OVH] = { .type = NLA_U32 },
	[WORMCAST_PARAM_MULTICAST] = NLA_POLICY_MAX(NLA_U32, WORMCAST_MCAST_MAX),
	[WORMCAST_PARAM_FAULT_INFO] = NLA_POLICY_MAX(NLA_U8,
						     WORMCAST_FAULT_INFO_LOCAL),
	[WORMCAST_PARAM_FLIT_BYTES] = WC_READ_ONLY,
	[WORMCAST_PARAM_BUF_FLITS] = WC_READ_ONLY,
	[WORMCAST_PARAM_VCS] = WC_READ_ONLY,
	[WORMCAST_PARAM_INJ_CHANNELS] = WC_READ_ONLY,
	[WORMCAST_PARAM_CONS_CHANNELS] = WC_READ_ONLY,
	[WORMCAST_PARAM_ROUTER_DELAY] = WC_READ_ONLY,
	[WORMCAST_PARAM_LINK_DELAY] = WC_READ_ONLY,
	[WORMCAST_PARAM_STARTUP] = WC_READ_ONLY,
	[WORMCAST_PARAM_REPLICATION] = WC_READ_ONLY,
	[WORMCAST_PARAM_QUEUE_LEN] = WC_READ_ONLY,
};

static const struct nla_policy wc_fault_policy[WORMCAST_FAULT_MAX + 1] = {
	[WORMCAST_FAULT_KIND] = NLA_POLICY_RANGE(NLA_U32,
						 WORMCAST_FAULT_KIND_LINK,
						 WORMCAST_FAULT_KIND_MAX),
	[WORMCAST_FAULT_NODE] = { .type = NLA_U32 },
	[WORMCAST_FAULT_PEER] = { .type = NLA_U32 },
};

static struct netlink_range_validation wc_table_size_range = {
	.min = 1,
	.max = WORMCAST_TABLE_MAX_BYTES,
};

static const struct nla_policy wc_genl_policy[WORMCAST_A_MAX + 1] = {
	[WORMCAST_A_FABRIC_IFINDEX] = { .type = NLA_U32 },
	[WORMCAST_A_FABRIC_NAME] = { .type = NLA_NUL_STRING,
				     .len = IFNAMSIZ - 1 },
	[WORMCAST_A_PARAMS] = NLA_POLICY_NESTED(wc_param_policy),
	[WORMCAST_A_FABRIC_ID] = WC_READ_ONLY,
	[WORMCAST_A_TOPOLOGY] = WC_READ_ONLY,
	[WORMCAST_A_DIMS] = WC_READ_ONLY,
	[WORMCAST_A_NNODES] = WC_READ_ONLY,
	[WORMCAST_A_NODES] = WC_READ_ONLY,
	[WORMCAST_A_NODE] = WC_READ_ONLY,
	[WORMCAST_A_COUNTERS] = WC_READ_ONLY,
	[WORMCAST_A_ENGINE] = WC_READ_ONLY,
	[WORMCAST_A_NODES_TRUNCATED] = WC_READ_ONLY,
	[WORMCAST_A_FABRIC_NETNSID] = WC_READ_ONLY,
	[WORMCAST_A_TABLE_KIND] = NLA_POLICY_RANGE(NLA_U32, WORMCAST_TABLE_TREES,
						   WORMCAST_TABLE_MAX),
	[WORMCAST_A_TABLE_GEN] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_SIZE] = NLA_POLICY_FULL_RANGE(NLA_U32,
							&wc_table_size_range),
	[WORMCAST_A_TABLE_TXN] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_OFFSET] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_DATA] = { .type = NLA_BINARY,
				    .len = WORMCAST_TABLE_CHUNK_MAX },
	[WORMCAST_A_TABLES] = WC_READ_ONLY,
	[WORMCAST_A_TABLE] = WC_READ_ONLY,
	[WORMCAST_A_LINKS] = WC_READ_ONLY,
	[WORMCAST_A_LINK] = WC_READ_ONLY,
	[WORMCAST_A_FAULTS] = WC_READ_ONLY,
	[WORMCAST_A_FAULT] = NLA_POLICY_NESTED(wc_fault_policy),
	[WORMCAST_A_GROUPS_GEN] = WC_READ_ONLY,
	[WORMCAST_A_GROUPS] = WC_READ_ONLY,
	[WORMCAST_A_GROUP] = WC_READ_ONLY,
};

static struct genl_family wc_genl_family;
static u32 wc_fabrics_gen = 1;	/* changes when fabrics or faults change (RTNL) */

/* What a reply carries besides the fabric's identity. */
enum wc_fill_what {
	WC_FILL_FABRIC,		/* FABRIC_GET: params, counters, nodes */
	WC_FILL_STATS,		/* STATS_GET: counters, per-node counters */
	WC_FILL_EVENT,		/* notifications: identity only */
};

/* ------------------------------------------------------------ lookup */

static struct wc_fabric *wc_genl_find(struct net *net, struct nlattr **attrs,
				      struct netlink_ext_ack *extack)
{
	struct net_device *dev;
	struct nlattr *a;

	ASSERT_RTNL();
	if (attrs[WORMCAST_A_FABRIC_IFINDEX]) {
		a = attrs[WORMCAST_A_FABRIC_IFINDEX];
		dev = __dev_get_by_index(net, nla_get_u32(a));
	} else if (attrs[WORMCAST_A_FABRIC_NAME]) {
		a = attrs[WORMCAST_A_FABRIC_NAME];
		dev = __dev_get_by_name(net, nla_data(a));
	} else {
		NL_SET_ERR_MSG(extack, "fabric ifindex or name is required");
		return ERR_PTR(-EINVAL);
	}
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, a, "no such device");
		return ERR_PTR(-ENODEV);
	}
	if (!wc_is_wormcast_dev(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, a, "not a wormcast device");
		return ERR_PTR(-EINVAL);
	}
	/* a node device stands for its fabric */
	return wc_priv(dev)->fabric;
}

/*
 * The fabric named by a write request (RTNL held): GENL_UNS_ADMIN_PERM
 * checked CAP_NET_ADMIN over the socket's netns; the fabric's counts.
 */
static struct wc_fabric *wc_genl_find_writable(struct sk_buff *skb,
					       struct genl_info *info)
{
	struct wc_fabric *f;

	f = wc_genl_find(genl_info_net(info), info->attrs, info->extack);
	if (IS_ERR(f))
		return f;
	if (!netlink_ns_capable(skb, dev_net(f->dev)->user_ns,
				CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "needs CAP_NET_ADMIN in the fabric's netns");
		return ERR_PTR(-EPERM);
	}
	return f;
}

/* ------------------------------------------------------------ fill */

/* A nest of u64 attributes 1..@max (but @pad) from @val indexed by type. */
static int wc_put_u64s(struct sk_buff *skb, int type, const u64 *val,
		       int max, int pad)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 1; i <= max; i++) {
		if (i == pad)
			continue;
		if (nla_put_u64_64bit(skb, i, val[i], pad))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int wc_put_counters(struct sk_buff *skb, int type, const u64 *cnt)
{
	return wc_put_u64s(skb, type, cnt, WORMCAST_CNT_MAX, WORMCAST_CNT_PAD);
}

static int wc_put_fabric_counters(struct sk_buff *skb, struct wc_fabric *f)
{
	u64 cnt[WORMCAST_CNT_MAX + 1];

	wc_fabric_counters(f, cnt);
	return wc_put_counters(skb, WORMCAST_A_COUNTERS, cnt);
}

static int wc_put_engine(struct sk_buff *skb, struct wc_fabric *f)
{
	u64 v[WORMCAST_ENG_MAX + 1] = { 0 };
	struct wc_engine_stats s;

	wc_fabric_engine_stats(f, &s);
	v[WORMCAST_ENG_CYCLES] = s.cycles;
	v[WORMCAST_ENG_WORMS_IN_FLIGHT] = s.worms_in_flight;
	v[WORMCAST_ENG_FLIT_HOPS] = s.flit_hops;
	v[WORMCAST_ENG_WORMS_DONE] = s.worms_done;
	v[WORMCAST_ENG_LATENCY_SUM] = s.latency_sum;
	v[WORMCAST_ENG_LATENCY_MAX] = s.latency_max;
	v[WORMCAST_ENG_BLOCKED_CYCLES] = s.blocked_cycles;
	v[WORMCAST_ENG_DEADLOCKS] = s.deadlocks;
	v[WORMCAST_ENG_HOPS_SUM] = s.hops_sum;
	v[WORMCAST_ENG_ROUTE_ERRORS] = s.route_errors;
	v[WORMCAST_ENG_MEM_BYTES] = wc_fabric_mem(f);
	v[WORMCAST_ENG_FAULT_ABSORBED] = s.fault_absorbed;
	v[WORMCAST_ENG_FAULT_DROPS] = s.fault_drops;
	v[WORMCAST_ENG_FAULT_REINJECTED] = s.fault_reinjected;
	return wc_put_u64s(skb, WORMCAST_A_ENGINE, v, WORMCAST_ENG_MAX,
			   WORMCAST_ENG_PAD);
}

static int wc_put_params(struct sk_buff *skb, struct wc_fabric *f)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, WORMCAST_A_PARAMS);
	if (!nest)
		return -EMSGSIZE;
	if (wc_params_put(skb, f, false)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* One WORMCAST_A_TABLE nest (or the reply's top level: @type 0). */
static int wc_put_table_info(struct sk_buff *skb, const struct wc_table *t)
{
	return nla_put_u32(skb, WORMCAST_A_TABLE_KIND, t->kind) ||
	       nla_put_u32(skb, WORMCAST_A_TABLE_GEN, t->gen) ||
	       nla_put_u32(skb, WORMCAST_A_TABLE_SIZE, t->size) ? -EMSGSIZE : 0;
}

/* The fabric's generation and its installed tables (FABRIC_GET). */
static int wc_put_tables(struct sk_buff *skb, struct wc_fabric *f)
{
	struct nlattr *tables, *nest;
	struct wc_table *t;
	u32 k;

	if (nla_put_u32(skb, WORMCAST_A_TABLE_GEN, wc_tables_gen(&f->tables)))
		return -EMSGSIZE;
	tables = nla_nest_start(skb, WORMCAST_A_TABLES);
	if (!tables)
		return -EMSGSIZE;
	for (k = 1; k <= WORMCAST_TABLE_MAX; k++) {
		t = wc_tables_get(&f->tables, k);
		if (!t)
			continue;
		nest = nla_nest_start(skb, WORMCAST_A_TABLE);
		if (!nest || wc_put_table_info(skb, t)) {
			wc_table_put(t);
			nla_nest_cancel(skb, tables);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
		wc_table_put(t);
	}
	nla_nest_end(skb, tables);
	return 0;
}

/*
 * What a requester may see (Documentation/uapi.rst, "Who sees what"):
 * everything about devices in its own netns; devices elsewhere only by
 * netnsid and ifindex, as rtnetlink shows a veth peer; fabric-wide and
 * other nodes' counters only from the fabric device's netns (the owner).
 */
static bool wc_is_owner(const struct wc_fabric *f, const struct net *net)
{
	return net_eq(dev_net(f->dev), net);
}

/* The netnsid of @dev's netns as seen from @net, -1 for @net itself. */
static s32 wc_netnsid(struct net *net, const struct net_device *dev)
{
	if (net_eq(dev_net(dev), net))
		return -1;
	return peernet2id_alloc(net, dev_net(dev), GFP_KERNEL);
}

/* One WORMCAST_A_NODE nest; @net is the requester's netns. */
static int wc_put_node(struct sk_buff *skb, struct wc_fabric *f, u32 n,
		       struct net *net, enum wc_fill_what what)
{
	struct net_device *nd = f->nodes[n].dev;
	bool local = nd && net_eq(dev_net(nd), net);
	u64 cnt[WORMCAST_CNT_MAX + 1];
	u32 coords[WC_MAX_COORDS];
	struct nlattr *nest;

	nest = nla_nest_start(skb, WORMCAST_A_NODE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, WORMCAST_NODE_ID, n))
		goto cancel;
	if (what == WC_FILL_FABRIC && nd) {
		wc_topo_coords(&f->topo, n, coords);
		if (nla_put_u32(skb, WORMCAST_NODE_IFINDEX, nd->ifindex) ||
		    nla_put_s32(skb, WORMCAST_NODE_NETNSID,
				wc_netnsid(net, nd)) ||
		    (local &&
		     nla_put_string(skb, WORMCAST_NODE_IFNAME, nd->name)) ||
		    nla_put(skb, WORMCAST_NODE_COORDS,
			    f->topo.ncoords * sizeof(u32), coords) ||
		    nla_put(skb, WORMCAST_NODE_ADDRESS, ETH_ALEN,
			    nd->dev_addr))
			goto cancel;
	}
	if (what == WC_FILL_STATS && (local || wc_is_owner(f, net))) {
		wc_node_counters(f, n, cnt);
		if (wc_put_counters(skb, WORMCAST_NODE_COUNTERS, cnt))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* The fabric device: by name in its own netns, else by netnsid. */
static int wc_put_fabric_dev(struct sk_buff *skb, struct wc_fabric *f,
			     struct net *net)
{
	if (nla_put_u32(skb, WORMCAST_A_FABRIC_IFINDEX, f->dev->ifindex))
		return -EMSGSIZE;
	if (wc_is_owner(f, net))
		return nla_put_string(skb, WORMCAST_A_FABRIC_NAME,
				      f->dev->name);
	return nla_put_s32(skb, WORMCAST_A_FABRIC_NETNSID,
			   wc_netnsid(net, f->dev));
}

/* What every message about @f starts with: id, device, topology, size. */
static int wc_put_identity(struct sk_buff *skb, struct wc_fabric *f,
			   struct net *net)
{
	if (nla_put_u32(skb, WORMCAST_A_FABRIC_ID, f->id) ||
	    wc_put_fabric_dev(skb, f, net) ||
	    nla_put_u32(skb, WORMCAST_A_TOPOLOGY, f->topo.kind) ||
	    nla_put(skb, WORMCAST_A_DIMS, f->topo.ndims * sizeof(u32),
		    f->topo.dims) ||
	    nla_put_u32(skb, WORMCAST_A_NNODES, f->nnodes))
		return -EMSGSIZE;
	return 0;
}

/*
 * Fill one message about @f.  Nodes from *@next_node on are added while
 * they fit; *@next_node is advanced past the last one added.  The fabric's
 * parameters, counters and engine statistics go into the message that
 * starts at node 0.  With @truncate_flag (doit), a reply that cannot hold
 * every node says so.
 */
static int wc_fill(struct sk_buff *skb, struct wc_fabric *f, u32 portid,
		   u32 seq, int flags, u8 cmd, enum wc_fill_what what,
		   struct net *net, u32 *next_node, bool truncate_flag)
{
	struct nlattr *nodes;
	u32 n = next_node ? *next_node : 0;
	unsigned char *prev = NULL;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &wc_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (wc_put_identity(skb, f, net))
		goto cancel;
	if (what == WC_FILL_EVENT)
		goto end;
	if (n == 0) {
		if (what == WC_FILL_FABRIC &&
		    (wc_put_params(skb, f) || wc_put_tables(skb, f)))
			goto cancel;
		if (wc_is_owner(f, net) &&
		    (wc_put_fabric_counters(skb, f) || wc_put_engine(skb, f)))
			goto cancel;
	}
	nodes = nla_nest_start(skb, WORMCAST_A_NODES);
	if (!nodes)
		goto cancel;
	for (; n < f->nnodes; n++) {
		unsigned char *mark = skb_tail_pointer(skb);

		if (wc_put_node(skb, f, n, net, what))
			break;
		prev = mark;
	}
	if (n == (next_node ? *next_node : 0) && n < f->nnodes) {
		/* not even one node fits */
		nla_nest_cancel(skb, nodes);
		goto cancel;
	}
	nla_nest_end(skb, nodes);
	if (truncate_flag && n < f->nnodes &&
	    nla_put_flag(skb, WORMCAST_A_NODES_TRUNCATED)) {
		/* make room for the flag by giving back the last node */
		nlmsg_trim(skb, prev);
		nla_nest_end(skb, nodes);
		n--;
		if (nla_put_flag(skb, WORMCAST_A_NODES_TRUNCATED))
			goto cancel;
	}
	if (next_node)
		*next_node = n;
end:
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* ------------------------------------------------------------ doit */

static int wc_genl_get_common(struct sk_buff *skb, struct genl_info *info,
			      enum wc_fill_what what)
{
	struct net *net = genl_info_net(info);
	struct wc_fabric *f;
	struct sk_buff *msg;
	u32 next = 0;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rtnl_lock();
	f = wc_genl_find(net, info->attrs, info->extack);
	if (IS_ERR(f)) {
		err = PTR_ERR(f);
		goto fail;
	}
	err = wc_fill(msg, f, info->snd_portid, info->snd_seq, 0,
		      info->genlhdr->cmd, what, net, &next, true);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "reply does not fit");
		goto fail;
	}
	rtnl_unlock();
	return genlmsg_reply(msg, info);
fail:
	rtnl_unlock();
	nlmsg_free(msg);
	return err;
}

static int wc_genl_fabric_get(struct sk_buff *skb, struct genl_info *info)
{
	return wc_genl_get_common(skb, info, WC_FILL_FABRIC);
}

static int wc_genl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	return wc_genl_get_common(skb, info, WC_FILL_STATS);
}

static int wc_genl_fabric_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[WORMCAST_PARAM_MAX + 1];
	struct wc_fabric *f;
	const char *why = NULL;
	u32 cycle_ns, mcast;
	int err;

	if (!info->attrs[WORMCAST_A_PARAMS]) {
		NL_SET_ERR_MSG(info->extack, "WORMCAST_A_PARAMS is required");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, WORMCAST_PARAM_MAX,
			       info->attrs[WORMCAST_A_PARAMS], wc_param_policy,
			       info->extack);
	if (err)
		return err;
	if (!tb[WORMCAST_PARAM_CYCLE_NS] && !tb[WORMCAST_PARAM_WATCHDOG] &&
	    !tb[WORMCAST_PARAM_MULTICAST] && !tb[WORMCAST_PARAM_FAULT_INFO] &&
	    !tb[WORMCAST_PARAM_SEND_OVH] && !tb[WORMCAST_PARAM_RECV_OVH]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[WORMCAST_A_PARAMS],
				    "nothing to change: give cycle_ns, watchdog, multicast, fault-info, send_ovh and/or recv_ovh");
		return -EINVAL;
	}

	rtnl_lock();
	f = wc_genl_find_writable(skb, info);
	if (IS_ERR(f)) {
		err = PTR_ERR(f);
		goto out;
	}
	/* validate everything before changing anything */
	cycle_ns = READ_ONCE(f->cycle_ns);
	if (tb[WORMCAST_PARAM_CYCLE_NS]) {
		err = wc_param_check_cycle_ns(tb[WORMCAST_PARAM_CYCLE_NS],
					      info->extack);
		if (err)
			goto out;
		cycle_ns = nla_get_u32(tb[WORMCAST_PARAM_CYCLE_NS]);
	}
	mcast = READ_ONCE(f->mcast);
	if (tb[WORMCAST_PARAM_MULTICAST]) {
		err = wc_param_check_mcast(tb[WORMCAST_PARAM_MULTICAST],
					   &f->topo, &f->params,
					   wc_fabric_max_mtu(f), info->extack);
		if (err)
			goto out;
		mcast = nla_get_u32(tb[WORMCAST_PARAM_MULTICAST]);
	}
	err = 0;
	if (tb[WORMCAST_PARAM_SEND_OVH])
		err = wc_param_check_ovh(tb[WORMCAST_PARAM_SEND_OVH],
					 info->extack);
	if (!err && tb[WORMCAST_PARAM_RECV_OVH])
		err = wc_param_check_ovh(tb[WORMCAST_PARAM_RECV_OVH],
					 info->extack);
	if (err)
		goto out;
	/* the rest is valid: the watchdog change is the last that can fail */
	if (tb[WORMCAST_PARAM_WATCHDOG]) {
		err = wc_fabric_set_watchdog(f,
					     nla_get_u32(tb[WORMCAST_PARAM_WATCHDOG]),
					     &why);
		if (err) {
			wc_extack_msg(info->extack, why);
			NL_SET_BAD_ATTR(info->extack, tb[WORMCAST_PARAM_WATCHDOG]);
			goto out;
		}
	}
	wc_fabric_set_cycle_ns(f, cycle_ns);
	if (mcast != READ_ONCE(f->mcast))
		wc_fabric_set_mcast(f, mcast);
	if (tb[WORMCAST_PARAM_FAULT_INFO])
		wc_fabric_set_fault_info(f,
					 nla_get_u8(tb[WORMCAST_PARAM_FAULT_INFO]));
	/* read by the poll at each send and reception (READ_ONCE) */
	if (tb[WORMCAST_PARAM_SEND_OVH])
		WRITE_ONCE(f->send_ovh,
			   nla_get_u32(tb[WORMCAST_PARAM_SEND_OVH]));
	if (tb[WORMCAST_PARAM_RECV_OVH])
		WRITE_ONCE(f->recv_ovh,
			   nla_get_u32(tb[WORMCAST_PARAM_RECV_OVH]));
	/* wormcastd learns of a scheme change from this */
	wc_genl_notify(f, WORMCAST_CMD_FABRIC_SET);
	err = 0;
out:
	rtnl_unlock();
	return err;
}

/* ------------------------------------------------------------ dump */

/*
 * cb->args[0]: position of the fabric in wc_fabrics, args[1]: next node.
 * A fabric whose nodes do not fit in one message continues in the next
 * messages, each repeating the fabric's identity (FABRIC_ID, IFINDEX...).
 */
static int wc_genl_dump_common(struct sk_buff *skb,
			       struct netlink_callback *cb,
			       enum wc_fill_what what)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct net *net = sock_net(skb->sk);
	struct wc_fabric *only = NULL, *f;
	long pos = 0;
	u32 next;
	int err;

	rtnl_lock();
	if (info->attrs[WORMCAST_A_FABRIC_IFINDEX] ||
	    info->attrs[WORMCAST_A_FABRIC_NAME]) {
		only = wc_genl_find(net, info->attrs, cb->extack);
		if (IS_ERR(only)) {
			rtnl_unlock();
			return PTR_ERR(only);
		}
	}
	cb->seq = wc_fabrics_gen;
	list_for_each_entry(f, &wc_fabrics, list) {
		if (pos++ < cb->args[0])
			continue;
		if (only ? f != only : !net_eq(dev_net(f->dev), net)) {
			cb->args[0] = pos;
			continue;
		}
		next = cb->args[1];
		do {
			err = wc_fill(skb, f, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI,
				      info->op.cmd, what, net, &next, false);
			if (err)
				goto out;	/* message full: resume here */
			nl_dump_check_consistent(cb, nlmsg_hdr(skb));
			cb->args[1] = next;
		} while (next < f->nnodes);
		cb->args[0] = pos;
		cb->args[1] = 0;
	}
out:
	rtnl_unlock();
	return skb->len;
}

static int wc_genl_fabric_dump(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	return wc_genl_dump_common(skb, cb, WC_FILL_FABRIC);
}

static int wc_genl_stats_dump(struct sk_buff *skb,
			      struct netlink_callback *cb)
{
	return wc_genl_dump_common(skb, cb, WC_FILL_STATS);
}

/* ------------------------------------------------------------ links */

/* One WORMCAST_A_LINK nest: channel (@n, @port) to @peer. */
static int wc_put_link(struct sk_buff *skb, struct wc_fabric *f, u32 n,
		       u32 port, u32 peer)
{
	struct nlattr *nest;
	u64 busy, blocked;

	wc_fabric_link_stats(f, n, port, &busy, &blocked);
	nest = nla_nest_start(skb, WORMCAST_A_LINK);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, WORMCAST_LINK_NODE, n) ||
	    nla_put_u32(skb, WORMCAST_LINK_PORT, port) ||
	    nla_put_u32(skb, WORMCAST_LINK_PEER, peer) ||
	    nla_put_u64_64bit(skb, WORMCAST_LINK_BUSY, busy,
			      WORMCAST_LINK_PAD) ||
	    nla_put_u64_64bit(skb, WORMCAST_LINK_BLOCKED, blocked,
			      WORMCAST_LINK_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * The fabric of a per-fabric dump (FABRIC_IFINDEX or FABRIC_NAME required),
 * returned with RTNL held; or an ERR_PTR, with RTNL not held and extack set.
 */
static struct wc_fabric *wc_genl_dump_fabric(struct sk_buff *skb,
					     struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct wc_fabric *f;

	if (!info->attrs[WORMCAST_A_FABRIC_IFINDEX] &&
	    !info->attrs[WORMCAST_A_FABRIC_NAME]) {
		NL_SET_ERR_MSG(cb->extack, "fabric ifindex or name is required");
		return ERR_PTR(-EINVAL);
	}
	rtnl_lock();
	f = wc_genl_find(sock_net(skb->sk), info->attrs, cb->extack);
	if (IS_ERR(f))
		rtnl_unlock();
	return f;
}

/*
 * LINKS_GET dump of one fabric: every physical channel (node, port) that
 * has a neighbour, in order, as many per message as fit; cb->args[0] is
 * the next channel index (node * nports + port).  Each message repeats the
 * fabric's identity; the first also carries the engine statistics (the
 * cycles the counts are out of).
 */
static int wc_genl_links_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct nlattr *links;
	struct wc_fabric *f;
	u32 i, nch, peer, added = 0;
	void *hdr;
	int err = 0;

	f = wc_genl_dump_fabric(skb, cb);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (!wc_is_owner(f, net)) {
		NL_SET_ERR_MSG(cb->extack,
			       "link statistics only from the fabric device's netns");
		err = -EPERM;
		goto out;
	}
	cb->seq = wc_fabrics_gen;
	nch = f->nnodes * f->topo.nports;
	i = cb->args[0];
	if (i >= nch)
		goto out;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &wc_genl_family, NLM_F_MULTI, WORMCAST_CMD_LINKS_GET);
	if (!hdr)
		goto out;
	if (wc_put_identity(skb, f, net) || (i == 0 && wc_put_engine(skb, f)))
		goto cancel;
	links = nla_nest_start(skb, WORMCAST_A_LINKS);
	if (!links)
		goto cancel;
	for (; i < nch; i++) {
		peer = wc_topo_neighbor(&f->topo, i / f->topo.nports,
					i % f->topo.nports);
		if (peer == WC_NO_NODE)
			continue;
		if (wc_put_link(skb, f, i / f->topo.nports,
				i % f->topo.nports, peer))
			break;
		added++;
	}
	if (!added && i < nch) {
		/* not even one channel fits */
		nla_nest_cancel(skb, links);
		goto cancel;
	}
	nla_nest_end(skb, links);
	genlmsg_end(skb, hdr);
	nl_dump_check_consistent(cb, nlmsg_hdr(skb));
	cb->args[0] = i;
	goto out;
cancel:
	genlmsg_cancel(skb, hdr);
	err = skb->len ? 0 : -EMSGSIZE;
out:
	rtnl_unlock();
	return err ? err : skb->len;
}

/* ------------------------------------------------------------ tables */

/* Every attribute of @types is present, or an extack message naming them. */
static bool wc_genl_need(struct genl_info *info, const int *types, int n,
			 const char *msg)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!info->attrs[types[i]]) {
			wc_extack_msg(info->extack, msg);
			return false;
		}
	}
	return true;
}

static u32 wc_attr_u32(struct genl_info *info, int type)
{
	return nla_get_u32(info->attrs[type]);
}

/* A reply to a table command: the fabric's id, then the caller's u32s. */
static int wc_table_reply(struct genl_info *info, struct wc_fabric *f,
			  const int *types, const u32 *vals, int n)
{
	struct sk_buff *msg;
	void *hdr;
	int i;

	msg = genlmsg_new(nla_total_size(sizeof(u32)) * (n + 1), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &wc_genl_family, 0,
				info->genlhdr->cmd);
	if (!hdr)
		goto nospace;
	if (nla_put_u32(msg, WORMCAST_A_FABRIC_ID, f->id))
		goto nospace;
	for (i = 0; i < n; i++)
		if (nla_put_u32(msg, types[i], vals[i]))
			goto nospace;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* TABLE_COMMIT on "events", in the fabric's netns (RTNL held). */
static void wc_genl_notify_table(struct wc_fabric *f, u32 kind, u32 gen)
{
	struct sk_buff *msg;
	void *hdr;

	ASSERT_RTNL();
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &wc_genl_family, 0,
			  WORMCAST_CMD_TABLE_COMMIT);
	if (!hdr ||
	    nla_put_u32(msg, WORMCAST_A_FABRIC_ID, f->id) ||
	    wc_put_fabric_dev(msg, f, dev_net(f->dev)) ||
	    nla_put_u32(msg, WORMCAST_A_TABLE_KIND, kind) ||
	    nla_put_u32(msg, WORMCAST_A_TABLE_GEN, gen)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&wc_genl_family, dev_net(f->dev), msg, 0,
				WC_MCGRP_EVENTS, GFP_KERNEL);
}

static int wc_genl_table_new(struct sk_buff *skb, struct genl_info *info)
{
	static const int need[] = { WORMCAST_A_TABLE_KIND,
				    WORMCAST_A_TABLE_SIZE,
				    WORMCAST_A_TABLE_GEN };
	static const int types[] = { WORMCAST_A_TABLE_TXN };
	struct wc_fabric *f;
	u32 txn;
	int err;

	if (!wc_genl_need(info, need, ARRAY_SIZE(need),
			  "TABLE_NEW needs TABLE_KIND, TABLE_SIZE and TABLE_GEN"))
		return -EINVAL;
	rtnl_lock();
	f = wc_genl_find_writable(skb, info);
	err = IS_ERR(f) ? PTR_ERR(f) :
	      wc_table_txn_new(&f->tables,
			       wc_attr_u32(info, WORMCAST_A_TABLE_KIND),
			       wc_attr_u32(info, WORMCAST_A_TABLE_SIZE),
			       wc_attr_u32(info, WORMCAST_A_TABLE_GEN),
			       &txn, info->extack);
	if (!err)
		err = wc_table_reply(info, f, types, &txn, 1);
	rtnl_unlock();
	return err;
}

static int wc_genl_table_chunk(struct sk_buff *skb, struct genl_info *info)
{
	static const int need[] = { WORMCAST_A_TABLE_TXN,
				    WORMCAST_A_TABLE_OFFSET,
				    WORMCAST_A_TABLE_DATA };
	struct nlattr *data = info->attrs[WORMCAST_A_TABLE_DATA];
	struct wc_fabric *f;
	int err;

	if (!wc_genl_need(info, need, ARRAY_SIZE(need),
			  "TABLE_CHUNK needs TABLE_TXN, TABLE_OFFSET and TABLE_DATA"))
		return -EINVAL;
	rtnl_lock();
	f = wc_genl_find_writable(skb, info);
	err = IS_ERR(f) ? PTR_ERR(f) :
	      wc_table_txn_chunk(&f->tables,
				 wc_attr_u32(info, WORMCAST_A_TABLE_TXN),
				 wc_attr_u32(info, WORMCAST_A_TABLE_OFFSET),
				 nla_data(data), nla_len(data), info->extack);
	rtnl_unlock();
	return err;
}

static int wc_genl_table_commit(struct sk_buff *skb, struct genl_info *info)
{
	static const int need[] = { WORMCAST_A_TABLE_TXN };
	static const int types[] = { WORMCAST_A_TABLE_KIND,
				     WORMCAST_A_TABLE_GEN };
	struct wc_fabric *f;
	u32 vals[2];
	int err;

	if (!wc_genl_need(info, need, ARRAY_SIZE(need),
			  "TABLE_COMMIT needs TABLE_TXN"))
		return -EINVAL;
	rtnl_lock();
	f = wc_genl_find_writable(skb, info);
	err = IS_ERR(f) ? PTR_ERR(f) :
	      wc_table_txn_commit(&f->tables,
				  wc_attr_u32(info, WORMCAST_A_TABLE_TXN),
				  &vals[0], &vals[1], info->extack);
	if (!err) {
		wc_fabric_tables_changed(f);
		if (vals[0] == WORMCAST_TABLE_PLANS)
			wc_fabric_plans_committed(f);
		wc_genl_notify_table(f, vals[0], vals[1]);
		/* committed: a reply that cannot be sent does not undo it */
		wc_table_reply(info, f, types, vals, 2);
	}
	rtnl_unlock();
	return err;
}

static int wc_genl_table_abort(struct sk_buff *skb, struct genl_info *info)
{
	static const int need[] = { WORMCAST_A_TABLE_TXN };
	struct wc_fabric *f;
	int err;

	if (!wc_genl_need(info, need, ARRAY_SIZE(need),
			  "TABLE_ABORT needs TABLE_TXN"))
		return -EINVAL;
	rtnl_lock();
	f = wc_genl_find_writable(skb, info);
	err = IS_ERR(f) ? PTR_ERR(f) :
	      wc_table_txn_abort(&f->tables,
				 wc_attr_u32(info, WORMCAST_A_TABLE_TXN),
				 info->extack);
	rtnl_unlock();
	return err;
}

/* The committed table of the request's kind, with a reference. */
static struct wc_table *wc_genl_find_table(struct net *net,
					   struct nlattr **attrs,
					   struct netlink_ext_ack *extack,
					   struct wc_fabric **fp)
{
	struct wc_fabric *f;
	struct wc_table *t;

	f = wc_genl_find(net, attrs, extack);
	*fp = f;
	if (IS_ERR(f))
		return ERR_CAST(f);
	if (!attrs[WORMCAST_A_TABLE_KIND]) {
		NL_SET_ERR_MSG(extack, "TABLE_GET needs TABLE_KIND");
		return ERR_PTR(-EINVAL);
	}
	t = wc_tables_get(&f->tables, nla_get_u32(attrs[WORMCAST_A_TABLE_KIND]));
	if (!t) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[WORMCAST_A_TABLE_KIND],
				    "no table of this kind is committed on this fabric");
		return ERR_PTR(-ENOENT);
	}
	return t;
}

static int wc_genl_table_get(struct sk_buff *skb, struct genl_info *info)
{
	static const int types[] = { WORMCAST_A_TABLE_KIND,
				     WORMCAST_A_TABLE_GEN,
				     WORMCAST_A_TABLE_SIZE };
	struct wc_fabric *f;
	struct wc_table *t;
	u32 vals[3];
	int err;

	rtnl_lock();
	t = wc_genl_find_table(genl_info_net(info), info->attrs, info->extack,
			       &f);
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
	} else {
		vals[0] = t->kind;
		vals[1] = t->gen;
		vals[2] = t->size;
		err = wc_table_reply(info, f, types, vals, 3);
		wc_table_put(t);
	}
	rtnl_unlock();
	return err;
}

/* Room for a TABLE_GET dump message's attributes besides DATA's bytes. */
#define WC_TABLE_MSG_OVERHEAD	(NLMSG_HDRLEN + GENL_HDRLEN + \
				 4 * nla_total_size(sizeof(u32)) + \
				 nla_total_size(0) + NLA_ALIGNTO)

static int wc_genl_table_dump_done(struct netlink_callback *cb)
{
	wc_table_put((struct wc_table *)cb->args[1]);
	return 0;
}

/*
 * TABLE_GET dump: the table's bytes in order, as messages of OFFSET and
 * DATA (at most WORMCAST_TABLE_CHUNK_MAX bytes each), each with KIND and
 * GEN.  The table committed when the dump's first part is made is pinned
 * (a reference, cb->args[1]) until it ends, so every part of one dump
 * comes from one generation, whatever is committed meanwhile: a reader
 * never has to start again.  cb->args[0]: next offset.  The lookup is
 * here, not in a start callback: on Linux 6.1 a start callback has no
 * extack (cb->extack is NULL there), and a refusal must say why.
 */
static int wc_genl_table_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct wc_table *t = (const struct wc_table *)cb->args[1];
	u32 off = cb->args[0];

	if (!t) {
		const struct genl_dumpit_info *info = genl_dumpit_info(cb);
		struct wc_table *pinned;
		struct wc_fabric *f;

		rtnl_lock();
		pinned = wc_genl_find_table(sock_net(cb->skb->sk), info->attrs,
					    cb->extack, &f);
		rtnl_unlock();
		if (IS_ERR(pinned))
			return PTR_ERR(pinned);
		cb->args[1] = (long)pinned;
		t = pinned;
	}

	while (off < t->size) {
		int room = skb_tailroom(skb) - WC_TABLE_MSG_OVERHEAD;
		u32 len = min_t(u32, t->size - off, WORMCAST_TABLE_CHUNK_MAX);
		void *hdr;

		if (room <= 0)
			break;
		len = min_t(u32, len, round_down(room, NLA_ALIGNTO));
		if (!len)
			break;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &wc_genl_family,
				  NLM_F_MULTI, WORMCAST_CMD_TABLE_GET);
		if (!hdr)
			break;
		if (nla_put_u32(skb, WORMCAST_A_TABLE_KIND, t->kind) ||
		    nla_put_u32(skb, WORMCAST_A_TABLE_GEN, t->gen) ||
		    nla_put_u32(skb, WORMCAST_A_TABLE_OFFSET, off) ||
		    nla_put(skb, WORMCAST_A_TABLE_DATA, len, t->bytes + off)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		off += len;
	}
	if (off == cb->args[0] && off < t->size)
		return -EMSGSIZE;	/* not one byte fits: cannot progress */
	cb->args[0] = off;
	return skb->len;
}

/* ------------------------------------------------------------ faults */

/* One WORMCAST_A_FAULT nest. */
static int wc_put_fault(struct sk_buff *skb, const struct wc_fault *fl)
{
	struct nlattr *nest = nla_nest_start(skb, WORMCAST_A_FAULT);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, WORMCAST_FAULT_KIND,
			fl->node ? WORMCAST_FAULT_KIND_NODE :
				   WORMCAST_FAULT_KIND_LINK) ||
	    nla_put_u32(skb, WORMCAST_FAULT_NODE, fl->a) ||
	    (!fl->node && nla_put_u32(skb, WORMCAST_FAULT_PEER, fl->b))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* FAULT_ADD (@down) or FAULT_DEL on "events", in the fabric's netns (RTNL held). */
static void wc_genl_notify_fault(struct wc_fabric *f, bool down,
				 const struct wc_fault *fl)
{
	struct sk_buff *msg;
	void *hdr;

	ASSERT_RTNL();
	wc_fabrics_gen++;	/* a FAULT_GET dump in progress is interrupted */
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = down ? genlmsg_put(msg, 0, 0, &wc_genl_family, 0,
				 WORMCAST_CMD_FAULT_ADD) :
		     genlmsg_put(msg, 0, 0, &wc_genl_family, 0,
				 WORMCAST_CMD_FAULT_DEL);
	if (!hdr ||
	    nla_put_u32(msg, WORMCAST_A_FABRIC_ID, f->id) ||
	    wc_put_fabric_dev(msg, f, dev_net(f->dev)) ||
	    wc_put_fault(msg, fl)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&wc_genl_family, dev_net(f->dev), msg, 0,
				WC_MCGRP_EVENTS, GFP_KERNEL);
}

/* The FAULT nest of a request, checked for its kind. */
static int wc_genl_parse_fault(struct genl_info *info, struct wc_fault *fl)
{
	struct nlattr *tb[WORMCAST_FAULT_MAX + 1];
	struct nlattr *a = info->attrs[WORMCAST_A_FAULT];
	int err;

	if (!a) {
		NL_SET_ERR_MSG(info->extack, "a fault (WORMCAST_A_FAULT) is required");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, WORMCAST_FAULT_MAX, a, wc_fault_policy,
			       info->extack);
	if (err)
		return err;
	if (!tb[WORMCAST_FAULT_KIND] || !tb[WORMCAST_FAULT_NODE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "a fault needs a kind and a node");
		return -EINVAL;
	}
	fl->node = nla_get_u32(tb[WORMCAST_FAULT_KIND]) ==
		   WORMCAST_FAULT_KIND_NODE;
	fl->a = nla_get_u32(tb[WORMCAST_FAULT_NODE]);
	fl->b = 0;
	if (fl->node && tb[WORMCAST_FAULT_PEER]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[WORMCAST_FAULT_PEER],
				    "a node fault has no peer");
		return -EINVAL;
	}
	if (!fl->node) {
		if (!tb[WORMCAST_FAULT_PEER]) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "a link fault needs its peer node");
			return -EINVAL;
		}
		fl->b = nla_get_u32(tb[WORMCAST_FAULT_PEER]);
	}
	return 0;
}

/* FAULT_ADD (@down) and FAULT_DEL. */
static int wc_genl_fault_change(struct sk_buff *skb, struct genl_info *info,
				bool down)
{
	struct wc_fabric *f;
	struct wc_fault fl;
	int err;

	err = wc_genl_parse_fault(info, &fl);
	if (err)
		return err;
	rtnl_lock();
	f = wc_genl_find_writable(skb, info);
	if (IS_ERR(f)) {
		err = PTR_ERR(f);
		goto out;
	}
	err = wc_fabric_fault(f, fl.node, fl.a, fl.b, down, info->extack);
	if (err) {
		NL_SET_BAD_ATTR(info->extack, info->attrs[WORMCAST_A_FAULT]);
		goto out;
	}
	if (!fl.node && fl.a > fl.b)
		swap(fl.a, fl.b);	/* as FAULT_GET lists it */
	wc_genl_notify_fault(f, down, &fl);
out:
	rtnl_unlock();
	return err;
}

static int wc_genl_fault_add(struct sk_buff *skb, struct genl_info *info)
{
	return wc_genl_fault_change(skb, info, true);
}

static int wc_genl_fault_del(struct sk_buff *skb, struct genl_info *info)
{
	return wc_genl_fault_change(skb, info, false);
}

#define WC_FAULTS_PER_MSG	32

/*
 * FAULT_GET dump of one fabric: its faults (links, then nodes), as many
 * per message as fit, each message with the fabric's identity;
 * cb->args[0] is the next fault.  Readable where FABRIC_GET is.
 */
static int wc_genl_fault_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct wc_fault fl[WC_FAULTS_PER_MSG];
	struct nlattr *faults;
	struct wc_fabric *f;
	u32 i, n, added = 0;
	void *hdr;
	int err = 0;

	f = wc_genl_dump_fabric(skb, cb);
	if (IS_ERR(f))
		return PTR_ERR(f);
	cb->seq = wc_fabrics_gen;
	n = wc_fabric_faults(f, cb->args[0], fl, ARRAY_SIZE(fl));
	if (!n && cb->args[1])
		goto out;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &wc_genl_family, NLM_F_MULTI, WORMCAST_CMD_FAULT_GET);
	if (!hdr)
		goto out;
	if (wc_put_identity(skb, f, net))
		goto cancel;
	faults = nla_nest_start(skb, WORMCAST_A_FAULTS);
	if (!faults)
		goto cancel;
	for (i = 0; i < n; i++) {
		if (wc_put_fault(skb, &fl[i]))
			break;
		added++;
	}
	if (!added && n) {
		nla_nest_cancel(skb, faults);
		goto cancel;
	}
	nla_nest_end(skb, faults);
	genlmsg_end(skb, hdr);
	nl_dump_check_consistent(cb, nlmsg_hdr(skb));
	cb->args[0] += added;
	cb->args[1] = 1;	/* one message even with no fault */
	goto out;
cancel:
	genlmsg_cancel(skb, hdr);
	err = skb->len ? 0 : -EMSGSIZE;
out:
	rtnl_unlock();
	return err ? err : skb->len;
}

/* ------------------------------------------------------------ events */

/* Notify the "events" group in the fabric's netns (RTNL held). */
void wc_genl_notify(struct wc_fabric *f, u8 cmd)
{
	struct sk_buff *msg;

	ASSERT_RTNL();
	wc_fabrics_gen++;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	if (wc_fill(msg, f, 0, 0, 0, cmd, WC_FILL_EVENT, dev_net(f->dev),
		    NULL, false)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast_netns(&wc_genl_family, dev_net(f->dev), msg, 0,
				WC_MCGRP_EVENTS, GFP_KERNEL);
}

/* ------------------------------------------------------------ groups */

/*
 * One WORMCAST_A_GROUP nest: @g's address and the nodes a frame to it
 * reaches now (members, nodes taking all multicast, devices up), read
 * consistently by the index's seqcount into @map (scratch, nnodes bits)
 * and @words (its u32 form).
 */
static int wc_put_group(struct sk_buff *skb, struct wc_fabric *f,
			const struct wc_mcgroup *g, unsigned long *map,
			u32 *words)
{
	u32 nw = DIV_ROUND_UP(f->nnodes, 32);
	struct nlattr *nest;
	unsigned int seq;

	do {
		seq = wc_mcindex_read_begin(f->mc);
		wc_mcindex_dsts_once(f->mc, g->addr, false, map);
	} while (wc_mcindex_read_retry(f->mc, seq));
	bitmap_to_arr32(words, map, f->nnodes);
	nest = nla_nest_start(skb, WORMCAST_A_GROUP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put(skb, WORMCAST_GROUP_ADDRESS, ETH_ALEN, g->addr) ||
	    nla_put_u32(skb, WORMCAST_GROUP_NMEMBERS,
			bitmap_weight(map, f->nnodes)) ||
	    nla_put(skb, WORMCAST_GROUP_MEMBERS, nw * sizeof(u32), words))
		goto cancel;
	if (!bitmap_empty(g->unplanned, f->nnodes)) {
		bitmap_to_arr32(words, g->unplanned, f->nnodes);
		if (nla_put(skb, WORMCAST_GROUP_UNPLANNED, nw * sizeof(u32),
			    words))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * GROUPS_GET dump of one fabric: every group of its membership index, as
 * many per message as fit, each message with the fabric's identity and
 * membership generation.  cb->args[0] is the next hash bucket, args[1]
 * the groups of it already sent.  A change between messages sets
 * NLM_F_DUMP_INTR (the generation is the dump's sequence).
 */
static int wc_genl_groups_dump(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	unsigned long *map = NULL;
	struct nlattr *groups;
	struct wc_fabric *f;
	u32 *words = NULL, b, skip, added = 0;
	bool full = false;
	void *hdr;
	int err = 0;

	f = wc_genl_dump_fabric(skb, cb);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (!wc_is_owner(f, net)) {
		NL_SET_ERR_MSG(cb->extack,
			       "groups only from the fabric device's netns");
		err = -EPERM;
		goto out;
	}
	b = cb->args[0];
	if (b >= (1u << f->mc->hbits))
		goto out;
	map = bitmap_zalloc(f->nnodes, GFP_KERNEL);
	words = kcalloc(DIV_ROUND_UP(f->nnodes, 32), sizeof(u32), GFP_KERNEL);
	if (!map || !words) {
		err = -ENOMEM;
		goto out;
	}
	cb->seq = READ_ONCE(f->mc->gen) + 1;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &wc_genl_family, NLM_F_MULTI,
			  WORMCAST_CMD_GROUPS_GET);
	if (!hdr)
		goto out;
	if (wc_put_identity(skb, f, net) ||
	    nla_put_u32(skb, WORMCAST_A_GROUPS_GEN, cb->seq - 1))
		goto cancel;
	groups = nla_nest_start(skb, WORMCAST_A_GROUPS);
	if (!groups)
		goto cancel;
	rcu_read_lock();
	for (; b < (1u << f->mc->hbits) && !full; b++) {
		const struct wc_mcgroup *g;

		skip = cb->args[1];
		hlist_for_each_entry_rcu(g, &f->mc->groups[b], hnode) {
			if (skip) {
				skip--;
				continue;
			}
			if (wc_put_group(skb, f, g, map, words)) {
				full = true;
				break;
			}
			added++;
			cb->args[1]++;
		}
		if (!full)
			cb->args[1] = 0;
		else
			break;
	}
	rcu_read_unlock();
	if (!added && full) {
		/* not even one group fits */
		nla_nest_cancel(skb, groups);
		goto cancel;
	}
	nla_nest_end(skb, groups);
	genlmsg_end(skb, hdr);
	nl_dump_check_consistent(cb, nlmsg_hdr(skb));
	cb->args[0] = b;
	goto out;
cancel:
	genlmsg_cancel(skb, hdr);
	err = skb->len ? 0 : -EMSGSIZE;
out:
	rtnl_unlock();
	kfree(words);
	bitmap_free(map);
	return err ? err : skb->len;
}

/*
 * GROUPS_GET on "events" in the fabric's netns (RTNL held): the fabric's
 * membership reached generation @gen; one event per change window
 * (wc_fabric_groups_poke()).  Listeners dump the groups.
 */
void wc_genl_notify_groups(struct wc_fabric *f, u32 gen)
{
	struct sk_buff *msg;
	void *hdr;

	ASSERT_RTNL();
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &wc_genl_family, 0,
			  WORMCAST_CMD_GROUPS_GET);
	if (!hdr || wc_put_identity(msg, f, dev_net(f->dev)) ||
	    nla_put_u32(msg, WORMCAST_A_GROUPS_GEN, gen)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&wc_genl_family, dev_net(f->dev), msg, 0,
				WC_MCGRP_EVENTS, GFP_KERNEL);
}

/* ------------------------------------------------------------ family */

static const struct genl_ops wc_genl_ops[] = {
	{
		.cmd = WORMCAST_CMD_FABRIC_GET,
		.doit = wc_genl_fabric_get,
		.dumpit = wc_genl_fabric_dump,
	},
	{
		.cmd = WORMCAST_CMD_STATS_GET,
		.doit = wc_genl_stats_get,
		.dumpit = wc_genl_stats_dump,
	},
	{
		.cmd = WORMCAST_CMD_FABRIC_SET,
		.doit = wc_genl_fabric_set,
		/* the caller's netns; the fabric's is checked in the handler */
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = WORMCAST_CMD_TABLE_NEW,
		.doit = wc_genl_table_new,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = WORMCAST_CMD_TABLE_CHUNK,
		.doit = wc_genl_table_chunk,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = WORMCAST_CMD_TABLE_COMMIT,
		.doit = wc_genl_table_commit,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = WORMCAST_CMD_TABLE_ABORT,
		.doit = wc_genl_table_abort,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = WORMCAST_CMD_TABLE_GET,
		.doit = wc_genl_table_get,
		.dumpit = wc_genl_table_dump,
		.done = wc_genl_table_dump_done,
	},
	{
		.cmd = WORMCAST_CMD_LINKS_GET,
		.dumpit = wc_genl_links_dump,
	},
	{
		.cmd = WORMCAST_CMD_FAULT_ADD,
		.doit = wc_genl_fault_add,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = WORMCAST_CMD_FAULT_DEL,
		.doit = wc_genl_fault_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = WORMCAST_CMD_FAULT_GET,
		.dumpit = wc_genl_fault_dump,
	},
	{
		.cmd = WORMCAST_CMD_GROUPS_GET,
		.dumpit = wc_genl_groups_dump,
	},
};

static struct genl_family wc_genl_family __ro_after_init = {
	.name = WORMCAST_GENL_NAME,
	.version = WORMCAST_GENL_VERSION,
	.maxattr = WORMCAST_A_MAX,
	.policy = wc_genl_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = wc_genl_ops,
	.n_ops = ARRAY_SIZE(wc_genl_ops),
	.mcgrps = wc_mcgrps,
	.n_mcgrps = ARRAY_SIZE(wc_mcgrps),
};

int wc_genl_init(void)
{
	return genl_register_family(&wc_genl_family);
}

void wc_genl_exit(void)
{
	genl_unregister_family(&wc_genl_family);
}
