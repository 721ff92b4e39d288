#include "tsunagi/model/messages.hpp"

#include <algorithm>

#include "tsunagi/model/codec.hpp"
#include "wire/payload.hpp"

namespace tsunagi::wire {

Frame make_hello(const HelloMsg& m) {
  Writer w;
  w.i32(m.rank);
  w.u8(static_cast<std::uint8_t>(m.purpose));
  return framed(FrameType::Hello, w.take(), m.rank);
}

Decoded<HelloMsg> read_hello(const Frame& f) {
  if (auto e = expect(f, FrameType::Hello)) return *e;
  Reader r(f.payload);
  HelloMsg m;
  m.rank = r.i32();
  std::uint8_t purpose = r.u8();
  if (r.ok() && purpose > static_cast<std::uint8_t>(ConnPurpose::Collect)) {
    r.fail("unknown connection purpose " + std::to_string(purpose));
  }
  if (r.ok() && m.rank != kNoRank && !valid_rank(m.rank)) r.fail("rank out of range");
  m.purpose = static_cast<ConnPurpose>(purpose);
  return finish(r, m, "hello");
}

Frame make_register(const RegisterMsg& m) {
  Writer w;
  w.i32(m.rank);
  w.str(m.endpoint);
  w.str(m.host);
  w.str(m.site);
  return framed(FrameType::Register, w.take(), m.rank);
}

Decoded<RegisterMsg> read_register(const Frame& f) {
  if (auto e = expect(f, FrameType::Register)) return *e;
  Reader r(f.payload);
  RegisterMsg m;
  m.rank = r.i32();
  m.endpoint = r.str(kMaxEndpointLength);
  m.host = r.str(kMaxEndpointLength);
  m.site = r.str(kMaxEndpointLength);
  if (r.ok() && !valid_rank(m.rank)) r.fail("rank out of range");
  if (r.ok() && m.endpoint.empty()) r.fail("empty endpoint");
  return finish(r, m, "register");
}

Frame make_directory(const DirectoryMsg& m) {
  Writer w;
  w.u32(static_cast<std::uint32_t>(m.endpoints.size()));
  for (std::size_t i = 0; i < m.endpoints.size(); ++i) {
    w.str(m.endpoints[i]);
    w.str(i < m.hosts.size() ? m.hosts[i] : std::string());
  }
  return framed(FrameType::Directory, w.take());
}

Decoded<DirectoryMsg> read_directory(const Frame& f) {
  if (auto e = expect(f, FrameType::Directory)) return *e;
  Reader r(f.payload);
  DirectoryMsg m;
  std::uint32_t count = r.u32();
  // Each entry takes at least two 4-byte lengths: reject counts the payload cannot hold.
  if (r.ok() && (count > kMaxRanks || count * std::size_t{8} > r.remaining())) {
    r.fail("directory of " + std::to_string(count) + " entries does not fit");
  }
  if (r.ok()) {
    m.endpoints.reserve(count);
    m.hosts.reserve(count);
  }
  for (std::uint32_t i = 0; r.ok() && i < count; ++i) {
    m.endpoints.push_back(r.str(kMaxEndpointLength));
    m.hosts.push_back(r.str(kMaxEndpointLength));
  }
  return finish(r, m, "directory");
}

Frame make_rtt_report(const RttReportMsg& m) {
  Writer w;
  w.i32(m.rank);
  w.i32_list(m.near);
  w.u64(m.probes);
  return framed(FrameType::RttReport, w.take(), m.rank);
}

Decoded<RttReportMsg> read_rtt_report(const Frame& f) {
  if (auto e = expect(f, FrameType::RttReport)) return *e;
  Reader r(f.payload);
  RttReportMsg m;
  m.rank = r.i32();
  m.near = r.i32_list(kMaxRanks);
  m.probes = r.u64();
  if (r.ok() && !valid_rank(m.rank)) r.fail("rank out of range");
  return finish(r, m, "rtt_report");
}

Frame make_probe_order(const ProbeOrderMsg& m) {
  Writer w;
  w.u64(m.probe);
  w.i32(m.to);
  w.u64(m.bytes);
  return framed(FrameType::ProbeOrder, w.take());
}

Decoded<ProbeOrderMsg> read_probe_order(const Frame& f) {
  if (auto e = expect(f, FrameType::ProbeOrder)) return *e;
  Reader r(f.payload);
  ProbeOrderMsg m;
  m.probe = r.u64();
  m.to = r.i32();
  m.bytes = r.u64();
  if (r.ok() && !valid_rank(m.to)) r.fail("rank out of range");
  if (r.ok() && m.bytes == 0) r.fail("a throughput probe of 0 bytes");
  return finish(r, m, "probe_order");
}

Frame make_rtt_order(const RttOrderMsg& m) {
  Writer w;
  w.u32(m.round);
  w.i32_runs(m.targets);  // a window's ranks are consecutive: a few runs, not 4 bytes each
  return framed(FrameType::RttOrder, w.take());
}

Decoded<RttOrderMsg> read_rtt_order(const Frame& f) {
  if (auto e = expect(f, FrameType::RttOrder)) return *e;
  Reader r(f.payload);
  RttOrderMsg m;
  m.round = r.u32();
  m.targets = r.i32_runs(kMaxRanks);
  for (Rank t : m.targets)
    if (r.ok() && !valid_rank(t)) r.fail("rank out of range");
  return finish(r, m, "rtt_order");
}

Frame make_rtt_column(const RttColumnMsg& m) {
  Writer w;
  // Every leader's column passes the rendezvous's one link: at 100,000 processes 1.3 million
  // RTTs. Runs of peers and delta-coded RTTs make that 1-3 bytes per RTT instead of 12.
  w.u32(m.round);
  w.i32_runs(m.peers);
  w.u64_deltas(m.rtts);
  return framed(FrameType::RttColumn, w.take());
}

Decoded<RttColumnMsg> read_rtt_column(const Frame& f) {
  if (auto e = expect(f, FrameType::RttColumn)) return *e;
  Reader r(f.payload);
  RttColumnMsg m;
  m.round = r.u32();
  // Every peer's RTT takes at least a byte: no more peers than bytes arrived.
  m.peers = r.i32_runs(std::min(kMaxRanks, r.remaining()));
  m.rtts = r.u64_deltas(m.peers.size());
  for (Rank p : m.peers)
    if (r.ok() && !valid_rank(p)) r.fail("rank out of range");
  return finish(r, m, "rtt_column");
}

Frame make_probe_result(const ProbeResultMsg& m) {
  Writer w;
  w.u64(m.probe);
  w.u64(m.bytes);
  w.u64(static_cast<std::uint64_t>(m.elapsed));
  w.u8(m.ok ? 1 : 0);
  return framed(FrameType::ProbeResult, w.take());
}

Decoded<ProbeResultMsg> read_probe_result(const Frame& f) {
  if (auto e = expect(f, FrameType::ProbeResult)) return *e;
  Reader r(f.payload);
  ProbeResultMsg m;
  m.probe = r.u64();
  m.bytes = r.u64();
  m.elapsed = static_cast<TimeNs>(r.u64());
  const std::uint8_t ok = r.u8();
  if (r.ok() && ok > 1) r.fail("ok flag is neither 0 nor 1");
  if (r.ok() && m.elapsed < 0) r.fail("negative duration");
  m.ok = ok == 1;
  return finish(r, m, "probe_result");
}

Frame make_groups(const GroupsMsgBody& m) {
  Writer w;
  w.u32(static_cast<std::uint32_t>(m.groups.size()));
  for (const auto& g : m.groups) w.i32_runs(g);
  // Leader links follow the groups only in a hierarchical run, so every other groups frame
  // stays byte for byte what it was.
  if (m.links) {
    const LeaderLinks& l = *m.links;
    w.u8(1);
    w.i32(l.leader);
    w.i32(l.parent);
    w.u16(l.up);
    w.u16(l.height);
    w.i32_list(l.children);
    w.i32_runs(l.below);
    w.i32_repeats(l.below_via);  // one child per subtree: a run each
  }
  return framed(FrameType::GroupsMsg, w.take());
}

namespace {

LeaderLinks read_leader_links(Reader& r) {
  LeaderLinks l;
  if (r.u8() != 1) r.fail("unknown groups extension");
  l.leader = r.i32();
  l.parent = r.i32();
  l.up = r.u16();
  l.height = r.u16();
  l.children = r.i32_list(kMaxRanks);
  l.below = r.i32_runs(kMaxRanks);
  l.below_via = r.i32_repeats(kMaxRanks);
  if (r.ok() && !valid_rank(l.leader)) r.fail("leader out of range");
  if (r.ok() && l.parent != kNoRank && !valid_rank(l.parent)) r.fail("parent out of range");
  if (r.ok() && l.below.size() != l.below_via.size())
    r.fail("ranks below and their next hops differ in number");
  return l;
}

}  // namespace

Decoded<GroupsMsgBody> read_groups(const Frame& f) {
  if (auto e = expect(f, FrameType::GroupsMsg)) return *e;
  Reader r(f.payload);
  GroupsMsgBody m;
  std::uint32_t count = r.u32();
  if (r.ok() && (count > kMaxRanks || count * std::size_t{4} > r.remaining())) {
    r.fail("group list of " + std::to_string(count) + " groups does not fit");
  }
  std::size_t ranks = 0;
  for (std::uint32_t i = 0; r.ok() && i < count; ++i) {
    m.groups.push_back(r.i32_runs(kMaxRanks - ranks));
    ranks += m.groups.back().size();
  }
  if (r.ok() && r.remaining() > 0) m.links = read_leader_links(r);
  return finish(r, m, "groups");
}

Frame make_route_round(Rank src, Rank dst, const RouteRoundMsg& m) {
  Writer w;
  w.u32(m.round);
  w.u8(m.final ? 1 : 0);
  w.u32(static_cast<std::uint32_t>(m.entries.size()));
  for (const auto& e : m.entries) {
    w.i32(e.dest);
    w.u16(e.dist);
  }
  return framed(FrameType::RouteRound, w.take(), src, dst);
}

Decoded<RouteRoundMsg> read_route_round(const Frame& f) {
  if (auto e = expect(f, FrameType::RouteRound)) return *e;
  Reader r(f.payload);
  RouteRoundMsg m;
  m.round = r.u32();
  std::uint8_t final_flag = r.u8();
  if (r.ok() && final_flag > 1) r.fail("final flag must be 0 or 1");
  m.final = final_flag == 1;
  std::uint32_t count = r.u32();
  if (r.ok() && (count > kMaxRanks || count * std::size_t{6} > r.remaining())) {
    r.fail("route round of " + std::to_string(count) + " entries does not fit");
  }
  if (r.ok()) m.entries.resize(count);
  for (std::uint32_t i = 0; r.ok() && i < count; ++i) {
    m.entries[i].dest = r.i32();
    m.entries[i].dist = r.u16();
    if (r.ok() && !valid_rank(m.entries[i].dest)) r.fail("route destination out of range");
  }
  return finish(r, m, "route_round");
}

Frame make_data(Rank src, Rank dst, std::uint32_t seq, const DataMsg& m, std::uint64_t filler) {
  Writer w;
  w.buffer().reserve(4 + m.body.size());
  w.u32(m.tag);
  Bytes payload = w.take();
  payload.insert(payload.end(), m.body.begin(), m.body.end());
  Frame f = framed(FrameType::Data, std::move(payload), src, dst);
  f.seq = seq;
  f.filler = filler;
  return f;
}

Decoded<DataMsg> read_data(const Frame& f) {
  if (auto e = expect(f, FrameType::Data)) return *e;
  Reader r(f.payload);
  DataMsg m;
  m.tag = r.u32();
  if (!r.ok()) return DecodeError{"data: " + r.error()};
  if (!valid_rank(f.src) || !valid_rank(f.dst)) return DecodeError{"data: rank out of range"};
  m.body.assign(f.payload.begin() + 4, f.payload.end());
  return m;
}

Frame make_done(Rank rank) {
  return framed(FrameType::Done, {}, rank);
}
Frame make_settled(Rank rank) {
  return framed(FrameType::Settled, {}, rank);
}
Frame make_start() {
  return framed(FrameType::Start, {});
}
Frame make_peer_unreachable(Rank from, Rank to) {
  return framed(FrameType::PeerUnreachable, {}, from, to);
}

Frame make_probe_turn(Rank from, Rank to, bool done) {
  Frame f = framed(FrameType::ProbeTurn, {}, from, to);
  f.seq = done ? 1 : 0;
  return f;
}

Frame make_probe_turn_grant(Rank from, Rank to) {
  return framed(FrameType::ProbeTurnGrant, {}, from, to);
}
Frame make_shutdown() {
  return framed(FrameType::Shutdown, {});
}
Frame make_shutdown_ack() {
  return framed(FrameType::ShutdownAck, {});
}
Frame make_release() {
  return framed(FrameType::Release, {});
}
Frame make_goodbye(GoodbyeReason reason) {
  Frame f = framed(FrameType::Goodbye, {});
  f.seq = static_cast<std::uint32_t>(reason);
  return f;
}
GoodbyeReason goodbye_reason(const Frame& f) {
  return f.seq == static_cast<std::uint32_t>(GoodbyeReason::Duplicate) ? GoodbyeReason::Duplicate
                                                                       : GoodbyeReason::Evicted;
}

}  // namespace tsunagi::wire
