#include "tsunagi/model/lmmc/workloads.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "tsunagi/model/rng.hpp"

namespace tsunagi::lmmc {

namespace {

constexpr std::uint64_t kStream = 0x4c4d4d43;  // "LMMC": this subsystem's random stream

// Emits writes and, a random lag later, the read of each message by one of its port's readers.
class Builder {
 public:
  Builder(WorkloadKind kind, const WorkloadParams& params)
      : params_(params), rng_(derive_seed(params.seed, kStream)) {
    trace_.workload = std::string(to_string(kind));
  }

  void map_writer(ProcId proc, PortId port) { trace_.writers.emplace_back(proc, port); }
  void map_reader(ProcId proc, PortId port) {
    trace_.readers.emplace_back(proc, port);
    readers_[port].push_back(proc);
  }

  // One message from `proc` on `port`; bytes 0 = drawn from the parameters' range.
  void send(ProcId proc, PortId port, std::uint32_t bytes = 0) {
    emit_due_reads(writes_);
    if (bytes == 0) bytes = params_.min_bytes + draw(params_.max_bytes - params_.min_bytes + 1);
    trace_.ops.push_back({TraceOp::Kind::Write, proc, port, bytes});
    const std::vector<ProcId>& readers = readers_.at(port);
    const ProcId reader = readers[draw(static_cast<std::uint32_t>(readers.size()))];
    const std::uint64_t lag = draw(static_cast<std::uint32_t>(params_.max_read_lag) + 1);
    due_.emplace(writes_ + lag, TraceOp{TraceOp::Kind::Read, reader, port, bytes});
    ++writes_;
  }

  // 0..n-1 in order, each adjacent pair swapped with probability 1/4: processes that run in
  // steps but not in lockstep.
  std::vector<int> jittered(int n) {
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    for (std::size_t i = 0; i + 1 < order.size(); ++i)
      if (draw(4) == 0) std::swap(order[i], order[i + 1]);
    return order;
  }

  std::uint32_t draw(std::uint32_t bound) {
    return static_cast<std::uint32_t>(rng_.uniform(bound));
  }

  Trace finish() {
    emit_due_reads(UINT64_MAX);
    return std::move(trace_);
  }

 private:
  void emit_due_reads(std::uint64_t now) {
    while (!due_.empty() && due_.begin()->first <= now) {
      trace_.ops.push_back(due_.begin()->second);
      due_.erase(due_.begin());
    }
  }

  WorkloadParams params_;
  Rng rng_;
  Trace trace_;
  std::map<PortId, std::vector<ProcId>> readers_;
  std::multimap<std::uint64_t, TraceOp> due_;  // write count at which a read happens
  std::uint64_t writes_ = 0;
};

PortId port_id(int index) {
  return static_cast<PortId>(index + 1);
}

// Process i <-> port i+1 at both ends: one private channel per process pair.
void map_pairs(Builder& b, int n) {
  for (int i = 0; i < n; ++i) {
    b.map_writer(i, port_id(i));
    b.map_reader(i, port_id(i));
  }
}

void ring(Builder& b, const WorkloadParams& p) {
  map_pairs(b, p.size);
  for (int step = 0; step < p.iterations; ++step)
    for (int i : b.jittered(p.size)) b.send(i, port_id(i));
}

void all_to_all(Builder& b, const WorkloadParams& p) {
  const int a = p.size;
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < a; ++j) {
      b.map_writer(i, port_id(i * a + j));
      b.map_reader(j, port_id(i * a + j));
    }
  for (int it = 0; it < p.iterations; ++it)
    for (int shift = 0; shift < a; ++shift)
      for (int i : b.jittered(a)) b.send(i, port_id(i * a + (i + shift) % a));
}

void stencil(Builder& b, const WorkloadParams& p) {
  map_pairs(b, p.size);
  const PortId residual = port_id(p.size);
  for (int i = 0; i < p.size; ++i) b.map_writer(i, residual);  // shared by every writer
  b.map_reader(0, residual);
  for (int it = 0; it < p.iterations; ++it) {
    for (int sweep = 0; sweep < 2; ++sweep)  // red, then black
      for (int i : b.jittered(p.size)) b.send(i, port_id(i));
    for (int i : b.jittered(p.size)) b.send(i, residual, 8);  // one double each
  }
}

void master_worker(Builder& b, const WorkloadParams& p) {
  const int w = p.size;
  const PortId control = port_id(w);
  for (int j = 0; j < w; ++j) {
    b.map_writer(0, port_id(j));
    b.map_reader(j, port_id(j));
    b.map_reader(j, control);  // every worker maps the control port
  }
  b.map_writer(0, control);
  // Worker j is busy until free_at[j]; its tasks take speed[j] x 1..10 units (speeds 1..3).
  std::vector<std::uint64_t> speed;
  for (int j = 0; j < w; ++j) speed.push_back(1 + b.draw(3));
  std::vector<std::uint64_t> free_at(speed.size(), 0);
  for (int task = 0; task < p.iterations * w; ++task) {
    const auto j = static_cast<std::size_t>(std::min_element(free_at.begin(), free_at.end()) -
                                            free_at.begin());
    b.send(0, port_id(static_cast<int>(j)));
    free_at[j] += speed[j] * (1 + b.draw(10));
    if ((task + 1) % w == 0) b.send(0, control, 16);
  }
}

void random_ports(Builder& b, const WorkloadParams& p) {
  map_pairs(b, p.size);
  for (int n = 0; n < p.iterations * p.size; ++n) {
    const int i = static_cast<int>(b.draw(static_cast<std::uint32_t>(p.size)));
    b.send(i, port_id(i));
  }
}

void check(WorkloadKind kind, const WorkloadParams& p) {
  const int min_size = kind == WorkloadKind::Ring ? 2 : 1;
  if (p.size < min_size || p.size > 256)
    throw std::invalid_argument("workload size " + std::to_string(p.size) + " outside " +
                                std::to_string(min_size) + "..256");
  if (p.iterations < 1) throw std::invalid_argument("a workload needs iterations");
  if (p.min_bytes < 1 || p.min_bytes > p.max_bytes || p.max_bytes > LinkConfig{}.page_size)
    throw std::invalid_argument("message sizes must lie in 1..page size, min <= max");
  if (p.max_read_lag < 0) throw std::invalid_argument("a read cannot come before its write");
}

}  // namespace

Trace make_trace(WorkloadKind kind, const WorkloadParams& params) {
  check(kind, params);
  Builder b(kind, params);
  switch (kind) {
    case WorkloadKind::Ring:
      ring(b, params);
      break;
    case WorkloadKind::AllToAll:
      all_to_all(b, params);
      break;
    case WorkloadKind::Stencil:
      stencil(b, params);
      break;
    case WorkloadKind::MasterWorker:
      master_worker(b, params);
      break;
    case WorkloadKind::Random:
      random_ports(b, params);
      break;
  }
  return b.finish();
}

std::string_view to_string(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::Ring:
      return "ring";
    case WorkloadKind::AllToAll:
      return "all_to_all";
    case WorkloadKind::Stencil:
      return "stencil";
    case WorkloadKind::MasterWorker:
      return "master_worker";
    case WorkloadKind::Random:
      return "random";
  }
  return "?";
}

std::optional<WorkloadKind> workload_from_string(std::string_view name) {
  for (WorkloadKind kind : all_workloads())
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

const std::vector<WorkloadKind>& all_workloads() {
  static const std::vector<WorkloadKind> kinds = {WorkloadKind::Ring, WorkloadKind::AllToAll,
                                                  WorkloadKind::Stencil, WorkloadKind::MasterWorker,
                                                  WorkloadKind::Random};
  return kinds;
}

}  // namespace tsunagi::lmmc
