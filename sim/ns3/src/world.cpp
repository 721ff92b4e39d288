// Shared run state: process table, exits, counters and progress.
#include "world.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <ns3/simulator.h>

#include "process_host.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {
namespace {

constexpr TimeNs kProgressEvery = 10 * kNsPerSec;
constexpr std::uint64_t kProgressEveryEvents = std::uint64_t{1} << 22;

ProcessEntry make_entry(Rank rank, const TopologyHost& host, int slot) {
  ProcessEntry entry;
  entry.rank = rank;
  entry.label = runner::process_label(rank);
  entry.host = host.name;
  entry.node = host.node;
  entry.address = host.address;
  entry.port = static_cast<std::uint16_t>(kFirstPort + slot);
  std::ostringstream endpoint;
  host.address.Print(endpoint);
  endpoint << ':' << entry.port;
  entry.endpoint = endpoint.str();
  return entry;
}

std::string site_of(const Ns3Spec& spec, int cluster) {
  if (cluster < 0 || static_cast<std::size_t>(cluster) >= spec.clusters.size()) return "";
  return spec.clusters[static_cast<std::size_t>(cluster)].name;
}

}  // namespace

World::World(const Ns3Spec& spec, runner::RunObserver& observer, const Topology& topology)
    : observer_(observer) {
  auto config = std::make_shared<ProtocolConfig>(spec.protocol);
  config->processes = static_cast<int>(spec.rank_host.size());
  config_ = std::move(config);
  if (spec.procs_per_host > kMaxProcsPerHost)
    throw std::invalid_argument(
        "ns3: placement.procs_per_host = " + std::to_string(spec.procs_per_host) + " exceeds the " +
        std::to_string(kMaxProcsPerHost) + " ports per host this backend hands out");

  const std::vector<int>& host_of = spec.rank_host;
  processes_.reserve(host_of.size() + 1);
  int slot = 0;
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    const auto host = static_cast<std::size_t>(host_of[r]);
    if (host >= topology.hosts.size())
      throw std::invalid_argument("rank " + std::to_string(r) + " is placed on host " +
                                  std::to_string(host) + " which does not exist");
    // Ranks of one host are consecutive: the slot (and port) restarts when the host changes.
    slot = (r > 0 && host_of[r - 1] == host_of[r]) ? slot + 1 : 0;
    processes_.push_back(make_entry(static_cast<Rank>(r), topology.hosts[host], slot));
  }
  for (std::size_t r = 0; r < topology.relays.size(); ++r) {
    processes_.push_back(make_entry(kNoRank, topology.relays[r], 0));
    processes_.back().label = topology.relays[r].name;
    processes_.back().relay = true;
    processes_.back().site = site_of(spec, spec.relays[r].cluster);
  }
  processes_.push_back(make_entry(kNoRank, topology.rendezvous, 0));
  processes_.back().site = site_of(spec, spec.rendezvous_cluster);
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    const auto sw =
        static_cast<std::size_t>(spec.hosts[static_cast<std::size_t>(host_of[r])].switch_index);
    processes_[r].site = site_of(spec, spec.switches.at(sw).cluster);
  }
  rank_count_ = static_cast<int>(host_of.size());
  ranks_running_ = rank_count_;
  running_ = process_count();
  for (int i = 0; i < process_count(); ++i) by_endpoint_.emplace(process(i).endpoint, i);
}

int World::find(const Endpoint& endpoint) const {
  auto it = by_endpoint_.find(endpoint);
  return it == by_endpoint_.end() ? -1 : it->second;
}

bool World::is_address_of_run(const Endpoint& endpoint) const {
  const std::string address = endpoint.substr(0, endpoint.rfind(':'));
  for (const ProcessEntry& entry : processes_) {
    const Endpoint& own = entry.endpoint;
    if (own.compare(0, own.rfind(':'), address) == 0 && own.rfind(':') == address.size())
      return true;
  }
  return false;
}

void World::record_exit(int index, TimeNs now, const ExitCmd& exit) {
  ProcessEntry& entry = process(index);
  if (entry.exited) return;
  entry.exited = true;
  --running_;
  last_exit_ = std::max(last_exit_, now);
  observer_.on_exit(entry.label, now, exit);
  if (!exit.ok && failure_.empty())
    failure_ = entry.label + " failed: " + (exit.reason.empty() ? "no reason given" : exit.reason);
  if (entry.rank != kNoRank) --ranks_running_;
  // Everyone is gone: what is still on the wire (FINs, ACKs) is not part of the run.
  if (running_ == 0) ::ns3::Simulator::Stop();
}

void World::count_event(TimeNs now) {
  ++events_;
  if (events_ < next_progress_events_ && now < next_progress_time_) return;
  next_progress_events_ = events_ + kProgressEveryEvents;
  next_progress_time_ = (now / kProgressEvery + 1) * kProgressEvery;
  char line[160];
  std::snprintf(line, sizeof line, "ns3: t=%.3f s, %llu inputs, %d of %d ranks running",
                static_cast<double>(now) * 1e-9, static_cast<unsigned long long>(events_),
                ranks_running_, rank_count_);
  observer_.on_progress(line);
}

TimeNs World::finish(TimeNs clock) {
  for (int i = 0; i < process_count(); ++i) {
    if (process(i).exited) continue;
    record_exit(i, clock, ExitCmd{false, "still waiting when the simulation ran out of events"});
  }
  observer_.on_backend_count("inference.rtt_probes", static_cast<double>(rtt_probes_));
  observer_.on_backend_count("inference.throughput_probes",
                             static_cast<double>(throughput_probes_));
  return last_exit_;
}

}  // namespace tsunagi::sim::ns3
