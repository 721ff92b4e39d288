// Application messages over the overlay: this rank's own, those it relays for others, and those
// that wait (for routes, for the workload to begin).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class NodeMessaging {
 public:
  explicit NodeMessaging(Node& node) : node_(node) {}

  void on_data(wire::Frame frame);
  void originate(wire::Frame frame);    // this rank's own message, on its way
  void relay_frame(wire::Frame frame);  // someone else's message, one hop further
  void deliver(wire::Frame frame);      // a message for this rank's workload
  void forward(wire::Frame frame);
  std::optional<ConnId> direct_conn(Rank peer);
  void flush_waiting_frames();
  void undeliverable(const wire::Frame& frame, const std::string& reason);

  // Node's parts read each other's state, as the one class they were did.
  std::vector<wire::Frame> waiting_frames_;  // data that arrived before routes existed
  std::vector<wire::Frame> early_data_;      // data for this rank before the workload began
  bool workload_finished_ = false;
  std::uint32_t data_seq_ = 0;

 private:
  Node& node_;
};

}  // namespace tsunagi
