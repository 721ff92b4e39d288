// The run's process table: rows, exits, progress, counters. See process_table.hpp.
#include "tsunagi/runner/driver/process_table.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/sha256.hpp"
#include "tsunagi/runner/driver/message_tap.hpp"

namespace tsunagi::runner {
namespace {

// Progress goes to stderr through the CLI every 2 s of wall time: often enough to see a long
// run move, rarely enough to cost nothing (one clock read per input, ~20 ns).
constexpr double kProgressEveryWallSeconds = 2.0;

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::vector<int> host_slots(const std::vector<int>& host_of_rank, std::size_t host_count) {
  std::vector<int> slots(host_of_rank.size(), 0);
  for (std::size_t r = 0; r < host_of_rank.size(); ++r) {
    if (host_of_rank[r] < 0 || static_cast<std::size_t>(host_of_rank[r]) >= host_count)
      throw std::invalid_argument("rank " + std::to_string(r) + " is placed on host " +
                                  std::to_string(host_of_rank[r]) + " which does not exist");
    // The slot restarts whenever the host changes.
    if (r > 0 && host_of_rank[r - 1] == host_of_rank[r]) slots[r] = slots[r - 1] + 1;
  }
  return slots;
}

std::string simulated_run_secret(std::uint64_t seed) {
  Sha256 hash;
  hash.update("tsunagi simulated run secret");
  for (int i = 0; i < 8; ++i) {
    const auto byte = static_cast<std::uint8_t>(seed >> (8 * i));
    hash.update(&byte, 1);
  }
  const Digest digest = hash.finish();
  return std::string(digest.begin(), digest.end());
}

ProcessTable::ProcessTable(std::string backend, RunObserver& observer,
                           std::shared_ptr<const ProtocolConfig> config)
    : backend_(std::move(backend)), observer_(observer), config_(std::move(config)) {
  const std::uint64_t seed = config_ ? config_->seed : 0;
  use_run_secret(simulated_run_secret(seed), derive_seed(seed, 0x6e6f6e6365));  // "nonce"

  // Every backend counts the probes it performs; result.json has both counts even when zero.
  counts_["inference.rtt_probes"] = 0;
  counts_["inference.throughput_probes"] = 0;
  if (!config_ || config_->processes <= kMessageRanksMax) messages_left_ = kMessagesMax;
}

int ProcessTable::add(ProcessRow row) {
  const int index = size();
  // The order is part of the contract: ranks in increasing order, then the rendezvous, then
  // relays. (A realnet daemon's table holds only itself: one rank of any number.)
  const bool in_order = row.role == Role::Node
                            ? rendezvous_index_ < 0 && relays_ == 0 && row.rank > last_rank_
                        : row.role == Role::Rendezvous ? rendezvous_index_ < 0 && relays_ == 0
                                                       : true;
  if (!in_order)
    throw std::logic_error("process table: " + row.label +
                           " added out of order (ranks, rendezvous, relays)");
  if (row.role == Role::Node) last_rank_ = row.rank;
  if (row.role == Role::Relay) ++relays_;
  if (row.role == Role::Node) {
    ranks_.insert(row.rank);
    ++rank_count_;
    ++ranks_running_;
    phases_.set_ranks(rank_count_);
  }
  if (row.role == Role::Rendezvous) rendezvous_index_ = index, rendezvous_endpoint_ = row.endpoint;
  if (!row.endpoint.empty() && !by_endpoint_.emplace(row.endpoint, index).second)
    throw std::logic_error("process table: two processes listen at " + row.endpoint);
  ++running_;
  rows_.push_back(std::move(row));
  return index;
}

void ProcessTable::plan_kills(const std::vector<PlannedKill>& kills) {
  for (const PlannedKill& kill : kills) {
    const int index = find_label(kill.label);
    if (index < 0)
      throw std::invalid_argument("[[faults]] kill = \"" + kill.label +
                                  "\" names no process of this run");
    rows_[static_cast<std::size_t>(index)].kill_at = kill.at;
  }
}

int ProcessTable::find(const Endpoint& endpoint) const {
  auto it = by_endpoint_.find(endpoint);
  return it == by_endpoint_.end() ? -1 : it->second;
}

int ProcessTable::find_label(const std::string& label) const {
  auto it = std::find_if(rows_.begin(), rows_.end(),
                         [&](const ProcessRow& row) { return row.label == label; });
  return it == rows_.end() ? -1 : static_cast<int>(it - rows_.begin());
}

int ProcessTable::live_process_at(const Endpoint& endpoint) const {
  const int index = find(endpoint);
  return index >= 0 && !exited(index) ? index : -1;
}

StartedInput ProcessTable::started_input(int index) const {
  const ProcessRow& self = row(index);
  StartedInput started;
  started.rank = self.rank;
  started.self = self.endpoint;
  if (self.role != Role::Rendezvous) started.rendezvous = rendezvous_endpoint_;
  started.host = self.host;
  started.site = self.site;
  started.config = config_;
  started.secret = secret_;
  started.nonce_seed = derive_seed(nonce_seed_, static_cast<std::uint64_t>(index));
  return started;
}

bool ProcessTable::record_exit(int index, TimeNs now, const ExitCmd& exit) {
  ProcessRow& self = rows_[static_cast<std::size_t>(index)];
  if (self.exited) return false;
  self.exited = true;
  self.exited_at = now;
  self.exit_ok = exit.ok;
  self.exit_reason = exit.reason;
  --running_;
  if (self.role == Role::Node) {
    --ranks_running_;
    phases_.on_rank_exit();
  }
  last_exit_ = std::max(last_exit_, now);
  observer_.on_exit(self.label, now, exit);
  if (!exit.ok)
    fail_run(now,
             self.label + " failed: " + (exit.reason.empty() ? "no reason given" : exit.reason));
  return true;
}

void ProcessTable::fail_run(TimeNs now, const std::string& why) {
  if (!failed()) failed_at_ = now;
  if (failure_.empty()) failure_ = why;
}

void ProcessTable::fail_run_cause(TimeNs now, const std::string& why) {
  if (!failed()) failed_at_ = now;
  if (cause_.empty()) cause_ = why;
}

double ProcessTable::wall_now() const {
  return wall_clock_ ? wall_clock_() : steady_seconds();
}

void ProcessTable::count_input(TimeNs now) {
  ++inputs_;
  const double wall = wall_now();
  if (wall_start_ < 0) {
    wall_start_ = wall;
  } else if (wall < next_progress_wall_) {
    return;
  }
  next_progress_wall_ = wall + kProgressEveryWallSeconds;
  observer_.on_progress(progress_line(now, wall));
  inputs_at_last_line_ = inputs_;
  wall_at_last_line_ = wall;
}

// "simgrid: t=0.004 s, inference: 12345 RTT probes; 1000 of 1000 ranks running, 305000 inputs;
// wall 2.0 s, 0.002 simulated s per wall s, 152000 inputs per wall s". No ETA for the run: it
// ends when its protocol and workload are done, which no backend knows in advance (docs/cli.md);
// a phase with a count estimates its own end (phase_progress.hpp).
std::string ProcessTable::progress_line(TimeNs now, double wall) {
  const double simulated = static_cast<double>(now) * 1e-9;
  const auto probes = static_cast<std::uint64_t>(counts_["inference.rtt_probes"]);
  char line[480];
  int used =
      std::snprintf(line, sizeof line, "%s: t=%.3f s, %s; %d of %d ranks running, %llu inputs",
                    backend_.c_str(), simulated, phases_.describe(probes, wall).c_str(),
                    ranks_running_, rank_count_, static_cast<unsigned long long>(inputs_));
  const double elapsed = wall - wall_start_;
  const double since = wall - wall_at_last_line_;
  if (elapsed > 0 && since > 0 && used > 0 && static_cast<std::size_t>(used) < sizeof line) {
    std::snprintf(line + used, sizeof line - static_cast<std::size_t>(used),
                  "; wall %.1f s, %.3g simulated s per wall s, %.0f inputs per wall s", elapsed,
                  simulated / elapsed, static_cast<double>(inputs_ - inputs_at_last_line_) / since);
  }
  return line;
}

void ProcessTable::note_message(int index, TimeNs now, const MessageEvent& event) {
  const std::pair<Rank, std::uint32_t> key{event.from, event.seq};
  if (!event.delivered) {
    if (messages_left_ == 0) return;
    --messages_left_;
    if (ranks_.count(event.to) != 0) messages_in_flight_.insert(key);
  } else if (ranks_.count(event.from) != 0 && messages_in_flight_.erase(key) == 0) {
    return;  // its send was not recorded
  }
  observer_.on_message(row(index).label, now, event);
}

void ProcessTable::report_counts() {
  if (counts_reported_) return;
  counts_reported_ = true;
  for (const auto& [key, value] : counts_) observer_.on_backend_count(key, value);
}

RunSummary ProcessTable::finish(TimeNs clock, const std::string& still_running) {
  for (int i = 0; i < size(); ++i) record_exit(i, clock, ExitCmd{false, still_running});
  report_counts();
  RunSummary summary;
  summary.end = last_exit_;
  summary.all_exited_ok = !failed();
  summary.failure = failure();
  summary.interrupted_at = interrupted_at_;
  return summary;
}

}  // namespace tsunagi::runner
