// Endpoints from the address plan (address_plan.hpp), without building anything: the front
// hands them out before a run (tests address processes with them).
#include <sstream>
#include <stdexcept>

#include "address_plan.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

using namespace plan;

std::size_t plan::rendezvous_switch(const Ns3Spec& spec) {
  if (!spec.clusters.empty()) {
    const int c = spec.rendezvous_cluster < 0 ? 0 : spec.rendezvous_cluster;
    return static_cast<std::size_t>(spec.clusters.at(static_cast<std::size_t>(c)).root_switch);
  }
  for (std::size_t s = 0; s < spec.switches.size(); ++s)
    if (spec.switches[s].parent < 0) return s;
  throw std::invalid_argument("ns3: the switch tree has no root");
}

Endpoint endpoint_in(const Ns3Spec& spec, Rank rank) {
  std::size_t s = 0;
  int h = 0;
  int slot = 0;
  if (rank == kNoRank) {  // the extra host after the root switch's own hosts
    s = rendezvous_switch(spec);
    h = spec.switches[s].hosts;
  } else {
    const std::vector<int>& host_of = spec.rank_host;
    const auto r = static_cast<std::size_t>(rank);
    const auto host = static_cast<std::size_t>(host_of.at(r));
    while (slot < static_cast<int>(r) &&
           host_of[r - static_cast<std::size_t>(slot) - 1] == host_of[r])
      ++slot;
    s = static_cast<std::size_t>(spec.hosts.at(host).switch_index);
    for (std::size_t i = 0; i < host; ++i)
      if (spec.hosts[i].switch_index == spec.hosts[host].switch_index) ++h;
  }
  std::ostringstream out;
  host_link(s, h, 2).Print(out);
  out << ':' << kFirstPort + slot;
  return out.str();
}

Endpoint relay_endpoint_in(const Ns3Spec& spec, int relay) {
  const Ns3Relay& self = spec.relays.at(static_cast<std::size_t>(relay));
  const auto c = static_cast<std::size_t>(self.cluster);
  const auto root = static_cast<std::size_t>(spec.clusters.at(c).root_switch);
  // Relays of a cluster are numbered like build(): gateways on the router, others after the
  // root switch's hosts and the rendezvous.
  int index = 0;
  for (int r = 0; r < relay; ++r)
    if (spec.relays[static_cast<std::size_t>(r)].cluster == self.cluster &&
        spec.relays[static_cast<std::size_t>(r)].gateway == self.gateway)
      ++index;
  std::ostringstream out;
  if (self.gateway) {
    gateway_link(c, index, 2).Print(out);
  } else {
    const int h = spec.switches[root].hosts + (rendezvous_switch(spec) == root ? 1 : 0) + index;
    host_link(root, h, 2).Print(out);
  }
  out << ':' << kFirstPort;
  return out.str();
}

}  // namespace tsunagi::sim::ns3
