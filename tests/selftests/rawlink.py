#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Create a wormcast link with raw rtnetlink attributes, bypassing the
iproute2 plugin, so that the selftests can check the kernel's own
validation.  Usage:

  rawlink.py NAME [topo=N] [dims=A,B,C] [name=PATTERN] [vcs=N] [flit=N]
                  [queue=N] [repl=N]

Exit status 0 if the kernel created the link; 1 with the kernel's error
(and extack message) on stderr otherwise.  Attribute numbers are those of
uapi/linux/wormcast.h.
"""
import os
import socket
import struct
import sys

NETLINK_ROUTE = 0
RTM_NEWLINK = 16
NLM_F_REQUEST, NLM_F_ACK, NLM_F_EXCL, NLM_F_CREATE = 1, 4, 0x200, 0x400
NLMSG_ERROR = 2
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSGERR_ATTR_MSG = 1
NLM_F_ACK_TLVS = 0x200
IFLA_IFNAME, IFLA_LINKINFO = 3, 18
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
NLA_F_NESTED = 0x8000

# enum IFLA_WORMCAST_* (uapi/linux/wormcast.h)
ATTRS = {
    'topo': (1, 'u32'),
    'dims': (2, 'u32s'),
    'name': (3, 'str'),
    'flit': (4, 'u32'),
    'vcs': (6, 'u32'),
    'repl': (13, 'u8'),
    'queue': (15, 'u32'),
}


def attr(kind, payload):
    length = 4 + len(payload)
    return struct.pack('=HH', length, kind) + payload + \
        b'\0' * ((4 - length % 4) % 4)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = b''
    for arg in sys.argv[2:]:
        key, _, value = arg.partition('=')
        if key not in ATTRS:
            print('rawlink: unknown attribute ' + key, file=sys.stderr)
            return 2
        num, kind = ATTRS[key]
        if kind == 'u32':
            payload = struct.pack('=I', int(value))
        elif kind == 'u8':
            payload = struct.pack('=B', int(value))
        elif kind == 'u32s':
            payload = b''.join(struct.pack('=I', int(v))
                               for v in value.split(','))
        else:
            payload = value.encode() + b'\0'
        data += attr(num, payload)
    linkinfo = attr(IFLA_INFO_KIND, b'wormcast\0') + \
        attr(IFLA_INFO_DATA | NLA_F_NESTED, data)
    body = struct.pack('=BxHiII', socket.AF_UNSPEC, 0, 0, 0, 0) + \
        attr(IFLA_IFNAME, sys.argv[1].encode() + b'\0') + \
        attr(IFLA_LINKINFO | NLA_F_NESTED, linkinfo)
    flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_EXCL | NLM_F_CREATE
    msg = struct.pack('=IHHII', 16 + len(body), RTM_NEWLINK, flags, 1, 0) + body

    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_ROUTE)
    s.setsockopt(270, NETLINK_EXT_ACK, 1)  # SOL_NETLINK
    s.setsockopt(270, NETLINK_CAP_ACK, 1)
    s.bind((0, 0))
    s.send(msg)
    reply = s.recv(65536)
    length, mtype, mflags, _, _ = struct.unpack_from('=IHHII', reply)
    if mtype != NLMSG_ERROR:
        print('rawlink: unexpected reply type %d' % mtype, file=sys.stderr)
        return 1
    err = struct.unpack_from('=i', reply, 16)[0]
    if err == 0:
        return 0
    # With NETLINK_CAP_ACK only the request's header is echoed back; the
    # extack TLVs follow it.
    off = 16 + 4 + 16
    msg_text = ''
    while mflags & NLM_F_ACK_TLVS and off + 4 <= length:
        alen, atype = struct.unpack_from('=HH', reply, off)
        if alen < 4:
            break
        if atype == NLMSGERR_ATTR_MSG:
            msg_text = reply[off + 4:off + alen].split(b'\0')[0].decode()
        off += (alen + 3) & ~3
    print('rawlink: %s%s' % (os.strerror(-err),
                             ': ' + msg_text if msg_text else ' (no extack message)'),
          file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
