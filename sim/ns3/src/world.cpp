// Shared run state: the process table and where each process sits in the network.
#include "world.hpp"

#include <sstream>
#include <stdexcept>

#include <ns3/simulator.h>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {
namespace {

std::string site_of(const Ns3Spec& spec, int cluster) {
  if (cluster < 0 || static_cast<std::size_t>(cluster) >= spec.clusters.size()) return "";
  return spec.clusters[static_cast<std::size_t>(cluster)].name;
}

std::shared_ptr<const ProtocolConfig> config_of(const Ns3Spec& spec) {
  auto config = std::make_shared<ProtocolConfig>(spec.protocol);
  config->processes = static_cast<int>(spec.rank_host.size());
  return config;
}

}  // namespace

World::World(const Ns3Spec& spec, runner::RunObserver& observer, const Topology& topology)
    : table_("ns3", observer, config_of(spec)) {
  if (spec.procs_per_host > kMaxProcsPerHost)
    throw std::invalid_argument(
        "ns3: placement.procs_per_host = " + std::to_string(spec.procs_per_host) + " exceeds the " +
        std::to_string(kMaxProcsPerHost) + " ports per host this backend hands out");

  const std::vector<int>& host_of = spec.rank_host;
  const std::vector<int> slot_of = runner::host_slots(host_of, topology.hosts.size());
  slots_.reserve(host_of.size() + 1 + topology.relays.size());
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    const auto host = static_cast<std::size_t>(host_of[r]);
    const auto sw = static_cast<std::size_t>(spec.hosts[host].switch_index);
    const auto rank = static_cast<Rank>(r);
    add_process({runner::Role::Node, rank, runner::process_label(rank), "", "",
                 site_of(spec, spec.switches.at(sw).cluster)},
                topology.hosts[host], slot_of[r], spec.switches.at(sw).cluster);
  }
  add_process({runner::Role::Rendezvous, kNoRank, runner::process_label(kNoRank), "", "",
               site_of(spec, spec.rendezvous_cluster)},
              topology.rendezvous, 0, spec.rendezvous_cluster);
  for (std::size_t r = 0; r < topology.relays.size(); ++r) {
    // A relay daemon is labelled by its host.
    add_process({runner::Role::Relay, kNoRank, topology.relays[r].name, "", "",
                 site_of(spec, spec.relays[r].cluster)},
                topology.relays[r], 0, spec.relays[r].cluster);
  }
  for (const Ns3Cluster& cluster : spec.clusters) site_tcp_.push_back(cluster.tcp);
  table_.plan_kills(spec.faults);
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    slots_[r].host = host_of[r];
    slots_[r].switch_index = spec.hosts[static_cast<std::size_t>(host_of[r])].switch_index;
  }
  if (spec.route_probes) routes_.emplace(spec);
}

TimeNs World::route_rtt(int from, int to, std::uint32_t bytes) const {
  if (!routes_) return -1;
  const NodeSlot& a = slots_[static_cast<std::size_t>(from)];
  const NodeSlot& b = slots_[static_cast<std::size_t>(to)];
  if (a.host < 0 || b.host < 0 || a.host == b.host) return -1;
  return route_round_trip(routes_->route(a.switch_index, b.switch_index), bytes);
}

// The endpoint is "<address>:<port>", the port kFirstPort + the process's slot on its node.
void World::add_process(runner::ProcessRow row, const TopologyHost& host, int slot, int cluster) {
  NodeSlot entry;
  entry.cluster = cluster;
  entry.node = host.node;
  entry.address = host.address;
  entry.port = static_cast<std::uint16_t>(kFirstPort + slot);
  std::ostringstream endpoint;
  host.address.Print(endpoint);
  endpoint << ':' << entry.port;
  row.endpoint = endpoint.str();
  row.host = host.name;
  table_.add(std::move(row));
  slots_.push_back(entry);
}

const Ns3SiteTcp* World::site_tcp(int cluster) const {
  if (cluster < 0 || static_cast<std::size_t>(cluster) >= site_tcp_.size()) return nullptr;
  return &site_tcp_[static_cast<std::size_t>(cluster)];
}

int World::cluster_at(::ns3::Ipv4Address address) const {
  for (const NodeSlot& slot : slots_)
    if (slot.address == address) return slot.cluster;
  return -1;
}

bool World::is_address_of_run(const Endpoint& endpoint) const {
  const std::string address = endpoint.substr(0, endpoint.rfind(':'));
  for (int i = 0; i < table_.size(); ++i) {
    const Endpoint& own = table_.row(i).endpoint;
    if (own.compare(0, own.rfind(':'), address) == 0 && own.rfind(':') == address.size())
      return true;
  }
  return false;
}

void World::on_exited() {
  // Everyone is gone: what is still on the wire (FINs, ACKs) is not part of the run.
  if (table_.all_exited()) ::ns3::Simulator::Stop();
}

}  // namespace tsunagi::sim::ns3
