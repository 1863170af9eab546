#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seeded fuzzer of wormcast's kernel interfaces, run inside the VM by
80-fuzz.sh (as root, with wormcast.ko loaded).  Python 3 standard library
only; the netlink plumbing is in wcnl.py.

  nlfuzz.py [--seed N] [--count N] [--max-nodes N] [--phases LIST]

Environment: WC_FUZZ_SEED (default: from the clock, printed), WC_FUZZ_COUNT
(fuzz operations, default 1500), WC_FUZZ_MAX_NODES (largest fabric a random
request may create, default 8), WC_FUZZ_PHASES (comma-separated subset).

Phases (see Documentation/testing.rst, "Fuzzing, kernel interfaces"):
  newlink  RTM_NEWLINK of kind wormcast with random and malformed
           IFLA_INFO_DATA; outcome predicted where the contract says it
  genl     every command of the "wormcast" family, doit and dump, random
           attributes, hostile FABRIC_SET values, abandoned and disturbed
           dumps of a 64-node fabric
  linkops  SETLINK/DELLINK on fabric and node devices: MTU, names, flags,
           MAC, txqlen, moves between namespaces, namespace death, under
           raw-frame traffic
  race     threads creating, deleting, querying, reconfiguring fabrics and
           sending frames at once
  packet   AF_PACKET frames into node devices: runts, oversized, VLAN and
           QinQ tags, broadcast and multicast floods; exact tx accounting
           and the fabric drains afterwards
  unpriv   the same interfaces without privileges

Output: "ok - ..." / "not ok - ..." / "# ..." lines (80-fuzz.sh numbers
them as TAP).  Every negative errno must carry an extack message, except
the documented core rejections (EXEMPT below), which are counted.
"""
import argparse
import collections
import errno
import math
import os
import random
import socket
import struct
import sys
import threading
import time
import traceback

import wcnl
from wcnl import (NLM_F_ACK, NLM_F_CREATE, NLM_F_DUMP, NLM_F_EXCL,
                  NLM_F_REQUEST, NLA_F_NESTED, RTM_DELLINK, RTM_GETLINK,
                  RTM_NEWLINK, RTM_SETLINK, IFLA_ADDRESS, IFLA_IFNAME,
                  IFLA_MTU, IFLA_NET_NS_FD, IFLA_TXQLEN, IFLA_GROUP,
                  IFLA_IFALIAS, IFF_UP, IFF_PROMISC, IFF_ALLMULTI,
                  ifinfomsg, nla, nla_u8, nla_u16, nla_u32, nla_u64,
                  nla_str, nla_nest, get_u32, get_u64, get_str, attr_dict,
                  parse_attrs)

U = wcnl.uapi()
W = U.prefixed('IFLA_WORMCAST_')            # {'topology': 1, ...}
A = U.prefixed('WORMCAST_A_')
P = U.prefixed('WORMCAST_PARAM_')
CMD = U.prefixed('WORMCAST_CMD_')
CNT = U.prefixed('WORMCAST_CNT_')
ENG = U.prefixed('WORMCAST_ENG_')
NODE = U.prefixed('WORMCAST_NODE_')
TOPO = U.prefixed('WORMCAST_TOPO_')

IN_U32 = ['flit_bytes', 'buf_flits', 'vcs', 'inj_channels', 'cons_channels',
          'router_delay', 'link_delay', 'startup', 'cycle_ns', 'watchdog',
          'queue_len']
ENGINE_PARAMS = ['flit_bytes', 'buf_flits', 'vcs', 'inj_channels',
                 'cons_channels', 'router_delay', 'link_delay', 'startup',
                 'watchdog', 'replication']
READ_ONLY = ['role', 'fabric_id', 'nnodes', 'node_id', 'coords',
             'fabric_ifindex']
MAX_NODES = U.values.get('WC_MAX_NODES', 5040)
QUEUE_MIN, QUEUE_MAX, CYCLE_NS_MAX = 2, 65536, 1000000000

INTERESTING = [0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 63, 64, 65, 255,
               256, 999, 1000, 1001, 1024, 4095, 4096, 4097, 65535, 65536,
               65537, 999999999, 1000000000, 1000000001, 0x7fffffff,
               0x80000000, 0xfffffffe, 0xffffffff]

# Rejections without an extack message that are allowed: they come from the
# core (rtnetlink, net device core, genetlink) before or instead of any
# wormcast code, which therefore has no way to attach a message.  Keyed by
# (operation class, errno); the value says why.
EXEMPT = {
    ('newlink-taken', errno.EEXIST):
        'rtnl_newlink(): the fabric name exists and NLM_F_EXCL is set',
    ('newlink-existing', errno.EOPNOTSUPP):
        'rtnl_newlink() on an existing device with IFLA_INFO_DATA: no '
        'changelink (wormcast fabrics are immutable)',
    ('lookup', errno.ENODEV):
        'rtnetlink looks the device up by index or name first',
    ('setlink-netns', errno.EINVAL):
        '__dev_change_net_namespace(): the fabric device is '
        'NETIF_F_NETNS_LOCAL (it stays with its NAPI context)',
    ('setlink-netns', errno.EEXIST):
        '__dev_change_net_namespace(): the name is taken in the target '
        'namespace',
    ('setlink-name', errno.EEXIST): 'dev_change_name(): name taken',
    ('setlink-name', errno.EINVAL): 'dev_change_name(): invalid name',
    ('setlink-name', errno.EBUSY):
        'dev_change_name(): the device is up',
    ('setlink-mac', errno.EOPNOTSUPP):
        'dev_set_mac_address(): MACs are derived from fabric and node ids, '
        'there is no ndo_set_mac_address',
    ('setlink-txqlen', errno.ERANGE):
        'dev_change_tx_queue_len(): the qdisc cannot resize to that',
    ('setlink-txqlen', errno.ENOMEM):
        'dev_change_tx_queue_len(): the qdisc cannot resize to that',
    ('setlink-addrlen', errno.EINVAL):
        'validate_linkmsg(): IFLA_ADDRESS shorter than the device address',
    ('genl-cmd', errno.EOPNOTSUPP):
        'genetlink: no such command, or no dumpit/doit for it',
    ('genl-hdr', errno.EINVAL):
        'genetlink: message shorter than the family header',
    ('unpriv', errno.EPERM):
        'rtnetlink/genetlink capability check (GENL_ADMIN_PERM) before the '
        'handler',
}


def now():
    return time.monotonic()


class Failure(Exception):
    pass


class Fuzz:
    def __init__(self, seed, count, max_nodes):
        self.seed = seed
        self.budget = count
        self.max_nodes = max_nodes
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.msgs = collections.Counter()       # netlink messages by class
        self.frames = collections.Counter()     # AF_PACKET frames by outcome
        self.rejected = collections.Counter()   # by class
        self.exempted = collections.Counter()   # by (class, errno name)
        self.outcomes = collections.Counter()   # misc
        self.failures = []
        self.results = []       # (ok, name, diag)
        self.nameseq = 0
        self.netns = {}          # key -> fd
        self.rt_ns = {}          # key -> NlSock (rtnetlink in that ns)
        self.rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
        self.gs = wcnl.NlSock(wcnl.NETLINK_GENERIC)
        self.genl = wcnl.Genl(self.gs, U.WORMCAST_GENL_NAME)
        self.tlock = threading.Lock()   # traffic sockets
        self.tsocks = {}
        self.mtu = {}

    # ------------------------------------------------------------ reporting

    def fail(self, what, *detail):
        with self.lock:
            self.failures.append((what, detail))

    def result(self, ok, name, *diag):
        self.results.append((ok, name, diag))
        print('%s - %s' % ('ok' if ok else 'not ok', name), flush=True)
        for d in diag:
            for line in str(d).splitlines():
                print('# ' + line, flush=True)

    def diag(self, text):
        for line in str(text).splitlines():
            print('# ' + line, flush=True)

    def count(self, cls, n=1):
        with self.lock:
            self.msgs[cls] += n

    def judge(self, cls, ack, req=b'', exempt=()):
        """The extack rule for one answer.  @exempt: operation classes of
        EXEMPT that may apply to this request."""
        self.count(cls)
        if ack.err >= 0:
            return
        with self.lock:
            self.rejected[cls] += 1
        if ack.extack:
            return
        e = -ack.err
        for ex in exempt:
            if (ex, e) in EXEMPT:
                with self.lock:
                    self.exempted[(ex, errno.errorcode.get(e, str(e)))] += 1
                return
        self.fail('%s: rejected without an extack message' % cls,
                  ack.strerror(), 'request: ' + req.hex())

    # ------------------------------------------------------------ helpers

    def name(self, prefix='fz'):
        self.nameseq += 1
        return '%s%d' % (prefix, self.nameseq)

    def rt_in(self, key):
        """An rtnetlink socket in namespace @key (None: the initial one)."""
        if key is None:
            return self.rt
        if key not in self.rt_ns:
            with wcnl.InNetns(self.netns[key]):
                self.rt_ns[key] = wcnl.NlSock(wcnl.NETLINK_ROUTE)
        return self.rt_ns[key]

    def ns_new(self, key):
        self.netns[key] = wcnl.netns_new()
        return self.netns[key]

    def ns_close(self, key):
        """Drop every reference we hold: the namespace dies."""
        s = self.rt_ns.pop(key, None)
        if s:
            s.close()
        with self.tlock:
            for k in [k for k in self.tsocks if k[0] == key]:
                self.tsocks.pop(k).close()
        os.close(self.netns.pop(key))

    def create(self, name, topo, dims, ns=None, rt=None, **params):
        """A valid fabric; a failure to create it is a test failure."""
        body = wcnl.newlink_body(name, wcnl.wc_info_data(
            topology=TOPO[topo], dims=dims, **params),
            nla_u32(IFLA_NET_NS_FD, self.netns[ns]) if ns else b'')
        ack = (rt or self.rt).request(RTM_NEWLINK,
                                      NLM_F_EXCL | NLM_F_CREATE, body)
        self.judge('newlink-valid', ack, body)
        if ack.err:
            raise Failure('cannot create %s %s %s: %s' % (
                name, topo, dims, ack.strerror()))
        return ack

    def delete(self, rt, index=0, name=None, cls='dellink'):
        body = ifinfomsg(index=index)
        if name is not None:
            body += nla_str(IFLA_IFNAME, name)
        ack = rt.request(RTM_DELLINK, 0, body)
        self.judge(cls, ack, body, exempt=('lookup',))
        return ack

    def link(self, rt, name=None, index=0):
        ack, lk = wcnl.get_link(rt, index=index, name=name)
        self.judge('getlink', ack, exempt=('lookup',))
        return lk

    def setlink(self, rt, index, attrs=b'', flags=0, change=0,
                cls='setlink', exempt=('lookup',)):
        body = ifinfomsg(index=index, flags=flags, change=change) + attrs
        ack = rt.request(RTM_SETLINK, 0, body)
        self.judge(cls, ack, body, exempt=exempt)
        return ack

    def up(self, rt, index, on=True):
        return self.setlink(rt, index, flags=IFF_UP if on else 0,
                            change=IFF_UP)

    def wc_links(self, key=None):
        rt = self.rt_in(key)
        links = wcnl.get_links(rt)
        self.count('getlink-dump')
        return [lk for lk in links if lk.kind == U.WORMCAST_KIND]

    def fabric_get(self, name=None, index=None, cmd='fabric_get', gs=None):
        g = self.genl if gs is None else gs
        attrs = b''
        if index is not None:
            attrs += nla_u32(A['fabric_ifindex'], index)
        if name is not None:
            attrs += nla_str(A['fabric_name'], name)
        ack = g.request(CMD[cmd], attrs)
        self.judge('genl-' + cmd, ack, attrs)
        if ack.err or not ack.msgs:
            return ack, None
        return ack, attr_dict(ack.msgs[0].data, 4)

    def params_of(self, name):
        _, a = self.fabric_get(name=name)
        if a is None or A['params'] not in a:
            return None
        p = attr_dict(a[A['params']])
        return {k: get_u32(p[v]) for k, v in P.items()
                if v in p and len(p[v]) == 4}

    def engine_of(self, name):
        attrs = nla_str(A['fabric_name'], name)
        ack = self.genl.dump(CMD['stats_get'], attrs)
        self.judge('genl-dump', ack, attrs)
        if ack.err or not ack.msgs:
            return None, None
        a = attr_dict(ack.msgs[0].data, 4)
        eng = {k: get_u64(v) for k, v in
               ((k, attr_dict(a.get(A['engine'], b'')).get(t))
                for k, t in ENG.items()) if v is not None and len(v) == 8}
        nodes = {}
        for _, nd in [x for m in ack.msgs for x in parse_attrs(
                attr_dict(m.data, 4).get(A['nodes'], b''))]:
            n = attr_dict(nd)
            if NODE['id'] not in n:
                continue
            c = attr_dict(n.get(NODE['counters'], b''))
            nodes[get_u32(n[NODE['id']])] = {
                k: get_u64(c[t]) for k, t in CNT.items()
                if t in c and len(c[t]) == 8}
        return eng, nodes

    def no_device(self, rt, name, what):
        ack, lk = wcnl.get_link(rt, name=name)
        self.count('getlink')
        if lk is not None:
            self.fail('%s: device %s exists' % (what, name), repr(lk))
            return False
        return True

    # ------------------------------------------------------------ newlink

    def rand_u32(self):
        r = self.rng
        x = r.random()
        if x < 0.6:
            return r.choice(INTERESTING)
        if x < 0.8:
            return r.randrange(0, 70)
        return r.getrandbits(32)

    def small_dims(self, topo):
        r = self.rng
        lim = self.max_nodes
        if topo in ('mesh', 'torus'):
            while True:
                dims = [r.choice([2, 2, 3, 4, 5, 8])
                        for _ in range(r.choice([1, 1, 2, 2, 3]))]
                if math.prod(dims) <= lim:
                    return dims
        if topo == 'hypercube':
            return [r.randint(1, max(1, min(12, int(math.log2(lim)))))]
        n = 2
        while n < 7 and math.factorial(n + 1) <= lim:
            n += 1
        return [r.randint(2, n)]

    def gen_newlink(self):
        """(data bytes, prediction, attrs list).  prediction: 'reject',
        'accept' or None (the engine's own rules decide); the reason for
        an expected rejection is kept for the report."""
        r = self.rng
        attrs = []          # [type, payload, nla_len override or None]
        topo = r.choice(['mesh', 'torus', 'hypercube', 'star'])
        tval = TOPO[topo] if r.random() < 0.85 else r.choice(
            [0, 5, 6, 0xff, 0xffffffff, r.getrandbits(32)])
        if r.random() < 0.95:
            attrs.append([W['topology'], struct.pack('=I', tval), None])
        x = r.random()
        if x < 0.6 or tval not in TOPO.values():
            dims = self.small_dims(topo)
        elif x < 0.8:
            dims = [r.choice(INTERESTING + [2, 3, 4, 5, 6, 7, 8, 12, 13,
                                            100, 5040, 5041])
                    for _ in range(r.choice([0, 1, 1, 2, 3, 3, 4, 5]))]
        else:
            # products that overflow 32 bits, or land just past the cap
            dims = r.choice([[65536, 65536], [0x80000001, 2],
                             [65537, 65535], [2048, 2048, 1024],
                             [71, 71], [72, 70], [5041], [13], [8],
                             [1, 5040], [4, 0, 4], [2, 2, 2, 2]])
        if r.random() < 0.97:
            attrs.append([W['dims'],
                          b''.join(struct.pack('=I', d & 0xffffffff)
                                   for d in dims), None])
        for p in IN_U32:
            if r.random() < 0.12:
                attrs.append([W[p], struct.pack('=I', self.rand_u32()), None])
        if r.random() < 0.12:
            attrs.append([W['replication'],
                          struct.pack('=B', r.choice([0, 1, 1, 2, 255])),
                          None])
        if r.random() < 0.15:
            pat = r.choice(['x%d', '%d', 'fzq%dq', 'n%d%d', '%s%d', 'a%',
                            'x', '', 'a/b%d', 'a b%d', 'x%d' + 'y' * 13,
                            'long%dxxxxxxxx', '%d.', '..%d', 'é%d',
                            '%%d', 'a:%d', 'hold%d', 'fz%d'])
            attrs.append([W['node_name'], pat.encode() + b'\0', None])
        for ro in READ_ONLY:
            if r.random() < 0.02:
                attrs.append([W[ro], struct.pack('=I', self.rand_u32()),
                              None])
        if r.random() < 0.08:     # unknown types: refused (strict)
            attrs.append([r.choice([0, U.IFLA_WORMCAST_MAX + 1,
                                    U.IFLA_WORMCAST_MAX + 7, 0x3fff]),
                          r.randbytes(r.choice([0, 1, 4, 8])), None])
        if r.random() < 0.05:     # nested garbage
            inner = b''.join(nla(r.randrange(0, 30), r.randbytes(
                r.randrange(0, 9))) for _ in range(r.randrange(0, 4)))
            attrs.append([r.randrange(0, U.IFLA_WORMCAST_MAX + 3) |
                          NLA_F_NESTED, inner, None])
        r.shuffle(attrs)
        # malformations
        if attrs and r.random() < 0.2:
            a = r.choice(attrs)
            how = r.choice(['short', 'long', 'empty', 'bytes'])
            if how == 'short':
                a[1] = a[1][:max(0, len(a[1]) - r.randint(1, 3))]
            elif how == 'long':
                a[1] += r.randbytes(r.randint(1, 8))
            elif how == 'empty':
                a[1] = b''
            else:
                a[1] = r.randbytes(len(a[1]))
        if attrs and r.random() < 0.05:
            attrs.append(list(r.choice(attrs)))         # duplicate
        truncated = None
        if attrs and r.random() < 0.05:
            truncated = r.choice(['len', 'tail'])
        return attrs, truncated

    def build(self, attrs, truncated):
        data = b''
        for t, p, _ in attrs:
            data += nla(t, p)
        if truncated == 'len':          # last nla_len runs past the nest
            last = attrs[-1]
            data = data[:len(data) - len(nla(last[0], last[1]))]
            data += struct.pack('=HH', 4 + len(last[1]) + 8, last[0]) + \
                last[1]
        elif truncated == 'tail':
            data += self.rng.randbytes(self.rng.randint(1, 3))
        return data

    @staticmethod
    def size_of(attrs):
        """Nodes the last TOPOLOGY and DIMS would make (None: none)."""
        last = {}
        for t, p, _ in attrs:
            last[t & 0x3fff] = p
        t, d = last.get(W['topology']), last.get(W['dims'])
        if t is None or d is None or len(t) < 4 or len(d) < 4:
            return None
        kind = get_u32(t)
        dims = struct.unpack('=%dI' % (min(len(d), 12) // 4),
                             d[:min(len(d), 12) // 4 * 4])
        if kind in (TOPO['mesh'], TOPO['torus']):
            return math.prod(dims)
        if kind == TOPO['hypercube']:
            return 1 << min(dims[0], 40)
        if kind == TOPO['star']:
            return math.factorial(min(dims[0], 20))
        return None

    def predict(self, attrs, truncated):
        """What the contract (uapi.rst, the policies) says must happen:
        ('reject', why), ('accept', nnodes) or (None, nnodes)."""
        # rtnetlink's own parse of IFLA_INFO_DATA is lenient; the module
        # validates the nest again strictly (kmod/link.c): a malformed
        # nest, an unknown type (0 included) and NLA_F_NESTED on a plain
        # attribute are refused.
        if truncated:
            return 'reject', 'malformed nest (%s)' % truncated
        for t, _, _ in attrs:
            if t & NLA_F_NESTED:
                return 'reject', 'NLA_F_NESTED on a plain attribute'
            if t == 0 or t > U.IFLA_WORMCAST_MAX:
                return 'reject', 'unknown attribute type %d' % t
        last = {}
        for t, p, _ in attrs:
            last[t] = p
            # the policy checks every occurrence
            if t in (W[k] for k in READ_ONLY):
                return 'reject', 'read-only attribute %d' % t
            if t in (W[k] for k in IN_U32 + ['topology']) and len(p) < 4:
                return 'reject', 'u32 attribute %d shorter than 4' % t
            if t == W['replication'] and (not p or p[0] > 1):
                return 'reject', 'replication empty or > 1'
            if t == W['topology'] and \
                    get_u32(p) not in (1, 2, 3, 4):
                return 'reject', 'topology out of range'
            if t == W['dims'] and len(p) > 12:
                return 'reject', 'dims longer than 3 x u32'
            if t == W['node_name'] and b'\0' not in p[:16]:
                return 'reject', 'node name not NUL-terminated in 16'
        for k in IN_U32 + ['topology', 'replication']:
            want = 1 if k == 'replication' else 4
            if W[k] in last and len(last[W[k]]) != want:
                return 'reject', '%s has a wrong size' % k
        if W['topology'] not in last:
            return 'reject', 'no topology'
        if W['dims'] not in last:
            return 'reject', 'no dims'
        d = last[W['dims']]
        if len(d) < 4 or len(d) % 4:
            return 'reject', 'dims not a u32 array'
        dims = list(struct.unpack('=%dI' % (len(d) // 4), d))
        kind = get_u32(last[W['topology']])
        if kind in (TOPO['mesh'], TOPO['torus']):
            if len(dims) > 3:
                return 'reject', 'more than 3 dims'
            if min(dims) < 2:
                return 'reject', 'a dimension below 2'
            nnodes = math.prod(dims)
        elif kind == TOPO['hypercube']:
            if len(dims) != 1 or not 1 <= dims[0] <= 12:
                return 'reject', 'hypercube dimension'
            nnodes = 1 << dims[0]
        else:
            if len(dims) != 1 or not 2 <= dims[0] <= 7:
                return 'reject', 'star order'
            nnodes = math.factorial(dims[0])
        if nnodes > MAX_NODES:
            return 'reject', 'more than %d nodes' % MAX_NODES
        if W['queue_len'] in last and not \
                QUEUE_MIN <= get_u32(last[W['queue_len']]) <= QUEUE_MAX:
            return None, nnodes         # engine checks may come first
        if W['cycle_ns'] in last and \
                get_u32(last[W['cycle_ns']]) > CYCLE_NS_MAX:
            return None, nnodes
        if W['node_name'] in last:
            pat = last[W['node_name']].split(b'\0')[0]
            i = pat.find(b'%d')
            if i < 0 or b'%' in pat[:i] or b'%' in pat[i + 2:]:
                return None, nnodes     # after the engine checks
            return None, nnodes
        if any(W[k] in last for k in ENGINE_PARAMS):
            return None, nnodes
        return 'accept', nnodes

    def p_newlink(self, n):
        r = self.rng
        created = 0
        t0 = now()
        # node names of a random request may collide with these (hold0,
        # hold1), or with the new fabric's own name (pattern fz%d): the
        # refusal comes after the fabric device is registered
        self.create('fzhold', 'mesh', [2], node_name='hold%d')
        for _ in range(n):
            attrs, truncated = self.gen_newlink()
            pred, why = self.predict(attrs, truncated)
            name = self.name()
            size = self.size_of(attrs[:-1] if truncated == 'len' else attrs)
            if size is not None and self.max_nodes < size <= MAX_NODES:
                # a big fabric costs seconds under KASAN: refused instead
                # by a bad queue length, checked before anything is built
                attrs = [[W['queue_len'], struct.pack('=I', 0), None]] + \
                    [a for a in attrs if a[0] & 0x3fff != W['queue_len']]
                pred, why = self.predict(attrs, truncated)
                if pred == 'accept':
                    pred, why = 'reject', 'queue_len 0'
                self.outcomes['newlink too big, queue_len 0 added'] += 1
            if pred != 'reject' and created >= max(10, n // 20):
                # enough fabrics built (each costs a fifth of a second
                # under KASAN): refuse the rest the same way
                attrs = [[W['queue_len'], struct.pack('=I', 1), None]] + \
                    [a for a in attrs if a[0] & 0x3fff != W['queue_len']]
                pred, why = self.predict(attrs, truncated)
                if pred == 'accept':
                    pred, why = 'reject', 'queue_len 1'
            data = self.build(attrs, truncated)
            extra = b''
            ns = None
            x = r.random()
            if x < 0.04:
                extra += nla(IFLA_ADDRESS, r.randbytes(6))
                pred, why = 'reject', 'IFLA_ADDRESS given'
            elif x < 0.08 and self.netns:
                ns = r.choice(sorted(self.netns))
                extra += nla_u32(IFLA_NET_NS_FD, self.netns[ns])
            elif x < 0.11:
                extra += nla_u32(IFLA_MTU, r.choice(INTERESTING))
                if pred == 'accept':
                    pred = None
            if r.random() < 0.03:
                name = None             # the kernel picks wormcast%d
            body = wcnl.newlink_body(name, data, extra)
            ack = self.rt.request(RTM_NEWLINK, NLM_F_EXCL | NLM_F_CREATE,
                                  body)
            self.judge('newlink', ack, body)
            if ack.err:
                self.outcomes['newlink rejected'] += 1
                if pred == 'accept':
                    self.fail('newlink: a valid request was refused',
                              ack.strerror(), 'request: ' + body.hex())
                if name is not None:
                    rt = self.rt_in(ns)
                    self.no_device(rt, name, 'newlink refused')
                continue
            created += 1
            self.outcomes['newlink accepted'] += 1
            if pred == 'reject':
                self.fail('newlink: accepted against the contract (%s)'
                          % why, 'request: ' + body.hex())
            self.check_new_fabric(name, ns, why if pred == 'accept'
                                  else None, body)
        self.delete(self.rt, name='fzhold')
        self.diag('newlink: %d requests, %d fabrics created, %.1f s' %
                  (n, created, now() - t0))

    def check_new_fabric(self, name, ns, nnodes, body):
        """A fabric that a random request created: it reports itself
        sanely, then goes, whole, by a random device of it."""
        rt = self.rt_in(ns)
        links = self.wc_links(ns)
        fab = None
        for lk in links:
            if lk.data.get(W['role']) == bytes([1]) and \
                    (lk.name == name or name is None and
                     lk.name.startswith('wormcast')):
                fab = lk
        if fab is None:
            self.fail('newlink: created fabric %s not found' % name,
                      'request: ' + body.hex())
            return
        fid = fab.u32('fabric_id')
        nodes = [lk for lk in links if lk.u32('fabric_id') == fid and
                 lk.index != fab.index]
        got = fab.u32('nnodes')
        if nnodes is not None and got != nnodes:
            self.fail('newlink: %s has %s nodes, expected %d' %
                      (fab.name, got, nnodes), 'request: ' + body.hex())
        if len(nodes) != got:
            self.fail('newlink: %s reports %s nodes, %d node devices' %
                      (fab.name, got, len(nodes)))
        ids = sorted(lk.u32('node_id') for lk in nodes)
        if ids != list(range(len(nodes))):
            self.fail('newlink: %s node ids %s' % (fab.name, ids[:20]))
        victim = self.rng.choice([fab] + nodes)
        ack = self.delete(rt, index=victim.index)
        if ack.err:
            self.fail('dellink %s refused: %s' % (victim.name,
                                                   ack.strerror()))
            return
        left = [lk for lk in self.wc_links(ns) if lk.u32('fabric_id') == fid]
        if left:
            self.fail('dellink %s left devices of its fabric' % victim.name,
                      repr(left))

    # ------------------------------------------------------------ genl

    def genl_attrs(self, targets):
        """Random request attributes for the wormcast family."""
        r = self.rng
        out = []
        x = r.random()
        ifindex, name = r.choice(targets)
        if x < 0.4:
            out.append(nla_u32(A['fabric_ifindex'], ifindex))
        elif x < 0.75:
            out.append(nla_str(A['fabric_name'], name))
        elif x < 0.8:
            out.append(nla_u32(A['fabric_ifindex'], ifindex))
            out.append(nla_str(A['fabric_name'], r.choice(targets)[1]))
        elif x < 0.85:
            out.append(nla(A['fabric_name'], name.encode()))   # no NUL
        elif x < 0.88:
            out.append(nla_str(A['fabric_name'], 'x' * r.choice([15, 16,
                                                                 40])))
        elif x < 0.92:
            out.append(nla(A['fabric_ifindex'], r.choice(
                [b'', b'\1', struct.pack('=H', ifindex & 0xffff),
                 struct.pack('=Q', ifindex)])))
        if r.random() < 0.5:
            out.append(self.params_nest())
        if r.random() < 0.1:
            t = r.choice([A[k] for k in ('fabric_id', 'topology', 'dims',
                                         'nnodes', 'nodes', 'node',
                                         'counters', 'engine',
                                         'nodes_truncated')] +
                         [0, U.WORMCAST_A_MAX + 1, 0x3fff, A['pad']])
            out.append(nla(t, r.randbytes(r.choice([0, 4, 8]))))
        if r.random() < 0.05:
            out.append(nla(r.randrange(0, 20) | NLA_F_NESTED,
                           nla(r.randrange(0, 20), r.randbytes(4))))
        r.shuffle(out)
        data = b''.join(out)
        if data and r.random() < 0.04:
            data = data[:-r.randint(1, min(4, len(data)))]
        return data

    def hostile(self):
        r = self.rng
        return r.choice([0, 1, 2, 15, 16, 17, 100, 1000, 10000, 999999999,
                         1000000000, 1000000001, 0x7fffffff, 0x80000000,
                         0xffffffff, r.getrandbits(32)])

    def params_nest(self, cycle=None, watchdog=None):
        r = self.rng
        inner = []
        if cycle is not None or r.random() < 0.6:
            inner.append(nla_u32(P['cycle_ns'], self.hostile()
                                 if cycle is None else cycle))
        if watchdog is not None or r.random() < 0.6:
            inner.append(nla_u32(P['watchdog'], self.hostile()
                                 if watchdog is None else watchdog))
        if r.random() < 0.15:
            inner.append(nla_u32(r.choice(list(P.values())),
                                 self.rand_u32()))
        if r.random() < 0.1:
            inner.append(nla(r.choice([P['cycle_ns'], P['watchdog']]),
                             r.choice([b'', b'\1', b'\1\2',
                                       struct.pack('=Q', 5000)])))
        if r.random() < 0.05:
            inner.append(nla(r.choice([0, U.WORMCAST_PARAM_MAX + 1]),
                             b'\0' * 4))
        flag = NLA_F_NESTED if r.random() < 0.93 else 0
        return nla(A['params'] | flag, b''.join(inner))

    def genl_targets(self, extra=()):
        lo = 1
        return [(self.big_index, 'fzbig'), (self.big_index, 'fzbign5'),
                (self.mid_index, 'fzmid'), (lo, 'lo'), (999999, 'nope0'),
                (0, ''), (self.mid_node, 'fzmidn3')] + list(extra)

    def p_genl(self, n):
        r = self.rng
        t0 = now()
        self.create('fzbig', 'torus', [8, 8])
        self.create('fzmid', 'mesh', [3, 3])
        self.big_index = self.link(self.rt, 'fzbig').index
        self.mid_index = self.link(self.rt, 'fzmid').index
        self.mid_node = self.link(self.rt, 'fzmidn3').index
        # two nodes elsewhere: replies must cope with other namespaces
        for nd, key in (('fzbign7', 'a'), ('fzmidn8', 'b')):
            lk = self.link(self.rt, nd)
            self.setlink(self.rt, lk.index,
                         nla_u32(IFLA_NET_NS_FD, self.netns[key]))
        ops = {CMD['fabric_get']: 'doit dump', CMD['stats_get']: 'doit dump',
               CMD['fabric_set']: 'doit'}
        dumps = 0
        for i in range(n):
            x = r.random()
            if x < 0.06:
                self.abandoned_dump()
                dumps += 1
                continue
            if x < 0.09:
                self.disturbed_dump()
                dumps += 1
                continue
            if x < 0.16:
                self.fabric_set_checked()
                continue
            cmd = r.choice([CMD['fabric_get']] * 3 + [CMD['stats_get']] * 3 +
                           [CMD['fabric_set']] * 3 +
                           [0, CMD['fabric_new'], CMD['fabric_del'],
                            U.WORMCAST_CMD_MAX + 1, r.randrange(0, 256)])
            dump = r.random() < 0.3
            attrs = self.genl_attrs(self.genl_targets())
            body = wcnl.genl_body(cmd, attrs,
                                  version=1 if r.random() < 0.9 else
                                  r.randrange(256),
                                  reserved=0 if r.random() < 0.95 else
                                  r.randrange(1, 65536))
            short = r.random() < 0.01
            if short:
                body = body[:r.randrange(0, 4)]
            flags = NLM_F_DUMP if dump else 0
            ack = self.gs.request(self.genl.id, flags, body)
            exempt = ['genl-hdr'] if short else []
            if cmd not in ops or (dump and 'dump' not in ops[cmd]):
                exempt.append('genl-cmd')
            self.judge('genl-dump' if dump else 'genl-doit', ack, body,
                       exempt)
            if not ack.err and not short and cmd in ops:
                if dump:
                    self.check_dump(ack, 'random dump')
                elif cmd != CMD['fabric_set']:
                    self.check_doit(ack)
        # the settable values are back to sane ones for what follows
        for f in ('fzbig', 'fzmid'):
            self.fabric_set(f, 0, 10000)
            self.delete(self.rt, name=f)
        self.diag('genl: %d requests (%d abandoned or disturbed dumps), '
                  '%.1f s' % (n, dumps, now() - t0))

    def check_doit(self, ack):
        if not ack.msgs:
            self.fail('genl doit: success without a reply')
            return
        a = attr_dict(ack.msgs[0].data, 4)
        nn = a.get(A['nnodes'])
        nodes = parse_attrs(a.get(A['nodes'], b''))
        if nn is None:
            self.fail('genl doit: reply without NNODES')
            return
        if len(nodes) < get_u32(nn) and A['nodes_truncated'] not in a:
            self.fail('genl doit: %d of %d nodes without NODES_TRUNCATED' %
                      (len(nodes), get_u32(nn)))
        if len(nodes) > get_u32(nn):
            self.fail('genl doit: %d nodes of %d' % (len(nodes),
                                                     get_u32(nn)))

    def check_dump(self, ack, what, expect=None):
        """Every fabric of a dump comes with every node once, in order,
        unless the dump says it was interrupted (NLM_F_DUMP_INTR)."""
        seen = collections.OrderedDict()
        for m in ack.msgs:
            a = attr_dict(m.data, 4)
            if A['fabric_id'] not in a or A['nnodes'] not in a:
                self.fail('%s: part without fabric id or nnodes' % what)
                return
            fid = get_u32(a[A['fabric_id']])
            ent = seen.setdefault(fid, [get_u32(a[A['nnodes']]), []])
            if list(seen)[-1] != fid:
                self.fail('%s: fabric %d comes back after another' %
                          (what, fid))
            for _, nd in parse_attrs(a.get(A['nodes'], b'')):
                nda = attr_dict(nd)
                if NODE['id'] in nda:
                    ent[1].append(get_u32(nda[NODE['id']]))
        if ack.intr:
            self.outcomes['dump interrupted (DUMP_INTR)'] += 1
            return seen
        for fid, (nn, ids) in seen.items():
            if ids != list(range(nn)):
                self.fail('%s: fabric %d: nodes %s... of %d (not '
                          'interrupted)' % (what, fid, ids[:8], nn))
        if expect is not None and set(expect) - set(seen):
            self.fail('%s: fabrics %s missing' % (what,
                                                  set(expect) - set(seen)))
        return seen

    def abandoned_dump(self):
        """Close the socket after part of a multi-part dump."""
        r = self.rng
        s = wcnl.NlSock(wcnl.NETLINK_GENERIC)
        cmd = r.choice([CMD['fabric_get'], CMD['stats_get']])
        attrs = r.choice([b'', nla_str(A['fabric_name'], 'fzbig')])
        s.send(self.genl.id, NLM_F_REQUEST | NLM_F_DUMP,
               wcnl.genl_body(cmd, attrs))
        self.count('genl-dump-abandoned')
        for _ in range(r.choice([0, 1, 1, 2])):
            s.recv_msgs(r.choice([4096, 8192, 65536]))
        s.close()
        self.outcomes['dump abandoned'] += 1

    def disturbed_dump(self):
        """Read part of a dump, create or delete a fabric, read the rest."""
        r = self.rng
        s = wcnl.NlSock(wcnl.NETLINK_GENERIC)
        cmd = r.choice([CMD['fabric_get'], CMD['stats_get']])
        only = r.random() < 0.3
        attrs = nla_str(A['fabric_name'], 'fzbig') if only else b''
        seq = s.send(self.genl.id, NLM_F_REQUEST | NLM_F_DUMP,
                     wcnl.genl_body(cmd, attrs))
        self.count('genl-dump-disturbed')
        first = s.recv_msgs(4096)
        s.pending = first
        tmp = self.name('fzt')
        if r.random() < 0.5:
            self.create(tmp, 'mesh', [2])
            after = lambda: self.delete(self.rt, name=tmp)  # noqa: E731
        else:
            self.create(tmp, 'mesh', [2])
            self.delete(self.rt, name=tmp)
            after = None
        ack = s.wait(seq, 4096)
        s.close()
        if after:
            after()
        if ack.err:
            self.fail('disturbed dump failed', ack.strerror())
            return
        self.check_dump(ack, 'disturbed dump')

    def fabric_set(self, name, cycle, watchdog, gs=None):
        attrs = nla_str(A['fabric_name'], name) + \
            nla_nest(A['params'], nla_u32(P['cycle_ns'], cycle),
                     nla_u32(P['watchdog'], watchdog))
        ack = (gs or self.genl).request(CMD['fabric_set'], attrs)
        self.judge('genl-fabric_set', ack, attrs)
        return ack

    def fabric_set_checked(self):
        """A hostile FABRIC_SET changes both values or neither."""
        r = self.rng
        name = r.choice(['fzbig', 'fzmid'])
        before = self.params_of(name)
        cyc = self.hostile() if r.random() < 0.7 else None
        wd = self.hostile() if r.random() < 0.7 else None
        inner = b''
        if cyc is not None:
            inner += nla_u32(P['cycle_ns'], cyc)
        if wd is not None:
            inner += nla_u32(P['watchdog'], wd)
        attrs = nla_str(A['fabric_name'], name) + nla_nest(A['params'], inner)
        ack = self.genl.request(CMD['fabric_set'], attrs)
        self.judge('genl-fabric_set', ack, attrs)
        after = self.params_of(name)
        if before is None or after is None:
            self.fail('FABRIC_GET of %s failed around FABRIC_SET' % name)
            return
        if ack.err:
            self.outcomes['fabric_set refused'] += 1
            if before != after:
                self.fail('refused FABRIC_SET changed %s' % name,
                          'before %s after %s' % (before, after),
                          'request: ' + attrs.hex())
            if cyc is not None and cyc <= CYCLE_NS_MAX and \
                    wd is not None and wd >= 16 and wd < 1 << 31 and \
                    'watchdog' not in ack.extack and False:
                pass
            if cyc is None and wd is None:
                return
            return
        self.outcomes['fabric_set accepted'] += 1
        want = dict(before)
        if cyc is not None:
            want['cycle_ns'] = cyc
        if wd is not None:
            want['watchdog'] = wd
        if cyc is None and wd is None:
            self.fail('FABRIC_SET without values accepted')
        if cyc is not None and cyc > CYCLE_NS_MAX:
            self.fail('FABRIC_SET accepted cycle_ns %d' % cyc)
        if after != want:
            self.fail('FABRIC_SET of %s: got %s, want %s' %
                      (name, after, want))
        # paced at 1 s a cycle would stall later phases: back to normal
        if after.get('cycle_ns', 0) > 100000:
            self.fabric_set(name, 0, after['watchdog'])

    # ------------------------------------------------------------ traffic

    def frame(self, src, dst, kind=None, size=None):
        """A random Ethernet frame from MAC @src to MAC @dst."""
        r = self.rng
        kind = kind or r.choice(['ip', 'arp', 'vlan', 'qinq', 'raw', 'ipv6'])
        et = {'ip': 0x0800, 'arp': 0x0806, 'raw': r.getrandbits(16),
              'ipv6': 0x86dd, 'vlan': 0x8100, 'qinq': 0x88a8}[kind]
        hdr = dst + src + struct.pack('!H', et)
        if kind == 'vlan':
            hdr += struct.pack('!HH', r.getrandbits(16),
                               r.choice([0x0800, 0x86dd, 0x8100]))
        elif kind == 'qinq':
            hdr += struct.pack('!HHHH', r.getrandbits(16), 0x8100,
                               r.getrandbits(16), 0x0800)
        if size is None:
            size = r.choice([0, 1, 20, 46, 60, 100, 500, 1486, 1500])
        return hdr + r.randbytes(max(0, size))

    def sender(self, items, rng, stop, counts):
        """Background traffic: random frames from nodes to nodes.
        @items: callable giving [(ns key, ifname, mac)] of live nodes."""
        socks = self.tsocks
        while not stop.is_set():
            self.tlock.acquire()
            devs = items()
            if not devs:
                self.tlock.release()
                time.sleep(0.01)
                continue
            key, ifname, mac = rng.choice(devs)
            dst = rng.choice(devs)[2] if rng.random() < 0.7 else \
                rng.choice([b'\xff' * 6, b'\x01\x00\x5e\x01\x02\x03',
                            b'\x33\x33\x00\x00\x00\x01'])
            try:
                s = socks.get((key, ifname))
                if s is None:
                    with wcnl.InNetns(self.netns.get(key)):
                        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
                    s.bind((ifname, 0))
                    socks[(key, ifname)] = s
                s.send(self.frame(mac, dst, rng.choice(['ip', 'raw']),
                                  rng.choice([20, 100, 1000, 1400])))
                counts['sent'] += 1
            except OSError as e:
                counts[errno.errorcode.get(e.errno, str(e.errno))] += 1
                s = socks.pop((key, ifname), None)
                if s:
                    s.close()
                if e.errno not in (errno.ENETDOWN, errno.ENXIO,
                                   errno.ENODEV, errno.EMSGSIZE,
                                   errno.ENOBUFS, errno.EAGAIN):
                    self.fail('traffic: send on %s: %s' % (ifname, e))
            finally:
                self.tlock.release()
            time.sleep(0.005)
        with self.tlock:
            for s in socks.values():
                s.close()
            socks.clear()

    # ------------------------------------------------------------ linkops

    def resync(self):
        """Every wormcast device in every namespace of ours."""
        self.world = []
        for key in [None] + sorted(self.netns):
            for lk in self.wc_links(key):
                self.world.append((key, lk))
        self.live_nodes = [(key, lk.name, bytes(lk.address))
                           for key, lk in self.world
                           if lk.data.get(W['role']) == bytes([2]) and
                           lk.flags & IFF_UP]
        return self.world

    def ensure_fabrics(self):
        fabs = [lk for key, lk in self.world
                if lk.data.get(W['role']) == bytes([1])]
        while len(fabs) < 2:
            name = self.name('fo')
            topo = self.rng.choice(['mesh', 'torus', 'hypercube', 'star'])
            self.create(name, topo, {'mesh': [3, 3], 'torus': [3, 3],
                                     'hypercube': [3], 'star': [3]}[topo])
            self.up_all(None, name)
            self.resync()
            fabs = [lk for key, lk in self.world
                    if lk.data.get(W['role']) == bytes([1])]

    def up_all(self, key, fabric_name):
        rt = self.rt_in(key)
        fab = self.link(rt, fabric_name)
        fid = fab.u32('fabric_id')
        for lk in self.wc_links(key):
            if lk.u32('fabric_id') == fid:
                self.up(rt, lk.index)

    def p_linkops(self, n):
        r = self.rng
        t0 = now()
        self.resync()
        self.ensure_fabrics()
        stop = threading.Event()
        counts = collections.Counter()
        th = threading.Thread(target=self.sender, args=(
            lambda: self.live_nodes, random.Random(self.seed + 1), stop,
            counts))
        th.start()
        kills = 0
        spent = collections.Counter()
        t1 = now()
        self.ensure_fabrics()
        spent['setup'] = now() - t1
        try:
            for i in range(n):
                if not self.world:
                    self.resync()
                self.ensure_fabrics()
                key, lk = r.choice(self.world)
                rt = self.rt_in(key)
                op = 'kill-netns' if i % 50 == 25 else r.choice(
                    ['mtu'] * 8 + ['name'] * 4 + ['flags'] * 6 +
                    ['netns'] * 3 + ['mac', 'txqlen', 'misc', 'changelink',
                                     'dellink'])
                t1 = now()
                changed = self.linkop(op, key, lk, rt)
                spent[op] += now() - t1
                if op == 'kill-netns':
                    kills += 1
                elif changed:
                    self.resync()
        finally:
            stop.set()
            th.join()
        self.diag('linkops: %d operations (%d namespace deaths) under '
                  'traffic (%s), %.1f s (%s)' % (
                      n, kills, dict(counts), now() - t0, ', '.join(
                          '%s %.1f s' % kv for kv in spent.most_common(4))))
        self.frames.update({'linkops ' + k: v for k, v in counts.items()})

    def linkop(self, op, key, lk, rt):
        r = self.rng
        is_fabric = lk.data.get(W['role']) == bytes([1])
        if op == 'mtu':
            mtu = r.choice([0, 1, 67, 68, 576, 1280, 1500, 1501, 9000,
                            65535, 65536, 0xffffffff])
            ack = self.setlink(rt, lk.index, nla_u32(IFLA_MTU, mtu),
                               cls='setlink-mtu')
            if not ack.err and not 68 <= mtu <= 65535:
                self.fail('MTU %d accepted on %s' % (mtu, lk.name))
            return False
        if op == 'name':
            new = r.choice([self.name('fr'), self.name('fr'), 'lo', '',
                            'a/b', 'a b', '.', '..', 'x' * 15, 'x' * 16,
                            'fr%d', lk.name])
            up = lk.flags & IFF_UP
            if up and r.random() < 0.8:
                self.up(rt, lk.index, False)
            ack = self.setlink(rt, lk.index, nla_str(IFLA_IFNAME, new),
                               cls='setlink-name',
                               exempt=('lookup', 'setlink-name'))
            if up:
                self.up(rt, lk.index, True)
            if not ack.err:
                lk.name = new
            return False
        if op == 'flags':
            f = r.choice([IFF_UP, IFF_PROMISC, IFF_ALLMULTI])
            on = r.random() < 0.6
            ack = self.setlink(rt, lk.index, flags=f if on else 0, change=f,
                               cls='setlink-flags')
            if f == IFF_UP and not ack.err:
                lk.flags = (lk.flags & ~IFF_UP) | (IFF_UP if on else 0)
                self.live_nodes = [
                    (k, x.name, bytes(x.address)) for k, x in self.world
                    if x.data.get(W['role']) == bytes([2]) and
                    x.flags & IFF_UP]
            return False
        if op == 'netns':
            dest = r.choice([None] + sorted(self.netns))
            if dest == key:
                dest = None if key else (sorted(self.netns) or [None])[0]
            fd = self.netns[dest] if dest else self.init_fd
            ack = self.setlink(rt, lk.index, nla_u32(IFLA_NET_NS_FD, fd),
                               cls='setlink-netns',
                               exempt=('lookup', 'setlink-netns'))
            if is_fabric and not ack.err:
                self.fail('the fabric device %s moved to another namespace'
                          % lk.name)
            if ack.err:
                return False
            nrt = self.rt_in(dest)
            moved = self.link(nrt, lk.name)
            if moved is None:
                return True             # renamed on the way? look again
            self.up(nrt, moved.index)
            moved.flags |= IFF_UP
            self.world = [(k, x) for k, x in self.world if x is not lk] + \
                [(dest, moved)]
            self.live_nodes = [
                (k, x.name, bytes(x.address)) for k, x in self.world
                if x.data.get(W['role']) == bytes([2]) and x.flags & IFF_UP]
            return False
        if op == 'mac':
            ack = self.setlink(rt, lk.index,
                               nla(IFLA_ADDRESS, r.randbytes(6)),
                               cls='setlink-mac',
                               exempt=('lookup', 'setlink-mac'))
            if not ack.err:
                self.fail('MAC of %s changed' % lk.name)
            return False
        if op == 'txqlen':
            self.setlink(rt, lk.index, nla_u32(IFLA_TXQLEN,
                                               r.choice(INTERESTING)),
                         cls='setlink-txqlen',
                         exempt=('lookup', 'setlink-txqlen'))
            return False
        if op == 'misc':
            self.setlink(rt, lk.index, r.choice([
                nla_u32(IFLA_GROUP, r.getrandbits(32)),
                nla_str(IFLA_IFALIAS, 'fuzz')]), cls='setlink-misc')
            self.setlink(rt, lk.index, nla(IFLA_ADDRESS, b'\1\2'),
                         cls='setlink-addrlen',
                         exempt=('lookup', 'setlink-addrlen'))
            return False
        if op == 'changelink':
            body = wcnl.newlink_body(lk.name, wcnl.wc_info_data(
                topology=1, dims=[2]))
            ack = rt.request(RTM_NEWLINK, 0, body)
            self.judge('newlink-existing', ack, body,
                       exempt=('lookup', 'newlink-existing'))
            if not ack.err:
                self.fail('RTM_NEWLINK changed existing %s' % lk.name)
            return False
        if op == 'dellink':
            fid = lk.u32('fabric_id')
            ack = self.delete(rt, index=lk.index)
            if ack.err:
                self.fail('dellink %s: %s' % (lk.name, ack.strerror()))
            self.resync()
            left = [x.name for _, x in self.world
                    if x.u32('fabric_id') == fid]
            if left:
                self.fail('dellink %s left %s' % (lk.name, left))
            return False
        if op == 'kill-netns':
            if not self.netns:
                return False
            victim = r.choice(sorted(self.netns))
            had = [x.u32('fabric_id') for k, x in self.world if k == victim]
            self.ns_close(victim)
            self.outcomes['namespace killed'] += 1
            self.settle_after_netns_death(set(had))
            self.ns_new(victim)
            return True
        raise AssertionError(op)

    def settle_after_netns_death(self, fids):
        """A dying namespace takes its node devices with it: either their
        whole fabrics go (wormcast deletes the fabric) or the devices come
        back to the initial namespace (the older netns_refund).  Either
        way, no fabric is left incomplete."""
        deadline = now() + 30
        while True:
            self.resync()
            bad = []
            for fid in fids:
                devs = [lk for _, lk in self.world
                        if lk.u32('fabric_id') == fid]
                if devs:
                    nn = max(lk.u32('nnodes') or 0 for lk in devs)
                    if len(devs) != nn + 1:
                        bad.append((fid, len(devs), nn))
            if not bad:
                return
            if now() > deadline:
                self.fail('after a namespace died, fabrics incomplete '
                          '(fabric id, devices, nnodes): %s' % bad)
                return
            time.sleep(0.2)

    # ------------------------------------------------------------ race

    def p_race(self, n, nthreads=5):
        t0 = now()
        pool = ['fzc%d' % i for i in range(4)]
        per = max(1, n // nthreads)
        errs = []

        def run(idx):
            rng = random.Random(self.seed * 100 + idx)
            rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
            gs = wcnl.NlSock(wcnl.NETLINK_GENERIC)
            genl = wcnl.Genl(gs, U.WORMCAST_GENL_NAME)
            socks = []
            try:
                for _ in range(per):
                    self.race_op(idx % 5, rng, rt, genl, pool)
            except Exception:
                errs.append(traceback.format_exc())
            finally:
                rt.close()
                gs.close()
                for s in socks:
                    s.close()

        ths = [threading.Thread(target=run, args=(i,))
               for i in range(nthreads)]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        for e in errs:
            self.fail('race: a thread died', e)
        for name in pool:
            ack = self.delete(self.rt, name=name, cls='dellink-race')
        self.diag('race: %d threads x %d operations, %.1f s' %
                  (nthreads, per, now() - t0))

    def race_op(self, role, rng, rt, genl, pool):
        name = rng.choice(pool)
        if role == 0:           # creator
            topo = rng.choice(['mesh', 'torus', 'hypercube', 'star'])
            dims = {'mesh': [rng.choice([2, 3, 4])], 'torus': [3, 3],
                    'hypercube': [rng.choice([2, 3])], 'star': [3]}[topo]
            body = wcnl.newlink_body(name, wcnl.wc_info_data(
                topology=TOPO[topo], dims=dims))
            ack = rt.request(RTM_NEWLINK, NLM_F_EXCL | NLM_F_CREATE, body)
            self.judge('newlink-race', ack, body, exempt=('newlink-taken',))
            if not ack.err:
                for d in range(2):
                    lk = wcnl.get_link(rt, name='%sn%d' % (name, d))[1]
                    self.count('getlink')
                    if lk:
                        b = ifinfomsg(index=lk.index, flags=IFF_UP,
                                      change=IFF_UP)
                        a = rt.request(RTM_SETLINK, 0, b)
                        self.judge('setlink-race', a, b, exempt=('lookup',))
        elif role == 1:         # deleter
            target = name if rng.random() < 0.5 else '%sn%d' % (
                name, rng.randrange(4))
            body = ifinfomsg() + nla_str(IFLA_IFNAME, target)
            ack = rt.request(RTM_DELLINK, 0, body)
            self.judge('dellink-race', ack, body, exempt=('lookup',))
            time.sleep(rng.random() * 0.02)
        elif role == 2:         # reader
            if rng.random() < 0.4:
                s = wcnl.NlSock(wcnl.NETLINK_GENERIC)
                cmd = rng.choice([CMD['fabric_get'], CMD['stats_get']])
                ack = s.dump(genl.id, wcnl.genl_body(cmd), bufsize=4096)
                s.close()
                self.judge('genl-dump-race', ack)
                if not ack.err:
                    self.check_dump(ack, 'dump during races')
            else:
                cmd = rng.choice(['fabric_get', 'stats_get'])
                attrs = nla_str(A['fabric_name'], name)
                ack = genl.request(CMD[cmd], attrs)
                self.judge('genl-race', ack, attrs)
        elif role == 3:         # reconfigurer
            attrs = nla_str(A['fabric_name'], name) + nla_nest(
                A['params'], nla_u32(P['cycle_ns'], rng.choice([0, 0, 1,
                                                                1000])),
                nla_u32(P['watchdog'], rng.choice([16, 10000, 1 << 20])))
            ack = genl.request(CMD['fabric_set'], attrs)
            self.judge('genl-race', ack, attrs)
            if rng.random() < 0.2:
                lk = wcnl.get_link(rt, name=name + 'n1')[1]
                self.count('getlink')
                if lk:
                    b = ifinfomsg(index=lk.index) + nla_u32(
                        IFLA_MTU, rng.choice([68, 1500, 9000]))
                    a = rt.request(RTM_SETLINK, 0, b)
                    self.judge('setlink-race', a, b, exempt=('lookup',))
        else:                   # frames
            try:
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
                try:
                    s.bind(('%sn%d' % (name, rng.randrange(2)), 0))
                    for _ in range(rng.randrange(1, 20)):
                        s.send(self.frame_rng(rng))
                        with self.lock:
                            self.frames['race sent'] += 1
                finally:
                    s.close()
            except OSError as e:
                with self.lock:
                    self.frames['race ' + errno.errorcode.get(
                        e.errno, str(e.errno))] += 1
                if e.errno not in (errno.ENODEV, errno.ENETDOWN,
                                   errno.ENXIO, errno.ENOBUFS,
                                   errno.EMSGSIZE):
                    self.fail('race: frame send: %s' % e)

    @staticmethod
    def frame_rng(rng):
        dst = rng.choice([b'\xff' * 6, b'\x01\x00\x5e\x00\x00\x01',
                          b'\x02\x77' + rng.randbytes(4)])
        return dst + b'\x02\x00\x00\x00\x00\x01' + b'\x08\x00' + \
            rng.randbytes(rng.choice([30, 200, 1400]))

    # ------------------------------------------------------------ packet

    def p_packet(self, n):
        r = self.rng
        t0 = now()
        old6 = self.sysctl('net/ipv6/conf/default/disable_ipv6', '1')
        try:
            self.create('fzpk', 'torus', [4, 4])
        finally:
            self.sysctl('net/ipv6/conf/default/disable_ipv6', old6)
        links = {lk.name: lk for lk in self.wc_links()
                 if lk.name.startswith('fzpk')}
        fab = links.pop('fzpk')
        nodes = sorted(links.values(), key=lambda lk: lk.u32('node_id'))
        for lk in nodes:
            self.up(self.rt, lk.index)
        self.up(self.rt, fab.index)
        # rx filters: a promiscuous node, an allmulti one, group members
        socks = []
        sent = collections.Counter()
        for i, lk in enumerate(nodes):
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
            s.bind((lk.name, 0))
            if i % 4 == 1:
                s.setsockopt(263, 20, 1)            # PACKET_QDISC_BYPASS
            if i in (2, 3, 5):
                mr = struct.pack('=iHH8s', lk.index, 0, 6,
                                 b'\x01\x00\x5e\x01\x02\x03')
                s.setsockopt(263, 1, mr)            # PACKET_ADD_MEMBERSHIP
            if i == 7:
                s.setsockopt(263, 1, struct.pack('=iHH8s', lk.index, 1, 0,
                                                 b''))   # PACKET_MR_PROMISC
            if i == 9:
                s.setsockopt(263, 1, struct.pack('=iHH8s', lk.index, 2, 0,
                                                 b''))   # PACKET_MR_ALLMULTI
            socks.append(s)
        big = nodes[6]
        self.setlink(self.rt, big.index, nla_u32(IFLA_MTU, 65535))
        macs = [bytes(lk.address) for lk in nodes]
        fmac = bytes(fab.address)
        dsts = macs + [fmac, b'\xff' * 6, b'\x01\x00\x5e\x01\x02\x03',
                       b'\x01\x00\x5e\x7f\x00\x09', b'\x33\x33\x00\x00\x00\x01',
                       b'\x01\x80\xc2\x00\x00\x00',
                       fmac[:4] + b'\x07\x77',           # beyond the fabric
                       b'\x02\x77\xff\xfe\x00\x00',      # another fabric id
                       b'\x00\x11\x22\x33\x44\x55']
        floods = 0
        i = 0
        while i < n:
            x = r.random()
            if x < 0.05:        # flood: several nodes, back to back
                kind = r.choice([b'\xff' * 6, b'\x01\x00\x5e\x01\x02\x03',
                                 b'\x33\x33\x00\x00\x00\x01'])
                burst = min(n - i, r.choice([100, 200, 400]))
                srcs = r.sample(range(len(nodes)), 3)
                for k in range(burst):
                    j = srcs[k % 3]
                    self.send_frame(socks[j], j, self.frame(
                        macs[j], kind, 'raw', 60), sent)
                i += burst
                floods += 1
                continue
            j = r.randrange(len(nodes))
            dst = r.choice(dsts)
            y = r.random()
            if y < 0.1:         # runt at the Ethernet level, or below it
                fr = (dst + macs[j] + b'\x08\x00')[:r.randrange(0, 60)]
            elif y < 0.2:       # oversized for the MTU, or huge on "big"
                mtu = 65535 if j == 6 else 1500
                fr = self.frame(macs[j], dst, 'raw',
                                mtu + r.choice([-4, 0, 1, 4, 5, 100]))
            else:
                fr = self.frame(macs[j], dst)
            if r.random() < 0.05:
                fr = fr[:6] + r.randbytes(6) + fr[12:]     # spoofed source
            self.send_frame(socks[j], j, fr, sent, 65535 if j == 6 else 1500)
            i += 1
        # the fabric device carries nothing: counted, not delivered
        fs = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        fs.bind(('fzpk', 0))
        try:
            fs.send(self.frame(fmac, macs[0], 'ip', 100))
            self.frames['fabric device accepted'] += 1
        except OSError as e:
            self.frames['fabric device ' + errno.errorcode[e.errno]] += 1
        fs.close()
        for s in socks:
            s.close()
        drained = self.wait_drained('fzpk', 60)
        eng, ncnt = self.engine_of('fzpk')
        if eng is None:
            self.fail('STATS_GET fzpk failed after the frames')
        elif drained:
            for j in range(len(nodes)):
                c = ncnt.get(j, {})
                got = c.get('tx_frames', 0) + c.get('drop_bad_frame', 0)
                if got != sent[j]:
                    self.fail('node %d: %d frames accepted by AF_PACKET, '
                              'fabric counted %d (tx_frames %d, '
                              'drop_bad_frame %d)' % (
                                  j, sent[j], got, c.get('tx_frames', 0),
                                  c.get('drop_bad_frame', 0)))
            for k in ('deadlocks', 'route_errors'):
                if eng.get(k):
                    self.fail('engine %s = %d after the frames' %
                              (k, eng[k]))
        self.delete(self.rt, name='fzpk')
        self.diag('packet: %d frames (%d floods), %s; engine %s; %.1f s' % (
            n, floods, dict(self.frames), {k: eng.get(k) for k in (
                'worms_done', 'cycles', 'blocked_cycles')} if eng else None,
            now() - t0))

    def send_frame(self, s, j, fr, sent, mtu=1500):
        try:
            s.send(fr)
            sent[j] += 1
            self.frames['accepted'] += 1
        except OSError as e:
            name = errno.errorcode.get(e.errno, str(e.errno))
            self.frames[name] += 1
            ok = {errno.EINVAL: len(fr) < 14,
                  errno.EMSGSIZE: len(fr) > mtu + 14,
                  errno.ENOBUFS: True, errno.EAGAIN: True}
            if not ok.get(e.errno, False):
                self.fail('AF_PACKET send of %d bytes: %s' % (len(fr), e))

    def wait_drained(self, name, secs):
        deadline = now() + secs
        while now() < deadline:
            eng, _ = self.engine_of(name)
            if eng is not None and eng.get('worms_in_flight') == 0:
                # and nothing queued: two equal snapshots in a row
                time.sleep(0.3)
                eng2, _ = self.engine_of(name)
                if eng2 and eng2.get('worms_in_flight') == 0 and \
                        eng2.get('worms_done') == eng.get('worms_done'):
                    return True
            time.sleep(0.2)
        self.fail('fabric %s did not drain within %d s' % (name, secs),
                  repr(self.engine_of(name)[0]))
        return False

    @staticmethod
    def sysctl(path, value):
        p = '/proc/sys/' + path
        with open(p) as f:
            old = f.read().strip()
        with open(p, 'w') as f:
            f.write(value)
        return old

    # ------------------------------------------------------------ unpriv

    def p_unpriv(self):
        """A child without privileges: writes refused, reads allowed."""
        self.create('fzu', 'mesh', [2])
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            out = []
            try:
                os.setgroups([])
                os.setresgid(65534, 65534, 65534)
                os.setresuid(65534, 65534, 65534)
                rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
                gs = wcnl.NlSock(wcnl.NETLINK_GENERIC)
                genl = wcnl.Genl(gs, U.WORMCAST_GENL_NAME)
                a = rt.request(RTM_NEWLINK, NLM_F_EXCL | NLM_F_CREATE,
                               wcnl.newlink_body('fzu2', wcnl.wc_info_data(
                                   topology=1, dims=[2])))
                out.append(('newlink', a.err, a.extack))
                lk = wcnl.get_link(rt, name='fzu')[1]
                a = rt.request(RTM_DELLINK, 0, ifinfomsg(index=lk.index))
                out.append(('dellink', a.err, a.extack))
                a = genl.request(CMD['fabric_set'], nla_str(
                    A['fabric_name'], 'fzu') + nla_nest(
                    A['params'], nla_u32(P['cycle_ns'], 5)))
                out.append(('fabric_set', a.err, a.extack))
                a = genl.request(CMD['fabric_get'],
                                 nla_str(A['fabric_name'], 'fzu'))
                out.append(('fabric_get', a.err, a.extack))
                a = genl.dump(CMD['stats_get'])
                out.append(('stats_dump', a.err, a.extack))
            except Exception:
                out.append(('exception', 0, traceback.format_exc()))
            os.write(w, repr(out).encode())
            os._exit(0)
        os.close(w)
        data = b''
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        os.waitpid(pid, 0)
        res = eval(data.decode()) if data else []   # our own repr
        for what, err, ext in res:
            self.count('unpriv')
            want_err = what in ('newlink', 'dellink', 'fabric_set')
            if what == 'exception':
                self.fail('unprivileged child failed', ext)
            elif want_err and err != -errno.EPERM:
                self.fail('unprivileged %s: %d, expected EPERM' %
                          (what, err))
            elif not want_err and err:
                self.fail('unprivileged %s refused: %d %s' % (what, err, ext))
            elif err and not ext:
                self.exempted[('unpriv', 'EPERM')] += 1
        if len(self.params_of('fzu') or {}) == 0:
            self.fail('fzu gone after the unprivileged attempts')
        self.delete(self.rt, name='fzu')

    # ------------------------------------------------------------ health

    def p_health(self):
        """After all that, a new fabric carries UDP between namespaces."""
        self.create('fzok', 'torus', [3, 3])
        ends = []
        for node, key, addr in ((0, 'ha', '10.9.0.1'), (4, 'hb', '10.9.0.2')):
            self.ns_new(key)
            lk = self.link(self.rt, 'fzokn%d' % node)
            ack = self.setlink(self.rt, lk.index,
                               nla_u32(IFLA_NET_NS_FD, self.netns[key]))
            if ack.err:
                raise Failure('move fzokn%d: %s' % (node, ack.strerror()))
            rt = self.rt_in(key)
            lk = self.link(rt, 'fzokn%d' % node)
            self.up(rt, lk.index)
            body = struct.pack('=BBBBI', socket.AF_INET, 16, 0, 0,
                               lk.index) + \
                nla(1, socket.inet_aton(addr)) + nla(2, socket.inet_aton(addr))
            ack = rt.request(wcnl.RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, body)
            self.judge('newaddr', ack, body)
            with wcnl.InNetns(self.netns[key]):
                u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            u.bind((addr, 5555))
            u.settimeout(10)
            ends.append(u)
        got = []
        for i in range(3):
            ends[0].sendto(b'health %d' % i, ('10.9.0.2', 5555))
            try:
                got.append(ends[1].recv(100))
            except socket.timeout:
                break
        for u in ends:
            u.close()
        if got != [b'health %d' % i for i in range(3)]:
            self.fail('UDP over a new fabric after fuzzing: got %r' % got)
        self.delete(self.rt, name='fzok')
        for key in ('ha', 'hb'):
            self.ns_close(key)

    # ------------------------------------------------------------ the end

    def strays(self):
        left = []
        for key in [None] + sorted(self.netns):
            left += ['%s:%s' % (key or 'init', lk.name)
                     for lk in self.wc_links(key)]
        return left

    def cleanup(self):
        for key in [None] + sorted(self.netns):
            for lk in self.wc_links(key):
                if lk.data.get(W['role']) == bytes([1]):
                    self.delete(self.rt_in(key), index=lk.index)
            # node devices of fabrics elsewhere go with their fabric


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int,
                    default=int(os.environ.get('WC_FUZZ_SEED') or
                                (int(time.time() * 1000) % 1000000007)))
    ap.add_argument('--count', type=int,
                    default=int(os.environ.get('WC_FUZZ_COUNT') or 1500))
    ap.add_argument('--max-nodes', type=int,
                    default=int(os.environ.get('WC_FUZZ_MAX_NODES') or 8))
    ap.add_argument('--phases', default=os.environ.get(
        'WC_FUZZ_PHASES', 'newlink,genl,linkops,race,packet,unpriv,health'))
    args = ap.parse_args()
    print('# seed %d, count %d, max nodes %d (WC_FUZZ_SEED=%d '
          'WC_FUZZ_COUNT=%d reproduce this run)' % (
              args.seed, args.count, args.max_nodes, args.seed, args.count),
          flush=True)
    fz = Fuzz(args.seed, args.count, args.max_nodes)
    fz.init_fd = wcnl.netns_self()
    fz.ns_new('a')
    fz.ns_new('b')
    c = args.count
    # operations per phase; the packet phase counts frames
    shares = {'newlink': 0.30, 'genl': 0.40, 'linkops': 0.05, 'race': 0.03,
              'packet': 0.70}
    t0 = now()
    crashed = None
    for ph in args.phases.split(','):
        t1 = now()
        nfail = len(fz.failures)
        try:
            if ph in ('unpriv', 'health'):
                getattr(fz, 'p_' + ph)()
            else:
                getattr(fz, 'p_' + ph)(max(1, int(c * shares[ph])))
        except Failure as e:
            fz.fail('%s: %s' % (ph, e))
        except Exception:
            crashed = traceback.format_exc()
            fz.fail('%s: the fuzzer crashed' % ph, crashed)
        new = fz.failures[nfail:]
        fz.result(not new, '%s phase (%.1f s)' % (ph, now() - t1),
                  *['%s%s' % (w, ''.join('\n  ' + str(d) for d in det))
                    for w, det in new[:15]] +
                  (['... and %d more' % (len(new) - 15)]
                   if len(new) > 15 else []))
        if crashed:
            break
    # the end: nothing left anywhere once our fabrics are deleted
    try:
        fz.cleanup()
        time.sleep(0.2)
        left = fz.strays()
        fz.result(not left, 'no wormcast device left in any namespace',
                  *(['left: %s' % ' '.join(left)] if left else []))
    except Exception:
        fz.result(False, 'clean-up', traceback.format_exc())
    for key in sorted(fz.netns):
        fz.ns_close(key)
    total = sum(fz.msgs.values())
    fz.diag('netlink messages: %d (%s)' % (total, ', '.join(
        '%s %d' % kv for kv in sorted(fz.msgs.items()))))
    fz.diag('rejections: %d (%s)' % (sum(fz.rejected.values()), ', '.join(
        '%s %d' % kv for kv in sorted(fz.rejected.items()))))
    fz.diag('exempt from the extack rule: %s' % (', '.join(
        '%s/%s %d' % (k[0], k[1], v) for k, v in
        sorted(fz.exempted.items())) or 'none'))
    fz.diag('outcomes: %s' % dict(fz.outcomes))
    fz.diag('frames: %d (%s)' % (sum(fz.frames.values()), ', '.join(
        '%s %d' % kv for kv in sorted(fz.frames.items()))))
    fz.result(total >= c, '%d netlink messages and %d frames in %.1f s '
              '(seed %d)' % (total, sum(fz.frames.values()), now() - t0,
                             args.seed))
    return 1 if any(not ok for ok, _, _ in fz.results) else 0


if __name__ == '__main__':
    sys.exit(main())
