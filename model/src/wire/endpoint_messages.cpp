// Directory on demand (docs/architecture.md): at 10,000 processes a full directory sent to every
// node is N^2 endpoints (3 GB through the rendezvous's link), so nodes ask for the few hundred
// endpoints they use. At 100,000 processes the probers still ask for about 1.3 million
// endpoints through that one link, so ranks go as runs and endpoints front-coded.
#include <algorithm>

#include "tsunagi/model/messages.hpp"
#include "wire/payload.hpp"

namespace tsunagi::wire {

Frame make_endpoint_query(const EndpointQueryMsg& m) {
  Writer w;
  w.i32_runs(m.ranks);
  return framed(FrameType::EndpointQuery, w.take());
}

Decoded<EndpointQueryMsg> read_endpoint_query(const Frame& f) {
  if (auto e = expect(f, FrameType::EndpointQuery)) return *e;
  Reader r(f.payload);
  EndpointQueryMsg m;
  m.ranks = r.i32_runs(kMaxRanks);
  for (Rank rank : m.ranks) {
    if (r.ok() && !valid_rank(rank)) r.fail("rank " + std::to_string(rank) + " out of range");
  }
  return finish(r, m, "endpoint_query");
}

Frame make_endpoint_reply(const EndpointReplyMsg& m) {
  Writer w;
  w.i32_runs(m.ranks);
  w.front_coded(m.endpoints);
  return framed(FrameType::EndpointReply, w.take());
}

Decoded<EndpointReplyMsg> read_endpoint_reply(const Frame& f) {
  if (auto e = expect(f, FrameType::EndpointReply)) return *e;
  Reader r(f.payload);
  EndpointReplyMsg m;
  // Every endpoint takes at least 2 bytes: no more ranks than half the bytes that arrived.
  m.ranks = r.i32_runs(std::min(kMaxRanks, r.remaining() / 2));
  m.endpoints = r.front_coded(m.ranks.size(), kMaxEndpointLength);
  for (std::size_t i = 0; r.ok() && i < m.ranks.size(); ++i) {
    if (!valid_rank(m.ranks[i])) r.fail("rank " + std::to_string(m.ranks[i]) + " out of range");
    if (r.ok() && m.endpoints[i].empty())
      r.fail("empty endpoint for rank " + std::to_string(m.ranks[i]));
  }
  return finish(r, m, "endpoint_reply");
}

}  // namespace tsunagi::wire
