-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark dissector for wormcast capture records (uapi/linux/wormcast.h,
-- struct wormcast_cap_hdr; Documentation/kernel.rst, "Capture").
--
-- A record is what the fabric device shows packet sockets, one per
-- message: after an Ethernet header of type 0x88b6 (tcpdump -i FABRIC),
-- or bare in a file of link type LINKTYPE_USER0 (147).  Little-endian:
--   header (64 bytes), ndsts destinations (24 bytes each, by node),
--   nlinks links (8 bytes each, in reservation order), the frame
--   (Ethernet) from byte hdr_len on.
--
--   tshark -X lua_script:tools/wireshark/wormcast.lua -r FILE -V
--   wireshark -X lua_script:tools/wireshark/wormcast.lua FILE
-- or copy it into ~/.local/lib/wireshark/plugins/.

local ETH_P_CAPTURE = 0x88b6
local HDR_BYTES, DST_BYTES, LINK_BYTES = 64, 24, 8
local NO_WORM = 0xffffffff

-- enum wormcast_mcast_scheme
local schemes = {
	[0] = "unicast", [1] = "spam", [2] = "dstm1", [3] = "dstm2", [4] = "rt",
	[5] = "hamiltonian", [6] = "dual-path", [7] = "multipath",
	[8] = "star-tree",
}

local p = Proto("wormcast", "wormcast fabric capture record")
local f = p.fields
f.version = ProtoField.uint16("wormcast.version", "Version")
f.hdr_len = ProtoField.uint16("wormcast.hdr_len", "Record header length")
f.flags = ProtoField.uint32("wormcast.flags", "Flags", base.HEX)
f.aborted = ProtoField.bool("wormcast.flags.aborted", "Aborted", 32, nil, 0x1)
f.truncated = ProtoField.bool("wormcast.flags.truncated", "Truncated", 32, nil, 0x2)
f.fabric = ProtoField.uint32("wormcast.fabric", "Fabric")
f.src = ProtoField.uint32("wormcast.src", "Source node")
f.scheme = ProtoField.uint32("wormcast.scheme", "Scheme", base.DEC, schemes)
f.table_gen = ProtoField.uint32("wormcast.table_gen", "Table generation")
f.ndsts = ProtoField.uint32("wormcast.ndsts", "Destinations")
f.nlinks = ProtoField.uint32("wormcast.nlinks", "Links")
f.nworms = ProtoField.uint32("wormcast.nworms", "Worms")
f.frame_len = ProtoField.uint32("wormcast.frame_len", "Frame length")
f.submit = ProtoField.uint64("wormcast.submit", "Submitted (cycle)")
f.done = ProtoField.uint64("wormcast.done", "Done (cycle)")
f.blocked = ProtoField.uint64("wormcast.blocked", "Blocked header-cycles")
f.dst = ProtoField.uint32("wormcast.dst", "Destination node")
f.dst_worm = ProtoField.uint32("wormcast.dst.worm", "Worm")
f.dst_inject = ProtoField.uint64("wormcast.dst.inject", "Injected (cycle)")
f.dst_consume = ProtoField.uint64("wormcast.dst.consume", "Consumed (cycle)")
f.dst_latency = ProtoField.uint64("wormcast.dst.latency", "Latency (cycles)")
f.dst_reached = ProtoField.bool("wormcast.dst.reached", "Reached")
f.link = ProtoField.string("wormcast.link", "Link (worm/node.port)")
f.link_node = ProtoField.uint16("wormcast.link.node", "Node")
f.link_port = ProtoField.uint8("wormcast.link.port", "Port")
f.link_vc = ProtoField.uint8("wormcast.link.vc", "VC")
f.link_worm = ProtoField.uint32("wormcast.link.worm", "Worm")

local eth = Dissector.get("eth_withoutfcs")

function p.dissector(tvb, pinfo, tree)
	if tvb:len() < HDR_BYTES then
		return 0
	end
	local hlen = tvb(2, 2):le_uint()
	local ndsts = tvb(24, 4):le_uint()
	local nlinks = tvb(28, 4):le_uint()
	if hlen < HDR_BYTES or hlen > tvb:len() or
	    HDR_BYTES + ndsts * DST_BYTES + nlinks * LINK_BYTES > hlen then
		return 0
	end
	pinfo.cols.protocol = "wormcast"
	local src = tvb(12, 4):le_uint()
	local t = tree:add(p, tvb(0, hlen))
	t:add_le(f.version, tvb(0, 2))
	t:add_le(f.hdr_len, tvb(2, 2))
	local ft = t:add_le(f.flags, tvb(4, 4))
	ft:add_le(f.aborted, tvb(4, 4))
	ft:add_le(f.truncated, tvb(4, 4))
	t:add_le(f.fabric, tvb(8, 4))
	t:add_le(f.src, tvb(12, 4))
	t:add_le(f.scheme, tvb(16, 4))
	t:add_le(f.table_gen, tvb(20, 4))
	t:add_le(f.ndsts, tvb(24, 4))
	t:add_le(f.nlinks, tvb(28, 4))
	t:add_le(f.nworms, tvb(32, 4))
	t:add_le(f.frame_len, tvb(36, 4))
	t:add_le(f.submit, tvb(40, 8))
	t:add_le(f.done, tvb(48, 8))
	t:add_le(f.blocked, tvb(56, 8))

	local off = HDR_BYTES
	local names = {}
	local submit = tvb(40, 8):le_uint64()
	for _ = 1, ndsts do
		local node = tvb(off, 4):le_uint()
		local worm = tvb(off + 4, 4):le_uint()
		local reached = worm ~= NO_WORM
		local dt = t:add_le(f.dst, tvb(off, 4))
		dt:add(f.dst_reached, reached)
		if reached then
			dt:add_le(f.dst_worm, tvb(off + 4, 4))
			dt:add_le(f.dst_inject, tvb(off + 8, 8))
			dt:add_le(f.dst_consume, tvb(off + 16, 8))
			dt:add(f.dst_latency, tvb(off + 16, 8):le_uint64() - submit)
		end
		names[#names + 1] = tostring(node) .. (reached and "" or "!")
		off = off + DST_BYTES
	end
	local lt = t:add(tvb(off, nlinks * LINK_BYTES), "Links used")
	for _ = 1, nlinks do
		local node = tvb(off, 2):le_uint()
		local port = tvb(off + 2, 1):uint()
		local worm = tvb(off + 4, 4):le_uint()
		local l = lt:add(f.link, tvb(off, LINK_BYTES),
				 string.format("%u/%u.%u", worm, node, port))
		l:add_le(f.link_node, tvb(off, 2))
		l:add(f.link_port, tvb(off + 2, 1))
		l:add(f.link_vc, tvb(off + 3, 1))
		l:add_le(f.link_worm, tvb(off + 4, 4))
		off = off + LINK_BYTES
	end
	pinfo.cols.info = string.format("wormcast %u -> %s, %u worms, %u links",
					src, table.concat(names, ","),
					tvb(32, 4):le_uint(), nlinks)
	if tvb:len() > hlen then
		eth:call(tvb(hlen):tvb(), pinfo, tree)
		-- keep the summary of the record in front of the frame's
		pinfo.cols.info:prepend(string.format("[%u -> %s] ", src,
					table.concat(names, ",")))
	end
	return tvb:len()
end

DissectorTable.get("ethertype"):add(ETH_P_CAPTURE, p)
-- files of bare records (LINKTYPE_USER0 = 147, WTAP_ENCAP_USER0)
local encaps = wtap_encaps or wtap
DissectorTable.get("wtap_encap"):add(encaps.USER0, p)
