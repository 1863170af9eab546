#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send raw Ethernet frames for the wormcast selftests.

  rawsend.py DEV DSTMAC COUNT [SIZE]

COUNT frames of SIZE bytes (default 60) from DEV to DSTMAC, EtherType
0x88b5 (local experimental), so that no protocol of the stack answers.
A full queue (ENOBUFS) is waited out, not skipped.
"""
import errno
import socket
import sys
import time


def main():
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
