// Node side of the relay plan (paper 001): the relays of the node's site, the one it is
// attached to (or trying), and the messages for other sites waiting for the attach.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class RelayAttachment {
 public:
  explicit RelayAttachment(Node& node) : node_(node) {}

  bool in_own_site(Rank peer) const;
  void on_relay_list(ConnId id, const wire::Frame& frame);
  void attach_relay();
  void relay_up(ConnId id);
  void relay_gone(ConnId id, const char* why);
  void send_via_relay(wire::Frame frame);
  void on_undeliverable_notice(const wire::Frame& frame);

  // Node's parts read each other's state, as the one class they were did.
  std::vector<wire::RelayEntry> site_relays_;  // ours first, then the fall-backs
  bool have_relay_list_ = false;               // the rendezvous sends it once, before the directory
  std::size_t relay_choice_ = 0;               // index of the relay tried or attached
  std::string relay_label_;                    // of that relay, kept apart from the list
  ConnId relay_conn_ = 0;
  bool relay_attached_ = false;
  bool relay_settled_ = true;               // attached, or no relay left to try
  std::vector<wire::Frame> relay_waiting_;  // for other sites, while attaching

 private:
  Node& node_;
};

}  // namespace tsunagi
