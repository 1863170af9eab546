#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send raw Ethernet frames for the wormcast selftests.

  rawsend.py DEV DSTMAC COUNT [SIZE]
  rawsend.py join READY MAC DEV...

COUNT frames of SIZE bytes (default 60) from DEV to DSTMAC, EtherType
0x88b5 (local experimental), so that no protocol of the stack answers.
A full queue (ENOBUFS) is waited out, not skipped.

"join": one packet socket joins MAC on every DEV (PACKET_ADD_MEMBERSHIP,
PACKET_MR_MULTICAST), touches READY, and keeps the memberships until it
is killed (one process instead of one "ip maddr" per device).
"""
import errno
import signal
import socket
import struct
import sys
import time


SOL_PACKET = 263
PACKET_ADD_MEMBERSHIP = 1
PACKET_MR_MULTICAST = 0


def join(ready, mac, devs):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    addr = bytes.fromhex(mac.replace(':', ''))
    for dev in devs:
        mreq = struct.pack('@iHH8s', socket.if_nametoindex(dev),
                           PACKET_MR_MULTICAST, len(addr), addr)
        s.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP, mreq)
    open(ready, 'w').close()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        time.sleep(3600)


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == 'join':
        return join(sys.argv[2], sys.argv[3], sys.argv[4:])
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    dev, dst, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    size = int(sys.argv[4]) if len(sys.argv) == 5 else 60
    with open('/sys/class/net/%s/address' % dev) as f:
        src = bytes.fromhex(f.read().strip().replace(':', ''))
    hdr = bytes.fromhex(dst.replace(':', '')) + src + b'\x88\xb5'
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((dev, 0))
    for i in range(count):
        payload = ('wc %d' % i).encode()
        frame = hdr + payload + b'\0' * max(0, size - len(hdr) - len(payload))
        while True:
            try:
                s.send(frame)
                break
            except OSError as e:	# qdisc full: the fabric pushes back
                if e.errno != errno.ENOBUFS:
                    raise
                time.sleep(0.001)
    return 0


if __name__ == '__main__':
    sys.exit(main())
