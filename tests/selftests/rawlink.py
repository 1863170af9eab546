#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Create a wormcast link with raw rtnetlink attributes, bypassing the
iproute2 plugin, so that the selftests can check the kernel's own
validation.  Usage:

  rawlink.py NAME [topo=N] [dims=A,B,C] [name=PATTERN] [vcs=N] [flit=N]
                  [queue=N] [repl=N] [ATTR=N ...] [raw=TYPE:HEX ...]
                  [trailing=HEX]

ATTR is any IFLA_WORMCAST_* suffix in lower case (buf_flits, watchdog,
cycle_ns, ...); topo, dims, name, flit, repl and queue are short forms.
raw=TYPE:HEX adds an attribute of any type (a number; add 32768 for
NLA_F_NESTED) with that payload; trailing=HEX appends bytes that are no
attribute at the end of IFLA_INFO_DATA.
Exit status 0 if the kernel created the link; 1 with the kernel's error
(and extack message) on stderr otherwise.  The attribute numbers come from
uapi/linux/wormcast.h (wcnl.py reads it).
"""
import sys

import wcnl

SHORT = {'topo': 'topology', 'name': 'node_name', 'flit': 'flit_bytes',
         'repl': 'replication', 'queue': 'queue_len'}


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    known = wcnl.uapi().prefixed('IFLA_WORMCAST_')
    kw = {}
    extra = b''
    for arg in sys.argv[2:]:
        key, _, value = arg.partition('=')
        key = SHORT.get(key, key)
        if key == 'raw':
            atype, _, payload = value.partition(':')
            extra += wcnl.nla(int(atype), bytes.fromhex(payload))
            continue
        if key == 'trailing':
            extra += bytes.fromhex(value)
            continue
        if key not in known:
            print('rawlink: unknown attribute ' + key, file=sys.stderr)
            return 2
        if key == 'dims':
            kw[key] = [int(v) for v in value.split(',')]
        elif key == 'node_name':
            kw[key] = value
        else:
            kw[key] = int(value)
    rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
    ack = rt.request(wcnl.RTM_NEWLINK, wcnl.NLM_F_EXCL | wcnl.NLM_F_CREATE,
                     wcnl.newlink_body(sys.argv[1],
                                       wcnl.wc_info_data(**kw) + extra))
    if ack.err == 0:
        return 0
    print('rawlink: ' + ack.strerror(), file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
