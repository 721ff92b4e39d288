// Node side of the relay plan (paper 001): a node connects directly to the ranks of its own
// site and attaches to one relay of its site, through which everything for other sites goes.
// When its relay is refused or dies it falls back on the next relay of the site. Also the
// barrier of routing = direct (the plain-sockets baseline).
#include <algorithm>

#include "node/node.hpp"

namespace tsunagi {

bool RelayAttachment::in_own_site(Rank peer) const {
  return peer == node_.rank_ ||
         std::binary_search(node_.overlay_.plan_.begin(), node_.overlay_.plan_.end(), peer);
}

// The relays of the site come once, from the rendezvous, before the directory. A second list
// is refused: replacing the list under an attach in progress left relay_choice_ pointing past
// its end (issue 17, found by fuzzing).
void RelayAttachment::on_relay_list(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_relay_list(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return node_.reject(id, e->reason);
  if (have_relay_list_ || node_.phase_ != Node::Phase::Registering) {
    // Refused but not closed: this is the rendezvous's connection, which the run still needs.
    ++node_.counters_.frames_rejected;
    node_.trace("frame_rejected",
                {{"peer", kNoRank}, {"reason", "relay list after the first one"}});
    return;
  }
  have_relay_list_ = true;
  site_relays_ = std::get<wire::RelayListMsg>(std::move(msg)).relays;
}

// Tries the relays of the site in the rendezvous's order, starting at relay_choice_.
void RelayAttachment::attach_relay() {
  relay_attached_ = false;
  relay_conn_ = 0;
  if (relay_choice_ < site_relays_.size()) {
    relay_settled_ = false;
    relay_label_ = site_relays_[relay_choice_].label;
    relay_conn_ = node_.open_connection(site_relays_[relay_choice_].endpoint, kNoRank,
                                        wire::ConnPurpose::Relay);
    return;
  }
  // No relay left: messages for other sites cannot go anywhere, and say so.
  relay_settled_ = true;
  node_.trace("relay_none", {{"tried", site_relays_.size()}});
  for (wire::Frame& frame : std::exchange(relay_waiting_, {}))
    node_.messaging_.undeliverable(frame, "no relay of the site is reachable");
  node_.overlay_.check_static_ready();
}

void RelayAttachment::relay_up(ConnId id) {
  if (id != relay_conn_) return;
  relay_attached_ = true;
  relay_settled_ = true;
  node_.trace("relay_attached", {{"relay", relay_label_}});
  for (wire::Frame& frame : std::exchange(relay_waiting_, {})) node_.send_frame(relay_conn_, frame);
  node_.overlay_.check_static_ready();
}

// The attach was refused or timed out, or the attached relay went away: next relay.
void RelayAttachment::relay_gone(ConnId id, const char* why) {
  if (id != relay_conn_) return;
  node_.trace(why, {{"relay", relay_label_}});
  ++relay_choice_;
  attach_relay();
}

void RelayAttachment::send_via_relay(wire::Frame frame) {
  if (relay_attached_) return node_.send_frame(relay_conn_, frame);
  if (relay_conn_ != 0) return relay_waiting_.push_back(std::move(frame));
  node_.messaging_.undeliverable(frame, "no relay of the site is reachable");
}

// A relay could not deliver one of our messages (its destination's relay is unreachable, or
// the destination is attached nowhere): the notice carries the lost message's tag.
void RelayAttachment::on_undeliverable_notice(const wire::Frame& frame) {
  auto msg = wire::read_undeliverable(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) {
    ++node_.counters_.frames_rejected;
    node_.trace("frame_rejected", {{"peer", frame.src}, {"reason", e->reason}});
    return;
  }
  const auto& notice = std::get<wire::UndeliverableMsg>(msg);
  if (frame.dst != node_.rank_) {
    // Passing through a site-local hop towards its source.
    if (auto conn = node_.messaging_.direct_conn(frame.dst)) node_.send_frame(*conn, frame);
    return;
  }
  ++node_.counters_.messages_undeliverable;
  node_.trace("undeliverable",
              {{"src", node_.rank_}, {"dst", frame.src}, {"reason", notice.reason}});
  if (auto* w = node_.work_.workload())
    w->on_undeliverable(node_.work_, frame.src, notice.tag, notice.reason);
}

}  // namespace tsunagi
