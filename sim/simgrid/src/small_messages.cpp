// Small messages dated by the adapter (small_messages.hpp).
#include "small_messages.hpp"

#include <algorithm>
#include <limits>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <xbt/config.hpp>

namespace tsunagi::sim::simgrid {

namespace sg4 = ::simgrid::s4u;

SmallMessages::SmallMessages(const scenario::SimgridConfig& config)
    : latency_only_below_(config.latency_only_below), uncontended_below_(config.uncontended_below) {
  if (config.network_model != "CM02") return;
  active_ = true;
  latency_factor_ = ::simgrid::config::get_value<double>("network/latency-factor");
  bandwidth_factor_ = ::simgrid::config::get_value<double>("network/bandwidth-factor");
  tcp_gamma_ = ::simgrid::config::get_value<double>("network/TCP-gamma");
}

// As SimGrid 3.32's CM02 communicate(): the route between the two hosts (their loopback link
// when both are one host) and its summed latency; the flow's bound is the slowest link's
// bandwidth, and TCP-gamma / (2 x latency) when the route has a latency; it progresses at that
// rate times the bandwidth factor.
SmallMessages::Route SmallMessages::route(const sg4::Host* from, const sg4::Host* to) const {
  Route out;
  double latency = 0;
  from->route_to(to, out.links, &latency);
  double rate = std::numeric_limits<double>::infinity();
  for (const sg4::Link* link : out.links) rate = std::min(rate, link->get_bandwidth());
  if (latency > 0 && tcp_gamma_ > 0) rate = std::min(rate, tcp_gamma_ / (2 * latency));
  out.latency_s = latency * latency_factor_;
  out.rate_bytes_per_s = rate * bandwidth_factor_;
  return out;
}

std::optional<double> SmallMessages::arrival(const Route& route, std::uint64_t bytes,
                                             double now) const {
  if (bytes < latency_only_below_) return now + route.latency_s;
  const double transmission = static_cast<double>(bytes) / route.rate_bytes_per_s;
  if (transmission > kNegligibleShareOfLatency * route.latency_s) return std::nullopt;
  for (const sg4::Link* link : route.links)
    if (link->is_used()) return std::nullopt;
  return now + route.latency_s + transmission;
}

}  // namespace tsunagi::sim::simgrid
