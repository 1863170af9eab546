// SPDX-License-Identifier: GPL-2.0
/*
 * wormcastd: the wormcast daemon.  For now it watches and logs; it will
 * compute routing tables and push them with FABRIC_SET-like commands.
 *
 *  - at start, lists the fabrics present (FABRIC_GET dump);
 *  - follows the "events" multicast group of the wormcast generic netlink
 *    family (FABRIC_NEW, FABRIC_DEL), and the generic netlink controller
 *    so that loading or unloading the module later is noticed;
 *  - watches wormcast links with libnl's route cache manager and logs node
 *    devices appearing, leaving (deleted or moved to another namespace),
 *    going up or down, and renamed.
 *
 * Logs to stderr, or syslog with -s (always when not in the foreground).
 * SIGTERM and SIGINT end it cleanly (signalfd).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <linux/if.h>

#include <netlink/netlink.h>
#include <netlink/cache.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/route/link.h>

#include <linux/wormcast.h>
#include "topology.h"

#define WORMCASTD_VERSION "0.1"

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
		return log_fabric(st, nlh, "new");
	case WORMCAST_CMD_FABRIC_DEL:
		return log_fabric(st, nlh, "deleted");
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
	if (r < 0)
		logmsg(st, LOG_ERR, "listing fabrics: %s", nl_geterror(r));
	return r;
}

static int run(struct daemon_state *st)
{
	struct pollfd pfd[3];
	struct signalfd_siginfo si;
	int r;

	pfd[0].fd = st->sigfd;
	pfd[1].fd = nl_socket_get_fd(st->ev);
	pfd[2].fd = nl_cache_mngr_get_fd(st->mngr);
	pfd[0].events = pfd[1].events = pfd[2].events = POLLIN;
	for (;;) {
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			logmsg(st, LOG_ERR, "poll: %s", strerror(errno));
			return 1;
		}
		if (pfd[0].revents & POLLIN) {
			if (read(st->sigfd, &si, sizeof(si)) == sizeof(si))
				logmsg(st, LOG_INFO, "signal %u, exiting",
				       si.ssi_signo);
			return 0;
		}
		if (pfd[1].revents & POLLIN) {
			r = nl_recvmsgs_default(st->ev);
			if (r < 0 && r != -NLE_AGAIN)
				logmsg(st, LOG_WARNING, "events: %s",
				       nl_geterror(r));
			if (st->family_changed) {
				st->family_changed = false;
				attach_and_list(st, false);
			}
		}
		if (pfd[2].revents & POLLIN)
			links_data_ready(st);
	}
}

static void cleanup(struct daemon_state *st)
{
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
}

static void usage(FILE *f)
{
	fputs("Usage: wormcastd [ -f ] [ -s ] [ --once ] [ -V ] [ -h ]\n"
	      "  -f, --foreground  stay in the foreground (default: daemonize,\n"
	      "                    which implies -s)\n"
	      "  -s, --syslog      log to syslog instead of stderr\n"
	      "      --once        list the fabrics present and exit\n"
	      "  -V, --version     print the version\n"
	      "  -h, --help        this help\n", f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "syslog", no_argument, NULL, 's' },
		{ "once", no_argument, NULL, 'o' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct daemon_state st = { .sigfd = -1 };
	bool foreground = false, once = false;
	int c, r, status = 1;

	while ((c = getopt_long(argc, argv, "fsVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			foreground = true;
			break;
		case 's':
			st.use_syslog = true;
			break;
		case 'o':
			once = true;
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
	if (!foreground && !once) {
		st.use_syslog = true;
		if (daemon(0, 0) < 0) {
			perror("wormcastd: daemon");
			return 1;
		}
	}
	if (st.use_syslog)
		openlog("wormcastd", LOG_PID, LOG_DAEMON);

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
