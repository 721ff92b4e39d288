// Ground truth of long fat WANs (issue 15): backbone latencies per site pair, the buffers a
// site's stack holds towards a peer, the window TCP can open with them; and byte sizes.
#include "tsunagi/scenarios/site_tcp.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {
namespace {

// Latency from a host of the cluster's root switch to the backbone: its host link and the
// cluster's access (wan) link.
TimeNs site_edge_latency(const Network& network, int cluster) {
  const ClusterSpec& c = network.clusters[static_cast<std::size_t>(cluster)];
  for (const SwitchSpec& sw : network.switches)
    if (sw.name == c.root_switch) return sw.host_latency + c.wan_latency;
  return c.wan_latency;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data() || !std::isfinite(value) || value < 0)
    return std::nullopt;
  std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  constexpr std::array<std::pair<std::string_view, double>, 7> kUnits{{{"", 1},
                                                                       {"B", 1},
                                                                       {"KB", 1024.0},
                                                                       {"MB", 1048576.0},
                                                                       {"GB", 1073741824.0},
                                                                       {"KiB", 1024.0},
                                                                       {"MiB", 1048576.0}}};
  for (const auto& [name, factor] : kUnits) {
    if (name != unit) continue;
    const double bytes = std::round(value * factor);
    if (bytes > static_cast<double>(std::uint64_t{1} << 40)) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
  }
  return std::nullopt;
}

bool has_site_rtt(const Network& network) {
  return !network.backbone.rtt.empty();
}

TimeNs backbone_latency(const Network& network, int a, int b) {
  const TimeNs rtt = network.backbone.rtt[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  return rtt / 2 - site_edge_latency(network, a) - site_edge_latency(network, b);
}

PeerBuffers stack_buffers(const Network& network, int from, int to) {
  PeerBuffers out;
  if (from < 0 || network.clusters.empty()) return out;
  const SiteTcp& tcp = network.clusters[static_cast<std::size_t>(from)].tcp;
  out.send = tcp.send_buffer;
  out.recv = tcp.recv_buffer;
  if (network.backbone.profile != TcpProfile::Tuned || to < 0 || to == from) return out;
  const std::string& peer = network.clusters[static_cast<std::size_t>(to)].name;
  for (const PeerBuffers& entry : tcp.tuned) {
    if (entry.peer != peer) continue;
    out.send = entry.send;
    out.recv = entry.recv;
  }
  out.peer = peer;
  return out;
}

std::uint64_t effective_window(const Network& network, int sender, int receiver, std::uint64_t send,
                               std::uint64_t recv) {
  std::uint64_t window = 0;
  if (send > 0 && recv > 0)
    window = std::min(send, recv);
  else
    window = std::max(send, recv);
  const auto scales = [&](int c) {
    return c < 0 || network.clusters.empty() ||
           network.clusters[static_cast<std::size_t>(c)].tcp.window_scaling;
  };
  if (!scales(sender) || !scales(receiver))
    window = window == 0 ? kUnscaledWindowMax : std::min(window, kUnscaledWindowMax);
  return window;
}

}  // namespace tsunagi::scenario
