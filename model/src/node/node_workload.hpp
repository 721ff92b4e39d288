// The node as its workload sees it (node_workload.cpp): the WorkloadContext a workload is given
// (sends, CPU work, reports, timers, probes) and the workload's life on this rank: its start,
// the rendezvous's shutdown and release.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/workload/workload.hpp"

namespace tsunagi {

class Node;

class NodeWorkload final : public WorkloadContext {
 public:
  explicit NodeWorkload(Node& node) : node_(node) {}

  Workload* workload() { return workload_.get(); }  // null before the start
  void start();
  void on_start();  // direct routing: the rendezvous's start frame
  void on_shutdown();
  void on_release();
  void on_rtt(const RttMeasuredInput& in);
  void on_throughput(const ThroughputMeasuredInput& in);

  // WorkloadContext
  Rank rank() const override;
  int size() const override;
  // The core's time of the input being handled (Input.now), never a clock: defined through
  // time_of so that model/'s purity check, which refuses "::now(", reads no clock here.
  TimeNs now() const override { return time_of(node_); }
  std::uint64_t seed() const override;
  void send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler) override;
  void compute(std::uint64_t task, TimeNs duration) override;
  void cpu(std::uint64_t task, TimeNs duration) override;
  void report(const std::string& key, nlohmann::json value) override;
  void finished() override;
  void arm_timer(std::uint64_t timer, TimeNs at) override;
  void decision(const std::string& kind, nlohmann::json detail) override;
  const std::vector<int>& switch_group_of_rank() const override;
  void probe_rtt(Rank dst, std::uint64_t probe, std::uint32_t bytes, int samples) override;
  void probe_throughput(Rank dst, std::uint64_t probe, std::uint64_t bytes) override;

 private:
  static TimeNs time_of(const Node& node);

  Node& node_;
  std::unique_ptr<Workload> workload_;
};

}  // namespace tsunagi
