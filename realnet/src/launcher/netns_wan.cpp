// Sites joined by per-pair links, and per-site TCP stacks. See netns_wan.hpp.
#include "netns_wan.hpp"

#include <algorithm>
#include <stdexcept>

#include "tsunagi/scenarios/site_tcp.hpp"

namespace tsunagi::realnet {
namespace {

// The pair link of sites a < b (pair number p): a /30, .1 at a's end, .2 at b's.
std::string pair_ip(int p, int side) {
  return "172.24." + std::to_string(p / 64) + "." + std::to_string((p % 64) * 4 + 1 + side);
}
std::string pair_mac(int p, int side) {
  return mac_address((0x7a + side) << 16 | p);
}
std::string pair_ifname(int peer) {
  return "p" + std::to_string(peer);
}

// The "sysctl" text of a tcp_rmem/tcp_wmem triple for a stack whose buffer is `buffer`: twice it
// (the kernel counts its bookkeeping in them, as it does when it doubles SO_RCVBUF), as default
// and maximum: no autotuning, which in fresh namespaces sometimes never grew a receive window
// past its start (docs/realnet.md, "Long fat WANs").
std::string buffer_triple(std::uint64_t buffer) {
  const std::string doubled = std::to_string(2 * buffer);
  return std::to_string(std::min<std::uint64_t>(4096, 2 * buffer)) + " " + doubled + " " + doubled;
}

// A site without buffers autotunes up to this (a new namespace's 6 MB receive and 4 MB send
// maxima would cap a 42 ms path near 3 MB of window); the simulators' sinks hold 64 MiB. Its
// receive buffers start at 16 MiB (a ~10 MB window, above 1 Gbit/s x 42 ms): a fresh autotuned
// connection sometimes kept the window of its start (85 KB from the kernel's 128 KB).
constexpr std::uint64_t kSinkBufferMax = 64u << 20;
constexpr std::uint64_t kReceiveStart = 16u << 20;

}  // namespace

void check_site_wan(const scenario::Scenario& scenario) {
  for (const scenario::ClusterSpec& cluster : scenario.network.clusters)
    if (cluster.policy != scenario::ClusterPolicy::Open)
      throw std::invalid_argument(
          scenario.path + ": cluster '" + cluster.name +
          "': router policies other than \"open\" are not emulated with site_rtt in namespaces "
          "(run it with --backend simgrid or ns3, or drop site_rtt)");
  for (const scenario::RelaySlot& slot : scenario::relay_slots(scenario))
    if (slot.at == scenario::RelayPlacement::Gateway)
      throw std::invalid_argument(scenario.path + ": relay host '" + slot.host +
                                  "': Gateway relays are not emulated with site_rtt in "
                                  "namespaces (use relay_at = \"inside\")");
}

void plan_site_links(const scenario::Network& network, const std::string& prefix, NetnsPlan& plan,
                     Builder& build) {
  const int sites = static_cast<int>(network.clusters.size());
  if (sites * (sites - 1) / 2 > 64 * 256)
    throw std::invalid_argument("netns site WANs hold at most 181 sites");
  auto router = [&](int c) { return prefix + "r" + std::to_string(c); };
  int p = 0;
  for (int a = 0; a < sites; ++a) {
    for (int b = a + 1; b < sites; ++b, ++p) {
      const scenario::ClusterSpec& ca = network.clusters[static_cast<std::size_t>(a)];
      const scenario::ClusterSpec& cb = network.clusters[static_cast<std::size_t>(b)];
      const double bandwidth =
          std::min({ca.wan_bandwidth, cb.wan_bandwidth, network.backbone.bandwidth});
      const TimeNs one_way =
          network.backbone.rtt[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] / 2;
      LinkEnd end_a{router(a), pair_ifname(b), false, pair_ip(p, 0), pair_mac(p, 0), 30};
      LinkEnd end_b{router(b), pair_ifname(a), false, pair_ip(p, 1), pair_mac(p, 1), 30};
      build.add_link(end_a, end_b, one_way, bandwidth);
      for (const auto& [self, other, peer, side] :
           {std::tuple{a, b, &end_b, 1}, std::tuple{b, a, &end_a, 0}}) {
        auto& lines = plan.ns_batch[router(self)];
        lines.push_back("neigh replace " + peer->ip + " lladdr " + pair_mac(p, side) + " dev " +
                        pair_ifname(other) + " nud permanent");
        lines.push_back("route add " + subnet(other) + " via " + peer->ip + " dev " +
                        pair_ifname(other));
      }
    }
  }
}

std::vector<std::string> site_stack_sysctls(const scenario::Network& network, int c) {
  const scenario::SiteTcp& tcp = network.clusters[static_cast<std::size_t>(c)].tcp;
  std::vector<std::string> settings;
  if (!tcp.window_scaling) settings.push_back("net.ipv4.tcp_window_scaling=0");
  if (!tcp.sack) settings.push_back("net.ipv4.tcp_sack=0");
  scenario::PeerBuffers largest = scenario::stack_buffers(network, c, -1);
  for (int d = 0; d < static_cast<int>(network.clusters.size()); ++d) {
    const scenario::PeerBuffers to = scenario::stack_buffers(network, c, d);
    largest.send = std::max(largest.send, to.send);
    largest.recv = std::max(largest.recv, to.recv);
  }
  if (largest.recv > 0)
    settings.push_back("net.ipv4.tcp_rmem=" + buffer_triple(largest.recv));
  else if (scenario::has_site_rtt(network))
    settings.push_back("net.ipv4.tcp_rmem=4096 " + std::to_string(kReceiveStart) + " " +
                       std::to_string(kSinkBufferMax));
  if (largest.send > 0)
    settings.push_back("net.ipv4.tcp_wmem=" + buffer_triple(largest.send));
  else if (scenario::has_site_rtt(network))
    settings.push_back("net.ipv4.tcp_wmem=4096 16384 " + std::to_string(kSinkBufferMax));
  if (scenario::has_site_rtt(network)) {
    settings.push_back("net.ipv4.tcp_no_metrics_save=1");
    settings.push_back("net.ipv4.tcp_congestion_control=reno");
  }
  return settings;
}

}  // namespace tsunagi::realnet
