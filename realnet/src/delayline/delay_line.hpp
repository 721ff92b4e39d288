// A user-space delay line: this kernel has no netem (docs/realnet.md), so a link that needs
// real latency is two TAP devices, one in each namespace it joins, and this program moves
// every Ethernet frame from one to the other after a fixed delay. Frames keep their order
// (constant delay, FIFO per direction). Bandwidth is not limited here: the tbf qdiscs on the
// TAP devices do that. The TAP devices disappear when this process ends, so nothing is left
// behind, whatever way it ends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tsunagi::realnet {

struct DelayLinkSpec {
  std::string ns_a, if_a, ns_b, if_b;
  std::int64_t delay_ns = 0;
};

// "NS_A:IF_A:NS_B:IF_B:DELAY_NS" -> spec. Throws std::invalid_argument.
DelayLinkSpec parse_delay_link(const std::string& text);

// Creates every TAP pair (entering each namespace by /var/run/netns/NAME), prints "ready" on
// stdout, then forwards frames until SIGINT/SIGTERM. Returns the exit status.
int run_delay_lines(const std::vector<DelayLinkSpec>& links, std::size_t queue_limit);

}  // namespace tsunagi::realnet
