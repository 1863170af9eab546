// SPDX-License-Identifier: GPL-2.0
/*
 * wormcastd: the wormcast daemon.  Watches fabrics and installs the routing
 * tables their multicast scheme needs (Documentation/tools.rst).
 *
 *  - at start, and whenever something may have changed, reads every fabric
 *    (FABRIC_GET dump): scheme (WORMCAST_PARAM_MULTICAST), table generation
 *    and tables.  A fabric whose scheme is not unicast and that has no
 *    TREES table of that scheme at the current generation gets one:
 *    computed with wc_trees_table() (options from wormcastd.conf) and
 *    installed by a transaction (TABLE_NEW, TABLE_CHUNKs, TABLE_COMMIT;
 *    daemon/push.c), retried when the generation moves;
 *  - on an ocms or otms fabric, once its labels table is in, plans the
 *    multicast star of every (source, group) with the library's planner
 *    (pathplan.h) from a GROUPS_GET dump and pushes them as a PLANS table
 *    (sync_plans()); again when the membership generation or the labels
 *    table changes (GROUPS_GET events);
 *  - live faults (Documentation/faults.rst, "DSTM around faulty links"):
 *    learns each fabric's faults with FAULT_GET when it first syncs it and
 *    again after FAULT_ADD or FAULT_DEL events (a burst of events read
 *    together gives one FAULT_GET and one table); a two-tree table
 *    (dstm-1, dstm-2, rt) carries the faulty links, a spam table a tree
 *    of the live links, failed nodes as leaves, and the dead links it
 *    avoids ("SPAM around faulty links and nodes"), a labels table a
 *    Hamiltonian path around them, failed nodes at its ends, and the
 *    links ("Label schemes around faulty links"), and an ftmesh
 *    table the fault information of a 2-D mesh (blocks, safety vectors,
 *    records: ftm_table.h) computed from the faulty nodes and links, so
 *    when they change the table is computed and pushed again (one log
 *    line, with the time from the first event to the commit); an ftmesh
 *    table this daemon did not push (a restart) is read and compared
 *    with the one it computes, and kept when equal;
 *  - follows the "events" multicast group (FABRIC_NEW, FABRIC_DEL,
 *    FABRIC_SET, TABLE_COMMIT, FAULT_ADD, FAULT_DEL) and the generic netlink controller, so that loading or
 *    unloading the module later is noticed; FABRIC_SET sends no event, so
 *    the fabrics are also read every poll_interval seconds;
 *  - watches wormcast links with libnl's route cache manager and logs node
 *    devices appearing, leaving (deleted or moved to another namespace),
 *    going up or down, and renamed.
 *
 * It never changes a fabric's scheme.  Logs to stderr, or syslog with -s
 * (always when daemonized with -d).  SIGTERM and SIGINT end it cleanly
 * (signalfd), SIGHUP reloads the configuration; a transaction left open by a kill is replaced by the next
 * TABLE_NEW, and a restarted daemon reads everything again.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <linux/if.h>
#include <linux/netlink.h>

#include <netlink/netlink.h>
#include <netlink/cache.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/route/link.h>

#include <linux/wormcast.h>
#include "topology.h"
#include "trees_table.h"
#include "sptree.h"
#include "labels_table.h"
#include "bcast_table.h"
#include "ftm_table.h"
#include "plans_table.h"
#include "plans.h"
#include "mcast_kind.h"
#include "config.h"
#include "push.h"

#define WORMCASTD_VERSION "0.2"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define MAX_FABRICS 256

/* What we remember of a fabric between syncs: no push loops on refusals. */
/* Sources that sent to group @addr without a plan (ascending node ids). */
struct wcd_senders {
	uint8_t addr[6];
	uint32_t n;
	uint32_t *src;
};

struct fabric_mem {
	uint32_t ifindex;
	bool failed;		/* the last push for (scheme, gen) failed */
	uint32_t failed_scheme, failed_gen;
	bool logged_state;	/* its state was logged once */
	uint32_t logged_scheme, logged_gen;
	enum wcd_action logged_action;
	bool pushed;		/* we pushed the table (scheme, its gen) */
	uint32_t pushed_scheme, pushed_gen;
	struct wc_trees_opts pushed_opts;	/* with these options */
	/* ocms/otms: what the plans table we pushed was computed from */
	bool plans_valid;
	uint32_t plans_scheme, plans_groups_gen, plans_labels_gen, plans_gen;
	bool plans_failed;	/* not retried until an input moves */
	/* ocms/otms, lazy: the sources the kernel reported, per group */
	struct wcd_senders *senders;
	uint32_t nsenders;
	struct wcd_faults faults;	/* live faults, from FAULT_GET */
	uint32_t failed_faults_seq;
	/* the faults the table we pushed (pushed_gen) was computed from */
	uint32_t pushed_faults_seq;
	struct wcd_ftm_opts pushed_ftm;	/* ftmesh: detour resolved (0/1) */
	uint32_t pushed_fault_info;	/* two trees: rebuilt under global only */
	/*
	 * The last fault-free trees table computed (malloc'ed): a fault
	 * changes only the faulty links, so the trees (an "rt" pair takes
	 * 100 trials) are not computed again.
	 */
	void *base;
	size_t base_len;
	uint32_t base_scheme, base_topology, base_dims[3];
	struct wc_trees_opts base_opts;
	struct wc_trees_info base_info;
};

struct daemon_state {
	bool use_syslog;
	struct nl_sock *req;		/* requests: family lookup, dumps */
	struct nl_sock *ev;		/* multicast: events and controller */
	int family;			/* wormcast family id, 0 = not loaded */
	bool family_changed;		/* controller said NEW/DEL family */
	uint32_t last_listed;		/* ifindex of the last dump entry */
	struct nl_sock *route;		/* rtnetlink: the cache manager's */
	struct nl_sock *resync;		/* rtnetlink: refills after overruns */
	struct nl_cache_mngr *mngr;
	struct nl_cache *links;
	int sigfd;
	struct wcd_config cfg;
	const char *config_path;
	bool config_given;		/* -c: the file must exist */
	bool want_sync;			/* read the fabrics again soon */
	/* the fabrics of the last dump */
	struct wcd_fabric_view fab[MAX_FABRICS];
	uint32_t nfab;
	bool fab_overflow;
	struct fabric_mem mem[MAX_FABRICS];
	uint32_t nmem;
	char ext[256];			/* the last request's extack message */
};

static void logmsg(const struct daemon_state *st, int prio, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

static void logmsg(const struct daemon_state *st, int prio, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (st->use_syslog) {
		vsyslog(prio, fmt, ap);
	} else {
		fputs("wormcastd: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

/* ---------------------------------------------------------- fabrics */

static struct nla_policy fabric_policy[WORMCAST_A_MAX + 1] = {
	[WORMCAST_A_FABRIC_IFINDEX] = { .type = NLA_U32 },
	[WORMCAST_A_FABRIC_NAME] = { .type = NLA_STRING },
	[WORMCAST_A_FABRIC_ID] = { .type = NLA_U32 },
	[WORMCAST_A_TOPOLOGY] = { .type = NLA_U32 },
	[WORMCAST_A_NNODES] = { .type = NLA_U32 },
	[WORMCAST_A_PARAMS] = { .type = NLA_NESTED },
	[WORMCAST_A_NODES] = { .type = NLA_NESTED },
	[WORMCAST_A_COUNTERS] = { .type = NLA_NESTED },
	[WORMCAST_A_ENGINE] = { .type = NLA_NESTED },
	[WORMCAST_A_DIMS] = { .type = NLA_UNSPEC },
	[WORMCAST_A_TABLE_KIND] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_GEN] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_SIZE] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_TXN] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_OFFSET] = { .type = NLA_U32 },
	[WORMCAST_A_TABLE_DATA] = { .type = NLA_UNSPEC },
	[WORMCAST_A_TABLES] = { .type = NLA_NESTED },
	[WORMCAST_A_TABLE] = { .type = NLA_NESTED },
	[WORMCAST_A_GROUPS_GEN] = { .type = NLA_U32 },
	[WORMCAST_A_GROUPS] = { .type = NLA_NESTED },
	[WORMCAST_A_GROUP] = { .type = NLA_NESTED },
	[WORMCAST_A_FAULTS] = { .type = NLA_NESTED },
	[WORMCAST_A_FAULT] = { .type = NLA_NESTED },
};

/* "fabric wc ifindex 7 id 1 torus 4x4 nodes 16" from a fabric message. */
static void describe_fabric(struct nlattr **tb, char *buf, size_t len)
{
	uint32_t dims[WC_MAX_DIMS];
	size_t used = 0;
	uint32_t i, n = 0;

#define ADD(...)							\
	do {								\
		if (used < len)						\
			used += (size_t)snprintf(buf + used, len - used,	\
						 __VA_ARGS__);		\
	} while (0)

	buf[0] = '\0';
	ADD("fabric %s", tb[WORMCAST_A_FABRIC_NAME] ?
	    nla_get_string(tb[WORMCAST_A_FABRIC_NAME]) : "?");
	if (tb[WORMCAST_A_FABRIC_IFINDEX])
		ADD(" ifindex %u", nla_get_u32(tb[WORMCAST_A_FABRIC_IFINDEX]));
	if (tb[WORMCAST_A_FABRIC_ID])
		ADD(" id %u", nla_get_u32(tb[WORMCAST_A_FABRIC_ID]));
	if (tb[WORMCAST_A_TOPOLOGY])
		ADD(" %s", wc_topo_kind_name(nla_get_u32(tb[WORMCAST_A_TOPOLOGY])));
	if (tb[WORMCAST_A_DIMS]) {
		n = (uint32_t)nla_len(tb[WORMCAST_A_DIMS]) / sizeof(uint32_t);
		if (n > WC_MAX_DIMS)
			n = WC_MAX_DIMS;
		memcpy(dims, nla_data(tb[WORMCAST_A_DIMS]), n * sizeof(uint32_t));
		for (i = 0; i < n; i++)
			ADD("%s%u", i ? "x" : " ", dims[i]);
	}
	if (tb[WORMCAST_A_NNODES])
		ADD(" nodes %u", nla_get_u32(tb[WORMCAST_A_NNODES]));
#undef ADD
}

/* Log one fabric message (dump entry or event) as @what. */
static int log_fabric(struct daemon_state *st, struct nlmsghdr *nlh,
		      const char *what)
{
	struct nlattr *tb[WORMCAST_A_MAX + 1];
	char desc[192];

	if (genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0) {
		logmsg(st, LOG_WARNING, "%s: malformed message ignored", what);
		return NL_SKIP;
	}
	describe_fabric(tb, desc, sizeof(desc));
	logmsg(st, LOG_INFO, "%s: %s", what, desc);
	return NL_OK;
}

/*
 * A dump splits a big fabric over consecutive messages that repeat its
 * identity: log the first of them only.
 */
static int dump_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct daemon_state *st = arg;
	struct nlattr *a;
	uint32_t ifindex = 0;

	a = nlmsg_find_attr(nlh, GENL_HDRLEN, WORMCAST_A_FABRIC_IFINDEX);
	if (a && nla_len(a) >= (int)sizeof(uint32_t))
		ifindex = nla_get_u32(a);
	if (ifindex && ifindex == st->last_listed)
		return NL_OK;
	st->last_listed = ifindex;
	return log_fabric(st, nlh, "present");
}

/* Fabrics in this network namespace, one log line each. */
static int list_fabrics(struct daemon_state *st)
{
	struct nl_msg *msg;
	int r;

	msg = nlmsg_alloc();
	if (!msg)
		return -NLE_NOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, st->family, 0,
			 NLM_F_DUMP, WORMCAST_CMD_FABRIC_GET,
			 WORMCAST_GENL_VERSION)) {
		nlmsg_free(msg);
		return -NLE_NOMEM;
	}
	r = nl_send_auto(st->req, msg);
	nlmsg_free(msg);
	if (r < 0)
		return r;
	st->last_listed = 0;
	nl_socket_modify_cb(st->req, NL_CB_VALID, NL_CB_CUSTOM, dump_cb, st);
	r = nl_recvmsgs_default(st->req);
	return r < 0 ? r : 0;
}

/*
 * Look the family up and join its "events" group.  Returns 0, or a
 * negative libnl error (-NLE_OBJ_NOTFOUND when the module is not loaded).
 */
static int attach_family(struct daemon_state *st)
{
	int family, grp, r;

	family = genl_ctrl_resolve(st->req, WORMCAST_GENL_NAME);
	if (family < 0) {
		st->family = 0;
		return family;
	}
	grp = genl_ctrl_resolve_grp(st->req, WORMCAST_GENL_NAME,
				    WORMCAST_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return grp;
	r = nl_socket_add_membership(st->ev, grp);
	if (r < 0)
		return r;
	st->family = family;
	return 0;
}

/* ------------------------------------------------------ requests */

/* Outcome of one request: replies go to @parse, the end sets @done. */
struct req_ctx {
	struct daemon_state *st;
	int (*parse)(struct nlmsghdr *nlh, void *arg);
	void *arg;
	bool done;
	int err;		/* negative errno from the kernel, or 0 */
};

static int req_valid_cb(struct nl_msg *msg, void *arg)
{
	struct req_ctx *rc = arg;

	if (rc->parse)
		return rc->parse(nlmsg_hdr(msg), rc->arg);
	return NL_OK;
}

static int req_end_cb(struct nl_msg *msg, void *arg)
{
	struct req_ctx *rc = arg;

	rc->done = true;
	return NL_STOP;
}

/* The extended ack's message (NLMSGERR_ATTR_MSG), if the kernel sent one. */
static void extack_msg(const struct nlmsgerr *e, char *buf, size_t len)
{
	const struct nlmsghdr *h = (const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	const char *p, *end = (const char *)h + h->nlmsg_len;

	buf[0] = '\0';
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	p = (const char *)e + sizeof(*e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		p += e->msg.nlmsg_len - NLMSG_HDRLEN;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG &&
		    a->nla_len > NLA_HDRLEN) {
			snprintf(buf, len, "%.*s", (int)(a->nla_len - NLA_HDRLEN),
				 p + NLA_HDRLEN);
			return;
		}
		p += NLA_ALIGN(a->nla_len);
	}
}

static int req_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct req_ctx *rc = arg;

	rc->err = e->error;
	rc->done = true;
	extack_msg(e, rc->st->ext, sizeof(rc->st->ext));
	return NL_STOP;
}

/* A message of the family, or NULL. */
static struct nl_msg *family_msg(struct daemon_state *st, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, st->family, 0,
				flags, cmd, WORMCAST_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/*
 * Send @msg (freed here) on the request socket and read until its ack,
 * error or the end of the dump.  Returns 0 or a negative errno; the
 * kernel's extack message, if any, is left in st->ext.
 */
static int request(struct daemon_state *st, struct nl_msg *msg,
		   int (*parse)(struct nlmsghdr *, void *), void *arg)
{
	struct req_ctx rc = { .st = st, .parse = parse, .arg = arg };
	struct nl_cb *cb;
	int r;

	st->ext[0] = '\0';
	if (!msg)
		return -ENOMEM;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, req_valid_cb, &rc);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, req_end_cb, &rc);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, req_end_cb, &rc);
	nl_cb_err(cb, NL_CB_CUSTOM, req_err_cb, &rc);
	r = nl_send_auto(st->req, msg);
	nlmsg_free(msg);
	if (r < 0) {
		nl_cb_put(cb);
		return -EIO;
	}
	while (!rc.done) {
		r = nl_recvmsgs(st->req, cb);
		if (r < 0 && !rc.done) {
			snprintf(st->ext, sizeof(st->ext), "%s", nl_geterror(r));
			rc.err = -EIO;
			break;
		}
	}
	nl_cb_put(cb);
	return rc.err;
}

/* "Error: message." as ip prints it, or strerror. */
static const char *req_error(const struct daemon_state *st, int err, char *buf,
			     size_t len)
{
	if (st->ext[0])
		snprintf(buf, len, "%s: %s", strerror(-err), st->ext);
	else
		snprintf(buf, len, "%s", strerror(-err));
	return buf;
}

/* ------------------------------------------------------ fabric views */

static struct nla_policy param_policy[WORMCAST_PARAM_MAX + 1] = {
	[WORMCAST_PARAM_VCS] = { .type = NLA_U32 },
	[WORMCAST_PARAM_MULTICAST] = { .type = NLA_U32 },
	[WORMCAST_PARAM_FAULT_INFO] = { .type = NLA_U8 },
};

/* Fill @v from a FABRIC_GET reply (merging the parts of a split dump). */
static int parse_view(struct nlmsghdr *nlh, struct wcd_fabric_view *v)
{
	struct nlattr *tb[WORMCAST_A_MAX + 1];
	struct nlattr *pt[WORMCAST_PARAM_MAX + 1];
	struct nlattr *a;
	int rem;

	if (genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0)
		return -EINVAL;
	if (tb[WORMCAST_A_FABRIC_IFINDEX])
		v->ifindex = nla_get_u32(tb[WORMCAST_A_FABRIC_IFINDEX]);
	if (tb[WORMCAST_A_FABRIC_NAME])
		snprintf(v->name, sizeof(v->name), "%s",
			 nla_get_string(tb[WORMCAST_A_FABRIC_NAME]));
	if (tb[WORMCAST_A_TOPOLOGY])
		v->topology = nla_get_u32(tb[WORMCAST_A_TOPOLOGY]);
	if (tb[WORMCAST_A_NNODES])
		v->nnodes = nla_get_u32(tb[WORMCAST_A_NNODES]);
	if (tb[WORMCAST_A_DIMS]) {
		uint32_t n = (uint32_t)nla_len(tb[WORMCAST_A_DIMS]) / sizeof(uint32_t);

		if (n > 3)
			n = 3;
		memcpy(v->dims, nla_data(tb[WORMCAST_A_DIMS]), n * sizeof(uint32_t));
		v->ndims = n;
	}
	if (tb[WORMCAST_A_PARAMS] &&
	    !nla_parse_nested(pt, WORMCAST_PARAM_MAX, tb[WORMCAST_A_PARAMS],
			      param_policy)) {
		if (pt[WORMCAST_PARAM_MULTICAST]) {
			v->has_scheme = true;
			v->scheme = nla_get_u32(pt[WORMCAST_PARAM_MULTICAST]);
		}
		if (pt[WORMCAST_PARAM_VCS])
			v->vcs = nla_get_u32(pt[WORMCAST_PARAM_VCS]);
		if (pt[WORMCAST_PARAM_FAULT_INFO])
			v->fault_info = nla_get_u8(pt[WORMCAST_PARAM_FAULT_INFO]);
	}
	if (tb[WORMCAST_A_TABLE_GEN])
		v->gen = nla_get_u32(tb[WORMCAST_A_TABLE_GEN]);
	if (tb[WORMCAST_A_TABLES]) {
		v->ntables = 0;
		nla_for_each_nested(a, tb[WORMCAST_A_TABLES], rem) {
			struct nlattr *tt[WORMCAST_A_MAX + 1];
			struct wcd_table_info *t;

			if (nla_type(a) != WORMCAST_A_TABLE ||
			    v->ntables == WCD_MAX_TABLES ||
			    nla_parse_nested(tt, WORMCAST_A_MAX, a, fabric_policy) < 0)
				continue;
			t = &v->tables[v->ntables++];
			memset(t, 0, sizeof(*t));
			if (tt[WORMCAST_A_TABLE_KIND])
				t->kind = nla_get_u32(tt[WORMCAST_A_TABLE_KIND]);
			if (tt[WORMCAST_A_TABLE_GEN])
				t->gen = nla_get_u32(tt[WORMCAST_A_TABLE_GEN]);
			if (tt[WORMCAST_A_TABLE_SIZE])
				t->size = nla_get_u32(tt[WORMCAST_A_TABLE_SIZE]);
		}
	}
	return 0;
}

static int dump_views_cb(struct nlmsghdr *nlh, void *arg)
{
	struct daemon_state *st = arg;
	struct wcd_fabric_view *v;
	struct nlattr *a;
	uint32_t ifindex = 0;

	a = nlmsg_find_attr(nlh, GENL_HDRLEN, WORMCAST_A_FABRIC_IFINDEX);
	if (a && nla_len(a) >= (int)sizeof(uint32_t))
		ifindex = nla_get_u32(a);
	/* A big fabric comes in several messages that repeat its identity. */
	if (!st->nfab || st->fab[st->nfab - 1].ifindex != ifindex) {
		if (st->nfab == MAX_FABRICS) {
			st->fab_overflow = true;
			return NL_OK;
		}
		v = &st->fab[st->nfab++];
		memset(v, 0, sizeof(*v));
	} else {
		v = &st->fab[st->nfab - 1];
	}
	if (parse_view(nlh, v))
		logmsg(st, LOG_WARNING, "malformed fabric message ignored");
	return NL_OK;
}

static int read_fabrics(struct daemon_state *st)
{
	st->nfab = 0;
	st->fab_overflow = false;
	return request(st, family_msg(st, WORMCAST_CMD_FABRIC_GET, NLM_F_DUMP),
		       dump_views_cb, st);
}

static int one_view_cb(struct nlmsghdr *nlh, void *arg)
{
	parse_view(nlh, arg);
	return NL_OK;
}

/* ------------------------------------------------ sync operations */

struct sync_ctx {
	struct daemon_state *st;
	uint32_t ifindex;
	struct wc_trees_info info;
	struct wc_trees_opts opts;
	const char *why;	/* compute's refusal */
	const uint32_t *faults;	/* faulty links a trees or labels table carries */
	uint32_t nfaults;
	uint32_t crossed;	/* labels: hops of the path on a dead link */
	uint32_t unlisted;	/* labels, two trees: dead links beyond 256 */
	struct fabric_mem *m;	/* its cached fault-free table, its faults */
	struct wcd_ftm_opts ftm;	/* ftmesh: detour resolved (0/1) */
	uint32_t ftm_blocks, ftm_recs;	/* ftmesh: what compute found */
	struct wc_spam_faults spam;	/* spam: what compute did with them */
	struct wc_two_faults two;	/* dstm-1, dstm-2, rt: the same */
};

static int op_refresh(void *ctx, struct wcd_fabric_view *v)
{
	struct sync_ctx *sc = ctx;
	struct nl_msg *msg = family_msg(sc->st, WORMCAST_CMD_FABRIC_GET, 0);

	if (msg && nla_put_u32(msg, WORMCAST_A_FABRIC_IFINDEX, sc->ifindex) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	memset(v, 0, sizeof(*v));
	return request(sc->st, msg, one_view_cb, v);
}

static int table_bytes_cb(struct nlmsghdr *nlh, void *arg)
{
	struct wcd_fabric_view *v = arg;
	struct nlattr *tb[WORMCAST_A_MAX + 1];
	uint32_t scheme;

	if (genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0 ||
	    !tb[WORMCAST_A_TABLE_OFFSET] || !tb[WORMCAST_A_TABLE_DATA])
		return NL_OK;
	if (nla_get_u32(tb[WORMCAST_A_TABLE_OFFSET]) != 0 ||
	    nla_len(tb[WORMCAST_A_TABLE_DATA]) < (int)sizeof(scheme))
		return NL_OK;
	/* struct wormcast_trees, _labels and _bcast start with it */
	memcpy(&scheme, nla_data(tb[WORMCAST_A_TABLE_DATA]), sizeof(scheme));
	v->table_scheme = scheme;
	v->table_scheme_known = true;
	return NL_OK;
}

static int op_read_table_scheme(void *ctx, struct wcd_fabric_view *v,
				uint32_t kind)
{
	struct sync_ctx *sc = ctx;
	struct nl_msg *msg = family_msg(sc->st, WORMCAST_CMD_TABLE_GET, NLM_F_DUMP);

	if (msg && (nla_put_u32(msg, WORMCAST_A_FABRIC_IFINDEX, sc->ifindex) < 0 ||
		    nla_put_u32(msg, WORMCAST_A_TABLE_KIND, kind) < 0)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	v->table_scheme_known = false;
	v->table_kind = kind;
	return request(sc->st, msg, table_bytes_cb, v);
}

/* TABLE_GET dump of a whole table, checked against the view's. */
struct table_read {
	uint32_t gen;
	unsigned char *buf;
	size_t size, got;
	bool bad;		/* another generation, or out of place */
};

static int table_read_cb(struct nlmsghdr *nlh, void *arg)
{
	struct table_read *r = arg;
	struct nlattr *tb[WORMCAST_A_MAX + 1];
	uint32_t off, n;

	if (genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0 ||
	    !tb[WORMCAST_A_TABLE_OFFSET] || !tb[WORMCAST_A_TABLE_DATA] ||
	    !tb[WORMCAST_A_TABLE_GEN]) {
		r->bad = true;
		return NL_OK;
	}
	off = nla_get_u32(tb[WORMCAST_A_TABLE_OFFSET]);
	n = (uint32_t)nla_len(tb[WORMCAST_A_TABLE_DATA]);
	if (nla_get_u32(tb[WORMCAST_A_TABLE_GEN]) != r->gen || off != r->got ||
	    n > r->size - r->got) {
		r->bad = true;
		return NL_OK;
	}
	memcpy(r->buf + off, nla_data(tb[WORMCAST_A_TABLE_DATA]), n);
	r->got += n;
	return NL_OK;
}

/*
 * The fabric's table of @kind, whole, at the generation and size the view
 * lists; none (NULL, 0) when it has none or the dump was not that table.
 */
static int op_read_table(void *ctx, const struct wcd_fabric_view *v,
			 uint32_t kind, void **table, size_t *len)
{
	struct sync_ctx *sc = ctx;
	struct table_read r = { 0 };
	struct nl_msg *msg;
	uint32_t i;
	int err;

	*table = NULL;
	*len = 0;
	for (i = 0; i < v->ntables; i++)
		if (v->tables[i].kind == kind && v->tables[i].gen &&
		    v->tables[i].size)
			break;
	if (i == v->ntables || v->tables[i].size > WORMCAST_TABLE_MAX_BYTES)
		return 0;
	r.gen = v->tables[i].gen;
	r.size = v->tables[i].size;
	r.buf = malloc(r.size);
	if (!r.buf)
		return -ENOMEM;
	msg = family_msg(sc->st, WORMCAST_CMD_TABLE_GET, NLM_F_DUMP);
	if (msg && (nla_put_u32(msg, WORMCAST_A_FABRIC_IFINDEX, sc->ifindex) < 0 ||
		    nla_put_u32(msg, WORMCAST_A_TABLE_KIND, kind) < 0)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	err = request(sc->st, msg, table_read_cb, &r);
	if (err || r.bad || r.got != r.size) {
		free(r.buf);
		/* replaced meanwhile (-EIO: interrupted): not ours to keep */
		return err == -EIO ? 0 : err;
	}
	*table = r.buf;
	*len = r.size;
	return 0;
}

/* The fabric's cached fault-free table of @scheme, computed if need be. */
static int fault_free_table(struct sync_ctx *sc, const struct wc_topo *t,
			    const struct wcd_fabric_view *v, uint32_t scheme)
{
	struct fabric_mem *m = sc->m;
	int err;

	if (m->base && m->base_scheme == scheme &&
	    m->base_topology == v->topology &&
	    !memcmp(m->base_dims, v->dims, sizeof(m->base_dims)) &&
	    wc_trees_opts_equal(&m->base_opts, &sc->opts)) {
		sc->info = m->base_info;
		return 0;
	}
	free(m->base);
	m->base = NULL;
	err = wc_trees_table_info(scheme, t, &sc->opts, &m->base, &m->base_len,
				  &sc->info, &sc->why);
	if (err)
		return err;
	m->base_scheme = scheme;
	m->base_topology = v->topology;
	memcpy(m->base_dims, v->dims, sizeof(m->base_dims));
	m->base_opts = sc->opts;
	m->base_info = sc->info;
	return 0;
}

/*
 * A two-tree table around the fabric's faults (wc_trees_table_two_faults()):
 * the fault-free trees while one of them joins every live node, else,
 * under fault-info global, trees rebuilt on the live links where the live
 * links have two; the dead links listed.
 */
static int compute_two_trees(struct sync_ctx *sc, const struct wc_topo *t,
			     const struct wcd_fabric_view *v, uint32_t scheme,
			     void **table, size_t *len)
{
	const struct fabric_mem *m = sc->m;
	int err = m ? fault_free_table(sc, t, v, scheme) : -EINVAL;

	if (err)
		return err;
	err = wc_trees_table_two_faults(t, m->base, m->base_len, sc->faults,
					sc->nfaults, m->faults.nodes,
					m->faults.nnodes,
					v->fault_info == WORMCAST_FAULT_INFO_GLOBAL,
					table, len, &sc->two, &sc->why);
	sc->unlisted = sc->two.unlisted;	/* logged */
	return err;
}

/*
 * The live faulty links of @m as pairs of node ids (wc_fi_build_topo()),
 * malloc'ed in *@links (NULL when there is none).  0 or -ENOMEM.
 */
static int fault_link_pairs(const struct fabric_mem *m, const struct wc_topo *t,
			    uint32_t (**links)[2])
{
	uint32_t i, pa, pb;

	*links = NULL;
	if (!m->faults.nlinks)
		return 0;
	*links = calloc(m->faults.nlinks, sizeof(**links));
	if (!*links)
		return -ENOMEM;
	for (i = 0; i < m->faults.nlinks; i++)
		wc_link_ends(t, m->faults.links[i], &(*links)[i][0], &pa,
			     &(*links)[i][1], &pb);
	return 0;
}

/* An ftmesh table: the mesh's fault information from the live faults. */
static int compute_ftmesh(struct sync_ctx *sc, const struct wc_topo *t,
			  void **table, size_t *len)
{
	const struct fabric_mem *m = sc->m;
	uint32_t (*links)[2] = NULL;
	int err;

	if (!m || !m->faults.known) {
		sc->why = "the fabric's faults are not known";
		return -EAGAIN;
	}
	err = fault_link_pairs(m, t, &links);
	if (err)
		return err;
	err = wc_ftm_table_from_faults(t, m->faults.nodes, m->faults.nnodes,
				       (const uint32_t (*)[2])links,
				       m->faults.nlinks, sc->ftm.strategy,
				       sc->opts.seed, sc->ftm.detour, table,
				       len, &sc->ftm_blocks, &sc->why);
	free(links);
	if (!err)
		sc->ftm_recs = ((const struct wormcast_ftmesh *)*table)->nrecs;
	return err;
}

/*
 * A spam table: the BFS tree of the live links and the faulty links it
 * avoids, from all the live faulty links (wc_trees_table_spam_faults());
 * the fault-free tree while the faults are not known.
 */
static int compute_spam(struct sync_ctx *sc, const struct wc_topo *t,
			void **table, size_t *len)
{
	const struct fabric_mem *m = sc->m;

	memset(&sc->spam, 0, sizeof(sc->spam));
	if (!m || !m->faults.known || (!m->faults.nlinks && !m->faults.nnodes))
		return wc_trees_table_info(WORMCAST_MCAST_SPAM, t, &sc->opts,
					   table, len, &sc->info, &sc->why);
	return wc_trees_table_spam_faults(t, m->faults.links, m->faults.nlinks,
					  m->faults.nodes, m->faults.nnodes,
					  table, len, &sc->spam, &sc->why);
}

static int op_compute(void *ctx, const struct wcd_fabric_view *v,
		      uint32_t scheme, void **table, size_t *len)
{
	struct sync_ctx *sc = ctx;
	struct wc_topo t;
	int err;

	sc->why = NULL;
	err = wc_topo_init(&t, v->topology, v->ndims, v->dims, &sc->why);
	if (!err && t.nnodes != v->nnodes) {
		sc->why = "node count differs from the topology's";
		err = -EINVAL;
	}
	if (err)
		return err;
	if (scheme == WORMCAST_MCAST_FTMESH)
		return compute_ftmesh(sc, &t, table, len);
	if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_BCAST)
		return wc_bcast_table_build(&t, scheme, table, len, &sc->why);
	if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_LABELS) {
		err = wc_labels_table_build_faults(&t, scheme, sc->faults,
						   sc->nfaults,
						   sc->m ? sc->m->faults.nodes : NULL,
						   sc->m ? sc->m->faults.nnodes : 0,
						   table, len, &sc->crossed,
						   &sc->unlisted);
		if (err)
			sc->why = "the topology has no Hamiltonian labeling for this scheme";
		return err;
	}
	if (scheme == WORMCAST_MCAST_SPAM)
		return compute_spam(sc, &t, table, len);
	if (!wc_mcast_two_trees(scheme))
		return wc_trees_table_info(scheme, &t, &sc->opts, table, len,
					   &sc->info, &sc->why);
	return compute_two_trees(sc, &t, v, scheme, table, len);
}

/* ------------------------------------------------------------ faults */

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The generation of @v's table of @kind, 0 if it has none. */
static uint32_t view_table_gen(const struct wcd_fabric_view *v, uint32_t kind)
{
	uint32_t i;

	for (i = 0; i < v->ntables; i++)
		if (v->tables[i].kind == kind)
			return v->tables[i].gen;
	return 0;
}

static struct nla_policy fault_policy[WORMCAST_FAULT_MAX + 1] = {
	[WORMCAST_FAULT_KIND] = { .type = NLA_U32 },
	[WORMCAST_FAULT_NODE] = { .type = NLA_U32 },
	[WORMCAST_FAULT_PEER] = { .type = NLA_U32 },
};

struct faults_dump {
	const struct wc_topo *t;
	uint32_t nlinks, nnodes;
	uint32_t *links;	/* room for every link of the topology */
	uint32_t *nodes;	/* room for every node */
};

static int faults_cb(struct nlmsghdr *nlh, void *arg)
{
	struct faults_dump *d = arg;
	struct nlattr *tb[WORMCAST_A_MAX + 1], *f;
	int rem;

	if (genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0 ||
	    !tb[WORMCAST_A_FAULTS])
		return NL_OK;
	nla_for_each_nested(f, tb[WORMCAST_A_FAULTS], rem) {
		struct nlattr *fb[WORMCAST_FAULT_MAX + 1];
		uint32_t a, b, port, link;

		if (nla_parse_nested(fb, WORMCAST_FAULT_MAX, f, fault_policy) < 0 ||
		    !fb[WORMCAST_FAULT_KIND] || !fb[WORMCAST_FAULT_NODE])
			continue;
		a = nla_get_u32(fb[WORMCAST_FAULT_NODE]);
		if (a >= d->t->nnodes)
			continue;
		if (nla_get_u32(fb[WORMCAST_FAULT_KIND]) == WORMCAST_FAULT_KIND_NODE) {
			if (d->nnodes < d->t->nnodes)
				d->nodes[d->nnodes++] = a;
			continue;
		}
		if (!fb[WORMCAST_FAULT_PEER])
			continue;
		b = nla_get_u32(fb[WORMCAST_FAULT_PEER]);
		if (b >= d->t->nnodes)
			continue;
		port = wc_topo_port_to(d->t, a, b);
		link = port == WC_NO_PORT ? WC_NO_LINK : wc_link_id(d->t, a, port);
		if (link == WC_NO_LINK || d->nlinks == wc_link_space(d->t))
			continue;
		d->links[d->nlinks++] = link;
	}
	return NL_OK;
}

/*
 * The fabric's faults (FAULT_GET dump) into @m (wcd_faults_update()).
 * Returns 0 or an error.
 */
static int read_faults(struct daemon_state *st, const struct wcd_fabric_view *v,
		       struct fabric_mem *m)
{
	struct faults_dump d = { 0 };
	struct nl_msg *msg;
	struct wc_topo t;
	int err, tries;

	err = wc_topo_init(&t, v->topology, v->ndims, v->dims, NULL);
	if (err)
		return err;
	d.links = calloc(wc_link_space(&t) + 1, sizeof(*d.links));
	d.nodes = calloc(t.nnodes + 1, sizeof(*d.nodes));
	if (!d.links || !d.nodes) {
		err = -ENOMEM;
		goto out;
	}
	for (tries = 0; tries < 3; tries++) {
		d.t = &t;
		d.nlinks = d.nnodes = 0;
		msg = family_msg(st, WORMCAST_CMD_FAULT_GET, NLM_F_DUMP);
		if (msg && nla_put_u32(msg, WORMCAST_A_FABRIC_IFINDEX, v->ifindex) < 0) {
			nlmsg_free(msg);
			msg = NULL;
		}
		err = request(st, msg, faults_cb, &d);
		if (err != -EIO)	/* an interrupted dump: again */
			break;
	}
	if (err)
		goto out;
	wcd_faults_update(&m->faults, &d.links, d.nlinks, &d.nodes, d.nnodes);
out:
	free(d.links);
	free(d.nodes);
	return err;
}

/* Is the fabric's current table of its scheme's kind one we pushed? */
static bool table_is_ours(const struct fabric_mem *m,
			  const struct wcd_fabric_view *v)
{
	uint32_t gen = view_table_gen(v, wc_mcast_table_kind(v->scheme));

	return m->pushed && gen && m->pushed_scheme == v->scheme &&
	       m->pushed_gen == gen;
}

/*
 * Does the fabric's current trees or labels table carry other faults, or
 * two trees computed for the other fault-info (rebuilt under global only)?
 */
static bool faults_stale(const struct fabric_mem *m,
			 const struct wcd_fabric_view *v)
{
	bool ours = table_is_ours(m, v);

	if (!wcd_carries_links(v->scheme))
		return false;
	if (ours && wc_mcast_two_trees(v->scheme) &&
	    (m->faults.nlinks || m->faults.nnodes) &&
	    m->pushed_fault_info != v->fault_info)
		return true;
	return wcd_faults_stale(&m->faults, v->scheme, ours,
				m->pushed_faults_seq);
}

/*
 * ftmesh: a table we pushed is known without reading it back, and stale
 * when the faults or the options moved since; any other is left for
 * wcd_sync_fabric() to read and compare with the one it computes.
 */
static void ftm_known(const struct fabric_mem *m, const struct sync_ctx *sc,
		      struct wcd_fabric_view *v)
{
	if (v->scheme != WORMCAST_MCAST_FTMESH || !table_is_ours(m, v))
		return;
	v->table_scheme_known = true;
	v->table_kind = WORMCAST_TABLE_FTMESH;
	v->table_scheme = WORMCAST_MCAST_FTMESH;
	v->stale = wcd_faults_stale(&m->faults, v->scheme, true,
				    m->pushed_faults_seq) ||
		   m->pushed_ftm.strategy != sc->ftm.strategy ||
		   m->pushed_ftm.detour != sc->ftm.detour ||
		   m->pushed_opts.seed != sc->opts.seed;
}

static struct nl_msg *table_msg(struct sync_ctx *sc, uint8_t cmd)
{
	struct nl_msg *msg = family_msg(sc->st, cmd, 0);

	if (msg && nla_put_u32(msg, WORMCAST_A_FABRIC_IFINDEX, sc->ifindex) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

struct u32_reply {
	int attr;
	bool got;
	uint32_t v;
};

static int u32_reply_cb(struct nlmsghdr *nlh, void *arg)
{
	struct u32_reply *r = arg;
	struct nlattr *tb[WORMCAST_A_MAX + 1];

	if (genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0)
		return NL_OK;
	if (r->attr == WORMCAST_A_TABLE_TXN && tb[WORMCAST_A_TABLE_TXN]) {
		r->v = nla_get_u32(tb[WORMCAST_A_TABLE_TXN]);
		r->got = true;
	} else if (r->attr == WORMCAST_A_TABLE_GEN && tb[WORMCAST_A_TABLE_GEN]) {
		r->v = nla_get_u32(tb[WORMCAST_A_TABLE_GEN]);
		r->got = true;
	}
	return NL_OK;
}

static int op_table_new(void *ctx, uint32_t kind, uint32_t size, uint32_t gen,
			uint32_t *txn)
{
	struct sync_ctx *sc = ctx;
	struct nl_msg *msg = table_msg(sc, WORMCAST_CMD_TABLE_NEW);
	struct u32_reply r = { .attr = WORMCAST_A_TABLE_TXN };
	int err;

	if (msg && (nla_put_u32(msg, WORMCAST_A_TABLE_KIND, kind) < 0 ||
		    nla_put_u32(msg, WORMCAST_A_TABLE_SIZE, size) < 0 ||
		    nla_put_u32(msg, WORMCAST_A_TABLE_GEN, gen) < 0)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	err = request(sc->st, msg, u32_reply_cb, &r);
	if (!err && !r.got) {
		snprintf(sc->st->ext, sizeof(sc->st->ext), "no TXN in the reply");
		err = -EPROTO;
	}
	*txn = r.v;
	return err;
}

static int op_chunk(void *ctx, uint32_t txn, uint32_t offset, const void *data,
		    uint32_t len)
{
	struct sync_ctx *sc = ctx;
	struct nl_msg *msg = nlmsg_alloc_size(len + 1024);

	if (msg && (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, sc->st->family, 0, 0,
				 WORMCAST_CMD_TABLE_CHUNK, WORMCAST_GENL_VERSION) ||
		    nla_put_u32(msg, WORMCAST_A_FABRIC_IFINDEX, sc->ifindex) < 0 ||
		    nla_put_u32(msg, WORMCAST_A_TABLE_TXN, txn) < 0 ||
		    nla_put_u32(msg, WORMCAST_A_TABLE_OFFSET, offset) < 0 ||
		    nla_put(msg, WORMCAST_A_TABLE_DATA, (int)len, data) < 0)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return request(sc->st, msg, NULL, NULL);
}

static int op_commit(void *ctx, uint32_t txn, uint32_t *new_gen)
{
	struct sync_ctx *sc = ctx;
	struct nl_msg *msg = table_msg(sc, WORMCAST_CMD_TABLE_COMMIT);
	struct u32_reply r = { .attr = WORMCAST_A_TABLE_GEN };
	int err;

	if (msg && nla_put_u32(msg, WORMCAST_A_TABLE_TXN, txn) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	err = request(sc->st, msg, u32_reply_cb, &r);
	*new_gen = r.v;
	return err;
}

static int op_abort(void *ctx, uint32_t txn)
{
	struct sync_ctx *sc = ctx;
	struct nl_msg *msg = table_msg(sc, WORMCAST_CMD_TABLE_ABORT);
	char keep[sizeof(sc->st->ext)];
	int err;

	if (msg && nla_put_u32(msg, WORMCAST_A_TABLE_TXN, txn) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	/* keep the failing step's message, not the abort's */
	memcpy(keep, sc->st->ext, sizeof(keep));
	err = request(sc->st, msg, NULL, NULL);
	memcpy(sc->st->ext, keep, sizeof(keep));
	return err;
}

static const struct wcd_sync_ops sync_ops = {
	.push = {
		.table_new = op_table_new,
		.chunk = op_chunk,
		.commit = op_commit,
		.abort = op_abort,
	},
	.refresh = op_refresh,
	.read_table_scheme = op_read_table_scheme,
	.compute = op_compute,
	.read_table = op_read_table,
};

/* ------------------------------------------------------------ sync */

static struct fabric_mem *fabric_mem(struct daemon_state *st, uint32_t ifindex)
{
	uint32_t i;

	for (i = 0; i < st->nmem; i++)
		if (st->mem[i].ifindex == ifindex)
			return &st->mem[i];
	if (st->nmem == MAX_FABRICS)
		return NULL;
	memset(&st->mem[st->nmem], 0, sizeof(st->mem[0]));
	st->mem[st->nmem].ifindex = ifindex;
	return &st->mem[st->nmem++];
}

static void senders_free(struct fabric_mem *m)
{
	uint32_t i;

	for (i = 0; i < m->nsenders; i++)
		free(m->senders[i].src);
	free(m->senders);
	m->senders = NULL;
	m->nsenders = 0;
}

/* What a fabric's memory holds on the heap. */
static void fabric_mem_free(struct fabric_mem *m)
{
	senders_free(m);
	free(m->base);
	m->base = NULL;
	wcd_faults_free(&m->faults);
}

/* Forget fabrics that are gone. */
static void prune_mem(struct daemon_state *st)
{
	uint32_t i, j, k = 0;

	for (i = 0; i < st->nmem; i++) {
		for (j = 0; j < st->nfab; j++)
			if (st->fab[j].ifindex == st->mem[i].ifindex)
				break;
		if (j < st->nfab)
			st->mem[k++] = st->mem[i];
		else
			fabric_mem_free(&st->mem[i]);
	}
	st->nmem = k;
}

static const char *scheme_str(uint32_t s, char *buf, size_t len)
{
	const char *n = wc_mcast_scheme_name(s);

	if (n)
		return n;
	snprintf(buf, len, "scheme %u", s);
	return buf;
}

/* What a push of a table that depends on the faults adds to its log line. */
static void faults_log(const struct fabric_mem *m, const struct sync_ctx *sc,
		       uint32_t scheme, char *extra, size_t size)
{
	size_t at = strlen(extra);

	if (scheme == WORMCAST_MCAST_FTMESH)
		snprintf(extra + at, size - at,
			 " (ftmesh strategy %u, detour %s, seed %llu) faulty nodes %u, faulty links %u, blocks %u, records %u",
			 sc->ftm.strategy, sc->ftm.detour ? "on" : "off",
			 (unsigned long long)sc->opts.seed, m->faults.nnodes,
			 m->faults.nlinks, sc->ftm_blocks, sc->ftm_recs);
	else if (m->faults.nlinks || m->faults.nnodes || m->faults.event_ms)
		snprintf(extra + at, size - at, " faulty links %u%s",
			 m->faults.nlinks,
			 sc->crossed ? " (the Hamiltonian path could not avoid them all: worms that meet one are absorbed and counted)" : "");
	at = strlen(extra);
	if (sc->unlisted)
		snprintf(extra + at, size - at,
			 " (%u dead links beyond the %u listed: a worm that meets one is absorbed and counted)",
			 sc->unlisted, WORMCAST_TREES_MAX_FAULTS);
	at = strlen(extra);
	if (scheme == WORMCAST_MCAST_SPAM && m->faults.nnodes)
		snprintf(extra + at, size - at,
			 ", faulty nodes %u (%u leaves of the tree, worms to them absorbed and counted)",
			 m->faults.nnodes, sc->spam.leaves);
	else if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_LABELS &&
		 m->faults.nnodes)
		snprintf(extra + at, size - at,
			 ", faulty nodes %u (put at the ends of the path where it can be: never transited, worms to them absorbed and counted)",
			 m->faults.nnodes);
	else if (wc_mcast_two_trees(scheme) && m->faults.nnodes)
		snprintf(extra + at, size - at, ", faulty nodes %u (%s)",
			 m->faults.nnodes, sc->two.rebuilt ?
			 "leaves of both trees, worms to them absorbed and counted" :
			 sc->two.clean ?
			 "their links listed: a tree joins every live node, the sources take it" :
			 "their links listed: a worm takes a tree that avoids them when one does, else it is absorbed and counted");
	at = strlen(extra);
	if (wc_mcast_two_trees(scheme) && sc->two.rebuilt)
		snprintf(extra + at, size - at,
			 ", trees rebuilt on the live links (neither fault-free tree joined every live node)");
	else if (wc_mcast_two_trees(scheme) && !sc->two.clean)
		snprintf(extra + at, size - at, ", trees kept (%s)",
			 m->pushed_fault_info == WORMCAST_FAULT_INFO_LOCAL ?
			 "fault-info local" :
			 "the live links have no two edge-disjoint spanning trees");
	at = strlen(extra);
	if (scheme == WORMCAST_MCAST_SPAM && sc->spam.crossed)
		snprintf(extra + at, size - at,
			 " (the live links leave the fabric disconnected: the tree keeps %u faulty links, worms crossing them absorbed and counted)",
			 sc->spam.crossed);
	at = strlen(extra);
	if (scheme == WORMCAST_MCAST_SPAM && sc->spam.unlisted)
		snprintf(extra + at, size - at,
			 " (%u faulty links beyond the %u listed: the tree avoids them, a cross link over one absorbs and counts)",
			 sc->spam.unlisted, WORMCAST_TREES_MAX_FAULTS);
	at = strlen(extra);
	if (m->faults.event_ms)
		snprintf(extra + at, size - at, ", fault event to commit %llu ms",
			 (unsigned long long)(mono_ms() - m->faults.event_ms));
}

static void sync_fabric(struct daemon_state *st, struct wcd_fabric_view *v)
{
	struct sync_ctx sc = { .st = st, .ifindex = v->ifindex };
	struct fabric_mem *m = fabric_mem(st, v->ifindex);
	struct wcd_sync_result res;
	bool faults_read = false;
	enum wcd_action a;
	const char *section;
	char sb[24], eb[320];
	int err;

	if (!m)
		return;
	wcd_config_opts(&st->cfg, v->name, &sc.opts, &sc.ftm, &section);
	sc.ftm.detour = wcd_ftm_detour_on(&sc.ftm, v->vcs);
	/* Tables that depend on the faults: know them first. */
	if (v->has_scheme && wcd_follows_faults(v->scheme) &&
	    (!m->faults.known || m->faults.dirty)) {
		err = read_faults(st, v, m);
		if (err)
			logmsg(st, LOG_WARNING, "fabric %s: reading faults: %s",
			       v->name, req_error(st, err, eb, sizeof(eb)));
		faults_read = !err;
	}
	if (v->has_scheme && v->scheme == WORMCAST_MCAST_FTMESH &&
	    !m->faults.known)
		return;		/* logged; the next sync reads them again */
	sc.faults = m->faults.links;
	sc.nfaults = m->faults.nlinks;
	if (sc.nfaults > WORMCAST_TREES_MAX_FAULTS) {
		sc.nfaults = WORMCAST_TREES_MAX_FAULTS;
		if (faults_read && wcd_carries_links(v->scheme))
			logmsg(st, LOG_WARNING,
			       "fabric %s: more than %u faulty links; the table carries the first",
			       v->name, WORMCAST_TREES_MAX_FAULTS);
	}
	sc.m = m;
	/* Only "rt" depends on the options; a reload may have changed them. */
	v->stale = m->pushed && m->pushed_scheme == v->scheme &&
		   v->scheme == WORMCAST_MCAST_RT &&
		   m->pushed_gen == view_table_gen(v, WORMCAST_TABLE_TREES) &&
		   !wc_trees_opts_equal(&m->pushed_opts, &sc.opts);
	v->stale |= faults_stale(m, v);
	ftm_known(m, &sc, v);
	a = wcd_decide(v);
	if (a != WCD_PUSH && a != WCD_READ_SCHEME)
		m->faults.event_ms = 0;	/* the burst changed nothing here */
	/*
	 * A refused push is not retried until the scheme, the generation or
	 * the faults move.
	 */
	if ((a == WCD_PUSH || a == WCD_READ_SCHEME) && m->failed &&
	    m->failed_scheme == v->scheme && m->failed_gen == v->gen &&
	    m->failed_faults_seq == m->faults.seq)
		return;
	if (a != WCD_PUSH && a != WCD_READ_SCHEME) {
		if (!m->logged_state || m->logged_action != a ||
		    m->logged_scheme != v->scheme || m->logged_gen != v->gen)
			logmsg(st, LOG_INFO, "fabric %s: %s%s%s, generation %u: %s",
			       v->name, v->has_scheme ? "multicast " : "",
			       v->has_scheme ? scheme_str(v->scheme, sb, sizeof(sb)) : "",
			       v->has_scheme ? "" : "module reports no multicast scheme",
			       v->gen, wcd_action_name(a));
		m->logged_state = true;
		m->logged_action = a;
		m->logged_scheme = v->scheme;
		m->logged_gen = v->gen;
		return;
	}
	err = wcd_sync_fabric(&sync_ops, &sc, v, st->cfg.retries,
			      WORMCAST_TABLE_CHUNK_MAX, &res);
	m->logged_state = false;
	if (!err && (res.action == WCD_PUSH || res.adopted)) {
		char extra[512] = "";

		m->failed = false;
		m->pushed = true;
		m->pushed_scheme = res.scheme;
		m->pushed_gen = res.action == WCD_PUSH ? res.gen :
				view_table_gen(v, wc_mcast_table_kind(res.scheme));
		m->pushed_opts = sc.opts;
		m->pushed_ftm = sc.ftm;
		m->pushed_fault_info = v->fault_info;
		m->pushed_faults_seq = m->faults.seq;
		if (wcd_follows_faults(res.scheme))
			faults_log(m, &sc, res.scheme, extra, sizeof(extra));
		m->faults.event_ms = 0;
		if (res.action != WCD_PUSH) {
			/* a restart: the kernel already holds what we computed */
			logmsg(st, LOG_INFO,
			       "fabric %s: %s table generation %u equals the one computed (compute %.1f ms): kept%s",
			       v->name, scheme_str(res.scheme, sb, sizeof(sb)),
			       m->pushed_gen, res.compute_ms, extra);
			m->logged_state = true;
			m->logged_action = res.action;
			m->logged_scheme = v->scheme;
			m->logged_gen = v->gen;
			return;
		}
		if (res.scheme == WORMCAST_MCAST_RT) {
			if (sc.opts.rt_pair == WC_RT_PAIR_PATH)
				snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
					 " (rt path, CD %u AD %.3f)",
					 sc.info.cd, sc.info.ad);
			else
				snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
					 " (rt %s: trial %u of %u, seed %llu, CD %u AD %.3f, balance %u)",
					 wc_rt_pair_name(sc.opts.rt_pair), sc.info.trial,
					 sc.opts.trials, (unsigned long long)sc.opts.seed,
					 sc.info.cd, sc.info.ad, sc.info.balance);
		}
		logmsg(st, LOG_INFO,
		       "push: fabric %s scheme %s bytes %zu generation %u compute %.1f ms push %.1f ms%s%s",
		       v->name, scheme_str(res.scheme, sb, sizeof(sb)), res.bytes,
		       res.gen, res.compute_ms, res.push_ms, extra,
		       res.attempts > 1 ? " (after a generation change)" : "");
		return;
	}
	if (!err)
		return;
	m->failed = true;
	m->failed_scheme = v->scheme;
	m->failed_gen = v->gen;
	m->failed_faults_seq = m->faults.seq;
	if (res.stage && !strcmp(res.stage, "compute"))
		logmsg(st, LOG_ERR, "fabric %s: cannot compute the %s table: %s",
		       v->name, scheme_str(v->scheme, sb, sizeof(sb)),
		       sc.why ? sc.why : strerror(-err));
	else if (err == -EAGAIN && (!res.stage || !st->ext[0]))
		logmsg(st, LOG_ERR, "fabric %s: generation kept moving; gave up after %u transactions",
		       v->name, res.attempts);
	else
		logmsg(st, LOG_ERR, "fabric %s: %s failed: %s", v->name,
		       res.stage ? res.stage : "sync", req_error(st, err, eb, sizeof(eb)));
}

/* ------------------------------------------------------------ plans */

static struct nla_policy group_policy[WORMCAST_GROUP_MAX + 1] = {
	[WORMCAST_GROUP_ADDRESS] = { .type = NLA_UNSPEC },
	[WORMCAST_GROUP_NMEMBERS] = { .type = NLA_U32 },
	[WORMCAST_GROUP_MEMBERS] = { .type = NLA_UNSPEC },
	[WORMCAST_GROUP_UNPLANNED] = { .type = NLA_UNSPEC },
};

/* A GROUPS_GET dump: the groups and their receivers. */
struct groups_dump {
	uint32_t gen;
	bool has_gen;
	uint32_t n, cap;
	struct wc_group_in *g;
	uint32_t **lists;	/* owned member lists, one per group */
	uint32_t **unplanned;	/* owned: sources without a plan, or NULL */
	uint32_t *nunplanned;
	int err;
};

static void groups_free(struct groups_dump *d)
{
	uint32_t i;

	for (i = 0; i < d->n; i++) {
		free(d->lists[i]);
		free(d->unplanned[i]);
	}
	free(d->lists);
	free(d->unplanned);
	free(d->nunplanned);
	free(d->g);
	memset(d, 0, sizeof(*d));
}

/* The node ids of a GROUP bitmap attribute, ascending (malloc'ed). */
static uint32_t *bitmap_nodes(const struct nlattr *a, uint32_t *n)
{
	const uint32_t *w = nla_data(a);
	uint32_t nw = (uint32_t)nla_len(a) / sizeof(uint32_t), i, k = 0;
	uint32_t *list = malloc((nw ? nw : 1) * 32 * sizeof(*list));

	if (list)
		for (i = 0; i < nw * 32; i++)
			if (w[i / 32] & (1u << (i % 32)))
				list[k++] = i;
	*n = k;
	return list;
}

static int groups_cb(struct nlmsghdr *nlh, void *arg)
{
	struct groups_dump *d = arg;
	struct nlattr *tb[WORMCAST_A_MAX + 1], *gt[WORMCAST_GROUP_MAX + 1];
	struct nlattr *a;
	int rem;

	if (d->err || genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0)
		return NL_OK;
	if (tb[WORMCAST_A_GROUPS_GEN]) {
		d->gen = nla_get_u32(tb[WORMCAST_A_GROUPS_GEN]);
		d->has_gen = true;
	}
	if (!tb[WORMCAST_A_GROUPS])
		return NL_OK;
	nla_for_each_nested(a, tb[WORMCAST_A_GROUPS], rem) {
		uint32_t k, *list;

		if (nla_type(a) != WORMCAST_A_GROUP ||
		    nla_parse_nested(gt, WORMCAST_GROUP_MAX, a, group_policy) < 0 ||
		    !gt[WORMCAST_GROUP_ADDRESS] || !gt[WORMCAST_GROUP_MEMBERS] ||
		    nla_len(gt[WORMCAST_GROUP_ADDRESS]) != 6)
			continue;
		if (d->n == d->cap) {
			uint32_t cap = d->cap ? 2 * d->cap : 16;
			struct wc_group_in *g = realloc(d->g, cap * sizeof(*g));
			uint32_t **l, **u = NULL, *nu = NULL;

			if (g)
				d->g = g;
			l = g ? realloc(d->lists, cap * sizeof(*l)) : NULL;
			if (l)
				d->lists = l;
			u = l ? realloc(d->unplanned, cap * sizeof(*u)) : NULL;
			if (u)
				d->unplanned = u;
			nu = u ? realloc(d->nunplanned, cap * sizeof(*nu)) : NULL;
			if (!nu) {
				d->err = -ENOMEM;
				return NL_OK;
			}
			d->nunplanned = nu;
			d->cap = cap;
		}
		list = bitmap_nodes(gt[WORMCAST_GROUP_MEMBERS], &k);
		if (!list) {
			d->err = -ENOMEM;
			return NL_OK;
		}
		memset(&d->g[d->n], 0, sizeof(d->g[d->n]));
		memcpy(d->g[d->n].addr, nla_data(gt[WORMCAST_GROUP_ADDRESS]), 6);
		d->g[d->n].members = list;
		d->g[d->n].nmembers = k;
		d->lists[d->n] = list;
		d->unplanned[d->n] = NULL;
		d->nunplanned[d->n] = 0;
		if (gt[WORMCAST_GROUP_UNPLANNED]) {
			d->unplanned[d->n] =
				bitmap_nodes(gt[WORMCAST_GROUP_UNPLANNED],
					     &d->nunplanned[d->n]);
			if (!d->unplanned[d->n]) {
				free(list);
				d->err = -ENOMEM;
				return NL_OK;
			}
		}
		d->n++;
	}
	return NL_OK;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static struct wcd_senders *senders_find(struct fabric_mem *m,
					const uint8_t *addr)
{
	uint32_t i;

	for (i = 0; i < m->nsenders; i++)
		if (!memcmp(m->senders[i].addr, addr, 6))
			return &m->senders[i];
	return NULL;
}

/* Merge ascending @add (@nadd ids) into @s's ascending sources. */
static int senders_merge(struct wcd_senders *s, const uint32_t *add,
			 uint32_t nadd)
{
	uint32_t *v = malloc((s->n + nadd) * sizeof(*v) + 1), i = 0, j = 0, k = 0;

	if (!v)
		return -ENOMEM;
	while (i < s->n || j < nadd) {
		if (j == nadd || (i < s->n && s->src[i] < add[j]))
			v[k++] = s->src[i++];
		else if (i == s->n || add[j] < s->src[i])
			v[k++] = add[j++];
		else {
			v[k++] = s->src[i++];
			j++;
		}
	}
	free(s->src);
	s->src = v;
	s->n = k;
	return 0;
}

/*
 * Lazy planning (Documentation/paths.rst, "Which sources"): add the
 * sources that @d reports without a plan to @m's senders, forget the
 * groups @d no longer holds, and give every group of @d its senders as
 * the sources to plan.  0 or -ENOMEM.
 */
static int senders_update(struct fabric_mem *m, struct groups_dump *d)
{
	uint32_t i, j, k = 0;

	for (i = 0; i < m->nsenders; i++) {
		for (j = 0; j < d->n; j++)
			if (!memcmp(d->g[j].addr, m->senders[i].addr, 6))
				break;
		if (j < d->n)
			m->senders[k++] = m->senders[i];
		else
			free(m->senders[i].src);
	}
	m->nsenders = k;
	for (j = 0; j < d->n; j++) {
		struct wcd_senders *s = senders_find(m, d->g[j].addr);

		if (!s && d->nunplanned[j]) {
			struct wcd_senders *more = realloc(m->senders,
				(m->nsenders + 1) * sizeof(*more));

			if (!more)
				return -ENOMEM;
			m->senders = more;
			s = &m->senders[m->nsenders++];
			memset(s, 0, sizeof(*s));
			memcpy(s->addr, d->g[j].addr, 6);
		}
		if (s && d->nunplanned[j] &&
		    senders_merge(s, d->unplanned[j], d->nunplanned[j]))
			return -ENOMEM;
	}
	/* pointers into m->senders only now that it has stopped moving */
	for (j = 0; j < d->n; j++) {
		struct wcd_senders *s = senders_find(m, d->g[j].addr);

		d->g[j].sources = s ? s->src : NULL;
		d->g[j].nsources = s ? s->n : 0;
	}
	return 0;
}

/*
 * Does the fabric take plans?  ocms/otms, and ftmesh with
 * ftmesh_strategy = 3 (Strategy 3 plans per source and group).
 */
static bool plans_wanted(struct daemon_state *st, const struct wcd_fabric_view *v)
{
	struct wcd_ftm_opts ftm;
	struct wc_trees_opts o;
	const char *section;

	if (!v->has_scheme)
		return false;
	if (v->scheme != WORMCAST_MCAST_FTMESH)
		return wc_plan_scheme(v->scheme);
	wcd_config_opts(&st->cfg, v->name, &o, &ftm, &section);
	return ftm.strategy == WC_FT_STRATEGY3;
}

/*
 * Strategy 3 plans of an ftmesh fabric on its live faults (the faults
 * its ftmesh table was computed from).
 */
static int ftm_plans_build(const struct fabric_mem *m, const struct wc_topo *t,
			   const struct groups_dump *d, bool all_sources,
			   void **bytes, size_t *len, struct wc_plans_stats *ps,
			   const char **why)
{
	uint32_t (*links)[2] = NULL;
	struct wc_faultinfo fi;
	int err;

	if (!m->faults.known) {
		*why = "the fabric's faults are not known";
		return -EINVAL;
	}
	err = fault_link_pairs(m, t, &links);
	if (err)
		return err;
	err = wc_fi_build_topo(&fi, t, m->faults.nodes, m->faults.nnodes,
			       (const uint32_t (*)[2])links, m->faults.nlinks,
			       why);
	free(links);
	if (err)
		return err;
	err = wc_ftm_plans_table_build(&fi, d->g, d->n, all_sources, bytes,
				       len, ps);
	wc_fi_free(&fi);
	return err;
}

/*
 * The labeling of the fabric's committed labels table, its faulty links
 * absent: what the kernel checks plans against (wc_plan_set_build()).
 */
static int committed_labeling(struct sync_ctx *sc,
			      const struct wcd_fabric_view *v,
			      const struct wc_topo *t, struct wc_labeling *lb,
			      const char **why)
{
	size_t len = 0;
	void *tab;
	int err = op_read_table(sc, v, WORMCAST_TABLE_LABELS, &tab, &len);

	if (!err && !tab)
		return -EAGAIN;		/* replaced meanwhile */
	if (err)
		return err;
	err = wc_labeling_from_table(lb, t, tab, len, why);
	free(tab);
	return err;
}

/*
 * Bring the plans table of an ocms/otms fabric up to date with its
 * groups and labels table, or of an ftmesh fabric of Strategy 3 with its
 * groups and ftmesh table (new faults, a new ftmesh table: new plans);
 * one pass (the caller retries on -EAGAIN).  Returns 0, -EAGAIN
 * (generation moved), or an error (logged).
 */
static int sync_plans_once(struct daemon_state *st, struct fabric_mem *m,
			   uint32_t ifindex, bool *pushed)
{
	struct sync_ctx sc = { .st = st, .ifindex = ifindex };
	struct groups_dump d = { 0 };
	struct wc_plans_stats ps;
	struct wcd_fabric_view v;
	struct wc_labeling lb;
	struct timespec t0;
	uint32_t i, labels_gen = 0, plans_gen = 0, new_gen, recv = 0, nsources;
	uint32_t base_kind;
	const char *stage = NULL, *why = NULL;
	bool ftm;
	double plan_ms, push_ms;
	char sb[24], eb[320], srcs[32];
	struct wc_topo t;
	bool all_sources;
	struct nl_msg *msg;
	void *bytes = NULL;
	size_t len = 0;
	int err;

	*pushed = false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = op_refresh(&sc, &v);
	if (err || !plans_wanted(st, &v))
		return err;
	ftm = v.scheme == WORMCAST_MCAST_FTMESH;
	base_kind = ftm ? WORMCAST_TABLE_FTMESH : WORMCAST_TABLE_LABELS;
	for (i = 0; i < v.ntables; i++) {
		if (v.tables[i].kind == base_kind)
			labels_gen = v.tables[i].gen;
		if (v.tables[i].kind == WORMCAST_TABLE_PLANS)
			plans_gen = v.tables[i].gen;
	}
	if (!labels_gen)
		return 0;	/* the labels/ftmesh table first (sync_fabric) */
	/*
	 * A labels table says its scheme; an ftmesh table is of ftmesh (one
	 * of another strategy than 3 makes the kernel refuse the plans).
	 */
	if (!ftm) {
		err = op_read_table_scheme(&sc, &v, base_kind);
		if (err || !v.table_scheme_known || v.table_scheme != v.scheme)
			return err;
	}
	msg = family_msg(st, WORMCAST_CMD_GROUPS_GET, NLM_F_DUMP);
	if (msg && nla_put_u32(msg, WORMCAST_A_FABRIC_IFINDEX, ifindex) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	err = request(st, msg, groups_cb, &d);
	if (!err)
		err = d.err;
	if (err) {
		logmsg(st, LOG_ERR, "fabric %s: reading groups: %s", v.name,
		       req_error(st, err, eb, sizeof(eb)));
		groups_free(&d);
		return err;
	}
	if (m->plans_valid && m->plans_scheme == v.scheme &&
	    m->plans_groups_gen == d.gen && m->plans_labels_gen == labels_gen &&
	    (m->plans_failed || m->plans_gen == plans_gen)) {
		groups_free(&d);
		return 0;	/* up to date (or refused for these inputs) */
	}
	err = wc_topo_init(&t, v.topology, v.ndims, v.dims, &why);
	if (!err && !ftm)
		err = committed_labeling(&sc, &v, &t, &lb, &why);
	if (err == -EAGAIN) {
		groups_free(&d);
		return err;
	}
	if (err) {
		logmsg(st, LOG_ERR, "fabric %s: no labeling to plan on: %s", v.name,
		       why ? why : strerror(-err));
		groups_free(&d);
		return err;
	}
	for (i = 0; i < d.n; i++)
		recv += d.g[i].nmembers;
	all_sources = (uint64_t)t.nnodes * recv <= st->cfg.plans_eager_max;
	nsources = 0;
	if (!all_sources) {
		err = senders_update(m, &d);
		for (i = 0; i < d.n; i++)
			nsources += d.g[i].nsources;
	}
	if (!err && ftm)
		err = ftm_plans_build(m, &t, &d, all_sources, &bytes, &len,
				      &ps, &why);
	else if (!err)
		err = wc_plans_table_build(&lb, v.scheme == WORMCAST_MCAST_OCMS ?
					   WC_PP_OCMS : WC_PP_OTMS, d.g, d.n,
					   all_sources, &bytes, &len, &ps);
	if (!ftm)
		wc_labeling_free(&lb);
	plan_ms = ms_since(&t0);
	m->plans_valid = true;
	m->plans_scheme = v.scheme;
	m->plans_groups_gen = d.gen;
	m->plans_labels_gen = labels_gen;
	m->plans_failed = false;
	if (!err)
		err = wcd_push_table(&sync_ops.push, &sc, WORMCAST_TABLE_PLANS,
				     bytes, len, v.gen, WORMCAST_TABLE_CHUNK_MAX,
				     &new_gen, &stage);
	push_ms = ms_since(&t0) - plan_ms;
	free(bytes);
	if (err == -EAGAIN) {
		m->plans_valid = false;
		groups_free(&d);
		return err;
	}
	if (err) {
		m->plans_failed = true;
		logmsg(st, LOG_ERR, "fabric %s: plans %s failed: %s", v.name,
		       stage ? stage : "planning",
		       !stage && why ? why : req_error(st, err, eb, sizeof(eb)));
		groups_free(&d);
		return err;
	}
	m->plans_gen = new_gen;
	*pushed = true;
	if (all_sources)
		snprintf(srcs, sizeof(srcs), "every source");
	else
		snprintf(srcs, sizeof(srcs), "%u reported sources", nsources);
	logmsg(st, LOG_INFO,
	       "plans: fabric %s scheme %s groups %u membership %u plans %u (%s) skipped %u channels %llu bytes %zu generation %u planning %.1f ms push %.1f ms",
	       v.name, scheme_str(v.scheme, sb, sizeof(sb)), d.n, d.gen, ps.plans,
	       srcs, ps.skipped,
	       (unsigned long long)ps.channels, len, new_gen, plan_ms, push_ms);
	groups_free(&d);
	return 0;
}

static void sync_plans(struct daemon_state *st, uint32_t ifindex)
{
	struct fabric_mem *m = fabric_mem(st, ifindex);
	uint32_t tries;
	bool pushed;

	if (!m)
		return;
	for (tries = 0; tries < st->cfg.retries; tries++)
		if (sync_plans_once(st, m, ifindex, &pushed) != -EAGAIN)
			return;
	logmsg(st, LOG_ERR, "plans: generation kept moving; gave up after %u transactions",
	       tries);
}

/* Read every fabric of this namespace and bring each up to date. */
static void sync_all(struct daemon_state *st)
{
	char eb[320];
	uint32_t i;
	int r;

	st->want_sync = false;
	if (!st->family)
		return;
	r = read_fabrics(st);
	if (r) {
		logmsg(st, LOG_WARNING, "reading fabrics: %s", req_error(st, r, eb, sizeof(eb)));
		return;
	}
	if (st->fab_overflow)
		logmsg(st, LOG_WARNING, "more than %d fabrics: only the first are managed",
		       MAX_FABRICS);
	prune_mem(st);
	for (i = 0; i < st->nfab; i++) {
		sync_fabric(st, &st->fab[i]);
		if (plans_wanted(st, &st->fab[i]))
			sync_plans(st, st->fab[i].ifindex);
	}
}

/* ------------------------------------------------ multicast messages */

static int ctrl_event(struct daemon_state *st, struct nlmsghdr *nlh)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (g->cmd != CTRL_CMD_NEWFAMILY && g->cmd != CTRL_CMD_DELFAMILY)
		return NL_OK;
	if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
		   WORMCAST_GENL_NAME))
		return NL_OK;
	if (g->cmd == CTRL_CMD_NEWFAMILY) {
		logmsg(st, LOG_INFO, "wormcast module loaded");
		st->family_changed = true;	/* attach after this batch */
	} else {
		logmsg(st, LOG_INFO, "wormcast module unloaded");
		st->family = 0;
	}
	return NL_OK;
}

/*
 * FAULT_ADD or FAULT_DEL: the fabric's faults are read again (FAULT_GET)
 * at the next sync, after every event already queued has been read.
 */
static void fault_event(struct daemon_state *st, struct nlmsghdr *nlh)
{
	struct nlattr *tb[WORMCAST_A_MAX + 1];
	struct fabric_mem *m;

	st->want_sync = true;
	if (genlmsg_parse(nlh, 0, tb, WORMCAST_A_MAX, fabric_policy) < 0 ||
	    !tb[WORMCAST_A_FABRIC_IFINDEX])
		return;
	m = fabric_mem(st, nla_get_u32(tb[WORMCAST_A_FABRIC_IFINDEX]));
	if (!m)
		return;
	if (!m->faults.dirty && !m->faults.event_ms)
		m->faults.event_ms = mono_ms();
	m->faults.dirty = true;
}

static int event_cb(struct nl_msg *msg, void *arg)
{
	struct daemon_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *g;

	if (!genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;
	if (nlh->nlmsg_type == GENL_ID_CTRL)
		return ctrl_event(st, nlh);
	if (!st->family || nlh->nlmsg_type != st->family)
		return NL_SKIP;
	g = nlmsg_data(nlh);
	switch (g->cmd) {
	case WORMCAST_CMD_FABRIC_NEW:
		st->want_sync = true;
		return log_fabric(st, nlh, "new");
	case WORMCAST_CMD_FABRIC_DEL:
		st->want_sync = true;
		return log_fabric(st, nlh, "deleted");
	case WORMCAST_CMD_FABRIC_SET:
		/* a scheme change needs another table */
	case WORMCAST_CMD_TABLE_COMMIT:
		/* ours, or someone else's: look again */
	case WORMCAST_CMD_GROUPS_GET:
		/* membership changed: ocms/otms/ftmesh-3 fabrics re-plan */
		st->want_sync = true;
		return NL_OK;
	case WORMCAST_CMD_FAULT_ADD:
	case WORMCAST_CMD_FAULT_DEL:
		fault_event(st, nlh);
		return NL_OK;
	}
	return NL_SKIP;
}

/* ------------------------------------------------------------ links */

static bool is_wormcast(struct rtnl_link *link)
{
	const char *kind = link ? rtnl_link_get_type(link) : NULL;

	return kind && !strcmp(kind, WORMCAST_KIND);
}

static const char *updown(struct rtnl_link *link)
{
	unsigned int flags = rtnl_link_get_flags(link);

	if (!(flags & IFF_UP))
		return "down";
	return flags & IFF_LOWER_UP ? "up" : "up, no carrier";
}

static void link_change(struct nl_cache *cache, struct nl_object *old_obj,
			struct nl_object *new_obj, uint64_t diff, int action,
			void *arg)
{
	struct rtnl_link *old = (struct rtnl_link *)old_obj;
	struct rtnl_link *cur = (struct rtnl_link *)new_obj;
	struct daemon_state *st = arg;
	struct rtnl_link *any = cur ? cur : old;

	if (!is_wormcast(any))
		return;
	switch (action) {
	case NL_ACT_NEW:
		logmsg(st, LOG_INFO, "link %s ifindex %d appeared (%s)",
		       rtnl_link_get_name(any), rtnl_link_get_ifindex(any),
		       updown(any));
		break;
	case NL_ACT_DEL:
		logmsg(st, LOG_INFO,
		       "link %s ifindex %d left this namespace (deleted or moved)",
		       rtnl_link_get_name(any), rtnl_link_get_ifindex(any));
		break;
	case NL_ACT_CHANGE:
		if (!old || !cur)
			break;
		if (strcmp(rtnl_link_get_name(old), rtnl_link_get_name(cur)))
			logmsg(st, LOG_INFO, "link %s ifindex %d renamed to %s",
			       rtnl_link_get_name(old),
			       rtnl_link_get_ifindex(cur),
			       rtnl_link_get_name(cur));
		if (strcmp(updown(old), updown(cur)))
			logmsg(st, LOG_INFO, "link %s ifindex %d is %s",
			       rtnl_link_get_name(cur),
			       rtnl_link_get_ifindex(cur), updown(cur));
		break;
	}
}

static void log_present_link(struct nl_object *obj, void *arg)
{
	struct rtnl_link *link = (struct rtnl_link *)obj;

	if (is_wormcast(link))
		logmsg(arg, LOG_INFO, "link %s ifindex %d present (%s)",
		       rtnl_link_get_name(link), rtnl_link_get_ifindex(link),
		       updown(link));
}

/* Differences found by a resync: appeared or left, nothing older known. */
static void link_resync_change(struct nl_cache *cache, struct nl_object *obj,
			       int action, void *arg)
{
	if (action == NL_ACT_NEW)
		link_change(cache, NULL, obj, 0, action, arg);
	else if (action == NL_ACT_DEL)
		link_change(cache, obj, NULL, 0, action, arg);
}

/*
 * Creating a big fabric sends thousands of link notifications at once: a
 * large receive buffer keeps up, and if it overflows anyway the cache is
 * compared with a fresh dump so that no device goes unreported.
 */
#define LINK_RCVBUF (4 << 20)

static void links_data_ready(struct daemon_state *st)
{
	int r = nl_cache_mngr_data_ready(st->mngr);

	if (r >= 0)
		return;
	if (r != -NLE_NOMEM) {
		logmsg(st, LOG_WARNING, "links: %s", nl_geterror(r));
		return;
	}
	logmsg(st, LOG_WARNING, "link notifications lost; resynchronising");
	r = nl_cache_resync(st->resync, st->links, link_resync_change, st);
	if (r < 0)
		logmsg(st, LOG_WARNING, "links: resync: %s", nl_geterror(r));
}

static int watch_links(struct daemon_state *st)
{
	int r;

	st->route = nl_socket_alloc();
	st->resync = nl_socket_alloc();
	if (!st->route || !st->resync)
		return -NLE_NOMEM;
	r = nl_connect(st->resync, NETLINK_ROUTE);
	if (r < 0)
		return r;
	r = nl_cache_mngr_alloc(st->route, NETLINK_ROUTE, NL_AUTO_PROVIDE,
				&st->mngr);
	if (r < 0)
		return r;
	/* the manager has connected the socket: now its buffer can grow */
	r = nl_socket_set_buffer_size(st->route, LINK_RCVBUF, 0);
	if (r < 0)
		return r;
	r = rtnl_link_alloc_cache(NULL, AF_UNSPEC, &st->links);
	if (r < 0)
		return r;
	r = nl_cache_mngr_add_cache_v2(st->mngr, st->links, link_change, st);
	if (r < 0) {
		nl_cache_free(st->links);
		st->links = NULL;
		return r;
	}
	nl_cache_foreach(st->links, log_present_link, st);
	return 0;
}

/* ------------------------------------------------------------- main */

static int open_sockets(struct daemon_state *st)
{
	int r, ctrl_grp;

	st->req = nl_socket_alloc();
	st->ev = nl_socket_alloc();
	if (!st->req || !st->ev)
		return -NLE_NOMEM;
	r = genl_connect(st->req);
	if (r < 0)
		return r;
	r = genl_connect(st->ev);
	if (r < 0)
		return r;
	{
		int one = 1;

		/* the kernel's messages for refusals, without the request echoed */
		setsockopt(nl_socket_get_fd(st->req), SOL_NETLINK, NETLINK_EXT_ACK,
			   &one, sizeof(one));
		setsockopt(nl_socket_get_fd(st->req), SOL_NETLINK, NETLINK_CAP_ACK,
			   &one, sizeof(one));
		/* a table chunk is up to 64 KiB */
		nl_socket_set_msg_buf_size(st->req, 128 * 1024);
	}
	nl_socket_disable_seq_check(st->ev);
	nl_socket_modify_cb(st->ev, NL_CB_VALID, NL_CB_CUSTOM, event_cb, st);
	r = nl_socket_set_nonblocking(st->ev);
	if (r < 0)
		return r;
	/* The controller tells when a family (un)registers. */
	ctrl_grp = genl_ctrl_resolve_grp(st->req, "nlctrl", "notify");
	if (ctrl_grp >= 0)
		nl_socket_add_membership(st->ev, ctrl_grp);
	return 0;
}

static int open_signalfd(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC);
}

/*
 * Attach to the family and list its fabrics, if the module is there.
 * @once: say so when it is not, rather than that we wait for it.
 */
static int attach_and_list(struct daemon_state *st, bool once)
{
	int r;

	r = attach_family(st);
	if (r == -NLE_OBJ_NOTFOUND) {
		logmsg(st, once ? LOG_ERR : LOG_INFO,
		       once ? "wormcast module not loaded" :
			      "wormcast module not loaded; waiting for it");
		return r;
	}
	if (r < 0) {
		logmsg(st, LOG_ERR, "wormcast family: %s", nl_geterror(r));
		return r;
	}
	r = list_fabrics(st);
	if (r < 0) {
		logmsg(st, LOG_ERR, "listing fabrics: %s", nl_geterror(r));
		return r;
	}
	if (!once)
		sync_all(st);
	return 0;
}

/*
 * SIGHUP: read the configuration again.  A file that does not parse
 * changes nothing; a good one replaces the old, and every fabric is synced
 * before the next event: an "rt" table computed with options that changed
 * is computed again.
 */
static void reload_config(struct daemon_state *st)
{
	struct wcd_config cfg;
	bool missing;
	char err[512];

	if (wcd_config_load(&cfg, st->config_path, st->config_given, &missing,
			    err, sizeof(err))) {
		logmsg(st, LOG_ERR,
		       "reload: %s; keeping the previous configuration", err);
		return;
	}
	wcd_config_free(&st->cfg);
	st->cfg = cfg;
	logmsg(st, LOG_INFO, "reload: configuration %s%s; polling every %u s",
	       st->config_path, missing ? " absent, defaults" : "",
	       st->cfg.poll_interval);
	sync_all(st);
	logmsg(st, LOG_INFO, "reload: every fabric synced");
}

static int run(struct daemon_state *st)
{
	struct pollfd pfd[3];
	struct signalfd_siginfo si;
	uint64_t next_poll = mono_ms() + (uint64_t)st->cfg.poll_interval * 1000;
	int r, timeout;

	pfd[0].fd = st->sigfd;
	pfd[1].fd = nl_socket_get_fd(st->ev);
	pfd[2].fd = nl_cache_mngr_get_fd(st->mngr);
	pfd[0].events = pfd[1].events = pfd[2].events = POLLIN;
	for (;;) {
		timeout = -1;
		if (st->cfg.poll_interval && st->family) {
			uint64_t now = mono_ms();

			timeout = next_poll > now ? (int)(next_poll - now) : 0;
		}
		r = poll(pfd, 3, timeout);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			logmsg(st, LOG_ERR, "poll: %s", strerror(errno));
			return 1;
		}
		if (pfd[0].revents & POLLIN) {
			if (read(st->sigfd, &si, sizeof(si)) != sizeof(si))
				continue;
			if (si.ssi_signo != SIGHUP) {
				logmsg(st, LOG_INFO, "signal %u, exiting",
				       si.ssi_signo);
				return 0;
			}
			reload_config(st);
			next_poll = mono_ms() +
				    (uint64_t)st->cfg.poll_interval * 1000;
		}
		if (pfd[1].revents & POLLIN) {
			uint32_t batch = 0;

			/*
			 * Read every queued event before syncing, so that a
			 * burst of faults gives one table.
			 */
			do
				r = nl_recvmsgs_default(st->ev);
			while (r >= 0 && ++batch < 256);
			if (r < 0 && r != -NLE_AGAIN) {
				logmsg(st, LOG_WARNING, "events: %s",
				       nl_geterror(r));
				st->want_sync = true;	/* events may be lost */
			}
			if (st->family_changed) {
				st->family_changed = false;
				attach_and_list(st, false);
			}
		}
		if (pfd[2].revents & POLLIN)
			links_data_ready(st);
		if (st->cfg.poll_interval && mono_ms() >= next_poll) {
			/* FABRIC_SET sends no event: a scheme change is seen here */
			st->want_sync = true;
			next_poll = mono_ms() + (uint64_t)st->cfg.poll_interval * 1000;
		}
		if (st->want_sync)
			sync_all(st);
	}
}

static void cleanup(struct daemon_state *st)
{
	uint32_t i;

	for (i = 0; i < st->nmem; i++)
		fabric_mem_free(&st->mem[i]);
	if (st->mngr)
		nl_cache_mngr_free(st->mngr);	/* frees the caches it holds */
	else if (st->links)
		nl_cache_free(st->links);
	if (st->route)
		nl_socket_free(st->route);
	if (st->resync)
		nl_socket_free(st->resync);
	if (st->ev)
		nl_socket_free(st->ev);
	if (st->req)
		nl_socket_free(st->req);
	if (st->sigfd >= 0)
		close(st->sigfd);
	if (st->use_syslog)
		closelog();
	wcd_config_free(&st->cfg);
}

static void usage(FILE *f)
{
	fputs("Usage: wormcastd [ -c FILE ] [ -d ] [ -s ] [ --once ] [ --check-config ]\n"
	      "                 [ -V ] [ -h ]\n"
	      "  -c, --config FILE  configuration (default " WCD_DEFAULT_CONFIG ",\n"
	      "                     optional; with -c it must exist)\n"
	      "  -f, --foreground   stay in the foreground (the default)\n"
	      "  -d, --daemon       daemonize (implies -s)\n"
	      "  -s, --syslog       log to syslog instead of stderr\n"
	      "      --once         list the fabrics present and exit\n"
	      "      --check-config check the configuration and exit\n"
	      "  -V, --version      print the version\n"
	      "  -h, --help         this help\n", f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "daemon", no_argument, NULL, 'd' },
		{ "syslog", no_argument, NULL, 's' },
		{ "once", no_argument, NULL, 'o' },
		{ "check-config", no_argument, NULL, 'C' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct daemon_state st = { .sigfd = -1 };
	bool background = false, once = false, check = false, missing;
	const char *config = NULL;
	char err[512];
	int c, r, status = 1;

	while ((c = getopt_long(argc, argv, "c:fdsVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 'f':
			background = false;
			break;
		case 'd':
			background = true;
			break;
		case 's':
			st.use_syslog = true;
			break;
		case 'o':
			once = true;
			break;
		case 'C':
			check = true;
			break;
		case 'V':
			printf("wormcastd %s\n", WORMCASTD_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wormcastd: unexpected argument \"%s\"\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	st.config_path = config ? config : WCD_DEFAULT_CONFIG;
	st.config_given = config != NULL;
	if (wcd_config_load(&st.cfg, st.config_path, st.config_given,
			    &missing, err, sizeof(err))) {
		fprintf(stderr, "wormcastd: %s\n", err);
		return 2;
	}
	if (check) {
		printf("wormcastd: %s: %s\n", config ? config : WCD_DEFAULT_CONFIG,
		       missing ? "absent, defaults apply" : "ok");
		wcd_config_free(&st.cfg);
		return 0;
	}
	if (background && !once) {
		st.use_syslog = true;
		if (daemon(0, 0) < 0) {
			perror("wormcastd: daemon");
			wcd_config_free(&st.cfg);
			return 1;
		}
	}
	if (st.use_syslog)
		openlog("wormcastd", LOG_PID, LOG_DAEMON);
	if (!once)
		logmsg(&st, LOG_INFO, "configuration %s%s; polling every %u s",
		       config ? config : WCD_DEFAULT_CONFIG,
		       missing ? " absent, defaults" : "", st.cfg.poll_interval);

	r = open_sockets(&st);
	if (r < 0) {
		logmsg(&st, LOG_ERR, "generic netlink: %s", nl_geterror(r));
		goto out;
	}
	if (once) {
		r = attach_and_list(&st, true);
		status = r < 0 ? 1 : 0;
		goto out;
	}
	st.sigfd = open_signalfd();
	if (st.sigfd < 0) {
		logmsg(&st, LOG_ERR, "signalfd: %s", strerror(errno));
		goto out;
	}
	r = watch_links(&st);
	if (r < 0) {
		logmsg(&st, LOG_ERR, "link cache manager: %s", nl_geterror(r));
		goto out;
	}
	attach_and_list(&st, false);	/* a missing module is no error */
	status = run(&st);
out:
	cleanup(&st);
	return status;
}
