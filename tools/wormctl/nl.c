// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl: generic netlink plumbing (libmnl): family resolution, requests,
 * replies of any size, and errors reported with the kernel's extack
 * message as iproute2 prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/wormcast.h>

#include "nl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

/* State of one exchange, seen by the data and control callbacks. */
struct talk {
	mnl_cb_t cb;
	void *data;
	int error;		/* negative errno from the kernel */
	char msg[256];		/* extack message, "" if none */
};

struct nlmsghdr *wc_nl_request(struct wc_nl *nl, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	nlh = mnl_nlmsg_put_header(nl->txbuf);
	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = WORMCAST_GENL_VERSION;
	return nlh;
}

static int extack_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type <= NLMSGERR_ATTR_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

/* Copy the extack message that follows an error or done message. */
static void read_extack(const struct nlmsghdr *nlh, unsigned int offset,
			struct talk *t)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	const char *msg;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (mnl_attr_parse(nlh, offset, extack_attr_cb, tb) != MNL_CB_OK)
		return;
	if (!tb[NLMSGERR_ATTR_MSG] ||
	    mnl_attr_validate(tb[NLMSGERR_ATTR_MSG], MNL_TYPE_NUL_STRING) < 0)
		return;
	msg = mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]);
	snprintf(t->msg, sizeof(t->msg), "%s", msg);
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct talk *t = data;
	unsigned int offset = sizeof(*err);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		t->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	/* Without NLM_F_CAPPED the whole request is echoed before the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += mnl_nlmsg_get_payload_len(&err->msg);
	read_extack(nlh, offset, t);
	if (err->error == 0)
		return MNL_CB_STOP;	/* the ack */
	t->error = err->error;
	return MNL_CB_ERROR;
}

static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;
	int err;

	/* A dump may end with an error code (and an extack) in its DONE. */
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
		if (err < 0) {
			read_extack(nlh, sizeof(int), t);
			t->error = err;
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_STOP;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;

	return t->cb ? t->cb(nlh, t->data) : MNL_CB_OK;
}

/* Receive one datagram, growing the buffer to its size first. */
static ssize_t receive(struct wc_nl *nl)
{
	int fd = mnl_socket_get_fd(nl->sk);
	ssize_t len;
	char *buf;

	do {
		len = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC);
	} while (len < 0 && errno == EINTR);
	if (len < 0)
		return -errno;
	if ((size_t)len > nl->rxlen) {
		buf = realloc(nl->rxbuf, (size_t)len);
		if (!buf)
			return -ENOMEM;
		nl->rxbuf = buf;
		nl->rxlen = (size_t)len;
	}
	len = mnl_socket_recvfrom(nl->sk, nl->rxbuf, nl->rxlen);
	return len < 0 ? -errno : len;
}

static void print_error(const char *what, const struct talk *t, int err)
{
	size_t len = strlen(t->msg);

	if (len) {
		/* As iproute2: "Error: message." */
		fprintf(stderr, "Error: %s%s\n", t->msg,
			t->msg[len - 1] == '.' ? "" : ".");
		return;
	}
	fprintf(stderr, "wormctl: %s: %s%s\n", what, strerror(-err),
		err == -EPERM ? " (needs CAP_NET_ADMIN)" : "");
}

int wc_nl_talk(struct wc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
	       void *data, const char *what)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = error_cb,
		[NLMSG_DONE] = done_cb,
	};
	struct talk t = { .cb = cb, .data = data };
	uint32_t seq = req->nlmsg_seq;
	ssize_t len;
	int r;

	if (mnl_socket_sendto(nl->sk, req, req->nlmsg_len) < 0) {
		r = -errno;
		if (what)
			fprintf(stderr, "wormctl: %s: send: %s\n", what,
				strerror(-r));
		return r;
	}
	do {
		len = receive(nl);
		if (len < 0) {
			if (what)
				fprintf(stderr, "wormctl: %s: receive: %s\n",
					what, strerror((int)-len));
			return (int)len;
		}
		r = mnl_cb_run2(nl->rxbuf, (size_t)len, seq, nl->portid,
				data_cb, &t, ctl, NLMSG_MIN_TYPE);
	} while (r == MNL_CB_OK);
	if (r == MNL_CB_ERROR) {
		if (!t.error)
			t.error = errno ? -errno : -EIO;
		/* NLM_F_DUMP_INTR (libmnl: EINTR): the caller starts over */
		if (what && t.error != -EINTR)
			print_error(what, &t, t.error);
		return t.error;
	}
	return 0;
}

/* The id of group "events" from a CTRL_ATTR_MCAST_GROUPS nest. */
static void family_groups(const struct nlattr *groups, struct wc_nl *nl)
{
	const struct nlattr *g, *a;

	mnl_attr_for_each_nested(g, groups) {
		const char *name = NULL;
		uint32_t id = 0;

		mnl_attr_for_each_nested(a, g) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				name = mnl_attr_get_str(a);
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				id = mnl_attr_get_u32(a);
		}
		if (name && !strcmp(name, WORMCAST_GENL_MCGRP_EVENTS))
			nl->events_grp = id;
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct wc_nl *nl = data;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
			nl->family = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			family_groups(a, nl);
	}
	return MNL_CB_OK;
}

int wc_nl_open(struct wc_nl *nl)
{
	struct nlmsghdr *nlh;
	int one = 1;
	int r;

	memset(nl, 0, sizeof(*nl));
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk) {
		fprintf(stderr, "wormctl: netlink socket: %s\n",
			strerror(errno));
		return -1;
	}
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		fprintf(stderr, "wormctl: netlink bind: %s\n", strerror(errno));
		goto fail;
	}
	/* Extended acks carry the kernel's message; old kernels refuse. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = (uint32_t)time(NULL);

	/* CTRL_CMD_GETFAMILY: the id of "wormcast" in this kernel. */
	nl->family = GENL_ID_CTRL;
	nlh = wc_nl_request(nl, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, WORMCAST_GENL_NAME);
	nl->family = 0;
	r = wc_nl_talk(nl, nlh, family_cb, nl, NULL);
	if (r == -ENOENT || (!r && !nl->family)) {
		fprintf(stderr,
			"wormctl: no generic netlink family \"%s\": is the wormcast module loaded?\n",
			WORMCAST_GENL_NAME);
		goto fail;
	}
	if (r) {
		fprintf(stderr, "wormctl: resolving generic netlink family: %s\n",
			strerror(-r));
		goto fail;
	}
	return 0;
fail:
	wc_nl_close(nl);
	return -1;
}

void wc_nl_close(struct wc_nl *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	nl->sk = NULL;
	free(nl->rxbuf);
	nl->rxbuf = NULL;
	nl->rxlen = 0;
}
