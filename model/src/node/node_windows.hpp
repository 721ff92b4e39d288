// Node side of TCP windows (protocol.window, issue 15): what was measured to each plan peer
// under "auto", the measuring rounds, and the buffers held by the data connections.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "node/node_conn.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/window/path_meter.hpp"
#include "tsunagi/model/window/window_policy.hpp"

namespace tsunagi {

class Node;

class NodeWindows {
 public:
  explicit NodeWindows(Node& node) : node_(node) {}

  void start_windowing();
  void measure_next_window();
  void on_turn(Rank to, Rank target);
  void on_window_rtt(const RttMeasuredInput& in);
  void on_window_throughput(const ThroughputMeasuredInput& in);
  void probe_window_path(Rank peer);
  void window_measured(Rank peer);
  bool last_window_pass() const;
  void trace_window(Rank peer);
  void size_window(ConnId id, Rank peer);
  void release_window(NodeConn& c);
  void report_windows(nlohmann::json& node_report) const;

  // Node's parts read each other's state, as the one class they were did.
  std::map<Rank, PathEstimate> paths_;  // auto: what was measured to each plan peer
  std::vector<Rank> window_targets_;
  std::size_t next_window_ = 0;
  std::size_t window_round_ = 0;                       // peers in one pass
  std::map<Rank, std::vector<double>> window_passes_;  // each pass's rate, for the trace
  std::optional<PathMeter> window_meter_;              // of the peer being measured
  std::optional<Rank> turn_;                           // asked for or held (probe_turns.hpp)
  std::vector<ConnId> awaiting_window_;                // accepted before their peer was measured
  std::uint64_t window_bytes_held_ = 0;                // over all open data connections
  std::uint64_t max_window_bytes_held_ = 0;

 private:
  Node& node_;
};

}  // namespace tsunagi
