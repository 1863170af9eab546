// SPDX-License-Identifier: GPL-2.0
/*
 * rtnl_link_ops of kind "wormcast": "ip link add NAME type wormcast ..."
 * creates a fabric (the device NAME) and one node device per emulated node;
 * deleting any of them deletes the whole fabric.
 */
#include <linux/etherdevice.h>
#include <linux/moduleparam.h>
#include <linux/user_namespace.h>
#include <net/net_namespace.h>

#include "wormcast.h"

LIST_HEAD(wc_fabrics);		/* under RTNL */

/*
 * Fabrics in a network namespace owned by a user namespace other than the
 * initial one ("unshare -Urn") may be created by unprivileged users.  Each
 * node is a net device (about 40 KiB with its sysfs and queues) registered
 * under RTNL: the nodes of all such fabrics of one user (the owner of the
 * outermost user namespace) are capped, so that nobody can fill the host's
 * memory or hold RTNL for long.  Memory is also charged to the creator's
 * memory cgroup.
 */
static unsigned int max_userns_nodes = 1024;
module_param(max_userns_nodes, uint, 0644);
MODULE_PARM_DESC(max_userns_nodes,
		 "nodes one user may have in fabrics of user-owned network namespaces (default 1024)");

static const struct nla_policy wc_link_policy[IFLA_WORMCAST_MAX + 1] = {
	[IFLA_WORMCAST_TOPOLOGY] = NLA_POLICY_RANGE(NLA_U32, WORMCAST_TOPO_MESH,
						    WORMCAST_TOPO_STAR),
	[IFLA_WORMCAST_DIMS] = { .type = NLA_BINARY,
				 .len = WC_MAX_DIMS * sizeof(u32) },
	[IFLA_WORMCAST_NODE_NAME] = { .type = NLA_NUL_STRING,
				      .len = IFNAMSIZ - 1 },
	[IFLA_WORMCAST_FLIT_BYTES] = { .type = NLA_U32 },
	[IFLA_WORMCAST_BUF_FLITS] = { .type = NLA_U32 },
	[IFLA_WORMCAST_VCS] = { .type = NLA_U32 },
	[IFLA_WORMCAST_INJ_CHANNELS] = { .type = NLA_U32 },
	[IFLA_WORMCAST_CONS_CHANNELS] = { .type = NLA_U32 },
	[IFLA_WORMCAST_ROUTER_DELAY] = { .type = NLA_U32 },
	[IFLA_WORMCAST_LINK_DELAY] = { .type = NLA_U32 },
	[IFLA_WORMCAST_STARTUP] = { .type = NLA_U32 },
	[IFLA_WORMCAST_CYCLE_NS] = { .type = NLA_U32 },
	[IFLA_WORMCAST_REPLICATION] = NLA_POLICY_MAX(NLA_U8, WORMCAST_REPL_ASYNC),
	[IFLA_WORMCAST_WATCHDOG] = { .type = NLA_U32 },
	[IFLA_WORMCAST_QUEUE_LEN] = { .type = NLA_U32 },
	[IFLA_WORMCAST_MULTICAST] = NLA_POLICY_MAX(NLA_U32, WORMCAST_MCAST_MAX),
	[IFLA_WORMCAST_FAULT_INFO] = NLA_POLICY_MAX(NLA_U8,
						    WORMCAST_FAULT_INFO_LOCAL),
	[IFLA_WORMCAST_SEND_OVH] = { .type = NLA_U32 },
	[IFLA_WORMCAST_RECV_OVH] = { .type = NLA_U32 },
	[IFLA_WORMCAST_ROLE] = { .type = NLA_REJECT,
				 .reject_message = "attribute is read-only" },
	[IFLA_WORMCAST_FABRIC_ID] = { .type = NLA_REJECT,
				      .reject_message = "attribute is read-only" },
	[IFLA_WORMCAST_NNODES] = { .type = NLA_REJECT,
				   .reject_message = "attribute is read-only" },
	[IFLA_WORMCAST_NODE_ID] = { .type = NLA_REJECT,
				    .reject_message = "attribute is read-only" },
	[IFLA_WORMCAST_COORDS] = { .type = NLA_REJECT,
				   .reject_message = "attribute is read-only" },
	[IFLA_WORMCAST_FABRIC_IFINDEX] = { .type = NLA_REJECT,
					   .reject_message = "attribute is read-only" },
};

bool wc_is_wormcast_dev(const struct net_device *dev)
{
	return dev->rtnl_link_ops == &wc_link_ops;
}

/*
 * rtnetlink parses IFLA_INFO_DATA leniently (nla_parse_nested_deprecated):
 * unknown types, wrong sizes and trailing bytes would pass.  Validate the
 * nest again, strictly, against the same policy.
 */
static int wc_validate_strict(struct nlattr *tb[],
			      struct netlink_ext_ack *extack)
{
	struct nlattr *info[IFLA_INFO_MAX + 1];

	if (!tb[IFLA_LINKINFO] ||
	    nla_parse_nested_deprecated(info, IFLA_INFO_MAX, tb[IFLA_LINKINFO],
					NULL, NULL) ||
	    !info[IFLA_INFO_DATA])
		return 0;
	return nla_validate_nested(info[IFLA_INFO_DATA], IFLA_WORMCAST_MAX,
				   wc_link_policy, extack);
}

static int wc_validate(struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	int err, len;

	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_ADDRESS],
				    "wormcast MAC addresses are derived from the fabric and node ids");
		return -EINVAL;
	}
	err = wc_validate_strict(tb, extack);
	if (err)
		return err;
	if (!data || !data[IFLA_WORMCAST_TOPOLOGY]) {
		NL_SET_ERR_MSG(extack, "topology is required (mesh, torus, hypercube or star)");
		return -EINVAL;
	}
	if (!data[IFLA_WORMCAST_DIMS]) {
		NL_SET_ERR_MSG(extack, "dims are required (sizes, dimension or order)");
		return -EINVAL;
	}
	len = nla_len(data[IFLA_WORMCAST_DIMS]);
	if (len < (int)sizeof(u32) || len % sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_WORMCAST_DIMS],
				    "dims must be 1 to 3 u32 values");
		return -EINVAL;
	}
	return 0;
}

/* Everything "ip link add" asks for, validated. */
struct wc_link_config {
	struct wc_topo topo;
	struct wc_engine_params params;
	u32 queue_len;
	u32 cycle_ns;
	u32 mcast;		/* enum wormcast_mcast_scheme */
	u8 fault_info;		/* enum wormcast_fault_info */
	u32 send_ovh, recv_ovh;	/* cycles */
	char prefix[IFNAMSIZ];	/* node names: prefix, node id, suffix */
	char suffix[IFNAMSIZ];
};

static void wc_get_u32(struct nlattr *data[], int type, u32 *val)
{
	if (data[type])
		*val = nla_get_u32(data[type]);
}

static int wc_parse_config(struct nlattr *data[], struct wc_link_config *c,
			   struct netlink_ext_ack *extack)
{
	u32 dims[WC_MAX_DIMS] = { 0 };
	struct nlattr *a = data[IFLA_WORMCAST_DIMS];
	u32 kind = nla_get_u32(data[IFLA_WORMCAST_TOPOLOGY]);
	u32 ndims = nla_len(a) / sizeof(u32);
	const char *why = NULL;
	int err;

	memcpy(dims, nla_data(a), ndims * sizeof(u32));
	if ((kind == WORMCAST_TOPO_HYPERCUBE || kind == WORMCAST_TOPO_STAR) &&
	    ndims != 1) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "hypercube and star take a single value (dimension, order n)");
		return -EINVAL;
	}
	err = wc_topo_init(&c->topo, kind, ndims, dims, &why);
	if (err) {
		wc_extack_msg(extack, why ? why : "bad topology");
		NL_SET_BAD_ATTR(extack, a);
		return err;
	}

	wc_engine_params_default(&c->params, &c->topo);
	wc_get_u32(data, IFLA_WORMCAST_FLIT_BYTES, &c->params.flit_bytes);
	wc_get_u32(data, IFLA_WORMCAST_BUF_FLITS, &c->params.buf_flits);
	wc_get_u32(data, IFLA_WORMCAST_VCS, &c->params.vcs);
	wc_get_u32(data, IFLA_WORMCAST_INJ_CHANNELS, &c->params.inj_channels);
	wc_get_u32(data, IFLA_WORMCAST_CONS_CHANNELS,
		   &c->params.cons_channels);
	wc_get_u32(data, IFLA_WORMCAST_ROUTER_DELAY, &c->params.router_delay);
	wc_get_u32(data, IFLA_WORMCAST_LINK_DELAY, &c->params.link_delay);
	wc_get_u32(data, IFLA_WORMCAST_STARTUP, &c->params.startup);
	wc_get_u32(data, IFLA_WORMCAST_WATCHDOG, &c->params.watchdog);
	if (data[IFLA_WORMCAST_REPLICATION])
		c->params.replication =
			nla_get_u8(data[IFLA_WORMCAST_REPLICATION]);
	err = wc_engine_params_check(&c->params, &c->topo, &why);
	if (!err && wc_algo_unicast_based.check)
		err = wc_algo_unicast_based.check(&c->topo, &c->params, &why);
	if (err) {
		wc_extack_msg(extack, why ? why : "bad engine parameters");
		return err;
	}

	c->queue_len = WC_QUEUE_LEN_DEFAULT;
	wc_get_u32(data, IFLA_WORMCAST_QUEUE_LEN, &c->queue_len);
	if (c->queue_len < WC_QUEUE_LEN_MIN ||
	    c->queue_len > WC_QUEUE_LEN_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_WORMCAST_QUEUE_LEN],
				    "queue_len must be 2 to 65536 frames");
		return -EINVAL;
	}
	c->cycle_ns = 0;
	if (data[IFLA_WORMCAST_CYCLE_NS]) {
		err = wc_param_check_cycle_ns(data[IFLA_WORMCAST_CYCLE_NS],
					      extack);
		if (err)
			return err;
		c->cycle_ns = nla_get_u32(data[IFLA_WORMCAST_CYCLE_NS]);
	}
	c->mcast = WORMCAST_MCAST_UNICAST;
	if (data[IFLA_WORMCAST_MULTICAST]) {
		/* node devices start with Ethernet's MTU */
		err = wc_param_check_mcast(data[IFLA_WORMCAST_MULTICAST],
					   &c->topo, &c->params, ETH_DATA_LEN,
					   extack);
		if (err)
			return err;
		c->mcast = nla_get_u32(data[IFLA_WORMCAST_MULTICAST]);
	}
	c->fault_info = WORMCAST_FAULT_INFO_GLOBAL;
	if (data[IFLA_WORMCAST_FAULT_INFO])
		c->fault_info = nla_get_u8(data[IFLA_WORMCAST_FAULT_INFO]);
	if (data[IFLA_WORMCAST_SEND_OVH]) {
		err = wc_param_check_ovh(data[IFLA_WORMCAST_SEND_OVH], extack);
		if (err)
			return err;
		c->send_ovh = nla_get_u32(data[IFLA_WORMCAST_SEND_OVH]);
	}
	if (data[IFLA_WORMCAST_RECV_OVH]) {
		err = wc_param_check_ovh(data[IFLA_WORMCAST_RECV_OVH], extack);
		if (err)
			return err;
		c->recv_ovh = nla_get_u32(data[IFLA_WORMCAST_RECV_OVH]);
	}
	return 0;
}

/* Split a node name pattern with exactly one "%d" and no other '%'. */
static int wc_parse_pattern(struct nlattr *a, struct wc_link_config *c,
			    struct netlink_ext_ack *extack)
{
	const char *pat = nla_data(a);
	const char *pd = strstr(pat, "%d");

	if (!pd || strchr(pd + 2, '%') || memchr(pat, '%', pd - pat)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "nodename must contain exactly one %d and no other %");
		return -EINVAL;
	}
	memcpy(c->prefix, pat, pd - pat);
	c->prefix[pd - pat] = '\0';
	strscpy(c->suffix, pd + 2, sizeof(c->suffix));
	return 0;
}

static void wc_node_name(const struct wc_link_config *c, u32 node, char *name)
{
	snprintf(name, IFNAMSIZ, "%s%u%s", c->prefix, node, c->suffix);
}

/* Node names must fit, be valid and be free in @net. */
static int wc_check_node_names(struct net *net, const struct wc_link_config *c,
			       u32 nnodes, struct nlattr *a,
			       struct netlink_ext_ack *extack)
{
	char last[24];
	char name[IFNAMSIZ];
	u32 n;

	if (snprintf(last, sizeof(last), "%s%u%s", c->prefix, nnodes - 1,
		     c->suffix) >= IFNAMSIZ) {
		wc_extack_msg(extack, a ?
			      "node names would be longer than 15 characters" :
			      "node names would be longer than 15 characters: use a shorter fabric name or nodename PATTERN");
		NL_SET_BAD_ATTR(extack, a);
		return -ENAMETOOLONG;
	}
	for (n = 0; n < nnodes; n++) {
		wc_node_name(c, n, name);
		if (!dev_valid_name(name)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "node name is not a valid interface name");
			return -EINVAL;
		}
		if (__dev_get_by_name(net, name)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a node device name is already in use");
			return -EEXIST;
		}
	}
	return 0;
}

/*
 * The user accountable for fabrics in @net: the owner of the outermost
 * user namespace below the initial one (nested namespaces of one user
 * count as that user).  INVALID_UID for namespaces of the initial one.
 */
static kuid_t wc_userns_owner(const struct net *net)
{
	const struct user_namespace *ns = net->user_ns;

	if (ns == &init_user_ns)
		return INVALID_UID;
	while (ns->parent != &init_user_ns)
		ns = ns->parent;
	return ns->owner;
}

/* Enforce max_userns_nodes for a new fabric of @nnodes in @net (RTNL). */
static int wc_check_userns_quota(struct net *net, u32 nnodes,
				 kuid_t *owner, struct netlink_ext_ack *extack)
{
	unsigned int max = READ_ONCE(max_userns_nodes);
	struct wc_fabric *f;
	u64 used = nnodes;

	*owner = wc_userns_owner(net);
	if (!uid_valid(*owner))
		return 0;
	list_for_each_entry(f, &wc_fabrics, list)
		if (uid_eq(f->owner, *owner))
			used += f->nnodes;
	if (used > max) {
		NL_SET_ERR_MSG(extack,
			       "too many nodes: fabrics in user-owned namespaces are limited to max_userns_nodes (a module parameter, default 1024) nodes per user");
		return -EDQUOT;
	}
	return 0;
}

static void wc_dellink(struct net_device *dev, struct list_head *head);

static int wc_newlink(struct net *src_net, struct net_device *dev,
		      struct nlattr *tb[], struct nlattr *data[],
		      struct netlink_ext_ack *extack)
{
	struct wc_priv *fp = wc_priv(dev);
	struct net *net = dev_net(dev);
	struct wc_link_config *c;
	struct wc_fabric *f;
	const char *why = NULL;
	u8 mac[ETH_ALEN];
	LIST_HEAD(kill);
	kuid_t owner;
	int err;
	u32 n;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	err = wc_parse_config(data, c, extack);
	if (!err && data[IFLA_WORMCAST_NODE_NAME])
		err = wc_parse_pattern(data[IFLA_WORMCAST_NODE_NAME], c,
				       extack);
	if (!err)
		err = wc_check_userns_quota(net, c->topo.nnodes, &owner,
					    extack);
	if (err)
		goto out;

	f = wc_fabric_alloc(&c->topo, &c->params, c->queue_len, c->cycle_ns,
			    &why);
	if (IS_ERR(f)) {
		wc_extack_msg(extack, why);
		err = PTR_ERR(f);
		goto out;
	}
	fp->fabric = f;
	fp->node = NULL;
	f->dev = dev;
	f->mcast = c->mcast;
	f->fault_info = c->fault_info;
	f->send_ovh = c->send_ovh;
	f->recv_ovh = c->recv_ovh;
	f->owner = owner;
	wc_mac_make(mac, f->id, WC_MAC_FABRIC_NODE);
	eth_hw_addr_set(dev, mac);
	err = register_netdevice(dev);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot register the fabric device");
		wc_fabric_put(f);
		goto out;
	}
	wc_dev_attach(dev);
	f->ifindex = dev->ifindex;
	wc_fabric_start(f);

	/* The fabric device's name is final now (it may have been a
	 * "wormcast%d" template): default node names follow it.
	 */
	if (!data[IFLA_WORMCAST_NODE_NAME]) {
		snprintf(c->prefix, sizeof(c->prefix), "%.14sn", dev->name);
		c->suffix[0] = '\0';
	}
	err = wc_check_node_names(net, c, f->nnodes,
				  data[IFLA_WORMCAST_NODE_NAME], extack);
	if (err)
		goto unwind;

	for (n = 0; n < f->nnodes; n++) {
		struct wc_node *node = &f->nodes[n];
		struct net_device *nd;
		char name[IFNAMSIZ];
		struct wc_priv *np;

		wc_node_name(c, n, name);
		nd = alloc_netdev(sizeof(struct wc_priv), name,
				  data[IFLA_WORMCAST_NODE_NAME] ?
				  NET_NAME_USER : NET_NAME_PREDICTABLE,
				  wc_node_dev_setup);
		if (!nd) {
			NL_SET_ERR_MSG(extack, "out of memory for node devices");
			err = -ENOMEM;
			goto unwind;
		}
		dev_net_set(nd, net);
		nd->rtnl_link_ops = &wc_link_ops;
		np = wc_priv(nd);
		np->fabric = f;
		np->node = node;
		wc_mac_make(mac, f->id, n);
		eth_hw_addr_set(nd, mac);
		nd->max_mtu = wc_node_max_mtu(f->mcast, &f->params);
		err = register_netdevice(nd);
		if (err) {
			NL_SET_ERR_MSG(extack, "cannot register a node device");
			free_netdev(nd);
			goto unwind;
		}
		wc_dev_attach(nd);
		WRITE_ONCE(node->dev, nd);
	}

	list_add_tail(&f->list, &wc_fabrics);
	wc_genl_notify(f, WORMCAST_CMD_FABRIC_NEW);
	wc_fabric_put(f);		/* the devices hold it now */
	kfree(c);
	return 0;

unwind:
	/* rtnl_newlink_create() frees @dev after we unregistered it */
	wc_dellink(dev, &kill);
	unregister_netdevice_many(&kill);
	wc_fabric_put(f);
out:
	kfree(c);
	return err;
}

/*
 * Delete the whole fabric of @dev.  Called for every device of the fabric
 * by rtnl_link_unregister() and netns teardown: only the first call acts.
 */
static void wc_dellink(struct net_device *dev, struct list_head *head)
{
	struct wc_fabric *f = wc_priv(dev)->fabric;
	u32 n;

	if (f->dying)
		return;
	WRITE_ONCE(f->dying, true);
	if (!list_empty(&f->list)) {
		list_del_init(&f->list);
		wc_genl_notify(f, WORMCAST_CMD_FABRIC_DEL);
	}
	wc_fabric_stop(f);
	for (n = 0; n < f->nnodes; n++) {
		struct net_device *nd = f->nodes[n].dev;

		if (nd)
			unregister_netdevice_queue(nd, head);
	}
	unregister_netdevice_queue(f->dev, head);
}

static size_t wc_get_size(const struct net_device *dev)
{
	return nla_total_size(sizeof(u8)) +		/* ROLE */
	       nla_total_size(sizeof(u32)) * 3 +	/* FABRIC_ID, TOPOLOGY, NNODES */
	       nla_total_size(sizeof(u32) * WC_MAX_DIMS) +	/* DIMS */
	       wc_params_size() +
	       nla_total_size(sizeof(u32)) * 2 +	/* NODE_ID, FABRIC_IFINDEX */
	       nla_total_size(sizeof(u32) * WC_MAX_COORDS);	/* COORDS */
}

static int wc_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct wc_priv *p = wc_priv(dev);
	const struct wc_fabric *f = p->fabric;
	u32 coords[WC_MAX_COORDS];

	if (nla_put_u8(skb, IFLA_WORMCAST_ROLE,
		       p->node ? WORMCAST_ROLE_NODE : WORMCAST_ROLE_FABRIC) ||
	    nla_put_u32(skb, IFLA_WORMCAST_FABRIC_ID, f->id) ||
	    nla_put_u32(skb, IFLA_WORMCAST_TOPOLOGY, f->topo.kind) ||
	    nla_put(skb, IFLA_WORMCAST_DIMS, f->topo.ndims * sizeof(u32),
		    f->topo.dims) ||
	    nla_put_u32(skb, IFLA_WORMCAST_NNODES, f->nnodes) ||
	    wc_params_put(skb, f, true))
		return -EMSGSIZE;
	if (!p->node)
		return 0;
	wc_topo_coords(&f->topo, p->node->id, coords);
	if (nla_put_u32(skb, IFLA_WORMCAST_NODE_ID, p->node->id) ||
	    nla_put(skb, IFLA_WORMCAST_COORDS, f->topo.ncoords * sizeof(u32),
		    coords) ||
	    nla_put_u32(skb, IFLA_WORMCAST_FABRIC_IFINDEX, f->ifindex))
		return -EMSGSIZE;
	return 0;
}

/* Node devices may live in other netns: point at the fabric's. */
static struct net *wc_get_link_net(const struct net_device *dev)
{
	return dev_net(wc_priv(dev)->fabric->dev);
}

struct rtnl_link_ops wc_link_ops __read_mostly = {
	.kind = WORMCAST_KIND,
	.priv_size = sizeof(struct wc_priv),
	.setup = wc_fabric_dev_setup,
	.maxtype = IFLA_WORMCAST_MAX,
	.policy = wc_link_policy,
	.validate = wc_validate,
	.newlink = wc_newlink,
	.dellink = wc_dellink,
	.get_size = wc_get_size,
	.fill_info = wc_fill_info,
	.get_link_net = wc_get_link_net,
	/*
	 * No netns_refund: when a namespace holding a node device dies, the
	 * device is deleted with it, and so is its whole fabric (as a veth
	 * pair goes when either end's namespace dies).  Moving devices into
	 * init_net instead would let a user namespace leak devices there.
	 */
};
