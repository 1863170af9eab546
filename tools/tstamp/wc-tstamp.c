// SPDX-License-Identifier: GPL-2.0
/*
 * wc-tstamp: per-datagram fabric latency through the standard timestamping
 * API (SO_TIMESTAMPING with hardware timestamps), from two network
 * namespaces.  Documentation/tools.rst, "wc-tstamp".
 *
 *   wc-tstamp send --dst ADDR --port P [--count N] [--size BYTES]
 *                  [--interval MS] [--ifname DEV]
 *   wc-tstamp recv --port P [--count N] [--ifname DEV] [--ready FILE]
 *                  [--timeout S] [--group IPV4-GROUP]
 *
 * The sender sends datagrams 1..N, each of --size bytes of UDP payload,
 * one at a time: after each it waits for the TX hardware timestamp on its
 * error queue (taken when the worm took its injection channel) and puts it
 * into the next datagram; a last datagram N + 1 carries the timestamp of
 * datagram N.  The receiver reads the RX hardware timestamp of each
 * datagram (taken when its tail was consumed) and, once the next one tells
 * it the TX timestamp, prints the fabric latency RX - TX:
 *
 *   sender:   tx seq 1 hw_ns 1234
 *   receiver: seq 1 tx_ns 1234 rx_ns 1270 latency_ns 36
 *
 * Timestamps are in fabric time: virtual nanoseconds (1 per cycle) in
 * virtual-time mode, CLOCK_REALTIME in paced mode.  With --ifname the
 * program switches the device's hardware timestamping on (SIOCSHWTSTAMP:
 * TX on for send, RX filter "all" for recv; needs CAP_NET_ADMIN), leaving
 * the other direction as it was.  With --group the receiver joins an IPv4
 * multicast group on --ifname: a multicast datagram gets one RX stamp per
 * destination.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WC_TS_MAGIC	"wctstamp"
#define WC_TS_FIN	1u

/* The start of every datagram's payload; the rest is zero padding. */
struct wc_ts_msg {
	char magic[8];
	uint32_t seq;		/* network byte order, as all fields */
	uint32_t flags;		/* WC_TS_FIN: the last one, not measured */
	uint32_t prev_hi;	/* TX hardware timestamp (ns) of seq - 1 */
	uint32_t prev_lo;
};

struct opts {
	const char *dst, *ifname, *ready, *group;
	int port, count, size, interval_ms, timeout_s;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: wc-tstamp send --dst ADDR --port P [--count N] [--size BYTES]\n"
		"                      [--interval MS] [--ifname DEV]\n"
		"       wc-tstamp recv --port P [--count N] [--ifname DEV] [--ready FILE]\n"
		"                      [--timeout S] [--group IPV4-GROUP]\n");
	exit(2);
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/*
 * Switch hardware timestamping on for one direction of @ifname, keeping
 * the other as it is.  0, or -1 with a message.
 */
static int hwtstamp_enable(int fd, const char *ifname, int tx)
{
	struct hwtstamp_config cfg;
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memset(&cfg, 0, sizeof(cfg));
	if (strlen(ifname) >= sizeof(ifr.ifr_name)) {
		fprintf(stderr, "wc-tstamp: interface name too long: %s\n", ifname);
		return -1;
	}
	strcpy(ifr.ifr_name, ifname);
	ifr.ifr_data = (char *)&cfg;
	if (ioctl(fd, SIOCGHWTSTAMP, &ifr) < 0) {
		fprintf(stderr, "wc-tstamp: SIOCGHWTSTAMP %s: %s\n", ifname,
			strerror(errno));
		return -1;
	}
	if (tx)
		cfg.tx_type = HWTSTAMP_TX_ON;
	else
		cfg.rx_filter = HWTSTAMP_FILTER_ALL;
	if (ioctl(fd, SIOCSHWTSTAMP, &ifr) < 0) {
		fprintf(stderr, "wc-tstamp: SIOCSHWTSTAMP %s: %s\n", ifname,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int set_tsflags(int fd, int flags)
{
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) < 0) {
		fprintf(stderr, "wc-tstamp: SO_TIMESTAMPING: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* The hardware timestamp among the control messages of @msg, or -1. */
static int64_t hw_stamp(struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		struct scm_timestamping tss;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_TIMESTAMPING)
			continue;
		memcpy(&tss, CMSG_DATA(c), sizeof(tss));
		if (tss.ts[2].tv_sec || tss.ts[2].tv_nsec)
			return ts_ns(&tss.ts[2]);
	}
	return -1;
}

/*
 * Wait for the TX hardware timestamp of the datagram with OPT_ID @id on
 * @fd's error queue, at most 2 s.  The timestamp, or -1.
 */
static int64_t tx_stamp(int fd, uint32_t id)
{
	char ctrl[512];
	struct pollfd p = { .fd = fd, .events = 0 };
	int waited = 0;

	while (waited < 2000) {
		struct msghdr msg = { .msg_control = ctrl,
				      .msg_controllen = sizeof(ctrl) };
		struct sock_extended_err *ee = NULL;
		struct cmsghdr *c;
		int64_t hw;

		if (poll(&p, 1, 100) == 0) {
			waited += 100;
			continue;
		}
		if (recvmsg(fd, &msg, MSG_ERRQUEUE) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			fprintf(stderr, "wc-tstamp: error queue: %s\n", strerror(errno));
			return -1;
		}
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
			    (c->cmsg_level == IPPROTO_IPV6 &&
			     c->cmsg_type == IPV6_RECVERR))
				ee = (struct sock_extended_err *)CMSG_DATA(c);
		hw = hw_stamp(&msg);
		if (ee && ee->ee_origin == SO_EE_ORIGIN_TIMESTAMPING &&
		    ee->ee_info == SCM_TSTAMP_SND && ee->ee_data == id && hw >= 0)
			return hw;
	}
	return -1;
}

static int do_send(const struct opts *o)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai;
	char port[16], *buf;
	int64_t prev = 0;
	int fd, err, i, bad = 0;

	snprintf(port, sizeof(port), "%d", o->port);
	err = getaddrinfo(o->dst, port, &hints, &ai);
	if (err) {
		fprintf(stderr, "wc-tstamp: %s: %s\n", o->dst, gai_strerror(err));
		return 1;
	}
	fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("wc-tstamp: socket");
		return 1;
	}
	if ((o->ifname && hwtstamp_enable(fd, o->ifname, 1)) ||
	    set_tsflags(fd, SOF_TIMESTAMPING_TX_HARDWARE |
			SOF_TIMESTAMPING_RAW_HARDWARE |
			SOF_TIMESTAMPING_OPT_ID | SOF_TIMESTAMPING_OPT_TSONLY))
		return 1;
	buf = calloc(1, o->size);
	if (!buf)
		return 1;
	/* seq count + 1 is the last one: it only carries the stamp of count */
	for (i = 1; i <= o->count + 1; i++) {
		struct wc_ts_msg m;
		int64_t hw;

		memcpy(m.magic, WC_TS_MAGIC, sizeof(m.magic));
		m.seq = htonl(i);
		m.flags = htonl(i > o->count ? WC_TS_FIN : 0);
		m.prev_hi = htonl((uint64_t)prev >> 32);
		m.prev_lo = htonl((uint32_t)prev);
		memcpy(buf, &m, sizeof(m));
		if (sendto(fd, buf, o->size, 0, ai->ai_addr, ai->ai_addrlen) < 0) {
			fprintf(stderr, "wc-tstamp: send %d: %s\n", i, strerror(errno));
			return 1;
		}
		if (i > o->count)
			break;
		/* OPT_ID counts datagrams from 0 */
		hw = tx_stamp(fd, i - 1);
		if (hw < 0) {
			fprintf(stderr, "wc-tstamp: no TX hardware timestamp for seq %d\n", i);
			bad = 1;
			hw = 0;
		} else {
			printf("tx seq %d hw_ns %" PRId64 "\n", i, hw);
			fflush(stdout);
		}
		prev = hw;
		if (o->interval_ms)
			usleep(o->interval_ms * 1000);
	}
	free(buf);
	freeaddrinfo(ai);
	close(fd);
	return bad;
}

/* A socket bound to @port: dual-stack, or IPv4 joined to @group. */
static int recv_socket(const struct opts *o)
{
	struct sockaddr_in6 sa6 = { .sin6_family = AF_INET6,
				    .sin6_port = htons(o->port) };
	struct sockaddr_in sa4 = { .sin_family = AF_INET,
				   .sin_port = htons(o->port) };
	struct ip_mreqn mr = { .imr_ifindex = 0 };
	int fd, off = 0;

	if (!o->group) {
		fd = socket(AF_INET6, SOCK_DGRAM, 0);
		if (fd < 0 ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)) < 0 ||
		    bind(fd, (struct sockaddr *)&sa6, sizeof(sa6)) < 0) {
			perror("wc-tstamp: socket");
			return -1;
		}
		return fd;
	}
	if (inet_pton(AF_INET, o->group, &mr.imr_multiaddr) != 1) {
		fprintf(stderr, "wc-tstamp: not an IPv4 group: %s\n", o->group);
		return -1;
	}
	if (o->ifname)
		mr.imr_ifindex = if_nametoindex(o->ifname);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa4, sizeof(sa4)) < 0 ||
	    setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0) {
		perror("wc-tstamp: socket");
		return -1;
	}
	return fd;
}

static int do_recv(const struct opts *o)
{
	int64_t last_rx = -1;
	uint32_t last_seq = 0;
	int fd, got = 0, bad = 0;
	char buf[65536], ctrl[512];

	fd = recv_socket(o);
	if (fd < 0)
		return 1;
	if ((o->ifname && hwtstamp_enable(fd, o->ifname, 0)) ||
	    set_tsflags(fd, SOF_TIMESTAMPING_RX_HARDWARE |
			SOF_TIMESTAMPING_RAW_HARDWARE |
			SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE))
		return 1;
	if (o->ready) {
		FILE *f = fopen(o->ready, "w");

		if (!f) {
			perror(o->ready);
			return 1;
		}
		fclose(f);
	}
	while (!o->count || got < o->count) {
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = ctrl,
				      .msg_controllen = sizeof(ctrl) };
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct wc_ts_msg m;
		int64_t rx, tx;
		ssize_t n;
		uint32_t seq;

		if (poll(&p, 1, o->timeout_s * 1000) == 0) {
			fprintf(stderr, "wc-tstamp: nothing for %d s\n", o->timeout_s);
			return 1;
		}
		n = recvmsg(fd, &msg, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("wc-tstamp: recvmsg");
			return 1;
		}
		if ((size_t)n < sizeof(m))
			continue;
		memcpy(&m, buf, sizeof(m));
		if (memcmp(m.magic, WC_TS_MAGIC, sizeof(m.magic)))
			continue;
		seq = ntohl(m.seq);
		tx = (int64_t)((uint64_t)ntohl(m.prev_hi) << 32 | ntohl(m.prev_lo));
		rx = hw_stamp(&msg);
		if (rx < 0) {
			fprintf(stderr, "wc-tstamp: no RX hardware timestamp for seq %u\n", seq);
			bad = 1;
		}
		if (last_seq && seq == last_seq + 1 && last_rx >= 0 && tx > 0) {
			printf("seq %u tx_ns %" PRId64 " rx_ns %" PRId64 " latency_ns %" PRId64 "\n",
			       last_seq, tx, last_rx, last_rx - tx);
			fflush(stdout);
			got++;
		}
		if (ntohl(m.flags) & WC_TS_FIN)
			break;
		last_seq = seq;
		last_rx = rx;
	}
	close(fd);
	return bad;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "dst", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "interval", required_argument, NULL, 'i' },
		{ "ifname", required_argument, NULL, 'I' },
		{ "ready", required_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct opts o = { .port = 0, .count = 0, .size = 64, .interval_ms = 50,
			  .timeout_s = 30 };
	const char *mode;
	int c;

	if (argc < 2)
		usage();
	mode = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'd': o.dst = optarg; break;
		case 'p': o.port = atoi(optarg); break;
		case 'c': o.count = atoi(optarg); break;
		case 's': o.size = atoi(optarg); break;
		case 'i': o.interval_ms = atoi(optarg); break;
		case 'I': o.ifname = optarg; break;
		case 'r': o.ready = optarg; break;
		case 't': o.timeout_s = atoi(optarg); break;
		case 'g': o.group = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || o.port <= 0 || o.port > 65535 || o.count < 0 ||
	    o.interval_ms < 0 || o.timeout_s <= 0)
		usage();
	if (o.size < (int)sizeof(struct wc_ts_msg) || o.size > 65000) {
		fprintf(stderr, "wc-tstamp: --size must be %zu to 65000\n",
			sizeof(struct wc_ts_msg));
		return 2;
	}
	if (!strcmp(mode, "send")) {
		if (!o.dst || !o.count)
			usage();
		return do_send(&o);
	}
	if (!strcmp(mode, "recv"))
		return do_recv(&o);
	usage();
	return 2;
}
