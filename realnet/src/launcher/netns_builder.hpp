// Building a NetnsPlan: namespaces, bridges and links with their delay and rate (internal to
// the launcher; netns_network.cpp and netns_dragonfly.cpp share it).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "netns_network.hpp"

namespace tsunagi::realnet {

// "02:77:00:00:x:y" for the k-th address: locally administered, fixed, so every host can be
// given every other host's MAC up front (see plan_netns).
inline std::string mac_address(int k) {
  char text[32];
  std::snprintf(text, sizeof text, "02:77:00:%02x:%02x:%02x", (k >> 16) & 0xff, (k >> 8) & 0xff,
                k & 0xff);
  return text;
}

inline std::string bits_per_second(double bytes_per_second) {
  return std::to_string(static_cast<long long>(std::llround(bytes_per_second * 8))) + "bit";
}

// How tbf shapes one link end. The default suits switched links carrying TCP: 1 ms of burst (at
// least 64 KB, so one GSO super-packet passes whole), 50 ms of queue. A link that must show its
// serialisation delay per message (a serial link, docs/lmmc.md) asks for a small bucket: tbf
// then cuts GSO super-packets into segments itself, and a message waits about size / rate.
struct TbfShape {
  long long burst_bytes = 0;  // 0: the default above
  long long limit_bytes = 0;  // 0: 50 ms of queue at the link's rate (tbf's `latency 50ms`)
  // The delay line also holds every frame for its own serialisation time at the link's rate,
  // in FIFO order (a serial link: tbf sends the first frame after an idle gap at once). Such a
  // link is a delay line whatever its latency, 0 included.
  bool serialise = false;
};

// A host of a LAN: its namespace, address and fixed MAC (for static ARP).
struct Member {
  std::string ns, ip, mac;
};

// WAN addresses: cluster c (file order) is 10.<100+c>.0.0/16, its router's LAN address
// 10.<100+c>.255.254; k >= 1 numbers the LAN's hosts.
inline std::string host_address(int cluster, int k) {
  return "10." + std::to_string(100 + cluster) + "." + std::to_string(k / 256) + "." +
         std::to_string(k % 256);
}
inline std::string subnet(int cluster) {
  return "10." + std::to_string(100 + cluster) + ".0.0/16";
}
inline std::string router_lan_ip(int c) {
  return host_address(c, 255 * 256 + 254);
}
inline std::string router_mac(int c, int side) {
  return mac_address((0x78 + side) << 16 | (c + 1));
}

struct LinkEnd {
  std::string ns;
  std::string ifname;
  bool bridge_port = false;  // enslaved to br0 in its namespace
  std::string ip;            // host end: the address
  std::string mac;           // host end: its fixed MAC
  int prefix_length = 16;    // of the address
};

class Builder {
 public:
  Builder(NetnsPlan& plan, const NetnsCalibration& calibration)
      : plan_(plan), calibration_(calibration) {}

  void add_namespace(const std::string& name) {
    plan_.namespaces.push_back(name);
    plan_.root_batch.push_back("netns add " + name);
    ns(name).push_back("link set lo up");
  }

  void add_bridge(const std::string& name) {
    // No STP and no forwarding delay: ports forward at once; snooping off: probes are unicast.
    ns(name).push_back("link add br0 type bridge stp_state 0 forward_delay 0 mcast_snooping 0");
    ns(name).push_back("link set br0 addrgenmode none");
    if (calibration_.mtu > 0)
      ns(name).push_back("link set br0 mtu " + std::to_string(calibration_.mtu));
    ns(name).push_back("link set br0 up");
  }

  // One link of the scenario between two ends, with its latency and bandwidth.
  void add_link(const LinkEnd& a, const LinkEnd& b, TimeNs latency, double bandwidth,
                const TbfShape& shape = {}) {
    const double scaled = static_cast<double>(latency) * calibration_.latency_scale;
    const auto delay = static_cast<TimeNs>(std::llround(scaled));
    if (shape.serialise) {
      plan_.delay_links.push_back({a.ns, a.ifname, b.ns, b.ifname, delay, bandwidth});
    } else if (delay >= calibration_.min_delay && delay > 0) {
      plan_.delay_links.push_back({a.ns, a.ifname, b.ns, b.ifname, delay});
    } else {
      plan_.root_batch.push_back("link add " + a.ifname + " netns " + a.ns +
                                 " type veth peer name " + b.ifname + " netns " + b.ns);
      ++plan_.veth_links;
    }
    for (const LinkEnd* end : {&a, &b}) {
      auto& lines = ns(end->ns);
      lines.push_back("link set dev " + end->ifname + " addrgenmode none");
      if (calibration_.mtu > 0)
        lines.push_back("link set dev " + end->ifname + " mtu " + std::to_string(calibration_.mtu));
      if (end->bridge_port) lines.push_back("link set dev " + end->ifname + " master br0");
      if (!end->mac.empty())
        lines.push_back("link set dev " + end->ifname + " address " + end->mac);
      if (!end->ip.empty())
        lines.push_back("addr add " + end->ip + "/" + std::to_string(end->prefix_length) + " dev " +
                        end->ifname);
      lines.push_back("link set dev " + end->ifname + " up");
      // tbf: the link's rate on each end's egress (TbfShape says how much burst and queue).
      const auto burst = shape.burst_bytes > 0
                             ? shape.burst_bytes
                             : std::max<long long>(64 * 1024, std::llround(bandwidth / 1000));
      const std::string queue = shape.limit_bytes > 0
                                    ? " limit " + std::to_string(shape.limit_bytes)
                                    : std::string(" latency 50ms");
      plan_.tc_batch[end->ns].push_back("qdisc replace dev " + end->ifname + " root tbf rate " +
                                        bits_per_second(bandwidth) + " burst " +
                                        std::to_string(burst) + queue);
    }
  }

  std::vector<std::string>& ns(const std::string& name) { return plan_.ns_batch[name]; }

 private:
  NetnsPlan& plan_;
  const NetnsCalibration& calibration_;
};

}  // namespace tsunagi::realnet
