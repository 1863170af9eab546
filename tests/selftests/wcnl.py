# SPDX-License-Identifier: GPL-2.0
"""Netlink for the wormcast selftests, Python 3 standard library only:
raw AF_NETLINK sockets (rtnetlink and generic netlink) with extended acks,
attribute packing and parsing, the wormcast uapi numbers (read from
uapi/linux/wormcast.h itself, so they never drift), and network namespace
switching (setns through ctypes).  Used by rawlink.py and nlfuzz.py.
"""
import ctypes
import errno
import os
import re
import socket
import struct

# ---------------------------------------------------------------- constants

NETLINK_ROUTE, NETLINK_GENERIC = 0, 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_CAP_ACK, NETLINK_EXT_ACK = 10, 11

NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE = 1, 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 1, 2, 4
NLM_F_ROOT, NLM_F_MATCH = 0x100, 0x200
NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE = 0x100, 0x200, 0x400
NLM_F_DUMP_INTR = 0x10
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200   # in NLMSG_ERROR / DONE
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS = 1, 2
NLA_F_NESTED = 0x8000
NLA_TYPE_MASK = 0x3fff

RTM_NEWLINK, RTM_DELLINK, RTM_GETLINK, RTM_SETLINK = 16, 17, 18, 19
RTM_NEWADDR = 20
IFLA_ADDRESS, IFLA_BROADCAST, IFLA_IFNAME, IFLA_MTU = 1, 2, 3, 4
IFLA_LINK, IFLA_TXQLEN, IFLA_LINKINFO = 5, 13, 18
IFLA_NET_NS_PID, IFLA_IFALIAS, IFLA_GROUP, IFLA_NET_NS_FD = 19, 20, 27, 28
IFLA_LINK_NETNSID = 37
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
IFF_UP, IFF_BROADCAST, IFF_PROMISC, IFF_NOARP = 0x1, 0x2, 0x100, 0x80
IFF_ALLMULTI, IFF_MULTICAST = 0x200, 0x1000

GENL_ID_CTRL = 16
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
CTRL_ATTR_OPS, CTRL_ATTR_MCAST_GROUPS = 6, 7
CTRL_ATTR_OP_ID = 1

CLONE_NEWNET = 0x40000000

# ---------------------------------------------------------------- uapi


class Uapi:
    """Every enumerator and #define of uapi/linux/wormcast.h, by name
    (U.IFLA_WORMCAST_DIMS, U['WORMCAST_CMD_FABRIC_GET'])."""

    def __init__(self, path=None):
        if path is None:
            path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'uapi', 'linux', 'wormcast.h')
        with open(path) as f:
            text = f.read()
        text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        text = re.sub(r'//[^\n]*', '', text)
        self.values = {}
        self.enums = {}         # first enumerator's prefix -> [names]
        for body in re.findall(r'enum\s*\w*\s*\{(.*?)\}', text, flags=re.S):
            val = -1
            names = []
            for item in body.split(','):
                item = item.strip()
                if not item:
                    continue
                name, _, expr = item.partition('=')
                name = name.strip()
                val = self._eval(expr) if expr.strip() else val + 1
                self.values[name] = val
                names.append(name)
            if names:
                self.enums[names[0]] = names
        for name, expr in re.findall(r'#define[ \t]+(\w+)[ \t]+([^\n]+)', text):
            expr = expr.strip()
            if expr.startswith('"'):
                self.values[name] = expr.strip('"')
            else:
                try:
                    self.values[name] = self._eval(expr)
                except (ValueError, KeyError, SyntaxError):
                    pass

    def _eval(self, expr):
        expr = expr.strip()
        m = re.fullmatch(r'\(?\s*(\w+)\s*-\s*1\s*\)?', expr)
        if m and m.group(1) in self.values:
            return self.values[m.group(1)] - 1
        if re.fullmatch(r'\w+', expr) and expr in self.values:
            return self.values[expr]
        return int(expr, 0)

    def __getattr__(self, name):
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name):
        return self.values[name]

    def prefixed(self, prefix):
        """{name-without-prefix-lowercase: value} of every constant with
        @prefix, sentinels (__*, *_MAX, UNSPEC) left out."""
        out = {}
        for name, val in self.values.items():
            if name.startswith(prefix) and not name.endswith('_MAX') \
                    and not name.endswith('UNSPEC'):
                out[name[len(prefix):].lower()] = val
        return out


_uapi = None


def uapi():
    global _uapi
    if _uapi is None:
        _uapi = Uapi()
    return _uapi

# ---------------------------------------------------------------- attributes


def nla(atype, payload=b'', length=None):
    """One attribute, padded to 4 bytes; @length overrides nla_len (to
    build malformed attributes)."""
    n = 4 + len(payload) if length is None else length
    raw = struct.pack('=HH', n & 0xffff, atype & 0xffff) + payload
    return raw + b'\0' * (-len(raw) % 4)


def nla_u8(t, v):
    return nla(t, struct.pack('=B', v & 0xff))


def nla_u16(t, v):
    return nla(t, struct.pack('=H', v & 0xffff))


def nla_u32(t, v):
    return nla(t, struct.pack('=I', v & 0xffffffff))


def nla_s32(t, v):
    return nla(t, struct.pack('=i', v))


def nla_u64(t, v):
    return nla(t, struct.pack('=Q', v & 0xffffffffffffffff))


def nla_str(t, s):
    return nla(t, (s.encode() if isinstance(s, str) else s) + b'\0')


def nla_nest(t, *parts):
    return nla(t | NLA_F_NESTED, b''.join(parts))


def parse_attrs(buf, off=0, end=None):
    """[(type without flags, payload)] of the attributes in buf[off:end];
    stops at the first malformed one."""
    end = len(buf) if end is None else end
    out = []
    while off + 4 <= end:
        alen, atype = struct.unpack_from('=HH', buf, off)
        if alen < 4 or off + alen > end:
            break
        out.append((atype & NLA_TYPE_MASK, bytes(buf[off + 4:off + alen])))
        off += (alen + 3) & ~3
    return out


def attr_dict(buf, off=0, end=None):
    """{type: payload} (the last one wins, as in the kernel's nla_parse)."""
    return dict(parse_attrs(buf, off, end))


def get_u32(payload):
    return struct.unpack_from('=I', payload)[0]


def get_s32(payload):
    return struct.unpack_from('=i', payload)[0]


def get_u64(payload):
    return struct.unpack_from('=Q', payload)[0]


def get_str(payload):
    return payload.split(b'\0')[0].decode(errors='replace')

# ---------------------------------------------------------------- messages


class Msg:
    """One netlink message received: header fields and payload."""
    __slots__ = ('type', 'flags', 'seq', 'pid', 'data')

    def __init__(self, mtype, flags, seq, pid, data):
        self.type, self.flags, self.seq, self.pid, self.data = \
            mtype, flags, seq, pid, data


class Ack:
    """The outcome of a request: err (0 or a negative errno), extack (the
    NLMSGERR_ATTR_MSG text, '' if none), offs (NLMSGERR_ATTR_OFFS or
    None), msgs (data messages that came before), intr (a message carried
    NLM_F_DUMP_INTR), done (a dump ended with NLMSG_DONE)."""

    def __init__(self):
        self.err = 0
        self.extack = ''
        self.offs = None
        self.msgs = []
        self.intr = False
        self.done = False

    def __repr__(self):
        return 'Ack(err=%d%s, %d msgs)' % (
            self.err, ', extack=%r' % self.extack if self.extack else '',
            len(self.msgs))

    def strerror(self):
        if not self.err:
            return 'ok'
        return '%s (%s)%s' % (os.strerror(-self.err),
                              errno.errorcode.get(-self.err, str(-self.err)),
                              ': ' + self.extack if self.extack else
                              ' (no extack message)')


def _parse_tlvs(ack, buf, off, end):
    for atype, payload in parse_attrs(buf, off, end):
        if atype == NLMSGERR_ATTR_MSG:
            ack.extack = get_str(payload)
        elif atype == NLMSGERR_ATTR_OFFS and len(payload) >= 4:
            ack.offs = get_u32(payload)


class NlSock:
    """A raw netlink socket with NETLINK_EXT_ACK and NETLINK_CAP_ACK."""

    def __init__(self, proto, rcvbuf=None, timeout=30.0):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.bind((0, 0))
        self.sock.settimeout(timeout)
        self.seq = 1000
        self.pending = []

    def close(self):
        self.sock.close()

    def fileno(self):
        return self.sock.fileno()

    def send(self, mtype, flags, body, seq=None, length=None):
        """Send one message; returns its sequence number.  @length
        overrides nlmsg_len (malformed messages)."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        n = 16 + len(body) if length is None else length
        self.sock.send(struct.pack('=IHHII', n, mtype, flags, seq, 0) + body)
        return seq

    def recv_msgs(self, bufsize=65536):
        """The messages of one datagram."""
        buf = self.sock.recv(bufsize)
        out = []
        off = 0
        while off + 16 <= len(buf):
            n, mtype, flags, seq, pid = struct.unpack_from('=IHHII', buf, off)
            if n < 16 or off + n > len(buf):
                break
            out.append(Msg(mtype, flags, seq, pid, buf[off + 16:off + n]))
            off += (n + 3) & ~3
        return out

    def _next(self, bufsize):
        while not self.pending:
            self.pending = self.recv_msgs(bufsize)
        return self.pending.pop(0)

    def wait(self, seq, bufsize=65536, max_msgs=None):
        """Collect the answer to request @seq: data messages up to the ack
        (NLMSG_ERROR) or the end of a dump (NLMSG_DONE).  With @max_msgs,
        stop after that many data messages (an abandoned dump)."""
        ack = Ack()
        while True:
            m = self._next(bufsize)
            if m.seq != seq:
                continue        # a late answer to an earlier request
            if m.flags & NLM_F_DUMP_INTR:
                ack.intr = True
            if m.type == NLMSG_ERROR:
                ack.err = struct.unpack_from('=i', m.data)[0]
                if m.flags & NLM_F_CAPPED or len(m.data) < 20:
                    off = 20
                else:
                    off = 4 + struct.unpack_from('=I', m.data, 4)[0]
                if m.flags & NLM_F_ACK_TLVS:
                    _parse_tlvs(ack, m.data, (off + 3) & ~3, len(m.data))
                return ack
            if m.type == NLMSG_DONE:
                ack.done = True
                if len(m.data) >= 4:
                    ack.err = struct.unpack_from('=i', m.data)[0]
                if m.flags & NLM_F_ACK_TLVS:
                    _parse_tlvs(ack, m.data, 4, len(m.data))
                return ack
            ack.msgs.append(m)
            if max_msgs is not None and len(ack.msgs) >= max_msgs:
                return ack
            if not m.flags & NLM_F_MULTI and not ack.done:
                # a doit reply; the ack follows (NLM_F_ACK) or not
                pass

    def request(self, mtype, flags, body, bufsize=65536, **kw):
        """Send with NLM_F_REQUEST | NLM_F_ACK and return its Ack."""
        seq = self.send(mtype, NLM_F_REQUEST | NLM_F_ACK | flags, body, **kw)
        return self.wait(seq, bufsize)

    def dump(self, mtype, body, flags=0, bufsize=65536, max_msgs=None):
        seq = self.send(mtype, NLM_F_REQUEST | NLM_F_DUMP | flags, body)
        return self.wait(seq, bufsize, max_msgs)

# ---------------------------------------------------------------- rtnetlink


def ifinfomsg(index=0, flags=0, change=0, family=socket.AF_UNSPEC, itype=0):
    return struct.pack('=BxHiII', family, itype, index, flags, change)


def wc_info_data(**kw):
    """IFLA_WORMCAST_* attributes by lower-case suffix: topology=2,
    dims=(4, 4), node_name='x%d', flit_bytes=16, replication=1, ..."""
    u = uapi()
    out = b''
    for key, val in kw.items():
        t = u['IFLA_WORMCAST_' + key.upper()]
        if key == 'dims':
            out += nla(t, b''.join(struct.pack('=I', d & 0xffffffff)
                                   for d in val))
        elif key == 'node_name':
            out += nla_str(t, val)
        elif key in ('replication', 'fault_info'):
            out += nla_u8(t, val)
        else:
            out += nla_u32(t, val)
    return out


def linkinfo(data, kind=b'wormcast\0'):
    li = nla(IFLA_INFO_KIND, kind)
    if data is not None:
        li += nla(IFLA_INFO_DATA | NLA_F_NESTED, data)
    return nla(IFLA_LINKINFO | NLA_F_NESTED, li)


def newlink_body(name, data, extra=b''):
    """RTM_NEWLINK body creating a wormcast fabric @name (None: let the
    kernel pick) with IFLA_INFO_DATA @data (bytes)."""
    body = ifinfomsg()
    if name is not None:
        body += nla_str(IFLA_IFNAME, name)
    return body + extra + linkinfo(data)


class Link:
    """A device from an RTM_NEWLINK message."""

    def __init__(self, msg):
        _, _, self.index, self.flags, _ = struct.unpack_from('=BxHiII',
                                                             msg.data)
        a = attr_dict(msg.data, 16)
        self.name = get_str(a.get(IFLA_IFNAME, b''))
        self.mtu = get_u32(a[IFLA_MTU]) if IFLA_MTU in a else None
        self.address = a.get(IFLA_ADDRESS, b'')
        self.kind = ''
        self.data = {}
        if IFLA_LINKINFO in a:
            li = attr_dict(a[IFLA_LINKINFO])
            self.kind = get_str(li.get(IFLA_INFO_KIND, b''))
            if IFLA_INFO_DATA in li:
                self.data = attr_dict(li[IFLA_INFO_DATA])

    def u32(self, name):
        v = self.data.get(uapi()['IFLA_WORMCAST_' + name.upper()])
        return None if v is None else get_u32(v)

    def __repr__(self):
        return 'Link(%d %s %s)' % (self.index, self.name, self.kind)


def get_links(rt):
    """Every device in @rt's namespace, as Link objects."""
    ack = rt.dump(RTM_GETLINK, ifinfomsg())
    if ack.err:
        raise OSError(-ack.err, 'RTM_GETLINK dump: ' + ack.strerror())
    return [Link(m) for m in ack.msgs if m.type == RTM_NEWLINK]


def get_link(rt, index=0, name=None):
    """(Ack, Link or None) for one device by index or name."""
    body = ifinfomsg(index=index)
    if name is not None:
        body += nla_str(IFLA_IFNAME, name)
    ack = rt.request(RTM_GETLINK, 0, body)
    links = [Link(m) for m in ack.msgs if m.type == RTM_NEWLINK]
    return ack, links[0] if links else None

# ---------------------------------------------------------------- genetlink


def genl_body(cmd, attrs=b'', version=1, reserved=0):
    return struct.pack('=BBH', cmd & 0xff, version & 0xff,
                       reserved & 0xffff) + attrs


class Genl:
    """A generic netlink family resolved with CTRL_CMD_GETFAMILY."""

    def __init__(self, sock, name):
        ack = sock.request(GENL_ID_CTRL, 0, genl_body(
            CTRL_CMD_GETFAMILY, nla_str(CTRL_ATTR_FAMILY_NAME, name)))
        if ack.err or not ack.msgs:
            raise OSError(-ack.err or errno.ENOENT,
                          'genl family %s: %s' % (name, ack.strerror()))
        a = attr_dict(ack.msgs[0].data, 4)
        self.id = struct.unpack_from('=H', a[CTRL_ATTR_FAMILY_ID])[0]
        self.ops = [get_u32(attr_dict(op)[CTRL_ATTR_OP_ID])
                    for _, op in parse_attrs(a.get(CTRL_ATTR_OPS, b''))]
        self.sock = sock

    def request(self, cmd, attrs=b'', flags=0, **kw):
        return self.sock.request(self.id, flags, genl_body(cmd, attrs), **kw)

    def dump(self, cmd, attrs=b'', **kw):
        return self.sock.dump(self.id, genl_body(cmd, attrs), **kw)

# ---------------------------------------------------------------- netns

_libc = None


def _c():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def setns(fd):
    """Move the calling thread into the network namespace of @fd."""
    if _c().setns(fd, CLONE_NEWNET) != 0:
        e = ctypes.get_errno()
        raise OSError(e, 'setns: ' + os.strerror(e))


def netns_self():
    """An fd of the calling thread's network namespace."""
    return os.open('/proc/thread-self/ns/net', os.O_RDONLY)


def netns_new():
    """A new network namespace, as an fd (it lives while the fd and any
    device or socket in it do); the calling thread stays where it was."""
    orig = netns_self()
    try:
        if _c().unshare(CLONE_NEWNET) != 0:
            e = ctypes.get_errno()
            raise OSError(e, 'unshare: ' + os.strerror(e))
        fd = netns_self()
        setns(orig)
        return fd
    finally:
        os.close(orig)


class InNetns:
    """with InNetns(fd): sockets created inside belong to that namespace."""

    def __init__(self, fd):
        self.fd = fd
        self.orig = None

    def __enter__(self):
        if self.fd is not None:
            self.orig = netns_self()
            setns(self.fd)
        return self

    def __exit__(self, *exc):
        if self.orig is not None:
            setns(self.orig)
            os.close(self.orig)
            self.orig = None
