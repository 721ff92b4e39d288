// The switch tree as nested SimGrid star zones (see platform.hpp for the shape of routes).
#include "platform.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "platform_parts.hpp"
#include "time_units.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {
namespace {

// Parent index of every switch; -1 for the root. Parents must come before their children,
// which also rules out cycles.
std::vector<int> parent_indices(const scenario::Network& network) {
  std::map<std::string, int> index_of;
  std::vector<int> parents;
  for (const auto& sw : network.switches) {
    if (sw.name.empty()) throw std::invalid_argument("a switch has an empty name");
    if (sw.parent.empty()) {
      parents.push_back(-1);
    } else {
      auto it = index_of.find(sw.parent);
      if (it == index_of.end())
        throw std::invalid_argument("switch '" + sw.name + "': parent '" + sw.parent +
                                    "' is not listed before it");
      parents.push_back(it->second);
    }
    if (!index_of.emplace(sw.name, static_cast<int>(parents.size()) - 1).second)
      throw std::invalid_argument("switch '" + sw.name + "' is listed twice");
  }
  return parents;
}

// The WAN link of a cluster's root switch: its gateway is the cluster's router.
void join_wan(sg4::NetZone* wan, const SwitchZones& root, const scenario::ClusterSpec& cluster,
              ZoneAssembly& assembly) {
  const sg4::Link* link =
      duplex_link(wan, cluster.name + ".wan", cluster.wan_bandwidth, cluster.wan_latency);
  assembly.then(wan, [wan, root, link] {
    wan->add_route(root.zone->get_netpoint(), nullptr, root.gateway, nullptr,
                   {sg4::LinkInRoute(link, Direction::UP)}, true);
  });
}

scenario::NetworkFactors link_factors;  // set_link_factors: the defaults change nothing

}  // namespace

void set_link_factors(const scenario::NetworkFactors& factors) {
  link_factors = factors;
}

double link_bandwidth(double nominal) {
  return scenario::factored_bandwidth(link_factors, nominal);
}

TimeNs link_latency(TimeNs nominal) {
  return scenario::factored_latency(link_factors, nominal);
}

sg4::Link* duplex_link(sg4::NetZone* zone, const std::string& name, double bandwidth,
                       TimeNs latency) {
  return zone->create_split_duplex_link(name, link_bandwidth(bandwidth))
      ->set_latency(to_seconds(link_latency(latency)))
      ->seal();
}

sg4::Host* add_host(const SwitchZones& sw, const std::string& name,
                    const scenario::SwitchSpec& spec, double loopback_bandwidth,
                    TimeNs loopback_latency, const PlatformOptions& options) {
  sg4::Host* host = sw.leaf->create_host(name, options.host_speed);
  host->set_core_count(options.cores_per_host);
  const sg4::Link* link =
      duplex_link(sw.leaf, name + ".link", spec.host_bandwidth, spec.host_latency);
  // From the host to everyone: its link UP; to the host: its link DOWN (symmetrical route).
  sw.leaf->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                     {sg4::LinkInRoute(link, Direction::UP)}, true);
  // Processes on one host talk through the host's own loopback, shared among them. Not sealed
  // here: sealing the zone seals it, and SimGrid 3.32 announces a plain link as created on each
  // seal, so its Paje tracing would create the link's container twice and abort ("container
  // rendezvous.lo already present in all_containers_"; tests/cli/paje.sh).
  const sg4::Link* lo = sw.leaf->create_link(name + ".lo", loopback_bandwidth)
                            ->set_latency(to_seconds(loopback_latency));
  sw.leaf->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                     {sg4::LinkInRoute(lo)}, false);
  return host;
}

std::size_t add_switch_hosts(const SwitchZones& sw, std::size_t s, const scenario::Network& network,
                             const std::vector<scenario::HostSlot>& slots, std::size_t next,
                             const PlatformOptions& options, Platform& platform) {
  for (; next < slots.size() && slots[next].switch_index == static_cast<int>(s); ++next) {
    platform.hosts.push_back(add_host(sw, slots[next].host, network.switches[s],
                                      network.loopback_bandwidth, network.loopback_latency,
                                      options));
  }
  return next;
}

SwitchZones create_switch(const scenario::SwitchSpec& spec, const SwitchZones* parent,
                          bool has_children, sg4::NetZone* top, ZoneAssembly& assembly) {
  SwitchZones sw;
  sw.zone = assembly.star_zone("switch:" + spec.name);
  if (parent != nullptr) assembly.join(sw.zone, parent->zone);
  if (parent == nullptr && top != nullptr) assembly.join(sw.zone, top);
  sw.leaf = sw.zone;
  if (has_children) {
    sw.leaf = assembly.star_zone("switch:" + spec.name + "/hosts");
    assembly.join(sw.leaf, sw.zone);
  }
  sw.gateway = sw.leaf->create_router("switch:" + spec.name + "/gw");
  if (has_children) {
    // Inside the switch, the leaf reaches everything through its gateway with no extra link:
    // the host links are already on the hosts' side of the gateway.
    assembly.then(sw.zone, [sw] {
      sw.zone->add_route(sw.leaf->get_netpoint(), nullptr, sw.gateway, nullptr, {}, true);
    });
  }
  if (parent != nullptr) {
    const sg4::Link* uplink = duplex_link(parent->zone, spec.name + ".uplink",
                                          spec.uplink_bandwidth, spec.uplink_latency);
    assembly.then(parent->zone, [into = parent->zone, sw, uplink] {
      into->add_route(sw.zone->get_netpoint(), nullptr, sw.gateway, nullptr,
                      {sg4::LinkInRoute(uplink, Direction::UP)}, true);
    });
  }
  return sw;
}

std::vector<sg4::Host*> all_hosts(const Platform& platform) {
  std::vector<sg4::Host*> hosts = platform.hosts;
  if (platform.rendezvous != nullptr) hosts.push_back(platform.rendezvous);
  hosts.insert(hosts.end(), platform.relays.begin(), platform.relays.end());
  return hosts;
}

std::size_t root_switch_index(const scenario::Network& network) {
  if (!network.clusters.empty()) {
    // The rendezvous cluster's root plays the part of the single LAN's root.
    const std::vector<int> cluster_of = scenario::cluster_of_switches(network);
    for (std::size_t s = 0; s < network.switches.size(); ++s) {
      const auto c = static_cast<std::size_t>(std::max(cluster_of[s], 0));
      if (network.switches[s].parent.empty() &&
          network.clusters[c].name == network.rendezvous_cluster)
        return s;
    }
    throw std::invalid_argument("rendezvous cluster '" + network.rendezvous_cluster +
                                "' has no root switch");
  }
  std::size_t roots = 0;
  std::size_t root = 0;
  for (std::size_t s = 0; s < network.switches.size(); ++s) {
    if (network.switches[s].parent.empty()) {
      ++roots;
      root = s;
    }
  }
  if (roots != 1)
    throw std::invalid_argument(
        "the network needs exactly one root switch (one without a "
        "parent), found " +
        std::to_string(roots));
  return root;
}

Platform build_platform(const scenario::Network& network, const PlatformOptions& options,
                        const std::vector<scenario::RelaySlot>& relays) {
  set_link_factors(network.factors);
  if (network.dragonfly) return build_dragonfly_platform(network, options);
  if (network.serial) return build_serial_platform(network, options);
  const std::size_t root = root_switch_index(network);
  const std::vector<int> cluster_of = scenario::cluster_of_switches(network);
  const bool sites = scenario::has_site_rtt(network);
  const std::vector<scenario::HostSlot> slots = scenario::enumerate_hosts(network);
  ZoneAssembly assembly;
  sg4::NetZone* wan = network.clusters.empty() ? nullptr
                      : sites                  ? assembly.full_zone("wan")
                                               : assembly.star_zone("wan");
  std::vector<SwitchZones> site_roots(network.clusters.size());
  const std::vector<int> parents = parent_indices(network);
  std::vector<bool> has_children(network.switches.size(), false);
  for (int parent : parents)
    if (parent >= 0) has_children[static_cast<std::size_t>(parent)] = true;

  // Zones join the tree at the end (zone_assembly.hpp): SimGrid checks every new name against
  // all zones of the tree, which would make the build quadratic.
  std::vector<SwitchZones> switches;
  switches.reserve(network.switches.size());
  Platform platform;
  std::size_t next_slot = 0;
  for (std::size_t s = 0; s < network.switches.size(); ++s) {
    const scenario::SwitchSpec& spec = network.switches[s];
    const SwitchZones* parent =
        parents[s] < 0 ? nullptr : &switches[static_cast<std::size_t>(parents[s])];
    switches.push_back(create_switch(spec, parent, has_children[s], wan, assembly));
    const int cluster = cluster_of[s];
    if (wan != nullptr && parent == nullptr && sites)
      site_roots[static_cast<std::size_t>(cluster)] = switches[s];
    else if (wan != nullptr && parent == nullptr)
      join_wan(wan, switches[s], network.clusters[static_cast<std::size_t>(cluster)], assembly);
    next_slot = add_switch_hosts(switches[s], s, network, slots, next_slot, options, platform);
    // The rendezvous gets a host of its own on the root switch, wired like the root's hosts.
    if (s == root)
      platform.rendezvous = add_host(switches[s], kRendezvousHost, spec, network.loopback_bandwidth,
                                     network.loopback_latency, options);
    // Relays of a cluster hang off its root switch, wired like the root's hosts.
    if (wan != nullptr && parent == nullptr) {
      for (const scenario::RelaySlot& relay : relays) {
        if (relay.cluster != cluster) continue;
        platform.relays.push_back(add_host(switches[s], relay.host, spec,
                                           network.loopback_bandwidth, network.loopback_latency,
                                           options));
      }
    }
  }
  if (sites) join_site_backbone(wan, site_roots, network, assembly);
  assembly.finish(all_hosts(platform));  // joins and seals the whole tree
  return platform;
}

}  // namespace tsunagi::sim::simgrid
