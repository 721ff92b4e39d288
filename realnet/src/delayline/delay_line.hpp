// A user-space delay line: this kernel has no netem (docs/realnet.md), so a link that needs
// real latency is two TAP devices, one in each namespace it joins, and this program moves
// every Ethernet frame from one to the other after a fixed delay. Frames keep their order
// (constant delay, FIFO per direction). A link given a rate is also a serial link: each frame
// is held for its own serialisation time, one after another (link_clock.hpp); the tbf qdiscs
// on the TAP devices still queue and pace the traffic in front of it (its FIFO depth and the
// senders' back-pressure live there). A link without a rate is not limited here: tbf does
// that. The TAP devices of a link without a rate take TCP segmentation offload, so the line
// moves GSO super-frames (up to 64 KB) rather than one frame per 1,448-byte segment: one read
// and one write per super-frame kept a path of several hops at its links' rate (one frame per
// segment cost ~2.9 ns a byte a hop, so 4 hops ran at ~0.7 Gbit/s). The TAP devices disappear
// when this process ends, so nothing is left behind, whatever way it ends. At the end it prints
// how late its writes were (its own wake-up cost).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tsunagi::realnet {

struct DelayLinkSpec {
  std::string ns_a, if_a, ns_b, if_b;
  std::int64_t delay_ns = 0;
  std::int64_t rate_bits_per_s = 0;  // 0: a fixed delay; else a serial link at this rate
};

// "NS_A:IF_A:NS_B:IF_B:DELAY_NS[:RATE_BIT_PER_S]" -> spec. Throws std::invalid_argument.
DelayLinkSpec parse_delay_link(const std::string& text);

// Creates every TAP pair (entering each namespace by /var/run/netns/NAME), prints "ready" on
// stdout, then forwards frames until SIGINT/SIGTERM. Returns the exit status. It sleeps until
// spin_ns before a release and polls from there (0: sleeps until the release itself).
int run_delay_lines(const std::vector<DelayLinkSpec>& links, std::size_t queue_limit,
                    std::int64_t spin_ns);

}  // namespace tsunagi::realnet
