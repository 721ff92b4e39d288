// Which connection may send the rendezvous which frame.
//
// The rendezvous listens for anyone. A connection becomes a rank's by registering (or a
// relay's); until then it may only greet and register. Everything a rank reports — RTT views
// and columns, probe results, endpoint queries, unreachable peers, settled, done — counts only
// from the connection that registered that rank, and only for that rank: otherwise one stranger
// could read every endpoint of the run, or end it by sending Done n times (docs/security.md,
// "Hostile input"). Ranks named in a report must be processes of the run.
#include "rendezvous/rendezvous.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {

namespace {

std::string from_unregistered(const wire::Frame& frame) {
  return std::string(wire::to_string(frame.type)) +
         " from a connection that has not registered as a rank";
}

}  // namespace

std::optional<std::string> Rendezvous::refusal(ConnId id, const wire::Frame& frame) {
  using wire::FrameType;
  const Rank rank = conns_[id].rank;
  const bool registered = rank != kNoRank;
  switch (frame.type) {
    case FrameType::Hello:
    case FrameType::ShutdownAck:  // only the acks asked for count (on_shutdown_ack)
      return std::nullopt;
    case FrameType::Register:
    case FrameType::RelayRegister:
      // One identity per connection: a second register would take over another rank's slot.
      if (registered || relays_.is_relay(id))
        return std::string("this connection registered already");
      return std::nullopt;
    case FrameType::ProbeTurn:
      if (!registered) return from_unregistered(frame);
      if (frame.src != rank)
        return std::string("probe_turn for rank ") + std::to_string(frame.src) + " from rank " +
               std::to_string(rank) + "'s connection";
      if (frame.seq > 1) return std::string("probe_turn with seq ") + std::to_string(frame.seq);
      return wire::unknown_rank(frame.dst, n_, "probe_turn target");
    case FrameType::Done:
    case FrameType::Settled:
      if (!registered) return from_unregistered(frame);
      if (frame.src != rank)
        return std::string(wire::to_string(frame.type)) + " for rank " + std::to_string(frame.src) +
               " from rank " + std::to_string(rank) + "'s connection";
      return std::nullopt;
    case FrameType::RttReport: {
      if (!registered) return from_unregistered(frame);
      auto msg = wire::read_rtt_report(frame);  // malformed: on_rtt_report says why
      if (auto* report = std::get_if<wire::RttReportMsg>(&msg))
        return wire::unknown_rank_in(report->near, n_, "near");
      return std::nullopt;
    }
    case FrameType::RttColumn: {
      if (!registered) return from_unregistered(frame);
      auto msg = wire::read_rtt_column(frame);
      if (auto* column = std::get_if<wire::RttColumnMsg>(&msg))
        return wire::unknown_rank_in(column->peers, n_, "measured");
      return std::nullopt;
    }
    case FrameType::ProbeResult:
    case FrameType::EndpointQuery:
    case FrameType::WindowGroups:
    case FrameType::PeerUnreachable:
      if (!registered) return from_unregistered(frame);
      return std::nullopt;
    default:
      return std::nullopt;  // on_frame rejects what the rendezvous never takes
  }
}

}  // namespace tsunagi
