// The node's side of switch inference (paper 000 §2.1) and of the rendezvous's measurement
// orders: which peers it probes, the RTTs it has, and the ordered round it answers. Also every
// RTT probe the node makes, for whichever part asked (the probe key's bits say which).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/topology/rtt_sampler.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class NodeInference {
 public:
  explicit NodeInference(Node& node) : node_(node) {}

  void on_directory(wire::DirectoryMsg msg);
  void issue_probes();
  void on_rtt(const RttMeasuredInput& in);
  // RTT probes are echoes the sampler asks for one at a time (rtt_sampler.hpp): start one,
  // then send its next echo or hand its end to the part that asked (by the key's bits).
  void start_rtt_probe(std::uint64_t key, const Endpoint& to, std::uint32_t bytes, int samples);
  void take_echo_step(RttSampler::Step step);
  void on_throughput(const ThroughputMeasuredInput& in);
  void on_probe_order(const wire::ProbeOrderMsg& order);
  // `from`: the connection the order came on, answered there; NodeCollector::kOwnCollector:
  // this node's own.
  void on_rtt_order(wire::RttOrderMsg order, ConnId from);
  void finish_ordered_probing();
  void finish_probing();

  // Node's parts read each other's state, as the one class they were did.
  bool have_directory_ = false;  // the rendezvous's directory frame arrived
  std::vector<RttSample> rtts_;
  std::vector<Rank> host_mates_;  // same host label: near without measuring
  std::vector<Rank> probe_targets_;
  std::size_t next_probe_ = 0;
  int probes_in_flight_ = 0;
  RttSampler rtt_sampler_;
  std::optional<std::uint32_t> ordered_round_;  // probing for an RttOrder
  ConnId order_conn_ = 0;                       // where that order came from
  std::vector<wire::ProbeOrderMsg> orders_awaiting_endpoints_;

 private:
  Node& node_;
};

}  // namespace tsunagi
