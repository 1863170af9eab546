// SPDX-License-Identifier: GPL-2.0
/*
 * wc-udp: the selftests' UDP sender and receiver (IPv4 and IPv6, unicast
 * and multicast), in network namespaces.  In C because a Python start
 * costs seconds of CPU in the test VM under TCG (its imports), and the
 * selftests start a sender or receiver hundreds of times.
 *
 *   wc-udp recv --port P [--group G --ifname DEV] [--v6] [--ready FILE]
 *               --out FILE [--netns NS]
 *       Bind to P (joined to multicast group G on DEV if given), create
 *       FILE once ready, append every datagram's payload as one line to
 *       --out, until SIGTERM.
 *   wc-udp recv-many [--ready FILE] NS,DEV,GROUP,PORT,OUT...
 *       The same for several receivers in one process: each socket is
 *       made in network namespace NS (as "ip netns" names it), joins
 *       GROUP on DEV (an empty GROUP: a plain IPv4 receiver on PORT) and
 *       appends to OUT; FILE is created once all are ready.
 *   wc-udp send --dst ADDR --port P [--ifname DEV] [--count N] [--tag T]
 *               [--size BYTES] [--interval SECONDS] [--loop]
 *               [--until FILE] [--sent FILE] [--netns NS]
 *       Send N datagrams "T SEQ" (NUL-padded to BYTES) to ADDR; multicast
 *       leaves through DEV with a TTL of 1.  --loop: send until killed;
 *       --until: at least N and on until FILE exists; --sent: write how
 *       many were sent to FILE at the end.  A full queue (ENOBUFS,
 *       EAGAIN) is waited out, not counted as sent: the fabric is
 *       lossless and the tests count exactly.
 *
 * --netns NS enters the namespace itself (no "ip netns exec").  A
 * receiver's socket buffer is 16 MiB (SO_RCVBUFFORCE): a burst waits there
 * while one process serves many sockets on a slow guest, instead of being
 * dropped past the default 208 KiB.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_MULTICAST_ALL
#define IP_MULTICAST_ALL 49
#endif
#ifndef IPV6_MULTICAST_ALL
#define IPV6_MULTICAST_ALL 29
#endif

#define RCVBUF (16 << 20)
#define MAX_SOCKS 256
#define MAX_PAYLOAD 65536

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("wc-udp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(void)
{
	fputs("usage: wc-udp recv --port P [--group G --ifname DEV] [--v6] [--ready FILE]\n"
	      "                   --out FILE [--netns NS]\n"
	      "       wc-udp recv-many [--ready FILE] NS,DEV,GROUP,PORT,OUT...\n"
	      "       wc-udp send --dst ADDR --port P [--ifname DEV] [--count N] [--tag T]\n"
	      "                   [--size BYTES] [--interval SECONDS] [--loop]\n"
	      "                   [--until FILE] [--sent FILE] [--netns NS]\n",
	      stderr);
	exit(2);
}

static unsigned long parse_ulong(const char *s, const char *what,
				 unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > max)
		die("invalid %s \"%s\"", what, s);
	return v;
}

/* Enter network namespace @ns as "ip netns" names it (/run/netns/NS). */
static void enter_netns(const char *ns)
{
	char path[256];
	int fd;

	if (strchr(ns, '/') ||
	    snprintf(path, sizeof(path), "/run/netns/%s", ns) >= (int)sizeof(path))
		die("invalid namespace name \"%s\"", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("namespace %s: %s", ns, strerror(errno));
	if (setns(fd, CLONE_NEWNET))
		die("namespace %s: setns: %s", ns, strerror(errno));
	close(fd);
}

union addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

/* @s as an IPv4 or IPv6 address and @port; false if it is neither. */
static bool parse_addr(const char *s, unsigned int port, union addr *a,
		       socklen_t *len)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, &a->in.sin_addr) == 1) {
		a->in.sin_family = AF_INET;
		a->in.sin_port = htons(port);
		*len = sizeof(a->in);
		return true;
	}
	if (inet_pton(AF_INET6, s, &a->in6.sin6_addr) == 1) {
		a->in6.sin6_family = AF_INET6;
		a->in6.sin6_port = htons(port);
		*len = sizeof(a->in6);
		return true;
	}
	return false;
}

static unsigned int ifindex_of(const char *ifname)
{
	unsigned int i = if_nametoindex(ifname);

	if (!i)
		die("no device %s: %s", ifname, strerror(errno));
	return i;
}

static void set_int(int s, int level, int opt, int v, const char *what)
{
	if (setsockopt(s, level, opt, &v, sizeof(v)))
		die("%s: %s", what, strerror(errno));
}

/* A UDP socket bound to @port, joined to @group on @ifname if given. */
static int receiver(unsigned int port, const char *group, const char *ifname,
		    bool v6)
{
	union addr a;
	socklen_t len;
	int fam, s, buf = RCVBUF;

	if (group && *group) {
		if (!ifname || !*ifname)
			die("group %s needs a device", group);
		if (!parse_addr(group, port, &a, &len))
			die("invalid group \"%s\"", group);
	} else {
		memset(&a, 0, sizeof(a));
		if (v6) {
			a.in6.sin6_family = AF_INET6;
			a.in6.sin6_port = htons(port);
			len = sizeof(a.in6);
		} else {
			a.in.sin_family = AF_INET;
			a.in.sin_port = htons(port);
			len = sizeof(a.in);
		}
	}
	fam = a.sa.sa_family;
	s = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die("socket: %s", strerror(errno));
	set_int(s, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
	/* past rmem_max as root; else as large as allowed */
	if (setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)))
		set_int(s, SOL_SOCKET, SO_RCVBUF, buf, "SO_RCVBUF");
	if (group && *group && fam == AF_INET) {
		struct ip_mreqn mr = {
			.imr_multiaddr = a.in.sin_addr,
			.imr_ifindex = (int)ifindex_of(ifname),
		};

		if (setsockopt(s, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr)))
			die("join %s on %s: %s", group, ifname, strerror(errno));
		/* only the groups this socket joined, not the host's */
		set_int(s, IPPROTO_IP, IP_MULTICAST_ALL, 0, "IP_MULTICAST_ALL");
	} else if (group && *group) {
		struct ipv6_mreq mr = {
			.ipv6mr_multiaddr = a.in6.sin6_addr,
			.ipv6mr_interface = ifindex_of(ifname),
		};

		if (setsockopt(s, IPPROTO_IPV6, IPV6_ADD_MEMBERSHIP, &mr, sizeof(mr)))
			die("join %s on %s: %s", group, ifname, strerror(errno));
		set_int(s, IPPROTO_IPV6, IPV6_MULTICAST_ALL, 0, "IPV6_MULTICAST_ALL");
	}
	if (bind(s, &a.sa, len))
		die("bind port %u: %s", port, strerror(errno));
	return s;
}

static void on_sigterm(int sig)
{
	(void)sig;
	_exit(0);
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	close(fd);
}

static void write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("write: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
	}
}

/*
 * Append every datagram's payload (up to its first NUL, without surrounding
 * white space) as one line to its socket's file, until SIGTERM.  Each
 * wake-up drains every ready socket, then writes its lines at once, so a
 * line is in the file before the next poll.
 */
static void serve(const int *socks, const int *outs, int n, const char *ready)
{
	static char data[MAX_PAYLOAD + 1], lines[1 << 20];
	struct pollfd pfd[MAX_SOCKS];
	struct sigaction sa = { .sa_handler = on_sigterm };
	int i;

	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = socks[i], .events = POLLIN };
	if (ready)
		touch(ready);
	for (;;) {
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		for (i = 0; i < n; i++) {
			size_t used = 0;

			if (!(pfd[i].revents & POLLIN))
				continue;
			for (;;) {
				ssize_t r = recv(socks[i], data, MAX_PAYLOAD,
						 MSG_DONTWAIT);
				char *b, *e;

				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0)
					break;
				data[r] = '\0';
				b = data;
				e = b + strlen(b);
				while (b < e && (*b == ' ' || (*b >= '\t' && *b <= '\r')))
					b++;
				while (e > b && (e[-1] == ' ' ||
						 (e[-1] >= '\t' && e[-1] <= '\r')))
					e--;
				if (used + (size_t)(e - b) + 1 > sizeof(lines)) {
					write_all(outs[i], lines, used);
					used = 0;
				}
				memcpy(lines + used, b, (size_t)(e - b));
				used += (size_t)(e - b);
				lines[used++] = '\n';
			}
			write_all(outs[i], lines, used);
		}
	}
}

static int open_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	return fd;
}

enum {
	OPT_PORT = 256, OPT_GROUP, OPT_IFNAME, OPT_V6, OPT_READY, OPT_OUT,
	OPT_NETNS, OPT_DST, OPT_COUNT, OPT_TAG, OPT_SIZE, OPT_INTERVAL,
	OPT_LOOP, OPT_UNTIL, OPT_SENT,
};

static const struct option options[] = {
	{ "port", required_argument, NULL, OPT_PORT },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "ifname", required_argument, NULL, OPT_IFNAME },
	{ "v6", no_argument, NULL, OPT_V6 },
	{ "ready", required_argument, NULL, OPT_READY },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "netns", required_argument, NULL, OPT_NETNS },
	{ "dst", required_argument, NULL, OPT_DST },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "loop", no_argument, NULL, OPT_LOOP },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "sent", required_argument, NULL, OPT_SENT },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *group, *ifname, *ready, *out, *netns, *dst, *tag;
	const char *until, *sent;
	unsigned long port, count, size;
	double interval;
	bool v6, loop, has_port;
};

/* Options valid for @cmd: a mask of the OPT_* bits (bit OPT_x - OPT_PORT). */
#define O(x) (1u << ((x) - OPT_PORT))
static const unsigned int recv_opts = O(OPT_PORT) | O(OPT_GROUP) |
	O(OPT_IFNAME) | O(OPT_V6) | O(OPT_READY) | O(OPT_OUT) | O(OPT_NETNS);
static const unsigned int many_opts = O(OPT_READY);
static const unsigned int send_opts = O(OPT_DST) | O(OPT_PORT) |
	O(OPT_IFNAME) | O(OPT_COUNT) | O(OPT_TAG) | O(OPT_SIZE) |
	O(OPT_INTERVAL) | O(OPT_LOOP) | O(OPT_UNTIL) | O(OPT_SENT) |
	O(OPT_NETNS);

static void parse(int argc, char **argv, unsigned int allowed, struct args *a)
{
	char *end;
	int c;

	memset(a, 0, sizeof(*a));
	a->count = 1;
	a->tag = "wc";
	optind = 1;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (c < OPT_PORT || !(allowed & O(c))) {
			if (c >= OPT_PORT)
				fprintf(stderr, "wc-udp: %s: option --%s does not apply\n",
					argv[0], options[c - OPT_PORT].name);
			usage();
		}
		switch (c) {
		case OPT_PORT:
			a->port = parse_ulong(optarg, "port", 65535);
			a->has_port = true;
			break;
		case OPT_GROUP: a->group = optarg; break;
		case OPT_IFNAME: a->ifname = optarg; break;
		case OPT_V6: a->v6 = true; break;
		case OPT_READY: a->ready = optarg; break;
		case OPT_OUT: a->out = optarg; break;
		case OPT_NETNS: a->netns = optarg; break;
		case OPT_DST: a->dst = optarg; break;
		case OPT_COUNT:
			a->count = parse_ulong(optarg, "count", 1ul << 31);
			break;
		case OPT_TAG: a->tag = optarg; break;
		case OPT_SIZE:
			a->size = parse_ulong(optarg, "size", MAX_PAYLOAD);
			break;
		case OPT_INTERVAL:
			a->interval = strtod(optarg, &end);
			if (end == optarg || *end || !(a->interval >= 0 && a->interval <= 3600))
				die("invalid interval \"%s\"", optarg);
			break;
		case OPT_LOOP: a->loop = true; break;
		case OPT_UNTIL: a->until = optarg; break;
		case OPT_SENT: a->sent = optarg; break;
		}
	}
}

static void cmd_recv(struct args *a)
{
	int s, out;

	if (!a->has_port || !a->out)
		die("recv needs --port and --out");
	if (a->group && !a->ifname)
		die("--group needs --ifname");
	out = open_out(a->out);
	if (a->netns)
		enter_netns(a->netns);
	s = receiver((unsigned int)a->port, a->group, a->ifname, a->v6);
	serve(&s, &out, 1, a->ready);
}

static void cmd_recv_many(struct args *a, int nspec, char **specs)
{
	int socks[MAX_SOCKS], outs[MAX_SOCKS], home, i;

	if (nspec < 1 || nspec > MAX_SOCKS)
		die("recv-many needs 1 to %d NS,DEV,GROUP,PORT,OUT", MAX_SOCKS);
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0)
		die("/proc/self/ns/net: %s", strerror(errno));
	for (i = 0; i < nspec; i++) {
		char *f[5], *p = specs[i];
		int k;

		for (k = 0; k < 5; k++) {
			f[k] = p;
			p = strchr(p, ',');
			if (k < 4 && !p)
				die("\"%s\" is not NS,DEV,GROUP,PORT,OUT", specs[i]);
			if (p)
				*p++ = '\0';
		}
		outs[i] = open_out(f[4]);
		enter_netns(f[0]);
		socks[i] = receiver((unsigned int)parse_ulong(f[3], "port", 65535),
				    f[2], f[1], false);
		if (setns(home, CLONE_NEWNET))
			die("back to the first namespace: %s", strerror(errno));
	}
	close(home);
	serve(socks, outs, nspec, a->ready);
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s };

	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void cmd_send(struct args *a)
{
	static char payload[MAX_PAYLOAD];
	unsigned long seq = 0;
	union addr dst;
	socklen_t len;
	bool mcast;
	int s;

	if (!a->dst || !a->has_port)
		die("send needs --dst and --port");
	if (!parse_addr(a->dst, (unsigned int)a->port, &dst, &len))
		die("invalid address \"%s\"", a->dst);
	if (a->netns)
		enter_netns(a->netns);
	s = socket(dst.sa.sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die("socket: %s", strerror(errno));
	if (dst.sa.sa_family == AF_INET) {
		mcast = IN_MULTICAST(ntohl(dst.in.sin_addr.s_addr));
		set_int(s, SOL_SOCKET, SO_BROADCAST, 1, "SO_BROADCAST");
	} else {
		mcast = IN6_IS_ADDR_MULTICAST(&dst.in6.sin6_addr);
	}
	if (mcast && a->ifname) {
		unsigned int ifindex = ifindex_of(a->ifname);

		if (dst.sa.sa_family == AF_INET) {
			struct ip_mreqn mr = { .imr_ifindex = (int)ifindex };

			if (setsockopt(s, IPPROTO_IP, IP_MULTICAST_IF, &mr, sizeof(mr)))
				die("IP_MULTICAST_IF %s: %s", a->ifname, strerror(errno));
			set_int(s, IPPROTO_IP, IP_MULTICAST_TTL, 1, "IP_MULTICAST_TTL");
		} else {
			set_int(s, IPPROTO_IPV6, IPV6_MULTICAST_IF, (int)ifindex,
				"IPV6_MULTICAST_IF");
			set_int(s, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, 1,
				"IPV6_MULTICAST_HOPS");
		}
	}
	while (a->loop || seq < a->count ||
	       (a->until && access(a->until, F_OK))) {
		size_t n;

		seq++;
		n = (size_t)snprintf(payload, sizeof(payload), "%s %lu", a->tag, seq);
		if (n >= sizeof(payload))
			die("tag too long");
		if (n < a->size) {
			memset(payload + n, 0, a->size - n);
			n = a->size;
		}
		while (sendto(s, payload, n, 0, &dst.sa, len) < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR) {
				/* the node's queue is full: lossless means retry */
				sleep_s(0.001);
				continue;
			}
			/* a --loop sender outlives its device (lifecycle tests) */
			if (!a->loop)
				die("send to %s: %s", a->dst, strerror(errno));
			sleep_s(0.05);
			break;
		}
		if (a->interval > 0)
			sleep_s(a->interval);
	}
	if (a->sent) {
		FILE *f = fopen(a->sent, "w");

		if (!f || fprintf(f, "%lu\n", seq) < 0 || fclose(f))
			die("%s: %s", a->sent, strerror(errno));
	}
}

int main(int argc, char **argv)
{
	struct args a;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "recv")) {
		parse(argc - 1, argv + 1, recv_opts, &a);
		if (optind != argc - 1)
			usage();
		cmd_recv(&a);
	} else if (!strcmp(argv[1], "recv-many")) {
		parse(argc - 1, argv + 1, many_opts, &a);
		cmd_recv_many(&a, argc - 1 - optind, argv + 1 + optind);
	} else if (!strcmp(argv[1], "send")) {
		parse(argc - 1, argv + 1, send_opts, &a);
		if (optind != argc - 1)
			usage();
		cmd_send(&a);
	} else {
		usage();
	}
	return 0;
}
