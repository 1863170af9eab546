// SPDX-License-Identifier: GPL-2.0
/*
 * A fabric's parameters as the two netlink interfaces carry them: the
 * IFLA_WORMCAST_* attributes of the link kind ("ip -d link show") and the
 * WORMCAST_PARAM_* nest of the generic netlink family (FABRIC_GET) hold
 * the same values under different numbers.  One table pairs them and one
 * function fills either, so the two replies cannot drift apart; the
 * checks that both writers (link creation and FABRIC_SET) apply to the
 * same value live here too.
 */
#include <linux/if_vlan.h>

#include "wormcast.h"

struct wc_param_attr {
	u16 genl;	/* WORMCAST_PARAM_* */
	u16 ifla;	/* IFLA_WORMCAST_* */
	u8 nla_type;	/* NLA_U8 or NLA_U32, the same in both */
};

/* In the order of the uapi enums, which "ip -d link show" keeps. */
static const struct wc_param_attr wc_param_attrs[] = {
	{ WORMCAST_PARAM_FLIT_BYTES, IFLA_WORMCAST_FLIT_BYTES, NLA_U32 },
	{ WORMCAST_PARAM_BUF_FLITS, IFLA_WORMCAST_BUF_FLITS, NLA_U32 },
	{ WORMCAST_PARAM_VCS, IFLA_WORMCAST_VCS, NLA_U32 },
	{ WORMCAST_PARAM_INJ_CHANNELS, IFLA_WORMCAST_INJ_CHANNELS, NLA_U32 },
	{ WORMCAST_PARAM_CONS_CHANNELS, IFLA_WORMCAST_CONS_CHANNELS, NLA_U32 },
	{ WORMCAST_PARAM_ROUTER_DELAY, IFLA_WORMCAST_ROUTER_DELAY, NLA_U32 },
	{ WORMCAST_PARAM_LINK_DELAY, IFLA_WORMCAST_LINK_DELAY, NLA_U32 },
	{ WORMCAST_PARAM_STARTUP, IFLA_WORMCAST_STARTUP, NLA_U32 },
	{ WORMCAST_PARAM_CYCLE_NS, IFLA_WORMCAST_CYCLE_NS, NLA_U32 },
	{ WORMCAST_PARAM_REPLICATION, IFLA_WORMCAST_REPLICATION, NLA_U8 },
	{ WORMCAST_PARAM_WATCHDOG, IFLA_WORMCAST_WATCHDOG, NLA_U32 },
	{ WORMCAST_PARAM_QUEUE_LEN, IFLA_WORMCAST_QUEUE_LEN, NLA_U32 },
	{ WORMCAST_PARAM_MULTICAST, IFLA_WORMCAST_MULTICAST, NLA_U32 },
	{ WORMCAST_PARAM_FAULT_INFO, IFLA_WORMCAST_FAULT_INFO, NLA_U8 },
	{ WORMCAST_PARAM_SEND_OVH, IFLA_WORMCAST_SEND_OVH, NLA_U32 },
	{ WORMCAST_PARAM_RECV_OVH, IFLA_WORMCAST_RECV_OVH, NLA_U32 },
};

static_assert(ARRAY_SIZE(wc_param_attrs) == WORMCAST_PARAM_MAX,
	      "every WORMCAST_PARAM_* needs a row");

/* The value of parameter @param (WORMCAST_PARAM_*) of @f. */
static u32 wc_param_value(const struct wc_fabric *f, u16 param)
{
	const struct wc_engine_params *p = &f->params;

	switch (param) {
	case WORMCAST_PARAM_FLIT_BYTES:
		return p->flit_bytes;
	case WORMCAST_PARAM_BUF_FLITS:
		return p->buf_flits;
	case WORMCAST_PARAM_VCS:
		return p->vcs;
	case WORMCAST_PARAM_INJ_CHANNELS:
		return p->inj_channels;
	case WORMCAST_PARAM_CONS_CHANNELS:
		return p->cons_channels;
	case WORMCAST_PARAM_ROUTER_DELAY:
		return p->router_delay;
	case WORMCAST_PARAM_LINK_DELAY:
		return p->link_delay;
	case WORMCAST_PARAM_STARTUP:
		return p->startup;
	case WORMCAST_PARAM_CYCLE_NS:
		return READ_ONCE(f->cycle_ns);
	case WORMCAST_PARAM_REPLICATION:
		return p->replication;
	case WORMCAST_PARAM_WATCHDOG:
		return p->watchdog;
	case WORMCAST_PARAM_QUEUE_LEN:
		return f->queue_len;
	case WORMCAST_PARAM_MULTICAST:
		return READ_ONCE(f->mcast);
	case WORMCAST_PARAM_FAULT_INFO:
		return READ_ONCE(f->fault_info);
	case WORMCAST_PARAM_SEND_OVH:
		return READ_ONCE(f->send_ovh);
	case WORMCAST_PARAM_RECV_OVH:
		return READ_ONCE(f->recv_ovh);
	}
	return 0;
}

/*
 * Put every parameter of @f into @skb, as IFLA_WORMCAST_* attributes if
 * @link, else as WORMCAST_PARAM_* ones (into a nest the caller opened).
 */
int wc_params_put(struct sk_buff *skb, const struct wc_fabric *f, bool link)
{
	const struct wc_param_attr *a;
	int type, err;
	u32 v;

	for (a = wc_param_attrs; a < wc_param_attrs + ARRAY_SIZE(wc_param_attrs); a++) {
		type = link ? a->ifla : a->genl;
		v = wc_param_value(f, a->genl);
		err = a->nla_type == NLA_U8 ? nla_put_u8(skb, type, v) :
					      nla_put_u32(skb, type, v);
		if (err)
			return err;
	}
	return 0;
}

/* Room wc_params_put() needs. */
size_t wc_params_size(void)
{
	const struct wc_param_attr *a;
	size_t size = 0;

	for (a = wc_param_attrs; a < wc_param_attrs + ARRAY_SIZE(wc_param_attrs); a++)
		size += nla_total_size(a->nla_type == NLA_U8 ? sizeof(u8) : sizeof(u32));
	return size;
}

/* cycle_ns as given in @a: 0 (virtual time) up to WC_CYCLE_NS_MAX. */
int wc_param_check_cycle_ns(const struct nlattr *a,
			    struct netlink_ext_ack *extack)
{
	if (nla_get_u32(a) > WC_CYCLE_NS_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "cycle_ns must be at most 1000000000");
		return -EINVAL;
	}
	return 0;
}

/* send_ovh or recv_ovh as given in @a: 0 up to WC_OVH_MAX cycles. */
int wc_param_check_ovh(const struct nlattr *a, struct netlink_ext_ack *extack)
{
	if (nla_get_u32(a) > WC_OVH_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "send_ovh and recv_ovh must be at most 1000000 cycles");
		return -EINVAL;
	}
	return 0;
}

/*
 * The largest MTU a node device of a fabric of @params under @scheme may
 * have.  Under ftmesh, the largest frame (the MTU, an Ethernet header and
 * a VLAN tag) must fit in the buffers as a whole worm (wc_ftm_max_frame());
 * the core refuses a larger MTU with an extack message ("mtu greater than
 * device maximum").  No limit under any other scheme.
 */
u32 wc_node_max_mtu(u32 scheme, const struct wc_engine_params *params)
{
	u32 frame = wc_ftm_max_frame(params);

	if (scheme != WORMCAST_MCAST_FTMESH)
		return ETH_MAX_MTU;
	return frame > VLAN_ETH_HLEN ?
	       min_t(u32, frame - VLAN_ETH_HLEN, ETH_MAX_MTU) : 0;
}

/*
 * Multicast scheme in @a for a fabric of @topo and @params whose node
 * devices have an MTU of at most @mtu.
 */
int wc_param_check_mcast(const struct nlattr *a, const struct wc_topo *topo,
			 const struct wc_engine_params *params, u32 mtu,
			 struct netlink_ext_ack *extack)
{
	const char *why = NULL;
	u32 scheme = nla_get_u32(a);

	if (wc_mcast_check(scheme, topo, params, &why)) {
		wc_extack_msg(extack, why);
		NL_SET_BAD_ATTR(extack, a);
		return -EINVAL;
	}
	if (mtu > wc_node_max_mtu(scheme, params)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "ftmesh needs buffers that hold a whole worm of the largest frame: buf_flits must be at least ceil((MTU + 18) / flit_bytes) + 2 (50 for MTU 1500 and 32-byte flits)");
		return -EINVAL;
	}
	return 0;
}
