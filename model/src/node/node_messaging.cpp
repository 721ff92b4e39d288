// Application messages over the overlay: direct when a connection to the destination exists,
// otherwise hop by hop along the routes; a relayed send opens a shortcut (paper 000 §3.2).
#include "node/node.hpp"

namespace tsunagi {

std::optional<ConnId> NodeMessaging::direct_conn(Rank peer) {
  // A held shortcut whose connection is gone or closing waits for the pair's other one.
  if (auto sc = node_.shortcuts_.cache_.find(peer)) {
    const auto it = node_.conns_.find(*sc);
    if (it != node_.conns_.end() && !it->second.closing) return sc;
  }
  auto it = node_.overlay_.static_conns_.find(peer);
  if (it != node_.overlay_.static_conns_.end()) return it->second;
  return std::nullopt;
}

void NodeMessaging::originate(wire::Frame frame) {
  const Rank dst = frame.dst;
  if (dst == node_.rank_) {
    on_data(std::move(frame));
    return;
  }
  if (auto conn = direct_conn(dst)) {
    if (node_.shortcuts_.cache_.contains(dst)) node_.shortcuts_.cache_.touch(dst);
    node_.send_frame(*conn, frame);
    return;
  }
  const bool other_site = node_.relay_plan() && !node_.relay_.in_own_site(dst);
  forward(std::move(frame));
  if (!other_site)
    node_.shortcuts_.maybe_open_shortcut(dst);  // no shortcuts through firewalls: relays do that
}

void NodeMessaging::forward(wire::Frame frame) {
  if (node_.relay_plan() && !node_.relay_.in_own_site(frame.dst))
    return node_.relay_.send_via_relay(std::move(frame));
  if (node_.direct_routing()) return undeliverable(frame, "no connection");
  if (!node_.overlay_.routes_ready()) {
    waiting_frames_.push_back(std::move(frame));  // routes are still being built
    return;
  }
  Rank next = node_.overlay_.next_hop(frame.dst);
  auto it = next == kNoRank ? node_.overlay_.static_conns_.end()
                            : node_.overlay_.static_conns_.find(next);
  if (it == node_.overlay_.static_conns_.end()) return undeliverable(frame, "no route");
  node_.send_frame(it->second, frame);
}

// Counted and traced; when the frame is this rank's own message its workload hears of it.
void NodeMessaging::undeliverable(const wire::Frame& frame, const std::string& reason) {
  ++node_.counters_.messages_undeliverable;
  node_.trace("undeliverable", {{"src", frame.src}, {"dst", frame.dst}, {"reason", reason}});
  if (frame.src != node_.rank_ || frame.type != wire::FrameType::Data || !node_.work_.workload())
    return;
  auto msg = wire::read_data(frame);
  if (auto* data = std::get_if<wire::DataMsg>(&msg))
    node_.work_.workload()->on_undeliverable(node_.work_, frame.dst, data->tag, reason);
}

void NodeMessaging::flush_waiting_frames() {
  auto frames = std::move(waiting_frames_);
  waiting_frames_.clear();
  for (auto& f : frames) forward(std::move(f));
}

void NodeMessaging::on_data(wire::Frame frame) {
  auto msg = wire::read_data(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) {
    ++node_.counters_.frames_rejected;
    node_.trace("frame_rejected", {{"peer", frame.src}, {"reason", e->reason}});
    return;
  }
  const bool costs = node_.config_->costs.any();
  if (frame.dst != node_.rank_) {
    if (!costs) return relay_frame(std::move(frame));
    const TimeNs cost = node_.cpu_.relay_cost(frame);
    return node_.cpu_.charge(CpuQueue::CpuJob::Kind::Relay, cost, std::move(frame));
  }
  if (!node_.work_.workload()) {
    early_data_.push_back(std::move(frame));
    return;
  }
  if (costs) {
    const TimeNs cost = node_.cpu_.receive_cost(frame);
    return node_.cpu_.charge(CpuQueue::CpuJob::Kind::Deliver, cost, std::move(frame));
  }
  ++node_.counters_.messages_delivered;
  auto& data = std::get<wire::DataMsg>(msg);
  node_.work_.workload()->on_message(node_.work_, frame.src, data.tag, data.body, frame.filler);
}

// Relay: the TTL bounds how long a frame can wander if routes ever disagree.
void NodeMessaging::relay_frame(wire::Frame frame) {
  if (frame.ttl <= 1) return undeliverable(frame, "ttl expired");
  --frame.ttl;
  ++frame.hops;
  ++node_.counters_.messages_relayed;
  if (auto conn = direct_conn(frame.dst)) {
    node_.send_frame(*conn, frame);
  } else {
    forward(std::move(frame));
  }
}

// A frame already checked by on_data, after the CPU queue.
void NodeMessaging::deliver(wire::Frame frame) {
  auto msg = wire::read_data(frame);
  auto* data = std::get_if<wire::DataMsg>(&msg);
  if (data == nullptr || !node_.work_.workload()) return;
  ++node_.counters_.messages_delivered;
  node_.work_.workload()->on_message(node_.work_, frame.src, data->tag, data->body, frame.filler);
}

}  // namespace tsunagi
