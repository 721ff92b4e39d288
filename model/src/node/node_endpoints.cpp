// Directory on demand: the endpoints a node needs and has not got yet are asked of the
// rendezvous, and everything that waited for them carries on when they come.
#include <utility>

#include "node/node.hpp"

namespace tsunagi {

// Directory on demand: true when every rank's endpoint is known; otherwise asks the rendezvous
// for the missing ones (once) and the caller waits for on_endpoint_reply.
bool Node::have_endpoints(const std::vector<Rank>& ranks) {
  std::vector<Rank> ask = endpoints_.to_ask(ranks);
  if (!ask.empty()) send_frame(rendezvous_conn_, wire::make_endpoint_query({std::move(ask)}));
  for (Rank r : ranks) {
    if (endpoints_.find(r) == nullptr) return false;
  }
  return true;
}

// Everything that waited for endpoints tries again.
void Node::on_endpoint_reply(const wire::EndpointReplyMsg& reply) {
  endpoints_.learn(reply.ranks, reply.endpoints);
  if (inference_.ordered_round_) inference_.issue_probes();
  for (const wire::ProbeOrderMsg& order : std::exchange(inference_.orders_awaiting_endpoints_, {}))
    inference_.on_probe_order(order);
  overlay_.open_more_static();
  std::vector<Rank> still_waiting;
  for (Rank peer : shortcuts_.shortcuts_awaiting_endpoints_) {
    if (const Endpoint* to = endpoints_.find(peer)) {
      open_connection(*to, peer, wire::ConnPurpose::Shortcut);
    } else {
      still_waiting.push_back(peer);
    }
  }
  shortcuts_.shortcuts_awaiting_endpoints_ = std::move(still_waiting);
}

}  // namespace tsunagi
