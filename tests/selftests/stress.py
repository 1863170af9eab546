#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""All-node stress and conservation check for the wormcast selftests
(85-stress.sh, 57-fault-stress.sh).  One process drives every node:
sockets made inside each node's network namespace (setns), so no process
per node is needed.

  stress.py run --fabric-id F --nodes N --seconds S [--members K]
                [--raw] [--faults]
      Every node i (device wcn<i> in namespace n<i>, already moved there)
      gets 10.1.x.y/16, IPv6 off, a static ARP entry for its unicast peer;
      members (every K-th node) join 239.9.9.9.  For S seconds every node
      sends, as fast as one process can, a unicast datagram to node
      (i + N/2 - 1) % N and one to the group, from non-blocking sockets
      with IP_RECVERR (so a refused send is known, never counted as
      sent); every receiver is drained all the while.  Then it waits for
      the fabric to go quiet (engine idle and the counters adding up, or
      a generous ceiling) and checks, from "wormctl -j stats wc":
        - per node, frames the fabric accepted = datagrams the node sent
          + frames with no receiver (IGMP reports);
        - per node, copies delivered = what was sent to it: unicast from
          its peer plus, for members, every other node's multicast;
        - in total, sent x receivers = delivered + counted drops, and no
          drop counter moved;
        - per node, datagrams read by the socket + the namespace's UDP
          InErrors = copies the fabric delivered (nothing vanishes
          between the device and the socket either).
      Every datagram carries its source node in its first two bytes, so
      the receivers count copies per source too.
      --raw: send the same IPv4/UDP datagrams as whole frames through an
      AF_PACKET socket with PACKET_QDISC_BYPASS, straight to the node
      device.  Through a UDP socket, a datagram sent while the node's
      device has carrier off (a failed node) goes to the noop qdisc that
      the core's link watch installs on carrier loss, and sendto() still
      reports success (NET_XMIT_CN): nobody can count it (faults.rst).
      The direct path refuses it instead (ENOBUFS, the core's
      tx_dropped), so "sent" is exactly what the device took.
      --faults: links and nodes fail meanwhile (57-fault-stress.sh): the
      accounting counts fault_drops (per source node) beside delivered
      copies, checks per source that copies read + fault_drops = sent x
      receivers, that the engine absorbed branches (fault_absorbed > 0)
      and that no other drop counter moved.
      Prints "PASS name" / "FAIL name<TAB>diagnostic" lines and figures
      as "# ..." lines.
  stress.py flood --nodes N
      Send from every node until killed, ignoring errors (for deleting the
      fabric and unloading the module under traffic).
  stress.py rawsend --dev DEV [--count N]
      Send N broadcast frames (EtherType 0x88b5) from DEV with AF_PACKET.
"""
import argparse
import fcntl
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wcnl  # noqa: E402

GROUP = '239.9.9.9'
GROUP_MAC = b'\x01\x00\x5e\x09\x09\x09'
PORT = 5000
PAYLOAD = bytes(64)
SOL_PACKET, PACKET_QDISC_BYPASS = 263, 20
SIOCSIFFLAGS, SIOCSIFADDR, SIOCSIFNETMASK, SIOCSARP = \
    0x8914, 0x8916, 0x891c, 0x8955
IFF_UP = 0x1
ATF_COM, ATF_PERM = 0x02, 0x04
IP_MULTICAST_ALL, IP_RECVERR = 49, 11


def ip_of(i):
    return '10.1.%d.%d' % (i // 250, i % 250 + 1)


def mac_of(fabric, node):
    return struct.pack('>BBHH', 0x02, 0x77, fabric, node)


def peer_of(i, n):
    return (i + n // 2 - 1) % n


def ns_fd(i):
    return os.open('/run/netns/n%d' % i, os.O_RDONLY)


def sockaddr_in(ip):
    return struct.pack('=H2s4s8x', socket.AF_INET, b'\0\0',
                       socket.inet_aton(ip))


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def payload_of(i):
    """A datagram's payload: its source node, then zeros."""
    return struct.pack('>H', i) + PAYLOAD[2:]


def ip_csum(hdr):
    s = sum(struct.unpack('>%dH' % (len(hdr) // 2), hdr))
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def udp_frame(fabric, src, dst_mac, dst_ip, ttl):
    """Node src's datagram to dst_ip as a whole Ethernet frame (UDP
    checksum 0: none, allowed over IPv4)."""
    data = payload_of(src)
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 28 + len(data), 0, 0x4000,
                     ttl, socket.IPPROTO_UDP, 0, socket.inet_aton(ip_of(src)),
                     socket.inet_aton(dst_ip))
    ip = ip[:10] + struct.pack('>H', ip_csum(ip)) + ip[12:]
    udp = struct.pack('>HHHH', PORT + 1, PORT, 8 + len(data), 0)
    return dst_mac + mac_of(fabric, src) + b'\x08\x00' + ip + udp + data


class RawTx:
    """The sender of --raw: frames straight to the device (AF_PACKET,
    PACKET_QDISC_BYPASS); sendto() as a UDP socket's, refusals raise."""

    def __init__(self, i, n, fabric):
        p = peer_of(i, n)
        self.frames = {
            (ip_of(p), PORT): udp_frame(fabric, i, mac_of(fabric, p),
                                        ip_of(p), 64),
            (GROUP, PORT): udp_frame(fabric, i, GROUP_MAC, GROUP, 1)}
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        self.s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
        self.s.bind(('wcn%d' % i, 0))
        self.s.setblocking(False)

    def sendto(self, _payload, dst):
        self.s.send(self.frames[dst])


def setup_node(i, n, fabric, member, raw=False):
    """In node i's namespace (the caller is there): address, link up,
    static ARP, sockets.  Returns (rx, tx)."""
    dev = 'wcn%d' % i
    for conf in ('all', 'default', dev):
        write('/proc/sys/net/ipv6/conf/%s/disable_ipv6' % conf, '1')
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    name = dev.encode().ljust(16, b'\0')
    fcntl.ioctl(s, SIOCSIFADDR, name + sockaddr_in(ip_of(i)))
    fcntl.ioctl(s, SIOCSIFNETMASK, name + sockaddr_in('255.255.0.0'))
    for ifn in (b'lo'.ljust(16, b'\0'), name):
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack('=16sH22x', ifn, IFF_UP))
    p = peer_of(i, n)
    # struct arpreq: protocol address, hardware address, flags, netmask, dev
    arp = sockaddr_in(ip_of(p)) + \
        struct.pack('=H6s8x', 1, mac_of(fabric, p)) + \
        struct.pack('=i', ATF_COM | ATF_PERM) + bytes(16) + name
    fcntl.ioctl(s, SIOCSARP, arp)
    s.close()

    ifindex = socket.if_nametoindex(dev)
    mreqn = socket.inet_aton(GROUP) + socket.inet_aton('0.0.0.0') + \
        struct.pack('@i', ifindex)
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)   # SO_RCVBUFFORCE
    rx.setsockopt(socket.IPPROTO_IP, IP_MULTICAST_ALL, 0)
    rx.bind(('0.0.0.0', PORT))
    if member:
        rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreqn)
    rx.setblocking(False)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, mreqn)
    tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
    tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
    tx.setsockopt(socket.IPPROTO_IP, IP_RECVERR, 1)
    # A frame's memory stays charged to its socket until its worm is done
    # (end-to-end backpressure): a small send buffer keeps the backlog, and
    # so the time to drain it after the window, small.
    tx.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
    tx.bind((ip_of(i), 0))
    tx.setblocking(False)
    if raw:
        tx.close()
        tx = RawTx(i, n, fabric)
    return rx, tx


def udp_inerrors():
    """InErrors of the current namespace's UDP (includes RcvbufErrors)."""
    with open('/proc/thread-self/net/snmp') as f:
        lines = [l.split() for l in f if l.startswith('Udp:')]
    return int(lines[1][lines[0].index('InErrors')])


def fabric_stats():
    out = subprocess.run(['wormctl', '-j', 'stats', 'wc'], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)[0]


class Nodes:
    def __init__(self, n, fabric, members_every, raw=False):
        self.n = n
        self.fds = [ns_fd(i) for i in range(n)]
        self.member = [members_every and i % members_every == 0
                       for i in range(n)]
        self.rx, self.tx = [], []
        for i in range(n):
            with wcnl.InNetns(self.fds[i]):
                rx, tx = setup_node(i, n, fabric, self.member[i], raw)
            self.rx.append(rx)
            self.tx.append(tx)
        self.ep = select.epoll()
        self.by_fd = {}
        for i, s in enumerate(self.rx):
            self.ep.register(s.fileno(), select.EPOLLIN)
            self.by_fd[s.fileno()] = i
        self.recv = [0] * n
        self.recv_from = [0] * n    # copies read, by source node

    def drain(self, timeout=0):
        got = 0
        for fd, _ in self.ep.poll(timeout):
            i = self.by_fd[fd]
            s = self.rx[i]
            while True:
                try:
                    data = s.recv(2048)
                except BlockingIOError:
                    break
                self.recv[i] += 1
                self.recv_from[struct.unpack_from('>H', data)[0]] += 1
                got += 1
        return got


def run(args):
    n = args.nodes
    nodes = Nodes(n, args.fabric_id, args.members, args.raw)
    uni, mc, refused = [0] * n, [0] * n, 0
    dsts = [(ip_of(peer_of(i, n)), PORT) for i in range(n)]
    data = [payload_of(i) for i in range(n)]
    grp = (GROUP, PORT)
    start = time.monotonic()
    end = start + args.seconds
    while time.monotonic() < end:
        for i in range(n):
            tx = nodes.tx[i]
            try:
                tx.sendto(data[i], dsts[i])
                uni[i] += 1
            except OSError:
                refused += 1
            try:
                tx.sendto(data[i], grp)
                mc[i] += 1
            except OSError:
                refused += 1
        nodes.drain()
    sending = time.monotonic() - start

    members = sum(nodes.member)
    expect = [0] * n        # copies sent to each node
    expect_from = [0] * n   # copies sent by each node (x its receivers)
    for s in range(n):
        expect[peer_of(s, n)] += uni[s]
        expect_from[s] += uni[s]
        for r in range(n):
            if nodes.member[r] and r != s:
                expect[r] += mc[s]
                expect_from[s] += mc[s]
    total_expect = sum(expect)

    def counted_drops(cnt):
        """Every named drop counter; fault_drops too under --faults."""
        return sum(v for k, v in cnt.items() if k.startswith('drop') or
                   (args.faults and k == 'fault_drops'))

    # Wait for the fabric to go quiet: the condition itself, not a fixed
    # time, with a generous ceiling for a slow debug VM.
    deadline = time.monotonic() + args.ceiling
    while True:
        nodes.drain(0.2)
        st = fabric_stats()
        cnt = st['counters']
        drops = counted_drops(cnt)
        if (st['engine']['worms_in_flight'] == 0 and
                cnt['rx_frames'] + drops >= total_expect) or \
                time.monotonic() > deadline:
            break
    quiet = time.monotonic() - start - sending
    per = {p['node']: p['counters'] for p in st['per_node']}
    # ... and for the sockets to have read what was delivered.
    inerr = [0] * n
    while True:
        nodes.drain(0.2)
        for i in range(n):
            with wcnl.InNetns(nodes.fds[i]):
                inerr[i] = udp_inerrors()
        if all(nodes.recv[i] + inerr[i] >= per[i]['rx_frames']
               for i in range(n)) or time.monotonic() > deadline:
            break

    def check(name, bad):
        if bad:
            print('FAIL %s\t%s' % (name, '; '.join(bad[:8])))
        else:
            print('PASS %s' % name)

    sent = sum(uni) + sum(mc)
    print('# %d nodes, %d members: %d datagrams sent in %.1f s '
          '(%d unicast, %d multicast; %d sends refused by the %s), '
          '%d copies expected, %d delivered; quiet %.1f s later' %
          (n, members, sent, sending, sum(uni), sum(mc), refused,
           'device' if args.raw else 'stack', total_expect,
           cnt['rx_frames'], quiet))
    check('every node sent unicast and multicast',
          ['node %d sent %d+%d' % (i, uni[i], mc[i])
           for i in range(n) if not uni[i] or not mc[i]])
    check('per node: frames accepted = datagrams sent + frames nobody '
          'receives',
          ['node %d: tx_frames %d, tx_no_receiver %d, sent %d' %
           (i, per[i]['tx_frames'], per[i]['tx_no_receiver'], uni[i] + mc[i])
           for i in range(n)
           if per[i]['tx_frames'] - per[i]['tx_no_receiver'] !=
           uni[i] + mc[i]])
    if not args.faults:
        check('per node: copies delivered = copies sent to it',
              ['node %d: rx_frames %d, expected %d' %
               (i, per[i]['rx_frames'], expect[i])
               for i in range(n) if per[i]['rx_frames'] != expect[i]])
    check('total: sent x receivers = delivered + counted drops',
          [] if cnt['rx_frames'] + drops == total_expect else
          ['expected %d, delivered %d, drops %d' %
           (total_expect, cnt['rx_frames'], drops)])
    check('no drop counter moved',
          ['%s %d' % (k, v) for k, v in cnt.items()
           if k.startswith('drop') and v])
    check('per node: read by the socket + UDP InErrors = delivered',
          ['node %d: read %d, InErrors %d, rx_frames %d' %
           (i, nodes.recv[i], inerr[i], per[i]['rx_frames'])
           for i in range(n)
           if nodes.recv[i] + inerr[i] != per[i]['rx_frames']])
    print('# socket receive-buffer drops (UDP InErrors): %d' % sum(inerr))
    if not args.faults:
        return
    # A copy lost to a full receive buffer (InErrors) has no source we
    # can read: then per source only "at most", and the rest in total.
    fd = [per[i]['fault_drops'] for i in range(n)]
    exact = not sum(inerr)
    check('per source: copies read + fault_drops %s sent x receivers' %
          ('=' if exact else '<='),
          ['node %d: read %d, fault_drops %d, sent x receivers %d' %
           (i, nodes.recv_from[i], fd[i], expect_from[i]) for i in range(n)
           if nodes.recv_from[i] + fd[i] > expect_from[i] or
           (exact and nodes.recv_from[i] + fd[i] != expect_from[i])])
    check('total: copies read + UDP InErrors + fault_drops = sent x '
          'receivers',
          [] if sum(nodes.recv_from) + sum(inerr) + sum(fd) == total_expect
          else ['read %d, InErrors %d, fault_drops %d, expected %d' %
                (sum(nodes.recv_from), sum(inerr), sum(fd), total_expect)])
    eng = st['engine']
    print('# faults: engine fault_absorbed %d, fault_drops %d (nodes\' '
          'fault_drops %d, %d sources)' %
          (eng['fault_absorbed'], eng['fault_drops'], sum(fd),
           sum(1 for x in fd if x)))
    check('the faults hit worms: engine fault_absorbed > 0 and fault_drops '
          '> 0',
          [] if eng['fault_absorbed'] > 0 and sum(fd) > 0 else
          ['fault_absorbed %d, fault_drops %d' %
           (eng['fault_absorbed'], sum(fd))])
    if args.relays:
        # multiphase: the engine counts a lost relay worm's one target,
        # the source node every member of the range handed to it
        check('engine fault_drops <= the nodes\' fault_drops (relays)',
              [] if eng['fault_drops'] <= sum(fd) else
              ['engine %d, nodes %d' % (eng['fault_drops'], sum(fd))])
    else:
        check('engine fault_drops = the nodes\' fault_drops',
              [] if eng['fault_drops'] == sum(fd) else
              ['engine %d, nodes %d' % (eng['fault_drops'], sum(fd))])


def flood(args):
    n = args.nodes
    socks = []
    for i in range(n):
        with wcnl.InNetns(ns_fd(i)):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                         socket.inet_aton(GROUP) + socket.inet_aton('0.0.0.0') +
                         struct.pack('@i', socket.if_nametoindex('wcn%d' % i)))
            s.setblocking(False)
            socks.append((s, (ip_of(peer_of(i, n)), PORT)))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        for s, dst in socks:
            for d in (dst, (GROUP, PORT)):
                try:
                    s.sendto(PAYLOAD, d)
                except OSError:
                    pass
        time.sleep(0)


def rawsend(args):
    """Broadcast Ethernet frames from a node device (AF_PACKET)."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((args.dev, 0))
    src = open('/sys/class/net/%s/address' % args.dev).read().strip()
    frame = b'\xff' * 6 + bytes.fromhex(src.replace(':', '')) + \
        b'\x88\xb5' + bytes(64)
    for _ in range(args.count):
        s.send(frame)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run')
    r.add_argument('--fabric-id', type=int, required=True)
    r.add_argument('--nodes', type=int, required=True)
    r.add_argument('--seconds', type=float, required=True)
    r.add_argument('--members', type=int, default=4)
    r.add_argument('--raw', action='store_true',
                   help='send through AF_PACKET, bypassing the qdisc')
    r.add_argument('--faults', action='store_true',
                   help='links and nodes fail meanwhile: count fault_drops')
    r.add_argument('--relays', action='store_true',
                   help='members send on (multiphase): a lost worm loses '
                   'its range')
    r.add_argument('--ceiling', type=float, default=180,
                   help='seconds to wait for the fabric to go quiet')
    f = sub.add_parser('flood')
    f.add_argument('--nodes', type=int, required=True)
    w = sub.add_parser('rawsend')
    w.add_argument('--dev', required=True)
    w.add_argument('--count', type=int, default=50)
    args = ap.parse_args()
    {'run': run, 'flood': flood, 'rawsend': rawsend}[args.cmd](args)


if __name__ == '__main__':
    main()
