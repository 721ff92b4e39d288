// groups = "partition" with windows (docs/tree-inference.md "The partition method"): the
// rendezvous hands each window's rounds to one of its ranks, the collector, and gets back only
// the window's groups and their links. Both frames are compact (ranks as runs, endpoints
// front-coded, RTTs as varints): the orders cross the rendezvous's one link once per window.
#include <algorithm>

#include "tsunagi/model/messages.hpp"
#include "wire/payload.hpp"

namespace tsunagi::wire {

namespace {

// A rank list read from a peer: every rank in range.
void check_ranks(Reader& r, const std::vector<Rank>& ranks, const char* what) {
  for (Rank rank : ranks) {
    if (!r.ok()) return;
    if (!valid_rank(rank)) r.fail(std::string(what) + " " + std::to_string(rank) + " out of range");
  }
}

}  // namespace

Frame make_window_order(const WindowOrderMsg& m) {
  Writer w;
  w.i32_runs(m.ranks);
  w.i32_repeats(m.rep_offsets);  // mostly 0 (one rank per host): one repeat
  w.front_coded(m.endpoints);
  return framed(FrameType::WindowOrder, w.take());
}

Decoded<WindowOrderMsg> read_window_order(const Frame& f) {
  if (auto e = expect(f, FrameType::WindowOrder)) return *e;
  Reader r(f.payload);
  WindowOrderMsg m;
  m.ranks = r.i32_runs(kMaxRanks);
  check_ranks(r, m.ranks, "window rank");
  if (r.ok() && !std::is_sorted(m.ranks.begin(), m.ranks.end()))
    r.fail("window ranks not in order");
  if (r.ok() && std::adjacent_find(m.ranks.begin(), m.ranks.end()) != m.ranks.end())
    r.fail("a window rank twice");
  m.rep_offsets = r.i32_repeats(m.ranks.size());
  if (r.ok() && m.rep_offsets.size() != m.ranks.size())
    r.fail("host offsets for " + std::to_string(m.rep_offsets.size()) + " of " +
           std::to_string(m.ranks.size()) + " ranks");
  std::size_t measuring = 0;
  for (std::size_t i = 0; r.ok() && i < m.rep_offsets.size(); ++i) {
    const std::int32_t back = m.rep_offsets[i];
    // The first rank of a host is itself a measuring rank (offset 0) and comes before its mates.
    if (back < 0 || static_cast<std::size_t>(back) > i ||
        m.rep_offsets[i - static_cast<std::size_t>(back)] != 0)
      r.fail("host offset " + std::to_string(back) + " of rank " + std::to_string(m.ranks[i]) +
             " names no measuring rank");
    measuring += back == 0 ? 1 : 0;
  }
  if (r.ok() && measuring * 2 > r.remaining())
    r.fail(std::to_string(measuring) + " endpoints do not fit");
  if (r.ok()) m.endpoints = r.front_coded(measuring, kMaxEndpointLength);
  for (std::size_t i = 0; r.ok() && i < m.endpoints.size(); ++i)
    if (m.endpoints[i].empty()) r.fail("empty endpoint in a window order");
  return finish(r, m, "window_order");
}

Frame make_window_groups(const WindowGroupsMsg& m) {
  Writer w;
  w.varint(m.groups.size());
  for (const auto& group : m.groups) w.i32_runs(group);
  w.varint(m.links.size());
  for (const WindowLink& link : m.links) {
    w.varint(static_cast<std::uint64_t>(link.a));
    w.varint(static_cast<std::uint64_t>(link.b));
    w.varint(link.rtt);
  }
  w.varint(m.probes);
  w.varint(m.levels);
  w.varint(m.max_probes_per_rank);
  return framed(FrameType::WindowGroups, w.take());
}

Decoded<WindowGroupsMsg> read_window_groups(const Frame& f) {
  if (auto e = expect(f, FrameType::WindowGroups)) return *e;
  Reader r(f.payload);
  WindowGroupsMsg m;
  // Each group takes at least its 4-byte run count, each link 3 bytes: counts beyond what
  // arrived are garbage, refused before anything is allocated for them.
  const std::uint64_t groups = r.varint();
  if (r.ok() && groups > r.remaining() / 4) r.fail(std::to_string(groups) + " groups do not fit");
  std::size_t ranks = 0;
  for (std::uint64_t i = 0; r.ok() && i < groups; ++i) {
    m.groups.push_back(r.i32_runs(kMaxRanks - ranks));
    ranks += m.groups.back().size();
    check_ranks(r, m.groups.back(), "group member");
    if (r.ok() && m.groups.back().empty()) r.fail("an empty group");
  }
  const std::uint64_t links = r.ok() ? r.varint() : 0;
  if (r.ok() && links > r.remaining() / 3) r.fail(std::to_string(links) + " links do not fit");
  for (std::uint64_t i = 0; r.ok() && i < links; ++i) {
    WindowLink link;
    const std::uint64_t a = r.varint();
    const std::uint64_t b = r.varint();
    link.rtt = r.varint();
    if (!r.ok()) break;
    if (a >= kMaxRanks || b >= kMaxRanks || a == b) {
      r.fail("a link between ranks " + std::to_string(a) + " and " + std::to_string(b));
      break;
    }
    link.a = static_cast<Rank>(a);
    link.b = static_cast<Rank>(b);
    m.links.push_back(link);
  }
  m.probes = r.ok() ? r.varint() : 0;
  const std::uint64_t levels = r.ok() ? r.varint() : 0;
  if (r.ok() && levels > kMaxRanks) r.fail(std::to_string(levels) + " levels");
  m.levels = static_cast<std::uint32_t>(levels);
  m.max_probes_per_rank = r.ok() ? r.varint() : 0;
  return finish(r, m, "window_groups");
}

}  // namespace tsunagi::wire
