-- Wireshark / tshark dissector for tsunagi's traffic (docs/wireshark.md).
--
--   tshark -X lua_script:tools/wireshark/tsunagi.lua -r out/pcap/rendezvous.pcap
--   (or copy this file into ~/.local/lib/wireshark/plugins/)
--
-- Decodes, on every backend that moves real packets (ns-3, realnet):
--   * protocol frames over TCP (model/include/tsunagi/model/wire.hpp: a 32-byte little-endian
--     header, the payload of the frame's type (messages.hpp), then `filler` zero bytes);
--   * RTT probes over UDP: 'P' ping / 'Q' pong, probe id (u64), sample (u32), on realnet the
--     probe's 16-byte nonce (docs/security.md), zero padding;
--   * throughput probes over TCP: ns-3's bulk port (24-byte header: prober, probe id, size),
--     realnet's 'B' connections (size, nonce, MAC, then the bytes; the sink answers 'A').
-- Ports: ns-3 listens on TCP 7000 + slot (frames), TCP 17000 + slot (bulk) and UDP 14100 + slot
-- (probes). realnet's ports are the kernel's (or 7100 for a rendezvous in namespaces / on
-- clusters), so realnet traffic is found by heuristics: a stream that opens with 'F' and a
-- frame header, a frame header anywhere, a 'B' transfer, or a ping/pong datagram of our format.
--
-- Anything that breaks the format is flagged as an expert error of group "malformed"
-- (filter: tsunagi.malformed), the way the core's decoder would refuse it.

local tsunagi = Proto("tsunagi", "tsunagi protocol frames")
local tprobe = Proto("tsunagi_probe", "tsunagi RTT probe")
local tbulk = Proto("tsunagi_bulk", "tsunagi throughput probe")

-- wire.hpp: FrameType, to_string(FrameType).
local frame_types = {
  [1] = "hello", [2] = "register", [3] = "directory", [4] = "rtt_report", [5] = "groups",
  [6] = "route_round", [7] = "data", [8] = "done", [9] = "shutdown", [10] = "goodbye",
  [11] = "probe_order", [12] = "probe_result", [13] = "rtt_order", [14] = "rtt_column",
  [15] = "endpoint_query", [16] = "endpoint_reply", [17] = "relay_register", [18] = "relay_list",
  [19] = "relay_hello", [20] = "link_advert", [21] = "undeliverable", [22] = "settled",
  [23] = "start", [24] = "peer_unreachable", [25] = "shutdown_ack", [26] = "release",
  [27] = "auth_challenge", [28] = "auth_proof", [29] = "auth_accept", [30] = "window_order",
  [31] = "window_groups", [32] = "probe_turn", [33] = "probe_turn_grant",
}
local LAST_TYPE = 33
local MAGIC, VERSION, HEADER = 0x54, 1, 32
local MAX_PAYLOAD = 64 * 1024 * 1024
local SMALL_BODY = 4096  -- wire.cpp max_payload(): types with bodies of a few fields
local small_body = {
  [1] = true, [2] = true, [8] = true, [9] = true, [10] = true, [11] = true, [12] = true,
  [17] = true, [19] = true, [21] = true, [22] = true, [23] = true, [24] = true, [25] = true,
  [26] = true, [27] = true, [28] = true, [29] = true, [32] = true, [33] = true,
}
local purposes = { [0] = "control", [1] = "static", [2] = "shortcut", [3] = "relay",
                   [4] = "collect" }
local goodbye_reasons = { [0] = "evicted", [1] = "duplicate" }
local stream_kinds = { [0x46] = "frames (F)", [0x42] = "throughput transfer (B)",
                       [0x41] = "throughput transfer received (A)" }

-- Fields of a frame: key in `f`, ProtoField kind, filter name after "tsunagi.", label,
-- display base, value names.
local f = tsunagi.fields
for _, spec in ipairs({
  { "stream_kind", "uint8", "stream_kind", "Connection purpose", base.HEX, stream_kinds },
  { "magic", "uint8", "magic", "Magic", base.HEX },
  { "version", "uint8", "version", "Version", base.DEC },
  { "type", "uint8", "type", "Type", base.DEC, frame_types },
  { "flags", "uint8", "flags", "Flags", base.HEX },
  { "hops", "uint8", "hops", "Hops", base.DEC },
  { "ttl", "uint8", "ttl", "TTL", base.DEC },
  { "reserved", "uint16", "reserved", "Reserved", base.HEX },
  { "src", "int32", "src", "Source rank (-1 = rendezvous)", base.DEC },
  { "dst", "int32", "dst", "Destination rank (-1 = rendezvous)", base.DEC },
  { "seq", "uint32", "seq", "Sequence", base.DEC },
  { "length", "uint32", "length", "Payload length", base.DEC },
  { "filler", "uint64", "filler", "Filler length", base.DEC },
  { "filler_bytes", "bytes", "filler_bytes", "Filler (no information)" },
  { "rank", "int32", "rank", "Rank", base.DEC },
  { "purpose", "uint8", "purpose", "Purpose", base.DEC, purposes },
  { "endpoint", "string", "endpoint", "Endpoint" },
  { "host", "string", "host", "Host" },
  { "site", "string", "site", "Site" },
  { "count", "uint32", "count", "Count", base.DEC },
  { "item", "int32", "rank_item", "Rank", base.DEC },
  { "run_start", "int32", "run_start", "Run from rank", base.DEC },
  { "run_length", "uint32", "run_length", "Run length", base.DEC },
  { "repeat_value", "int32", "repeat_value", "Repeated rank", base.DEC },
  { "repeat_length", "uint32", "repeat_length", "Times", base.DEC },
  { "probes", "uint64", "probes", "RTT probes", base.DEC },
  { "round", "uint32", "round", "Round", base.DEC },
  { "final", "uint8", "final", "Final", base.DEC },
  { "route_dest", "int32", "route.dest", "Destination", base.DEC },
  { "route_dist", "uint16", "route.dist", "Distance", base.DEC },
  { "tag", "uint32", "tag", "Tag", base.DEC },
  { "body", "bytes", "body", "Body" },
  { "probe_id", "uint64", "probe_id", "Probe id", base.DEC },
  { "to", "int32", "to", "To rank", base.DEC },
  { "bytes", "uint64", "bytes", "Bytes", base.DEC },
  { "elapsed", "uint64", "elapsed_ns", "Elapsed (ns)", base.DEC },
  { "ok", "uint8", "ok", "Ok", base.DEC },
  { "rtt", "uint64", "rtt_ns", "RTT (ns, 0 = failed)", base.DEC },
  { "label", "string", "label", "Relay label" },
  { "origin", "string", "origin", "Advert origin" },
  { "advert_seq", "uint64", "advert_seq", "Advert sequence", base.DEC },
  { "settled", "uint8", "settled", "Settled", base.DEC },
  { "neighbour", "string", "neighbour", "Neighbour" },
  { "reason", "string", "reason", "Reason" },
  { "goodbye", "uint32", "goodbye_reason", "Goodbye reason", base.DEC, goodbye_reasons },
  { "leader", "int32", "leader", "Group leader", base.DEC },
  { "parent", "int32", "parent", "Parent leader (-1 = none)", base.DEC },
  { "up", "uint16", "up", "Leader hops to the root", base.DEC },
  { "height", "uint16", "height", "Tree of leaders' height", base.DEC },
  { "extension", "uint8", "extension", "Extension", base.DEC },
  { "nonce", "bytes", "auth.nonce", "Nonce" },
  { "mac", "bytes", "auth.mac", "HMAC-SHA-256" },
}) do
  local key, kind, abbrev, label, display, names = table.unpack(spec)
  f[key] = ProtoField[kind]("tsunagi." .. abbrev, label, display, names)
end

local malformed = ProtoExpert.new("tsunagi.malformed", "Malformed tsunagi data",
                                  expert.group.MALFORMED, expert.severity.ERROR)
tsunagi.experts = { malformed }

local pf = tprobe.fields
local probe_kinds = { [0x50] = "ping (P)", [0x51] = "pong (Q)" }
pf.kind = ProtoField.uint8("tsunagi_probe.kind", "Kind", base.HEX, probe_kinds)
pf.id = ProtoField.uint64("tsunagi_probe.id", "Probe id", base.DEC)
pf.sample = ProtoField.uint32("tsunagi_probe.sample", "Sample", base.DEC)
pf.nonce = ProtoField.bytes("tsunagi_probe.nonce", "Nonce (realnet)")
pf.padding = ProtoField.uint32("tsunagi_probe.padding", "Zero padding (bytes)", base.DEC)
local probe_malformed = ProtoExpert.new("tsunagi_probe.malformed", "Malformed tsunagi probe",
                                        expert.group.MALFORMED, expert.severity.ERROR)
tprobe.experts = { probe_malformed }

local bf = tbulk.fields
bf.prober = ProtoField.uint64("tsunagi_bulk.prober", "Prober process index (ns-3)", base.DEC)
bf.id = ProtoField.uint64("tsunagi_bulk.probe_id", "Probe id", base.DEC)
bf.size = ProtoField.uint64("tsunagi_bulk.size", "Transfer size", base.DEC)
bf.proof = ProtoField.bytes("tsunagi_bulk.proof", "Nonce and MAC (realnet)")
bf.data = ProtoField.uint32("tsunagi_bulk.data", "Transfer bytes in this segment", base.DEC)
bf.ack = ProtoField.uint8("tsunagi_bulk.ack", "Sink's confirmation (A)", base.HEX)

local tcp_stream = Field.new("tcp.stream")
local tcp_seq = Field.new("tcp.seq")
local tcp_srcport = Field.new("tcp.srcport")

-- realnet connections whose first byte was 'B': the rest of the stream is a transfer.
local bulk_streams = {}
function tsunagi.init() bulk_streams = {} end

-- ---------------------------------------------------------------- payload reader

-- A bounds-checked little-endian reader over one frame's payload, like codec.hpp's Reader:
-- the first failure sticks and names what ran out.
local Reader = {}
Reader.__index = Reader

-- Reads the `len` payload bytes at `base` of `tvb`.
local function reader(tvb, base, len, tree)
  return setmetatable({ tvb = tvb, base = base, len = len, pos = 0, tree = tree, err = nil }, Reader)
end

local signed = { [f.rank] = true, [f.item] = true, [f.to] = true, [f.route_dest] = true,
                 [f.run_start] = true, [f.leader] = true, [f.parent] = true,
                 [f.repeat_value] = true }

function Reader:left() return self.len - self.pos end

-- A subtree over the rest of the payload (or a text item when nothing is left).
function Reader:subtree(label, tree)
  local t = tree or self.tree
  if self:left() > 0 then return t:add(tsunagi, self.tvb(self.base + self.pos, self:left()), label) end
  return t:add(tsunagi, label)
end

function Reader:take(n, what)
  if self.err then return nil end
  if self:left() < n then
    self.err = string.format("truncated payload: %s needs %d bytes, %d left", what, n, self:left())
    return nil
  end
  local r = self.tvb(self.base + self.pos, n)
  self.pos = self.pos + n
  return r
end

function Reader:field(field, n, tree)
  local r = self:take(n, n .. "-byte field")
  if not r then return nil end
  (tree or self.tree):add_le(field, r)
  if n == 8 then return r:le_uint64():tonumber() end
  if signed[field] then return r:le_int() end
  return r:le_uint()
end

function Reader:str(field, tree)
  local len_r = self:take(4, "string length")
  if not len_r then return nil end
  local len = len_r:le_uint()
  if len > 256 then
    self.err = string.format("string of %d bytes exceeds limit 256", len)
    return nil
  end
  local t = tree or self.tree
  if len == 0 then
    t:add(field, len_r, "")
    return ""
  end
  local r = self:take(len, "string")
  if not r then return nil end
  t:add(field, self.tvb(self.base + self.pos - len - 4, len + 4), r:string())
  return r:string()
end

function Reader:count(label, item_bytes, limit, tree)
  local n = self:field(f.count, 4, tree)
  if n == nil then return nil end
  if n > (limit or 1048576) or n * item_bytes > self:left() then
    self.err = string.format("%s of %d items does not fit (%d bytes left)", label, n, self:left())
    return nil
  end
  return n
end

-- Writer::i32_list: count, then the ranks.
function Reader:rank_list(label)
  local sub = self:subtree(label)
  local n = self:count(label, 4, nil, sub)
  local ranks = {}
  for i = 1, (n or 0) do ranks[i] = self:field(f.item, 4, sub) end
  sub:append_text(string.format(" (%d)", n or 0))
  return ranks
end

-- Writer::i32_runs: count of runs, then (start, length) per run.
function Reader:rank_runs(label)
  local sub = self:subtree(label)
  local runs = self:field(f.count, 4, sub)
  if runs == nil then return 0 end
  if runs * 8 > self:left() then
    self.err = string.format("list of %d runs does not fit (%d bytes left)", runs, self:left())
    return 0
  end
  local total = 0
  for _ = 1, runs do
    local start = self:field(f.run_start, 4, sub)
    local len = self:field(f.run_length, 4, sub)
    if len == 0 then self.err = "run of 0 values" end
    total = total + (len or 0)
    if start then sub:append_text(string.format(" %d..%d", start, start + (len or 1) - 1)) end
  end
  return total
end

-- Writer::i32_repeats: count of runs, then (value, length) per run of equal values. Returns
-- the number of values and how many of them are 0.
function Reader:rank_repeats(label)
  local sub = self:subtree(label)
  local runs = self:field(f.count, 4, sub)
  if runs == nil then return 0 end
  if runs * 8 > self:left() then
    self.err = string.format("list of %d repeats does not fit (%d bytes left)", runs, self:left())
    return 0
  end
  local total, zeros = 0, 0
  for _ = 1, runs do
    local value = self:field(f.repeat_value, 4, sub)
    local len = self:field(f.repeat_length, 4, sub)
    if len == 0 then self.err = "repeat of 0 values" end
    total = total + (len or 0)
    if value == 0 then zeros = zeros + (len or 0) end
    if value then sub:append_text(string.format(" %d x%d", value, len or 0)) end
  end
  return total, zeros
end

-- Writer::varint (LEB128); returns the value (a Lua number) and the bytes it took.
function Reader:varint()
  local value, scale, at = 0, 1, self.pos
  for i = 1, 10 do
    local b = self:take(1, "varint byte")
    if not b then return nil end
    local byte = b:uint()
    if i == 10 and byte > 1 then self.err = "varint longer than 64 bits" return nil end
    if i > 1 and byte == 0 then self.err = "varint not in its shortest form" return nil end
    value = value + (byte % 128) * scale
    scale = scale * 128
    if byte < 128 then return value, self.tvb(self.base + at, self.pos - at) end
  end
end

-- Writer::u64_deltas: `n` zigzag-coded differences, each from the value before.
function Reader:u64_deltas(field, n, tree)
  if n > self:left() then
    self.err = string.format("%d delta-coded values cannot fit in %d bytes", n, self:left())
    return
  end
  local previous = 0
  for _ = 1, n do
    local code, range = self:varint()
    if code == nil then return end
    local step = (code % 2 == 1) and -((code - 1) / 2) - 1 or code / 2
    previous = (previous + step) % 18446744073709551616  -- wraps as the 64-bit writer does
    ;(tree or self.tree):add(field, range, UInt64.new(previous))
  end
end

-- ---------------------------------------------------------------- payloads, per type

local payloads = {}

payloads[1] = function(r)  -- hello
  local rank = r:field(f.rank, 4)
  local purpose = r:field(f.purpose, 1)
  if purpose and purpose > 4 then r.err = "unknown connection purpose " .. purpose end
  return string.format("r%s %s", tostring(rank), purposes[purpose or -1] or "?")
end

payloads[2] = function(r)  -- register
  local rank = r:field(f.rank, 4)
  local endpoint = r:str(f.endpoint)
  r:str(f.host)
  r:str(f.site)
  if endpoint == "" then r.err = "empty endpoint" end
  return string.format("r%s at %s", tostring(rank), tostring(endpoint))
end

payloads[3] = function(r)  -- directory
  local n = r:count("directory", 8)
  for i = 0, (n or 0) - 1 do
    local entry = r:subtree("rank " .. i)
    local endpoint = r:str(f.endpoint, entry)
    local host = r:str(f.host, entry)
    entry:append_text(string.format(": %s (%s)", tostring(endpoint), tostring(host)))
  end
  return string.format("%d ranks", n or 0)
end

payloads[4] = function(r)  -- rtt_report
  local rank = r:field(f.rank, 4)
  local near = r:rank_list("near ranks")
  r:field(f.probes, 8)
  return string.format("r%s: %d near", tostring(rank), #near)
end

payloads[5] = function(r)  -- groups
  local n = r:count("group list", 4)
  for i = 1, (n or 0) do r:rank_runs("group " .. (i - 1)) end
  if r.err or r:left() == 0 then return string.format("%d groups", n or 0) end
  -- plan = "hierarchical": the receiver's leader links follow its one group.
  local ext = r:field(f.extension, 1)
  if ext ~= 1 then
    r.err = "unknown groups extension " .. tostring(ext)
    return string.format("%d groups", n or 0)
  end
  local leader = r:field(f.leader, 4)
  r:field(f.parent, 4)
  r:field(f.up, 2)
  r:field(f.height, 2)
  local children = r:rank_list("child leaders")
  local below = r:rank_runs("ranks below")
  local via = r:rank_repeats("next hop of each rank below")
  if not r.err and via ~= below then r.err = "ranks below and their next hops differ in number" end
  return string.format("placement: leader r%s, %d children, %d below", tostring(leader), #children,
                       below)
end

payloads[6] = function(r)  -- route_round
  local round = r:field(f.round, 4)
  local final = r:field(f.final, 1)
  if final and final > 1 then r.err = "final flag must be 0 or 1" end
  local n = r:count("route round", 6)
  for _ = 1, (n or 0) do
    r:field(f.route_dest, 4)
    r:field(f.route_dist, 2)
  end
  return string.format("round %s, %d routes%s", tostring(round), n or 0,
                       final == 1 and ", final" or "")
end

-- handshake.hpp: 16-byte nonces, 32-byte HMAC-SHA-256 tags, nothing else.
local NONCE, MAC = 16, 32
local function exact(r, size, name)
  if r:left() ~= size then r.err = string.format("%s: %d bytes, expected %d", name, r:left(), size) end
end
payloads[27] = function(r)  -- auth_challenge: the acceptor's nonce
  exact(r, NONCE, "auth_challenge")
  if not r.err then r.tree:add(f.nonce, r:take(NONCE, "nonce")) end
  return "nonce"
end
payloads[28] = function(r)  -- auth_proof: the initiator's nonce, its MAC
  exact(r, NONCE + MAC, "auth_proof")
  if not r.err then
    r.tree:add(f.nonce, r:take(NONCE, "nonce"))
    r.tree:add(f.mac, r:take(MAC, "mac"))
  end
  return "nonce + mac"
end
payloads[29] = function(r)  -- auth_accept: the acceptor's MAC
  exact(r, MAC, "auth_accept")
  if not r.err then r.tree:add(f.mac, r:take(MAC, "mac")) end
  return "mac"
end

payloads[7] = function(r)  -- data
  local tag = r:field(f.tag, 4)
  if r:left() > 0 then r.tree:add(f.body, r.tvb(r.base + r.pos, r:left())) end
  r.pos = r.len
  return string.format("tag %s", tostring(tag))
end

payloads[11] = function(r)  -- probe_order
  local probe = r:field(f.probe_id, 8)
  local to = r:field(f.to, 4)
  local bytes = r:field(f.bytes, 8)
  if bytes == 0 then r.err = "a throughput probe of 0 bytes" end
  return string.format("probe %s to r%s, %s bytes", tostring(probe), tostring(to), tostring(bytes))
end

payloads[12] = function(r)  -- probe_result
  local probe = r:field(f.probe_id, 8)
  r:field(f.bytes, 8)
  local elapsed = r:field(f.elapsed, 8)
  local ok = r:field(f.ok, 1)
  if ok and ok > 1 then r.err = "ok flag is neither 0 nor 1" end
  return string.format("probe %s: %s ns%s", tostring(probe), tostring(elapsed),
                       ok == 1 and "" or ", failed")
end

payloads[13] = function(r)  -- rtt_order
  local round = r:field(f.round, 4)
  local targets = r:rank_runs("targets")
  return string.format("round %s, %d targets", tostring(round), targets)
end

payloads[14] = function(r)  -- rtt_column
  local round = r:field(f.round, 4)
  local peers = r:rank_runs("peers")
  r:u64_deltas(f.rtt, peers)
  return string.format("round %s, %d RTTs", tostring(round), peers)
end

payloads[15] = function(r)  -- endpoint_query
  return string.format("%d ranks", r:rank_runs("ranks"))
end

-- Writer::front_coded: `n` strings, each the length it shares with the one before and the rest.
local function front_coded_endpoints(r, n)
  if n > r:left() / 2 then
    r.err = string.format("%d front-coded endpoints cannot fit in %d bytes", n, r:left())
    return
  end
  local previous = ""
  for _ = 1, n do
    local at = r.pos
    local shared = r:varint()
    local rest = shared and r:varint()
    if rest == nil then break end
    if shared > #previous then r.err = "endpoint shares more than the one before" break end
    if shared + rest > 256 then r.err = "endpoint exceeds limit 256" break end
    local tail = r:take(rest, "endpoint")
    if rest > 0 and not tail then break end
    local endpoint = previous:sub(1, shared) .. (rest > 0 and tail:string() or "")
    r.tree:add(f.endpoint, r.tvb(r.base + at, r.pos - at), endpoint)
    if endpoint == "" then r.err = "empty endpoint" end
    previous = endpoint
  end
end

payloads[16] = function(r)  -- endpoint_reply
  local ranks = r:rank_runs("ranks")
  front_coded_endpoints(r, ranks)
  return string.format("%d endpoints", ranks)
end

payloads[30] = function(r)  -- window_order: ranks, host offsets (0: measures), their endpoints
  local ranks = r:rank_runs("ranks")
  local offsets, measuring = r:rank_repeats("host offsets")
  if offsets ~= ranks then
    r.err = string.format("host offsets for %d of %d ranks", offsets, ranks)
    return string.format("%d ranks", ranks)
  end
  front_coded_endpoints(r, measuring)
  return string.format("%d ranks, %d measuring", ranks, measuring)
end

payloads[31] = function(r)  -- window_groups: groups as runs, links, what the rounds cost
  local groups = r:varint()
  if groups == nil then return "" end
  if groups > r:left() / 4 then
    r.err = string.format("%d groups do not fit", groups)
    return ""
  end
  for g = 1, groups do r:rank_runs("group " .. g) end
  local links = r:varint()
  if links == nil then return "" end
  if links > r:left() / 3 then
    r.err = string.format("%d links do not fit", links)
    return ""
  end
  for _ = 1, links do
    local a, b, rtt = r:varint(), r:varint(), r:varint()
    if rtt == nil then return "" end
    if a == b then r.err = "a link from a rank to itself" end
  end
  local probes, levels = r:varint(), r:varint()
  r:varint()
  return string.format("%d groups, %d links, %s probes, %s levels", groups, links,
                       tostring(probes), tostring(levels))
end

local function relay_entry(r, tree)
  local label = r:str(f.label, tree)
  r:str(f.site, tree)
  local endpoint = r:str(f.endpoint, tree)
  if label == "" then r.err = "relay without a label" end
  if endpoint == "" then r.err = "relay without an endpoint" end
  return label
end

payloads[17] = function(r)  -- relay_register
  return tostring(relay_entry(r))
end

payloads[18] = function(r)  -- relay_list
  local n = r:count("relay list", 12, 4096)
  for i = 1, (n or 0) do
    local entry = r:subtree("relay " .. (i - 1))
    entry:append_text(": " .. tostring(relay_entry(r, entry)))
  end
  local expected = r:rank_runs("expected ranks")
  return string.format("%d relays, %d ranks", n or 0, expected)
end

payloads[19] = function(r)  -- relay_hello
  local label = r:str(f.label)
  if label == "" then r.err = "relay hello without a label" end
  return tostring(label)
end

payloads[20] = function(r)  -- link_advert
  local origin = r:str(f.origin)
  r:field(f.advert_seq, 8)
  local settled = r:field(f.settled, 1)
  if settled and settled > 1 then r.err = "settled flag " .. settled end
  local n = r:count("neighbour list", 4, 4096)
  for _ = 1, (n or 0) do r:str(f.neighbour) end
  local ranks = r:rank_runs("attached ranks")
  if origin == "" then r.err = "advert without an origin" end
  return string.format("%s: %d links, %d ranks", tostring(origin), n or 0, ranks)
end

payloads[21] = function(r)  -- undeliverable
  local tag = r:field(f.tag, 4)
  r:field(f.seq, 4)
  local reason = r:str(f.reason)
  return string.format("tag %s: %s", tostring(tag), tostring(reason))
end

-- ---------------------------------------------------------------- frames

local function flag(pinfo, item, text)
  item:add_proto_expert_info(malformed, text)
  pinfo.cols.info:append(" [malformed: " .. text .. "]")
end

-- Why a header is refused (wire.cpp, Deframer::parse_header), or nil.
local function header_error(tvb, offset)
  local magic, version, t = tvb(offset, 1):uint(), tvb(offset + 1, 1):uint(), tvb(offset + 2, 1):uint()
  if magic ~= MAGIC then return "bad magic byte " .. magic end
  if version ~= VERSION then return "unsupported version " .. version end
  if t < 1 or t > LAST_TYPE then return "unknown frame type " .. t end
  if tvb(offset + 3, 1):uint() ~= 0 then return "unknown flags" end
  if tvb(offset + 6, 2):uint() ~= 0 then return "reserved header bytes are not zero" end
  local length = tvb(offset + 20, 4):le_uint()
  local limit = small_body[t] and SMALL_BODY or MAX_PAYLOAD
  if length > limit then
    return string.format("oversized payload: %d bytes > %d for a %s frame", length, limit, frame_types[t])
  end
  return nil
end

local function dissect_frame(tvb, offset, pinfo, tree)
  local t = tvb(offset + 2, 1):uint()
  local name = frame_types[t]
  local length = tvb(offset + 20, 4):le_uint()
  local filler = tvb(offset + 24, 8):le_uint64():tonumber()
  local total = HEADER + length + filler
  local item = tree:add(tsunagi, tvb(offset, total), "tsunagi " .. name)
  item:add(f.magic, tvb(offset, 1))
  item:add(f.version, tvb(offset + 1, 1))
  item:add(f.type, tvb(offset + 2, 1))
  item:add(f.flags, tvb(offset + 3, 1))
  item:add(f.hops, tvb(offset + 4, 1))
  item:add(f.ttl, tvb(offset + 5, 1))
  item:add_le(f.reserved, tvb(offset + 6, 2))
  local src, dst = tvb(offset + 8, 4):le_int(), tvb(offset + 12, 4):le_int()
  item:add_le(f.src, tvb(offset + 8, 4))
  item:add_le(f.dst, tvb(offset + 12, 4))
  local seq_item = item:add_le(f.seq, tvb(offset + 16, 4))
  item:add_le(f.length, tvb(offset + 20, 4))
  item:add_le(f.filler, tvb(offset + 24, 8))
  local summary = ""
  local r = reader(tvb, offset + HEADER, length, item)
  if payloads[t] then
    summary = payloads[t](r) or ""
  elseif t == 10 then
    local reason = tvb(offset + 16, 4):le_uint()
    seq_item:append_text(" (" .. (goodbye_reasons[reason] or "evicted") .. ")")
    summary = goodbye_reasons[reason] or "evicted"
  end
  if not r.err and r:left() ~= 0 then
    r.err = string.format("%s: %d trailing bytes", name, r:left())
  end
  if filler > 0 then item:add(f.filler_bytes, tvb(offset + HEADER + length, filler)) end
  -- -1: the rendezvous, or no rank (control frames leave the header's ranks unset).
  local function who(rank) return rank == -1 and "-" or ("r" .. rank) end
  local text = string.format("%s %s>%s", name, who(src), who(dst))
  if summary ~= "" then text = text .. " " .. summary end
  item:append_text(": " .. text)
  pinfo.cols.info:append(text .. "; ")
  if r.err then flag(pinfo, item, r.err) end
  return total
end

-- Bytes the PDU at `offset` takes, 0 when more bytes are needed to tell, or nil, why for a
-- stream that cannot be parsed (it cannot be resynchronised, as in the core).
local function pdu_length(tvb, offset)
  local left = tvb:len() - offset
  local first = tvb(offset, 1):uint()
  if first == 0x46 or first == 0x41 then return 1 end  -- realnet: 'F' opens a frame stream
  if first ~= MAGIC then return nil, "bad magic byte " .. first end
  if left < HEADER then return 0 end
  local why = header_error(tvb, offset)
  if why then return nil, why end
  return HEADER + tvb(offset + 20, 4):le_uint() + tvb(offset + 24, 8):le_uint64():tonumber()
end

-- realnet's 'B' stream: 'B', the size (u64), a 16-byte nonce and a 32-byte MAC proving the
-- run's secret, then that many zero bytes; the sink answers 'A'.
local BULK_HEADER = 1 + 8 + 16 + 32
local function dissect_realnet_bulk(tvb, pinfo, tree, at_start)
  pinfo.cols.protocol = "tsunagi"
  local item = tree:add(tbulk, tvb(), "tsunagi throughput transfer (realnet)")
  if at_start and tvb(0, 1):uint() == 0x42 and tvb:len() >= BULK_HEADER then
    item:add(f.stream_kind, tvb(0, 1))
    item:add_le(bf.size, tvb(1, 8))
    item:add(bf.proof, tvb(9, 48))
    if tvb:len() > BULK_HEADER then
      item:add(bf.data, tvb(BULK_HEADER), tvb:len() - BULK_HEADER)
    end
    pinfo.cols.info = string.format("throughput transfer of %d bytes", tvb(1, 8):le_uint64():tonumber())
  elseif tvb:len() == 1 and tvb(0, 1):uint() == 0x41 then
    item:add(bf.ack, tvb(0, 1))
    pinfo.cols.info = "throughput transfer received"
  else
    item:add(bf.data, tvb(), tvb:len())
    pinfo.cols.info = string.format("throughput transfer, %d bytes", tvb:len())
  end
  return tvb:len()
end

function tsunagi.dissector(tvb, pinfo, tree)
  local stream = tcp_stream() and tcp_stream().value
  local seq = tcp_seq() and tcp_seq().value
  local at_start = seq == 1
  if stream and at_start and tvb(0, 1):uint() == 0x42 then bulk_streams[stream] = true end
  if stream and bulk_streams[stream] then return dissect_realnet_bulk(tvb, pinfo, tree, at_start) end
  pinfo.cols.protocol = "tsunagi"
  pinfo.cols.info = ""
  local offset, total = 0, tvb:len()
  while offset < total do
    local need, why = pdu_length(tvb, offset)
    if need == nil then
      local item = tree:add(tsunagi, tvb(offset), "tsunagi: unparsable stream")
      flag(pinfo, item, why)
      return total
    end
    if need == 0 or offset + need > total then
      pinfo.desegment_offset = offset
      pinfo.desegment_len = need == 0 and DESEGMENT_ONE_MORE_SEGMENT or offset + need - total
      return total
    end
    if need == 1 then
      tree:add(tsunagi, tvb(offset, 1), "tsunagi connection"):add(f.stream_kind, tvb(offset, 1))
      pinfo.cols.info:append("stream opened; ")
    else
      dissect_frame(tvb, offset, pinfo, tree)
    end
    offset = offset + need
  end
  return total
end

-- ---------------------------------------------------------------- RTT probes (UDP)

-- Zeros from `from` to the end.
local function zeros_from(tvb, from)
  for i = from, tvb:len() - 1 do
    if tvb(i, 1):uint() ~= 0 then return false end
  end
  return true
end

-- ns-3's pings pad with zeros after the 13-byte header; realnet's carry a 16-byte nonce first.
local NONCE_END = 13 + 16
local function probe_shape_ok(tvb)
  local n = tvb:len()
  if n < 13 then return false end
  local kind = tvb(0, 1):uint()
  if kind ~= 0x50 and kind ~= 0x51 then return false end
  return zeros_from(tvb, 13) or (n >= NONCE_END and zeros_from(tvb, NONCE_END))
end

function tprobe.dissector(tvb, pinfo, tree)
  pinfo.cols.protocol = "tsunagi"
  local item = tree:add(tprobe, tvb(), "tsunagi RTT probe")
  if not probe_shape_ok(tvb) then
    item:add_proto_expert_info(probe_malformed,
                               "not a ping/pong of 13+ bytes: 'P' or 'Q', id, sample, zero padding")
    pinfo.cols.info = "malformed tsunagi probe"
    return tvb:len()
  end
  item:add(pf.kind, tvb(0, 1))
  item:add_le(pf.id, tvb(1, 8))
  item:add_le(pf.sample, tvb(9, 4))
  local padding_at = 13
  if not zeros_from(tvb, 13) then
    item:add(pf.nonce, tvb(13, 16))
    padding_at = NONCE_END
  end
  item:add(pf.padding, tvb(padding_at), tvb:len() - padding_at)
  pinfo.cols.info = string.format("%s probe %d sample %d, %d bytes",
                                  tvb(0, 1):uint() == 0x50 and "ping" or "pong",
                                  tvb(1, 8):le_uint64():tonumber(), tvb(9, 4):le_uint(), tvb:len())
  return tvb:len()
end

-- ---------------------------------------------------------------- ns-3 bulk port

function tbulk.dissector(tvb, pinfo, tree)
  pinfo.cols.protocol = "tsunagi"
  local item = tree:add(tbulk, tvb(), "tsunagi throughput transfer (ns-3)")
  local seq = tcp_seq() and tcp_seq().value
  if seq == 1 and tvb:len() >= 24 then
    item:add_le(bf.prober, tvb(0, 8))
    item:add_le(bf.id, tvb(8, 8))
    item:add_le(bf.size, tvb(16, 8))
    if tvb:len() > 24 then item:add(bf.data, tvb(24), tvb:len() - 24) end
    pinfo.cols.info = string.format("throughput probe %d: %d bytes",
                                    tvb(8, 8):le_uint64():tonumber(), tvb(16, 8):le_uint64():tonumber())
  else
    item:add(bf.data, tvb(), tvb:len())
    pinfo.cols.info = string.format("throughput transfer, %d bytes", tvb:len())
  end
  return tvb:len()
end

-- ---------------------------------------------------------------- registration

-- ns-3 (sim/ns3/include/tsunagi/sim/ns3/ns3_spec.hpp): process slot k of a host.
DissectorTable.get("tcp.port"):add("7000-7999", tsunagi)
DissectorTable.get("tcp.port"):add("17000-17999", tbulk)
DissectorTable.get("udp.port"):add("14100-15099", tprobe)

-- realnet: any port. A TCP segment that opens with 'F' + a frame header, or is a frame header.
local function tcp_heuristic(tvb, pinfo, tree)
  local n = tvb:len()
  local at = 0
  local first = tvb(0, 1):uint()
  if first == 0x42 and n >= BULK_HEADER and tcp_seq() and tcp_seq().value == 1 then
    local size = tvb(1, 8):le_uint64():tonumber()
    if size == 0 or size > 2 ^ 34 then return false end
    if not zeros_from(tvb, BULK_HEADER) then return false end
    pinfo.conversation = tsunagi
    tsunagi.dissector(tvb, pinfo, tree)
    return true
  end
  if first == 0x46 then at = 1 end
  -- realnet may send its opening 'F' alone, before the first frame.
  local lone_opening = n == 1 and first == 0x46 and tcp_seq() and tcp_seq().value == 1
  if not lone_opening and (n - at < HEADER or header_error(tvb, at)) then return false end
  pinfo.conversation = tsunagi
  tsunagi.dissector(tvb, pinfo, tree)
  return true
end

local function udp_heuristic(tvb, pinfo, tree)
  if tvb:len() > 1500 or not probe_shape_ok(tvb) then return false end
  tprobe.dissector(tvb, pinfo, tree)
  return true
end

tsunagi:register_heuristic("tcp", tcp_heuristic)
tprobe:register_heuristic("udp", udp_heuristic)
