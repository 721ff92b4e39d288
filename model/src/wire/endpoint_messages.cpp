// Directory on demand (docs/architecture.md): at 10,000 processes a full directory sent to every
// node is N^2 endpoints (3 GB through the rendezvous's link), so nodes ask for the few hundred
// endpoints they use.
#include "tsunagi/model/messages.hpp"
#include "wire/payload.hpp"

namespace tsunagi::wire {

Frame make_endpoint_query(const EndpointQueryMsg& m) {
  Writer w;
  w.i32_list(m.ranks);
  return framed(FrameType::EndpointQuery, w.take());
}

Decoded<EndpointQueryMsg> read_endpoint_query(const Frame& f) {
  if (auto e = expect(f, FrameType::EndpointQuery)) return *e;
  Reader r(f.payload);
  EndpointQueryMsg m;
  m.ranks = r.i32_list(kMaxRanks);
  for (Rank rank : m.ranks) {
    if (r.ok() && !valid_rank(rank)) r.fail("rank " + std::to_string(rank) + " out of range");
  }
  return finish(r, m, "endpoint_query");
}

Frame make_endpoint_reply(const EndpointReplyMsg& m) {
  Writer w;
  w.i32_list(m.ranks);
  for (const std::string& endpoint : m.endpoints) w.str(endpoint);
  return framed(FrameType::EndpointReply, w.take());
}

Decoded<EndpointReplyMsg> read_endpoint_reply(const Frame& f) {
  if (auto e = expect(f, FrameType::EndpointReply)) return *e;
  Reader r(f.payload);
  EndpointReplyMsg m;
  m.ranks = r.i32_list(kMaxRanks);
  for (std::size_t i = 0; r.ok() && i < m.ranks.size(); ++i) {
    if (!valid_rank(m.ranks[i])) r.fail("rank " + std::to_string(m.ranks[i]) + " out of range");
    std::string endpoint = r.str(kMaxEndpointLength);
    if (r.ok() && endpoint.empty()) r.fail("empty endpoint for rank " + std::to_string(m.ranks[i]));
    m.endpoints.push_back(std::move(endpoint));
  }
  return finish(r, m, "endpoint_reply");
}

}  // namespace tsunagi::wire
