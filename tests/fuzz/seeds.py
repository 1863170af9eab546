#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpora of tests/fuzz/ (corpus/<target>/seed-NN).

The seeds are in the tree; this script is how they were made, kept so that
a change of input layout in a harness can regenerate them.  Deterministic.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(12)


def write(target, seeds):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.startswith("seed-"):
            os.unlink(os.path.join(d, f))
    for i, s in enumerate(seeds):
        with open(os.path.join(d, "seed-%02d" % i), "wb") as f:
            f.write(s)


def words(*w, prefix=b""):
    return prefix + b"\0".join(x.encode() for x in w)


# ---- fuzz_iplink: errlen, max_id (u16), then the words
IPLINK = [
    ["topology", "torus", "dims", "8x8"],
    ["topology", "mesh", "dims", "4x4x4", "vcs", "2"],
    ["topology", "hypercube", "dim", "6", "replication", "async"],
    ["topology", "star", "n", "5", "nodename", "st%d"],
    ["topology", "mesh", "dims", "16", "flit_bytes", "64", "buf_flits", "4"],
    ["topology", "torus", "dims", "4x4", "inj", "2", "cons", "3",
     "router_delay", "0", "link_delay", "2", "startup", "5"],
    ["topology", "torus", "dims", "32x32", "cycle_ns", "1000",
     "watchdog", "5000", "queue_len", "64"],
    ["topology", "mesh", "dims", "2x2", "nodename", "a%dbcdefghijk"],
    ["help"],
    ["topology", "torus", "dims", "8x8", "dims", "4x4"],
    ["topology", "star", "dims", "5"],
    ["topology", "ring", "dims", "8"],
    ["topology", "mesh", "dims", "100x100"],
    ["topology", "mesh", "dims", "4x"],
    ["topology", "mesh", "dims", "x4"],
    ["topology", "mesh", "dims", "4xx4"],
    ["topology", "mesh", "dims", "1x2x3x4"],
    ["topology", "mesh", "dims", "4294967296"],
    ["topology", "mesh", "dims", "4", "nodename", "n%s"],
    ["topology", "mesh", "dims", "4", "nodename", "n%d%d"],
    ["topology", "mesh", "dims", "4", "nodename", "a/%d"],
    ["topology", "mesh", "dims", "4", "vcs"],
    ["topology", "mesh", "dims", "4", "vcs", "0"],
    ["topology", "mesh", "dims", "4", "replication", "sync"],
    ["topology", "mesh", "dims", "4", "bogus", "1"],
    ["topology", "hypercube", "dim", "13"],
    ["topology", "star", "n", "8"],
    ["dims", "8x8"],
    ["topology"],
]
seeds = []
for i, w in enumerate(IPLINK):
    hdr = bytes([rng.choice([0, 1, 8, 64, 255])]) + struct.pack("<H", rng.randrange(64))
    seeds.append(words(*w, prefix=hdr))
write("iplink", seeds)

# ---- fuzz_wormctl: errlen, nnum, nnum bound bytes, then the words
WORMCTL = [
    ["fabric"], ["fabric", "show"], ["fabric", "show", "wc0"],
    ["fabric", "list", "wc0"], ["fabric", "wc0"],
    ["fabric", "set", "wc0", "cycle_ns", "1000"],
    ["fabric", "set", "wc0", "watchdog", "500", "cycle_ns", "0"],
    ["fabric", "set", "wc0", "watchdog", "0"],
    ["fabric", "set", "wc0"], ["fabric", "set"],
    ["fabric", "set", "wc0", "vcs", "2"],
    ["fabric", "show", "a-very-long-device-name"],
    ["stats", "wc0"], ["stats", "show", "wc0", "total"],
    ["stats", "wc0", "node", "3"], ["stats", "wc0", "node", "-1"],
    ["stats", "wc0", "node"], ["stats"],
    ["-j", "fabric"], ["-jp", "stats", "wc0"], ["--json", "--pretty", "fabric"],
    ["-V"], ["-h", "fabric"], ["help"], ["fabric", "help"], ["-x"],
    ["--", "fabric"], ["-j"],
    ["plan", "torus", "8x8", "dstm"],
    ["plan", "mesh", "4x4", "paths", "--src", "0,0", "--dst", "1,2:3,3"],
    ["plan", "star", "4", "tree"],
    ["plan", "mesh", "3x3", "faults", "--faulty", "0,0:1,1"],
    ["bogus"],
]
seeds = []
for w in WORMCTL:
    nums = bytes(rng.randrange(256) for _ in range(rng.randrange(4, 24)))
    hdr = bytes([rng.choice([0, 1, 16, 255]), len(nums)]) + nums
    seeds.append(words(*w, prefix=hdr))
write("wormctl", seeds)

# ---- fuzz_topo: kind/ndims byte, dims picks, bound, samples, params
seeds = []
TOPOS = [(1, 1, [8]), (1, 2, [4, 4]), (1, 3, [3, 3, 3]), (2, 1, [8]),
         (2, 2, [5, 3]), (2, 2, [2, 3]), (2, 3, [4, 4, 4]), (3, 1, [4]),
         (3, 1, [12]), (4, 1, [2]), (4, 1, [4]), (4, 1, [7]),
         (2, 2, [71, 71]), (1, 2, [1, 4]), (3, 1, [13]), (4, 1, [8]),
         (5, 1, [4]), (0, 1, [4])]
for kind, ndims, dims in TOPOS:
    for variant in range(2):
        b = kind % 6 | ((ndims - 1) % 3) << 3
        if variant:
            b |= 0x04       # bounded
        dd = (dims + [0, 0, 0])[:3]
        s = bytes([b]) + bytes(min(x, 0xef) for x in dd)
        if variant:
            s += bytes([rng.randrange(2), rng.randrange(0xf0)])
        s += bytes(rng.randrange(256) for _ in range(4 * 8 + 2))
        s += bytes(rng.randrange(0xf0) for _ in range(12))
        which = rng.randrange(1 << 10) if variant else 0
        s += struct.pack("<H", which)
        s += bytes(rng.choice([0, 1, 2, 3, 4, 8, 16, 100, 0xf1, 0xf2])
                   for n in range(10) if which >> n & 1)
        s += bytes(rng.randrange(256) for _ in range(6))
        seeds.append(s)
write("topo", seeds)

# ---- fuzz_engine: u16 script length, script, decisions
def engine_seed(kind, dims, which, picks, ops, decisions):
    picks = [p for n, p in enumerate(picks) if which >> n & 1]
    script = bytes([kind]) + bytes(dims) + struct.pack("<H", which) + bytes(picks)
    for op in ops:
        script += bytes(op)
    return struct.pack("<H", len(script)) + script + bytes(decisions)


def submit(src, nbytes, b, dsts):
    return [0, src] + list(struct.pack("<H", nbytes)) + [b] + dsts


seeds = []
for i in range(32):
    kind = i % 4
    dims = [rng.randrange(4) for _ in range(3)] if kind < 2 else [rng.randrange(6)]
    if kind < 2:
        dims = [2] + dims      # ndims byte, then sizes
    which = 0 if i < 8 else rng.randrange(1 << 10)
    picks = [rng.choice([0, 1, 2, 3, 4, 16, 64, 0xf1, 0xf2]) for _ in range(10)]
    ops = []
    for _ in range(rng.randrange(2, 10)):
        r = rng.random()
        if r < 0.45:
            ops.append(submit(rng.randrange(64), rng.choice([0, 1, 100, 1500, 9000]),
                              rng.choice([1, 2, 4, 0x81, 0x82, 0x84, 0x19, 0x0a]),
                              [rng.randrange(64), rng.choice([1, 5, 0xff]),
                               rng.randrange(64), rng.randrange(64)]))
        elif r < 0.75:
            ops.append([2, rng.randrange(256)])
        elif r < 0.8:
            ops.append([4])
        elif r < 0.85:
            ops.append([5, rng.choice([0, 15, 16, 17, 200, 0xf3])])
        elif r < 0.9:
            ops.append([6, rng.randrange(200)])
        else:
            ops.append([7, rng.randrange(64), rng.randrange(16)])
    if i < 6:
        dec = [1]              # the built-in algorithm throughout
    else:
        dec = [rng.randrange(256) for _ in range(rng.randrange(8, 64))]
    seeds.append(engine_seed(kind, dims, which, picks, ops, dec))
write("engine", seeds)

# ---------------------------------------------------------------- trees
# fuzz_trees: topology byte, mode byte (bit 0: raw), then the table.
seeds = []
# structured, SPAM on the 4x4 mesh (topology 3): root 0, row 0 to -x,
# the rest to -y (ports 0 +x, 1 -x, 2 +y, 3 -y; 4 = the root's none)
mesh = [4] + [1] * 3 + [3] * 12
seeds.append(bytes([3, 0, 0, 0] + mesh + [5, 0x55, 0xaa, 1]))
# structured, DSTM-1 on the 4x4 torus (topology 0), random ports
for i in range(4):
    seeds.append(bytes([0, 0, 1 + i % 3, rng.randrange(16), rng.randrange(16)] +
                       [rng.randrange(5) for _ in range(32)] +
                       [rng.randrange(256) for _ in range(18)]))
# raw
for i in range(3):
    n = rng.randrange(20, 60)
    seeds.append(bytes([rng.randrange(7), 1, n] +
                       [rng.randrange(256) for _ in range(n)]))
write("trees", seeds)

# ---------------------------------------------------------------- plans
# fuzz_plans: mode byte (bit 0: raw), then raw: a 16-bit length and the
# table; structured: plan count, then per plan group byte, source, worm
# count, and per worm its length and node bytes (4x4 mesh, the snake).
seeds = [
    # node 0: worm to nodes 1, 2 (labels 1, 2) and a worm to node 15
    bytes([0, 1, 0, 0, 2, 2, 1, 2, 1, 15]),
    # two plans, one source each
    bytes([0, 2, 0, 0, 1, 1, 1, 1, 5, 1, 1, 4]),
    # refused: labels 2 then 1
    bytes([0, 1, 0, 0, 1, 2, 2, 1]),
]
hdr = struct.pack("=4I", 16, 1, 0, 0)
plan = struct.pack("=6sHIII", bytes([1, 0, 0x5e, 0, 0, 1]), 0, 0, 2, 5) + \
    struct.pack("=5I", 2, 1, 2, 1, 15)
body = hdr + plan
seeds.append(bytes([1]) + struct.pack("=H", len(body)) + body)
write("plans", seeds)

# ---------------------------------------------------------------- labels
# fuzz_labels: topology byte, mode byte (bit 0: raw), then the table (raw:
# a length byte and the bytes) or scheme, start node and walk steps.
seeds = []
for topo in range(6):
    for start in (0, 3):
        seeds.append(bytes([topo, 0, rng.randrange(4), start] +
                           [rng.randrange(4) for _ in range(32)]))
# raw: the snake of the 3x3 mesh (topology 0) under hamiltonian (5), and a
# swapped pair
snake = [0, 1, 2, 5, 4, 3, 6, 7, 8]
for labels in (snake, [1, 0] + snake[2:]):
    body = struct.pack("=4I", 5, 9, 0, 0) + struct.pack("=9I", *labels)
    seeds.append(bytes([0, 1, len(body)]) + body)
write("labels", seeds)

# ---- fuzz_wormctl, commands added later: a generator and file names
# (corpus/wormctl/PREFIX-NN) of their own, so the seeds above stay as they were
def wormctl_later(prefix, cmds, seed):
    r = random.Random(seed)
    d = os.path.join(HERE, "corpus", "wormctl")
    for f in os.listdir(d):
        if f.startswith(prefix + "-"):
            os.unlink(os.path.join(d, f))
    for i, w in enumerate(cmds):
        nums = bytes(r.randrange(256) for _ in range(r.randrange(4, 24)))
        hdr = bytes([r.choice([0, 1, 16, 255]), len(nums)]) + nums
        with open(os.path.join(d, "%s-%02d" % (prefix, i)), "wb") as f:
            f.write(words(*w, prefix=hdr))


wormctl_later("fault", [
    ["fault", "add", "wc0", "link", "0", "1"],
    ["fault", "del", "wc0", "node", "5"],
    ["fault", "add", "wc0", "link", "3", "3"],
    ["fault", "add", "wc0", "link", "3"],
    ["fault", "show", "wc0", "-j"], ["fault", "wc0"], ["fault"],
    ["fault", "random", "wc0", "--mtbf", "300", "--mttr", "200",
     "--seed", "7", "--duration", "5", "--kind", "any"],
    ["fault", "random", "wc0", "--mtbf", "0", "--mttr", "1"],
    ["fault", "random", "wc0", "--kind", "edge"],
    ["monitor"], ["monitor", "wc0"], ["-j", "fault", "help"],
], 13)
# fabric set's fault-info, send_ovh and recv_ovh
wormctl_later("set", [
    ["fabric", "set", "wc0", "fault-info", "local", "send_ovh", "200"],
    ["fabric", "set", "wc0", "recv_ovh", "200", "multicast", "dcf"],
    ["fabric", "set", "wc0", "fault-info", "remote"],
    ["fabric", "set", "wc0", "send_ovh", "1000", "recv_ovh"],
], 15)

# ---------------------------------------------------------------- bcast
# fuzz_bcast: topology byte (0: torus 4x4, 1: torus 8x8, 2: mesh 4x4, 3:
# torus 8x4), mode byte (bit 0: raw); structured: scheme byte, then per
# node a sender byte and a step byte, a corruption byte (255: none) and
# the source byte.  Its own generator, so the seeds above stay as they were.
brng = random.Random(13)
seeds = []
for topo in (0, 1, 2, 3):
    for scheme in (0, 1, 2):
        n = 16 if topo in (0, 2) else 64 if topo == 1 else 32
        seeds.append(bytes([topo, 0, scheme] +
                           [brng.randrange(256) for _ in range(2 * (n - 1))] +
                           [255, brng.randrange(n)]))
# raw: the four doublings of the 4x4 torus under dcf (scheme 12)
sends = [(1, 0, 8), (2, 0, 2), (2, 8, 10), (3, 0, 1), (3, 2, 3), (3, 8, 9),
         (3, 10, 11), (4, 0, 4), (4, 1, 5), (4, 2, 6), (4, 3, 7), (4, 8, 12),
         (4, 9, 13), (4, 10, 14), (4, 11, 15)]
body = struct.pack("=4I", 12, 16, 15, 0) + b"".join(struct.pack("=3I", *s) for s in sends)
seeds.append(bytes([0, 1]) + struct.pack("=H", len(body)) + body + bytes([5]))
write("bcast", seeds)

# ---------------------------------------------------------------- ftmesh
# fuzz_ftmesh: topology byte (0: mesh 6x6, 1: mesh 5x3, 2: mesh 8x8, 3:
# torus 4x4), mode byte (bit 0: raw); structured: a block count byte, 4
# bytes per block (x0, y0, width, height), strategy, flags and seed bytes,
# a corruption byte (255: none), then the VCs byte (bit 0: 8), the source,
# a destination count and the destinations.
mrng = random.Random(14)
seeds = []
for topo, blocks in ((0, [(2, 2, 1, 1), (5, 0, 0, 0)]), (1, [(2, 1, 0, 0)]),
                     (2, [(3, 3, 2, 1), (0, 6, 0, 0), (6, 1, 1, 0)]),
                     (0, []), (3, [(1, 1, 0, 0)])):
    for strategy, flags, vcs in ((1, 0, 0), (2, 1, 1), (2, 0, 1)):
        n = 36 if topo == 0 else 15 if topo == 1 else 64 if topo == 2 else 16
        body = [len(blocks)] + [v for b in blocks for v in b]
        dsts = [mrng.randrange(n) for _ in range(mrng.randrange(1, 12))]
        seeds.append(bytes([topo, 0] + body + [strategy, flags, 7, 255, vcs,
                                               mrng.randrange(n), len(dsts)] + dsts))
write("ftmesh", seeds)
