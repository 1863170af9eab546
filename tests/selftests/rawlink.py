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

  rawlink.py --each NAME 'CASE' ...

tries each CASE (the arguments above, separated by spaces) in turn in one
process (under TCG every Python start costs about a second) and prints one
line per case: "CASE<TAB>created|refused<TAB>BEFORE<TAB>AFTER<TAB>ERROR",
BEFORE and AFTER the number of network devices (/sys/class/net) before and
after the request; a link that was created is deleted before the next case.
Exit status 0 unless a CASE cannot be parsed.
"""
import os
import sys

import wcnl

SHORT = {'topo': 'topology', 'name': 'node_name', 'flit': 'flit_bytes',
         'repl': 'replication', 'queue': 'queue_len'}


def request(rt, name, args):
    """Ack of an RTM_NEWLINK for @name with the attributes of @args; None
    (and a message on stderr) if @args cannot be parsed."""
    known = wcnl.uapi().prefixed('IFLA_WORMCAST_')
    kw = {}
    extra = b''
    for arg in args:
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
            return None
        if key == 'dims':
            kw[key] = [int(v) for v in value.split(',')]
        elif key == 'node_name':
            kw[key] = value
        else:
            kw[key] = int(value)
    return rt.request(wcnl.RTM_NEWLINK, wcnl.NLM_F_EXCL | wcnl.NLM_F_CREATE,
                      wcnl.newlink_body(name, wcnl.wc_info_data(**kw) + extra))


def each(rt, name, cases):
    """The --each mode: one line per case, each created link deleted."""
    for case in cases:
        before = len(os.listdir('/sys/class/net'))
        ack = request(rt, name, case.split())
        if ack is None:
            return 2
        after = len(os.listdir('/sys/class/net'))
        if ack.err == 0:
            rt.request(wcnl.RTM_DELLINK, 0, wcnl.ifinfomsg() +
                       wcnl.nla_str(wcnl.IFLA_IFNAME, name))
        print('\t'.join([case, 'refused' if ack.err else 'created',
                         str(before), str(after),
                         'rawlink: ' + ack.strerror() if ack.err else '']))
    return 0


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    rt = wcnl.NlSock(wcnl.NETLINK_ROUTE)
    if sys.argv[1] == '--each' and len(sys.argv) > 2:
        return each(rt, sys.argv[2], sys.argv[3:])
    ack = request(rt, sys.argv[1], sys.argv[2:])
    if ack is None:
        return 2
    if ack.err == 0:
        return 0
    print('rawlink: ' + ack.strerror(), file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
