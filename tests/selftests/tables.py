#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Routing table transactions of the "wormcast" generic netlink family,
run inside the VM by 45-tables.sh (as root, wormcast.ko loaded).  Python 3
standard library only; the netlink plumbing is in wcnl.py.

  tables.py                 the checks below, on a fabric of its own
  tables.py --unpriv NAME   as a user without CAP_NET_ADMIN: writes to the
                            fabric of device NAME are refused, reads are not
  tables.py repush NAME N [KIND]
                            commit fabric NAME's own table of KIND (trees,
                            labels or plans; trees if none) again N times
                            (46-schemes.sh under traffic, 51-plans.sh
                            under readers)
  tables.py labels          LABELS tables on a 4x4 mesh of its own
                            (47-labels.sh): every kind of bad labeling
                            refused with its extack text and no change,
                            the snake committed and read back
  tables.py bcast           BCAST tables on a 4x4 torus running dcf
                            (58-broadcast.sh): every kind of bad
                            schedule refused with its extack text and no
                            change, dcf refused on a mesh, a good one
                            committed and read back
  tables.py plans           PLANS tables on a 4x4 mesh running ocms
                            (51-plans.sh): refused before a labels table,
                            every kind of bad plan refused with its
                            extack text and no change, a good one
                            committed and read back

Checks: a fabric created with "multicast dstm-1"; TABLE_NEW/CHUNK/COMMIT/ABORT state machine and
its refusals (each with its extack text); tables that are not valid are
refused and change nothing; a valid two-tree table (two edge-disjoint
spanning trees of the 4x4 torus, built and checked here) is committed,
announced on "events", read back byte for byte by the TABLE_GET dump and
listed by FABRIC_GET; a table computed against an old generation gets
EAGAIN.

Output: "ok - ...", "not ok - ..." and "# ..." lines
(45-tables.sh numbers them as TAP).
"""
import errno
import os
import random
import socket
import struct
import sys

import wcnl
from wcnl import (NLM_F_CREATE, NLM_F_EXCL, NLM_F_DUMP_INTR, RTM_NEWLINK,
                  RTM_DELLINK, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                  CTRL_ATTR_MCAST_GROUPS, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                  CTRL_ATTR_FAMILY_NAME, nla, nla_u32, nla_str, nla_nest,
                  get_u32, get_str, attr_dict, parse_attrs, ifinfomsg)

U = wcnl.uapi()
A = U.prefixed('WORMCAST_A_')
P = U.prefixed('WORMCAST_PARAM_')
CMD = U.prefixed('WORMCAST_CMD_')
MC = U.prefixed('WORMCAST_MCAST_')
TREES = U.WORMCAST_TABLE_TREES
LABELS = U.WORMCAST_TABLE_LABELS
PLANS = U.WORMCAST_TABLE_PLANS
BCAST = U.WORMCAST_TABLE_BCAST
NO_PORT = 0xff
CHUNK_MAX = 65024               # WORMCAST_TABLE_CHUNK_MAX
MAX_BYTES = 4 << 20             # WORMCAST_TABLE_MAX_BYTES
FABRIC = 'wct'
DIMS = (4, 4)

failed = 0


def ok(cond, name, *diag):
    global failed
    if not cond:
        failed += 1
    print(('ok' if cond else 'not ok') + ' - ' + name)
    for d in diag:
        if not cond:
            print('# ' + str(d))


def note(text):
    print('# ' + text)


def refused(ack, err, text, name):
    """@ack is the errno @err with an extack message containing @text."""
    ok(ack.err == -err and text in ack.extack, name,
       'got: %s' % ack.strerror(),
       'expected: %s with "%s"' % (errno.errorcode[err], text))

# ---------------------------------------------------------------- topology


def torus_neighbor(node, port, dims=DIMS):
    """Node reached through @port (2d: +d, 2d+1: -d), dimension 0 fastest
    (kmod/engine/topology.h)."""
    d, neg = divmod(port, 2)
    stride = 1
    for i in range(d):
        stride *= dims[i]
    c = (node // stride) % dims[d]
    nc = (c + (dims[d] - 1 if neg else 1)) % dims[d]
    return node + (nc - c) * stride


def torus_edges(dims=DIMS):
    """{frozenset(a, b): (a, port at a)} for every link."""
    n = dims[0] * dims[1]
    edges = {}
    for a in range(n):
        for port in range(2 * len(dims)):
            b = torus_neighbor(a, port, dims)
            edges.setdefault(frozenset((a, b)), (a, port))
    return edges


def port_to(a, b, dims=DIMS):
    for port in range(2 * len(dims)):
        if torus_neighbor(a, port, dims) == b:
            return port
    raise ValueError('%d and %d are not neighbours' % (a, b))


def spanning_tree(n, edges, rng):
    """A random spanning tree (Kruskal on shuffled @edges), or None."""
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    order = list(edges)
    rng.shuffle(order)
    tree = []
    for e in order:
        a, b = tuple(e)
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            tree.append(e)
    return tree if len(tree) == n - 1 else None


def parent_ports(n, tree, root):
    """Port through which every node reaches its parent toward @root."""
    adj = {v: [] for v in range(n)}
    for e in tree:
        a, b = tuple(e)
        adj[a].append(b)
        adj[b].append(a)
    ports = [NO_PORT] * n
    seen = {root}
    stack = [root]
    while stack:
        v = stack.pop()
        for w in adj[v]:
            if w not in seen:
                seen.add(w)
                ports[w] = port_to(w, v)
                stack.append(w)
    assert len(seen) == n
    return ports


def two_trees(dims=DIMS):
    """Two edge-disjoint spanning trees of the torus, as parent ports."""
    n = dims[0] * dims[1]
    edges = set(torus_edges(dims))
    rng = random.Random(1)
    for _ in range(10000):
        t1 = spanning_tree(n, edges, rng)
        t2 = spanning_tree(n, edges - set(t1), rng)
        if t2:
            assert not set(t1) & set(t2) and len(t1) == len(t2) == n - 1
            return parent_ports(n, t1, 0), parent_ports(n, t2, n - 1)
    raise RuntimeError('no two edge-disjoint spanning trees found')


def trees_blob(scheme, nnodes, trees, roots, nfaults=0, ntrees=None,
               faults=()):
    """struct wormcast_trees, then struct wormcast_trees_fault (node, port)
    per entry of faults."""
    roots = list(roots) + [0] * (2 - len(roots))
    hdr = struct.pack('=6I', scheme, nnodes,
                      len(trees) if ntrees is None else ntrees,
                      roots[0], roots[1], nfaults)
    return hdr + b''.join(bytes(t) for t in trees) + \
        b''.join(struct.pack('=2I', n, p) for n, p in faults)

# ---------------------------------------------------------------- netlink


class Family:
    def __init__(self, fabric=FABRIC):
        self.sock = wcnl.NlSock(wcnl.NETLINK_GENERIC)
        self.g = wcnl.Genl(self.sock, b'wormcast\0')
        self.fab = nla_str(A['fabric_name'], fabric)

    def req(self, cmd, *attrs, fab=True):
        return self.g.request(CMD[cmd], (self.fab if fab else b'') +
                              b''.join(attrs))

    def dump(self, cmd, *attrs):
        return self.g.dump(CMD[cmd], self.fab + b''.join(attrs))

    def reply(self, ack):
        return attr_dict(ack.msgs[0].data, 4) if ack.msgs else {}

    def new(self, size, gen, kind=TREES):
        ack = self.req('table_new', nla_u32(A['table_kind'], kind),
                       nla_u32(A['table_size'], size),
                       nla_u32(A['table_gen'], gen))
        a = self.reply(ack)
        return ack, get_u32(a[A['table_txn']]) if A['table_txn'] in a \
            else None

    def chunk(self, txn, off, data):
        return self.req('table_chunk', nla_u32(A['table_txn'], txn),
                        nla_u32(A['table_offset'], off),
                        nla(A['table_data'], data))

    def commit(self, txn):
        ack = self.req('table_commit', nla_u32(A['table_txn'], txn))
        a = self.reply(ack)
        return ack, get_u32(a[A['table_gen']]) if A['table_gen'] in a \
            else None

    def abort(self, txn):
        return self.req('table_abort', nla_u32(A['table_txn'], txn))

    def push(self, blob, gen, step=CHUNK_MAX, kind=TREES):
        """A whole transaction; the COMMIT's Ack and new generation."""
        ack, txn = self.new(len(blob), gen, kind)
        if ack.err:
            return ack, None
        for off in range(0, len(blob), step):
            ack = self.chunk(txn, off, blob[off:off + step])
            if ack.err:
                return ack, None
        return self.commit(txn)

    def fabric(self):
        ack = self.req('fabric_get')
        return self.reply(ack)

    def gen(self):
        a = self.fabric()
        return get_u32(a[A['table_gen']]) if A['table_gen'] in a else None

    def table_info(self, kind=TREES):
        ack = self.req('table_get', nla_u32(A['table_kind'], kind))
        a = self.reply(ack)
        return ack, {k: get_u32(a[A['table_' + k]])
                     for k in ('kind', 'gen', 'size')
                     if A['table_' + k] in a}

    def table_bytes(self, kind=TREES):
        """The TABLE_GET dump, reassembled: (Ack, bytes, messages)."""
        ack = self.dump('table_get', nla_u32(A['table_kind'], kind))
        data = b''
        for m in ack.msgs:
            a = attr_dict(m.data, 4)
            if get_u32(a[A['table_offset']]) != len(data):
                return ack, None, len(ack.msgs)
            data += a[A['table_data']]
        return ack, data, len(ack.msgs)

    def set_mcast(self, scheme):
        return self.req('fabric_set', nla_nest(
            A['params'], nla_u32(P['multicast'], scheme)))


def events_sock():
    """A socket in the family's "events" group."""
    s = wcnl.NlSock(wcnl.NETLINK_GENERIC, timeout=5.0)
    ack = s.request(GENL_ID_CTRL, 0, wcnl.genl_body(
        CTRL_CMD_GETFAMILY, nla_str(CTRL_ATTR_FAMILY_NAME, b'wormcast\0')))
    a = attr_dict(ack.msgs[0].data, 4)
    for _, grp in parse_attrs(a[CTRL_ATTR_MCAST_GROUPS]):
        g = attr_dict(grp)
        if get_str(g[1]) == 'events':           # CTRL_ATTR_MCAST_GRP_NAME
            s.sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                              get_u32(g[2]))    # CTRL_ATTR_MCAST_GRP_ID
    return s


def table_events(s, family_id):
    """(kind, gen) of every TABLE_COMMIT notification received so far."""
    out = []
    s.sock.settimeout(1.0)
    try:
        while True:
            for m in s.recv_msgs():
                if m.type != family_id or m.data[0] != CMD['table_commit']:
                    continue
                a = attr_dict(m.data, 4)
                out.append((get_u32(a[A['table_kind']]),
                            get_u32(a[A['table_gen']]),
                            get_str(a.get(A['fabric_name'], b''))))
    except socket.timeout:
        pass
    return out


def newlink(rt, **data):
    return rt.request(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
                      wcnl.newlink_body(FABRIC, wcnl.wc_info_data(**data)))


def dellink(rt):
    rt.request(RTM_DELLINK, 0, ifinfomsg() + nla_str(wcnl.IFLA_IFNAME,
                                                      FABRIC))

# ---------------------------------------------------------------- checks


def main():
    rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
    dellink(rt)
    torus = U.WORMCAST_TOPO_TORUS
    n = DIMS[0] * DIMS[1]

    ack = newlink(rt, topology=torus, dims=DIMS, multicast=len(MC))
    ok(ack.err == -errno.ERANGE or ack.err == -errno.EINVAL,
       'ip link add with an unknown multicast scheme is refused',
       ack.strerror())
    ok(bool(ack.extack), 'and says why', ack.strerror())

    ack = newlink(rt, topology=torus, dims=DIMS, multicast=MC['dstm1'])
    ok(not ack.err, 'torus 4x4 created with multicast dstm-1', ack.strerror())
    fam = Family()
    ev = events_sock()

    a = fam.fabric()
    params = attr_dict(a.get(A['params'], b''))
    ok(get_u32(params.get(P['multicast'], b'\xff' * 4)) == MC['dstm1'],
       'FABRIC_GET reports the multicast scheme')
    ok(fam.gen() == 0, 'a new fabric is at generation 0', fam.gen())
    ok(list(parse_attrs(a.get(A['tables'], b''))) == [],
       'and has no table')
    ack, _ = fam.table_info()
    refused(ack, errno.ENOENT, 'no table of this kind',
            'TABLE_GET of a table never committed: ENOENT')
    ack, _, _ = fam.table_bytes()
    refused(ack, errno.ENOENT, 'no table of this kind',
            'TABLE_GET dump of a table never committed: ENOENT, and says why')
    ack = fam.g.dump(CMD['table_get'], nla_u32(A['fabric_ifindex'], 0) +
                     nla_u32(A['table_kind'], TREES))
    refused(ack, errno.ENODEV, 'no such device',
            'TABLE_GET dump of no device: ENODEV, and says why (the fuzzer '
            'found it silent: on 6.1 a start callback has no extack)')

    # FABRIC_SET multicast
    ack = fam.set_mcast(99)
    ok(ack.err == -errno.ERANGE and ack.extack,
       'FABRIC_SET multicast 99 is refused by the policy', ack.strerror())
    ack = fam.set_mcast(MC['unicast'])
    ok(not ack.err, 'FABRIC_SET multicast unicast', ack.strerror())
    ack = fam.set_mcast(MC['dstm1'])
    ok(not ack.err, 'FABRIC_SET multicast dstm-1', ack.strerror())
    ack = fam.set_mcast(MC['spam'])
    ok(not ack.err, 'FABRIC_SET multicast spam', ack.strerror())
    ack = fam.set_mcast(MC['dstm1'])
    ok(not ack.err, 'FABRIC_SET back to dstm-1', ack.strerror())

    # the transaction's state machine
    ack, _ = fam.new(100, 5)
    refused(ack, errno.EAGAIN, 'old generation',
            'TABLE_NEW against a generation that is not the fabric\'s')
    ack = fam.req('table_new', nla_u32(A['table_kind'], TREES))
    refused(ack, errno.EINVAL, 'needs TABLE_KIND, TABLE_SIZE and TABLE_GEN',
            'TABLE_NEW without SIZE and GEN')
    ack, _ = fam.new(0, 0)
    ok(ack.err == -errno.ERANGE and ack.extack,
       'TABLE_NEW of size 0 is refused by the policy', ack.strerror())
    ack, _ = fam.new(MAX_BYTES + 1, 0)
    ok(ack.err == -errno.ERANGE and ack.extack,
       'TABLE_NEW over WORMCAST_TABLE_MAX_BYTES is refused', ack.strerror())
    ack, _ = fam.new(100, 0, kind=U['__WORMCAST_TABLE_MAX'])
    ok(ack.err == -errno.ERANGE and ack.extack,
       'TABLE_NEW of an unknown kind is refused', ack.strerror())

    ack, txn = fam.new(100, 0)
    ok(not ack.err and txn, 'TABLE_NEW replies with a TXN', ack.strerror())
    refused(fam.chunk(txn, 10, b'x' * 10), errno.EINVAL, 'out of order',
            'a chunk at the wrong offset is refused')
    ok(not fam.chunk(txn, 0, b'x' * 60).err, 'a first chunk is taken')
    refused(fam.chunk(txn, 60, b'x' * 41), errno.EINVAL, 'overruns',
            'a chunk beyond the announced size is refused')
    ack = fam.chunk(txn, 60, b'x' * (CHUNK_MAX + 1))
    ok(ack.err == -errno.ERANGE and ack.extack,
       'a DATA larger than WORMCAST_TABLE_CHUNK_MAX is refused',
       ack.strerror())
    ack, gen = fam.commit(txn)
    refused(ack, errno.EINVAL, 'incomplete',
            'COMMIT of an incomplete table is refused')
    refused(fam.chunk(txn, 60, b'x'), errno.ENOENT, 'no table transaction',
            'a refused COMMIT ends the transaction')
    ack, txn = fam.new(8, 0)
    ack, txn2 = fam.new(8, 0)
    ok(txn2 and txn2 != txn, 'a second TABLE_NEW gets another TXN')
    refused(fam.chunk(txn, 0, b'x' * 8), errno.ENOENT,
            'not the open table transaction',
            'the replaced transaction\'s TXN fails')
    ok(not fam.abort(txn2).err, 'TABLE_ABORT')
    refused(fam.chunk(txn2, 0, b'x' * 8), errno.ENOENT,
            'no table transaction', 'a chunk after TABLE_ABORT fails')
    refused(fam.abort(txn2), errno.ENOENT, 'no table transaction',
            'a second TABLE_ABORT fails')

    # tables that are not valid
    t1, t2 = two_trees()
    good = trees_blob(MC['dstm1'], n, [t1, t2], [0, n - 1])
    bad = {
        'size mismatch': good[:-1],
        'wrong nnodes': trees_blob(MC['dstm1'], n + 1, [t1, t2],
                                   [0, n - 1])[:len(good)],
        'wrong ntrees for the scheme': trees_blob(MC['spam'], n, [t1, t2],
                                                  [0, n - 1]),
        'bad scheme': trees_blob(17, n, [t1, t2], [0, n - 1]),
        'a faulty link counted, not there': trees_blob(MC['dstm1'], n,
                                                      [t1, t2], [0, n - 1],
                                                      nfaults=1),
        'a faulty link that is no link': trees_blob(MC['dstm1'], n, [t1, t2],
                                                    [0, n - 1], nfaults=1,
                                                    faults=[(0, 9)]),
        'a spam tree link listed faulty': trees_blob(MC['spam'], n, [t1], [0],
                                                     nfaults=1,
                                                     faults=[(1, t1[1])]),
        'trees that share links': trees_blob(MC['dstm1'], n, [t1, t1],
                                             [0, 0]),
        'a port to nowhere': trees_blob(MC['dstm1'], n,
                                        [t1, bytes([9]) + bytes(t2[1:])],
                                        [0, n - 1]),
    }
    for what, blob in bad.items():
        ack, gen = fam.push(blob, 0)
        ok(ack.err == -errno.EINVAL and ack.extack and fam.gen() == 0,
           'a table with %s is refused, generation unchanged' % what,
           ack.strerror())
        note('%s: %s' % (what, ack.extack))
    ok(fam.table_info()[0].err == -errno.ENOENT,
       'no table is published after the refusals')

    # a valid table
    ack, gen = fam.push(good, 0, step=100)
    ok(not ack.err and gen == 1, 'a valid DSTM-1 table is committed as '
       'generation 1', ack.strerror(), gen)
    ok(fam.gen() == 1, 'FABRIC_GET: generation 1')
    a = fam.fabric()
    tables = [attr_dict(p) for _, p in parse_attrs(a.get(A['tables'], b''))]
    ok(len(tables) == 1 and
       get_u32(tables[0][A['table_kind']]) == TREES and
       get_u32(tables[0][A['table_gen']]) == 1 and
       get_u32(tables[0][A['table_size']]) == len(good),
       'FABRIC_GET lists the table (kind, gen, size)', tables)
    ack, info = fam.table_info()
    ok(info == {'kind': TREES, 'gen': 1, 'size': len(good)},
       'TABLE_GET doit: kind, gen, size', info)
    ack, data, nmsgs = fam.table_bytes()
    ok(not ack.err and data == good,
       'TABLE_GET dump returns the bytes committed (%d in %d messages)' %
       (len(good), nmsgs), ack.strerror())
    evs = table_events(ev, fam.g.id)
    ok((TREES, 1, FABRIC) in evs, 'TABLE_COMMIT notified on "events"', evs)

    ack, gen = fam.push(good, 0)
    refused(ack, errno.EAGAIN, 'old generation',
            'a table computed against generation 0 gets EAGAIN')
    ack, txn = fam.new(len(good), 1)
    fam.chunk(txn, 0, good)
    ack = fam.req('table_new', nla_u32(A['table_kind'], TREES),
                  nla_u32(A['table_size'], len(good)),
                  nla_u32(A['table_gen'], 1))
    ok(not ack.err, 'a TABLE_NEW at generation 1')
    ack, gen = fam.push(good, 1)
    ok(not ack.err and gen == 2, 'recommitted as generation 2',
       ack.strerror())
    ack, data, _ = fam.table_bytes()
    ok(data == good, 'read back after the second commit')
    dellink(rt)


def unpriv(name):
    """Run as a user without CAP_NET_ADMIN."""
    fam = Family(name)
    ack, _ = fam.new(100, fam.gen() or 0)
    ok(ack.err == -errno.EPERM, 'TABLE_NEW without CAP_NET_ADMIN: EPERM',
       ack.strerror())
    ack = fam.req('table_commit', nla_u32(A['table_txn'], 1))
    ok(ack.err == -errno.EPERM, 'TABLE_COMMIT without CAP_NET_ADMIN: EPERM',
       ack.strerror())
    ack = fam.set_mcast(0)
    ok(ack.err == -errno.EPERM, 'FABRIC_SET without CAP_NET_ADMIN: EPERM',
       ack.strerror())
    ack, _ = fam.table_info()
    ok(ack.err in (0, -errno.ENOENT), 'TABLE_GET is allowed',
       ack.strerror())
    ok(fam.gen() is not None, 'FABRIC_GET shows the generation')


def labels_blob(scheme, labels, nnodes=None, reserved=(0, 0), faults=()):
    """struct wormcast_labels, then struct wormcast_trees_fault (node, port)
    per entry of faults; nfaults (the third word) is len(faults) +
    reserved[0], the reserved word reserved[1]."""
    n = len(labels) if nnodes is None else nnodes
    return struct.pack('=4I', scheme, n, reserved[0] + len(faults), reserved[1]) + \
        struct.pack('=%dI' % len(labels), *labels) + \
        b''.join(struct.pack('=2I', a, p) for a, p in faults)


def snake(dims):
    """The path-based paper's snake, label of node x + y * dims[0]."""
    n = dims[0]
    return [y * n + (x if y % 2 == 0 else n - x - 1)
            for y in range(dims[1]) for x in range(n)]


def labels_checks():
    """LABELS tables on a 4x4 mesh running dual-path."""
    rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
    dellink(rt)
    ack = newlink(rt, topology=U.WORMCAST_TOPO_MESH, dims=DIMS,
                  multicast=MC['dual_path'])
    ok(not ack.err, 'a 4x4 mesh with multicast dual-path', ack.strerror())
    if ack.err:
        return
    fam = Family()
    good = snake(DIMS)
    gen = fam.gen()
    swapped = list(good)
    swapped[0], swapped[5] = swapped[5], swapped[0]  # labels 0, 1 not neighbours
    dup = list(good)
    dup[3] = dup[4]
    big = list(good)
    big[big.index(15)] = 16
    bad = [
        ('one label short', labels_blob(MC['dual_path'], good[:-1], nnodes=16)),
        ('a label too many', labels_blob(MC['dual_path'], good + [16], nnodes=16)),
        ('nnodes of another fabric', labels_blob(MC['dual_path'], good + [16, 17, 18, 19], nnodes=20)),
        ('reserved not zero', labels_blob(MC['dual_path'], good, reserved=(0, 1))),
        ('a label used twice', labels_blob(MC['dual_path'], dup)),
        ('a label out of range', labels_blob(MC['dual_path'], big)),
        ('consecutive labels not neighbours', labels_blob(MC['dual_path'], swapped)),
        ('a tree scheme in a labels table', labels_blob(MC['dstm1'], good)),
        ('unicast in a labels table', labels_blob(MC['unicast'], good)),
        ('star-tree on a lock-step fabric', labels_blob(MC['star_tree'], good)),
        # the snake's first hop, 0-1 (port 0 of node 0 is +x)
        ('a faulty link on the Hamiltonian path', labels_blob(MC['dual_path'], good, faults=[(0, 0)])),
        ('a faulty link to no neighbour', labels_blob(MC['dual_path'], good, faults=[(0, 1)])),
        ('a faulty link out of range', labels_blob(MC['dual_path'], good, faults=[(16, 0)])),
        ('a faulty link listed twice', labels_blob(MC['dual_path'], good, faults=[(1, 2), (5, 3)])),
        ('nfaults without its links', labels_blob(MC['dual_path'], good, reserved=(1, 0))),
    ]
    for name, blob in bad:
        ack, g = fam.push(blob, gen, kind=LABELS)
        ok(ack.err == -errno.EINVAL and ack.extack and fam.gen() == gen,
           'refused, generation unchanged: %s (%s)' % (name, ack.extack),
           ack.strerror())
    ack, _ = fam.table_info(LABELS)
    ok(ack.err == -errno.ENOENT, 'no LABELS table after the refusals', ack.strerror())
    ack, g = fam.push(labels_blob(MC['dual_path'], good), gen, kind=LABELS)
    ok(not ack.err and g == gen + 1, 'the snake committed as generation %d' % (gen + 1),
       ack.strerror())
    ack, info = fam.table_info(LABELS)
    ok(not ack.err and info == {'kind': LABELS, 'gen': gen + 1, 'size': 16 + 4 * 16},
       'TABLE_GET: kind labels, its generation, 80 bytes', info)
    ack, data, _ = fam.table_bytes(LABELS)
    ok(data == labels_blob(MC['dual_path'], good), 'read back byte for byte')
    ack, g = fam.push(labels_blob(MC['dual_path'], swapped), gen + 1, kind=LABELS)
    _, data2, _ = fam.table_bytes(LABELS)
    ok(ack.err and data2 == data, 'a bad labeling after a good one changes nothing')
    # link 1-5 ((1, 0) - (1, 1), +y) is off the snake: accepted as faulty
    off = labels_blob(MC['dual_path'], good, faults=[(1, 2)])
    ack, g = fam.push(off, gen + 1, kind=LABELS)
    _, data3, _ = fam.table_bytes(LABELS)
    ok(not ack.err and g == gen + 2 and data3 == off,
       'a faulty link off the path committed (%d bytes) and read back' % len(off),
       ack.strerror())
    dellink(rt)


def plans_blob(plans, nnodes=16, nplans=None, reserved=(0, 0)):
    """struct wormcast_plans: @plans is [(addr, src, [[node, ..], ..])],
    or (addr, src, nworms, words, reserved) for hand-made ones."""
    body = b''
    for p in plans:
        if len(p) == 3:
            addr, src, worms = p
            words = [w for worm in worms for w in [len(worm)] + worm]
            p = (addr, src, len(worms), words, 0)
        addr, src, nworms, words, res = p
        body += struct.pack('=6sHIII', addr, res, src, nworms, len(words)) + \
            struct.pack('=%dI' % len(words), *words)
    n = len(plans) if nplans is None else nplans
    return struct.pack('=4I', nnodes, n, *reserved) + body


def plans_checks():
    """PLANS tables on a 4x4 mesh running ocms."""
    rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
    dellink(rt)
    ack = newlink(rt, topology=U.WORMCAST_TOPO_MESH, dims=DIMS,
                  multicast=MC['ocms'])
    ok(not ack.err, 'a 4x4 mesh with multicast ocms', ack.strerror())
    if ack.err:
        return
    fam = Family()
    grp = bytes([0x01, 0x00, 0x5e, 0x01, 0x02, 0x03])
    # from node 0 (label 0): nodes 1, 2 (labels 1, 2) through node 1, node
    # 15 (label 12) through node 4 (label 7)
    good = plans_blob([(grp, 0, [[1, 2], [15]])])
    gen = fam.gen()
    ack, g = fam.push(good, gen, kind=PLANS)
    ok(ack.err == -errno.EINVAL and 'labels table' in (ack.extack or ''),
       'plans before a labels table refused (%s)' % ack.extack, ack.strerror())
    ack, gen = fam.push(labels_blob(MC['ocms'], snake(DIMS)), gen, kind=LABELS)
    ok(not ack.err, 'the ocms labels table committed', ack.strerror())
    bad = [
        ('nnodes of another fabric', plans_blob([(grp, 0, [[1, 2], [15]])], nnodes=20),
         'node count'),
        ('plans scheme 1 on an ocms fabric', plans_blob([(grp, 0, [[1, 2], [15]])], reserved=(1, 0)),
         'scheme other than 0'),
        ('reserved header word', plans_blob([(grp, 0, [[1, 2], [15]])], reserved=(0, 1)),
         'reserved'),
        ('a unicast group address', plans_blob([(bytes([2, 0x77, 0, 1, 0, 3]), 0, [[1]])]),
         'multicast MAC'),
        ('a source out of range', plans_blob([(grp, 16, [[1]])]), 'source'),
        ('a destination out of range', plans_blob([(grp, 0, [[1, 16]])]), 'not a node'),
        ('the source as a destination', plans_blob([(grp, 1, [[1]])]), 'own source'),
        ('a destination twice', plans_blob([(grp, 0, [[1, 2], [2]])]), 'twice'),
        ('labels not monotone', plans_blob([(grp, 0, [[2, 1]])]), 'label-monotone'),
        ('two worms through one port', plans_blob([(grp, 0, [[1], [2]])]), 'same port'),
        ('an empty worm', plans_blob([(grp, 0, 2, [0, 1, 1], 0)]), 'empty worm'),
        ('more worms than ports', plans_blob([(grp, 0, 5, [1, 1, 1, 2, 1, 3, 1, 5, 1, 6], 0)]),
         'more worms'),
        ('the same (source, group) twice', plans_blob([(grp, 0, [[1]]), (grp, 0, [[1]])]),
         'order'),
        ('a plan missing', plans_blob([(grp, 0, [[1]])], nplans=2), 'shorter than its plans'),
    ]
    for name, blob, text in bad:
        ack, g = fam.push(blob, gen, kind=PLANS)
        ok(ack.err == -errno.EINVAL and text in (ack.extack or '') and fam.gen() == gen,
           'refused, generation unchanged: %s (%s)' % (name, ack.extack),
           ack.strerror())
    ack, _ = fam.table_info(PLANS)
    ok(ack.err == -errno.ENOENT, 'no PLANS table after the refusals', ack.strerror())
    ack, g = fam.push(good, gen, kind=PLANS)
    ok(not ack.err and g == gen + 1, 'a good plan committed as generation %d' % (gen + 1),
       ack.strerror())
    ack, data, _ = fam.table_bytes(PLANS)
    ok(data == good, 'read back byte for byte')
    pinned_dump(fam, g)
    dellink(rt)


def pinned_dump(fam, gen):
    """A TABLE_GET dump holds the table committed when it started: a
    commit between its parts changes nothing in what it returns."""
    big = plans_blob([(bytes([1, 0, 0x5e, 0, i >> 8, i & 0xff]), 0, [[1, 2], [15]])
                      for i in range(4000)])
    ack, g = fam.push(big, gen, kind=PLANS)
    ok(not ack.err and g == gen + 1, 'a plans table of %d bytes committed' % len(big),
       ack.strerror())
    reader = Family()
    first = reader.g.dump(CMD['table_get'], reader.fab + nla_u32(A['table_kind'], PLANS),
                          max_msgs=1)
    ack, g2 = fam.push(plans_blob([(bytes([1, 0, 0x5e, 1, 2, 3]), 0, [[1]])]), g, kind=PLANS)
    ok(not ack.err and g2 == g + 1,
       'another plans table committed while the dump is open (generation %s)' % g2,
       ack.strerror())
    rest = reader.sock.wait(reader.sock.seq)
    msgs = first.msgs + rest.msgs
    data, gens, bad = b'', set(), 0
    for m in msgs:
        a = attr_dict(m.data, 4)
        gens.add(get_u32(a[A['table_gen']]))
        if get_u32(a[A['table_offset']]) != len(data):
            bad += 1
        data += a[A['table_data']]
    ok(rest.done and not rest.err and not first.intr and not rest.intr and
       len(msgs) > 1 and gens == {g} and not bad and data == big,
       'the dump returns the table it started on, whole, in %d messages of generation %s '
       '(no NLM_F_DUMP_INTR)' % (len(msgs), sorted(gens)),
       rest.strerror(), len(data), bad)


# Four doublings from (0, 0) of the 4x4 torus: (step, from, to), offsets
# x + 4 y (the KUnit suite's good schedule).
DOUBLINGS = [(1, 0, 8), (2, 0, 2), (2, 8, 10), (3, 0, 1), (3, 2, 3), (3, 8, 9),
             (3, 10, 11), (4, 0, 4), (4, 1, 5), (4, 2, 6), (4, 3, 7),
             (4, 8, 12), (4, 9, 13), (4, 10, 14), (4, 11, 15)]


def bcast_blob(scheme, sends, nnodes=16, nsends=None, reserved=0):
    """struct wormcast_bcast and its sends."""
    n = len(sends) if nsends is None else nsends
    return struct.pack('=4I', scheme, nnodes, n, reserved) + \
        b''.join(struct.pack('=3I', *x) for x in sends)


def bcast_checks():
    """BCAST tables on a 4x4 torus running dcf."""
    rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
    dellink(rt)
    ack = newlink(rt, topology=U.WORMCAST_TOPO_MESH, dims=DIMS,
                  multicast=MC['dcf'])
    ok(ack.err == -errno.EINVAL and 'torus' in (ack.extack or ''),
       'multicast dcf refused on a 4x4 mesh (%s)' % ack.extack, ack.strerror())
    dellink(rt)
    ack = newlink(rt, topology=U.WORMCAST_TOPO_TORUS, dims=DIMS,
                  multicast=MC['dcf'])
    ok(not ack.err, 'a 4x4 torus with multicast dcf', ack.strerror())
    if ack.err:
        return
    fam = Family()
    dcf = MC['dcf']
    good = bcast_blob(dcf, DOUBLINGS)
    gen = fam.gen()

    def with_send(i, x):
        return bcast_blob(dcf, DOUBLINGS[:i] + [x] + DOUBLINGS[i + 1:])

    bad = [
        ('a header cut short', good[:8], 'shorter than its header'),
        ('scheme multiphase', bcast_blob(MC['multiphase'], DOUBLINGS),
         'scheme must be dcf or edn'),
        ('nnodes of another fabric', bcast_blob(dcf, DOUBLINGS, nnodes=17),
         "nnodes is not the fabric's"),
        ('reserved not zero', bcast_blob(dcf, DOUBLINGS, reserved=1), 'reserved'),
        ('a unicast missing', bcast_blob(dcf, DOUBLINGS[:-1]), 'nnodes - 1 unicasts'),
        ('a word too many', good + bytes(4), 'size is not its header'),
        ('step 0', with_send(14, (0, 11, 15)), 'step is not in'),
        ('step 65', with_send(14, (65, 11, 15)), 'step is not in'),
        ('a receiver out of range', with_send(14, (4, 11, 16)), 'offset is not a node'),
        ('a sender out of range', with_send(14, (4, 16, 15)), 'offset is not a node'),
        ('back to the source', with_send(14, (4, 11, 0)), 'back to the source'),
        ('a node received twice', with_send(14, (4, 11, 14)), 'twice'),
        ('a sender sending in the step it receives', with_send(4, (2, 2, 3)),
         'before it received'),
        ("a sender's unicasts out of step order",
         bcast_blob(dcf, [DOUBLINGS[1], DOUBLINGS[0]] + DOUBLINGS[2:]),
         'not in step order'),
    ]
    for name, blob, text in bad:
        ack, g = fam.push(blob, gen, kind=BCAST)
        ok(ack.err == -errno.EINVAL and text in (ack.extack or '') and fam.gen() == gen,
           'refused, generation unchanged: %s (%s)' % (name, ack.extack),
           ack.strerror(), 'expected "%s"' % text)
    ack, _ = fam.table_info(BCAST)
    ok(ack.err == -errno.ENOENT, 'no BCAST table after the refusals', ack.strerror())
    ack, g = fam.push(good, gen, kind=BCAST)
    ok(not ack.err and g == gen + 1, 'a good schedule committed as generation %d' % (gen + 1),
       ack.strerror())
    ack, info = fam.table_info(BCAST)
    ok(not ack.err and info == {'kind': BCAST, 'gen': gen + 1, 'size': 16 + 12 * 15},
       'TABLE_GET: kind bcast, its generation, 196 bytes', info)
    ack, data, _ = fam.table_bytes(BCAST)
    ok(data == good, 'read back byte for byte')
    ack, g = fam.push(with_send(14, (4, 11, 14)), gen + 1, kind=BCAST)
    _, data2, _ = fam.table_bytes(BCAST)
    ok(ack.err and data2 == data, 'a bad schedule after a good one changes nothing')
    dellink(rt)


def repush(fabric, count, kind=TREES):
    """Commit the fabric's own table of @kind again @count times (each
    against the generation just made); print the generations, exit 1 on a
    refusal."""
    fam = Family(fabric)
    ack, blob, _ = fam.table_bytes(kind)
    if ack.err or not blob:
        sys.exit('repush: no table to read back: %s' % ack.strerror())
    first = fam.gen()
    for _ in range(count):
        ack, gen = fam.push(blob, fam.gen(), kind=kind)
        if ack.err:
            sys.exit('repush: %s' % ack.strerror())
    print('repushed %d times: generation %d to %d' % (count, first, gen))


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == '--unpriv':
        unpriv(sys.argv[2])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == 'repush':
        repush(sys.argv[2], int(sys.argv[3]),
               {'trees': TREES, 'labels': LABELS, 'plans': PLANS,
                'bcast': BCAST}[
                   sys.argv[4] if len(sys.argv) == 5 else 'trees'])
    elif len(sys.argv) == 2 and sys.argv[1] == 'labels':
        labels_checks()
    elif len(sys.argv) == 2 and sys.argv[1] == 'plans':
        plans_checks()
    elif len(sys.argv) == 2 and sys.argv[1] == 'bcast':
        bcast_checks()
    else:
        main()
    sys.exit(1 if failed else 0)
