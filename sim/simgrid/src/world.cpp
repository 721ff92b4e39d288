// Shared run state: the process table and where each process sits in the platform.
#include "world.hpp"

#include <algorithm>
#include <stdexcept>

#include <limits>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <xbt/config.hpp>

#include "time_units.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {
namespace {

std::shared_ptr<const ProtocolConfig> config_of(const scenario::Scenario& scenario) {
  auto config = std::make_shared<ProtocolConfig>(scenario.protocol);
  config->processes = scenario::process_count(scenario);
  return config;
}

}  // namespace

World::World(const scenario::Scenario& scenario, runner::RunObserver& observer,
             const Platform& platform)
    : table_("simgrid", observer, config_of(scenario)),
      network_(scenario.network),
      small_messages_(scenario.simgrid) {
  route_probes_ = scenario.simgrid.rtt_probe == "route";
  slow_start_ = scenario.simgrid.slow_start;
  latency_only_below_ = scenario.simgrid.latency_only_below;
  loopback_bandwidth_ = scenario.network.loopback_bandwidth;
  loopback_latency_ = scenario.network.loopback_latency;

  const std::vector<int> host_of = scenario::rank_to_host(scenario);
  const std::vector<int> cluster_of = scenario::rank_clusters(scenario);  // -1 without clusters
  const std::vector<int> slot_of = runner::host_slots(host_of, platform.hosts.size());
  slots_.reserve(host_of.size() + 1);
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    const auto host = static_cast<std::size_t>(host_of[r]);
    const int slot = slot_of[r];
    const auto rank = static_cast<Rank>(r);
    runner::ProcessRow row{runner::Role::Node,
                           rank,
                           runner::process_label(rank),
                           platform.hosts[host]->get_name() + ":" + std::to_string(slot),
                           platform.hosts[host]->get_name(),
                           site_of(cluster_of[r])};
    add_process(std::move(row), platform.hosts[host], scenario::Place{cluster_of[r], false});
  }
  int rendezvous_cluster = -1;
  for (std::size_t c = 0; c < network_.clusters.size(); ++c)
    if (network_.clusters[c].name == network_.rendezvous_cluster)
      rendezvous_cluster = static_cast<int>(c);
  add_process(runner::ProcessRow{runner::Role::Rendezvous, kNoRank, runner::process_label(kNoRank),
                                 kRendezvousEndpoint, kRendezvousHost, site_of(rendezvous_cluster)},
              platform.rendezvous, scenario::Place{rendezvous_cluster, false});
  add_relays(scenario, platform);
  std::vector<runner::PlannedKill> kills;
  for (const scenario::FaultSpec& fault : scenario.faults)
    kills.push_back(runner::PlannedKill{fault.kill, fault.at});
  table_.plan_kills(kills);
  completions_ = std::make_unique<Completions>(process_count());
}

void World::add_process(runner::ProcessRow row, sg4::Host* host, scenario::Place place) {
  table_.add(std::move(row));
  slots_.push_back(ActorSlot{host, place});
}

std::string World::site_of(int cluster) const {
  if (cluster < 0) return "";
  return network_.clusters[static_cast<std::size_t>(cluster)].name;
}

bool World::is_host_of_run(const Endpoint& endpoint) const {
  const std::string host = endpoint.substr(0, endpoint.rfind(':'));
  return sg4::Host::by_name_or_null(host) != nullptr;
}

runner::RunSummary World::finish(TimeNs clock) {
  if (has_wan()) {
    // Connections opened across each cluster's router over the run; the busiest router.
    const auto busiest = std::max_element(wan_connections_.begin(), wan_connections_.end());
    table_.count("wan.router_connections_max", static_cast<double>(*busiest));
  }
  return table_.finish(clock);
}

World::RouteFigures World::route_figures(int from, int to) const {
  sg4::Host* a = slots_[static_cast<std::size_t>(from)].host;
  sg4::Host* b = slots_[static_cast<std::size_t>(to)].host;
  RouteFigures route{to_seconds(loopback_latency_), loopback_bandwidth_};
  if (a != b) {
    std::vector<sg4::Link*> links;
    route.latency_s = 0;
    a->route_to(b, links, &route.latency_s);
    route.bottleneck = std::numeric_limits<double>::infinity();
    for (const sg4::Link* link : links)
      route.bottleneck = std::min(route.bottleneck, link->get_bandwidth());
  }
  return route;
}

TimeNs World::route_rtt(int from, int to, std::uint32_t bytes) const {
  const RouteFigures route = route_figures(from, to);
  const double one_way = route.latency_s + static_cast<double>(bytes) / route.bottleneck;
  return 2 * to_ns(one_way);
}

}  // namespace tsunagi::sim::simgrid
