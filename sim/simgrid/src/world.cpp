// Shared run state: process table, exits, counters and progress.
#include "world.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <limits>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "time_units.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {
namespace {

// Progress goes to stderr through the CLI: often enough to see a long run move, rarely enough
// to cost nothing.
constexpr TimeNs kProgressEvery = 10 * kNsPerSec;
constexpr std::uint64_t kProgressEveryEvents = std::uint64_t{1} << 22;

ProcessEntry make_entry(Rank rank, sg4::Host* host, int slot) {
  ProcessEntry entry;
  entry.rank = rank;
  entry.label = runner::process_label(rank);
  entry.endpoint = host->get_name() + ":" + std::to_string(slot);
  entry.host = host;
  // Mailboxes are named after the endpoint: one inbox per process for everything it receives.
  entry.inbox = sg4::Mailbox::by_name(entry.endpoint);
  return entry;
}

}  // namespace

World::World(const scenario::Scenario& scenario, runner::RunObserver& observer,
             const Platform& platform)
    : observer_(observer) {
  route_probes_ = scenario.simgrid.rtt_probe == "route";
  latency_only_below_ = scenario.simgrid.latency_only_below;
  loopback_bandwidth_ = scenario.network.loopback_bandwidth;
  loopback_latency_ = scenario.network.loopback_latency;
  auto config = std::make_shared<ProtocolConfig>(scenario.protocol);
  config->processes = scenario::process_count(scenario);
  config_ = std::move(config);

  const std::vector<int> host_of = scenario::rank_to_host(scenario);
  processes_.reserve(host_of.size() + 1);
  int slot = 0;
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    const auto host = static_cast<std::size_t>(host_of[r]);
    if (host >= platform.hosts.size())
      throw std::invalid_argument("rank " + std::to_string(r) + " is placed on host " +
                                  std::to_string(host) + " which does not exist");
    // Ranks of one host are consecutive, so the slot restarts whenever the host changes.
    slot = (r > 0 && host_of[r - 1] == host_of[r]) ? slot + 1 : 0;
    processes_.push_back(make_entry(static_cast<Rank>(r), platform.hosts[host], slot));
  }
  rendezvous_index_ = static_cast<int>(processes_.size());
  processes_.push_back(make_entry(kNoRank, platform.rendezvous, 0));
  ranks_running_ = ranks_total_ = static_cast<int>(host_of.size());
  add_relays(scenario, platform);
  for (int i = 0; i < process_count(); ++i) by_endpoint_.emplace(process(i).endpoint, i);
}

int World::find(const Endpoint& endpoint) const {
  auto it = by_endpoint_.find(endpoint);
  return it == by_endpoint_.end() ? -1 : it->second;
}

bool World::is_host_of_run(const Endpoint& endpoint) const {
  const std::string host = endpoint.substr(0, endpoint.rfind(':'));
  return sg4::Host::by_name_or_null(host) != nullptr;
}

void World::record_exit(int index, TimeNs now, const ExitCmd& exit) {
  ProcessEntry& entry = process(index);
  if (entry.exited) return;
  entry.exited = true;
  last_exit_ = std::max(last_exit_, now);
  observer_.on_exit(entry.label, now, exit);
  if (!exit.ok && failure_.empty())
    failure_ = entry.label + " failed: " + (exit.reason.empty() ? "no reason given" : exit.reason);
  if (entry.rank != kNoRank) --ranks_running_;
}

void World::count_event(TimeNs now) {
  ++events_;
  if (events_ < next_progress_events_ && now < next_progress_time_) return;
  next_progress_events_ = events_ + kProgressEveryEvents;
  next_progress_time_ = (now / kProgressEvery + 1) * kProgressEvery;
  char line[160];
  std::snprintf(line, sizeof line, "simgrid: t=%.3f s, %llu events, %d of %d ranks running",
                to_seconds(now), static_cast<unsigned long long>(events_), ranks_running_,
                ranks_total_);
  observer_.on_progress(line);
}

TimeNs World::finish(TimeNs clock) {
  for (int i = 0; i < process_count(); ++i) {
    if (process(i).exited) continue;
    // The engine ran out of events while this process still waited for something.
    record_exit(i, clock, ExitCmd{false, "still waiting when the simulation ran out of events"});
  }
  observer_.on_backend_count("inference.rtt_probes", static_cast<double>(rtt_probes_));
  observer_.on_backend_count("inference.throughput_probes",
                             static_cast<double>(throughput_probes_));
  if (has_wan()) {
    // Connections opened across each cluster's router over the run; the busiest router.
    const auto busiest = std::max_element(wan_connections_.begin(), wan_connections_.end());
    observer_.on_backend_count("wan.router_connections_max", static_cast<double>(*busiest));
  }
  return last_exit_;
}

TimeNs World::route_rtt(int from, int to, std::uint32_t bytes) const {
  sg4::Host* a = processes_[static_cast<std::size_t>(from)].host;
  sg4::Host* b = processes_[static_cast<std::size_t>(to)].host;
  double latency = to_seconds(loopback_latency_);
  double bottleneck = loopback_bandwidth_;
  if (a != b) {
    std::vector<sg4::Link*> links;
    latency = 0;
    a->route_to(b, links, &latency);
    bottleneck = std::numeric_limits<double>::infinity();
    for (const sg4::Link* link : links) bottleneck = std::min(bottleneck, link->get_bandwidth());
  }
  const double one_way = latency + static_cast<double>(bytes) / bottleneck;
  return 2 * to_ns(one_way);
}

}  // namespace tsunagi::sim::simgrid
