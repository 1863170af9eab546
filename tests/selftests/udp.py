#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP sender and receiver for the wormcast selftests (IPv4 and IPv6,
unicast and multicast), run inside network namespaces.

  udp.py recv --port P [--group G --ifname DEV] [--ready FILE] --out FILE
      Bind to P (joining multicast group G on DEV if given), touch FILE
      once ready, append every datagram's payload as one line to --out,
      until SIGTERM.
  udp.py recv-many [--ready FILE] NS,DEV,GROUP,PORT,OUT...
      The same for several receivers in one process (under TCG a Python
      start costs about a second): each socket is made in network
      namespace NS (ip netns), joins GROUP on DEV (an empty GROUP: a
      plain IPv4 receiver on PORT) and appends to OUT; FILE is touched
      once all are ready.
  udp.py send --dst ADDR --port P [--ifname DEV] --count N [--tag T]
              [--size BYTES] [--interval SECONDS] [--loop]
              [--until FILE] [--sent FILE]
      Send N datagrams "T SEQ" (padded to BYTES) to ADDR; multicast leaves
      through DEV.  With --loop, send forever (until killed); with
      --until, at least N and on until FILE exists.  --sent: write how
      many were sent to FILE at the end.
"""
import argparse
import ipaddress
import os
import select
import signal
import socket
import struct
import sys
import time


def family_of(addr):
    return socket.AF_INET6 if ipaddress.ip_address(addr).version == 6 \
        else socket.AF_INET


# A receiver's socket buffer: a burst of datagrams waits there while one
# process serves many sockets on a slow (debug, TCG) guest, instead of
# being dropped past the default 208 KiB (about 160 datagrams).
RCVBUF = 16 << 20


def receiver(port, group=None, ifname=None, v6=False):
    """A UDP socket bound to @port, joined to @group on @ifname if given."""
    fam = socket.AF_INET6 if v6 or (group and family_of(group) ==
                                    socket.AF_INET6) else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:  # SO_RCVBUFFORCE: past rmem_max, as root
        s.setsockopt(socket.SOL_SOCKET,
                     getattr(socket, 'SO_RCVBUFFORCE', 33), RCVBUF)
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
    if group:
        ifindex = socket.if_nametoindex(ifname)
        if fam == socket.AF_INET:
            # struct ip_mreqn: group, local address, ifindex
            mreq = socket.inet_aton(group) + socket.inet_aton('0.0.0.0') \
                + struct.pack('@i', ifindex)
            s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
            # Only the groups this socket joined, not the host's.
            s.setsockopt(socket.IPPROTO_IP, 49, 0)  # IP_MULTICAST_ALL
        else:
            mreq = socket.inet_pton(socket.AF_INET6, group) + \
                struct.pack('@I', ifindex)
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP, mreq)
            s.setsockopt(socket.IPPROTO_IPV6, 29, 0)  # IPV6_MULTICAST_ALL
        s.bind((group, port))
    else:
        s.bind(('::' if fam == socket.AF_INET6 else '0.0.0.0', port))
    return s


def serve(socks, ready):
    """Append every datagram's payload to its socket's file, one line
    each, until SIGTERM; @ready is touched first.  @socks maps sockets
    to open files.  Each wake-up drains every ready socket, then writes
    its lines at once."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if ready:
        open(ready, 'w').close()
    while True:
        for s in select.select(list(socks), [], [])[0]:
            f = socks[s]
            while True:
                try:
                    data = s.recv(65536, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                f.write(data.split(b'\0', 1)[0].decode(errors='replace')
                        .strip() + '\n')
            f.flush()


def recv(args):
    s = receiver(args.port, args.group, args.ifname, args.v6)
    serve({s: open(args.out, 'a')}, args.ready)


def recv_many(args):
    import wcnl  # here only: its ctypes would slow every sender's start
    socks = {}
    for spec in args.specs:
        ns, ifname, group, port, out = spec.split(',')
        with wcnl.InNetns(os.open('/run/netns/' + ns, os.O_RDONLY)) as n:
            s = receiver(int(port), group, ifname)
            os.close(n.fd)
        socks[s] = open(out, 'a')
    serve(socks, args.ready)


def send(args):
    fam = family_of(args.dst)
    s = socket.socket(fam, socket.SOCK_DGRAM)
    multicast = ipaddress.ip_address(args.dst).is_multicast
    if fam == socket.AF_INET:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    if multicast and args.ifname:
        ifindex = socket.if_nametoindex(args.ifname)
        if fam == socket.AF_INET:
            mreqn = socket.inet_aton('0.0.0.0') * 2 + struct.pack('@i', ifindex)
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, mreqn)
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
        else:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF,
                         ifindex)
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 1)
    seq = 0
    while args.loop or seq < args.count or \
            (args.until and not os.path.exists(args.until)):
        seq += 1
        payload = ('%s %d' % (args.tag, seq)).encode()
        payload += b'\0' * max(0, args.size - len(payload))
        while True:
            try:
                s.sendto(payload, (args.dst, args.port))
                break
            except OSError as e:
                # ENOBUFS/EAGAIN: the node's queue is full; lossless means
                # retry.  A --loop sender outlives its device (lifecycle
                # tests): it keeps trying until killed.
                if e.errno not in (105, 11) and not args.loop:
                    raise
                time.sleep(0.001 if e.errno in (105, 11) else 0.05)
                if args.loop and e.errno not in (105, 11):
                    break
        if args.interval:
            time.sleep(args.interval)
    if args.sent:
        with open(args.sent, 'w') as f:
            f.write('%d\n' % seq)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('recv')
    r.add_argument('--port', type=int, required=True)
    r.add_argument('--group')
    r.add_argument('--ifname')
    r.add_argument('--v6', action='store_true')
    r.add_argument('--ready')
    r.add_argument('--out', required=True)
    m = sub.add_parser('recv-many')
    m.add_argument('--ready')
    m.add_argument('specs', nargs='+', metavar='NS,DEV,GROUP,PORT,OUT')
    s = sub.add_parser('send')
    s.add_argument('--dst', required=True)
    s.add_argument('--port', type=int, required=True)
    s.add_argument('--ifname')
    s.add_argument('--count', type=int, default=1)
    s.add_argument('--tag', default='wc')
    s.add_argument('--size', type=int, default=0)
    s.add_argument('--interval', type=float, default=0.0)
    s.add_argument('--loop', action='store_true')
    s.add_argument('--until')
    s.add_argument('--sent')
    args = p.parse_args()
    if args.cmd == 'recv' and args.group and not args.ifname:
        p.error('--group needs --ifname')
    {'recv': recv, 'recv-many': recv_many, 'send': send}[args.cmd](args)


if __name__ == '__main__':
    main()
