// Planning a serial-link network in namespaces. See netns_serial.hpp.
#include "netns_serial.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "netns_builder.hpp"
#include "tsunagi/scenarios/serial.hpp"

namespace tsunagi::realnet {
namespace {

constexpr int kMaxSerialNodes = 32 * 256;
constexpr int kMaxSerialLinks = 16 * 256 * 64;  // /30 each in 172.20.0.0/12

// Link L's two ends: 172.<20 + L/16384>.<(L/64) % 256>.<4 (L % 64) + 1 or 2>, a /30.
std::string link_ip(int link, int end) {
  return "172." + std::to_string(20 + link / 16384) + "." + std::to_string((link / 64) % 256) +
         "." + std::to_string(4 * (link % 64) + 1 + end);
}

// The console between node 0 and the rendezvous: 172.19.0.1 (node 0), 172.19.0.2 (rendezvous).
constexpr const char* kConsoleNode = "172.19.0.1";
constexpr const char* kConsoleRendezvous = "172.19.0.2";

// MACs apart from the hosts' and the Dragonfly's: serial link ends 0x7c...., the console 0x7d.
std::string link_mac(int link, int end) {
  return mac_address(0x7c << 16 | (2 * link + end));
}

// A serial link's tbf bucket: one full Ethernet frame (1514 bytes) and a margin for tc's
// rounding of the bucket to its clock, or 50 us at the link's rate if that is more. A bucket
// of 64 KB (the switched links' default) let a 16-64 KB message pass as one burst, faster than
// the link (docs/lmmc.md, "Fig. 9/10"): here every frame after the first waits for its tokens.
constexpr long long kSerialFrame = 1600;  // a full Ethernet frame (1514 bytes) and a margin

long long serial_burst(double bandwidth) {
  return std::max(kSerialFrame, std::llround(bandwidth * 50e-6));
}

// The link's FIFO depth (scenario `fifo`) as tbf's queue: the bytes that may wait for the
// link, never less than two frames. tbf queues every frame, even one that leaves at once, and
// TCP small queues (below) let a socket's second frame through when the first is its only
// one in flight: with a one-frame queue that frame was dropped, and lmmc-2node with fifo =
// 1600 took 6.0 s of retransmission time-outs instead of 0.45 s.
long long serial_queue(const scenario::SerialSpec& spec) {
  return std::max<long long>(2 * kSerialFrame, spec.fifo_bytes);
}

struct Hop {
  std::string ifname, via;
};

// next[a][b]: a's interface towards its neighbour b and b's address on that link.
using HopTable = std::map<std::pair<int, int>, Hop>;

HopTable wire_links(const scenario::SerialSpec& spec, const std::vector<std::string>& node_ns,
                    Builder& build) {
  const std::vector<scenario::SerialLink> links = scenario::serial_links(spec);
  if (static_cast<int>(links.size()) > kMaxSerialLinks)
    throw std::invalid_argument("netns emulation holds at most " + std::to_string(kMaxSerialLinks) +
                                " serial links");
  HopTable hops;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const int l = static_cast<int>(i);
    const std::string ifname = "s" + std::to_string(l);
    const auto na = static_cast<std::size_t>(links[i].a);
    const auto nb = static_cast<std::size_t>(links[i].b);
    LinkEnd a{node_ns[na], ifname, false, link_ip(l, 0), link_mac(l, 0), 30};
    LinkEnd b{node_ns[nb], ifname, false, link_ip(l, 1), link_mac(l, 1), 30};
    // The delay line serialises every frame at the link's rate (tbf alone sent the first
    // frame after an idle gap at once: a message of up to a frame crossed without its wire
    // time); tbf, at the same rate, stays in front of it as the FIFO the senders wait on.
    build.add_link(a, b, spec.latency, spec.bandwidth,
                   {serial_burst(spec.bandwidth), serial_queue(spec), true});
    // Frames, not GSO super-packets, reach the queue: one 64 KB super-packet would overflow a
    // FIFO-sized queue on its own (tbf cuts it into frames and drops what does not fit).
    for (const LinkEnd* end : {&a, &b})
      build.ns(end->ns).push_back("link set dev " + ifname + " gso_max_segs 1");
    build.ns(a.ns).push_back("neigh replace " + b.ip + " lladdr " + b.mac + " dev " + ifname +
                             " nud permanent");
    build.ns(b.ns).push_back("neigh replace " + a.ip + " lladdr " + a.mac + " dev " + ifname +
                             " nud permanent");
    hops[{links[i].a, links[i].b}] = {ifname, b.ip};
    hops[{links[i].b, links[i].a}] = {ifname, a.ip};
  }
  return hops;
}

// Every node's route to every other node's address and to the rendezvous, next hop by
// serial_next_node, with the node's own address as the source (replies come back to it).
void add_routes(const scenario::SerialSpec& spec, const std::vector<std::string>& node_ns,
                const HopTable& hops, Builder& build) {
  for (int from = 0; from < spec.nodes; ++from) {
    auto& lines = build.ns(node_ns[static_cast<std::size_t>(from)]);
    const std::string src = " src " + serial_node_ip(from);
    for (int to = 0; to < spec.nodes; ++to) {
      if (from == to) continue;
      const Hop& hop = hops.at({from, scenario::serial_next_node(spec, from, to)});
      lines.push_back("route add " + serial_node_ip(to) + "/32 via " + hop.via + " dev " +
                      hop.ifname + src);
    }
    if (from == 0) continue;
    const Hop& hop = hops.at({from, scenario::serial_next_node(spec, from, 0)});
    lines.push_back("route add " + std::string(kConsoleRendezvous) + "/32 via " + hop.via +
                    " dev " + hop.ifname + src);
  }
}

}  // namespace

void share_serial_segment(const scenario::SerialSpec& spec, NetnsPlan& plan) {
  const std::string bridge_ns = plan.prefix + "s0";
  auto& lines = plan.ns_batch[bridge_ns];
  // Every host's port and the rendezvous': plan_netns names a switch's ports h1, h2, ... in
  // the order it adds hosts; refuse rather than leave a port outside the medium.
  const std::size_t ports = plan.host_ns.size() + 1;
  for (std::size_t k = 1; k <= ports; ++k)
    if (std::find(lines.begin(), lines.end(),
                  "link set dev h" + std::to_string(k) + " master br0") == lines.end())
      throw std::logic_error("shared segment: bridge port h" + std::to_string(k) + " not found");
  lines.push_back("link add seg type ifb");
  lines.push_back("link set dev seg up");
  auto& tc = plan.tc_batch[bridge_ns];
  // The medium: one frame after another at the segment's rate, 50 ms of frames waiting (the
  // switch ports' queue); like a serial link's, the bucket holds one frame.
  tc.push_back("qdisc replace dev seg root tbf rate " + bits_per_second(spec.segment_bandwidth) +
               " burst " + std::to_string(serial_burst(spec.segment_bandwidth)) + " latency 50ms");
  for (std::size_t k = 1; k <= ports; ++k) {
    const std::string port = "h" + std::to_string(k);
    tc.push_back("qdisc add dev " + port + " handle ffff: ingress");
    tc.push_back("filter add dev " + port +
                 " parent ffff: protocol all u32 match u32 0 0 action mirred egress redirect dev "
                 "seg");
  }
}

std::string serial_node_ip(int node) {
  return "10." + std::to_string(160 + node / 256) + "." + std::to_string(node % 256) + ".1";
}

NetnsPlan plan_netns_serial(const scenario::Scenario& scenario, const std::string& prefix,
                            const NetnsCalibration& calibration) {
  const scenario::SerialSpec& spec = *scenario.network.serial;
  if (spec.nodes > kMaxSerialNodes)
    throw std::invalid_argument("netns emulation holds at most " + std::to_string(kMaxSerialNodes) +
                                " serial nodes");
  NetnsPlan plan;
  plan.prefix = prefix;
  Builder build(plan, calibration);
  std::vector<std::string> node_ns;
  for (int i = 0; i < spec.nodes; ++i) {
    node_ns.push_back(prefix + "h" + std::to_string(i));
    build.add_namespace(node_ns.back());
    build.ns(node_ns.back()).push_back("addr add " + serial_node_ip(i) + "/32 dev lo");
    plan.host_ns.push_back(node_ns.back());
    plan.host_ip.push_back(serial_node_ip(i));
    plan.host_site.push_back("");
    // Every node forwards; reverse-path filtering off, as a reply may come back another way.
    // Back-pressure for the node's own sockets: TCP small queues let a socket keep at most a
    // FIFO's worth of bytes in the qdisc (at least one frame), and hold the rest itself until
    // the link takes them, as STAFF-Link makes a store into a full FIFO retry. Forwarded
    // frames have no socket to wait in: a full queue drops them (docs/lmmc.md, "FIFO depth").
    plan.ns_exec.push_back(
        {node_ns.back(),
         {"sysctl", "-q", "-w", "net.ipv4.ip_forward=1", "net.ipv4.conf.all.rp_filter=0",
          "net.ipv4.conf.default.rp_filter=0",
          "net.ipv4.tcp_limit_output_bytes=" + std::to_string(spec.fifo_bytes)}});
  }
  // The rendezvous: a console link to node 0 with the node's bus figures.
  plan.rendezvous_ns = prefix + "rv";
  plan.rendezvous_ip = kConsoleRendezvous;
  build.add_namespace(plan.rendezvous_ns);
  const LinkEnd console_node{node_ns[0], "c0", false, kConsoleNode, mac_address(0x7d << 16), 30};
  const LinkEnd console_rv{plan.rendezvous_ns,          "c0", false, kConsoleRendezvous,
                           mac_address(0x7d << 16 | 1), 30};
  build.add_link(console_node, console_rv, spec.bus_latency, spec.bus_bandwidth);
  build.ns(node_ns[0])
      .push_back("neigh replace " + console_rv.ip + " lladdr " + console_rv.mac +
                 " dev c0 nud permanent");
  auto& rv = build.ns(plan.rendezvous_ns);
  rv.push_back("neigh replace " + console_node.ip + " lladdr " + console_node.mac +
               " dev c0 nud permanent");
  rv.push_back("route add default via " + console_node.ip + " dev c0");
  add_routes(spec, node_ns, wire_links(spec, node_ns, build), build);
  return plan;
}

}  // namespace tsunagi::realnet
