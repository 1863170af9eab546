/* SPDX-License-Identifier: GPL-2.0 */
/* wormctl: the wormcast generic netlink family through libmnl. */
#ifndef WORMCTL_NL_H
#define WORMCTL_NL_H

#include <stdint.h>
#include <libmnl/libmnl.h>

/* How often a dump interrupted by concurrent changes is read again. */
#define WC_NL_DUMP_TRIES	5

struct wc_nl {
	struct mnl_socket *sk;
	uint16_t family;		/* resolved id of "wormcast" */
	uint32_t events_grp;		/* id of its "events" group, 0 if none */
	uint32_t portid;
	uint32_t seq;
	char *rxbuf;
	size_t rxlen;
	char txbuf[8192];		/* requests are small */
};

/*
 * Open a socket and resolve the family.  Prints why on failure and returns
 * -1 (exit status 1).
 */
int wc_nl_open(struct wc_nl *nl);
void wc_nl_close(struct wc_nl *nl);

/* Start a request of @cmd in nl->txbuf; add attributes with mnl_attr_put*. */
struct nlmsghdr *wc_nl_request(struct wc_nl *nl, uint8_t cmd, uint16_t flags);

/*
 * Send @req and read the answer: @cb runs on every reply message (it may
 * be NULL for requests answered by an ack only).  Returns 0, or a negative
 * errno after printing the kernel's extended ack message (or strerror).
 * @what names the operation in messages; NULL: print nothing.  A dump that
 * the kernel marked interrupted (NLM_F_DUMP_INTR: what it dumped changed
 * meanwhile) returns -EINTR unprinted: the caller reads again from the start.
 */
int wc_nl_talk(struct wc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
	       void *data, const char *what);

#endif /* WORMCTL_NL_H */
