// The node's control frames after admission (node_frames.hpp): each decoded, its ranks checked,
// and handed to the part that holds what it is about.
#include "node/node_frames.hpp"

#include "node/node.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {

void NodeFrames::dispatch(ConnId id, NodeConn& c, wire::Frame frame) {
  using wire::FrameType;
  switch (frame.type) {
    case FrameType::Directory: {
      auto msg = wire::read_directory(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
      return node_.inference_.on_directory(std::get<wire::DirectoryMsg>(std::move(msg)));
    }
    case FrameType::GroupsMsg: {
      auto msg = wire::read_groups(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
      auto& body = std::get<wire::GroupsMsgBody>(msg);
      for (const auto& group : body.groups)
        if (auto why = wire::unknown_rank_in(group, node_.n_, "group member"))
          return node_.reject(id, *why);
      if (auto why = node_.overlay_.placement_refusal(body)) return node_.reject(id, *why);
      return node_.overlay_.on_groups(std::move(body));
    }
    case FrameType::ProbeOrder: {
      auto msg = wire::read_probe_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
      return node_.inference_.on_probe_order(std::get<wire::ProbeOrderMsg>(msg));
    }
    case FrameType::RttOrder: {
      auto msg = wire::read_rtt_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
      auto& order = std::get<wire::RttOrderMsg>(msg);
      if (auto why = wire::unknown_rank_in(order.targets, node_.n_, "rtt order target"))
        return node_.reject(id, *why);
      return node_.inference_.on_rtt_order(std::move(order), id);
    }
    case FrameType::RttColumn: {
      auto msg = wire::read_rtt_column(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
      const auto& column = std::get<wire::RttColumnMsg>(msg);
      if (auto why = wire::unknown_rank_in(column.peers, node_.n_, "measured"))
        return node_.reject(id, *why);
      return node_.collecting_.on_collect_answer(c.peer, column);
    }
    case FrameType::WindowOrder: {
      auto msg = wire::read_window_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
      const auto& order = std::get<wire::WindowOrderMsg>(msg);
      if (auto why = wire::unknown_rank_in(order.ranks, node_.n_, "window rank"))
        return node_.reject(id, *why);
      return node_.collecting_.on_window_order(order);
    }
    case FrameType::EndpointReply: {
      auto msg = wire::read_endpoint_reply(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
      const auto& reply = std::get<wire::EndpointReplyMsg>(msg);
      if (auto why = wire::unknown_rank_in(reply.ranks, node_.n_, "endpoint reply"))
        return node_.reject(id, *why);
      return node_.on_endpoint_reply(reply);
    }
    case FrameType::RouteRound:
      return node_.overlay_.on_route_round(c.peer, frame);
    case FrameType::Data:
      if (c.purpose == wire::ConnPurpose::Shortcut) node_.shortcuts_.touch_shortcut(c.peer, id);
      return node_.messaging_.on_data(std::move(frame));
    case FrameType::RelayList:
      return node_.relay_.on_relay_list(id, frame);
    case FrameType::Undeliverable:
      return node_.relay_.on_undeliverable_notice(frame);
    case FrameType::Start:
      return node_.work_.on_start();
    case FrameType::ProbeTurnGrant:
      return node_.windows_.on_turn(frame.src, frame.dst);
    case FrameType::PeerUnreachable:
      // The peer's connect to us failed: stop waiting for it; routes go around.
      if (!node_.overlay_.static_conns_.count(frame.src))
        node_.overlay_.static_peer_failed(frame.src);
      return;
    case FrameType::Shutdown:
      return node_.work_.on_shutdown();
    case FrameType::Release:
      return node_.work_.on_release();
    case FrameType::Goodbye:
      return node_.shortcuts_.on_goodbye(id, wire::goodbye_reason(frame));
    default:
      return node_.reject(id, std::string("unexpected ") + wire::to_string(frame.type) + " frame");
  }
}

void NodeFrames::on_hello(ConnId id, const wire::Frame& frame) {
  NodeConn& c = node_.conns_.at(id);
  auto msg = wire::read_hello(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
  const auto& hello = std::get<wire::HelloMsg>(msg);
  if (c.outgoing) return;  // the acceptor does not greet back: nothing to learn
  if (c.up) return node_.reject(id, "second hello");
  if (hello.rank < 0 || hello.rank >= node_.n_) return node_.reject(id, "hello from unknown rank");
  if (hello.rank == node_.rank_) return node_.reject(id, "hello claims this node's own rank");
  if (hello.purpose == wire::ConnPurpose::Relay)
    return node_.reject(id, "relay attach sent to a node");
  // A collector orders RTTs during inference only (node_collector.cpp).
  if (hello.purpose == wire::ConnPurpose::Collect && node_.phase_ != Node::Phase::AwaitGroups)
    return node_.reject(id, "collect connection outside inference");
  c.peer = hello.rank;
  c.purpose = hello.purpose;
  c.up = true;
  if (c.purpose == wire::ConnPurpose::Static || c.purpose == wire::ConnPurpose::Shortcut)
    node_.windows_.size_window(id, c.peer);
  if (c.purpose == wire::ConnPurpose::Static) node_.overlay_.static_peer_up(c.peer, id);
  if (c.purpose == wire::ConnPurpose::Shortcut) node_.shortcuts_.shortcut_up(c.peer, id, false);
}

}  // namespace tsunagi
