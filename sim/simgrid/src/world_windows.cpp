// TCP windows in the flow model (issue 15). SimGrid's CM02 bounds every flow by one global
// TCP-gamma / (2 x latency); a long fat WAN needs a bound per connection, so each stream message
// carries its own rate: the window the two ends' buffers allow (the core's SetWindow, else each
// site's stack default) over the route's round trip, and the slower stack's rate limit. What
// the flow model leaves out (slow start, loss, SACK) is in docs/simgrid.md.
#include <algorithm>

#include "world.hpp"

namespace tsunagi::sim::simgrid {

double World::stream_rate(int from, int to, std::uint64_t send_buffer,
                          std::uint64_t recv_buffer) const {
  if (from == to || network_.clusters.empty()) {
    // One LAN: only a window the core chose bounds a stream (RTTs are microseconds there).
    const std::uint64_t window = std::min(send_buffer, recv_buffer);
    if (window == 0 || from == to) return 0;
    return static_cast<double>(window) / (static_cast<double>(route_rtt(from, to, 0)) / 1e9);
  }
  const int a = slots_[static_cast<std::size_t>(from)].place.cluster;
  const int b = slots_[static_cast<std::size_t>(to)].place.cluster;
  const std::uint64_t send =
      send_buffer > 0 ? send_buffer : scenario::stack_buffers(network_, a, b).send;
  const std::uint64_t recv =
      recv_buffer > 0 ? recv_buffer : scenario::stack_buffers(network_, b, a).recv;
  const std::uint64_t window = scenario::effective_window(network_, a, b, send, recv);
  double rate = 0;
  if (window > 0)
    rate = static_cast<double>(window) / (static_cast<double>(route_rtt(from, to, 0)) / 1e9);
  for (int site : {a, b}) {
    if (site < 0) continue;
    const double limit = network_.clusters[static_cast<std::size_t>(site)].tcp.rate_limit;
    if (limit > 0) rate = rate > 0 ? std::min(rate, limit) : limit;
  }
  return rate;
}

void World::set_recv_buffer(int process, ConnId conn, std::uint64_t bytes) {
  recv_buffers_[{process, conn}] = bytes;
}

std::uint64_t World::recv_buffer(int process, ConnId conn) const {
  const auto it = recv_buffers_.find({process, conn});
  return it == recv_buffers_.end() ? 0 : it->second;
}

}  // namespace tsunagi::sim::simgrid
