// Workloads run by every node once its routes are in place. A workload sees only this
// context: it sends application messages to ranks (the overlay routes them), models CPU time,
// and reports its outcome. It never sees connections, routes or the backend.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

class WorkloadContext {
 public:
  virtual ~WorkloadContext() = default;
  virtual Rank rank() const = 0;
  virtual int size() const = 0;
  virtual TimeNs now() const = 0;
  virtual std::uint64_t seed() const = 0;
  // Sends `body` plus `filler` modelled bytes to `dst` (may be this rank).
  virtual void send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler = 0) = 0;
  // Models `duration` of CPU work; on_compute_done(task) follows.
  virtual void compute(std::uint64_t task, TimeNs duration) = 0;
  // Models `duration` of CPU work on the node's one CPU queue, behind the protocol's own costs
  // ([protocol.costs]); on_compute_done(task) follows (at once when duration is 0).
  virtual void cpu(std::uint64_t task, TimeNs duration) = 0;
  // A fact for result.json (key "workload" is the outcome the runner reads).
  virtual void report(const std::string& key, nlohmann::json value) = 0;
  // This rank's part is over (it keeps relaying for others until shutdown).
  virtual void finished() = 0;
  // Calls on_timer(timer) at `at` (timer ids are the workload's own).
  virtual void arm_timer(std::uint64_t timer, TimeNs at) = 0;
  // A decision of the workload's protocol for the trace (it counts in `tsunagi compare`).
  virtual void decision(const std::string& kind, nlohmann::json detail) = 0;
  // The switch group of each rank as the rendezvous inferred it (group index per rank); empty
  // when this run inferred none (plan = all without inference, relay plans).
  virtual const std::vector<int>& switch_group_of_rank() const = 0;
  // Measurements outside every connection, as ping and iperf make them: the round trip of
  // `bytes` each way (minimum of `samples`), and a bulk transfer of `bytes` with the buffers the
  // run's data connections get (protocol.window). Workload::on_probe(probe, ...) follows.
  virtual void probe_rtt(Rank dst, std::uint64_t probe, std::uint32_t bytes, int samples) = 0;
  virtual void probe_throughput(Rank dst, std::uint64_t probe, std::uint64_t bytes) = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual void start(WorkloadContext& ctx) = 0;
  virtual void on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& body,
                          std::uint64_t filler) = 0;
  virtual void on_compute_done(WorkloadContext& /*ctx*/, std::uint64_t /*task*/) {}
  virtual void on_timer(WorkloadContext& /*ctx*/, std::uint64_t /*timer*/) {}
  // A message this rank sent to `dst` cannot be delivered (no route, no connection, a relay
  // gave up): the overlay says so instead of losing it silently.
  virtual void on_undeliverable(WorkloadContext& /*ctx*/, Rank /*dst*/, std::uint32_t /*tag*/,
                                const std::string& /*reason*/) {}
  // A probe of WorkloadContext::probe_rtt / probe_throughput finished: `elapsed` is the RTT or
  // the transfer's time; ok = false: the peer could not be measured.
  virtual void on_probe(WorkloadContext& /*ctx*/, std::uint64_t /*probe*/, TimeNs /*elapsed*/,
                        bool /*ok*/) {}
  // The run is ending (the rendezvous started the shutdown): last reports of this rank.
  virtual void on_shutdown(WorkloadContext& /*ctx*/) {}
};

std::unique_ptr<Workload> make_workload(const WorkloadConfig& config);

}  // namespace tsunagi
