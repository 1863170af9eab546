#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One dcf/edn broadcast's latency through the kernel, in engine cycles,
beside wormsim's for the same parameters (Documentation/dcf.rst, "The
broadcast's latency: kernel and wormsim").

  bcast_latency.py FABRIC SRC --tag TAG (--send-dev DEV --bytes N |
                   --cmd 'SHELL COMMAND') [--wormsim PATH] [--tries N]
                   [--timeout SECONDS]

Reads the capture records (Documentation/kernel.rst, "Capture") on a
packet socket bound to the fabric device (which must be up), then sends
one broadcast: a raw Ethernet broadcast frame of N bytes holding TAG from
node device DEV, or whatever the command sends (it must send one broadcast
frame holding TAG from node SRC; @TAG@ in it is replaced by the tag
of the try).  The broadcast's messages are the
records whose frame holds TAG: the source's own unicasts and every
relay's, one record per unicast, nodes - 1 in all.  Latency = the last
consume cycle of any of them + t_r - (the submit cycle of the source's
first unicast - t_s) = wormsim's --bcast latency (the last reception,
t_r included, from the cycle the source's processor took the frame, its
first send t_s later), with t_s and t_r the fabric's send_ovh and
recv_ovh (Documentation/dcf.rst, "Sending and receiving latencies").

The run counts only on an idle fabric: no worm in flight before the send,
exactly nodes - 1 worms finished in the engine between before and after
(wormctl stats: engine worms_done), no other record overlapping the
broadcast's cycles, no record dropped by the socket; otherwise it tries
again, up to --tries times.

wormsim runs with the fabric's parameters (wormctl -j fabric show: dims,
scheme, flit_bytes, buf_flits, vcs, inj, cons, router_delay, link_delay,
startup, replication, send_ovh, recv_ovh), --msg-bytes the captured frame's length, --src
SRC, --bcast-relay queue (relays enter the injection queue in order, as
kmod/relay.c does), and for information --bcast-relay port (section 6.1's
port rule).  Prints one JSON object; exit status 0 when measured (equal
or not: the caller compares), 1 when no undisturbed run was had.
"""
import argparse
import json
import os
import select
import socket
import struct
import subprocess
import sys
import time

ETH_P_ALL = 3               # records reach only taps of every protocol
ETH_P_CAPTURE = 0x88b6
ETH_P_RAW = 0x88b5          # the selftests' raw frames
SO_RCVBUFFORCE = 33
SOL_PACKET = 263
PACKET_STATISTICS = 6
HDR = struct.Struct('<HHIIIIIIIIIQQQ')   # struct wormcast_cap_hdr, 64 bytes
DST = struct.Struct('<IIQQ')             # struct wormcast_cap_dst, 24 bytes
ENG_PARAMS = ('flit_bytes', 'buf_flits', 'vcs', 'inj', 'cons',
              'router_delay', 'link_delay', 'startup', 'replication',
              'send_ovh', 'recv_ovh')


def wormctl_json(*args):
    return json.loads(subprocess.run(['wormctl', '-j'] + list(args),
                                     check=True, capture_output=True,
                                     text=True).stdout)[0]


def engine(fabric):
    e = wormctl_json('stats', fabric)['engine']
    return e['worms_in_flight'], e['worms_done']


def parse(rec):
    """A capture record (after its Ethernet header): dict, or None."""
    if len(rec) < HDR.size:
        return None
    (ver, hlen, flags, _fab, src, scheme, _gen, ndsts, _nlinks, nworms,
     flen, submit, done, _blk) = HDR.unpack_from(rec)
    if ver != 1 or hlen > len(rec) or HDR.size + ndsts * DST.size > hlen:
        return None
    dsts = [DST.unpack_from(rec, HDR.size + i * DST.size)
            for i in range(ndsts)]
    return {'src': src, 'scheme': scheme, 'flags': flags, 'nworms': nworms,
            'frame_len': flen, 'submit': submit, 'done': done,
            'dsts': [(d[0], d[1], d[3], d[2]) for d in dsts],
            'frame': rec[hlen:hlen + flen]}


def send_raw(dev, nbytes, tag):
    mac = bytes.fromhex(open('/sys/class/net/%s/address' % dev)
                        .read().strip().replace(':', ''))
    payload = tag.encode()
    frame = b'\xff' * 6 + mac + struct.pack('!H', ETH_P_RAW) + payload
    if len(frame) > nbytes:
        sys.exit('bcast_latency: --bytes %d is shorter than the frame' %
                 nbytes)
    sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sk.bind((dev, 0))
    sk.send(frame + b'\0' * (nbytes - len(frame)))
    sk.close()


def one(args, nnodes, tag, ovh):
    """One broadcast: (result dict, or None and why); @ovh: t_s + t_r."""
    sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                       socket.htons(ETH_P_ALL))
    sk.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)
    sk.bind((args.fabric, ETH_P_ALL))
    # records of messages that ended before the send are not ours
    flight0, done0 = engine(args.fabric)
    if flight0:
        sk.close()
        return None, '%d worms in flight before the send' % flight0
    if args.cmd:
        subprocess.run(args.cmd.replace('@TAG@', tag), shell=True,
                       check=True)
    else:
        send_raw(args.send_dev, args.bytes, tag)
    ours, others = [], []
    deadline = time.monotonic() + args.timeout
    want = nnodes - 1
    key = tag.encode()
    while len(ours) < want:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([sk], [], [], left)[0]:
            break
        pkt = sk.recv(1 << 17)
        if pkt[12:14] != struct.pack('!H', ETH_P_CAPTURE):
            continue
        r = parse(pkt[14:])
        if r is None:
            continue
        (ours if key in r['frame'] else others).append(r)
    drops = struct.unpack('II', sk.getsockopt(SOL_PACKET,
                                              PACKET_STATISTICS, 8))[1]
    sk.close()
    if drops:
        return None, 'the socket dropped %d records' % drops
    if len(ours) != want:
        return None, '%d records of the broadcast, not %d' % (len(ours),
                                                              want)
    flight1, done1 = engine(args.fabric)
    submit = min(r['submit'] for r in ours)
    done = max(r['done'] for r in ours)
    bad = [r for r in ours if r['flags'] or len(r['dsts']) != 1 or
           r['dsts'][0][1] == 0xffffffff]
    if bad:
        return None, 'a record aborted or unreached: %s' % bad[0]['dsts']
    srcs = {r['src'] for r in ours if r['submit'] == submit}
    if srcs != {args.src}:
        return None, 'first records from %s, not the source' % sorted(srcs)
    reached = sorted(r['dsts'][0][0] for r in ours)
    if reached != sorted(set(range(nnodes)) - {args.src}):
        return None, 'the broadcast did not reach every node once'
    over = [r for r in others if r['submit'] <= done and r['done'] >= submit]
    if over or flight1 or done1 - done0 != want:
        return None, ('other traffic: %d records overlap, %d worms in '
                      'flight after, %d worms done for %d' %
                      (len(over), flight1, done1 - done0, want))
    last = max(r['dsts'][0][2] for r in ours)
    if args.dump:
        with open(args.dump, 'w') as f:
            for r in sorted(ours, key=lambda r: (r['submit'], r['src'])):
                f.write('%d %d %d %d %d\n' % (
                    r['src'], r['dsts'][0][0], r['submit'] - submit,
                    r['dsts'][0][3] - submit, r['dsts'][0][2] - submit))
    return {'latency': last - submit + ovh, 'submit': submit, 'last': last,
            'records': len(ours), 'frame_len': ours[0]['frame_len'],
            'relays': len({r['src'] for r in ours}) - 1}, None


def wormsim(args, fab, frame_len, rule):
    p = fab['params']
    cmd = [args.wormsim, '--topology', fab['topology'], '--dims',
           'x'.join(str(d) for d in fab['dims']),
           '--bcast', p['multicast'], '--src', str(args.src),
           '--msg-bytes', str(frame_len), '--bcast-relay', rule]
    for k in ENG_PARAMS:
        cmd += ['--' + k.replace('_', '-'), str(p[k])]
    out = subprocess.run(cmd, capture_output=True, text=True)
    line = out.stdout.splitlines()[0] if out.stdout else ''
    kv = dict(w.split('=', 1) for w in line.split()[1:] if '=' in w)
    if out.returncode or 'latency' not in kv:
        sys.exit('bcast_latency: %s failed: %s' % (' '.join(cmd),
                                                   out.stderr.strip()))
    return int(kv['latency']), ' '.join(cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('fabric')
    ap.add_argument('src', type=int)
    ap.add_argument('--tag', required=True)
    ap.add_argument('--send-dev')
    ap.add_argument('--bytes', type=int)
    ap.add_argument('--cmd')
    ap.add_argument('--wormsim', default=os.path.join(
        os.environ.get('WC_BUILD', 'build'), 'wormsim'))
    ap.add_argument('--dump', help='one line per unicast: source, '
                    'target, submit, inject, consume (cycles from the '
                    "source's submission)")
    ap.add_argument('--tries', type=int, default=3)
    ap.add_argument('--timeout', type=float, default=60)
    args = ap.parse_args()
    if not args.cmd and not (args.send_dev and args.bytes):
        ap.error('--cmd, or --send-dev and --bytes')
    fab = wormctl_json('fabric', 'show', args.fabric)
    nnodes = 1
    for d in fab['dims']:
        nnodes *= d
    why = []
    for i in range(args.tries):
        r, bad = one(args, nnodes, '%s.%d' % (args.tag, i),
                     fab['params']['send_ovh'] + fab['params']['recv_ovh'])
        if r:
            break
        why.append(bad)
    else:
        print(json.dumps({'error': why}))
        return 1
    r['tries'] = i + 1
    r['disturbed'] = why
    r['scheme'] = fab['params']['multicast']
    r['dims'] = 'x'.join(str(d) for d in fab['dims'])
    r['params'] = {k: fab['params'][k] for k in ENG_PARAMS}
    r['wormsim'], r['wormsim_cmd'] = wormsim(args, fab, r['frame_len'],
                                             'queue')
    r['wormsim_port'] = wormsim(args, fab, r['frame_len'], 'port')[0]
    print(json.dumps(r))
    return 0


if __name__ == '__main__':
    sys.exit(main())
