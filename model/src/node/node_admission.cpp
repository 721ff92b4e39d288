// Which connection may send a node which frame, and whether the ranks its header names exist.
//
// Anyone who can reach a node's listener can open a connection and claim any rank in its hello,
// so the claim proves nothing; the connection does. Control frames steer the node's whole life
// (the directory, the groups, probe orders, endpoints, the start and the end of the run), so
// they are obeyed only on the connection the node opened to the rendezvous itself. The one
// exception: RTT orders and the endpoints for them also come from a window's collector, on a
// connection of purpose Collect that proved the run's secret, during inference only; they make
// the node measure RTTs and answer on that connection, nothing more. Data-plane
// frames come from the overlay's peers and from the relay the node attached to, never from the
// rendezvous. Anything else is refused with a reason (frame_rejected) and its connection closed
// (docs/security.md, "Hostile input").
#include "node/node_admission.hpp"

#include "tsunagi/model/wire.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {

namespace {

std::string only_from(const wire::Frame& frame, const char* who) {
  return std::string(wire::to_string(frame.type)) + " frames come from " + who + " only";
}

}  // namespace

std::optional<std::string> node_refusal(const FrameSource& source, const NodeConn& c,
                                        const wire::Frame& frame) {
  using wire::FrameType;
  using wire::unknown_rank;
  const bool from_rendezvous = source.rendezvous;
  const bool from_relay = source.relay;
  const int n = source.processes;
  const bool from_peer =
      c.purpose == wire::ConnPurpose::Static || c.purpose == wire::ConnPurpose::Shortcut;
  // A window's collector (node_collector.cpp) connected to us to order RTTs; we answer there.
  const bool from_collector = c.purpose == wire::ConnPurpose::Collect && !c.outgoing;
  switch (frame.type) {
    case FrameType::RttOrder:
    case FrameType::EndpointReply:
      if (!from_rendezvous && !from_collector)
        return only_from(frame, "the rendezvous and a window's collector");
      return std::nullopt;
    case FrameType::RttColumn:
      // Only from a leader this node ordered, on the connection it opened to it.
      if (c.purpose != wire::ConnPurpose::Collect || !c.outgoing)
        return only_from(frame, "leaders this node ordered");
      return std::nullopt;
    case FrameType::Directory:
    case FrameType::GroupsMsg:
    case FrameType::ProbeOrder:
    case FrameType::WindowOrder:
    case FrameType::RelayList:
    case FrameType::Start:
    case FrameType::Shutdown:
    case FrameType::Release:
      if (!from_rendezvous) return only_from(frame, "the rendezvous");
      return std::nullopt;
    case FrameType::ProbeTurnGrant:
      if (!from_rendezvous) return only_from(frame, "the rendezvous");
      return unknown_rank(frame.dst, n, "probe_turn_grant target");
    case FrameType::PeerUnreachable:
      // The rendezvous passes on the source's own report; the source must exist.
      if (!from_rendezvous) return only_from(frame, "the rendezvous");
      return unknown_rank(frame.src, n, "peer_unreachable source");
    case FrameType::RouteRound:
      if (c.purpose != wire::ConnPurpose::Static) return only_from(frame, "static neighbours");
      return std::nullopt;
    case FrameType::Goodbye:
      if (c.purpose != wire::ConnPurpose::Shortcut) return only_from(frame, "shortcuts");
      return std::nullopt;
    case FrameType::Data:
      // Routes, shortcuts and workloads are indexed by these ranks.
      if (!from_peer && !from_relay) return only_from(frame, "peers and the relay");
      if (auto why = unknown_rank(frame.src, n, "data source")) return why;
      return unknown_rank(frame.dst, n, "data destination");
    case FrameType::Undeliverable:
      // From the relay, or passed on by a static neighbour of the site.
      if (!from_relay && c.purpose != wire::ConnPurpose::Static)
        return only_from(frame, "the relay");
      if (auto why = unknown_rank(frame.src, n, "undeliverable source")) return why;
      return unknown_rank(frame.dst, n, "undeliverable destination");
    default:
      return std::string("unexpected ") + wire::to_string(frame.type) + " frame";
  }
}

}  // namespace tsunagi
